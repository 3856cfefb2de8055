// Convolutions with few output channels (core/exec/cpu/conv_few_outputs.h):
// the direct loop against a double-precision sum over shapes around its edges
// (one to nine outputs, columns not a multiple of 16, pads on every side,
// dilations, two images), two threads equal to one, blocked X and Y equal to
// NCHW; which convolutions take
// it; and whole Conv nodes (float32 and float16) against the reference
// kernel. The loop's own tests skip where the CPU has no AVX-512 (it is not
// taken there).
#include "core/exec/cpu/conv_few_outputs.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "tests/core/exec/exec_test_util.h"

namespace passlab::exec {
namespace {

using cpu::ConvFewOutputsShape;
using testutil::pattern;

cpu::ConvGeometry geometry(int64_t C, int64_t M, int64_t group, int64_t stride, int64_t side) {
  cpu::ConvGeometry g;
  g.N = 1;
  g.C = C;
  g.M = M;
  g.group = group;
  g.in = {side + 2, side + 2};
  g.kernel = {3, 3};
  g.stride = {stride, stride};
  g.dilation = {1, 1};
  g.padBegin = {0, 0};
  g.padEnd = {0, 0};
  g.out = {side, side};
  return g;
}

bool available() {
  return cpu::runsAsFewOutputs(geometry(8, 3, 1, 1, 64));
}

// y[n, m, oy, ox] as a double sum, taps in the zero border counting as zeros.
double expected(const ConvFewOutputsShape& s, const std::vector<float>& x,
                const std::vector<float>& w, const float* bias, int64_t n, int64_t m, int64_t oy,
                int64_t ox) {
  double sum = bias ? bias[m] : 0.0;
  for (int64_t c = 0; c < s.C; ++c)
    for (int64_t kh = 0; kh < s.KH; ++kh)
      for (int64_t kw = 0; kw < s.KW; ++kw) {
        const int64_t iy = oy + kh * s.dilationH - s.padTop;
        const int64_t ix = ox + kw * s.dilationW - s.padLeft;
        if (iy < 0 || iy >= s.H || ix < 0 || ix >= s.W) continue;
        sum += double(w[((m * s.C + c) * s.KH + kh) * s.KW + kw]) *
               double(x[((n * s.C + c) * s.H + iy) * s.W + ix]);
      }
  return sum;
}

std::vector<float> run(const ConvFewOutputsShape& s, const std::vector<float>& x,
                       const std::vector<float>& w, const float* bias, int threads) {
  std::vector<float> y(static_cast<size_t>(s.N * s.M * s.OH * s.OW), -99.0f);
  std::vector<float> scratch(static_cast<size_t>(cpu::fewOutputsScratchFloats(s)), -7.0f);
  cpu::convFewOutputs(s, x.data(), w.data(), bias, y.data(), scratch.data(), threads);
  return y;
}

TEST(ConvFewOutputs, MatchesADoubleSum) {
  if (!available()) GTEST_SKIP() << "no AVX-512 on this CPU: the direct loop is not taken here";
  struct Case {
    int64_t N, C, M, H, W, KH, KW, dil, pt, pl, pb, pr;
  };
  for (const Case& c :
       {Case{1, 3, 1, 9, 17, 3, 3, 1, 0, 0, 0, 0}, Case{2, 5, 2, 12, 70, 3, 5, 1, 1, 2, 1, 2},
        Case{1, 4, 3, 20, 83, 9, 9, 1, 4, 4, 4, 4}, Case{1, 7, 4, 16, 129, 5, 3, 2, 2, 0, 3, 1},
        Case{1, 2, 3, 6, 16, 1, 1, 1, 0, 0, 0, 0}, Case{2, 1, 4, 10, 33, 3, 7, 1, 0, 3, 2, 0},
        // 5-9 outputs: 32 columns a tile, then 16, then the rest.
        Case{1, 6, 5, 9, 45, 3, 3, 1, 1, 1, 1, 1}, Case{2, 3, 7, 7, 70, 5, 5, 1, 2, 2, 2, 2},
        Case{1, 9, 9, 12, 37, 3, 3, 1, 1, 1, 1, 1}, Case{1, 4, 8, 8, 20, 3, 3, 2, 0, 1, 2, 1}}) {
    ConvFewOutputsShape s;
    s.N = c.N, s.C = c.C, s.M = c.M, s.H = c.H, s.W = c.W, s.KH = c.KH, s.KW = c.KW;
    s.dilationH = s.dilationW = c.dil;
    s.padTop = c.pt, s.padLeft = c.pl, s.padBottom = c.pb, s.padRight = c.pr;
    s.OH = c.H + c.pt + c.pb - (c.KH - 1) * c.dil;
    s.OW = c.W + c.pl + c.pr - (c.KW - 1) * c.dil;
    auto x = pattern(static_cast<size_t>(c.N * c.C * c.H * c.W), 1 + static_cast<uint32_t>(c.W));
    auto w = pattern(static_cast<size_t>(c.M * c.C * c.KH * c.KW), 2 + static_cast<uint32_t>(c.C));
    auto b = pattern(static_cast<size_t>(c.M), 3);
    for (bool withBias : {false, true}) {
      const float* bias = withBias ? b.data() : nullptr;
      const auto y = run(s, x, w, bias, 1);
      for (int64_t n = 0; n < s.N; ++n)
        for (int64_t m = 0; m < s.M; ++m)
          for (int64_t oy = 0; oy < s.OH; ++oy)
            for (int64_t ox = 0; ox < s.OW; ++ox) {
              const double want = expected(s, x, w, bias, n, m, oy, ox);
              const float got = y[static_cast<size_t>(((n * s.M + m) * s.OH + oy) * s.OW + ox)];
              ASSERT_NEAR(got, want, 1e-5 * (1.0 + std::fabs(want)))
                  << "case C " << c.C << " M " << c.M << " " << c.H << "x" << c.W << " k " << c.KH
                  << "x" << c.KW << " at n " << n << " m " << m << " (" << oy << ", " << ox << ")";
            }
    }
  }
}

TEST(ConvFewOutputs, TwoThreadsEqualOne) {
  if (!available()) GTEST_SKIP() << "no AVX-512 on this CPU: the direct loop is not taken here";
  ConvFewOutputsShape s;
  s.N = 1, s.C = 32, s.M = 3, s.H = 40, s.W = 72, s.KH = 9, s.KW = 9;
  s.padTop = s.padLeft = s.padBottom = s.padRight = 4;
  s.OH = 40, s.OW = 72;
  auto x = pattern(32 * 40 * 72, 4), w = pattern(3 * 32 * 81, 5), b = pattern(3, 6);
  EXPECT_EQ(run(s, x, w, b.data(), 1), run(s, x, w, b.data(), 2));
}

// X and Y in the blocked layout [N, ceil(C/b), H, W, b]: the same sums in
// the same order as on NCHW, so the same bits, and Y's padding channels zero.
TEST(ConvFewOutputs, BlockedLayoutsGiveTheNchwResults) {
  if (!available()) GTEST_SKIP() << "no AVX-512 on this CPU: the direct loop is not taken here";
  struct Case {
    int64_t N, C, M, H, W, k, pad, xBlock;
  };
  for (const Case& c : {Case{1, 32, 9, 12, 40, 3, 1, 16}, Case{2, 20, 9, 9, 37, 3, 1, 16},
                        Case{1, 16, 4, 10, 70, 3, 0, 16}, Case{1, 5, 6, 8, 21, 5, 2, 8},
                        Case{1, 3, 2, 7, 33, 3, 1, 0}}) {
    ConvFewOutputsShape s;
    s.N = c.N, s.C = c.C, s.M = c.M, s.H = c.H, s.W = c.W, s.KH = s.KW = c.k;
    s.padTop = s.padLeft = s.padBottom = s.padRight = c.pad;
    s.OH = c.H + 2 * c.pad - c.k + 1, s.OW = c.W + 2 * c.pad - c.k + 1;
    auto x = pattern(static_cast<size_t>(c.N * c.C * c.H * c.W), 11);
    auto w = pattern(static_cast<size_t>(c.M * c.C * c.k * c.k), 12);
    auto b = pattern(static_cast<size_t>(c.M), 13);
    const auto plain = run(s, x, w, b.data(), 2);
    // X blocked by xBlock (or left NCHW), padding channels NaN: never read.
    std::vector<float> xIn = x;
    if (c.xBlock) {
      const int64_t groups = (c.C + c.xBlock - 1) / c.xBlock, S = c.H * c.W;
      xIn.assign(static_cast<size_t>(c.N * groups * c.xBlock * S), std::nanf(""));
      for (int64_t n = 0; n < c.N; ++n)
        for (int64_t ch = 0; ch < c.C; ++ch)
          for (int64_t p = 0; p < S; ++p)
            xIn[static_cast<size_t>(((n * groups + ch / c.xBlock) * S + p) * c.xBlock +
                                    ch % c.xBlock)] =
                x[static_cast<size_t>((n * c.C + ch) * S + p)];
    }
    s.xBlock = c.xBlock;
    s.yBlock = cpu::kFewOutputsYBlock;
    const int64_t OS = s.OH * s.OW, yb = s.yBlock;
    std::vector<float> y(static_cast<size_t>(c.N * yb * OS), -99.0f);
    std::vector<float> scratch(static_cast<size_t>(cpu::fewOutputsScratchFloats(s)), -7.0f);
    cpu::convFewOutputs(s, xIn.data(), w.data(), b.data(), y.data(), scratch.data(), 2);
    for (int64_t n = 0; n < c.N; ++n)
      for (int64_t p = 0; p < OS; ++p)
        for (int64_t m = 0; m < yb; ++m) {
          const float got = y[static_cast<size_t>((n * OS + p) * yb + m)];
          const float want = m < c.M ? plain[static_cast<size_t>((n * c.M + m) * OS + p)] : 0.0f;
          ASSERT_EQ(got, want) << "case C " << c.C << " M " << c.M << " " << c.H << "x" << c.W
                               << " xBlock " << c.xBlock << " at n " << n << " position " << p
                               << " channel " << m;
        }
  }
}

TEST(ConvFewOutputs, WhichConvolutionsTakeIt) {
  if (!available()) GTEST_SKIP() << "no AVX-512 on this CPU: the direct loop is not taken here";
  EXPECT_TRUE(cpu::runsAsFewOutputs(geometry(32, 3, 1, 1, 224)));
  EXPECT_TRUE(cpu::runsAsFewOutputs(geometry(32, 1, 1, 1, 32)));
  EXPECT_TRUE(cpu::runsAsFewOutputs(geometry(32, 4, 1, 1, 32)));
  EXPECT_TRUE(cpu::runsAsFewOutputs(geometry(32, 5, 1, 1, 224)));
  EXPECT_TRUE(cpu::runsAsFewOutputs(geometry(32, 9, 1, 1, 224)));    // super_resolution's last
  EXPECT_FALSE(cpu::runsAsFewOutputs(geometry(32, 10, 1, 1, 224)));  // ten outputs
  EXPECT_FALSE(cpu::runsAsFewOutputs(geometry(32, 3, 1, 2, 224)));   // strided
  EXPECT_FALSE(cpu::runsAsFewOutputs(geometry(4, 4, 2, 1, 224)));    // grouped
  EXPECT_FALSE(cpu::runsAsFewOutputs(geometry(32, 3, 1, 1, 31)));    // small plane
  cpu::ConvGeometry oneD = geometry(32, 3, 1, 1, 224);
  oneD.in.resize(1), oneD.kernel.resize(1), oneD.stride.resize(1), oneD.dilation.resize(1);
  oneD.padBegin.resize(1), oneD.padEnd.resize(1), oneD.out.resize(1);
  EXPECT_FALSE(cpu::runsAsFewOutputs(oneD));
}

// Conv nodes (starry_night's last layer at a smaller size, padded and dilated
// ones, float16) against the reference kernel.
// Runs on every CPU: without AVX-512 (or under PASSLAB_MAX_ISA) the same
// nodes go to oneDNN, which must agree as well.
TEST(ConvFewOutputs, ConvNodesMatchTheReferenceKernel) {
  struct Case {
    int64_t C, M, H, W, k, dil, pad;
    bool bias, half;
  };
  for (const Case& c :
       {Case{32, 3, 40, 48, 9, 1, 4, true, false}, Case{8, 1, 36, 36, 3, 2, 0, false, false},
        Case{6, 4, 33, 50, 5, 1, 2, true, false}, Case{16, 3, 40, 40, 9, 1, 4, true, true}}) {
    const int64_t oh = c.H + 2 * c.pad - (c.k - 1) * c.dil,
                  ow = c.W + 2 * c.pad - (c.k - 1) * c.dil;
    const std::string type = c.half ? "float16" : "float";
    auto d4 = [](int64_t a, int64_t b, int64_t h, int64_t w) {
      return "[" + std::to_string(a) + "," + std::to_string(b) + "," + std::to_string(h) + "," +
             std::to_string(w) + "]";
    };
    const std::string p = std::to_string(c.pad), k = std::to_string(c.k);
    std::string text = "<ir_version: 8, opset_import: [\"\" : 14]>\nmain (float" +
                       d4(1, c.C, c.H, c.W) + " x, float" + d4(c.M, c.C, c.k, c.k) + " w" +
                       (c.bias ? ", float[" + std::to_string(c.M) + "] b" : "") + ") => (float" +
                       d4(1, c.M, oh, ow) + " y) {\n";
    if (c.half)
      text += "  xh = Cast <to = 10> (x)\n  wh = Cast <to = 10> (w)\n" +
              std::string(c.bias ? "  bh = Cast <to = 10> (b)\n" : "") + "  yh = Conv ";
    else
      text += "  y = Conv ";
    text += "<kernel_shape = [" + k + ", " + k + "], dilations = [" + std::to_string(c.dil) + ", " +
            std::to_string(c.dil) + "], pads = [" + p + ", " + p + ", " + p + ", " + p + "]> (" +
            (c.half ? std::string("xh, wh") + (c.bias ? ", bh" : "")
                    : std::string("x, w") + (c.bias ? ", b" : "")) +
            ")\n";
    if (c.half) text += "  y = Cast <to = 1> (yh)\n";
    text += "}";
    NamedInputs in = {
        {"x",
         testutil::floats({1, c.C, c.H, c.W}, pattern(static_cast<size_t>(c.C * c.H * c.W), 7))},
        {"w", testutil::floats({c.M, c.C, c.k, c.k},
                               pattern(static_cast<size_t>(c.M * c.C * c.k * c.k), 8))}};
    if (c.bias) in.emplace_back("b", testutil::floats({c.M}, pattern(static_cast<size_t>(c.M), 9)));
    RunResult got = testutil::runText(text, in);
    ExecutorOptions reference;
    reference.referenceKernels = true;
    RunResult want = testutil::runText(text, in, reference);
    ASSERT_EQ(got.outputs.size(), 1u) << text;
    ASSERT_EQ(want.outputs.size(), 1u) << text;
    ASSERT_EQ(got.outputs[0].dims(), want.outputs[0].dims()) << text;
    auto g = testutil::toFloats(got.outputs[0]), r = testutil::toFloats(want.outputs[0]);
    // Float32: the two kernels sum C * k * k products in different orders;
    // float16 outputs: one float16 rounding apart at most (2^-10 relative).
    const float rel = c.half ? 2e-3f : 1e-5f;
    const float terms = 2e-8f * static_cast<float>(c.C * c.k * c.k);
    for (size_t i = 0; i < g.size(); ++i)
      ASSERT_NEAR(g[i], r[i], rel * (1.0f + std::fabs(r[i])) + terms) << text << "\nelement " << i;
  }
}

}  // namespace
}  // namespace passlab::exec
