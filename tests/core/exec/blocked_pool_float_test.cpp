// The blocked MaxPool / AveragePool (blocked_pool_float.h, what BlockedPool
// runs for 2-D windows) against the reference NCHW kernels on the same data,
// blocked: MaxPool exactly, AveragePool (counting padding or not) within
// rounding; blocks 8 and 16, channel counts that leave padding channels,
// pads, ceil_mode, dilations, strides 1 to 3, windows wholly in the padding;
// the portable, AVX2 and AVX-512 loops (where the machine has them) on one
// thread, and the dispatching entry points on 1 and 2 threads; the AVX2 and
// AVX-512 loops give the portable ones' bits; the rule between the separable
// kernel and oneDNN's (blocked_pool_choice.h); through the executor,
// BlockedPool's AveragePools and MaxPools (one oneDNN declines, one it takes
// on AVX-512 machines) against the NCHW ops. An unknown instruction set is
// refused.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/exec/cpu/blocked_pool_choice.h"
#include "core/exec/cpu/blocked_pool_float.h"
#include "core/exec/cpu/pool_geometry.h"
#include "core/support/cpu_isa.h"
#include "tests/core/exec/exec_test_util.h"
#include "tests/core/exec/pool_reference_case.h"

namespace passlab::exec {
namespace {

using pooltest::Case;
using pooltest::Setup;
using pooltest::setUp;

// NCHW [N, C, H, W] -> [N, ceil(C/b), H, W, b], padding channels `pad`.
std::vector<float> toBlocked(const std::vector<float>& v, const Dims& d, int64_t b, float pad) {
  const int64_t N = d[0], C = d[1], S = d[2] * d[3], G = (C + b - 1) / b;
  std::vector<float> out(static_cast<size_t>(N * G * S * b), pad);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t s = 0; s < S; ++s)
        out[static_cast<size_t>(((n * G + c / b) * S + s) * b + c % b)] =
            v[static_cast<size_t>((n * C + c) * S + s)];
  return out;
}

// Every way of running the blocked kernel: each instruction set on one
// thread (the test hook), the dispatching entry point on 1 and 2 threads.
struct Way {
  std::string name;
  const char* isa;  // null: the entry point
  int threads;
};
std::vector<Way> ways() {
  return {{"portable", "portable", 1},
          {"avx2", "avx2", 1},
          {"avx512", "avx512", 1},
          {"dispatch, 1 thread", nullptr, 1},
          {"dispatch, 2 threads", nullptr, 2}};
}

// Runs the blocked kernel one way; false when the machine lacks the ISA.
bool runBlocked(const Way& w, bool max, const Setup& s, bool includePad, int64_t b,
                std::vector<float>& got) {
  const std::vector<float> xb = toBlocked(s.x, {s.g.N, s.g.C, s.g.in[0], s.g.in[1]}, b, 7.0f);
  const Dims& o = s.g.outDims;
  got.assign(static_cast<size_t>(o[0] * ((o[1] + b - 1) / b) * o[2] * o[3] * b), 12345.0f);
  if (w.isa) return cpu::blockedPoolWithIsa(w.isa, max, s.g, includePad, b, xb.data(), got.data());
  if (max)
    cpu::blockedMaxPool(s.g, b, xb.data(), got.data(), w.threads);
  else
    cpu::blockedAveragePool(s.g, includePad, b, xb.data(), got.data(), w.threads);
  return true;
}

// The channel of element i of the blocked output.
int64_t channelOf(const Setup& s, int64_t b, size_t i) {
  const int64_t G = (s.g.C + b - 1) / b, plane = s.g.out[0] * s.g.out[1] * b;
  return static_cast<int64_t>(i) / plane % G * b + static_cast<int64_t>(i) % b;
}

class BlockedPool : public ::testing::TestWithParam<Case> {};

TEST_P(BlockedPool, MaxEqualsTheReferenceKernel) {
  auto s = setUp(GetParam(), "MaxPool", "");
  ASSERT_TRUE(s);
  for (int64_t b : {8, 16}) {
    const std::vector<float> want = toBlocked(s->want, s->g.outDims, b, 7.0f);
    for (const Way& w : ways()) {
      std::vector<float> got;
      if (!runBlocked(w, true, *s, false, b, got)) continue;
      ASSERT_EQ(got.size(), want.size());
      for (size_t i = 0; i < want.size(); ++i) {
        if (channelOf(*s, b, i) >= s->g.C) continue;  // a padding channel
        ASSERT_EQ(got[i], want[i]) << "element " << i << ", block " << b << ", " << w.name;
      }
    }
  }
}

TEST_P(BlockedPool, AverageAgreesWithTheReferenceKernel) {
  for (bool includePad : {false, true}) {
    SCOPED_TRACE(includePad ? "count_include_pad" : "padding not counted");
    auto s = setUp(GetParam(), "AveragePool",
                   std::string(", count_include_pad = ") + (includePad ? "1" : "0"));
    ASSERT_TRUE(s);
    for (int64_t b : {8, 16}) {
      const std::vector<float> want = toBlocked(s->want, s->g.outDims, b, 0.0f);
      for (const Way& w : ways()) {
        std::vector<float> got;
        if (!runBlocked(w, false, *s, includePad, b, got)) continue;
        ASSERT_EQ(got.size(), want.size());
        for (size_t i = 0; i < want.size(); ++i) {
          if (channelOf(*s, b, i) >= s->g.C) continue;  // a padding channel
          ASSERT_NEAR(got[i], want[i], 1e-4 + 1e-5 * std::fabs(want[i]))
              << "element " << i << ", block " << b << ", " << w.name;
        }
      }
    }
  }
}

// The AVX2 loops (vectors of 8 along the row) and the AVX-512 ones (16) take
// the portable loops' taps in the same order, so they give the same bits,
// averages included.
TEST_P(BlockedPool, VectorPathsGiveThePortableBits) {
  if (!cpu_isa::hasAvx2Fma()) GTEST_SKIP() << "no AVX2 + FMA here";
  for (int pool = 0; pool < 3; ++pool) {
    const bool max = pool == 0, includePad = pool == 2;
    SCOPED_TRACE(max ? "max" : includePad ? "average, count_include_pad" : "average");
    auto s = setUp(GetParam(), max ? "MaxPool" : "AveragePool",
                   max ? "" : std::string(", count_include_pad = ") + (includePad ? "1" : "0"));
    ASSERT_TRUE(s);
    for (int64_t b : {8, 16}) {
      std::vector<float> portable;
      ASSERT_TRUE(runBlocked({"portable", "portable", 1}, max, *s, includePad, b, portable));
      for (const char* isa : {"avx2", "avx512"}) {
        std::vector<float> vec;
        if (!runBlocked({isa, isa, 1}, max, *s, includePad, b, vec)) {
          ASSERT_STREQ(isa, "avx512") << "AVX2 + FMA is here";
          continue;
        }
        ASSERT_EQ(vec.size(), portable.size());
        for (size_t i = 0; i < portable.size(); ++i)
          ASSERT_EQ(std::bit_cast<uint32_t>(vec[i]), std::bit_cast<uint32_t>(portable[i]))
              << isa << ", element " << i << ", block " << b << ": " << vec[i] << " vs "
              << portable[i];
      }
    }
  }
}

const Case kCases[] = {
    {"inception_3x3_s1_pad1", {1, 24, 7, 7}, {3, 3}, {1, 1}, {1, 1}, {1, 1, 1, 1}},
    {"stem_3x3_s2_padded_channels", {1, 12, 16, 17}, {3, 3}, {2, 2}, {1, 1}, {0, 0, 0, 0}},
    {"stride1_odd_width_batch2", {2, 5, 9, 13}, {3, 3}, {1, 1}, {1, 1}, {1, 1, 1, 1}},
    {"ceil_mode_no_pads", {1, 20, 10, 11}, {3, 3}, {2, 2}, {1, 1}, {0, 0, 0, 0}, true},
    {"dilated_ceil", {1, 3, 9, 9}, {2, 2}, {2, 2}, {2, 2}, {0, 0, 0, 0}, true},
    {"dilated_stride1", {1, 17, 12, 15}, {3, 2}, {1, 1}, {2, 3}, {2, 1, 2, 3}},
    {"stride3_asymmetric_pads", {1, 4, 14, 19}, {2, 3}, {3, 3}, {1, 1}, {0, 2, 1, 1}},
    {"window_in_the_padding", {1, 9, 3, 3}, {2, 2}, {1, 1}, {1, 1}, {2, 2, 2, 2}},
    {"global_like_7x7", {1, 32, 7, 7}, {7, 7}, {1, 1}, {1, 1}, {0, 0, 0, 0}},
    {"stem_like_wide_rows", {1, 40, 21, 37}, {3, 3}, {2, 2}, {1, 1}, {0, 1, 1, 1}, true},
    {"vgg_like_2x2_s2", {1, 33, 18, 34}, {2, 2}, {2, 2}, {1, 1}, {0, 0, 0, 0}},
};

INSTANTIATE_TEST_SUITE_P(Geometries, BlockedPool, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.name); });

