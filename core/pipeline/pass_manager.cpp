#include "core/pipeline/pass_manager.h"

#include <chrono>
#include <cstdint>
#include <exception>
#include <map>
#include <set>

#include "core/analysis/shape_inference.h"
#include "core/ir/verifier.h"
#include "core/passes/non_finite_input_source.h"
#include "core/passes/registry.h"

namespace passlab::pipeline {

PassManager::PassManager(ir::Model& model, PipelineOptions options)
    : model_(model), options_(options) {}
PassManager::~PassManager() = default;

void CheckHistory::add(const Step& step, const passes::PassInfo& info) {
  if (!step.changed || step.rolledBack) return;
  lossy |= info.lossy;
  unitExact |= info.exactPerUnit;
}

void PassManager::setChecker(OutputChecker* checker) {
  checker_ = checker;
  alignChecker();
}

void PassManager::continueAfter(const CheckHistory& earlier) {
  history_.lossy |= earlier.lossy;
  history_.unitExact |= earlier.unitExact;
  alignChecker();
}

void PassManager::alignChecker() {
  if (checker_ && history_.unitExact && !checker_->rebased()) rebase();
}

Expected<passes::Options> effectiveOptions(const passes::Pass& pass,
                                           const passes::Options& overrides) {
  passes::Options out;
  for (const auto& o : pass.info().options) out.emplace_back(o.name, o.defaultValue);
  for (const auto& [k, v] : overrides) {
    bool found = false;
    for (size_t i = 0; i < out.size(); ++i)
      if (out[i].first == k) {
        auto normal = passes::normalizeOptionValue(pass.info().options[i], v);
        if (!normal) return normal.error().withContext(Text::of("pass '%1'", pass.info().id));
        out[i].second = std::move(*normal);
        found = true;
      }
    if (!found) {
      std::string known;
      for (const auto& o : pass.info().options) known += (known.empty() ? "" : ", ") + o.name;
      return invalidArgument(
          Text::of("pass '%1' has no option '%2'%3", pass.info().id, k,
                   (known.empty() ? " (it takes none)" : Text::of(" (options: %1)", known))));
    }
  }
  return out;
}

Expected<const Step*> PassManager::run(const PassSpec& spec) {
  const passes::Pass* pass = passes::findPass(spec.id);
  if (!pass) return invalidArgument(Text::of("unknown pass '%1'", spec.id));
  return run(*pass, spec);
}

namespace {
// The Rewriter tracks whether its edits may change a type; this checks the log
// as well, so a logged edit the Rewriter's flag somehow missed still triggers
// re-inference. (Rewriter::setType is not logged; only the flag covers it.)
bool onlyRemovalsAndRewires(const rewrite::EditLog& log) {
  for (const rewrite::Edit& e : log.edits()) switch (e.kind) {
      case rewrite::EditKind::kNodeRemoved:
      case rewrite::EditKind::kInputRewired:
      case rewrite::EditKind::kGraphOutputRewired:
      case rewrite::EditKind::kInitializerRemoved:
      case rewrite::EditKind::kValueRenamed:
        break;
      default:
        return false;
    }
  return true;
}

// A main-graph value that a pass replaced and removed: its replacement stands
// for it (or for what it stood for), so the check can compare the two.
void recordStandIns(const rewrite::EditLog& log, const ir::Graph& g, StandIns& standIns) {
  for (const rewrite::Edit& e : log.edits()) {
    bool rewire = e.kind == rewrite::EditKind::kInputRewired ||
                  e.kind == rewrite::EditKind::kGraphOutputRewired ||
                  e.kind == rewrite::EditKind::kValueRenamed;
    if (!rewire || e.graphOwner != 0 || e.from.empty() || e.to.empty()) continue;
    if (g.findValue(e.from)) continue;  // still there: compared under its own name
    auto it = standIns.find(e.from);
    standIns[e.to] = it == standIns.end() ? e.from : it->second;
  }
}

}  // namespace

namespace {

using ErrorsByNode = std::map<ir::NodeId, std::set<std::string>>;

// The verifier's errors by node without node ids, structure and schema apart.
// Uncapped: a cap would cut different errors off a full and a partial check,
// and old errors past it would look new.
void collectErrors(const ir::Model& model, ir::VerifierOptions options,
                   ErrorsByNode& structureByNode, ErrorsByNode& schemaByNode) {
  options.maxProblems = SIZE_MAX;
  for (auto& p : ir::verifyModel(model, options)) {
    if (p.severity != ir::VerifierProblem::Severity::kError) continue;
    (p.schema ? schemaByNode : structureByNode)[p.node].insert(std::move(p.key));
  }
}

}  // namespace

std::set<std::string> verifierErrorSet(const ir::Model& model, const ir::VerifierOptions& options) {
  std::set<std::string> errors;
  ErrorsByNode structure, schema;
  collectErrors(model, options, structure, schema);
  for (const ErrorsByNode* m : {&structure, &schema})
    for (const auto& [node, texts] : *m) errors.insert(texts.begin(), texts.end());
  return errors;
}

namespace {

double millisecondsSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

// One pass application in progress: what rolling it back needs.
struct PassManager::Attempt {
  std::shared_ptr<ir::Model> snapshot;  // the model before, when snapshots are kept
  std::vector<ir::OpsetImport> opsetsBefore;
  int64_t irVersionBefore = 0;
  ir::UndoLog undo;
  bool typesMayHaveChanged = false;
  Text dataNote;  // about the calibration data (nonFiniteCalibrationNote)
};

Expected<const Step*> PassManager::run(const passes::Pass& pass, const PassSpec& spec) {
  auto opts = effectiveOptions(pass, spec.options);
  if (!opts) return opts.error();
  Step step;
  step.passId = pass.info().id;
  step.options = *opts;
  step.before = lastStats_ ? *lastStats_ : collectStats(model_);
  if (Text note = skipNote(pass.info()); !note.empty()) {
    step.skipped = true;
    step.note = std::move(note);
    step.after = step.before;
    lastStats_ = step.after;
    return &timeline_.add(std::move(step));
  }
  for (auto& h : before_) h(step, model_);
  // A failed pass is rolled back through the undo log (O(edits), no copy of
  // the model); the copy is made only when the caller keeps snapshots.
  Attempt attempt;
  // The unit check reads the model before the step.
  if (options_.keepSnapshots || (checker_ && pass.info().exactPerUnit))
    attempt.snapshot = std::make_shared<ir::Model>(model_.clone());
  learnKnownErrors();
  attempt.opsetsBefore = model_.opsets;
  attempt.irVersionBefore = model_.irVersion;
  auto t0 = std::chrono::steady_clock::now();
  Status status = runPass(pass, spec, *opts, step, attempt);
  if (status.isOk()) {
    inferShapesAfter(step, attempt);
    verifyAfter(step, attempt);
    if (!step.verifierErrors.empty())
      status = invalidModel(Text::of("%1 left a graph the verifier rejects: %2", step.passId,
                                     step.verifierErrors.front()));
  }
  if (status.isOk() && pass.info().exactPerUnit)
    status = checkUnits(step, attempt);
  else if (status.isOk() && (pass.info().lossy || history_.lossy))
    status = checkBudget(step);
  step.milliseconds = millisecondsSince(t0);
  if (!status.isOk()) return rollBack(std::move(step), attempt, status);
  const Step* done = commit(std::move(step), attempt);
  history_.add(*done, pass.info());
  if (pass.info().exactPerUnit && done->changed && checker_) rebase();
  return done;
}

// Later steps are compared with the checked model, whose names the
// stand-ins no longer need to map to the original's.
void PassManager::rebase() {
  checker_->rebase(model_);
  standIns_.clear();
  rebased_ = true;
}

Status PassManager::checkBudget(Step& step) {
  if (!checker_ || step.log.empty()) return Status::ok();
  step.check = checker_->checkBudgetStep(model_, step.log, options_.budget, standIns_);
  if (step.check.passed) return Status::ok();
  Text error = Text::of("%1 is over the accuracy budget: %2", step.passId, step.check.detail);
  // What the step did (its note: quantize_static's weights in 7 bits, which
  // option gives the other range), or the rollback would leave no trace of it.
  if (!step.note.empty()) error = Text::of("%1 (the step: %2)", error, step.note);
  return Error(ErrorCode::kLimit, std::move(error));
}

Status PassManager::checkUnits(Step& step, const Attempt& attempt) {
  if (!checker_ || step.log.empty() || !attempt.snapshot) return Status::ok();
  StandIns standIns = standIns_;
  recordStandIns(step.log, model_.graph(), standIns);
  step.check =
      checker_->checkUnitExactStep(*attempt.snapshot, model_, step.log, options_.budget, standIns);
  if (step.check.passed) return Status::ok();
  return Error(ErrorCode::kLimit,
               Text::of("%1 failed its check: %2", step.passId, step.check.detail));
}

Text PassManager::skipNote(const passes::PassInfo& info) const {
  int64_t opset = model_.opsetVersion("").value_or(1);
  if (info.mayEmitNonStandard && options_.standardOnly)
    return "skipped: it emits non-standard ops, and standard ONNX only is on";
  if (opset < info.minOpset || opset > info.maxOpset)
    return Text::of("skipped: written for opsets %1-%2, the model uses %3",
                    std::to_string(info.minOpset), std::to_string(info.maxOpset),
                    std::to_string(opset));
  return "";
}

void PassManager::learnKnownErrors() {
  if (knownErrors_) return;
  knownErrors_.emplace();
  KnownErrors& known = *knownErrors_;
  collectErrors(model_, {}, known.structureByNode, known.schemaByNode);
  known.rebuildAll();
}

namespace {

// `filter` (node ids of the model the plan was made on) extended to what
// earlier passes made of those nodes: a node whose provenance names an
// excluded node is excluded (a Gemm fused from an excluded MatMul, a
// FusedConv from an excluded Conv), and one whose provenance names a node of
// `only` is in `only` (the Gemm a recipe's `only_nodes` MatMul became), as
// their originals were when the plan was made.
rewrite::NodeFilter filterFollowingProvenance(const rewrite::NodeFilter& filter,
                                              const ir::Graph& graph,
                                              const rewrite::Provenance& provenance) {
  rewrite::NodeFilter inherited = filter;
  auto madeFromOneOf = [&](ir::NodeId id, const std::unordered_set<ir::NodeId>& set) {
    for (ir::NodeId origin : provenance.origins(id))
      if (set.count(origin)) return true;
    return false;
  };
  graph.forEachNodeRecursive([&](ir::Node* n) {
    if (provenance.isOriginal(n->id())) return;
    if (!filter.excluded.empty() && madeFromOneOf(n->id(), filter.excluded))
      inherited.excluded.insert(n->id());
    if (!filter.only.empty() && madeFromOneOf(n->id(), filter.only)) inherited.only.insert(n->id());
  });
  return inherited;
}

// The calibration's note on NaN or infinite values in its input sets, when
// the step calibrated on any (passes::NonFiniteInputSource::takeNonFiniteNote).
Text nonFiniteCalibrationNote(rewrite::Evaluator* evaluator) {
  auto* source = dynamic_cast<passes::NonFiniteInputSource*>(evaluator);
  return source ? source->takeNonFiniteNote() : Text();
}

}  // namespace

Status PassManager::runPass(const passes::Pass& pass, const PassSpec& spec,
                            const passes::Options& opts, Step& step, Attempt& attempt) {
  const std::string& id = pass.info().id;
  rewrite::Rewriter rw(model_, step.log, &provenance_, id);
  rw.setUndoLog(&attempt.undo);
  if (knownContents_) rw.setKnownContents(&*knownContents_);
  passes::PassContext ctx{rw, opts};
  ctx.evaluator = evaluator_;
  ctx.explain = &step.explain;
  // The filter follows provenance (filterFollowingProvenance).
  rewrite::NodeFilter inherited;
  ctx.filter = spec.filter.empty() ? nullptr : &spec.filter;
  if (!spec.filter.empty()) {
    inherited = filterFollowingProvenance(spec.filter, model_.graph(), provenance_);
    ctx.filter = &inherited;
  }
  ctx.standardOnly = options_.standardOnly;
  ctx.cancel = cancel_;
  ctx.note = &step.note;
  Status status;
  try {
    status = pass.run(ctx);
  } catch (const std::exception& e) {
    status = internalError(Text::of("%1 threw: %2", id, e.what()));
  } catch (...) {
    // Anything else thrown (an int, a type of a plugin's own) is rolled back
    // the same way: what it left in the model must not survive.
    status = internalError(Text::of("%1 threw an exception that is not a std::exception", id));
  }
  attempt.typesMayHaveChanged = rw.typesMayHaveChanged();
  // Added to the step's note, and kept when the step is rolled back (it is
  // about the data, not the edits).
  attempt.dataNote = nonFiniteCalibrationNote(evaluator_);
  if (!attempt.dataNote.empty())
    step.note =
        step.note.empty() ? attempt.dataNote : Text::of("%1; %2", step.note, attempt.dataNote);
  return status;
}

void PassManager::inferShapesAfter(Step& step, Attempt& attempt) {
  if (!options_.inferShapesAfterEachPass || step.log.empty() ||
      (!attempt.typesMayHaveChanged && onlyRemovalsAndRewires(step.log)))
    return;
  auto t1 = std::chrono::steady_clock::now();
  analysis::ShapeInferenceOptions shapeOptions;
  shapeOptions.undo = &attempt.undo;
  analysis::ShapeInferenceReport report = analysis::inferShapes(model_, shapeOptions);
  knownContents_.emplace(model_.graph().valueIdBound(), false);
  for (const ir::Value* v : report.knownContents)
    if (v->denseId() < knownContents_->size()) (*knownContents_)[v->denseId()] = true;
  step.shapesInferred = true;
  step.inferMilliseconds = millisecondsSince(t1);
}

// A pass is rolled back only for verifier errors it introduced: an input
// model that already breaks a schema rule must not make every pass fail.
// A pass that changed nothing cannot have introduced any.
void PassManager::verifyAfter(Step& step, Attempt& attempt) {
  if (step.log.empty()) return;
  auto t1 = std::chrono::steady_clock::now();
  // Schemas only where the step (or the re-inference after it) touched
  // the model, unless it changed an opset, which can change the schema
  // of every node. The structure where it touched the model too, unless
  // that is a large share of it: the check of what a step touched visits
  // it node by node (a cache miss or more per node, measured 1.5 times
  // the walk's time when a step touched a quarter of a 100k-node graph),
  // while the walk of the whole reads it in order, ahead of use. And
  // unless the model has structure errors of its own: the whole walk
  // then renews them exactly (the check of a part sees only some of
  // them, and an old one it did not see again must stay known while one
  // that went away and came back must be blamed); valid models have none.
  ir::VerifierOptions verifyOptions;
  absl::flat_hash_set<const ir::Node*> touched;
  ir::StructureScope scope;
  const bool allSchemas =
      model_.opsets != attempt.opsetsBefore || options_.verifyWholeModelAfterEachPass;
  bool scoped = !allSchemas && knownErrors_->structureByNode.empty();
  if (!allSchemas) {
    touched = attempt.undo.touchedNodes();
    verifyOptions.schemaNodes = &touched;
  }
  if (scoped) {
    ir::UndoLog::StructureFootprint footprint = attempt.undo.structureFootprint();
    size_t extent = touched.size();  // nodes, and the uses of the values to check
    for (const ir::Value* v : footprint.values) extent += 1 + v->uses().size();
    scoped = extent * options_.wholeWalkShare <= step.before.nodes;
    if (scoped) {
      scope.nodes = &touched;
      scope.values = std::move(footprint.values);
      scope.graphOutputs = std::move(footprint.outputsSet);
      verifyOptions.structureScope = &scope;
    }
  }
  step.verifiedWhole = !scoped;
  ErrorsByNode structure, schema;
  collectErrors(model_, verifyOptions, structure, schema);
  for (const ErrorsByNode* m : {&structure, &schema})
    for (const auto& [node, texts] : *m)
      for (const std::string& e : texts)
        if (!knownErrors_->all.count(e)) step.verifierErrors.push_back(e);
  if (step.verifierErrors.empty())
    renewKnownErrors(step, touched, !scoped, allSchemas, std::move(structure), std::move(schema));
  step.verifyMilliseconds = millisecondsSince(t1);
}

// What was checked in full is as it is now (after a check of the part a step
// touched, there were no structure errors, and there are none now). Schema
// errors checked for the touched nodes only: renewed for those, dropped for
// removed nodes, kept for the others (a node not re-checked keeps its old
// error, which a later step touching that node is not blamed for).
void PassManager::renewKnownErrors(const Step& step,
                                   const absl::flat_hash_set<const ir::Node*>& touched,
                                   bool wholeStructure, bool allSchemas,
                                   KnownErrors::ByNode structure, KnownErrors::ByNode schema) {
  KnownErrors& known = *knownErrors_;
  if (wholeStructure) known.structureByNode = std::move(structure);
  if (allSchemas) {
    known.schemaByNode = std::move(schema);
  } else {
    for (const ir::Node* n : touched) known.schemaByNode.erase(n->id());
    for (const rewrite::Edit& e : step.log.edits())
      if (e.kind == rewrite::EditKind::kNodeRemoved) known.schemaByNode.erase(e.node);
    for (auto& [node, texts] : schema) known.schemaByNode[node] = std::move(texts);
  }
  known.rebuildAll();
}

bool skipsRejectedPass(const Step& step) {
  return step.rolledBack && !step.verifierErrors.empty();
}

const Step* PassManager::rollBack(Step step, Attempt& attempt, const Status& status) {
  attempt.undo.undo();
  knownContents_.reset();  // it may describe the graph the pass left
  model_.opsets = attempt.opsetsBefore;
  model_.irVersion = attempt.irVersionBefore;
  step.rolledBack = true;
  step.error = status.text();
  step.note = attempt.dataNote;  // the rest was about edits that were undone
  step.after = step.before;
  lastStats_ = step.after;
  // A graph the verifier rejected is the pass's own fault, not the model's:
  // with it undone the model is as valid as before, and the passes after it
  // go on (skipsRejectedPass). A throw, an error or a lossy step over its
  // budget stops the run.
  if (!skipsRejectedPass(step)) stopped_ = true;
  if (options_.keepSnapshots) step.snapshotBefore = attempt.snapshot;
  for (auto& h : after_) h(step, model_);
  return &timeline_.add(std::move(step));
}

const Step* PassManager::commit(Step step, Attempt& attempt) {
  // Counts by op from the log where it has them (no walk over the graph).
  auto opDelta = attempt.undo.opCountDelta();
  attempt.undo.commit();
  step.summary = step.log.summarize();
  step.changed = !step.summary.empty();
  if (!step.changed)
    step.after = step.before;
  else if (opDelta)
    step.after = collectStatsAfter(step.before, model_, *opDelta);
  else
    step.after = collectStats(model_);
  lastStats_ = step.after;
  // Stand-ins serve only the numeric check: recorded while a checker is
  // attached (a name lookup per rewired input, a tenth of a large run).
  if (checker_) recordStandIns(step.log, model_.graph(), standIns_);
  if (checker_ && step.changed && !step.check.ran) {  // a lossy step's ran against the budget
    step.check = checker_->check(model_, standIns_);
    if (!step.check.passed && options_.stopOnCheckFailure) stopped_ = true;
  }
  if (options_.keepSnapshots) {
    step.snapshotBefore = attempt.snapshot;
    step.snapshotAfter = std::make_shared<ir::Model>(model_.clone());
  }
  for (auto& h : after_) h(step, model_);
  return &timeline_.add(std::move(step));
}

void PassManager::modelChangedOutside() {
  knownErrors_.reset();
  lastStats_.reset();
  knownContents_.reset();
  standIns_.clear();
}

Status PassManager::runAll(const std::vector<PassSpec>& specs) {
  for (const PassSpec& s : specs) {
    if (stopped_) break;
    if (cancel_ && cancel_->load()) return Error(ErrorCode::kCancelled, "cancelled");
    auto step = run(s);
    if (!step) return step.error();
    if ((*step)->rolledBack && !skipsRejectedPass(**step))
      return Error(ErrorCode::kInternal, (*step)->error);
  }
  return Status::ok();
}

}  // namespace passlab::pipeline
