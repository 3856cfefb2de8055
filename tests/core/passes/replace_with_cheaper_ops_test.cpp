// replace_with_cheaper_ops: one structural case per rule, opset variants
// (Clip attributes before 11, integer Relu from 14), reasons, numerics.
#include <gtest/gtest.h>

#include "tests/support/pass_harness.h"
#include "tests/support/test_support.h"

namespace passlab::testing {
namespace {

const char* kPass = "replace_with_cheaper_ops";

TEST(ReplaceWithCheaperOps, PowTwoBecomesMul) {
  expectRewrite(kPass,
                R"(main (float[2,3] x) => (float[2,3] y) <float two = {2}> { y = Pow(x, two) })",
                R"(main (float[2,3] x) => (float[2,3] y) { y = Mul(x, x) })");
}

TEST(ReplaceWithCheaperOps, PowHalfBecomesSqrt) {
  expectRewrite(kPass, R"(main (float[2,3] x) => (float[2,3] y) <float[1] h = {0.5}> {
      a = Abs(x)
      y = Pow(a, h) })",
                R"(main (float[2,3] x) => (float[2,3] y) {
      a = Abs(x)
      y = Sqrt(a) })");
}

TEST(ReplaceWithCheaperOps, SubFromZeroBecomesNeg) {
  expectRewrite(kPass, R"(main (int64[2,3] x) => (int64[2,3] y) <int64 z = {0}> { y = Sub(z, x) })",
                R"(main (int64[2,3] x) => (int64[2,3] y) { y = Neg(x) })");
}

TEST(ReplaceWithCheaperOps, ClipFromZeroBecomesRelu) {
  expectRewrite(kPass,
                R"(main (float[2,3] x) => (float[2,3] y) <float z = {0}> { y = Clip(x, z) })",
                R"(main (float[2,3] x) => (float[2,3] y) { y = Relu(x) })");
  expectRewrite(kPass, R"(main (float[2,3] x) => (float[2,3] y) <float z = {0}, float inf = {inf}> {
      y = Clip(x, z, inf) })",
                R"(main (float[2,3] x) => (float[2,3] y) { y = Relu(x) })");
}

TEST(ReplaceWithCheaperOps, ClipAttributesBeforeOpset11) {
  const std::string h = R"(<ir_version: 4, opset_import: ["" : 9]>)";
  expectRewrite(
      kPass, h + R"(main (float[2,3] x) => (float[2,3] y) { y = Clip <min = 0.0, max = inf> (x) })",
      h + R"(main (float[2,3] x) => (float[2,3] y) { y = Relu(x) })");
  expectUnchanged(kPass,
                  h + R"(main (float[2,3] x) => (float[2,3] y) { y = Clip <min = 0.0> (x) })",
                  "Clip's default max before opset 11 is FLT_MAX, not +inf");
}

TEST(ReplaceWithCheaperOps, MaxWithZeroBecomesRelu) {
  expectRewrite(kPass, R"(main (float[2,3] x) => (float[2,3] y) <float z = {0}> { y = Max(z, x) })",
                R"(main (float[2,3] x) => (float[2,3] y) { y = Relu(x) })");
}

TEST(ReplaceWithCheaperOps, WhereOfNotSwapsItsBranches) {
  expectRewrite(kPass, R"(main (bool[2,3] c, float[2,3] a, float[2,3] b) => (float[2,3] y) {
      n = Not(c)
      y = Where(n, a, b) })",
                R"(main (bool[2,3] c, float[2,3] a, float[2,3] b) => (float[2,3] y) {
      y = Where(c, b, a) })");
}

TEST(ReplaceWithCheaperOps, KeepsPowOfAnotherExponent) {
  expectUnchanged(
      kPass, R"(main (float[2,3] x) => (float[2,3] y) <float three = {3}> { y = Pow(x, three) })",
      "the constant is 3.000000, not 2.000000");
}

TEST(ReplaceWithCheaperOps, KeepsAConstantWhoseBroadcastWidensX) {
  expectUnchanged(
      kPass, R"(main (float[3] x) => (float[1,3] y) <float[1,1] two = {2}> { y = Pow(x, two) })",
      "the constant's broadcast widens x");
}

TEST(ReplaceWithCheaperOps, KeepsAClipWithAFiniteMax) {
  expectUnchanged(kPass, R"(main (float[2,3] x) => (float[2,3] y) <float z = {0}, float six = {6}> {
      y = Clip(x, z, six) })",
                  "Clip has a finite max");
}

