// fuse_passlab_attention: MatMul(Q, Kt) -> scale -> masks -> Softmax -> MatMul(., V)
// -> one ai.passlab FusedAttention; the GPT-2 (Where), BERT (Add) and Megatron
// (Mul, Sub) mask forms, scales on the operands, Shape readers of the scores,
// numerics, convergence and the near misses.
#include <gtest/gtest.h>

#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

const char* kPass = "fuse_passlab_attention";
const std::string kHeader = R"(<ir_version: 8, opset_import: ["" : 13]>)";
const std::string kFusedHeader = R"(<ir_version: 8, opset_import: ["" : 13, "ai.passlab" : 1]>)";

// GPT-2 as ort_gpt2_past writes it: Div by sqrt(H) after the product, a causal
// Where with -10000.
const std::string kGpt2 =
    kHeader +
    R"(main (float[1,2,3,4] q, float[1,2,4,5] kt, float[1,2,5,4] v, bool[1,1,3,5] m) => (float[1,2,3,4] y)
    <float c = {2}, float f = {-10000}> {
    s0 = MatMul(q, kt)
    s1 = Div(s0, c)
    s2 = Where(m, s1, f)
    p = Softmax<axis = 3>(s2)
    y = MatMul(p, v) })";

TEST(FusePasslabAttention, Gpt2CausalWhere) {
  expectRewrite(
      kPass, kGpt2,
      kFusedHeader +
          R"(main (float[1,2,3,4] q, float[1,2,4,5] kt, float[1,2,5,4] v, bool[1,1,3,5] m) => (float[1,2,3,4] y) {
    y = ai.passlab.FusedAttention<scale = 0.5, k_transposed = 1, mask_filter_value = -10000.0>(q, kt, v, , , m) })");
}

// BERT: scale on Q, additive mask [B, 1, 1, T].
const std::string kBert =
    kHeader +
    R"(main (float[2,3,4,8] q, float[2,3,8,4] kt, float[2,3,4,8] v, float[2,1,1,4] a) => (float[2,3,4,8] y)
    <float c = {0.25}> {
    qs = Mul(q, c)
    s0 = MatMul(qs, kt)
    s1 = Add(a, s0)
    p = Softmax<axis = -1>(s1)
    y = MatMul(p, v) })";

TEST(FusePasslabAttention, BertScaledQueryAndAdditiveMask) {
  expectRewrite(
      kPass, kBert,
      kFusedHeader +
          R"(main (float[2,3,4,8] q, float[2,3,8,4] kt, float[2,3,4,8] v, float[2,1,1,4] a) => (float[2,3,4,8] y) {
    y = ai.passlab.FusedAttention<scale = 0.25, k_transposed = 1>(q, kt, v, , a) })");
}

// Megatron: Div on both operands, s * m - 10000 * (1 - m), the scores' Shape read.
const std::string kMegatron =
    kHeader +
    R"(main (float[B,2,S,4] q, float[B,2,4,T] kt, float[B,2,T,4] v, float[B,1,S,T] m) => (float[B,2,S,4] y, int64[4] sh)
    <float c = {1.41421356}, float one = {1}, float k = {10000}> {
    qs = Div(q, c)
    ks = Div(kt, c)
    s0 = MatMul(qs, ks)
    sh = Shape(s0)
    s1 = Mul(s0, m)
    om = Sub(one, m)
    km = Mul(om, k)
    s2 = Sub(s1, km)
    p = Softmax<axis = 3>(s2)
    y = MatMul(p, v) })";

