// The pass pipeline of one document, as the workbench drives it: the plan
// (passes from the registry, in order, switched on or off, with options), the
// Steps applied so far, and runs of core/pipeline's PassManager on a worker
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
#include <memory>
#include <string>
#include <vector>

#include "core/pipeline/pass_manager.h"
#include "core/pipeline/recipe.h"
#include "core/rewrite/provenance.h"
#include "ui/document/document.h"

namespace passlab::pipeline {
class ExecOutputChecker;
}

namespace passlab::ui {

// One pass of the plan.
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
};
using AppliedStepPtr = std::shared_ptr<const AppliedStep>;

// The plan runs category by category (structural cleanup, then algorithmic
// substitutions, then read/write fusions, then precision), each in its own order.
int categoryRank(passes::Category c);
std::vector<PlanEntry> groupByCategory(std::vector<PlanEntry> plan);

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
  void setEnabled(const std::string& id, bool enabled);
  // Moves the entry at `from` to position `to`.
  void movePass(int from, int to);
  // Sets one option; an empty value returns it to its default.
  Status setOption(const std::string& id, const std::string& name, const std::string& value);
  // Switches on exactly the passes of a registry level ("basic", "default", "all"),
  // in the level's order (first appearance) within each category, the others off.
  Status applyLevel(const std::string& level);
  // The enabled passes in order, as PassManager specs.
  std::vector<pipeline::PassSpec> enabledSpecs() const;
  // The pass the next Step applies ("" when none is enabled).
  std::string nextPass() const;

  // ---- settings ----
  bool numericCheck() const { return numericCheck_; }
  void setNumericCheck(bool on);
  int checkInputSets() const { return checkInputSets_; }
  void setCheckInputSets(int n) { checkInputSets_ = std::max(1, n); }
  bool standardOnly() const { return standardOnly_; }
  void setStandardOnly(bool on) { standardOnly_ = on; }
  // Limits the passes to some nodes (`only`) and/or keeps them away from some
  // (`excluded`): a selected subgraph, a node left alone. Empty: every node.
  const rewrite::NodeFilter& nodeFilter() const { return filter_; }
  void setNodeFilter(rewrite::NodeFilter filter);

  // ---- running ----
  // Applies the next enabled pass / every enabled pass from the next one to the
  // end of the plan, on a worker thread. False if one is running or no model is open.
  bool step();
  bool runAll();
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
  // The pass the last applied Step ran ("" before the first).
  const std::string& lastRun() const { return lastRun_; }
  // The recipe that reproduces the applied Steps (their passes and options).
  pipeline::Recipe recipe() const;
  // Loads a recipe's passes into the plan (switched on, with its options, in
  // its order within each category; a pass named twice runs once); passes it
  // does not name stay in the plan, switched off.
  Status loadRecipe(const pipeline::Recipe& recipe);

  // ---- for the undo commands only ----
  void appendStep(AppliedStepPtr step, std::string lastRun);
  void removeLastStep(std::string lastRun);
  void setState(std::vector<AppliedStepPtr> steps, std::string lastRun);

 signals:
  void planChanged();
  void nodeFilterChanged();
  void stepsChanged();
  void runningChanged(bool running);
  // `done` of `total` passes finished; `current` is the one running now ("" at the end).
  void progress(int done, int total, const QString& current);
  // A run ended; `message` says why it stopped early ("" when it ran to the end).
  void runFinished(const QString& message);

 private:
  struct RunState;
  bool start(std::vector<pipeline::PassSpec> specs);
  void onWorkerStep(int runId, AppliedStepPtr step, int done, int total, const QString& next);
  void onWorkerDone(int runId, const QString& error, std::shared_ptr<pipeline::ExecOutputChecker>,
                    std::shared_ptr<const ir::Model> checkedOriginal);
  void onDocumentChanged(const DocumentChange& change);
  void publishInsights();

  Document* doc_;
  std::vector<PlanEntry> plan_;
  bool numericCheck_ = true;
  int checkInputSets_ = 2;
  bool standardOnly_ = true;
  rewrite::NodeFilter filter_;

  std::vector<AppliedStepPtr> steps_;
  std::string lastRun_;

  // The numeric check's reference: outputs of the model before the first Step.
  std::shared_ptr<pipeline::ExecOutputChecker> checker_;
  std::shared_ptr<const ir::Model> checkedOriginal_;

  bool running_ = false;
  int runId_ = 0;
  std::shared_ptr<std::atomic<bool>> cancel_;
  QFuture<void> future_;
  std::vector<AppliedStepPtr> pending_;  // finished by the worker, not yet on the undo stack
  int undoIndexAtStart_ = 0;
  bool batching_ = false;  // pushing a run's commands
  std::string lastRunAtStart_;
};

}  // namespace passlab::ui
