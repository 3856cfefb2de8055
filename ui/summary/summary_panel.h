// The model at a glance: producer, IR version, opsets, inputs and outputs,
// op counts, parameters, what loading repaired, and the colour legend.
#pragma once

#include <QFutureWatcher>
#include <QWidget>

#include <memory>

#include "core/analysis/model_summary.h"
#include "ui/document/document.h"

class QFormLayout;
class QGroupBox;
class QLabel;
class QTableView;

namespace passlab::ui {

class IoModel;
class OpCountModel;

class SummaryPanel : public QWidget {
  Q_OBJECT

 public:
  explicit SummaryPanel(Document* doc, QWidget* parent = nullptr);
  OpCountModel* opCounts() const { return ops_; }
  IoModel* ioModel() const { return io_; }
  QString factsText() const;  // for tests
  bool isComputing() const { return computing_ > 0; }

 signals:
  void summaryReady();

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void retranslateUi();
  void refresh();
  void show(const analysis::ModelSummary& s);

  Document* doc_;
  QGroupBox* factsBox_;
  QLabel* facts_;
  QGroupBox* ioBox_;
  QGroupBox* opsBox_;
  QGroupBox* notesBox_;
  QLabel* notes_;
  QGroupBox* legendBox_;
  QFormLayout* legend_;
  IoModel* io_;
  OpCountModel* ops_;
  std::shared_ptr<const analysis::ModelSummary> last_;
  int generation_ = 0;
  int computing_ = 0;
};

}  // namespace passlab::ui
