#include "core/ir/deferred_free.h"

#include <atomic>
#include <cassert>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>

namespace passlab::ir {
namespace {

struct Batch {
  std::vector<std::unique_ptr<Node>> nodes;
  std::list<std::unique_ptr<Value>> values;
};

// Set when the worker is destroyed at exit: later batches (from static
// objects destroyed after it) are freed on the calling thread.
std::atomic<bool> workerGone{false};

class Worker {
 public:
  ~Worker() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
    workerGone = true;
  }

  // False (the batch untouched) when the previous batch is not freed yet:
  // the caller frees this one itself, so removed objects never pile up
  // faster than they are freed (memory stays bounded).
  bool push(Batch& b) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (pending_ > 0 || stopping_) return false;  // stopping: the process is exiting
      if (!thread_.joinable()) thread_ = std::thread([this] { loop(); });
      queue_.push_back(std::move(b));
      ++pending_;
    }
    wake_.notify_all();
    return true;
  }

  void wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return pending_ == 0; });
  }

 private:
  void loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and everything freed
      Batch b = std::move(queue_.front());
      queue_.pop_front();
      lock.unlock();
      // Values first, as UndoLog::commit did: no destructor reads another object.
      b.values.clear();
      b.nodes.clear();
      lock.lock();
      if (--pending_ == 0) done_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::deque<Batch> queue_;
  size_t pending_ = 0;
  bool stopping_ = false;
  std::thread thread_;
};

Worker& worker() {
  static Worker w;
  return w;
}

}  // namespace

void freeRemoved(std::vector<std::unique_ptr<Node>>& nodes,
                 std::list<std::unique_ptr<Value>>& values) {
#ifndef NDEBUG
  for (const auto& n : nodes) assert(!n->hasSubgraphs() && "subgraphs are freed by the caller");
#endif
  if (nodes.size() + values.size() < kDeferredFreeMinObjects || workerGone) {
    values.clear();
    nodes.clear();
    return;
  }
  Batch b;
  b.nodes.swap(nodes);
  b.values.splice(b.values.end(), values);
  try {
    if (worker().push(b)) return;
  } catch (const std::exception&) {
    // No thread could be started (or no memory to queue): free them here.
  }
  b.values.clear();
  b.nodes.clear();
}

void waitForDeferredFrees() {
  if (!workerGone) worker().wait();
}

}  // namespace passlab::ir
