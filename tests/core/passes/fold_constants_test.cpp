// fold_constants: kernel folds through the CPU evaluator, the folds that need
// no kernel, If with a constant condition, the size budget (the onnx_light
// pattern), what is never folded (random ops, quantized weights) with the
// explanation, IR < 4 models, subgraphs, convergence and numerics.
#include <gtest/gtest.h>

#include "tests/support/pass_harness.h"
#include "tests/support/test_support.h"

namespace passlab::testing {
namespace {

const char* kPass = "fold_constants";

// A stand-in for kernels the executor does not have yet: ConstantOfShape.
class ConstantOfShapeEvaluator final : public rewrite::Evaluator {
 public:
  Expected<std::vector<ir::Tensor>> evaluate(const ir::Node& node,
                                             const std::vector<const ir::Tensor*>& inputs,
                                             int64_t) override {
    ++calls;
    if (node.opType() != "ConstantOfShape") return unsupported("only ConstantOfShape");
    std::vector<int64_t> dims = inputs[0]->toInt64Vector();
    float v = node.attr("value")->t.data<float>()[0];
    ir::Tensor t(ir::DataType::kFloat, dims);
    for (float& f : t.mutableData<float>()) f = v;
    return std::vector<ir::Tensor>{std::move(t)};
  }
  int calls = 0;
};

class FailingEvaluator final : public rewrite::Evaluator {
 public:
  Expected<std::vector<ir::Tensor>> evaluate(const ir::Node& node,
                                             const std::vector<const ir::Tensor*>&,
                                             int64_t) override {
    return unsupported("no kernel for " + node.opType() + " in this test");
  }
};

TEST(FoldConstants, ConstantArithmeticWithTheCpuEvaluator) {
  expectRewrite(
      kPass,
      R"(main (float[2] x) => (float[2] y) <float[2] a = {1, 2}, float[2] b = {10, 20}, float[2] c = {2, 2}> {
      s = Add(a, b)
      k = Mul(s, c)
      y = Add(x, k) })",
      R"(main (float[2] x) => (float[2] y) <float[2] k = {22, 44}> { y = Add(x, k) })");
}

TEST(FoldConstants, KeepsTheOutputs) {
  expectSameOutputs(
      kPass,
      R"(main (float[2,3] x) => (float[2,3] y) <float[3] a = {1, 2, 3}, float[3] b = {-1, 0.5, 4}> {
      s = Sub(a, b)
      k = Mul(s, s)
      y = Add(x, k) })");
}

TEST(FoldConstants, ShapeAndSizeOfStaticShapesNeedNoKernel) {
  PassOutcome out = runPass(kPass, R"(main (float[2,3] x, float[6] z) => (float[2,3] y, int64 n) {
      s = Shape(x)
      y = Reshape(z, s)
      n = Size(x) })",
                            {}, nullptr);
  const ir::Graph& g = out.model.graph();
  ASSERT_EQ(g.nodeCount(), 2u);  // the Reshape and the Constant holding the output n
  const ir::Value* shape = g.findValue("y")->producer()->input(1);
  ASSERT_TRUE(shape->isInitializer());
  EXPECT_EQ(shape->initializer()->toInt64Vector(), (std::vector<int64_t>{2, 3}));
  const ir::Value* n = g.outputs()[1];
  EXPECT_EQ(n->name(), "n");
  ASSERT_EQ(n->producer()->opType(), "Constant");
  EXPECT_EQ(n->producer()->attr("value")->t.toInt64Vector(), (std::vector<int64_t>{6}));
}

TEST(FoldConstants, StaticDimsOfAPartlyDynamicShape) {
  PassOutcome out = runPass(
      kPass,
      R"(main (float[N,3,4] x, int64 i, int64[2] j, int64 m) => (int64 u, int64[2] v, int64 w)
      <int64 one = {1}, int64[1] s = {1}, int64[1] e = {3}, int64 zero = {0}> {
      sh = Shape(x)
      c = Gather(sh, one)
      d = Slice(sh, s, e)
      n = Gather(sh, zero)
      u = Add(i, c)
      v = Add(j, d)
      w = Add(m, n) })",
      {}, nullptr);
  const ir::Graph& g = out.model.graph();
  const ir::Value* c = g.findValue("u")->producer()->input(1);
  ASSERT_TRUE(c->isInitializer()) << "Gather(Shape(x), 1) is 3 although dim 0 is N";
  EXPECT_EQ(c->initializer()->dims(), std::vector<int64_t>{});
  EXPECT_EQ(c->initializer()->toInt64Vector(), (std::vector<int64_t>{3}));
  const ir::Value* d = g.findValue("v")->producer()->input(1);
  ASSERT_TRUE(d->isInitializer());
  EXPECT_EQ(d->initializer()->toInt64Vector(), (std::vector<int64_t>{3, 4}));
  // Dim 0 is dynamic: that Gather stays.
  EXPECT_EQ(g.findValue("w")->producer()->input(1)->producer()->opType(), "Gather");
}

