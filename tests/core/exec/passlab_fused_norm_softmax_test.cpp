// ai.passlab FusedLayerNorm and FusedSoftmax against the chains they replace
// (on the reference kernels): row lengths that are and are not multiples of
// the 4-lane loops, the residual and its sum output, two normalized axes,
// broadcast masks, the decomposed softmax; and FusedAttention's
// mask_add_after_bool.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "tests/core/exec/kernel_test_util.h"

namespace passlab::exec {
namespace {

const char* kHeader = R"(<ir_version: 8, opset_import: ["" : 13, "ai.passlab" : 1]>)";

ir::Tensor rnd(kt::Dims dims, unsigned seed, float scale = 2.0f, float shift = 0.0f) {
  return kt::uniformF32(std::move(dims), seed, scale, shift);
}

std::vector<ir::Tensor> run(const std::string& body, const NamedInputs& inputs, bool reference) {
  return kt::runOutputs(std::string(kHeader) + body, inputs, reference);
}

// y = LayerNorm(x [+ r]) * g + b over the last `axes` dims; with a residual the sum is output 2.
void checkLayerNorm(const kt::Dims& xd, int axes, bool residual, bool bias, unsigned seed) {
  kt::Dims nd(xd.end() - axes, xd.end());
  const std::string x = "float[" + kt::dimsText(xd) + "]", n = "float[" + kt::dimsText(nd) + "]";
  NamedInputs in{{"x", rnd(xd, seed, 2.0f, 0.5f)}, {"g", rnd(nd, seed + 1)}};
  std::string sig = x + " x, " + n + " g";
  if (bias) {
    in.emplace_back("b", rnd(nd, seed + 2));
    sig += ", " + n + " b";
  }
  if (residual) {
    in.emplace_back("r", rnd(xd, seed + 3));
    sig += ", " + x + " r";
  }
  std::string ax;
  for (int i = axes; i >= 1; --i) ax += (i < axes ? ", " : "") + std::to_string(-i);
  const std::string outs = residual ? x + " y, " + x + " s" : x + " y";
  std::string chain =
      "main (" + sig + ") => (" + outs + ") <float two = {2}, float eps = {1e-5}> {\n";
  chain += residual ? "  s = Add(x, r)\n" : "  s = Identity(x)\n";
  chain += "  m = ReduceMean<axes = [" + ax + "]>(s)\n  d = Sub(s, m)\n  q = Pow(d, two)\n";
  chain += "  v = ReduceMean<axes = [" + ax + "]>(q)\n  ve = Add(v, eps)\n  sd = Sqrt(ve)\n";
  chain += "  nn = Div(d, sd)\n";
  chain += bias ? "  gm = Mul(nn, g)\n  y = Add(gm, b)\n}" : "  y = Mul(nn, g)\n}";
  std::string ins = "x, g";
  if (bias || residual) ins += bias ? ", b" : ", ";
  if (residual) ins += ", r";
  const std::string fused = "main (" + sig + ") => (" + outs + ") {\n  " +
                            (residual ? "y, s" : "y") +
                            " = ai.passlab.FusedLayerNorm<axis = " + std::to_string(-axes) +
                            ", epsilon = 1e-5>(" + ins + ")\n}";
  auto want = run(chain, in, true);
  auto got = run(fused, in, false);
  ASSERT_EQ(got.size(), want.size()) << fused;
  for (size_t i = 0; i < got.size(); ++i) kt::expectClose(got[i], want[i], fused);
}

TEST(PassLabFusedLayerNorm, MatchesTheChain) {
  for (int64_t d : {1, 3, 4, 8, 17, 768})
    for (int form = 0; form < 4; ++form)
      checkLayerNorm({2, 3, d}, 1, form & 1, form & 2, static_cast<unsigned>(d * 10 + form));
  checkLayerNorm({2, 3, 5}, 2, true, true, 99);
}

TEST(PassLabFusedLayerNorm, SumOutputIsExactAndYWithoutIt) {
  // Only Y read: the sum is formed in Y's buffer.
  NamedInputs in{{"x", rnd({4, 6}, 1)}, {"r", rnd({4, 6}, 2)}, {"g", rnd({6}, 3)}};
  const std::string sig = "main (float[4,6] x, float[4,6] r, float[6] g) => (float[4,6] y) ";
  auto want = run(sig + R"(<float two = {2}, float eps = {1e-3}> {
      s = Add(x, r)
      m = ReduceMean<axes = [-1]>(s)
      d = Sub(s, m)
      q = Pow(d, two)
      v = ReduceMean<axes = [-1]>(q)
      ve = Add(v, eps)
      sd = Sqrt(ve)
      nn = Div(d, sd)
      y = Mul(nn, g) })",
                  in, true);
  auto got = run(sig + "{ y = ai.passlab.FusedLayerNorm<epsilon = 1e-3>(x, g, , r) }", in, false);
  ASSERT_EQ(got.size(), 1u);
  kt::expectClose(got[0], want[0], "skip without the sum output");
}

