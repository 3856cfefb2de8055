// 1-D convolutions of one input channel with long filters
// (core/exec/cpu/conv_one_channel_1d.h): the direct loop against a
// double-precision sum over filter lengths around its 16-tap vectors and
// output counts around its 8 windows (on AVX-512, and on AVX2 in the
// isa_avx2_kernels ctest), two threads equal to one; which
// convolutions take it; and whole Conv nodes (silero_vad's STFT among them)
// against the reference kernel, on whichever path this CPU (as capped) takes.
#include "core/exec/cpu/conv_one_channel_1d.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "tests/core/exec/exec_test_util.h"

namespace passlab::exec {
namespace {

using cpu::ConvOneChannel1dShape;
using testutil::pattern;

// The direct loop runs here (on AVX-512, or AVX2 under PASSLAB_MAX_ISA=avx2).
bool vectorIsa() {
  return cpu_isa::hasAvx512f() || cpu_isa::hasAvx2Fma();
}

TEST(ConvOneChannel1d, MatchesADoubleSum) {
  if (!vectorIsa()) GTEST_SKIP() << "the direct loop needs AVX-512 or AVX2";
  for (int64_t kernel : {64, 65, 79, 80, 256})
    for (int64_t stride : {1, 3, 64})
      for (int64_t out : {1, 7, 8, 9, 17}) {
        const int64_t in = (out - 1) * stride + kernel + (stride > 1 ? stride - 1 : 0);
        const ConvOneChannel1dShape s{2, 5, in, out, kernel, stride};
        auto x = pattern(static_cast<size_t>(2 * in), 1 + static_cast<uint32_t>(kernel));
        auto w = pattern(static_cast<size_t>(5 * kernel), 2 + static_cast<uint32_t>(out));
        auto b = pattern(5, 3);
        for (bool withBias : {false, true}) {
          std::vector<float> y(static_cast<size_t>(2 * 5 * out), -99.0f);
          cpu::convOneChannel1d(s, x.data(), w.data(), withBias ? b.data() : nullptr, y.data(), 1);
          for (int64_t n = 0; n < 2; ++n)
            for (int64_t m = 0; m < 5; ++m)
              for (int64_t o = 0; o < out; ++o) {
                double want = withBias ? b[m] : 0.0, scale = 1.0;
                for (int64_t k = 0; k < kernel; ++k) {
                  const double t = double(w[m * kernel + k]) * double(x[n * in + o * stride + k]);
                  want += t;
                  scale += std::fabs(t);
                }
                ASSERT_NEAR(y[(n * 5 + m) * out + o], want, 1e-6 * scale)
                    << "kernel " << kernel << " stride " << stride << " out " << out << " image "
                    << n << " filter " << m << " output " << o;
              }
        }
      }
}

TEST(ConvOneChannel1d, TwoThreadsEqualOne) {
  if (!vectorIsa()) GTEST_SKIP() << "the direct loop needs AVX-512 or AVX2";
  const ConvOneChannel1dShape s{1, 258, 640, 7, 256, 64};
  auto x = pattern(640, 4), w = pattern(258 * 256, 5), b = pattern(258, 6);
  std::vector<float> one(258 * 7), two(258 * 7);
  cpu::convOneChannel1d(s, x.data(), w.data(), b.data(), one.data(), 1);
  cpu::convOneChannel1d(s, x.data(), w.data(), b.data(), two.data(), 2);
  EXPECT_EQ(one, two);
}

cpu::ConvGeometry geometry(int64_t C, int64_t group, int64_t kernel, int64_t dilation, int64_t pad,
                           size_t spatial = 1) {
  cpu::ConvGeometry g;
  g.N = 1;
  g.C = C;
  g.M = 258;
  g.group = group;
  g.in = Dims(spatial, 640);
  g.kernel = Dims(spatial, kernel);
  g.stride = Dims(spatial, 64);
  g.dilation = Dims(spatial, dilation);
  g.padBegin = Dims(spatial, pad);
  g.padEnd = Dims(spatial, pad);
  g.out = Dims(spatial, 7);
  return g;
}

TEST(ConvOneChannel1d, WhichConvolutionsTakeIt) {
  EXPECT_TRUE(cpu::runsAsOneChannel1d(geometry(1, 1, 256, 1, 0), true));  // silero_vad's STFT
  EXPECT_TRUE(cpu::runsAsOneChannel1d(geometry(1, 1, 64, 1, 0), true));
  EXPECT_FALSE(cpu::runsAsOneChannel1d(geometry(1, 1, 256, 1, 0), false));    // no AVX2
  EXPECT_FALSE(cpu::runsAsOneChannel1d(geometry(1, 1, 63, 1, 0), true));      // short filter
  EXPECT_FALSE(cpu::runsAsOneChannel1d(geometry(2, 1, 256, 1, 0), true));     // two channels
  EXPECT_FALSE(cpu::runsAsOneChannel1d(geometry(2, 2, 256, 1, 0), true));     // grouped
  EXPECT_FALSE(cpu::runsAsOneChannel1d(geometry(1, 1, 256, 2, 0), true));     // dilated
  EXPECT_FALSE(cpu::runsAsOneChannel1d(geometry(1, 1, 256, 1, 1), true));     // padded
  EXPECT_FALSE(cpu::runsAsOneChannel1d(geometry(1, 1, 256, 1, 0, 2), true));  // 2-D
}

// Conv nodes against the reference kernel.
TEST(ConvOneChannel1d, ConvNodesMatchTheReferenceKernel) {
  struct Case {
    int64_t N, M, in, k, stride;
    bool bias;
  };
  for (const Case& c : {Case{1, 258, 640, 256, 64, false}, Case{2, 17, 300, 100, 7, true},
                        Case{1, 3, 64, 64, 1, true}, Case{1, 40, 1000, 70, 1, false}}) {
    const int64_t out = (c.in - c.k) / c.stride + 1;
    auto d3 = [](int64_t a, int64_t b, int64_t l) {
      return "[" + std::to_string(a) + "," + std::to_string(b) + "," + std::to_string(l) + "]";
    };
    const std::string text =
        "<ir_version: 8, opset_import: [\"\" : 14]>\nmain (float" + d3(c.N, 1, c.in) + " x, float" +
        d3(c.M, 1, c.k) + " w" + (c.bias ? ", float[" + std::to_string(c.M) + "] b" : "") +
        ") => (float" + d3(c.N, c.M, out) + " y) {\n  y = Conv <kernel_shape = [" +
        std::to_string(c.k) + "], strides = [" + std::to_string(c.stride) +
        "], pads = [0, 0]> (x, w" + (c.bias ? ", b" : "") + ")\n}";
    NamedInputs in = {
        {"x", testutil::floats({c.N, 1, c.in}, pattern(static_cast<size_t>(c.N * c.in), 7))},
        {"w", testutil::floats({c.M, 1, c.k}, pattern(static_cast<size_t>(c.M * c.k), 8))}};
    if (c.bias) in.emplace_back("b", testutil::floats({c.M}, pattern(static_cast<size_t>(c.M), 9)));
    RunOptions profiled;
    profiled.profile = true;
    RunResult got = testutil::runText(text, in, ExecutorOptions{}, profiled);
    ExecutorOptions reference;
    reference.referenceKernels = true;
    RunResult want = testutil::runText(text, in, reference);
    ASSERT_EQ(got.outputs.size(), 1u) << text;
    ASSERT_EQ(want.outputs.size(), 1u) << text;
    ASSERT_EQ(got.outputs[0].dims(), want.outputs[0].dims()) << text;
    ASSERT_EQ(got.profile.size(), 1u);
    EXPECT_EQ(got.profile[0].kernel, "onednn.Conv");
    auto g = testutil::toFloats(got.outputs[0]), r = testutil::toFloats(want.outputs[0]);
    for (size_t i = 0; i < g.size(); ++i)
      ASSERT_NEAR(g[i], r[i], 1e-4f * (1.0f + std::fabs(r[i]))) << text << "\nelement " << i;
  }
}

}  // namespace
}  // namespace passlab::exec
