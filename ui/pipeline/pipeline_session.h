// The pass pipeline of one document, as the workbench drives it: the plan
// (the ordered schedule of a level or recipe from core: one row per pass run,
// a pass that runs twice has two rows; rows switched on or off, with options),
// the Steps applied so far, and runs of core/pipeline's PassManager on a worker
// thread with progress and Cancel. Every Step enters the document's undo stack
// as one command (ui/pipeline/pipeline_commands.h) holding the model before and
// after it; the session's list of applied Steps follows the undo stack.
//
// No optimization logic lives here: passes, checks, provenance and statistics
// all come from core/pipeline, core/passes and core/rewrite.
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/passes/registry.h"
#include "core/pipeline/pass_manager.h"
#include "core/pipeline/recipe.h"
#include "core/rewrite/provenance.h"
#include "ui/document/document.h"

namespace passlab::pipeline {
class ExecOutputChecker;
}

namespace passlab::ui {

// One row of the plan: one run of a pass.
struct PlanEntry {
  std::string id;
  bool enabled = false;
  passes::Options options;  // overrides of the declared defaults
};

// One applied Step, shared between the session, its undo command and views.
struct AppliedStep {
  pipeline::Step step;
  // The model before and after the Step (equal for a Step that changed nothing).
  std::shared_ptr<const ir::Model> before, after;
  // Which original nodes every node stands for, across all Steps up to this one.
  rewrite::Provenance provenance;
  // The nodes the pass was limited to or kept away from (empty: the whole graph).
  rewrite::NodeFilter filter;
  // The plan row that ran it (-1: unknown).
  int row = -1;
  // The calibration data it ran with, as a recipe records it
  // (pipeline::recordedCalibration); not recorded unless its pass calibrates
  // and it changed the model (a rolled-back Step is no part of a recipe).
  pipeline::RecipeCalibration calibration;
  // The settings it ran with (its PassManager's), as a recipe records them:
  // standard ONNX only, and the accuracy budget (which judged it only where
  // its check held it to one: a lossy pass, one exact per node unit, any
  // after a lossy one).
  bool standardOnly = true;
  pipeline::AccuracyBudget budget;
};
using AppliedStepPtr = std::shared_ptr<const AppliedStep>;

// The order of the categories in the pass list (structural cleanup, algorithmic
// substitutions, read/write fusions, precision); the plan itself keeps the
// schedule's order.
int categoryRank(passes::Category c);
// How the pass list names a row: the pass id, with "(2)", "(3)", ... for its
// second, third, ... row in the plan ("eliminate_dead_nodes (2)").
std::string planRowLabel(const std::vector<PlanEntry>& plan, int row);

class PipelineSession : public QObject {
  Q_OBJECT

 public:
  // The session belongs to the document (its undo commands refer to both).
  explicit PipelineSession(Document* doc);
  ~PipelineSession() override;

  Document* document() const { return doc_; }

  // ---- the plan ----
  const std::vector<PlanEntry>& plan() const { return plan_; }
  void setPlan(std::vector<PlanEntry> plan);
  // Switches one row / every row of a pass on or off.
  void setRowEnabled(int row, bool enabled);
  void setEnabled(const std::string& id, bool enabled);
  // Moves the row at `from` to position `to`.
  void movePass(int from, int to);
  // Inserts a row running pass `id` (switched on) at `row` (-1: at the end).
  Status insertPass(int row, const std::string& id);
  void removeRow(int row);
  // Sets one option of one row / of every row of a pass; an empty value returns
  // it to its default.
  Status setRowOption(int row, const std::string& name, const std::string& value);
  Status setOption(const std::string& id, const std::string& name, const std::string& value);
  // The plan becomes the schedule of a core level ("basic", "default", "fused",
  // "ort", "all"; passes::passesForLevel), row for row, every row switched on;
  // the options a pass had carry over.
  Status applyLevel(const std::string& level);
  // The enabled rows in order, as PassManager specs.
  std::vector<pipeline::PassSpec> enabledSpecs() const;
  // The row the next Step applies: the first switched-on row after the one
  // that ran last (from the top before the first Step); -1 when none is left
  // (none is switched on, or the plan is complete: Reset starts it again).
  int nextRow() const;
  // Steps have run and no switched-on row is left after the last one run.
  bool planComplete() const;
  // Its pass ("" when none).
  std::string nextPass() const;

