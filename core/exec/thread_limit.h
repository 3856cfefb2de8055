// A cap on the threads of the executor runs a thread starts: code that runs
// several models at once on its own threads (the sensitivity trials) gives
// each worker a share of the cores, so that the runs' OpenMP teams together
// do not oversubscribe the machine (core/exec/parallel.h).
//
//   exec::ScopedThreadLimit limit(1);  // runs started on this thread: 1 thread
//
// A run's explicit RunOptions::threads still wins; the cap bounds the default.
#pragma once

namespace passlab::exec {

// The cap of the calling thread; 0: none.
int threadLimit();

class ScopedThreadLimit {
 public:
  explicit ScopedThreadLimit(int threads);
  ~ScopedThreadLimit();
  ScopedThreadLimit(const ScopedThreadLimit&) = delete;
  ScopedThreadLimit& operator=(const ScopedThreadLimit&) = delete;

 private:
  int previous_;
};

}  // namespace passlab::exec