TEST(PassLabFusedLayerNorm, RejectsASkipOfAnotherShape) {
  NamedInputs in{{"x", rnd({2, 4}, 1)}, {"r", rnd({1, 4}, 2)}, {"g", rnd({4}, 3)}};
  EXPECT_TRUE(kt::contains(
      testutil::errorOf(std::string(kHeader) +
                            "main (float[2,4] x, float[1,4] r, float[4] g) => (float[2,4] y) "
                            "{ y = ai.passlab.FusedLayerNorm(x, g, , r) }",
                        in),
      "must have X's dims"));
}

// y = Softmax(x / 8 [+ m]) over the last axis.
void checkSoftmax(const kt::Dims& xd, const kt::Dims& md, unsigned seed) {
  const std::string x = "float[" + kt::dimsText(xd) + "]";
  NamedInputs in{{"x", rnd(xd, seed, 20.0f)}};
  std::string sig = x + " x";
  if (!md.empty()) {
    in.emplace_back("m", rnd(md, seed + 1, 5.0f));
    sig += ", float[" + kt::dimsText(md) + "] m";
  }
  const std::string head = "main (" + sig + ") => (" + x + " y) ";
  std::string chain = head + "<float c = {8}> {\n  t = Div(x, c)\n";
  chain += md.empty() ? "  u = Identity(t)\n" : "  u = Sub(t, m)\n";
  chain += "  y = Softmax<axis = -1>(u)\n}";
  const std::string fused = head + "{ y = ai.passlab.FusedSoftmax<scale = 0.125" +
                            (md.empty() ? ">(x) }" : ", mask_subtract = 1>(x, m) }");
  kt::expectClose(run(fused, in, false)[0], run(chain, in, true)[0], fused);
}

TEST(PassLabFusedSoftmax, MatchesTheChain) {
  for (int64_t t : {1, 3, 4, 7, 64, 130}) {
    checkSoftmax({2, 3, 5, t}, {}, static_cast<unsigned>(t));
    checkSoftmax({2, 3, 5, t}, {2, 1, 1, t}, static_cast<unsigned>(t + 1));
    checkSoftmax({2, 3, 5, t}, {5, 1}, static_cast<unsigned>(t + 2));
    checkSoftmax({2, 3, 5, t}, {2, 3, 5, t}, static_cast<unsigned>(t + 3));
  }
}

TEST(PassLabFusedSoftmax, LargeNegativeScoresGiveZeros) {
  // -10000 masked keys: exp underflows to 0 as expf does.
  NamedInputs in{{"x", kt::f32({1, 6}, {1, 2, -10000, 3, -10000, 0.5f})}};
  auto got =
      run("main (float[1,6] x) => (float[1,6] y) { y = ai.passlab.FusedSoftmax(x) }", in, false);
  auto want = run("main (float[1,6] x) => (float[1,6] y) { y = Softmax<axis = -1>(x) }", in, true);
  kt::expectClose(got[0], want[0], "masked");
  EXPECT_EQ(kt::values<float>(got[0])[2], 0.0f);
}

TEST(PassLabFusedAttention, AdditiveMaskAfterTheBoolMask) {
  // Where(b, s, -10000) + a, as GPT-2 with a padding mask computes it.
  NamedInputs in{{"q", rnd({1, 2, 3, 4}, 1)},
                 {"kt", rnd({1, 2, 4, 5}, 2)},
                 {"v", rnd({1, 2, 5, 4}, 3)},
                 {"b", kt::b8({1, 1, 3, 5}, {1, 1, 1, 0, 0, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1})},
                 {"a", kt::f32({1, 1, 1, 5}, {0, -10000, 0, 0, -10000})}};
  const std::string head =
      "main (float[1,2,3,4] q, float[1,2,4,5] kt, float[1,2,5,4] v, bool[1,1,3,5] b, "
      "float[1,1,1,5] a) => (float[1,2,3,4] y) ";
  auto want = run(head + R"(<float c = {2}, float f = {-10000}> {
      s0 = MatMul(q, kt)
      s1 = Div(s0, c)
      s2 = Where(b, s1, f)
      s3 = Add(s2, a)
      p = Softmax<axis = -1>(s3)
      y = MatMul(p, v) })",
                  in, true);
  auto got = run(head +
                     "{ y = ai.passlab.FusedAttention<scale = 0.5, k_transposed = 1, "
                     "mask_add_after_bool = 1>(q, kt, v, , a, b) }",
                 in, false);
  kt::expectClose(got[0], want[0], "mask_add_after_bool");
}

}  // namespace
}  // namespace passlab::exec
