// Everything about the selection: a node (attributes, inputs and outputs with
// types, the op's one-line documentation, bodies, provenance and why patterns
// did not match), a value (type, producer, readers; an initializer's shape,
// statistics and histogram) or a collapsed group.
#pragma once

#include <QFutureWatcher>
#include <QWidget>

#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <vector>

#include "core/layout/grouping.h"
#include "ui/document/document.h"
#include "ui/document/selection.h"
#include "ui/properties/tensor_stats.h"

class QFormLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QTableView;
class QVBoxLayout;

namespace passlab::ui {

class AttributeModel;
class HistogramWidget;
class PortModel;

class PropertiesPanel : public QWidget {
  Q_OBJECT

 public:
  explicit PropertiesPanel(Document* doc, QWidget* parent = nullptr);
  ~PropertiesPanel() override;

  // `groups`: the grouping of the selection's graph, for group selections.
  void setSelection(const Selection& s, const layout::GroupTree* groups = nullptr);
  const Selection& selection() const { return selection_; }
  // Where the Timing section of a node comes from (the Profile dock): its
  // text, or "" when the node was not profiled (the section is hidden).
  void setTimingSource(std::function<QString(ir::NodeId)> source);
  QString timingText() const;

  // For tests: what the sections show.
  QString title() const;
  QString documentationText() const;
  QString provenanceText() const;
  QString matchFailureText() const;
  QString statisticsText() const;
  QString valueInfoText() const;
  bool statisticsPending() const { return statsRunning_; }
  AttributeModel* attributeModel() const { return attributes_; }
  PortModel* inputModel() const { return inputs_; }
  PortModel* outputModel() const { return outputs_; }
  HistogramWidget* histogram() const { return histogram_; }

 signals:
  void valueActivated(const QString& valueName);  // a port row was double-clicked
  void openBodyRequested(const passlab::ui::GraphRef& ref);
  void expandGroupRequested(const QString& groupId);
  void statisticsReady();

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void retranslateUi();
  void refresh();
  void showNode(const ir::Node& node);
  void showValue(const ir::Value& value);
  void showTensor(const ir::Tensor& tensor);
  void showGroup();
  void showInsights(ir::NodeId node);
  void cancelStats();
  void setStats(const TensorStats& s);
  QGroupBox* section(QVBoxLayout* into);

  Document* doc_;
  Selection selection_;
  // The selected group, copied (the tree belongs to a graph panel).
  std::optional<layout::Group> group_;
  std::vector<ir::NodeId> groupMembers_;
  QLabel* title_;
  QLabel* subtitle_;
  QGroupBox* nodeBox_;
  QLineEdit* nodeName_;
  QLabel* nodeOp_;
  QLabel* nodeId_;
  QLabel* nodeSchema_;
  QLabel* nodeDoc_;
  QLabel* nameLabel_;
  QLabel* opLabel_;
  QLabel* idLabel_;
  QLabel* schemaLabel_;
  QLabel* docLabel_;
  QGroupBox* attrBox_;
  QTableView* attrView_;
  AttributeModel* attributes_;
  QGroupBox* inBox_;
  QGroupBox* outBox_;
  QTableView* inView_;
  QTableView* outView_;
  PortModel* inputs_;
  PortModel* outputs_;
  QGroupBox* bodyBox_;
  QVBoxLayout* bodyList_;
  QGroupBox* valueBox_;
  QLabel* valueInfo_;
  QGroupBox* tensorBox_;
  QLabel* tensorInfo_;
  QLabel* statsInfo_;
  HistogramWidget* histogram_;
  QGroupBox* groupBox_;
  QLabel* groupInfo_;
  QGroupBox* provenanceBox_;
  QLabel* provenanceInfo_;
  QGroupBox* matchBox_;
  QLabel* matchInfo_;
  QGroupBox* timingBox_;
  QLabel* timingInfo_;
  std::function<QString(ir::NodeId)> timingSource_;
  QLabel* empty_;

  QFutureWatcher<TensorStats>* statsWatcher_;
  std::shared_ptr<std::stop_source> statsStop_;
  bool statsRunning_ = false;
};

}  // namespace passlab::ui
