// Plans models' memory for the Memory dock on a worker thread (QtConcurrent):
// the current model, or a pipeline Step's model before and after it. One
// request runs at a time; a newer request cancels the one running (its
// outcome is dropped) and starts when that one stops.
#pragma once

#include <QFutureWatcher>
#include <QObject>

#include <atomic>
#include <memory>

#include "ui/memory/memory_timeline.h"

namespace passlab::ui {

struct MemoryRequest {
  std::shared_ptr<const ir::Model> model;   // the model drawn (after the Step)
  std::shared_ptr<const ir::Model> before;  // null: no comparison
  int step = -1;                            // the Step compared (0-based), or -1
};

struct MemoryOutcome {
  MemoryTimeline current;
  std::shared_ptr<const MemoryTimeline> before;  // null: no comparison
  int step = -1;
};
using MemoryOutcomePtr = std::shared_ptr<const MemoryOutcome>;

class MemoryPlanner : public QObject {
  Q_OBJECT

 public:
  explicit MemoryPlanner(QObject* parent = nullptr);
  ~MemoryPlanner() override;

  // Plans `request`, cancelling a request in progress.
  void plan(MemoryRequest request);
  bool isRunning() const { return running_; }
  void cancel();
  // Blocks until no request is running or waiting (tests, shutdown).
  void waitForRun();

 signals:
  void runningChanged(bool running);
  void finished(passlab::ui::MemoryOutcomePtr outcome);

 private:
  void start(MemoryRequest request);
  void onDone();

  bool running_ = false;
  std::shared_ptr<std::atomic<bool>> cancel_;
  std::shared_ptr<MemoryOutcome> result_;  // written by the worker
  std::unique_ptr<MemoryRequest> waiting_;
  QFutureWatcher<void> watcher_;
};

}  // namespace passlab::ui

Q_DECLARE_METATYPE(passlab::ui::MemoryOutcomePtr)
