// What one OpenMP fork-join costs in this process, and the work below which
// splitting a step over threads does not pay (issue #26).
//
// With idle threads sleeping (OMP_WAIT_POLICY=PASSIVE) every parallel region
// wakes them through the kernel, and the calling thread often sleeps at the
// closing barrier until the last one arrives: on this 2-core VM that is tens
// of microseconds a region. With spinning threads (the default wait policy) a
// region costs a microsecond or two. The cost is measured once per process
// and thread count, so the limit follows the wait policy the process runs
// under instead of a constant tuned for one of them.
#pragma once

namespace passlab::exec {

// What a `#pragma omp parallel` of `threads` threads costs above its work:
// the fewest microseconds, out of 17, of a region in which each thread works
// 50 us, less those 50, each region after 100 us of work on the calling
// thread as a run's steps are (measured on first use per thread count, about
// 4 ms; an empty region undercounts it, fork_join_cost.cpp). 0 for
// one thread; inside a parallel region (where a nested one would not fork)
// the assumed kFallbackForkJoinMicros.
double forkJoinMicros(int threads);

// The same measurement taken now, not cached (forkJoinMicros' first call
// takes it); with one thread, what a region that forks nothing costs above
// its work.
double measureForkJoinMicros(int threads);

// Estimated single-thread work (analysis/work_micros.h) below which a step
// or a kernel's data movement runs on the calling thread only:
// kForkJoinMultiple fork-joins (a second thread saves at most half of the
// work), clamped to [kMinSplitMicros, kMaxSplitMicros]. The floor is the old
// constant limit (step_threads.h's kSingleThreadMicros): a limit measured
// lower split more steps (shufflenet 70 -> 100 regions a run under PASSIVE
// on a loaded machine) and gained nothing measurable, so the measurement only
// raises it, where waking a thread is dear. These were 4, 60 and 500 on the
// estimates before their calibration (session 26), which ran about 2x over
// for convolutions: halved with them. PASSLAB_SMALL_STEP_MICROS, when set to
// a number, replaces the limit (0: every step on every thread).
double splitLimitMicros(int threads);

// The limit of a run whose outputs must not depend on timing
// (ExecutorOptions::reproducible): PASSLAB_SMALL_STEP_MICROS when set, else
// kReproducibleSplitMicros; never measured, so the steps a run splits, and
// with them its float sums' order, are those of every other process.
double reproducibleSplitLimitMicros();

// Whether PASSLAB_SMALL_STEP_MICROS sets the limit: then a run's steps take
// the cost model's choice alone, untimed (step_trials.h).
bool splitLimitIsFixed();

inline constexpr double kFallbackForkJoinMicros = 30.0;
inline constexpr double kForkJoinMultiple = 2.0;
inline constexpr double kMinSplitMicros = 30.0;
inline constexpr double kMaxSplitMicros = 250.0;
// The measured limit's value at the assumed fork-join cost (sleeping threads).
inline constexpr double kReproducibleSplitMicros = kForkJoinMultiple * kFallbackForkJoinMicros;

}  // namespace passlab::exec
