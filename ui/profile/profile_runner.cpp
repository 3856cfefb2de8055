#include "ui/profile/profile_runner.h"

#include <QMetaObject>
#include <QPointer>
#include <QtConcurrent>

#include "ui/i18n/core_text.h"

namespace passlab::ui {

struct ProfileRunner::Job {
  ProfileSettings settings;
  std::shared_ptr<const ir::Model> model;  // profile: the model; compare: the current one
  std::optional<CompareInput> compare;
  std::shared_ptr<std::atomic<bool>> cancel;
  // Filled by the worker.
  std::shared_ptr<ProfileOutcome> outcome;
  QString error;
};

namespace {

pipeline::ProfileRequest requestFor(const ProfileSettings& s, const std::atomic<bool>* cancel) {
  pipeline::ProfileRequest req;
  req.device = s.device;
  req.threads = s.threads;
  req.warmup = s.warmup;
  req.repeats = s.repeats;
  req.cancel = cancel;
  return req;
}

// The roofs are for the roofline only: a machine where they cannot be
// measured still gets its profile.
std::optional<pipeline::MachineRoofs> roofsFor(int threads, const std::atomic<bool>* cancel) {
  pipeline::RoofOptions o;
  o.threads = threads;
  o.cancel = cancel;
  auto r = pipeline::machineRoofs(o);
  if (!r) return std::nullopt;
  return *r;
}

}  // namespace

ProfileRunner::ProfileRunner(QObject* parent) : QObject(parent) {
  qRegisterMetaType<ProfileOutcomePtr>();
  connect(&watcher_, &QFutureWatcher<void>::finished, this, &ProfileRunner::onDone);
}

ProfileRunner::~ProfileRunner() {
  cancel();
  waitForRun();
}

bool ProfileRunner::profile(std::shared_ptr<const ir::Model> model,
                            const ProfileSettings& settings) {
  if (running_ || !model) return false;
  auto job = std::make_shared<Job>();
  job->settings = settings;
  job->model = std::move(model);
  return start(std::move(job));
}

bool ProfileRunner::compare(CompareInput input, const ProfileSettings& settings) {
  if (running_ || !input.original || !input.current) return false;
  auto job = std::make_shared<Job>();
  job->settings = settings;
  job->model = input.current;
  job->compare = std::move(input);
  return start(std::move(job));
}

bool ProfileRunner::start(std::shared_ptr<Job> job) {
  cancel_ = std::make_shared<std::atomic<bool>>(false);
  job->cancel = cancel_;
  job_ = job;
  running_ = true;
  emit runningChanged(true);
  QPointer<ProfileRunner> self(this);
  auto report = [self](const pipeline::ProfileProgress& p) {
    QString phase = QString::fromStdString(p.phase);
    int done = p.done, total = p.total;
    QMetaObject::invokeMethod(
        self.data(),
        [self, phase, done, total] {
          if (self) emit self->progress(phase, done, total);
        },
        Qt::QueuedConnection);
  };
  watcher_.setFuture(QtConcurrent::run([job, report] {
    auto outcome = std::make_shared<ProfileOutcome>();
    outcome->model = job->model;
    pipeline::ProfileRequest req = requestFor(job->settings, job->cancel.get());
    req.progress = report;
    if (job->compare) {
      pipeline::CompareRequest creq;
      creq.base = req;
      creq.base.model = job->compare->original.get();
      creq.optimized = job->compare->current.get();
      creq.provenance = job->compare->provenance.get();
      auto r = pipeline::compareModels(creq);
      if (!r) {
        job->error = trCore(r.error().text());
        return;
      }
      outcome->compare = true;
      outcome->comparison = std::move(*r);
      outcome->profile = outcome->comparison.after;
    } else {
      req.model = job->model.get();
      auto r = pipeline::profileModel(req);
      if (!r) {
        job->error = trCore(r.error().text());
        return;
      }
      outcome->profile = std::move(*r);
    }
    // The roofs are the CPU's: a GPU's nodes are not plotted against them.
    if (job->settings.device == "cpu")
      outcome->roofs = roofsFor(outcome->profile.threads, job->cancel.get());
    job->outcome = std::move(outcome);
  }));
  return true;
}

QString ProfileRunner::phaseText(const QString& phase) {
  if (phase == QLatin1String("warm-up")) return tr("warm-up");
  if (phase == QLatin1String("measuring")) return tr("measuring");
  if (phase == QLatin1String("interleaved rounds")) return tr("interleaved rounds");
  return phase;
}

void ProfileRunner::cancel() {
  if (cancel_) cancel_->store(true);
}

void ProfileRunner::waitForRun() {
  watcher_.waitForFinished();
}

void ProfileRunner::onDone() {
  std::shared_ptr<Job> job = std::move(job_);
  running_ = false;
  emit runningChanged(false);
  if (!job) return;
  if (job->outcome)
    emit finished(job->outcome);
  else if (job->cancel->load())
    emit failed(tr("Profiling cancelled"));
  else
    emit failed(job->error);
}

}  // namespace passlab::ui
