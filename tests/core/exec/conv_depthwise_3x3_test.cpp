// Depthwise 3x3 convolutions on NCHW (core/exec/cpu/conv_depthwise_3x3.h):
// the direct loop against a double-precision sum over shapes around its
// edges (1x1 planes, odd sizes, rows shorter and longer than a vector,
// strides 1 and 2 per axis, pads 0 and 1 per side, with and without a bias);
// the per-plane epilogue; two threads equal to one; which convolutions take
// it; and whole Conv and FusedConv nodes (activations, a residual) on it
// against the reference kernels. The isa_avx2 / isa_sse2 ctests run these
// again on the portable loop (PASSLAB_MAX_ISA).
#include "core/exec/cpu/conv_depthwise_3x3.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/support/cpu_isa.h"
#include "tests/core/exec/exec_test_util.h"

namespace passlab::exec {
namespace {

using cpu::ConvDepthwise3x3Shape;
using testutil::pattern;

int64_t outLength(int64_t in, int64_t stride, int64_t pb, int64_t pe) {
  return (in + pb + pe - 3) / stride + 1;
}

// y of shape s by a double sum (taps outside the plane are zeros).
std::vector<double> doubleSum(const ConvDepthwise3x3Shape& s, const std::vector<float>& x,
                              const std::vector<float>& w, const float* b) {
  std::vector<double> y(static_cast<size_t>(s.N * s.C * s.OH * s.OW));
  for (int64_t p = 0; p < s.N * s.C; ++p) {
    const int64_t c = p % s.C;
    for (int64_t i = 0; i < s.OH; ++i)
      for (int64_t j = 0; j < s.OW; ++j) {
        double v = b ? b[c] : 0.0;
        for (int64_t kh = 0; kh < 3; ++kh)
          for (int64_t kw = 0; kw < 3; ++kw) {
            const int64_t ih = i * s.strideH + kh - s.padTop, iw = j * s.strideW + kw - s.padLeft;
            if (ih >= 0 && ih < s.H && iw >= 0 && iw < s.W)
              v += double(w[c * 9 + kh * 3 + kw]) * double(x[(p * s.H + ih) * s.W + iw]);
          }
        y[(p * s.OH + i) * s.OW + j] = v;
      }
  }
  return y;
}

TEST(ConvDepthwise3x3, MatchesADoubleSum) {
  int cases = 0;
  for (int64_t h : {1, 2, 3, 7, 28})
    for (int64_t wd : {1, 2, 5, 15, 16, 17, 33, 40})
      for (int64_t sh : {1, 2})
        for (int64_t sw : {1, 2})
          for (int pads = 0; pads < 16; pads += 5) {  // top, left, bottom, right bits
            const int64_t pt = pads & 1, pl = (pads >> 1) & 1, pb = (pads >> 2) & 1,
                          pr = (pads >> 3) & 1;
            const int64_t oh = outLength(h, sh, pt, pb), ow = outLength(wd, sw, pl, pr);
            if (oh < 1 || ow < 1) continue;
            const ConvDepthwise3x3Shape s{2, 3, h, wd, oh, ow, sh, sw, pt, pl};
            auto x = pattern(static_cast<size_t>(2 * 3 * h * wd), 1 + static_cast<uint32_t>(wd));
            auto w = pattern(27, 2 + static_cast<uint32_t>(h));
            auto b = pattern(3, 3);
            for (bool withBias : {false, true}) {
              std::vector<float> y(static_cast<size_t>(2 * 3 * oh * ow), -99.0f);
              cpu::convDepthwise3x3(s, x.data(), w.data(), withBias ? b.data() : nullptr, y.data(),
                                    1);
              const std::vector<double> want = doubleSum(s, x, w, withBias ? b.data() : nullptr);
              ++cases;
              for (size_t k = 0; k < y.size(); ++k)
                ASSERT_NEAR(y[k], want[k], 1e-5 * (1.0 + std::fabs(want[k])))
                    << h << "x" << wd << " strides " << sh << "," << sw << " pads " << pt << pl
                    << pb << pr << " bias " << withBias << " element " << k;
            }
          }
  EXPECT_GT(cases, 200);
}

// Nothing is read outside X: NaNs around the tensor never reach Y.
TEST(ConvDepthwise3x3, ReadsNothingOutsideX) {
  for (int64_t sw : {1, 2}) {
    const int64_t h = 5, wd = 17, ow = outLength(wd, sw, 1, 1);
    const ConvDepthwise3x3Shape s{1, 2, h, wd, h, ow, 1, sw, 1, 1};
    std::vector<float> guarded(static_cast<size_t>(2 * h * wd + 64), NAN);
    auto x = pattern(static_cast<size_t>(2 * h * wd), 5);
    std::copy(x.begin(), x.end(), guarded.begin() + 32);
    auto w = pattern(18, 6);
    std::vector<float> y(static_cast<size_t>(2 * h * ow));
    cpu::convDepthwise3x3(s, guarded.data() + 32, w.data(), nullptr, y.data(), 1);
    const std::vector<double> want = doubleSum(s, x, w, nullptr);
    for (size_t k = 0; k < y.size(); ++k) ASSERT_NEAR(y[k], want[k], 1e-5) << sw << " " << k;
  }
}

TEST(ConvDepthwise3x3, EpilogueSeesEachPlaneOnceAfterItIsWritten) {
  const ConvDepthwise3x3Shape s{2, 5, 6, 6, 6, 6, 1, 1, 1, 1};
  auto x = pattern(2 * 5 * 36, 7), w = pattern(45, 8), b = pattern(5, 9);
  std::vector<float> plain(2 * 5 * 36), hooked(2 * 5 * 36);
  cpu::convDepthwise3x3(s, x.data(), w.data(), b.data(), plain.data(), 1);
  std::vector<int> seen(10, 0);
  cpu::convDepthwise3x3(s, x.data(), w.data(), b.data(), hooked.data(), 2,
                        [&](int64_t p, float* y) {
                          ++seen[static_cast<size_t>(p)];
                          EXPECT_EQ(y, hooked.data() + p * 36);
                          for (int k = 0; k < 36; ++k) y[k] = y[k] * 2.0f + 1.0f;
                        });
  for (int n : seen) EXPECT_EQ(n, 1);
  for (size_t k = 0; k < plain.size(); ++k) ASSERT_EQ(hooked[k], plain[k] * 2.0f + 1.0f) << k;
}

TEST(ConvDepthwise3x3, TwoThreadsEqualOne) {
  const ConvDepthwise3x3Shape s{1, 136, 28, 28, 28, 28, 1, 1, 1, 1};
  auto x = pattern(136 * 784, 4), w = pattern(136 * 9, 5), b = pattern(136, 6);
  std::vector<float> one(136 * 784), two(136 * 784);
  cpu::convDepthwise3x3(s, x.data(), w.data(), b.data(), one.data(), 1);
  cpu::convDepthwise3x3(s, x.data(), w.data(), b.data(), two.data(), 2);
  EXPECT_EQ(one, two);
}

cpu::ConvGeometry geometry(int64_t C, int64_t M, int64_t group) {
  cpu::ConvGeometry g;
  g.N = 1;
  g.C = C;
  g.M = M;
  g.group = group;
  g.in = {8, 8};
  g.kernel = {3, 3};
  g.stride = {1, 1};
  g.dilation = {1, 1};
  g.padBegin = {1, 1};
  g.padEnd = {1, 1};
  g.out = {8, 8};
  return g;
}

TEST(ConvDepthwise3x3, WhichConvolutionsTakeIt) {
  EXPECT_TRUE(cpu::runsAsDepthwise3x3(geometry(136, 136, 136)));
  EXPECT_TRUE(cpu::runsAsDepthwise3x3(geometry(3, 3, 3)));
  auto with = [](auto edit) {
    cpu::ConvGeometry g = geometry(16, 16, 16);
    edit(g);
    return cpu::runsAsDepthwise3x3(g);
  };
  EXPECT_TRUE(with([](cpu::ConvGeometry& g) { g.stride = {2, 1}; }));
  EXPECT_TRUE(with([](cpu::ConvGeometry& g) { g.padBegin = {0, 0}; }));
  EXPECT_FALSE(with([](cpu::ConvGeometry& g) { g.stride = {3, 3}; }));
  EXPECT_FALSE(with([](cpu::ConvGeometry& g) { g.dilation = {2, 2}; }));
  EXPECT_FALSE(with([](cpu::ConvGeometry& g) { g.padEnd = {2, 1}; }));
  EXPECT_FALSE(with([](cpu::ConvGeometry& g) { g.kernel = {5, 5}; }));
  EXPECT_FALSE(with([](cpu::ConvGeometry& g) { g.kernel = {3, 1}; }));
  EXPECT_FALSE(cpu::runsAsDepthwise3x3(geometry(16, 32, 16)));  // two filters per channel
  EXPECT_FALSE(cpu::runsAsDepthwise3x3(geometry(16, 16, 8)));   // two channels per group
  EXPECT_FALSE(cpu::runsAsDepthwise3x3(geometry(16, 16, 1)));   // not grouped
  cpu::ConvGeometry oneD = geometry(16, 16, 16);
  oneD.in = {8};
  oneD.kernel = {3};
  oneD.stride = {1};
  oneD.dilation = {1};
  oneD.padBegin = {1};
  oneD.padEnd = {1};
  oneD.out = {8};
  EXPECT_FALSE(cpu::runsAsDepthwise3x3(oneD));
}

// The measured rule (1 thread, docs/exec-benchmark.md session 27): the direct
// kernel for output rows of 14 or more with stride 2 on both axes or channels
// not a multiple of 16; oneDNN's jit_dw for the rest.
cpu::ConvGeometry depthwisePlane(int64_t c, int64_t size, int64_t s) {
  cpu::ConvGeometry g = geometry(c, c, c);
  g.in = {size, size};
  g.stride = {s, s};
  g.out = {(size - 1) / s + 1, (size - 1) / s + 1};
  return g;
}

// The AVX-512 loop's rule (the isa_avx2 / isa_sse2 ctests: the next test).
TEST(ConvDepthwise3x3, PrefersItWhereItMeasuredFaster) {
  if (!cpu_isa::hasAvx512f()) GTEST_SKIP() << "the rule of the AVX-512 loop";
  auto plane = depthwisePlane;
  // shufflenet's nChw8c planes and the stride-2 ones with 14 or more outputs a row
  EXPECT_TRUE(cpu::prefersDepthwise3x3(plane(136, 28, 1)));
  EXPECT_TRUE(cpu::prefersDepthwise3x3(plane(248, 14, 1)));
  EXPECT_TRUE(cpu::prefersDepthwise3x3(plane(136, 28, 2)));
  EXPECT_TRUE(cpu::prefersDepthwise3x3(plane(112, 56, 2)));
  EXPECT_TRUE(cpu::prefersDepthwise3x3(plane(256, 28, 2)));
  // whole 16-channel blocks at stride 1: oneDNN
  EXPECT_FALSE(cpu::prefersDepthwise3x3(plane(32, 112, 1)));
  EXPECT_FALSE(cpu::prefersDepthwise3x3(plane(128, 56, 1)));
  EXPECT_FALSE(cpu::prefersDepthwise3x3(plane(256, 28, 1)));
  EXPECT_FALSE(cpu::prefersDepthwise3x3(plane(272, 14, 1)));
  // rows of fewer than 14 outputs: oneDNN, whatever the channels
  EXPECT_FALSE(cpu::prefersDepthwise3x3(plane(544, 7, 1)));
  EXPECT_FALSE(cpu::prefersDepthwise3x3(plane(136, 13, 1)));
  EXPECT_FALSE(cpu::prefersDepthwise3x3(plane(272, 14, 2)));
  EXPECT_FALSE(cpu::prefersDepthwise3x3(plane(136, 8, 1)));
  // stride 2 on one axis only: the channel rule
  cpu::ConvGeometry mixed = plane(256, 28, 1);
  mixed.stride = {2, 1};
  mixed.out = {14, 28};
  EXPECT_FALSE(cpu::prefersDepthwise3x3(mixed));
  // never where it cannot run
  cpu::ConvGeometry five = plane(136, 28, 1);
  five.kernel = {5, 5};
  EXPECT_FALSE(cpu::prefersDepthwise3x3(five));
  EXPECT_FALSE(cpu::prefersDepthwise3x3(geometry(136, 272, 136)));
}

// Without AVX-512 (a CPU without it, or PASSLAB_MAX_ISA capped below it) the
// loop is the portable one and oneDNN's jit_dw takes every shape, those the
// AVX-512 rule gives the loop included (shufflenet's: 3-5x faster there,
// docs/exec-benchmark.md session 31).
TEST(ConvDepthwise3x3, WithoutAvx512OneDnnTakesEveryShape) {
  if (cpu_isa::hasAvx512f()) GTEST_SKIP() << "this CPU (and the cap) run the AVX-512 loop";
  for (const cpu::ConvGeometry& g :
       {depthwisePlane(136, 28, 1), depthwisePlane(248, 14, 1), depthwisePlane(136, 28, 2),
        depthwisePlane(112, 56, 2), depthwisePlane(256, 28, 2)}) {
    EXPECT_TRUE(cpu::runsAsDepthwise3x3(g)) << g.C << " channels";
    EXPECT_FALSE(cpu::prefersDepthwise3x3(g)) << g.C << " channels";
  }
}

std::string d4(int64_t a, int64_t b, int64_t c, int64_t d) {
  return "[" + std::to_string(a) + "," + std::to_string(b) + "," + std::to_string(c) + "," +
         std::to_string(d) + "]";
}

struct NodeCase {
  int64_t N, C, H, W, sh, sw, pt, pl, pb, pr;
  bool bias;
  std::string activation;  // FusedConv's; empty: a Conv node
  bool residual;
};

// Conv and FusedConv nodes against the reference kernels; the profile names
// the kernel that ran.
TEST(ConvDepthwise3x3, NodesMatchTheReferenceKernels) {
  // Output rows of 14 or more and channels not a multiple of 16 (or stride
  // 2): shapes that prefersDepthwise3x3 sends to the direct kernel.
  for (const NodeCase& c : {NodeCase{1, 136, 28, 28, 1, 1, 1, 1, 1, 1, true, "", false},
                            NodeCase{2, 24, 15, 27, 2, 2, 1, 1, 1, 1, false, "", false},
                            NodeCase{1, 8, 7, 15, 2, 1, 0, 1, 1, 0, true, "", false},
                            NodeCase{1, 24, 1, 14, 1, 1, 1, 1, 1, 1, true, "Relu", false},
                            NodeCase{1, 40, 14, 14, 1, 1, 1, 1, 1, 1, true, "Relu", true},
                            NodeCase{1, 32, 11, 27, 2, 2, 1, 1, 1, 1, false, "HardSwish", false},
                            NodeCase{2, 12, 9, 28, 1, 2, 1, 0, 1, 1, true, "Sigmoid", true},
                            NodeCase{1, 8, 6, 14, 1, 1, 1, 1, 1, 1, true, "", true}}) {
    const int64_t oh = outLength(c.H, c.sh, c.pt, c.pb), ow = outLength(c.W, c.sw, c.pl, c.pr);
    const bool fused = !c.activation.empty() || c.residual;
    const std::string attrs =
        "group = " + std::to_string(c.C) + ", kernel_shape = [3, 3], " + "strides = [" +
        std::to_string(c.sh) + ", " + std::to_string(c.sw) + "], pads = [" + std::to_string(c.pt) +
        ", " + std::to_string(c.pl) + ", " + std::to_string(c.pb) + ", " + std::to_string(c.pr) +
        "]" + (c.activation.empty() ? "" : ", activation = \"" + c.activation + "\"");
    const std::string text =
        "<ir_version: 8, opset_import: [\"\" : 14, \"ai.passlab\" : 1]>\nmain (float" +
        d4(c.N, c.C, c.H, c.W) + " x, float" + d4(c.C, 1, 3, 3) + " w" +
        (c.bias ? ", float[" + std::to_string(c.C) + "] b" : "") +
        (c.residual ? ", float" + d4(c.N, c.C, oh, ow) + " z" : "") + ") => (float" +
        d4(c.N, c.C, oh, ow) + " y) {\n  y = " + (fused ? "ai.passlab.FusedConv" : "Conv") + " <" +
        attrs + "> (x, w" + (c.bias ? ", b" : (c.residual ? ", " : "")) +
        (c.residual ? ", z" : "") + ")\n}";
    NamedInputs in = {
        {"x", testutil::floats({c.N, c.C, c.H, c.W},
                               pattern(static_cast<size_t>(c.N * c.C * c.H * c.W), 7))},
        {"w", testutil::floats({c.C, 1, 3, 3}, pattern(static_cast<size_t>(c.C * 9), 8))}};
    if (c.bias) in.emplace_back("b", testutil::floats({c.C}, pattern(static_cast<size_t>(c.C), 9)));
    if (c.residual)
      in.emplace_back("z", testutil::floats({c.N, c.C, oh, ow},
                                            pattern(static_cast<size_t>(c.N * c.C * oh * ow), 10)));
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
    EXPECT_EQ(got.profile[0].kernel, fused ? "onednn.passlab.FusedConv" : "onednn.Conv");
    auto g = testutil::toFloats(got.outputs[0]), r = testutil::toFloats(want.outputs[0]);
    for (size_t i = 0; i < g.size(); ++i)
      ASSERT_NEAR(g[i], r[i], 1e-5f * (1.0f + std::fabs(r[i]))) << text << "\nelement " << i;
  }
}

}  // namespace
}  // namespace passlab::exec
