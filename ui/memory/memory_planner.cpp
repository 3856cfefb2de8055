#include "ui/memory/memory_planner.h"

#include <QtConcurrent/QtConcurrentRun>

namespace passlab::ui {

MemoryPlanner::MemoryPlanner(QObject* parent) : QObject(parent) {
  qRegisterMetaType<MemoryOutcomePtr>();
  connect(&watcher_, &QFutureWatcher<void>::finished, this, &MemoryPlanner::onDone);
}

MemoryPlanner::~MemoryPlanner() {
  waiting_.reset();
  cancel();
  watcher_.waitForFinished();
}

void MemoryPlanner::plan(MemoryRequest request) {
  if (running_) {  // the newer request waits for the running one to stop
    cancel();
    waiting_ = std::make_unique<MemoryRequest>(std::move(request));
    return;
  }
  start(std::move(request));
  running_ = true;
  emit runningChanged(true);
}

void MemoryPlanner::start(MemoryRequest request) {
  cancel_ = std::make_shared<std::atomic<bool>>(false);
  result_ = std::make_shared<MemoryOutcome>();
  result_->step = request.step;
  watcher_.setFuture(QtConcurrent::run([request = std::move(request), cancel = cancel_,
                                        result = result_] {
    result->current = memoryTimelineOf(*request.model, cancel.get());
    if (request.before && !cancel->load())
      result->before =
          std::make_shared<const MemoryTimeline>(memoryTimelineOf(*request.before, cancel.get()));
  }));
}

void MemoryPlanner::cancel() {
  if (cancel_) cancel_->store(true);
}

void MemoryPlanner::waitForRun() {
  while (running_) {
    watcher_.waitForFinished();
    onDone();  // what the watcher's signal would do; it then finds nothing to do
  }
}

void MemoryPlanner::onDone() {
  if (!running_ || !watcher_.isFinished() || !result_) return;
  std::shared_ptr<MemoryOutcome> result = std::move(result_);
  const bool dropped = cancel_->load();
  if (waiting_) {
    std::unique_ptr<MemoryRequest> next = std::move(waiting_);
    start(std::move(*next));
    return;
  }
  running_ = false;
  emit runningChanged(false);
  if (!dropped) emit finished(std::move(result));
}

}  // namespace passlab::ui