  // Where the session finds the plan's passes by id: the registry
  // (passes::findPass) unless set (tests plant passes it does not list).
  using PassLookup = std::function<const passes::Pass*(std::string_view id)>;
  void setPassLookup(PassLookup lookup) { findPass_ = std::move(lookup); }

  // ---- settings ----
  bool numericCheck() const { return numericCheck_; }
  void setNumericCheck(bool on);
  int checkInputSets() const { return checkInputSets_; }
  void setCheckInputSets(int n) { checkInputSets_ = std::max(1, n); }
  bool standardOnly() const { return standardOnly_; }
  void setStandardOnly(bool on) { standardOnly_ = on; }
  // What a lossy pass may cost (docs/precision.md); a change starts the next
  // run's PassManager afresh.
  const pipeline::AccuracyBudget& accuracyBudget() const { return budget_; }
  void setAccuracyBudget(const pipeline::AccuracyBudget& budget);
  // Where quantize_static's calibration sets come from: a folder (one
  // subfolder per set: input_0.pb / .npy, ...), or "" for
  // synthesizedCalibrationSets() synthesized sets (16 unless set). A change
  // starts the next run's PassManager afresh. The Pipeline and Precision
  // panels both edit these; settingsChanged tells the other.
  const std::string& calibrationFolder() const { return calibrationFolder_; }
  void setCalibrationFolder(std::string folder);
  int synthesizedCalibrationSets() const { return synthesizedSets_; }
  void setSynthesizedCalibrationSets(int n);
  // Limits the passes to some nodes (`only`) and/or keeps them away from some
  // (`excluded`): a selected subgraph, a node left alone. Empty: every node.
  const rewrite::NodeFilter& nodeFilter() const { return filter_; }
  void setNodeFilter(rewrite::NodeFilter filter);

  // ---- running ----
  // Applies the next enabled pass / every enabled pass from the next one to the
  // end of the plan, on a worker thread. False if one is running or no model is open.
  bool step();
  bool runAll();
  // Applies `spec` as the next Step: a row running its pass with its options
  // is inserted after the last row run, and runs with the spec's own node
  // filter instead of the session's (the Precision panel's mixed precision:
  // the kept float32 nodes excluded). False if one is running, no model is
  // open or the pass is unknown.
  bool runSpec(const pipeline::PassSpec& spec);
  bool isRunning() const { return running_; }
  // Stops after the pass now running (which itself stops at its next rewrite);
  // the Steps finished so far are kept.
  void cancel();
  // Back to the model before the first Step: one undoable command.
  void reset();
  // Blocks until a run in progress ends (tests, shutdown).
  void waitForRun();

  // ---- what has been applied ----
  const std::vector<AppliedStepPtr>& steps() const { return steps_; }
  // The plan row the last applied Step ran (-1 before the first).
  int lastRow() const { return lastRow_; }
  // The recipe that reproduces the applied Steps (their passes and options,
  // and the calibration data, standard ONNX only, accuracy budget and check
  // input sets the Steps ran with, not the panels' as they are now; the last
  // one's when they differ: see recipeConflict). Rolled-back Steps are left
  // out, passes and settings: they did not change the model, and a replay
  // would stop where a budget rolled one back.
  pipeline::Recipe recipe() const;
  // The passes of the rolled-back Steps recipe() leaves out, in order.
  QStringList stepsLeftOutOfRecipe() const;
  // "" unless calibrating Steps ran with different calibration data: a recipe
  // records one, so its replay would not make this model. Then the reason, in
  // the user's language (Export recipe refuses with it).
  QString recipeCalibrationConflict() const;
  // "" unless the Steps it records ran with settings a recipe cannot record
  // as one (recipe() records the last): calibration data (above), standard
  // ONNX only, the accuracy budget of the Steps it judged, or the input sets
  // of the Steps checked; or every Step was rolled back (none to record).
  // Then the reason (Export recipe refuses with it).
  QString recipeConflict() const;
  // The plan becomes the recipe's list exactly: one row per entry, in its
  // order (a pass named twice has two rows), switched on, with its options.
  Status loadRecipe(const pipeline::Recipe& recipe);

