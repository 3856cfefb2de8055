#include "core/pipeline/parallel_trials.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "core/exec/thread_limit.h"

namespace passlab::pipeline {

namespace {

int cores() {
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

bool cancelled(const TrialPool& pool) {
  return pool.cancel && pool.cancel->load();
}

// What the workers share: the next trial, how many finished, the first error.
struct Progress {
  std::mutex mutex;
  std::condition_variable changed;
  size_t next = 0, done = 0, running = 0;
  std::optional<Error> error;
};

void work(size_t count, const TrialPool& pool, const std::function<Status(size_t)>& trial,
          int threadsPerRun, Progress& p) {
  exec::ScopedThreadLimit limit(threadsPerRun);
  std::unique_lock<std::mutex> lock(p.mutex);
  while (p.next < count && !p.error && !cancelled(pool)) {
    const size_t i = p.next++;
    ++p.running;
    lock.unlock();
    Status s = trial(i);
    lock.lock();
    --p.running;
    ++p.done;
    if (!s.isOk() && !p.error) p.error = s.error();
    p.changed.notify_all();
  }
  p.changed.notify_all();
}

}  // namespace

int trialWorkers(const TrialPool& pool, size_t count) {
  const int wanted = pool.workers > 0 ? pool.workers : cores();
  return static_cast<int>(std::clamp<size_t>(count, 1, static_cast<size_t>(std::max(wanted, 1))));
}

Status runTrials(size_t count, const TrialPool& pool, const std::function<Status(size_t)>& trial) {
  const int workers = trialWorkers(pool, count);
  if (workers <= 1) {
    for (size_t i = 0; i < count; ++i) {
      if (cancelled(pool)) return Error(ErrorCode::kCancelled, "cancelled");
      PASSLAB_RETURN_IF_ERROR(trial(i));
      if (pool.progress) pool.progress(i + 1, count);
    }
    return Status::ok();
  }
  const int threadsPerRun = std::max(1, cores() / workers);
  Progress p;
  std::vector<std::thread> threads;
  for (int w = 0; w < workers; ++w)
    threads.emplace_back(work, count, std::cref(pool), std::cref(trial), threadsPerRun,
                         std::ref(p));
  {
    std::unique_lock<std::mutex> lock(p.mutex);
    size_t reported = 0;
    auto finished = [&] {
      return p.done == count || ((p.error || cancelled(pool)) && p.running == 0);
    };
    while (true) {
      p.changed.wait(lock, [&] { return p.done > reported || finished(); });
      if (p.done > reported) {
        reported = p.done;
        if (pool.progress) {
          lock.unlock();
          pool.progress(reported, count);
          lock.lock();
        }
      }
      if (finished()) break;
    }
  }
  for (auto& t : threads) t.join();
  if (p.error) return *p.error;
  if (cancelled(pool) && p.done < count) return Error(ErrorCode::kCancelled, "cancelled");
  return Status::ok();
}

}  // namespace passlab::pipeline
