// The fork-join cost measured per process and the split limit derived from
// it (issue #26); a convolution's layout reorders, and a 1x1 convolution's
// bias, on one thread give the same bytes as on two.
#include "core/exec/fork_join_cost.h"

#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/exec/executor.h"
#include "exec_test_util.h"

namespace passlab::exec {
namespace {

using testutil::floats;
using testutil::parseModel;
using testutil::toFloats;

TEST(ForkJoinCost, MeasuredOncePerThreadCount) {
  EXPECT_EQ(forkJoinMicros(1), 0.0);
  double first = forkJoinMicros(2);
  EXPECT_GT(first, 0.0);
  EXPECT_LT(first, 1e6);                // a second would be no fork-join
  EXPECT_EQ(forkJoinMicros(2), first);  // not measured again
}

TEST(ForkJoinCost, MeasuredAboveTheRegionsWork) {
  // A region of one thread forks nothing: what is left once each region's
  // 50 us of work is taken off is the region's own bookkeeping, well under
  // those 50 us (the cheapest of 17 regions).
  EXPECT_LT(measureForkJoinMicros(1), 25.0);
  // No bound on two threads: on a loaded CI machine the other thread can be
  // descheduled for milliseconds in every timed region (3.9 ms measured).
}

TEST(ForkJoinCost, InsideAParallelRegionTheFallback) {
  double inside = -1.0;
#pragma omp parallel num_threads(2)
  {
    if (omp_get_thread_num() == 0) inside = forkJoinMicros(2);
  }
  EXPECT_EQ(inside, kFallbackForkJoinMicros);
}

TEST(ForkJoinCost, TheLimitIsAClampedMultiple) {
  ::unsetenv("PASSLAB_SMALL_STEP_MICROS");
  double limit = splitLimitMicros(2);
  EXPECT_GE(limit, kMinSplitMicros);
  EXPECT_LE(limit, kMaxSplitMicros);
  double want = kForkJoinMultiple * forkJoinMicros(2);
  if (want > kMinSplitMicros && want < kMaxSplitMicros) EXPECT_DOUBLE_EQ(limit, want);
}

TEST(ForkJoinCost, TheEnvironmentReplacesTheLimit) {
  ::setenv("PASSLAB_SMALL_STEP_MICROS", "0", 1);
  EXPECT_EQ(splitLimitMicros(2), 0.0);
  ::setenv("PASSLAB_SMALL_STEP_MICROS", "1e9", 1);
  EXPECT_EQ(splitLimitMicros(2), 1e9);
  ::setenv("PASSLAB_SMALL_STEP_MICROS", "fast", 1);  // not a number: the measured limit
  double bad = splitLimitMicros(2);
  ::unsetenv("PASSLAB_SMALL_STEP_MICROS");
  EXPECT_EQ(bad, splitLimitMicros(2));
}

// A 3x3 convolution oneDNN runs channels-last on this size: the input is
// reordered from NCHW and the output back (about 20 us of bytes each).
constexpr const char* kConv = R"(
    main (float[1,16,55,55] x, float[64,16,3,3] w, float[64] b) => (float[1,64,55,55] y) {
      y = Conv <pads = [1, 1, 1, 1]> (x, w, b)
    })";

std::vector<float> wave(size_t n, float step, float scale) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = scale * std::sin(step * static_cast<float>(i));
  return v;
}

std::vector<float> runConv(const char* limit, int threads) {
  ::setenv("PASSLAB_SMALL_STEP_MICROS", limit, 1);
  ir::Model m = parseModel(kConv);
  auto ex = Executor::create(m, {});
  EXPECT_TRUE(ex) << ex.error().message();
  RunOptions options;
  options.threads = threads;
  NamedInputs inputs = {
      {"x", Value(Tensor::fromIr(floats({1, 16, 55, 55}, wave(16 * 55 * 55, 0.37f, 1.0f))))},
      {"w", Value(Tensor::fromIr(floats({64, 16, 3, 3}, wave(64 * 16 * 9, 0.11f, 0.2f))))},
      {"b", Value(Tensor::fromIr(floats({64}, wave(64, 0.5f, 0.1f))))}};
  auto r = (*ex)->run(inputs, options);
  ::unsetenv("PASSLAB_SMALL_STEP_MICROS");
  EXPECT_TRUE(r) << r.error().message();
  return r ? toFloats(r->outputs[0]) : std::vector<float>();
}

