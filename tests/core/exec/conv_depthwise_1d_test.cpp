// Depthwise 1-D convolutions (core/exec/cpu/conv_depthwise_1d.h): the direct
// loop against a double-precision sum over shapes around its edges (taps
// outside the row, strides, dilations, rows shorter than the kernel), two
// threads equal to one; which convolutions take it; and whole Conv nodes on
// it against the reference kernel.
#include "core/exec/cpu/conv_depthwise_1d.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "tests/core/exec/exec_test_util.h"

namespace passlab::exec {
namespace {

using cpu::ConvDepthwise1dShape;

using testutil::pattern;

int64_t outLength(int64_t in, int64_t k, int64_t stride, int64_t dilation, int64_t pb, int64_t pe) {
  return (in + pb + pe - (k - 1) * dilation - 1) / stride + 1;
}

TEST(ConvDepthwise1d, MatchesADoubleSum) {
  for (int64_t in : {1, 2, 5, 8, 33})
    for (int64_t k : {1, 3, 5, 7})
      for (int64_t stride : {1, 2, 3})
        for (int64_t dilation : {1, 2})
          for (int64_t pad : {0, 1, 2, 4}) {
            const int64_t pe = pad == 4 ? 1 : pad;  // one asymmetric case
            const int64_t out = outLength(in, k, stride, dilation, pad, pe);
            if (out < 1) continue;
            const ConvDepthwise1dShape s{2, 3, in, out, k, stride, dilation, pad};
            auto x = pattern(static_cast<size_t>(2 * 3 * in), 1 + static_cast<uint32_t>(in));
            auto w = pattern(static_cast<size_t>(3 * k), 2 + static_cast<uint32_t>(k));
            auto b = pattern(3, 3);
            for (bool withBias : {false, true}) {
              std::vector<float> y(static_cast<size_t>(2 * 3 * out), -99.0f);
              cpu::convDepthwise1d(s, x.data(), w.data(), withBias ? b.data() : nullptr, y.data(),
                                   1);
              for (int64_t r = 0; r < 2 * 3; ++r)
                for (int64_t o = 0; o < out; ++o) {
                  const int64_t c = r % 3;
                  double want = withBias ? b[c] : 0.0;
                  for (int64_t t = 0; t < k; ++t) {
                    const int64_t i = o * stride + t * dilation - pad;
                    if (i >= 0 && i < in) want += double(w[c * k + t]) * double(x[r * in + i]);
                  }
                  ASSERT_NEAR(y[r * out + o], want, 1e-5)
                      << "in " << in << " k " << k << " stride " << stride << " dilation "
                      << dilation << " pads " << pad << "," << pe << " row " << r << " out " << o;
                }
            }
          }
}

TEST(ConvDepthwise1d, TwoThreadsEqualOne) {
  const ConvDepthwise1dShape s{1, 258, 8, 8, 5, 1, 1, 2};
  auto x = pattern(258 * 8, 4), w = pattern(258 * 5, 5), b = pattern(258, 6);
  std::vector<float> one(258 * 8), two(258 * 8);
  cpu::convDepthwise1d(s, x.data(), w.data(), b.data(), one.data(), 1);
  cpu::convDepthwise1d(s, x.data(), w.data(), b.data(), two.data(), 2);
  EXPECT_EQ(one, two);
}

cpu::ConvGeometry geometry(int64_t C, int64_t M, int64_t group, size_t spatial) {
  cpu::ConvGeometry g;
  g.N = 1;
  g.C = C;
  g.M = M;
  g.group = group;
  g.in = Dims(spatial, 8);
  return g;
}

TEST(ConvDepthwise1d, WhichConvolutionsTakeIt) {
  EXPECT_TRUE(cpu::runsAsDepthwise1d(geometry(258, 258, 258, 1)));
  EXPECT_TRUE(cpu::runsAsDepthwise1d(geometry(16, 16, 16, 1)));
  EXPECT_FALSE(cpu::runsAsDepthwise1d(geometry(16, 16, 16, 2)));  // 2-D
  EXPECT_FALSE(cpu::runsAsDepthwise1d(geometry(16, 32, 16, 1)));  // two filters per channel
  EXPECT_FALSE(cpu::runsAsDepthwise1d(geometry(16, 16, 8, 1)));   // two channels per group
  EXPECT_FALSE(cpu::runsAsDepthwise1d(geometry(16, 16, 1, 1)));   // not grouped
  EXPECT_FALSE(cpu::runsAsDepthwise1d(geometry(1, 1, 1, 1)));     // one channel
}

// Conv nodes (silero_vad's shapes and strided, dilated, asymmetric ones)
// against the reference kernel.
TEST(ConvDepthwise1d, ConvNodesMatchTheReferenceKernel) {
  struct Case {
    int64_t N, C, in, k, stride, dilation, pb, pe;
    bool bias;
  };
  for (const Case& c : {Case{1, 258, 8, 5, 1, 1, 2, 2, true}, Case{1, 32, 2, 5, 1, 1, 2, 2, true},
                        Case{2, 24, 40, 3, 2, 1, 1, 0, false}, Case{1, 16, 30, 5, 3, 2, 4, 1, true},
                        Case{3, 8, 3, 7, 1, 1, 3, 3, true}}) {
    const int64_t out = outLength(c.in, c.k, c.stride, c.dilation, c.pb, c.pe);
    auto d3 = [](int64_t a, int64_t b, int64_t l) {
      return "[" + std::to_string(a) + "," + std::to_string(b) + "," + std::to_string(l) + "]";
    };
    const std::string text =
        "<ir_version: 8, opset_import: [\"\" : 14]>\nmain (float" + d3(c.N, c.C, c.in) +
        " x, float" + d3(c.C, 1, c.k) + " w" +
        (c.bias ? ", float[" + std::to_string(c.C) + "] b" : "") + ") => (float" +
        d3(c.N, c.C, out) + " y) {\n  y = Conv <group = " + std::to_string(c.C) +
        ", kernel_shape = [" + std::to_string(c.k) + "], strides = [" + std::to_string(c.stride) +
        "], dilations = [" + std::to_string(c.dilation) + "], pads = [" + std::to_string(c.pb) +
        ", " + std::to_string(c.pe) + "]> (x, w" + (c.bias ? ", b" : "") + ")\n}";
    NamedInputs in = {
        {"x",
         testutil::floats({c.N, c.C, c.in}, pattern(static_cast<size_t>(c.N * c.C * c.in), 7))},
        {"w", testutil::floats({c.C, 1, c.k}, pattern(static_cast<size_t>(c.C * c.k), 8))}};
    if (c.bias) in.emplace_back("b", testutil::floats({c.C}, pattern(static_cast<size_t>(c.C), 9)));
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
      ASSERT_NEAR(g[i], r[i], 1e-5f * (1.0f + std::fabs(r[i]))) << text << "\nelement " << i;
  }
}

}  // namespace
}  // namespace passlab::exec