// The hook runs each path exactly where the machine (as PASSLAB_MAX_ISA caps
// it) has the instruction set.
TEST(BlockedPoolIsa, EachPathRunsWhereTheMachineHasIt) {
  cpu::PoolAttrs a;
  a.window.kernel = {3, 3};
  a.window.strides = {2, 2};
  auto g = cpu::poolGeometry(a, {1, 8, 5, 5});
  ASSERT_TRUE(g);
  std::vector<float> x(8 * 25), y(8 * 4, 0.0f);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  EXPECT_EQ(cpu::blockedPoolWithIsa("avx2", true, *g, false, 8, x.data(), y.data()),
            cpu_isa::hasAvx2Fma());
  EXPECT_EQ(cpu::blockedPoolWithIsa("avx512", true, *g, false, 8, x.data(), y.data()),
            cpu_isa::hasAvx512f());
  ASSERT_TRUE(cpu::blockedPoolWithIsa("portable", true, *g, false, 8, x.data(), y.data()));
  // Output (1, 1), lane 3: the max of input rows 2..4, columns 2..4: x[(4 * 5 + 4) * 8 + 3].
  EXPECT_EQ(y[3 * 8 + 3], static_cast<float>((4 * 5 + 4) * 8 + 3));
}

TEST(BlockedPoolIsa, AnUnknownInstructionSetIsRefused) {
  cpu::PoolAttrs a;
  a.window.kernel = {2, 2};
  auto g = cpu::poolGeometry(a, {1, 16, 4, 4});
  ASSERT_TRUE(g);
  std::vector<float> x(16 * 16, 1.0f), y(16 * 9, 0.0f);
  EXPECT_FALSE(cpu::blockedPoolWithIsa("sse9", true, *g, false, 16, x.data(), y.data()));
  EXPECT_TRUE(cpu::blockedPoolWithIsa("portable", true, *g, false, 16, x.data(), y.data()));
  EXPECT_EQ(y[0], 1.0f);
}

