#include "ui/pipeline/pipeline_session.h"

#include <QCoreApplication>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <set>

#include "core/passes/registry.h"
#include "core/pipeline/numeric_check.h"
#include "ui/document/graph_ref.h"
#include "ui/document/node_insights.h"
#include "ui/pipeline/pipeline_commands.h"

namespace passlab::ui {

namespace {

// Every registry pass once, in registry order, with the "default" level on.
std::vector<PlanEntry> defaultPlan() {
  std::vector<PlanEntry> plan;
  for (const passes::Pass* p : passes::allPasses()) plan.push_back({p->info().id, false, {}});
  return plan;
}

}  // namespace

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

std::vector<PlanEntry> groupByCategory(std::vector<PlanEntry> plan) {
  auto rank = [](const PlanEntry& e) {
    const passes::Pass* p = passes::findPass(e.id);
    return p ? categoryRank(p->info().category) : 4;
  };
  std::stable_sort(plan.begin(), plan.end(),
                   [&](const PlanEntry& a, const PlanEntry& b) { return rank(a) < rank(b); });
  return plan;
}

PipelineSession::PipelineSession(Document* doc) : QObject(doc), doc_(doc) {
  plan_ = defaultPlan();
  (void)applyLevel("default");
  connect(doc_, &Document::changed, this, &PipelineSession::onDocumentChanged);
}

PipelineSession::~PipelineSession() {
  if (cancel_) cancel_->store(true);
  future_.waitForFinished();
}

// ---- the plan ----

void PipelineSession::setPlan(std::vector<PlanEntry> plan) {
  plan_ = groupByCategory(std::move(plan));
  emit planChanged();
}

void PipelineSession::setEnabled(const std::string& id, bool enabled) {
  for (PlanEntry& e : plan_)
    if (e.id == id && e.enabled != enabled) {
      e.enabled = enabled;
      emit planChanged();
    }
}

void PipelineSession::movePass(int from, int to) {
  const int n = static_cast<int>(plan_.size());
  if (from < 0 || from >= n || to < 0 || to >= n || from == to) return;
  PlanEntry e = std::move(plan_[static_cast<size_t>(from)]);
  plan_.erase(plan_.begin() + from);
  plan_.insert(plan_.begin() + to, std::move(e));
  plan_ = groupByCategory(std::move(plan_));  // a pass stays in its category
  emit planChanged();
}

Status PipelineSession::setOption(const std::string& id, const std::string& name,
                                  const std::string& value) {
  const passes::Pass* pass = passes::findPass(id);
  if (pass == nullptr) return invalidArgument("unknown pass '" + id + "'");
  for (PlanEntry& e : plan_) {
    if (e.id != id) continue;
    passes::Options next = e.options;
    next.erase(
        std::remove_if(next.begin(), next.end(), [&](const auto& o) { return o.first == name; }),
        next.end());
    if (!value.empty()) next.emplace_back(name, value);
    auto checked = pipeline::effectiveOptions(*pass, next);  // rejects unknown names
    if (!checked) return checked.error();
    e.options = std::move(next);
    emit planChanged();
    return Status::ok();
  }
  return invalidArgument("pass '" + id + "' is not in the plan");
}

Status PipelineSession::applyLevel(const std::string& level) {
  auto ids = passes::passesForLevel(level);
  if (!ids) return ids.error();
  std::vector<PlanEntry> next;
  std::set<std::string> seen;
  auto take = [&](const std::string& id, bool enabled) {
    if (!seen.insert(id).second) return;
    PlanEntry e{id, enabled, {}};
    for (const PlanEntry& old : plan_)
      if (old.id == id) e.options = old.options;
    next.push_back(std::move(e));
  };
  for (const std::string& id : *ids) take(id, true);
  for (const PlanEntry& e : plan_) take(e.id, false);
  plan_ = groupByCategory(std::move(next));
  emit planChanged();
  return Status::ok();
}

std::vector<pipeline::PassSpec> PipelineSession::enabledSpecs() const {
  std::vector<pipeline::PassSpec> specs;
  for (const PlanEntry& e : plan_)
    if (e.enabled) specs.push_back({e.id, e.options, filter_});
  return specs;
}

std::string PipelineSession::nextPass() const {
  // The first enabled pass after the one that ran last; from the top again
  // after the end of the plan (another round finds what the first exposed).
  size_t start = 0;
  for (size_t i = 0; i < plan_.size(); ++i)
    if (plan_[i].id == lastRun_) start = i + 1;
  for (size_t i = start; i < plan_.size(); ++i)
    if (plan_[i].enabled) return plan_[i].id;
  for (size_t i = 0; i < start && i < plan_.size(); ++i)
    if (plan_[i].enabled) return plan_[i].id;
  return {};
}

void PipelineSession::setNodeFilter(rewrite::NodeFilter filter) {
  filter_ = std::move(filter);
  emit nodeFilterChanged();
}

void PipelineSession::setNumericCheck(bool on) {
  numericCheck_ = on;
}

// ---- running ----

bool PipelineSession::step() {
  std::string id = nextPass();
  if (id.empty()) return false;
  for (const PlanEntry& e : plan_)
    if (e.id == id) return start({{e.id, e.options, filter_}});
  return false;
}

bool PipelineSession::runAll() {
  std::string first = nextPass();
  if (first.empty()) return false;
  std::vector<pipeline::PassSpec> specs;
  bool on = false;
  for (const PlanEntry& e : plan_) {
    if (e.id == first) on = true;
    if (on && e.enabled) specs.push_back({e.id, e.options, filter_});
  }
  return start(std::move(specs));
}

void PipelineSession::cancel() {
  if (cancel_) cancel_->store(true);
}

void PipelineSession::waitForRun() {
  future_.waitForFinished();
  // Deliver the worker's queued answers.
  QCoreApplication::sendPostedEvents(this);
}

bool PipelineSession::start(std::vector<pipeline::PassSpec> specs) {
  if (running_ || !doc_->hasModel() || specs.empty()) return false;
  running_ = true;
  const int runId = ++runId_;
  cancel_ = std::make_shared<std::atomic<bool>>(false);
  pending_.clear();
  undoIndexAtStart_ = doc_->undoStack()->index();
  lastRunAtStart_ = lastRun_;

  // The worker edits its own copy (weights are shared, not copied).
  auto work = std::make_shared<ir::Model>(doc_->model().clone());
  rewrite::Provenance provenance =
      steps_.empty() ? rewrite::Provenance() : steps_.back()->provenance;
  // The check compares with the model before the first Step.
  std::shared_ptr<pipeline::ExecOutputChecker> checker;
  std::shared_ptr<const ir::Model> original = steps_.empty() ? nullptr : steps_.front()->before;
  if (numericCheck_ && original && original == checkedOriginal_) checker = checker_;
  pipeline::PipelineOptions po;
  po.standardOnly = standardOnly_;
  po.keepSnapshots = true;
  po.stopOnCheckFailure = true;
  const bool check = numericCheck_;
  const int inputSets = checkInputSets_;
  auto cancel = cancel_;
  emit runningChanged(true);
  emit progress(0, static_cast<int>(specs.size()), QString::fromStdString(specs.front().id));

  future_ = QtConcurrent::run([this, runId, work, specs = std::move(specs), provenance, checker,
                               original, po, check, inputSets, cancel]() mutable {
    const int total = static_cast<int>(specs.size());
    auto current = std::make_shared<const ir::Model>(work->clone());
    if (!original) original = current;
    QString error;
    if (check && !checker) {
      auto created = pipeline::ExecOutputChecker::create(*original, inputSets, {});
      if (created) {
        checker = std::move(created.value());
      } else {
        error = tr("The numeric check cannot run, so it is off for this "
                   "run: %1")
                    .arg(QString::fromStdString(created.error().message()));
      }
    }
    pipeline::PassManager pm(*work, po);
    pipeline::ExecEvaluator evaluator;
    pm.setEvaluator(&evaluator);
    if (check && checker) pm.setChecker(checker.get());
    pm.setCancelFlag(cancel.get());
    for (int i = 0; i < total; ++i) {
      if (cancel->load()) {
        error = tr("Cancelled after %n pass(es)", "", i);
        break;
      }
      auto ran = pm.run(specs[static_cast<size_t>(i)]);
      if (!ran) {
        error = QString::fromStdString(ran.error().message());
        break;
      }
      const pipeline::Step& s = **ran;
      if (s.rolledBack && cancel->load()) {
        // Stopped inside the pass: it was undone and counts for nothing.
        error = tr("Cancelled after %n pass(es)", "", i);
        break;
      }
      auto rec = std::make_shared<AppliedStep>();
      rec->step = s;
      rec->before = current;
      rec->after = s.snapshotAfter && !s.rolledBack ? s.snapshotAfter : current;
      rec->step.snapshotBefore = current;  // the same model, kept once
      rec->step.snapshotAfter = rec->after;
      for (ir::NodeId id : s.summary.added)
        provenance.recordDerived(id, pm.provenance().origins(id), pm.provenance().createdBy(id));
      rec->provenance = provenance;
      rec->filter = specs[static_cast<size_t>(i)].filter;
      current = rec->after;
      QString next =
          i + 1 < total ? QString::fromStdString(specs[static_cast<size_t>(i + 1)].id) : QString();
      QMetaObject::invokeMethod(
          this,
          [this, runId, rec, i, total, next] { onWorkerStep(runId, rec, i + 1, total, next); },
          Qt::QueuedConnection);
      if (s.rolledBack) {
        error = tr("%1 failed and was rolled back: %2")
                    .arg(QString::fromStdString(s.passId), QString::fromStdString(s.error));
        break;
      }
      if (s.check.ran && !s.check.passed) {
        error = tr("%1 changed the outputs (%2); the run stopped there")
                    .arg(QString::fromStdString(s.passId), QString::fromStdString(s.check.detail));
        break;
      }
    }
    auto checkedOriginal = checker ? original : nullptr;
    QMetaObject::invokeMethod(
        this,
        [this, runId, error, checker, checkedOriginal] {
          onWorkerDone(runId, error, checker, checkedOriginal);
        },
        Qt::QueuedConnection);
  });
  return true;
}

void PipelineSession::onWorkerStep(int runId, AppliedStepPtr step, int done, int total,
                                   const QString& next) {
  if (runId != runId_) return;
  pending_.push_back(std::move(step));
  emit progress(done, total, next);
}

void PipelineSession::onWorkerDone(int runId, const QString& error,
                                   std::shared_ptr<pipeline::ExecOutputChecker> checker,
                                   std::shared_ptr<const ir::Model> checkedOriginal) {
  if (runId != runId_) return;
  running_ = false;
  cancel_.reset();
  QString message = error;
  std::vector<AppliedStepPtr> done = std::move(pending_);
  pending_.clear();
  if (checker) {
    checker_ = std::move(checker);
    checkedOriginal_ = std::move(checkedOriginal);
  }
  if (!doc_->hasModel() || doc_->undoStack()->index() != undoIndexAtStart_ ||
      lastRun_ != lastRunAtStart_) {
    // Undo, redo or an edit happened meanwhile: the results belong to a model
    // that is no longer there.
    if (!done.empty())
      message = tr("The model changed while the passes ran; their results were dropped.");
    done.clear();
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
    std::string before = lastRun_;
    doc_->undoStack()->push(new PassStepCommand(this, s, before, s->step.passId, i < lastChange));
  }
  batching_ = false;
  if (!done.empty()) {
    publishInsights();
    emit stepsChanged();
  }
  emit runningChanged(false);
  emit runFinished(message);
}

void PipelineSession::reset() {
  if (steps_.empty() || running_) return;
  doc_->undoStack()->push(new ResetPipelineCommand(this));
}

// ---- applied Steps ----

pipeline::Recipe PipelineSession::recipe() const {
  pipeline::Recipe r;
  r.standardOnly = standardOnly_;
  r.checkInputSets = numericCheck_ ? checkInputSets_ : 0;
  for (const AppliedStepPtr& s : steps_) {
    // Only what the user set differently from the defaults is written.
    passes::Options overrides;
    const passes::Pass* pass = passes::findPass(s->step.passId);
    for (const auto& [k, v] : s->step.options) {
      bool isDefault = false;
      if (pass)
        for (const passes::PassOption& o : pass->info().options)
          if (o.name == k && o.defaultValue == v) isDefault = true;
      if (!isDefault) overrides.emplace_back(k, v);
    }
    r.passes.push_back({s->step.passId, std::move(overrides), s->filter});
  }
  return r;
}

Status PipelineSession::loadRecipe(const pipeline::Recipe& recipe) {
  PASSLAB_RETURN_IF_ERROR(pipeline::validateRecipe(recipe));
  std::vector<PlanEntry> next;
  std::set<std::string> seen;
  for (const pipeline::PassSpec& s : recipe.passes)
    if (seen.insert(s.id).second) next.push_back({s.id, true, s.options});
  for (const PlanEntry& e : plan_)
    if (!seen.count(e.id)) next.push_back({e.id, false, e.options});
  plan_ = groupByCategory(std::move(next));
  standardOnly_ = recipe.standardOnly;
  numericCheck_ = recipe.checkInputSets > 0;
  if (recipe.checkInputSets > 0) checkInputSets_ = recipe.checkInputSets;
  lastRun_.clear();
  emit planChanged();
  return Status::ok();
}

void PipelineSession::appendStep(AppliedStepPtr step, std::string lastRun) {
  steps_.push_back(std::move(step));
  lastRun_ = std::move(lastRun);
  if (batching_) return;  // once at the end of the run
  publishInsights();
  emit stepsChanged();
}

void PipelineSession::removeLastStep(std::string lastRun) {
  if (!steps_.empty()) steps_.pop_back();
  lastRun_ = std::move(lastRun);
  publishInsights();
  emit stepsChanged();
}

void PipelineSession::setState(std::vector<AppliedStepPtr> steps, std::string lastRun) {
  steps_ = std::move(steps);
  lastRun_ = std::move(lastRun);
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
  lastRun_.clear();
  filter_ = rewrite::NodeFilter();  // node ids of another model
  emit nodeFilterChanged();
  checker_.reset();
  checkedOriginal_.reset();
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
      for (const auto& [pattern, why] : reasons)
        store->recordMatchFailure(node, {s.passId, pattern, why, number});
  }
  doc_->setInsights(store);
}

}  // namespace passlab::ui
