// Runs passes on a model, one Step at a time: before/after hooks, rollback of
// a pass that throws or breaks the verifier, type re-inference, an optional
// numeric check that stops at the first pass that changes the outputs, and
// provenance kept across all passes.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/ir/model.h"
#include "core/ir/verifier.h"
#include "core/passes/pass.h"
#include "core/pipeline/timeline.h"
#include "core/rewrite/provenance.h"

namespace passlab::pipeline {

struct PassSpec {
  std::string id;
  passes::Options options;  // overrides; defaults fill the rest
  rewrite::NodeFilter filter;
};

// Compares the current model's outputs with the original's (see numeric_check.h).
// Names in the current model that stand for a tensor of the original model
// which a pass replaced (Relu's output replaced by a new Sigmoid's output: the
// Sigmoid output stands for it). The check compares them with the original.
using StandIns = std::map<std::string, std::string>;

class OutputChecker {
 public:
  virtual ~OutputChecker() = default;
  virtual NumericCheck check(const ir::Model& current, const StandIns& standIns = {}) = 0;
  // After a lossy pass (and after every pass once one has changed the model):
  // the outputs against `budget` (accuracy.h). A checker
  // without that compares as check() does.
  virtual NumericCheck checkWithinBudget(const ir::Model& current, const AccuracyBudget& budget,
                                         const StandIns& standIns = {}) {
    return check(current, standIns);
  }
  // The same for the step that made `current` with the edits `log` (a lossy
  // step, or any after one): a failure names the nodes `log` changed among
  // those it blames. A checker without that checks as checkWithinBudget does.
  virtual NumericCheck checkBudgetStep(const ir::Model& current, const rewrite::EditLog& log,
                                       const AccuracyBudget& budget,
                                       const StandIns& standIns = {}) {
    (void)log;
    return checkWithinBudget(current, budget, standIns);
  }
  // After a step of a pass exact per node unit (PassInfo::exactPerUnit) that
  // turned `before` into `current` (its edit log `log`): each replaced value
  // against its original unit (unit_check.h), and as a backup the whole
  // model against `budget`; a step whose units cannot be judged as check()
  // does. A checker without units compares as check() does.
  virtual NumericCheck checkUnitExactStep(const ir::Model& before, const ir::Model& current,
                                          const rewrite::EditLog& log, const AccuracyBudget& budget,
                                          const StandIns& standIns = {}) {
    (void)before, (void)log, (void)budget;
    return check(current, standIns);
  }
  // After such a step passed: check() compares later models with `current`'s
  // outputs (the checked model's; the budget stays against the original).
  virtual void rebase(const ir::Model& current) { (void)current; }
  // Whether rebase() has set the reference.
  virtual bool rebased() const { return false; }
};

// What accepted Steps that changed the model leave for the checks of the
// steps after them, in this PassManager or in one that goes on from the
// model they left (PassManager::continueAfter): after a lossy one every
// step is checked against the budget (the original's outputs are no longer
// equal to reach); after one exact per node unit the checker compares with
// the model it left (re-based), the budget still with the original.
struct CheckHistory {
  bool lossy = false;
  bool unitExact = false;
  // Adds a Step of the pass `info` describes; one rolled back or that
  // changed nothing adds nothing.
  void add(const Step& step, const passes::PassInfo& info);
};

// The verifier's errors for `model`, with node ids left out (ids are not kept
// across a save and reload), to tell errors a pass introduced from old ones.
std::set<std::string> verifierErrorSet(const ir::Model& model,
                                       const ir::VerifierOptions& options = {});

struct PipelineOptions {
  bool standardOnly = true;   // passes that may emit non-standard ops are skipped
  bool keepSnapshots = true;  // keep before/after models per Step (for diffs and undo)
  bool stopOnCheckFailure = true;
  bool inferShapesAfterEachPass = true;
  // After a changing step the verifier checks what the step touched (the
  // nodes, values and output lists its undo log names, and those values'
  // uses), or walks the whole structure when those number over
  // 1 / wholeWalkShare of the model's nodes (the walk is cheaper then; 0:
  // never) or when the model has structure errors of its own
  // (Step::verifiedWhole). With verifyWholeModelAfterEachPass it walks the
  // whole model, schemas included, after every step (O(graph) per step), as
  // it always does after a step that changed an opset.
  size_t wholeWalkShare = 16;
  bool verifyWholeModelAfterEachPass = false;
  // What a lossy pass may cost (PassInfo::lossy); checked when a checker is set.
  AccuracyBudget budget;
};

class PassManager {
 public:
  using Hook = std::function<void(const Step&, const ir::Model&)>;

  PassManager(ir::Model& model, PipelineOptions options = {});
  ~PassManager();

  void setEvaluator(rewrite::Evaluator* evaluator) { evaluator_ = evaluator; }
  // The numeric check after every changing step. The values a step replaced
  // are mapped to their replacements (stand-ins) only while a checker is
  // attached, so attach it before the first step for the most precise
  // "first diverging tensor"; outputs are compared either way.
  // A checker attached after a step exact per node unit changed the model is
  // re-based on the model as it stands, unless it was already.
  void setChecker(OutputChecker* checker);
  void setCancelFlag(const std::atomic<bool>* cancel) { cancel_ = cancel; }
  void addBeforeHook(Hook h) { before_.push_back(std::move(h)); }
  void addAfterHook(Hook h) { after_.push_back(std::move(h)); }