// The rule between the separable kernel and oneDNN's max pooling
// (blocked_pool_choice.h), as a pure function of the geometry and the ISA.
cpu::PoolGeometry maxPoolGeometry(int64_t k, int64_t stride, int64_t h, int64_t w) {
  cpu::PoolAttrs a;
  a.window.kernel = {k, k};
  a.window.strides = {stride, stride};
  auto g = cpu::poolGeometry(a, {1, 64, h, w});
  EXPECT_TRUE(g);
  return g ? *g : cpu::PoolGeometry{};
}

TEST(BlockedPoolChoice, BelowAvx2OneDnnAlwaysAndOnAvx2TheSeparableKernelAlways) {
  const cpu::PoolIsaFlags sse{false, false}, avx2{true, false};
  for (const auto& g : {maxPoolGeometry(3, 2, 112, 112), maxPoolGeometry(2, 2, 224, 224),
                        maxPoolGeometry(3, 1, 7, 7)}) {
    EXPECT_FALSE(cpu::separableMaxPoolIsFaster(g, sse));
    EXPECT_TRUE(cpu::separableMaxPoolIsFaster(g, avx2));
  }
}

TEST(BlockedPoolChoice, WithAvx512OverlappingWindowsOrShortRowsTakeTheSeparableKernel) {
  const cpu::PoolIsaFlags avx512{true, true};
  // Overlapping windows (kernel > stride), however long the rows.
  EXPECT_TRUE(cpu::separableMaxPoolIsFaster(maxPoolGeometry(3, 2, 112, 112), avx512));
  EXPECT_TRUE(cpu::separableMaxPoolIsFaster(maxPoolGeometry(3, 1, 56, 56), avx512));
  EXPECT_TRUE(cpu::separableMaxPoolIsFaster(maxPoolGeometry(2, 1, 64, 64), avx512));
  // Windows that share no input: oneDNN from 16 outputs a row.
  EXPECT_TRUE(cpu::separableMaxPoolIsFaster(maxPoolGeometry(2, 2, 28, 28), avx512));   // 14
  EXPECT_TRUE(cpu::separableMaxPoolIsFaster(maxPoolGeometry(2, 2, 64, 31), avx512));   // 15
  EXPECT_FALSE(cpu::separableMaxPoolIsFaster(maxPoolGeometry(2, 2, 8, 32), avx512));   // 16
  EXPECT_FALSE(cpu::separableMaxPoolIsFaster(maxPoolGeometry(2, 2, 56, 56), avx512));  // 28
  EXPECT_FALSE(cpu::separableMaxPoolIsFaster(maxPoolGeometry(2, 2, 224, 224), avx512));
  EXPECT_FALSE(cpu::separableMaxPoolIsFaster(maxPoolGeometry(3, 3, 60, 60), avx512));  // 20
}