TEST(ForkJoinCost, ConvReordersOnOneThreadChangeNoBit) {
  // 100 us: the Conv step (hundreds of us) on two threads, its reorders on one.
  std::vector<float> reordersAlone = runConv("100", 2), allSplit = runConv("0", 2);
  ASSERT_EQ(reordersAlone.size(), size_t{64 * 55 * 55});
  ASSERT_EQ(reordersAlone.size(), allSplit.size());
  for (size_t i = 0; i < allSplit.size(); ++i) ASSERT_EQ(reordersAlone[i], allSplit[i]) << i;
  // Against a double sum at a few points.
  std::vector<float> x = wave(16 * 55 * 55, 0.37f, 1.0f), w = wave(64 * 16 * 9, 0.11f, 0.2f),
                     b = wave(64, 0.5f, 0.1f);
  for (int o = 0; o < 64; o += 9)
    for (int p = 0; p < 55 * 55; p += 311) {
      int oy = p / 55, ox = p % 55;
      double want = b[size_t(o)];
      for (int c = 0; c < 16; ++c)
        for (int ky = 0; ky < 3; ++ky)
          for (int kx = 0; kx < 3; ++kx) {
            int iy = oy + ky - 1, ix = ox + kx - 1;
            if (iy < 0 || iy >= 55 || ix < 0 || ix >= 55) continue;
            want += double(x[size_t((c * 55 + iy) * 55 + ix)]) *
                    w[size_t(((o * 16 + c) * 3 + ky) * 3 + kx)];
          }
      EXPECT_NEAR(reordersAlone[size_t(o * 55 * 55 + p)], want, 1e-4) << o << "," << p;
    }
}

// A 1x1 convolution oneDNN runs as one GEMM on plain NCHW; at 2 threads,
// under a limit above the estimate for its result's bytes (0.8 MB read and
// written: tens of us) and below its work (25 MFLOP: hundreds of us), the
// bias is added on the calling thread after the GEMM instead of in oneDNN's
// own parallel region.
constexpr const char* kPointwise = R"(
    main (float[1,64,55,55] x, float[64,64,1,1] w, float[64] b) => (float[1,64,55,55] y) {
      y = Conv (x, w, b)
    })";

std::vector<float> runPointwise(const char* limit, int threads) {
  ::setenv("PASSLAB_SMALL_STEP_MICROS", limit, 1);
  ir::Model m = parseModel(kPointwise);
  auto ex = Executor::create(m, {});
  EXPECT_TRUE(ex) << ex.error().message();
  RunOptions options;
  options.threads = threads;
  NamedInputs inputs = {
      {"x", Value(Tensor::fromIr(floats({1, 64, 55, 55}, wave(64 * 55 * 55, 0.37f, 1.0f))))},
      {"w", Value(Tensor::fromIr(floats({64, 64, 1, 1}, wave(64 * 64, 0.11f, 0.2f))))},
      {"b", Value(Tensor::fromIr(floats({64}, wave(64, 0.5f, 0.1f))))}};
  auto r = (*ex)->run(inputs, options);
  ::unsetenv("PASSLAB_SMALL_STEP_MICROS");
  EXPECT_TRUE(r) << r.error().message();
  return r ? toFloats(r->outputs[0]) : std::vector<float>();
}

// A run sets the calling thread's OpenMP thread count to its threads and sets
// the caller's back when it returns: a 1-thread run does not leave the caller
// (its own OpenMP code, a later executor built outside a run) on one thread.
TEST(ForkJoinCost, ARunLeavesTheCallersOpenMpThreads) {
  const int before = omp_get_max_threads();
  omp_set_num_threads(3);
  for (int threads : {1, 2, 1}) {
    EXPECT_EQ(runPointwise("150", threads).size(), size_t{64 * 55 * 55});
    EXPECT_EQ(omp_get_max_threads(), 3) << "after a run on " << threads;
  }
  omp_set_num_threads(before);
}

TEST(ForkJoinCost, PointwiseBiasOnOneThreadChangesNoBit) {
  // 150: the bias after the GEMM, on the calling thread; 0: inside oneDNN
  // (every step and pass split); 1 thread: inside oneDNN, never split.
  std::vector<float> biasAlone = runPointwise("150", 2), inOneDnn = runPointwise("0", 2),
                     oneThread = runPointwise("150", 1);
  ASSERT_EQ(biasAlone.size(), size_t{64 * 55 * 55});
  ASSERT_EQ(inOneDnn.size(), biasAlone.size());
  ASSERT_EQ(oneThread.size(), biasAlone.size());
  for (size_t i = 0; i < biasAlone.size(); ++i) {
    ASSERT_EQ(biasAlone[i], inOneDnn[i]) << i;
    ASSERT_EQ(biasAlone[i], oneThread[i]) << i;
  }
  // Against a double sum: the bias is added once, to every channel's plane.
  std::vector<float> x = wave(64 * 55 * 55, 0.37f, 1.0f), w = wave(64 * 64, 0.11f, 0.2f),
                     b = wave(64, 0.5f, 0.1f);
  for (int o = 0; o < 64; o += 7)
    for (int p = 0; p < 55 * 55; p += 97) {
      double want = b[size_t(o)];
      for (int c = 0; c < 64; ++c)
        want += double(x[size_t(c * 55 * 55 + p)]) * w[size_t(o * 64 + c)];
      EXPECT_NEAR(biasAlone[size_t(o * 55 * 55 + p)], want, 1e-4) << o << "," << p;
    }
}

}  // namespace
}  // namespace passlab::exec
