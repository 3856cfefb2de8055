#include "ui/precision/precision_worker.h"

#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>

#include "core/analysis/shape_inference.h"
#include "core/pipeline/calibration.h"
#include "core/pipeline/precision_checker.h"
#include "ui/i18n/core_text.h"

namespace passlab::ui {

struct PrecisionWorker::Job {
  PrecisionRequest request;
  std::atomic<bool> cancel{false};
  std::function<void(size_t, size_t)> report;
  std::shared_ptr<PrecisionOutcome> outcome;  // set when the run succeeded
  QString error;
};

namespace {

using Kind = PrecisionRequest::Kind;

// The evaluator's calibration sets: the folder's (`given`, count > 0), else
// `synthesized` made by the input synthesis (as the CLI's); either way made
// one at a time as calibration runs.
std::unique_ptr<pipeline::CalibratingEvaluator> evaluatorFor(pipeline::CalibrationSetSource given,
                                                             int synthesized) {
  if (given.count > 0) return std::make_unique<pipeline::CalibratingEvaluator>(std::move(given));
  return std::make_unique<pipeline::CalibratingEvaluator>(
      pipeline::synthesizedCalibration(pipeline::InputSpec{}, synthesized));
}

// The calibrating evaluator, counting the times the sets run through a
// model (PrecisionOutcome::calibrations).
class CountedCalibration final : public rewrite::Evaluator, public passes::NonFiniteInputSource {
 public:
  explicit CountedCalibration(pipeline::CalibratingEvaluator& inner) : inner_(inner) {}
  Expected<std::vector<ir::Tensor>> evaluate(const ir::Node& node,
                                             const std::vector<const ir::Tensor*>& inputs,
                                             int64_t opset) override {
    return inner_.evaluate(node, inputs, opset);
  }
  Status observeValues(const ir::Model& model, const std::vector<std::string>& values,
                       const Observer& observe, const std::atomic<bool>* cancel) override {
    ++calibrations_;
    return inner_.observeValues(model, values, observe, cancel);
  }
  size_t calibrationSets() const override { return inner_.calibrationSets(); }
  Text firstNonFiniteInput(const ir::Model& model) override {
    return inner_.firstNonFiniteInput(model);
  }
  size_t calibrations() const { return calibrations_.load(); }

 private:
  pipeline::CalibratingEvaluator& inner_;
  std::atomic<size_t> calibrations_{0};
};

// The analysis the request asks for, into `out`.
Status analyse(const ir::Model& model, const PrecisionRequest& r, std::atomic<bool>& cancel,
               const std::function<void(size_t, size_t)>& report, PrecisionOutcome& out) {
  // The folder's sets, checked against the model (an error names the folder).
  pipeline::CalibrationSetSource given;
  if (!r.calibrationFolder.empty()) {
    auto source = pipeline::calibrationFolder(model, r.calibrationFolder);
    if (!source) return source.error();
    given = std::move(source.value());
  }
  auto evaluator = evaluatorFor(given, r.synthesizedSets);
  if (r.kind == Kind::kCalibrate) {
    auto table = calibrateTensors(model, *evaluator, r.percentile, &cancel, report);
    if (!table) return table.error();
    out.calibration = std::move(table.value());
    return Status::ok();
  }
  auto first =
      pipeline::firstCalibrationSets(given, model, static_cast<size_t>(std::max(1, r.checkSets)));
  if (!first) return first.error();
  auto checker = pipeline::precisionChecker(model, *first, r.checkSets);
  if (!checker) return checker.error();
  CountedCalibration counted(*evaluator);
  pipeline::SensitivityOptions o;
  o.passId = r.spec.id;
  o.passOptions = r.spec.options;
  o.cancel = &cancel;
  o.evaluator = &counted;
  o.progress = report;
  o.topK = r.budget.topK;  // the ranking measures the top-k the budget limits
  out.ranked = r.ranked;
  out.topK = r.ranked.empty() ? o.topK : r.rankedTopK;
  // One calibration for the ranking and the bisection, as `precision -o`
  // (each calibrated the model again before).
  auto prepared = pipeline::prepareTrialCalibration(model, o);
  if (!prepared) return prepared.error();
  o.trialCalibration = *prepared;
  if (out.ranked.empty()) {
    auto ranked = pipeline::rankLayers(model, **checker, o);
    if (!ranked) return ranked.error();
    out.ranked = std::move(ranked.value());
  }
  if (r.kind == Kind::kMixed) {
    auto mixed = pipeline::mixedPrecision(model, **checker, out.ranked, r.budget, o);
    if (!mixed) return mixed.error();
    out.mixed = std::move(mixed.value());
  }
  out.calibrations = counted.calibrations();
  return Status::ok();
}

}  // namespace

PrecisionWorker::PrecisionWorker(QObject* parent) : QObject(parent) {
  qRegisterMetaType<PrecisionOutcomePtr>();
  connect(&watcher_, &QFutureWatcher<void>::finished, this, &PrecisionWorker::onDone);
}

PrecisionWorker::~PrecisionWorker() {
  cancel();
  watcher_.waitForFinished();
}

bool PrecisionWorker::start(PrecisionRequest request) {
  if (running_ || !request.model) return false;
  auto job = std::make_shared<Job>();
  job->request = std::move(request);
  QPointer<PrecisionWorker> self(this);
  job->report = [self](size_t done, size_t total) {
    QMetaObject::invokeMethod(
        self.data(),
        [self, done, total] {
          if (self && self->running_)
            emit self->progress(static_cast<int>(done), static_cast<int>(total));
        },
        Qt::QueuedConnection);
  };
  job_ = job;
  running_ = true;
  emit runningChanged(true);
  watcher_.setFuture(QtConcurrent::run([job] {
    // Shapes inferred on a copy, as `passlab-cli precision` does.
    ir::Model model = job->request.model->clone();
    analysis::inferShapes(model);
    auto outcome = std::make_shared<PrecisionOutcome>();
    outcome->kind = job->request.kind;
    outcome->model = job->request.model;
    outcome->spec = job->request.spec;
    Status s = analyse(model, job->request, job->cancel, job->report, *outcome);
    if (s.isOk())
      job->outcome = std::move(outcome);
    else
      job->error = trCore(s.error().text());
  }));
  return true;
}

void PrecisionWorker::cancel() {
  if (job_) job_->cancel.store(true);
}

void PrecisionWorker::waitForRun() {
  watcher_.waitForFinished();
  onDone();  // what the watcher's signal would do; it then finds nothing to do
}

void PrecisionWorker::onDone() {
  if (!running_ || !watcher_.isFinished()) return;
  std::shared_ptr<Job> job = std::move(job_);
  running_ = false;
  emit runningChanged(false);
  if (!job) return;
  if (job->cancel.load())
    emit failed(tr("Cancelled: the model was left as it is."));
  else if (job->outcome)
    emit finished(job->outcome);
  else
    emit failed(job->error);
}

}  // namespace passlab::ui