TEST(BlockedPoolChoice, OnlyTwoSpatialDimsTakeTheSeparableKernel) {
  cpu::PoolAttrs a;
  a.window.kernel = {3};
  a.window.strides = {1};
  auto g = cpu::poolGeometry(a, {1, 16, 20});
  ASSERT_TRUE(g);
  EXPECT_FALSE(cpu::separableMaxPoolIsFaster(*g, {true, false}));
  EXPECT_FALSE(cpu::separableMaxPoolIsFaster(*g, {true, true}));
}

// Through the executor: BlockedPool on the kernels it picks (a MaxPool
// oneDNN declines, whose right pad would be negative; a padded 3x3 one, the
// separable kernel on AVX2 and AVX-512 machines; a 2x2/2 one with rows of
// 20 outputs, oneDNN's with AVX-512; AveragePools) equals the NCHW pools on
// the reference kernels, padding channels included.
TEST(BlockedPoolKernel, PoolsOneDnnDeclinesAndAveragesEqualTheNchwOps) {
  struct Pool {
    const char* op;
    const char* attrs;
    int64_t in, out;
  };
  const Pool pools[] = {
      {"MaxPool", "kernel_shape = [3, 3], strides = [2, 2]", 14, 6},
      {"MaxPool", "kernel_shape = [3, 3], strides = [2, 2], pads = [0, 0, 1, 1]", 14, 7},
      {"MaxPool", "kernel_shape = [2, 2], strides = [2, 2]", 40, 20},
      {"AveragePool", "kernel_shape = [3, 3], pads = [1, 1, 1, 1]", 14, 14},
      {"AveragePool", "kernel_shape = [3, 3], pads = [1, 1, 1, 1], count_include_pad = 1", 14, 14},
  };
  for (const Pool& p : pools) {
    SCOPED_TRACE(std::string(p.op) + " " + p.attrs);
    const std::vector<int64_t> xd{2, 20, p.in, p.in};
    std::vector<float> xv(static_cast<size_t>(2 * 20 * p.in * p.in));
    for (size_t i = 0; i < xv.size(); ++i)
      xv[i] = static_cast<float>((static_cast<int64_t>(i) * 7919) % 1009) - 504.5f;
    const std::string in = std::to_string(p.in), out = std::to_string(p.out);
    const std::string head =
        "<ir_version: 9, opset_import: [\"\" : 19, \"ai.passlab\" : 1]>\nmain (float[2, 20, " + in +
        ", " + in + "] x) => (float[2, 20, " + out + ", " + out + "] y) {\n";
    const std::string plain = head + " y = " + p.op + " <" + p.attrs + "> (x) }";
    const std::string blocked =
        head +
        " xb = ai.passlab.ReorderToBlocked <block = 16> (x)\n yb = ai.passlab.BlockedPool <pool = "
        "\"" +
        p.op + "\", " + p.attrs +
        ", block = 16> (xb)\n y = ai.passlab.ReorderFromBlocked <block = 16, channels = 20> (yb) }";
    ExecutorOptions ref;
    ref.referenceKernels = true;
    auto want = testutil::runText(plain, {{"x", testutil::floats(xd, xv)}}, ref);
    auto got = testutil::runText(blocked, {{"x", testutil::floats(xd, xv)}});
    ASSERT_EQ(want.outputs.size(), 1u);
    ASSERT_EQ(got.outputs.size(), 1u);
    const auto w = testutil::toFloats(want.outputs[0]), g = testutil::toFloats(got.outputs[0]);
    ASSERT_EQ(g.size(), w.size());
    for (size_t i = 0; i < w.size(); ++i)
      ASSERT_NEAR(g[i], w[i], 1e-4 + 1e-5 * std::fabs(w[i])) << "element " << i;
  }
}

}  // namespace
}  // namespace passlab::exec