  // ---- for the undo commands only ----
  void appendStep(AppliedStepPtr step, int lastRow);
  void removeLastStep(int lastRow);
  void setState(std::vector<AppliedStepPtr> steps, int lastRow);

  // The original's outputs the numeric check of the last run left out
  // (computed from random ops without a seed); empty without a check.
  const std::vector<std::string>& uncomparedOutputs() const;
  // The inputs the numeric check makes up for the model before the first
  // Step: one line per input with the reasons for its dims and values, or
  // the one reason none can be made (core/pipeline/input_synthesis.h).
  QStringList checkInputDescriptions() const;

 signals:
  void planChanged();
  void nodeFilterChanged();
  // The accuracy budget or the calibration data changed.
  void settingsChanged();
  void stepsChanged();
  void runningChanged(bool running);
  // `done` of `total` passes finished; `current` is the one running now ("" at the end).
  void progress(int done, int total, const QString& current);
  // A run ended; `message` says why it stopped early ("" when it ran to the end).
  void runFinished(const QString& message);

 private:
  struct RunState;
  struct RunJob;
  struct CheckerMade;
  // `filter`: instead of the session's node filter, when given.
  bool start(std::vector<int> rows, const rewrite::NodeFilter* filter = nullptr);
  // The steps of a run: on the UI thread, then on the worker.
  std::shared_ptr<RunJob> prepareRun(std::vector<int> rows, const rewrite::NodeFilter* filter);
  std::shared_ptr<RunState> reusableRunState();
  bool stands(const std::shared_ptr<const ir::Model>& model) const;
  void runInWorker(RunJob& job);
  static QString prepareChecker(RunJob& job);
  static void preparePassManager(RunJob& job);
  QString runPasses(RunJob& job, bool& usable);
  QString runPassesUntilStopped(RunJob& job, bool& usable, QStringList& rolledBack);
  void publishStep(RunJob& job, const pipeline::Step& s, int i);
  void onWorkerStep(int runId, AppliedStepPtr step, int done, int total, const QString& next);
  void onWorkerDone(int runId, const QString& error, const CheckerMade& made,
                    std::shared_ptr<RunState> state);
  void onDocumentChanged(const DocumentChange& change);
  void publishInsights();

  Document* doc_;
  PassLookup findPass_ = passes::findPass;
  std::vector<PlanEntry> plan_;
  bool numericCheck_ = true;
  int checkInputSets_ = 2;
  bool standardOnly_ = true;
  pipeline::AccuracyBudget budget_;
  std::string calibrationFolder_;
  int synthesizedSets_ = 16;
  std::string checkedFolder_;  // the calibration folder checker_ was made with (its run's)
  int checkedSets_ = 0;        // the input sets checker_ was made on (its run's)
  rewrite::NodeFilter filter_;

  std::vector<AppliedStepPtr> steps_;
  int lastRow_ = -1;

  // The numeric check's reference: outputs of the model before the first Step.
  std::shared_ptr<pipeline::ExecOutputChecker> checker_;
  std::shared_ptr<const ir::Model> checkedOriginal_;
  std::shared_ptr<const ir::Model> checkerAt_;  // the model its run ended at (CheckerMade::at)

  bool running_ = false;
  int runId_ = 0;
  std::shared_ptr<std::atomic<bool>> cancel_;
  QFuture<void> future_;
  std::vector<AppliedStepPtr> pending_;  // finished by the worker, not yet on the undo stack
  int undoIndexAtStart_ = 0;
  bool batching_ = false;  // pushing a run's commands
  int lastRowAtStart_ = -1;
  // One PassManager per document run, kept across Step clicks while the
  // document holds the model its last Step left: its stand-ins for replaced
  // outputs (numeric check) and its provenance carry over, so Step by Step
  // checks what Run All checks. Used by one worker at a time.
  std::shared_ptr<RunState> runState_;
};

}  // namespace passlab::ui
