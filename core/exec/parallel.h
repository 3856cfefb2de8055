// Intra-op parallelism on OpenMP threads, the runtime oneDNN uses too, so the
// process has one pool and the cores are not oversubscribed.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>

namespace passlab::exec {

// Calls f(begin, end) on disjoint chunks covering [0, n), using at most
// `threads` threads and giving each at least `minPerThread` items (so small
// work stays on the calling thread).
template <class F>
void parallelFor(int64_t n, int threads, int64_t minPerThread, F&& f) {
  if (n <= 0) return;
  int64_t useful = minPerThread > 0 ? n / minPerThread : n;
  int t = static_cast<int>(std::clamp<int64_t>(useful, 1, std::max(threads, 1)));
  if (t <= 1) {
    f(int64_t{0}, n);
    return;
  }
#pragma omp parallel num_threads(t)
  {
    int64_t id = omp_get_thread_num();
    int64_t nt = omp_get_num_threads();
    int64_t chunk = (n + nt - 1) / nt;
    int64_t begin = id * chunk;
    int64_t end = std::min(n, begin + chunk);
    if (begin < end) f(begin, end);
  }
}

// Elements per thread below which elementwise work is not split.
inline constexpr int64_t kElementwiseGrain = 32 * 1024;

}  // namespace passlab::exec
