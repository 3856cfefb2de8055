// fuse_elementwise_chains: trees of elementwise ops -> one ai.passlab
// FusedElementwise; the program encoding, inlined scalar constants, shared
// intermediates, variadic ops, reasons, numerics.
#include <gtest/gtest.h>

#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

const char* kPass = "fuse_elementwise_chains";
const std::string kHeader = R"(<ir_version: 9, opset_import: ["" : 20]>)";
const std::string kFusedHeader = R"(<ir_version: 9, opset_import: ["" : 20, "ai.passlab" : 1]>)";

TEST(FuseElementwiseChains, ScaleShiftReluWithPerChannelConstants) {
  expectRewrite(kPass, kHeader + R"(main (float[1,3,2,2] x) => (float[1,3,2,2] y)
      <float[3,1,1] s = {1, 2, 3}, float[1,3,1,1] b = {0.5, -0.5, 0}> {
      u = Mul(x, s)
      v = Add(u, b)
      y = Relu(v) })",
                kFusedHeader + R"(main (float[1,3,2,2] x) => (float[1,3,2,2] y)
      <float[3,1,1] s = {1, 2, 3}, float[1,3,1,1] b = {0.5, -0.5, 0}> {
      y = ai.passlab.FusedElementwise <ops = ["Mul", "Add", "Relu"], operands = [0, 1, -1, 3, 2, -1, 4, -1, -1]> (x, s, b) })");
}

TEST(FuseElementwiseChains, ScalarConstantsBecomeProgramConstants) {
  expectRewrite(kPass,
                kHeader + R"(main (float[2,3] x, float[3] z) => (float[2,3] y) <float k = {2}> {
      u = Mul(x, k)
      y = Sub(u, z) })",
                kFusedHeader + R"(main (float[2,3] x, float[3] z) => (float[2,3] y) {
      y = ai.passlab.FusedElementwise <ops = ["Mul", "Sub"], operands = [0, -2, -1, 2, 1, -1], constants = [2.0]> (x, z) })");
}

// GPT-2's tanh GELU: x is read by three ops of the group.
const std::string kTanhGelu = kHeader + R"(main (float[2,8] x) => (float[2,8] y)
      <float half = {0.5}, float three = {3}, float k = {0.044715}, float r = {0.7978846}, float one = {1}> {
      xh = Mul(x, half)
      p = Pow(x, three)
      pk = Mul(p, k)
      i = Add(x, pk)
      ir = Mul(i, r)
      th = Tanh(ir)
      t1 = Add(th, one)
      y = Mul(xh, t1) })";

TEST(FuseElementwiseChains, TanhGeluSubgraphBecomesOneNode) {
  expectRewrite(kPass, kTanhGelu, kFusedHeader + R"(main (float[2,8] x) => (float[2,8] y) {
      y = ai.passlab.FusedElementwise <ops = ["Mul", "Pow", "Mul", "Add", "Mul", "Tanh", "Add", "Mul"],
          operands = [0, -2, -1, 0, -3, -1, 2, -4, -1, 0, 3, -1, 4, -5, -1, 5, -1, -1, 6, -6, -1, 1, 7, -1],
          constants = [0.5, 3.0, 0.044715, 0.7978846, 1.0]> (x) })");
}

TEST(FuseElementwiseChains, OutputsStayTheSame) {
  expectSameOutputs(kPass, kTanhGelu);
  // Variadic Sum and Mean, Max, Clip with constant bounds, an intermediate read twice.
  expectSameOutputs(kPass,
                    kHeader + R"(main (float[2,3,4] x, float[3,1] a, float[4] b) => (float[2,3,4] y)
      <float lo = {-0.5}, float hi = {1.5}> {
      e = Exp(x)
      s = Sum(e, a, b)
      m = Mean(s, x)
      c = Clip(m, lo, hi)
      r = Relu(c)
      q = Max(r, c)
      y = Add(q, e) })");
}

TEST(FuseElementwiseChains, Converges) {
  expectConverges(kPass, kTanhGelu);
}