  // Applies one pass; the Step is appended to the timeline (also when skipped or rolled back)
  // and the pointer to it stays valid until the timeline is cleared.
  Expected<const Step*> run(const PassSpec& spec);
  // Same, for a pass object that need not be in the registry (tests, plug-ins).
  Expected<const Step*> run(const passes::Pass& pass, const PassSpec& spec);
  // Applies passes in order; stops early when a numeric check fails (if so
  // configured) or a pass errors. Returns the first error. A pass rolled
  // back because the verifier rejected its graph is skipped: the others go
  // on (skipsRejectedPass).
  Status runAll(const std::vector<PassSpec>& specs);
  bool stopped() const { return stopped_; }
  // Whether a step exact per node unit changed the model (see rebased_).
  bool rebased() const { return rebased_; }
  // Goes on from a model that earlier Steps (of another PassManager) left:
  // the checks of later steps are those after `earlier` (CheckHistory), so a
  // new PassManager does not hold them to the original's outputs after a
  // lossy Step. Call before the first step; the checker, when one is or gets
  // attached and `earlier` re-bases, is re-based on the model as it stands
  // unless it was already.
  void continueAfter(const CheckHistory& earlier);
  // The Steps this PassManager went on from and the ones it applied.
  const CheckHistory& history() const { return history_; }

  const Timeline& timeline() const { return timeline_; }
  const rewrite::Provenance& provenance() const { return provenance_; }
  ir::Model& model() { return model_; }
  // Call after editing the model other than through this manager: forgets what
  // it carried between steps (the verifier's known errors, the check's stand-ins,
  // the last statistics).
  void modelChangedOutside();

 private:
  ir::Model& model_;
  PipelineOptions options_;
  rewrite::Evaluator* evaluator_ = nullptr;
  OutputChecker* checker_ = nullptr;
  const std::atomic<bool>* cancel_ = nullptr;
  std::vector<Hook> before_, after_;
  Timeline timeline_;
  rewrite::Provenance provenance_;
  bool stopped_ = false;
  // What the accepted steps (and continueAfter's) left for the checks.
  CheckHistory history_;
  // A step exact per node unit has changed the model: the checker compares
  // with its outputs from then on (rebase), the budget with the original's.
  bool rebased_ = false;
  StandIns standIns_;  // accumulated over the steps, for the numeric check
  // The verifier's errors in the model as it stands (computed in full at the
  // first step), so a pass is blamed only for errors it introduced. Schemas
  // are checked where a step touched the model, so errors are kept per node
  // (0: of no node, e.g. a graph output never defined), structure and schema
  // apart.
  struct KnownErrors {
    using ByNode = std::map<ir::NodeId, std::set<std::string>>;
    ByNode structureByNode;
    ByNode schemaByNode;
    std::set<std::string> all;  // both, for lookups (rebuildAll after a change)
    void rebuildAll() {
      all.clear();
      for (const ByNode* m : {&structureByNode, &schemaByNode})
        for (const auto& [node, texts] : *m) all.insert(texts.begin(), texts.end());
    }
  };
  std::optional<KnownErrors> knownErrors_;
  // The statistics of the model as the last step left it (its `after`), so
  // the next step's `before` needs no walk of the graph.
  std::optional<GraphStats> lastStats_;
  // Values whose contents the last shape inference knew, by Value::denseId:
  // lets a step that only rewires activations skip re-inference (see
  // Rewriter::typesMayHaveChanged). Unset until a step has re-inferred.
  std::optional<std::vector<bool>> knownContents_;

  // The steps of run(): skip, run, infer, verify, then roll back or commit.
  struct Attempt;
  // A lossy step's check against the budget: an error when over it.
  Status checkBudget(Step& step);
  // A unit-exact step's check (OutputChecker::checkUnitExactStep): an error
  // when it fails.
  Status checkUnits(Step& step, const Attempt& attempt);
  void rebase();
  // Re-bases the checker when history_ asks for it and it is not.
  void alignChecker();
  Text skipNote(const passes::PassInfo& info) const;
  void learnKnownErrors();
  Status runPass(const passes::Pass& pass, const PassSpec& spec, const passes::Options& opts,
                 Step& step, Attempt& attempt);
  void inferShapesAfter(Step& step, Attempt& attempt);
  void verifyAfter(Step& step, Attempt& attempt);
  void renewKnownErrors(const Step& step, const absl::flat_hash_set<const ir::Node*>& touched,
                        bool wholeStructure, bool allSchemas, KnownErrors::ByNode structure,
                        KnownErrors::ByNode schema);
  const Step* rollBack(Step step, Attempt& attempt, const Status& status);
  const Step* commit(Step step, Attempt& attempt);
};

// A step rolled back because the verifier rejected the graph its pass left:
// the model is as before it, and PassManager::runAll goes on without it.
bool skipsRejectedPass(const Step& step);

// Fills in declared defaults and rejects unknown option names.
Expected<passes::Options> effectiveOptions(const passes::Pass& pass,
                                           const passes::Options& overrides);

}  // namespace passlab::pipeline
