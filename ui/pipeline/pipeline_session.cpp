#include "ui/pipeline/pipeline_session.h"

#include <QCoreApplication>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <set>

#include "core/passes/registry.h"
#include "core/pipeline/calibration.h"
#include "core/pipeline/input_synthesis.h"
#include "core/pipeline/numeric_check.h"
#include "core/pipeline/recorded_calibration.h"
#include "ui/document/graph_ref.h"
#include "ui/document/node_insights.h"
#include "ui/i18n/core_text.h"
#include "ui/pipeline/pipeline_commands.h"

namespace passlab::ui {

// The sets of `folder` (listed and checked when quantize_static first asks,
// in the worker: an error is that step's), or `count` from the input
// synthesis; either way made one at a time as calibration runs.
std::unique_ptr<pipeline::CalibratingEvaluator> calibratingEvaluator(const std::string& folder,
                                                                     int count) {
  if (!folder.empty())
    return std::make_unique<pipeline::CalibratingEvaluator>(
        pipeline::CalibratingEvaluator::MakeSource(
            [folder](const ir::Model& m) { return pipeline::calibrationFolder(m, folder); }),
        0);
  return std::make_unique<pipeline::CalibratingEvaluator>(
      pipeline::synthesizedCalibration(pipeline::InputSpec{}, count));
}

struct PipelineSession::RunState {
  ir::Model model;  // what the PassManager edits
  std::unique_ptr<pipeline::PassManager> pm;
  // Constant folding, and calibration for quantize_static (see
  // calibratingEvaluator); made with the state.
  std::unique_ptr<pipeline::CalibratingEvaluator> evaluator;
  std::string calibrationFolder;                         // the one `evaluator` reads
  int synthesizedSets = 0;                               // or makes, without a folder
  std::shared_ptr<pipeline::ExecOutputChecker> checker;  // the one pm checks with, if any
  bool standardOnly = true;
  pipeline::AccuracyBudget budget;  // the one pm was made with
  // Valid while the document's undo stack stands at `undoIndex` with `at` (the
  // last Step's model) on top: then `model` equals the document's model.
  int undoIndex = -1;
  std::shared_ptr<const ir::Model> at;
};

int categoryRank(passes::Category c) {
  switch (c) {
    case passes::Category::kStructural:
      return 0;
    case passes::Category::kAlgorithm:
      return 1;
    case passes::Category::kReadWrite:
      return 2;
    case passes::Category::kPrecision:
      return 3;
  }
  return 4;
}

std::string planRowLabel(const std::vector<PlanEntry>& plan, int row) {
  if (row < 0 || row >= static_cast<int>(plan.size())) return {};
  const std::string& id = plan[static_cast<size_t>(row)].id;
  int n = 0;
  for (int i = 0; i <= row; ++i) n += plan[static_cast<size_t>(i)].id == id;
  return n == 1 ? id : id + " (" + std::to_string(n) + ")";
}

PipelineSession::PipelineSession(Document* doc) : QObject(doc), doc_(doc) {
  (void)applyLevel("default");
  connect(doc_, &Document::changed, this, &PipelineSession::onDocumentChanged);
}

PipelineSession::~PipelineSession() {
  if (cancel_) cancel_->store(true);
  future_.waitForFinished();
}

// ---- the plan ----

void PipelineSession::setPlan(std::vector<PlanEntry> plan) {
  plan_ = std::move(plan);
  lastRow_ = -1;
  emit planChanged();
}

void PipelineSession::setRowEnabled(int row, bool enabled) {
  if (row < 0 || row >= static_cast<int>(plan_.size())) return;
  PlanEntry& e = plan_[static_cast<size_t>(row)];
  if (e.enabled == enabled) return;
  e.enabled = enabled;
  emit planChanged();
}

void PipelineSession::setEnabled(const std::string& id, bool enabled) {
  bool changed = false;
  for (PlanEntry& e : plan_)
    if (e.id == id && e.enabled != enabled) {
      e.enabled = enabled;
      changed = true;
    }
  if (changed) emit planChanged();
}

void PipelineSession::movePass(int from, int to) {
  const int n = static_cast<int>(plan_.size());
  if (from < 0 || from >= n || to < 0 || to >= n || from == to) return;
  PlanEntry e = std::move(plan_[static_cast<size_t>(from)]);
  plan_.erase(plan_.begin() + from);
  plan_.insert(plan_.begin() + to, std::move(e));
  // The row that ran last moves with its pass.
  if (lastRow_ == from)
    lastRow_ = to;
  else if (from < lastRow_ && lastRow_ <= to)
    --lastRow_;
  else if (to <= lastRow_ && lastRow_ < from)
    ++lastRow_;
  emit planChanged();
}

Status PipelineSession::insertPass(int row, const std::string& id) {
  if (findPass_(id) == nullptr) return invalidArgument("unknown pass '" + id + "'");
  const int n = static_cast<int>(plan_.size());
  if (row < 0 || row > n) row = n;
  plan_.insert(plan_.begin() + row, PlanEntry{id, true, {}});
  if (lastRow_ >= row) ++lastRow_;
  emit planChanged();
  return Status::ok();
}

void PipelineSession::removeRow(int row) {
  if (row < 0 || row >= static_cast<int>(plan_.size())) return;
  plan_.erase(plan_.begin() + row);
  if (lastRow_ >= row) --lastRow_;  // the row before it counts as the last one run
  emit planChanged();
}

namespace {

Status setOptionOf(const passes::Pass* pass, PlanEntry& e, const std::string& name,
                   const std::string& value) {
  if (pass == nullptr) return invalidArgument("unknown pass '" + e.id + "'");
  passes::Options next = e.options;
  next.erase(
      std::remove_if(next.begin(), next.end(), [&](const auto& o) { return o.first == name; }),
      next.end());
  if (!value.empty()) next.emplace_back(name, value);
  auto checked = pipeline::effectiveOptions(*pass, next);  // rejects unknown names and values
  if (!checked) return checked.error();
  // Kept as the pass reads it ("Yes" -> "true"), as the panel shows it.
  for (auto& [k, v] : next)
    for (const auto& [ck, cv] : *checked)
      if (k == ck) v = cv;
  e.options = std::move(next);
  return Status::ok();
}

}  // namespace

Status PipelineSession::setRowOption(int row, const std::string& name, const std::string& value) {
  if (row < 0 || row >= static_cast<int>(plan_.size()))
    return invalidArgument("no row " + std::to_string(row) + " in the plan");
  PASSLAB_RETURN_IF_ERROR(setOptionOf(findPass_(plan_[static_cast<size_t>(row)].id),
                                      plan_[static_cast<size_t>(row)], name, value));
  emit planChanged();
  return Status::ok();
}

Status PipelineSession::setOption(const std::string& id, const std::string& name,
                                  const std::string& value) {
  if (findPass_(id) == nullptr) return invalidArgument("unknown pass '" + id + "'");
  bool found = false;
  for (PlanEntry& e : plan_) {
    if (e.id != id) continue;
    PASSLAB_RETURN_IF_ERROR(setOptionOf(findPass_(e.id), e, name, value));
    found = true;
  }
  if (!found) return invalidArgument("pass '" + id + "' is not in the plan");
  emit planChanged();
  return Status::ok();
}

Status PipelineSession::applyLevel(const std::string& level) {
  auto ids = passes::passesForLevel(level);
  if (!ids) return ids.error();
  std::vector<PlanEntry> next;
  for (const std::string& id : *ids) {
    PlanEntry e{id, true, {}};
    for (const PlanEntry& old : plan_)
      if (old.id == id) {
        e.options = old.options;
        break;
      }
    next.push_back(std::move(e));
  }
  plan_ = std::move(next);
  lastRow_ = -1;
  emit planChanged();
  return Status::ok();
}

std::vector<pipeline::PassSpec> PipelineSession::enabledSpecs() const {
  std::vector<pipeline::PassSpec> specs;
  for (const PlanEntry& e : plan_)
    if (e.enabled) specs.push_back({e.id, e.options, filter_});
  return specs;
}

int PipelineSession::nextRow() const {
  const int n = static_cast<int>(plan_.size());
  const int start = lastRow_ >= 0 ? lastRow_ + 1 : 0;
  for (int i = start; i < n; ++i)
    if (plan_[static_cast<size_t>(i)].enabled) return i;
  return -1;
}

bool PipelineSession::planComplete() const {
  if (lastRow_ < 0 || nextRow() >= 0) return false;
  for (const PlanEntry& e : plan_)
    if (e.enabled) return true;
  return false;
}

std::string PipelineSession::nextPass() const {
  const int row = nextRow();
  return row < 0 ? std::string() : plan_[static_cast<size_t>(row)].id;
}

void PipelineSession::setNodeFilter(rewrite::NodeFilter filter) {
  filter_ = std::move(filter);
  emit nodeFilterChanged();
}

void PipelineSession::setAccuracyBudget(const pipeline::AccuracyBudget& budget) {
  budget_ = budget;
  emit settingsChanged();
}

void PipelineSession::setCalibrationFolder(std::string folder) {
  calibrationFolder_ = std::move(folder);
  emit settingsChanged();
}

void PipelineSession::setSynthesizedCalibrationSets(int n) {
  synthesizedSets_ = std::max(1, n);
  emit settingsChanged();
}

void PipelineSession::setNumericCheck(bool on) {
  numericCheck_ = on;
}

// ---- running ----

bool PipelineSession::step() {
  const int row = nextRow();
  if (row < 0) return false;
  return start({row});
}

bool PipelineSession::runAll() {
  const int first = nextRow();
  if (first < 0) return false;
  std::vector<int> rows;
  for (int i = first; i < static_cast<int>(plan_.size()); ++i)
    if (plan_[static_cast<size_t>(i)].enabled) rows.push_back(i);
  return start(std::move(rows));
}

bool PipelineSession::runSpec(const pipeline::PassSpec& spec) {
  if (running_ || !doc_->hasModel() || findPass_(spec.id) == nullptr) return false;
  const int row = lastRow_ + 1;
  PlanEntry e{spec.id, true, {}};
  for (const auto& [name, value] : spec.options)
    if (!setOptionOf(findPass_(e.id), e, name, value).isOk()) return false;
  plan_.insert(plan_.begin() + row, std::move(e));
  emit planChanged();
  return start({row}, &spec.filter);
}

void PipelineSession::cancel() {
  if (cancel_) cancel_->store(true);
}

void PipelineSession::waitForRun() {
  future_.waitForFinished();
  // Deliver the worker's queued answers.
  QCoreApplication::sendPostedEvents(this);
}

// The checker a run used, and what it was made with (the run's settings).
struct PipelineSession::CheckerMade {
  std::shared_ptr<pipeline::ExecOutputChecker> checker;
  std::shared_ptr<const ir::Model> original;  // its reference model
  std::string folder;                         // the calibration folder it read, or ""
  int sets = 0;                               // the input sets it was asked for
  // The model the run ended at (its last Step's, or where it started): a
  // checker re-based in the run compares with a model at or before it.
  std::shared_ptr<const ir::Model> at;
};

// Everything one background run needs, taken on the UI thread when it
// starts; the worker owns it from then on.
struct PipelineSession::RunJob {
  int runId = 0;
  std::vector<int> rows;  // plan rows, one per spec
  std::vector<pipeline::PassSpec> specs;
  PassLookup findPass;  // where the specs' passes are found
  std::shared_ptr<RunState> state;
  bool fresh = false;  // state is new: its PassManager is made by the worker
  rewrite::Provenance provenance;
  std::shared_ptr<pipeline::ExecOutputChecker> checker;  // reused from the last run, if any
  std::shared_ptr<const ir::Model> original;             // the check's reference model
  bool check = true;
  // What the Steps that stand left for the checks (checkHistoryOf): a new
  // PassManager goes on from them.
  pipeline::CheckHistory history;
  int inputSets = 2;
  std::string calibrationFolder;  // the check runs on its first sets when given
  bool standardOnly = true;
  pipeline::AccuracyBudget budget;
  std::shared_ptr<std::atomic<bool>> cancel;
  std::shared_ptr<const ir::Model> current;  // the model after the last Step so far
};

bool PipelineSession::start(std::vector<int> rows, const rewrite::NodeFilter* filter) {
  if (running_ || !doc_->hasModel() || rows.empty()) return false;
  std::shared_ptr<RunJob> job = prepareRun(std::move(rows), filter);
  emit runningChanged(true);
  emit progress(0, static_cast<int>(job->specs.size()),
                QString::fromStdString(job->specs.front().id));
  future_ = QtConcurrent::run([this, job] { runInWorker(*job); });
  return true;
}

// Whether a plan runs a lossy pass: always checked, against the budget (as
// the CLI does), whatever "check the outputs" says.
bool runsLossyPass(const std::vector<pipeline::PassSpec>& specs,
                   const PipelineSession::PassLookup& findPass) {
  for (const pipeline::PassSpec& spec : specs)
    if (const passes::Pass* p = findPass(spec.id); p && p->info().lossy) return true;
  return false;
}

// What the Steps that stand (the undo stack's) left for the checks of later
// ones: a lossy Step (later steps against the budget) or one exact per node
// unit (fuse_qdq_into_qlinear: the checker re-based on the model it left).
pipeline::CheckHistory checkHistoryOf(const std::vector<AppliedStepPtr>& steps,
                                      const PipelineSession::PassLookup& findPass) {
  pipeline::CheckHistory history;
  for (const AppliedStepPtr& s : steps)
    if (const passes::Pass* p = findPass(s->step.passId)) history.add(s->step, p->info());
  return history;
}

std::shared_ptr<PipelineSession::RunJob> PipelineSession::prepareRun(
    std::vector<int> rows, const rewrite::NodeFilter* filter) {
  auto job = std::make_shared<RunJob>();
  for (int r : rows) {
    const PlanEntry& e = plan_[static_cast<size_t>(r)];
    job->specs.push_back({e.id, e.options, filter ? *filter : filter_});
  }
  job->rows = std::move(rows);
  running_ = true;
  job->runId = ++runId_;
  cancel_ = std::make_shared<std::atomic<bool>>(false);
  job->cancel = cancel_;
  pending_.clear();
  undoIndexAtStart_ = doc_->undoStack()->index();
  lastRowAtStart_ = lastRow_;

  // The check compares with the model before the first Step.
  job->original = steps_.empty() ? nullptr : steps_.front()->before;
  job->check = numericCheck_ || runsLossyPass(job->specs, findPass_);
  job->findPass = findPass_;
  // A checker re-based by a Step that no longer stands (undone) is not
  // reused: its reference is the rewrite's outputs (a new one is the original's,
  // re-based on the model the Steps that stand left). Re-based, it is reused
  // only while the Step its run ended at stands (so do the ones before it).
  job->history = checkHistoryOf(steps_, findPass_);
  if (job->check && job->original && job->original == checkedOriginal_ &&
      checkedFolder_ == calibrationFolder_ && checkedSets_ == checkInputSets_ && checker_ &&
      (!checker_->rebased() || (job->history.unitExact && stands(checkerAt_))))
    job->checker = checker_;
  job->state = reusableRunState();
  job->fresh = !job->state;
  if (job->fresh) {
    job->state = std::make_shared<RunState>();
    job->state->model = doc_->model().clone();
    job->state->standardOnly = standardOnly_;
    job->state->budget = budget_;
    job->state->calibrationFolder = calibrationFolder_;
    job->state->synthesizedSets = synthesizedSets_;
    job->state->evaluator = calibratingEvaluator(calibrationFolder_, synthesizedSets_);
  }
  job->provenance = steps_.empty() ? rewrite::Provenance() : steps_.back()->provenance;
  job->inputSets = checkInputSets_;
  job->calibrationFolder = calibrationFolder_;
  job->standardOnly = standardOnly_;
  job->budget = budget_;
  return job;
}

// Whether `model` is what a Step that stands left (the undo stack's Steps).
bool PipelineSession::stands(const std::shared_ptr<const ir::Model>& model) const {
  return model && std::any_of(steps_.begin(), steps_.end(),
                              [&](const AppliedStepPtr& s) { return s->after == model; });
}

// The PassManager of the previous Steps goes on while the document holds the
// model they left (no undo, edit or other run since); otherwise null, and a
// new one starts on a copy of the document's model (weights are shared).
std::shared_ptr<PipelineSession::RunState> PipelineSession::reusableRunState() {
  std::shared_ptr<RunState> state = std::move(runState_);
  runState_.reset();  // the worker's now; handed back when the run ends well
  if (!state || steps_.empty() || state->at != steps_.back()->after ||
      state->undoIndex != undoIndexAtStart_ || state->standardOnly != standardOnly_ ||
      state->calibrationFolder != calibrationFolder_ ||
      state->synthesizedSets != synthesizedSets_ || state->budget.minSnrDb != budget_.minSnrDb ||
      state->budget.minCosine != budget_.minCosine ||
      state->budget.maxRelError != budget_.maxRelError ||
      state->budget.minTop1 != budget_.minTop1 || state->budget.minTopK != budget_.minTopK ||
      state->budget.topK != budget_.topK)
    return nullptr;
  return state;
}

void PipelineSession::runInWorker(RunJob& job) {
  job.current = job.fresh || !job.state->at
                    ? std::make_shared<const ir::Model>(job.state->model.clone())
                    : job.state->at;
  if (!job.original) job.original = job.current;
  QString error = prepareChecker(job);
  preparePassManager(job);
  bool usable = true;  // the PassManager's model is the last Step's
  if (QString stopped = runPasses(job, usable); !stopped.isEmpty()) error = stopped;
  job.state->at = usable ? job.current : nullptr;
  // The checker with what it was made with: the job's settings, not the
  // panels' when the run ends (they may have changed meanwhile).
  CheckerMade made;
  if (job.checker)
    made = {job.checker, job.original, job.calibrationFolder, job.inputSets, job.current};
  QMetaObject::invokeMethod(
      this,
      [this, runId = job.runId, error, made, state = job.state] {
        onWorkerDone(runId, error, made, state);
      },
      Qt::QueuedConnection);
}

// The check on the first sets of the calibration folder when there is one
// (the data the model is meant for, as in the CLI), else on synthesized sets.
Expected<std::unique_ptr<pipeline::ExecOutputChecker>> checkerFor(const ir::Model& original,
                                                                  int inputSets,
                                                                  const std::string& folder) {
  if (folder.empty()) return pipeline::ExecOutputChecker::create(original, inputSets, {});
  auto source = pipeline::calibrationFolder(original, folder);
  if (!source) return source.error();
  auto sets = pipeline::firstCalibrationSets(*source, original,
                                             static_cast<size_t>(std::max(inputSets, 0)));
  if (!sets) return sets.error();
  return pipeline::ExecOutputChecker::create(original, std::move(sets.value()));
}

// Makes the numeric check's reference outputs when the check is on and none
// can be reused; the message when it cannot run (the run goes on unchecked).
QString PipelineSession::prepareChecker(RunJob& job) {
  if (!job.check || job.checker) return {};
  auto created = checkerFor(*job.original, job.inputSets, job.calibrationFolder);
  if (!created)
    return tr("The numeric check cannot run, so it is off for this "
              "run: %1")
        .arg(trCore(created.error().text()));
  job.checker = std::move(created.value());
  return {};
}

void PipelineSession::preparePassManager(RunJob& job) {
  RunState& state = *job.state;
  if (job.fresh) {
    pipeline::PipelineOptions po;
    po.standardOnly = job.standardOnly;
    po.budget = job.budget;
    // The Steps keep their own copies of the model (publishStep); the
    // PassManager keeps none, as it lives on across runs.
    po.keepSnapshots = false;
    po.stopOnCheckFailure = true;
    state.pm = std::make_unique<pipeline::PassManager>(state.model, po);
    state.pm->setEvaluator(state.evaluator.get());
    // It goes on from the Steps that stand, as the last one's would: after
    // a lossy Step against the budget, after one exact per node unit with
    // the checker re-based (pipeline::PassManager::continueAfter).
    state.pm->continueAfter(job.history);
  }
  // A checker that did not judge a standing Step exact per node unit (a new
  // one, or the check was off then) is re-based on the model they left.
  state.checker = job.check ? job.checker : nullptr;
  state.pm->setChecker(state.checker.get());
  state.pm->setCancelFlag(job.cancel.get());
}

// Runs the specs in order, publishing each Step; the reason it stopped early
// and the passes it rolled back and went on without, else "". `usable` turns
// false when the PassManager stopped on a failed check.
QString PipelineSession::runPasses(RunJob& job, bool& usable) {
  QStringList rolledBack;  // skipped: the verifier rejected their graphs
  const QString stopped = runPassesUntilStopped(job, usable, rolledBack);
  if (rolledBack.isEmpty()) return stopped;
  const QString skipped =
      tr("%n pass(es) rolled back and left out (the verifier rejected their graphs), the passes "
         "after them ran: %1",
         "", static_cast<int>(rolledBack.size()))
          .arg(rolledBack.join(QStringLiteral(", ")));
  return stopped.isEmpty() ? skipped : stopped + QLatin1Char('\n') + skipped;
}

// runPasses' loop: the reason it stopped early, else ""; the passes rolled
// back and skipped (pipeline::skipsRejectedPass, as the CLI's optimize does)
// are added to `rolledBack`.
QString PipelineSession::runPassesUntilStopped(RunJob& job, bool& usable, QStringList& rolledBack) {
  pipeline::PassManager& pm = *job.state->pm;
  const int total = static_cast<int>(job.specs.size());
  for (int i = 0; i < total; ++i) {
    if (job.cancel->load()) return tr("Cancelled after %n pass(es)", "", i);
    const pipeline::PassSpec& spec = job.specs[static_cast<size_t>(i)];
    const passes::Pass* pass = job.findPass(spec.id);
    if (!pass) return trCore(Text::of("unknown pass '%1'", spec.id));
    auto ran = pm.run(*pass, spec);
    if (!ran) return trCore(ran.error().text());
    const pipeline::Step& s = **ran;
    // Stopped inside the pass: it was undone and counts for nothing.
    if (s.rolledBack && job.cancel->load()) return tr("Cancelled after %n pass(es)", "", i);
    publishStep(job, s, i);
    if (pipeline::skipsRejectedPass(s)) {
      rolledBack << QString::fromStdString(s.passId);
      continue;
    }
    if (s.rolledBack)
      return tr("%1 failed and was rolled back: %2")
          .arg(QString::fromStdString(s.passId), trCore(s.error));
    if (s.check.ran && !s.check.passed) {
      usable = false;  // the PassManager stopped
      return tr("%1 changed the outputs (%2); the run stopped there")
          .arg(QString::fromStdString(s.passId), trCore(s.check.detail));
    }
  }
  return {};
}

// Records Step `i` with its own copy of the model and provenance, and hands
// it to the UI thread.
void PipelineSession::publishStep(RunJob& job, const pipeline::Step& s, int i) {
  pipeline::PassManager& pm = *job.state->pm;
  auto rec = std::make_shared<AppliedStep>();
  rec->step = s;
  rec->before = job.current;
  rec->after = s.changed && !s.rolledBack ? std::make_shared<const ir::Model>(pm.model().clone())
                                          : job.current;
  rec->step.snapshotBefore = job.current;  // the same model, kept once
  rec->step.snapshotAfter = rec->after;
  for (ir::NodeId id : s.summary.added)
    job.provenance.recordDerived(id, pm.provenance().origins(id), pm.provenance().createdBy(id));
  rec->provenance = job.provenance;
  rec->filter = job.specs[static_cast<size_t>(i)].filter;
  rec->row = job.rows[static_cast<size_t>(i)];
  // The data the state's evaluator calibrates on (a change of the panels'
  // folder starts a new state, reusableRunState). A rolled-back Step is no
  // part of the recipe (recipeSteps): nothing to record.
  if (pipeline::passCalibrates(s.passId) && s.changed && !s.rolledBack)
    rec->calibration =
        pipeline::recordedCalibration(job.state->calibrationFolder, job.state->synthesizedSets);
  // Its PassManager's (a change in the panels starts a new state).
  rec->standardOnly = job.state->standardOnly;
  rec->budget = job.state->budget;
  job.current = rec->after;
  const int total = static_cast<int>(job.specs.size());
  QString next =
      i + 1 < total ? QString::fromStdString(job.specs[static_cast<size_t>(i + 1)].id) : QString();
  QMetaObject::invokeMethod(
      this,
      [this, runId = job.runId, rec, i, total, next] {
        onWorkerStep(runId, rec, i + 1, total, next);
      },
      Qt::QueuedConnection);
}

void PipelineSession::onWorkerStep(int runId, AppliedStepPtr step, int done, int total,
                                   const QString& next) {
  if (runId != runId_) return;
  pending_.push_back(std::move(step));
  emit progress(done, total, next);
}

void PipelineSession::onWorkerDone(int runId, const QString& error, const CheckerMade& made,
                                   std::shared_ptr<RunState> state) {
  if (runId != runId_) return;
  running_ = false;
  cancel_.reset();
  QString message = error;
  std::vector<AppliedStepPtr> done = std::move(pending_);
  pending_.clear();
  if (made.checker) {
    checker_ = made.checker;
    checkedOriginal_ = made.original;
    checkedFolder_ = made.folder;
    checkedSets_ = made.sets;
    checkerAt_ = made.at;
  }
  if (!doc_->hasModel() || doc_->undoStack()->index() != undoIndexAtStart_ ||
      lastRow_ != lastRowAtStart_) {
    // Undo, redo or an edit happened meanwhile: the results belong to a model
    // that is no longer there.
    if (!done.empty())
      message = tr("The model changed while the passes ran; their results were dropped.");
    done.clear();
    state.reset();
  }
  // One command per Step; the document's model is replaced once, by the last
  // Step that changed it, and the insights are rebuilt once.
  int lastChange = -1;
  for (int i = 0; i < static_cast<int>(done.size()); ++i)
    if (done[static_cast<size_t>(i)]->step.changed &&
        !done[static_cast<size_t>(i)]->step.rolledBack)
      lastChange = i;
  batching_ = true;
  for (int i = 0; i < static_cast<int>(done.size()); ++i) {
    AppliedStepPtr& s = done[static_cast<size_t>(i)];
    doc_->undoStack()->push(new PassStepCommand(this, s, lastRow_, s->row, i < lastChange));
  }
  batching_ = false;
  // The PassManager goes on with the next Step while the stack stays here.
  if (state && state->at &&
      (done.empty() ? steps_.empty() || state->at == steps_.back()->after
                    : state->at == done.back()->after)) {
    state->undoIndex = doc_->undoStack()->index();
    runState_ = std::move(state);
  }
  if (!done.empty()) {
    publishInsights();
    emit stepsChanged();
  }
  emit runningChanged(false);
  emit runFinished(message);
}

const std::vector<std::string>& PipelineSession::uncomparedOutputs() const {
  static const std::vector<std::string> kNone;
  // Only while the check is on and the Steps are the ones it checked.
  if (!checker_ || !numericCheck_ || steps_.empty() || checkedOriginal_ != steps_.front()->before)
    return kNone;
  return checker_->uncomparedOutputs();
}

QStringList PipelineSession::checkInputDescriptions() const {
  if (steps_.empty() && !doc_->hasModel()) return {};
  const ir::Model& original = steps_.empty() ? doc_->model() : *steps_.front()->before;
  auto plans = pipeline::planInputs(original, {});
  if (!plans) return {trCore(plans.error().text())};
  QStringList lines;
  for (const pipeline::InputPlan& p : *plans) lines << trCore(p.describe());
  return lines;
}

void PipelineSession::reset() {
  if (steps_.empty() || running_) return;
  doc_->undoStack()->push(new ResetPipelineCommand(this));
}

// ---- applied Steps ----

namespace {

// The Steps a recipe records: those that stand. A rolled-back Step left the
// model as it was, so it is no part of what made it; in a recipe it would
// stop the replay where a budget rolled it back (the CLI exits 2 and saves
// nothing) and hold the other Steps to its settings.
std::vector<AppliedStepPtr> recipeSteps(const std::vector<AppliedStepPtr>& steps) {
  std::vector<AppliedStepPtr> kept;
  for (const AppliedStepPtr& s : steps)
    if (!s->step.rolledBack) kept.push_back(s);
  return kept;
}

bool sameBudget(const pipeline::AccuracyBudget& a, const pipeline::AccuracyBudget& b) {
  return a.minCosine == b.minCosine && a.minSnrDb == b.minSnrDb && a.maxRelError == b.maxRelError &&
         a.minTop1 == b.minTop1 && a.minTopK == b.minTopK && a.topK == b.topK;
}

// Per Step, whether its check held it to the accuracy budget, as the
// PassManager does: a lossy pass, one exact per node unit, or any Step after
// a lossy one that stands (its check ran: the numeric check was on, or the
// run had a lossy pass).
std::vector<bool> judgedByBudget(const std::vector<AppliedStepPtr>& steps,
                                 const PipelineSession::PassLookup& findPass) {
  std::vector<bool> judged;
  pipeline::CheckHistory history;
  for (const AppliedStepPtr& s : steps) {
    const passes::Pass* p = findPass(s->step.passId);
    judged.push_back(p && s->step.check.ran &&
                     (p->info().lossy || p->info().exactPerUnit || history.lossy));
    if (p) history.add(s->step, p->info());
  }
  return judged;
}

}  // namespace

pipeline::Recipe PipelineSession::recipe() const {
  const std::vector<AppliedStepPtr> steps = recipeSteps(steps_);
  pipeline::Recipe r;
  // No Step yet: the panels' settings (nothing ran with others).
  r.standardOnly = standardOnly_;
  r.checkInputSets = numericCheck_ ? checkInputSets_ : 0;
  r.budget = budget_;
  if (!steps.empty()) {
    r.standardOnly = steps.back()->standardOnly;
    r.budget = steps.back()->budget;
    r.checkInputSets = 0;  // unless a Step was checked (below)
  }
  // Every option with the value the Step ran with, defaults included: a
  // recipe replays the same run after a later version changes a default.
  for (const AppliedStepPtr& s : steps)
    r.passes.push_back({s->step.passId, s->step.options, s->filter});
  // What the Steps ran with, as the command line records it, so a replay
  // (`optimize --recipe`, Load recipe) runs as they did: where
  // quantize_static calibrated (the folder, else the synthesized sets); the
  // budget of the Steps it judged; the input sets of the Steps checked.
  // Several that differ: the last one's (recipeConflict says so).
  const std::vector<bool> judged = judgedByBudget(steps, findPass_);
  for (size_t i = 0; i < steps.size(); ++i) {
    const AppliedStep& s = *steps[i];
    if (s.calibration.recorded()) r.calibration = s.calibration;
    if (s.step.check.ran) r.checkInputSets = static_cast<int>(s.step.check.inputSets);
    if (judged[i]) r.budget = s.budget;
  }
  return r;
}

namespace {

QString calibrationText(const pipeline::RecipeCalibration& c) {
  if (!c.data.empty()) return QString::fromStdString(c.data);
  return PipelineSession::tr("%n synthesized input set(s)", "", c.sets);
}

}  // namespace

QStringList PipelineSession::stepsLeftOutOfRecipe() const {
  QStringList ids;
  for (const AppliedStepPtr& s : steps_)
    if (s->step.rolledBack) ids << QString::fromStdString(s->step.passId);
  return ids;
}

QString PipelineSession::recipeCalibrationConflict() const {
  const pipeline::RecipeCalibration* first = nullptr;
  for (const AppliedStepPtr& s : recipeSteps(steps_)) {
    if (!s->calibration.recorded()) continue;
    if (!first) {
      first = &s->calibration;
    } else if (!(s->calibration == *first)) {
      return tr("The Steps of %1 calibrated on different data (%2, then %3), and a recipe "
                "records one calibration: its replay would not make this model. Undo to the "
                "Steps that calibrated alike, or Reset and run them with one calibration.")
          .arg(QString::fromStdString(s->step.passId), calibrationText(*first),
               calibrationText(s->calibration));
    }
  }
  return {};
}

QString PipelineSession::recipeConflict() const {
  const std::vector<AppliedStepPtr> steps = recipeSteps(steps_);
  if (steps.empty() && !steps_.empty())
    return tr(
        "Every Step was rolled back, so the model is as it was: a recipe has no Step to "
        "record. Export it once a Step has changed the model.");
  if (QString calibration = recipeCalibrationConflict(); !calibration.isEmpty()) return calibration;
  const std::vector<bool> judged = judgedByBudget(steps, findPass_);
  const AppliedStep* judgedFirst = nullptr;
  const AppliedStep* checkedFirst = nullptr;
  for (size_t i = 0; i < steps.size(); ++i) {
    const AppliedStep& s = *steps[i];
    const QString id = QString::fromStdString(s.step.passId);
    // Every Step: a pass may skip, or match other nodes, without it.
    if (s.standardOnly != steps.front()->standardOnly)
      return tr("%1 ran with \"Standard ONNX only\" %2, %3 before it %4, and a recipe records "
                "one setting: its replay would not make this model. Undo to the Steps that ran "
                "alike, or Reset and run them with one setting.")
          .arg(id, s.standardOnly ? tr("on") : tr("off"),
               QString::fromStdString(steps.front()->step.passId),
               steps.front()->standardOnly ? tr("on") : tr("off"));
    if (judged[i]) {
      if (!judgedFirst) {
        judgedFirst = &s;
      } else if (!sameBudget(s.budget, judgedFirst->budget)) {
        return tr("%1 and %2 were held to different accuracy budgets, and a recipe records one "
                  "budget: its replay would not make this model. Undo to the Steps held to one "
                  "budget, or Reset and run them with one budget.")
            .arg(QString::fromStdString(judgedFirst->step.passId), id);
      }
    }
    if (s.step.check.ran) {
      if (!checkedFirst) {
        checkedFirst = &s;
      } else if (s.step.check.inputSets != checkedFirst->step.check.inputSets) {
        return tr("%1 and %2 were checked on different numbers of input sets (%3, then %4), and "
                  "a recipe records one: its replay would not make this model. Undo to the Steps "
                  "checked alike, or Reset and run them with one count.")
            .arg(QString::fromStdString(checkedFirst->step.passId), id)
            .arg(static_cast<qulonglong>(checkedFirst->step.check.inputSets))
            .arg(static_cast<qulonglong>(s.step.check.inputSets));
      }
    }
  }
  return {};
}

Status PipelineSession::loadRecipe(const pipeline::Recipe& recipe) {
  PASSLAB_RETURN_IF_ERROR(pipeline::validateRecipe(recipe));
  std::vector<PlanEntry> next;
  for (const pipeline::PassSpec& s : recipe.passes) {
    PlanEntry e{s.id, true, {}};
    // As the pass reads them ("yes" -> "true"), as setOptionOf keeps them.
    for (const auto& [name, value] : s.options)
      PASSLAB_RETURN_IF_ERROR(setOptionOf(findPass_(e.id), e, name, value));
    next.push_back(std::move(e));
  }
  plan_ = std::move(next);
  standardOnly_ = recipe.standardOnly;
  budget_ = recipe.budget;
  numericCheck_ = recipe.checkInputSets > 0;
  if (recipe.checkInputSets > 0) checkInputSets_ = recipe.checkInputSets;
  lastRow_ = -1;
  emit planChanged();
  // The calibration it records, where it records one (older recipes do not).
  if (recipe.calibration.recorded()) {
    calibrationFolder_ = recipe.calibration.data;
    if (recipe.calibration.sets > 0) synthesizedSets_ = recipe.calibration.sets;
    emit settingsChanged();
  }
  return Status::ok();
}

void PipelineSession::appendStep(AppliedStepPtr step, int lastRow) {
  steps_.push_back(std::move(step));
  lastRow_ = lastRow;
  if (batching_) return;  // once at the end of the run
  publishInsights();
  emit stepsChanged();
}

void PipelineSession::removeLastStep(int lastRow) {
  if (!steps_.empty()) steps_.pop_back();
  lastRow_ = lastRow;
  publishInsights();
  emit stepsChanged();
}

void PipelineSession::setState(std::vector<AppliedStepPtr> steps, int lastRow) {
  steps_ = std::move(steps);
  lastRow_ = lastRow;
  publishInsights();
  emit stepsChanged();
}

void PipelineSession::onDocumentChanged(const DocumentChange& change) {
  // Another model was opened: its pipeline starts afresh.
  if (!(change.has(DocumentChange::kModel) && change.has(DocumentChange::kFile))) return;
  if (running_) {
    cancel();
    future_.waitForFinished();
    ++runId_;  // its answers are ignored
    running_ = false;
    pending_.clear();
    emit runningChanged(false);
    emit runFinished(QString());
  }
  steps_.clear();
  lastRow_ = -1;
  runState_.reset();
  filter_ = rewrite::NodeFilter();  // node ids of another model
  emit nodeFilterChanged();
  checker_.reset();
  checkedOriginal_.reset();
  checkerAt_.reset();
  emit stepsChanged();
}

void PipelineSession::publishInsights() {
  if (!doc_->hasModel()) return;
  if (steps_.empty()) {
    doc_->setInsights(nullptr);
    return;
  }
  auto store = std::make_shared<NodeInsightsStore>();
  const ir::Model& original = *steps_.front()->before;
  const rewrite::Provenance& prov = steps_.back()->provenance;
  for (size_t k = 0; k < steps_.size(); ++k) {
    const pipeline::Step& s = steps_[k]->step;
    const int number = static_cast<int>(k) + 1;
    for (ir::NodeId id : s.summary.added) {
      if (findNode(doc_->model(), id) == nullptr) continue;  // gone again later
      Provenance p;
      p.passId = prov.createdBy(id);
      if (p.passId.empty()) p.passId = s.passId;
      p.step = number;
      p.origins = prov.origins(id);
      for (ir::NodeId o : p.origins) {
        const ir::Node* n = ir::findNodeRecursive(original.graph(), o);
        p.originLabels.push_back(n ? n->describe() : "#" + std::to_string(o));
      }
      store->setProvenance(id, std::move(p));
    }
    for (const auto& [node, reasons] : s.explain.all())
      for (const auto& [pattern, why] : *reasons)
        store->recordMatchFailure(node, {s.passId, pattern, why, number});
  }
  doc_->setInsights(store);
}

}  // namespace passlab::ui