TEST(FuseElementwiseChains, KeepsASingleOp) {
  expectUnchanged(kPass, kHeader + R"(main (float[2,3] x) => (float[2,3] y) { y = Relu(x) })",
                  "nothing to fuse with");
}

TEST(FuseElementwiseChains, KeepsAnIntermediateWithTwoConsumers) {
  expectUnchanged(kPass, kHeader + R"(main (float[2,3] x) => (float[2,3] y, float[2,3] s) {
      u = Exp(x)
      y = Relu(u)
      s = Sigmoid(u) })",
                  "'u' has 2 consumers");
}

TEST(FuseElementwiseChains, KeepsAnOpOnASmallerTensor) {
  // Sqrt per channel, then broadcast: fusing would take a Sqrt per element.
  expectUnchanged(kPass,
                  kHeader + R"(main (float[1,3,4,4] x, float[3,1,1] v) => (float[1,3,4,4] y) {
      s = Sqrt(v)
      y = Mul(x, s) })",
                  "does not have the result's shape");
}

TEST(FuseElementwiseChains, KeepsALargeGroupBoundByLibmCalls) {
  // Pow by 2.5 is powf per element, dominating 49152 elements: fusing saves
  // nothing measurable.
  expectUnchanged(kPass, kHeader + R"(main (float[1,64,768] x) => (float[1,64,768] y)
      <float e = {2.5}> {
      p = Pow(x, e)
      y = Mul(x, p) })",
                  "Pow's scalar libm calls");
  // Pow by 2 is x * x, vectorized: no such limit.
  expectSameOutputs(kPass, kHeader + R"(main (float[1,64,768] x) => (float[1,64,768] y)
      <float two = {2}, float h = {0.5}> {
      p = Pow(x, two)
      y = Mul(p, h) })");
}

// Sigmoid and Tanh run vectorized rows fused or not: a group with them is
// fused up to 4096 elements (the dispatch saved wins), not above (no steady
// gain measured), and the reason says so.
std::string silu(const std::string& dims) {
  return kHeader + "main (float" + dims + " x) => (float" + dims + R"( y) {
      s = Sigmoid(x)
      y = Mul(x, s) })";
}

TEST(FuseElementwiseChains, FusesASigmoidGroupUpTo4096Elements) {
  expectRewrite(kPass, silu("[1,64,64]"),
                kFusedHeader + R"(main (float[1,64,64] x) => (float[1,64,64] y) {
      y = ai.passlab.FusedElementwise <ops = ["Sigmoid", "Mul"], operands = [0, -1, -1, 0, 1, -1]> (x) })");
  expectSameOutputs(kPass, silu("[1,64,64]"));
}

TEST(FuseElementwiseChains, KeepsALargeSigmoidOrTanhGroup) {
  expectUnchanged(kPass, silu("[1,64,65]"), "Sigmoid runs a vectorized row fused or not");
  expectUnchanged(kPass, kHeader + R"(main (float[1,64,768] x) => (float[1,64,768] y) {
      t = Tanh(x)
      y = Mul(t, x) })",
                  "Tanh runs a vectorized row fused or not: above 4096 elements");
}

// Sin, Cos, Erf and Gelu (erf form) run vector rows fused or not (trig_rows.h,
// erf_rows.h), no libm calls: their groups keep the 4096-element limit with
// the vectorized-row reason (bench_fused_kernels' Sin(3x)+x and erf GELU
// sweeps: slower fused from 16K elements, faster up to 4096).
std::string sinChain(const std::string& dims) {
  return kHeader + "main (float" + dims + " x) => (float" + dims + R"( y) <float k = {3}> {
      u = Mul(x, k)
      s = Sin(u)
      y = Add(s, x) })";
}

TEST(FuseElementwiseChains, FusesASinOrErfGroupUpTo4096Elements) {
  expectRewrite(kPass, sinChain("[1,64,64]"),
                kFusedHeader + R"(main (float[1,64,64] x) => (float[1,64,64] y) {
      y = ai.passlab.FusedElementwise <ops = ["Mul", "Sin", "Add"], operands = [0, -2, -1, 1, -1, -1, 2, 0, -1], constants = [3.0]> (x) })");
  expectSameOutputs(kPass, sinChain("[1,64,64]"));
  expectSameOutputs(kPass, kHeader + R"(main (float[1,16,256] x) => (float[1,16,256] y) {
      e = Erf(x)
      y = Mul(e, x) })");
}