TEST(FoldConstants, ReshapesOfConstantsNeedNoKernel) {
  expectRewrite(
      kPass, R"(main (float[2,3] x) => (float[2,3] y) <float[3] b = {1, 2, 3}, int64[1] a = {0}> {
      u = Unsqueeze(b, a)
      y = Add(x, u) })",
      R"(main (float[2,3] x) => (float[2,3] y) <float[1,3] u = {1, 2, 3}> { y = Add(x, u) })");
}

TEST(FoldConstants, ConstantNodesBecomeInitializers) {
  expectRewrite(kPass,
                R"(main (float[2] x) => (float[2] y) { c = Constant <value = float[2] {1, 2}> ()
      y = Add(x, c) })",
                R"(main (float[2] x) => (float[2] y) <float[2] c = {1, 2}> { y = Add(x, c) })");
}

TEST(FoldConstants, ConstantNodesStayWhenAsked) {
  expectUnchanged(kPass,
                  R"(main (float[2] x) => (float[2] y) { c = Constant <value = float[2] {1, 2}> ()
      y = Add(x, c) })",
                  "", {{"constant_nodes_to_initializers", "false"}});
}

TEST(FoldConstants, IrVersion3KeepsConstantsAsNodes) {
  // There every initializer must be a graph input (so overridable): results are Constant nodes.
  PassOutcome out = runPass(kPass, R"(<ir_version: 3, opset_import: ["" : 9]>
    main (float[2] x) => (float[2] y) {
      a = Constant <value = float[2] {1, 2}> ()
      b = Constant <value = float[2] {3, 4}> ()
      k = Add(a, b)
      y = Add(x, k) })");
  const ir::Graph& g = out.model.graph();
  EXPECT_TRUE(g.initializers().empty());
  ASSERT_EQ(g.nodeCount(), 2u);
  const ir::Node* k = g.findValue("y")->producer()->input(1)->producer();
  ASSERT_EQ(k->opType(), "Constant");
  EXPECT_EQ(k->attr("value")->t.toDoubleVector(), (std::vector<double>{4, 6}));
}

TEST(FoldConstants, NeedsAnEvaluatorForKernels) {
  PassOutcome out = runPass(
      kPass, R"(main (float[2] x) => (float[2] y) <float[2] a = {1, 2}, float[2] b = {3, 4}> {
      k = Add(a, b)
      y = Add(x, k) })",
      {}, nullptr);
  EXPECT_FALSE(out.step.changed);
  EXPECT_NE(explainNotes(out).find("no evaluator"), std::string::npos) << explainNotes(out);
}

TEST(FoldConstants, EvaluatorErrorsAreExplained) {
  FailingEvaluator failing;
  PassOutcome out = runPass(
      kPass, R"(main (float[2] x) => (float[2] y) <float[2] a = {1, 2}, float[2] b = {3, 4}> {
      k = Add(a, b)
      y = Add(x, k) })",
      {}, &failing);
  EXPECT_FALSE(out.step.changed);
  EXPECT_NE(explainNotes(out).find("no kernel for Add in this test"), std::string::npos);
}

// The onnx_light_* pattern: weights made by ConstantOfShape from a few bytes.
const char* kLightWeights = R"(main (float[1,3,8,8] x) => (float[1,64,2,2] y)
    <int64[4] shape = {64, 3, 7, 7}> {
      w = ConstantOfShape <value = float[1] {0.02}> (shape)
      y = Conv <strides = [4, 4]> (x, w) })";

TEST(FoldConstants, SizeBudgetKeepsSmallInputsSmall) {
  ConstantOfShapeEvaluator eval;
  PassOutcome out = runPass(kPass, kLightWeights, {}, &eval);
  EXPECT_FALSE(out.step.changed);
  EXPECT_EQ(eval.calls, 0) << "a result known to be too large is not even computed";
  EXPECT_NE(explainNotes(out).find("37632 bytes, more than the budget"), std::string::npos)
      << explainNotes(out);
}

TEST(FoldConstants, SizeBudgetCanBeLifted) {
  ConstantOfShapeEvaluator eval;
  PassOutcome out = runPass(kPass, kLightWeights, {{"max_growth", "inf"}}, &eval);
  const ir::Graph& g = out.model.graph();
  ASSERT_EQ(g.nodeCount(), 1u);
  const ir::Value* w = g.nodes().front()->input(1);
  ASSERT_TRUE(w->isInitializer());
  EXPECT_EQ(w->initializer()->dims(), (std::vector<int64_t>{64, 3, 7, 7}));
  EXPECT_FLOAT_EQ(w->initializer()->data<float>()[100], 0.02f);
  EXPECT_EQ(g.findValue("shape"), nullptr) << "the shape constant became unused";
}