TEST(FusePasslabAttention, MegatronMasksAndShapeReader) {
  PassOutcome out = runPass(kPass, kMegatron);
  ASSERT_TRUE(out.step.changed);
  int fused = 0, matmuls = 0, softmax = 0, shapes = 0;
  for (const auto& n : out.model.graph().nodes()) {
    fused += n->opType() == "FusedAttention";
    matmuls += n->opType() == "MatMul";
    softmax += n->opType() == "Softmax";
    shapes += n->opType() == "Shape";
    if (n->opType() == "FusedAttention") {
      EXPECT_EQ(n->inputCount(), 5u);
      EXPECT_EQ(n->input(0)->name(), "q");
      EXPECT_EQ(n->input(3)->name(), "m");
      EXPECT_EQ(n->attrInt("mask_subtract", 0), 1);
      EXPECT_NEAR(n->attrFloat("scale", 0), 0.5, 1e-6);
    }
  }
  EXPECT_EQ(fused, 1);
  EXPECT_EQ(matmuls, 0);
  EXPECT_EQ(softmax, 0);
  EXPECT_EQ(shapes, 2);  // Shape(q) and Shape(kt), sliced and concatenated
}

TEST(FusePasslabAttention, OutputsStayTheSame) {
  expectSameOutputs(kPass, kBert);
  expectSameOutputs(kPass, kMegatron);
  // A random bool mask may mask a whole row: the chain and the kernel both give the mean of V.
  expectSameOutputs(kPass, kGpt2);
  // Shape readers before opset 15 (Slice) and from 15 (Shape start/end).
  for (const char* opset : {"11", "17"})
    expectSameOutputs(kPass, std::string(R"(<ir_version: 8, opset_import: ["" : )") + opset +
                                 R"(]>
main (float[B,2,S,4] q, float[B,2,4,T] kt, float[B,2,T,4] v) => (float[B,2,S,4] y, int64[2] st)
    <float c = {2}, int64[1] i = {2}> {
    s0 = MatMul(q, kt)
    s1 = Div(s0, c)
    sh = Shape(s1)
    st = Slice(sh, i, i)
    p = Softmax<axis = 3>(s1)
    y = MatMul(p, v) })");
}

TEST(FusePasslabAttention, PaddingMaskComputedByAMul) {
  // ort_gpt2_past_mask_one_layer: s + (1 - m) * -10000 with m [B, 1, 1, T]; both
  // operands of the Add come from a Mul, the scores are the one of the result's shape.
  const std::string text =
      kHeader +
      R"(main (float[B,2,S,4] q, float[B,2,4,T] kt, float[B,2,T,4] v, float[B,1,1,T] m) => (float[B,2,S,4] y)
    <float c = {0.5}, float one = {1}, float k = {-10000}> {
    s0 = MatMul(q, kt)
    s1 = Mul(s0, c)
    om = Sub(one, m)
    km = Mul(om, k)
    s2 = Add(km, s1)
    p = Softmax<axis = -1>(s2)
    y = MatMul(p, v) })";
  EXPECT_TRUE(runPass(kPass, text).step.changed);
  expectSameOutputs(kPass, text);
}

TEST(FusePasslabAttention, Gpt2PaddingMaskAddedAfterTheWhere) {
  // ort_gpt2_past_mask_one_layer: Where(causal, s / 8, -10000) + (1 - m) * -10000.
  const std::string text =
      kHeader +
      R"(main (float[1,2,3,4] q, float[1,2,4,5] kt, float[1,2,5,4] v, bool[1,1,3,5] b, float[1,1,1,5] m) => (float[1,2,3,4] y)
    <float c = {2}, float f = {-10000}, float one = {1}, float k = {-10000}> {
    s0 = MatMul(q, kt)
    s1 = Div(s0, c)
    s2 = Where(b, s1, f)
    om = Sub(one, m)
    km = Mul(om, k)
    s3 = Add(s2, km)
    p = Softmax<axis = -1>(s3)
    y = MatMul(p, v) })";
  expectRewrite(
      kPass, text,
      kFusedHeader +
          R"(main (float[1,2,3,4] q, float[1,2,4,5] kt, float[1,2,5,4] v, bool[1,1,3,5] b, float[1,1,1,5] m) => (float[1,2,3,4] y)
    <float one = {1}, float k = {-10000}> {
    om = Sub(one, m)
    km = Mul(om, k)
    y = ai.passlab.FusedAttention<scale = 0.5, k_transposed = 1, mask_filter_value = -10000.0, mask_add_after_bool = 1>(q, kt, v, , km, b) })");
  expectSameOutputs(kPass, text);
}

