// The Memory dock: the executor's memory plan of the current model as a
// timeline (MemoryChart), or, for a Step chosen in the Timeline, of the model
// before and after that Step, so a fusion's lower peak shows. Planning runs
// on a worker (MemoryPlanner) whenever the model or the chosen Step changes
// while the dock is visible; a newer request cancels the running one. A model
// with a tensor whose size is known only at run time is planned from one run
// on synthesized inputs, and the summary says so (a message instead of a
// chart when that run fails). Clicking a band asks the window to select its tensor
// (the arrows from its producer to its readers).
#pragma once

#include <QWidget>

#include "ui/document/document.h"
#include "ui/memory/memory_planner.h"

class QLabel;

namespace passlab::ui {

class MemoryChart;
class PipelineSession;

class MemoryPanel : public QWidget {
  Q_OBJECT

 public:
  MemoryPanel(Document* doc, PipelineSession* pipeline, QWidget* parent = nullptr);
  ~MemoryPanel() override;

  MemoryPlanner* planner() const { return planner_; }
  MemoryChart* chart() const { return chart_; }
  const MemoryOutcomePtr& outcome() const { return outcome_; }
  // The Step compared (0-based), or -1 for the current model.
  int step() const { return step_; }
  // Compares the model before and after Step `step` (-1: the current model).
  void showStep(int step);
  // Plans again now, visible or not (false: nothing to plan, no model open).
  bool refresh();
  QString summaryText() const;
  // The message shown instead of the chart ("" when the chart is shown).
  QString messageText() const;

 signals:
  // A band was clicked: its tensor, the node writing it and those reading it.
  void tensorActivated(const QString& tensor, quint64 producer, const QList<quint64>& readers);

 protected:
  void changeEvent(QEvent* event) override;
  void showEvent(QShowEvent* event) override;

 private:
  void retranslateUi();
  void requestPlan();
  void onDocumentChanged(const DocumentChange& change);
  void onStepsChanged();
  void showOutcome(MemoryOutcomePtr outcome);
  void showText();
  QString timelineSummary(const MemoryTimeline& t) const;
  // The outputs outside the block and the kernel scratch ("" when none).
  QString outsideSummary(const exec::memory::MemoryPlan& p) const;
  // Why the kernel scratch is not planned, where the run for it failed ("" else).
  QString scratchRunNote(const MemoryTimeline& t) const;
  QString comparisonSummary() const;
  QString problemText(const MemoryTimeline& t) const;
  QString runNote(const MemoryTimeline& t) const;
  void onBandClicked(int band);

  Document* doc_;
  PipelineSession* pipeline_;
  MemoryPlanner* planner_;
  MemoryOutcomePtr outcome_;
  int step_ = -1;
  bool stale_ = true;  // the model or the Step changed while hidden

  QLabel* summary_;
  QLabel* message_;
  MemoryChart* chart_;
};

}  // namespace passlab::ui