TEST(FoldConstants, NeverFoldsRandomOps) {
  expectUnchanged(kPass, R"(main (float[2] x) => (float[2] y) <float[2] a = {1, 2}> {
      r = RandomUniformLike(a)
      y = Add(x, r) })",
                  "draws random numbers");
}

TEST(FoldConstants, KeepsQuantizedWeights) {
  expectUnchanged(kPass,
                  R"(main (float[4] x) => (float[4] y) <int8[4] q = {1, 2, 3, 4}, float s = {0.5}> {
      w = DequantizeLinear(q, s)
      y = Add(x, w) })",
                  "quantized weight");
}

TEST(FoldConstants, IfWithAConstantConditionIsInlined) {
  expectRewrite(kPass, R"(main (float[2] x) => (float[2] y) <bool c = {1}> {
      t = If <then_branch = g1 () => (float[2] o) <float[2] k = {1, 2}> { r = Relu(x)
                                                                        o = Add(r, k) },
              else_branch = g2 () => (float[2] p) { p = Neg(x) }> (c)
      y = Exp(t) })",
                R"(main (float[2] x) => (float[2] y) <float[2] k = {1, 2}> {
      r = Relu(x)
      o = Add(r, k)
      y = Exp(o) })");
  expectRewrite(kPass, R"(main (float[2] x) => (float[2] y) <bool c = {0}> {
      t = If <then_branch = g1 () => (float[2] o) { o = Relu(x) },
              else_branch = g2 () => (float[2] p) { p = Neg(x) }> (c)
      y = Exp(t) })",
                R"(main (float[2] x) => (float[2] y) { p = Neg(x)
      y = Exp(p) })");
}

TEST(FoldConstants, InlinedBranchIsFoldedToo) {
  expectRewrite(kPass, R"(main (float[2] x) => (float[2] y) <bool c = {1}, float[2] a = {1, 2}> {
      t = If <then_branch = g1 () => (float[2] o) { o = Add(a, a) },
              else_branch = g2 () => (float[2] p) { p = Neg(x) }> (c)
      y = Add(x, t) })",
                R"(main (float[2] x) => (float[2] y) <float[2] o = {2, 4}> { y = Add(x, o) })");
}

TEST(FoldConstants, InlinedBranchThatForwardsAModelInputKeepsTheOutputName) {
  PassOutcome out = runPass(kPass, R"(main (float[2] x) => (float[2] y) <bool c = {1}> {
      y = If <then_branch = g1 () => (float[2] o) { o = Identity(x) },
              else_branch = g2 () => (float[2] p) { p = Neg(x) }> (c) })");
  const ir::Graph& g = out.model.graph();
  EXPECT_EQ(g.outputs()[0]->name(), "y");
  ASSERT_EQ(g.nodeCount(), 1u);
  EXPECT_EQ(g.nodes().front()->opType(), "Identity");
}

TEST(FoldConstants, KeepsIfWhoseBranchHasSubgraphs) {
  expectUnchanged(kPass, R"(main (float[2] x, bool d) => (float[2] y) <bool c = {1}> {
      y = If <then_branch = g1 () => (float[2] o) {
                 o = If <then_branch = h1 () => (float[2] q) { q = Relu(x) },
                         else_branch = h2 () => (float[2] r) { r = Neg(x) }> (d) },
              else_branch = g2 () => (float[2] p) { p = Neg(x) }> (c) })",
                  "inlining those is not supported");
}

TEST(FoldConstants, FoldsInsideSubgraphs) {
  PassOutcome out =
      runPass(kPass, R"(main (float[2] x, bool c) => (float[2] y) <float[2] a = {1, 2}> {
      y = If <then_branch = g1 () => (float[2] o) { k = Add(a, a)
                                                   o = Add(x, k) },
              else_branch = g2 () => (float[2] p) { p = Neg(x) }> (c) })");
  const ir::Graph& branch = *out.model.graph().nodes().front()->subgraphs()[0];
  ASSERT_EQ(branch.nodeCount(), 1u);
  ASSERT_EQ(branch.initializers().size(), 1u);
  EXPECT_EQ(branch.initializers()[0]->initializer()->toDoubleVector(), (std::vector<double>{2, 4}));
}

TEST(FoldConstants, Converges) {
  expectConverges(
      kPass, R"(main (float[2,3] x) => (float[2,3] y) <float[3] a = {1, 2, 3}, int64[1] z = {0}> {
      c = Constant <value = float[3] {1, 1, 1}> ()
      s = Add(a, c)
      u = Unsqueeze(s, z)
      sh = Shape(x)
      k = Reshape(x, sh)
      y = Add(k, u) })");
}

}  // namespace
}  // namespace passlab::testing
