// The Profile dock: run the profiler on the current model (or compare it with
// the opened original through the pipeline's provenance) on a worker thread;
// show per-node (per-group) and per-op-type tables that sort and filter, a bar
// chart, a roofline, and a heat overlay of the graph by time share; export
// CSV and JSON. The window wires it to the graph (selection both ways, the
// overlay) and to the status bar (progress, Cancel). The Device selector
// lists the CPU and every device exec::listDevices finds (none: a hint says
// why); the results say where the profile ran and how many steps fell back
// to the CPU.
#pragma once

#include <QWidget>

#include <string>
#include <unordered_map>
#include <vector>

#include "core/exec/backend.h"
#include "ui/document/document.h"
#include "ui/profile/profile_runner.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QSpinBox;
class QTabWidget;
class QTableView;
class QToolButton;

namespace passlab::ui {

class PipelineSession;
class ProfileChart;
class ProfileTableModel;
class RooflineView;

class ProfilePanel : public QWidget {
  Q_OBJECT

 public:
  ProfilePanel(Document* doc, PipelineSession* pipeline, QWidget* parent = nullptr);
  ~ProfilePanel() override;

  ProfileRunner* runner() const { return runner_; }
  ProfileSettings settings() const;
  // Also selects s.device when the selector lists it ("cuda": its first device).
  void setSettings(const ProfileSettings& s);

  // The Device selector: "CPU" first, then one entry per device (its data:
  // "cuda:0"). The panel fills it from exec::listDevices(); tests may give
  // their own list. `notes` say why a backend has no device.
  QComboBox* deviceSelector() const { return device_; }
  void setDevices(const std::vector<exec::DeviceDescription>& devices,
                  const std::vector<std::string>& notes);
  // "No GPU: <note>" when no device was found and a backend said why; else "".
  QString deviceHintText() const;
  // Where the shown profile ran ("" before a run): the device, and for a GPU
  // the steps on the device / host / CPU fallback and the copies.
  QString whereText() const;
  // One line for a profile: "Ran on the CPU (...)" or "Ran on cuda:0 ...: ...".
  static QString ranOnText(const pipeline::ProfileResult& r);
  // The steps that fell back to the CPU, one line per op and reason ("" when none).
  static QString fallbackText(const pipeline::ProfileResult& r);

  // Profiles the current model / compares it with the original (false when
  // nothing can start: no model, a run in progress, no Step applied).
  bool runProfile();
  bool runCompare();
  bool canCompare() const;

  const ProfileOutcomePtr& outcome() const { return outcome_; }
  QString errorText() const;
  QString summaryText() const;

  // The table of nodes (groups in compare mode), through its sort/filter proxy.
  QTableView* nodeView() const { return nodeView_; }
  ProfileTableModel* nodeModel() const { return nodeModel_; }
  QSortFilterProxyModel* nodeProxy() const { return nodeProxy_; }
  ProfileTableModel* opTypeModel() const { return opModel_; }
  ProfileChart* chart() const { return chart_; }
  RooflineView* roofline() const { return roofline_; }
  QTabWidget* tabs() const { return viewTabs_; }
  void setFilter(const QString& text);

  // The heat overlay: each node's share of the run time, when switched on.
  bool heatShown() const;
  void setHeatShown(bool on);
  std::unordered_map<ir::NodeId, double> heatShares() const;

  // Selects the row showing `node` (none: clears the selection); emits nothing.
  void selectNode(ir::NodeId node);
  ir::NodeId selectedNode() const;

  // The node's timings for the properties panel ("" when it was not profiled).
  QString nodeTimingText(ir::NodeId node) const;

  // Writes the outcome; an error message, or "" when written.
  QString exportJsonTo(const QString& path) const;
  QString exportCsvTo(const QString& path) const;

 signals:
  // A row (or roofline point) was picked: select this node of the current model.
  void nodeActivated(quint64 node);
  // The overlay was switched, or a run brought new shares.
  void heatChanged();
  void outcomeChanged();

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void buildControls();
  void buildViews();
  void retranslateUi();
  void retranslateDevices();
  void showWhere();
  void updateEnabled();
  void onDocumentChanged(const DocumentChange& change);
  void clearOutcome();
  void showOutcome(ProfileOutcomePtr outcome);
  void showError(const QString& message);
  void showTables();
  QString outcomeSummary() const;
  void onCurrentRow();
  void exportDialog(bool json);

  Document* doc_;
  PipelineSession* pipeline_;
  ProfileRunner* runner_;
  ProfileOutcomePtr outcome_;
  bool syncing_ = false;
  // Another model opened since the run started: its outcome is dropped.
  int documentGeneration_ = 0, runGeneration_ = 0;
  bool stale_ = false;  // the model changed (a Step, undo) since it was profiled

  QLabel *deviceLabel_, *threadsLabel_, *warmupLabel_, *repeatsLabel_;
  QComboBox* device_;
  QLabel* deviceHint_;  // "No GPU: ..." under the controls
  QLabel* where_;       // where the shown profile ran
  std::vector<exec::DeviceDescription> devices_;
  std::vector<std::string> deviceNotes_;
  QSpinBox *threads_, *warmup_, *repeats_;
  QPushButton *run_, *compare_, *exportCsv_, *exportJson_;
  QToolButton* heat_;
  QLabel* legend_;
  QLabel* summary_;
  QLabel* error_;
  QLineEdit* filter_;
  QTabWidget* tableTabs_;
  QTabWidget* viewTabs_;
  QTableView* nodeView_;
  QTableView* opView_;
  ProfileTableModel* nodeModel_;
  ProfileTableModel* opModel_;
  QSortFilterProxyModel* nodeProxy_;
  QSortFilterProxyModel* opProxy_;
  ProfileChart* chart_;
  RooflineView* roofline_;
  QComboBox* chartSubject_;
};

}  // namespace passlab::ui
