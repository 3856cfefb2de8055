// The Precision dock: what a lossy conversion costs, layer by layer, and
// automatic mixed precision. The user picks the target (FP16, BF16, INT8
// dynamic, INT8 static with its calibration method and per-channel weights,
// low rank, magnitude pruning when core has it), the calibration data and the
// accuracy budget (the pipeline session's: the Pipeline panel shows the same);
// "Rank Layers" measures each layer converted alone (PrecisionWorker, with
// progress and Cancel) and draws the ranking (SensitivityChart; a bar picks
// its node); "Mixed Precision" finds the fewest most sensitive layers to keep
// in float32 for the budget to hold and applies the pass with them excluded
// as a pipeline Step (in the Timeline with its accuracy, undoable), after
// which the kept layers are marked on the graph; "Calibrate" observes every
// activation on the calibration sets, and a tensor selected in the graph
// then shows its histogram with the chosen method's range (TensorHistogram).
#pragma once

#include <QWidget>

#include <optional>
#include <set>

#include "ui/document/document.h"
#include "ui/precision/precision_target.h"
#include "ui/precision/precision_worker.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace passlab::ui {

class BudgetEditor;
class PipelineSession;
class SensitivityChart;
class TensorHistogram;

class PrecisionPanel : public QWidget {
  Q_OBJECT

 public:
  PrecisionPanel(Document* doc, PipelineSession* pipeline, QWidget* parent = nullptr);
  ~PrecisionPanel() override;

  PrecisionWorker* worker() const { return worker_; }
  SensitivityChart* chart() const { return chart_; }
  TensorHistogram* histogram() const { return histogram_; }

  PrecisionChoice choice() const;
  void setChoice(const PrecisionChoice& choice);

  // Start the analyses (false: one is running, a pipeline run is, or no model).
  bool rankLayers();
  bool mixedPrecision();
  bool calibrate();
  void cancel();

  // The tensor whose histogram is shown (the graph's selected value).
  void selectTensor(const QString& name);
  // The nodes the last mixed precision Step kept in float32, while that
  // Step is applied; empty otherwise.
  const std::set<ir::NodeId>& keptNodes() const { return shownKept_; }

  QString summaryText() const;
  // The error shown ("" when none).
  QString messageText() const;

 signals:
  // A bar was clicked: its node, in the model the ranking measured.
  void nodeActivated(quint64 node);
  void keptNodesChanged();

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void buildWidgets();
  void connectWidgets();
  void retranslateUi();
  void updateState();
  void showSettings();
  bool startWorker(PrecisionRequest::Kind kind);
  void onFinished(PrecisionOutcomePtr outcome);
  void onFailed(const QString& message);
  void applyMixed(const PrecisionOutcome& outcome);
  void onStepsChanged();
  void showHistogram();
  void showMessage(const QString& text);
  bool rankingCurrent() const;

  Document* doc_;
  PipelineSession* pipeline_;
  PrecisionWorker* worker_;
  int generation_ = 0;       // bumped whenever the document's model changes
  int startGeneration_ = 0;  // the one the running analysis measures

  PrecisionOutcomePtr ranking_;  // the last ranking (or mixed precision's)
  int rankingGeneration_ = -1;
  CalibrationTable calibration_;
  int calibrationGeneration_ = -1;
  QString selectedTensor_;
  QString summary_;
  // The mixed precision Step this panel asked for: its kept nodes, and the
  // Step once it is applied (the marks follow it through undo and redo).
  std::set<ir::NodeId> pendingKept_;
  bool waitingForStep_ = false;
  const void* keptStep_ = nullptr;
  std::set<ir::NodeId> keptOfStep_, shownKept_;

  QLabel* targetLabel_;
  QComboBox* target_;
  QLabel* methodLabel_;
  QComboBox* method_;
  QCheckBox* perChannel_;
  QLabel* calibrationText_;
  QPushButton* chooseFolder_;
  QLabel* setsLabel_;
  QSpinBox* sets_;
  QLabel* budgetLabel_;
  BudgetEditor* budget_;  // the pipeline session's, as the Pipeline panel's
  QPushButton* rank_;
  QPushButton* mixed_;
  QPushButton* calibrate_;
  QPushButton* cancel_;
  QProgressBar* progress_;
  QLabel* status_;
  QLabel* message_;
  SensitivityChart* chart_;
  QLabel* histogramHint_;
  TensorHistogram* histogram_;
};

}  // namespace passlab::ui