TEST(FusePasslabAttention, Converges) {
  expectConverges(kPass, kGpt2);
  expectConverges(kPass, kMegatron);
}

TEST(FusePasslabAttention, KeepsScoresWithAnotherConsumer) {
  expectUnchanged(
      kPass,
      kHeader +
          R"(main (float[1,2,3,4] q, float[1,2,4,5] kt, float[1,2,5,4] v) => (float[1,2,3,4] y, float[1,2,3,5] r)
    <float c = {2}> {
    s0 = MatMul(q, kt)
    s1 = Div(s0, c)
    r = Relu(s1)
    p = Softmax<axis = -1>(s1)
    y = MatMul(p, v) })",
      "has another consumer");
}

TEST(FusePasslabAttention, KeepsScoresThatAreAGraphOutput) {
  expectUnchanged(
      kPass,
      kHeader +
          R"(main (float[1,2,3,4] q, float[1,2,4,5] kt, float[1,2,5,4] v) => (float[1,2,3,4] y, float[1,2,3,5] s0) {
    s0 = MatMul(q, kt)
    p = Softmax<axis = -1>(s0)
    y = MatMul(p, v) })",
      "is a graph output");
}

TEST(FusePasslabAttention, KeepsProbabilitiesReadElsewhere) {
  expectUnchanged(
      kPass,
      kHeader +
          R"(main (float[1,2,3,4] q, float[1,2,4,5] kt, float[1,2,5,4] v) => (float[1,2,3,4] y, float[1,2,3,5] p) {
    s0 = MatMul(q, kt)
    p = Softmax<axis = -1>(s0)
    y = MatMul(p, v) })",
      "the probabilities are a graph output");
}

TEST(FusePasslabAttention, KeepsScoresReadInASubgraph) {
  expectUnchanged(
      kPass,
      kHeader +
          R"(main (float[1,2,3,4] q, float[1,2,4,5] kt, float[1,2,5,4] v, bool b) => (float[1,2,3,4] y, float[1,2,3,5] z) {
    s0 = MatMul(q, kt)
    p = Softmax<axis = -1>(s0)
    y = MatMul(p, v)
    z = If <then_branch = g1 () => (float[1,2,3,5] t) { t = Identity(s0) },
            else_branch = g2 () => (float[1,2,3,5] e) { e = Neg(s0) }> (b) })",
      "used inside a subgraph");
}

TEST(FusePasslabAttention, KeepsSoftmaxOverAnotherAxis) {
  expectUnchanged(
      kPass,
      kHeader +
          R"(main (float[1,2,3,4] q, float[1,2,4,3] kt, float[1,2,3,4] v) => (float[1,2,3,4] y) {
    s0 = MatMul(q, kt)
    p = Softmax<axis = 2>(s0)
    y = MatMul(p, v) })",
      "not over the last axis");
}

TEST(FusePasslabAttention, KeepsAMaskThatWidensTheScores) {
  expectUnchanged(
      kPass,
      kHeader +
          R"(main (float[1,1,3,4] q, float[1,1,4,5] kt, float[1,1,5,4] v, float[2,1,3,5] a) => (float[2,1,3,4] y) {
    s0 = MatMul(q, kt)
    s1 = Add(s0, a)
    p = Softmax<axis = -1>(s1)
    y = MatMul(p, v) })",
      "does not have the scores' shape");
}

TEST(FusePasslabAttention, KeepsOtherDtypes) {
  expectUnchanged(
      kPass,
      kHeader +
          R"(main (double[1,2,3,4] q, double[1,2,4,5] kt, double[1,2,5,4] v) => (double[1,2,3,4] y) {
    s0 = MatMul(q, kt)
    p = Softmax<axis = -1>(s0)
    y = MatMul(p, v) })",
      "not on float32");
}

}  // namespace
}  // namespace passlab::testing