TEST(ReplaceWithCheaperOps, KeepsAnIntegerMaxBeforeOpset14) {
  const std::string h = R"(<ir_version: 7, opset_import: ["" : 13]>)";
  expectUnchanged(kPass,
                  h + R"(main (int32[2,3] x) => (int32[2,3] y) <int32 z = {0}> { y = Max(x, z) })",
                  "Relu does not take int32");
}

// The float32 model of `text` with every float value in `dt` (the text
// format takes no 16-bit constants; the initializers here are zeros, the
// same bits in every float type).
ir::Model inHalfPrecision(const std::string& text, ir::DataType dt) {
  ir::Model m = parse(text);
  ir::Graph& g = m.graph();
  auto retype = [dt](ir::Value* v) {
    if (v->type().isTensor() && v->type().elemType() == ir::DataType::kFloat)
      v->setType(ir::Type::tensor(dt, v->type().shape()));
  };
  for (ir::Value* v : g.inputs()) retype(v);
  for (ir::Value* v : g.outputs()) retype(v);
  for (ir::Value* v : std::vector<ir::Value*>(g.initializers())) {
    const ir::Tensor& t = *v->initializer();
    g.setInitializer(
        v, ir::Tensor::fromVector<uint16_t>(dt, t.dims(), std::vector<uint16_t>(t.numel(), 0)));
    retype(v);
  }
  return m;
}

// Whether the pass left `m` alone and some explanation contains `reason`.
void expectHalfPrecisionKept(ir::Model m, const std::string& reason) {
  PassOutcome out = runPass(kPass, std::move(m));
  EXPECT_FALSE(out.step.changed) << out.step.summary.toString();
  std::string all;
  for (const auto& [node, reasons] : out.step.explain.all())
    for (const auto& [pattern, why] : *reasons) all += pattern + ": " + why.str() + "\n";
  EXPECT_NE(all.find(reason), std::string::npos) << all;
}

// ONNX Runtime's CPU provider runs no 16-bit float Relu: Max and Clip stay.
TEST(ReplaceWithCheaperOps, KeepsAHalfPrecisionMaxAndClip) {
  const char* max = R"(main (float[2,3] x) => (float[2,3] y) <float z = {0}> { y = Max(x, z) })";
  const char* clip = R"(main (float[2,3] x) => (float[2,3] y) <float z = {0}> { y = Clip(x, z) })";
  expectHalfPrecisionKept(inHalfPrecision(max, ir::DataType::kFloat16), "no float16 Relu");
  expectHalfPrecisionKept(inHalfPrecision(clip, ir::DataType::kBFloat16), "no bfloat16 Relu");
  // The same graphs in float32 do become Relu (the reason above is the type).
  EXPECT_TRUE(runPass(kPass, max).step.changed);
  EXPECT_TRUE(runPass(kPass, clip).step.changed);
}

TEST(ReplaceWithCheaperOps, KeepsXMinusZero) {
  expectUnchanged(kPass,
                  R"(main (float[2,3] x) => (float[2,3] y) <float z = {0}> { y = Sub(x, z) })",
                  "the operand is not a constant scalar");
}

TEST(ReplaceWithCheaperOps, KeepsANotWithASecondConsumer) {
  expectUnchanged(kPass,
                  R"(main (bool[2,3] c, float[2,3] a, float[2,3] b) => (float[2,3] y, bool[2,3] n) {
      n = Not(c)
      y = Where(n, a, b) })",
                  "Not output 'n' is a graph output");
}

TEST(ReplaceWithCheaperOps, Converges) {
  expectConverges(kPass, R"(main (float[2,3] x) => (float[2,3] y) <float two = {2}, float z = {0}> {
      p = Pow(x, two)
      m = Sub(z, p)
      y = Max(m, z) })");
}

TEST(ReplaceWithCheaperOps, OutputsStayTheSame) {
  expectSameOutputs(kPass, R"(main (float[3,4] x, bool[3,4] c) => (float[3,4] y, float[3,4] w)
      <float two = {2}, float h = {0.5}, float z = {0}> {
      p = Pow(x, two)
      m = Sub(z, p)
      r = Max(m, z)
      a = Abs(x)
      q = Pow(a, h)
      s = Clip(x, z)
      t = Add(q, s)
      y = Add(r, t)
      n = Not(c)
      w = Where(n, x, q) })");
}

}  // namespace
}  // namespace passlab::testing