TEST(FuseElementwiseChains, KeepsALargeSinCosErfOrGeluGroupAsAVectorRow) {
  expectUnchanged(kPass, sinChain("[1,64,65]"),
                  "Sin runs a vectorized row fused or not: above 4096 elements the fused group "
                  "measured slower");
  expectUnchanged(kPass, kHeader + R"(main (float[1,64,768] x) => (float[1,64,768] y) {
      c = Cos(x)
      y = Mul(c, x) })",
                  "Cos runs a vectorized row fused or not");
  expectUnchanged(
      kPass,
      kHeader +
          R"(main (float[1,64,768] x) => (float[1,64,768] y) <float r = {1.4142135}, float one = {1}, float h = {0.5}> {
      d = Div(x, r)
      e = Erf(d)
      t = Add(e, one)
      m = Mul(x, t)
      y = Mul(m, h) })",
      "Erf runs a vectorized row fused or not");
  expectUnchanged(kPass, kHeader + R"(main (float[1,64,768] x) => (float[1,64,768] y) {
      g = Gelu(x)
      y = Mul(g, x) })",
                  "Gelu runs a vectorized row fused or not");
  // A libm op in the same group still names itself.
  expectUnchanged(kPass, kHeader + R"(main (float[1,64,768] x) => (float[1,64,768] y)
      <float e = {2.5}> {
      s = Sin(x)
      y = Pow(s, e) })",
                  "Pow's scalar libm calls");
}

// Exp, Log, Softplus, Elu and Gelu's tanh form run vector rows fused or not
// (activation_rows.h; they were libm rows before): their groups keep the
// 4096-element limit with the vectorized-row reason, not "scalar libm calls"
// (bench_fused_kernels' U(x)+x sweeps: no steady gain from 16K elements).
std::string unaryChain(const std::string& op, const std::string& dims) {
  const std::string call = op == "Gelu tanh" ? "Gelu <approximate = \"tanh\">" : op;
  const std::string pre = op == "Log" ? "Abs(x)" : "Neg(x)";
  return kHeader + "main (float" + dims + " x) => (float" + dims + " y) {\n      u = " + pre +
         "\n      e = " + call + "(u)\n      y = Add(e, x) }";
}

TEST(FuseElementwiseChains, FusesAnExpLogSoftplusEluOrGeluTanhGroupUpTo4096Elements) {
  for (const char* op : {"Exp", "Log", "Softplus", "Elu", "Gelu tanh"}) {
    SCOPED_TRACE(op);
    PassOutcome out = runPass(kPass, unaryChain(op, "[1,64,64]"));
    EXPECT_EQ(out.model.graph().nodes().size(), 1u) << canonicalForm(out.model.graph());
    expectSameOutputs(kPass, unaryChain(op, "[1,64,64]"));
  }
}

TEST(FuseElementwiseChains, KeepsALargeExpLogSoftplusEluOrGeluTanhGroupAsAVectorRow) {
  for (const char* op : {"Exp", "Log", "Softplus", "Elu", "Gelu tanh"}) {
    SCOPED_TRACE(op);
    const std::string name = std::string(op).substr(0, std::string(op).find(' '));
    expectUnchanged(kPass, unaryChain(op, "[1,64,65]"),
                    name +
                        " runs a vectorized row fused or not: above 4096 elements the fused "
                        "group measured no steady gain");
  }
}

TEST(FuseElementwiseChains, KeepsIntegerChains) {
  expectUnchanged(kPass, kHeader + R"(main (int64[4] a, int64[4] b) => (int64[4] y) {
      u = Add(a, b)
      y = Mul(u, b) })",
                  "has an input that is not float32");
}

}  // namespace
}  // namespace passlab::testing
