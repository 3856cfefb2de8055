// fuse_gemm_activation: Gemm/MatMul [+ bias] [+ residual] [+ activation] ->
// ai.passlab FusedGemm; batched rows, the GPT-2 form (Gemm, Reshape, tanh
// GELU subgraph), reasons, numerics.
#include <gtest/gtest.h>

#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

const char* kPass = "fuse_gemm_activation";
const std::string kHeader = R"(<ir_version: 9, opset_import: ["" : 20]>)";
const std::string kFusedHeader = R"(<ir_version: 9, opset_import: ["" : 20, "ai.passlab" : 1]>)";
const std::string kInits =
    R"(<float[3,2] w = {1, -1, 0.5, 2, -0.5, 0.25}, float[2] c = {0.1, -0.2}> {
      )";

TEST(FuseGemmActivation, GemmReluKeepsGemmsAttributes) {
  expectRewrite(kPass, kHeader + R"(main (float[4,3] a) => (float[4,2] y)
      <float[2,3] w = {1, -1, 0.5, 2, -0.5, 0.25}, float[2] c = {0.1, -0.2}> {
      t = Gemm <transB = 1, alpha = 0.5> (a, w, c)
      y = Relu(t) })",
                kFusedHeader + R"(main (float[4,3] a) => (float[4,2] y)
      <float[2,3] w = {1, -1, 0.5, 2, -0.5, 0.25}, float[2] c = {0.1, -0.2}> {
      y = ai.passlab.FusedGemm <transB = 1, alpha = 0.5, activation = "Relu"> (a, w, c) })");
}

TEST(FuseGemmActivation, BatchedMatMulBiasGelu) {
  expectRewrite(
      kPass,
      kHeader + R"(main (float[2,4,3] a) => (float[2,4,2] y) )" + kInits +
          R"(t = MatMul(a, w)
      u = Add(t, c)
      y = Gelu(u) })",
      kFusedHeader + R"(main (float[2,4,3] a) => (float[2,4,2] y) )" + kInits +
          R"(y = ai.passlab.FusedGemm <activation = "Gelu", activation_params = [0.0]> (a, w, c) })");
}

TEST(FuseGemmActivation, ResidualThenBiasInEitherOrderWithoutActivation) {
  expectRewrite(kPass,
                kHeader + R"(main (float[2,4,3] a, float[2,4,2] z) => (float[2,4,2] y) )" + kInits +
                    R"(t = MatMul(a, w)
      u = Add(z, t)
      y = Add(u, c) })",
                kFusedHeader + R"(main (float[2,4,3] a, float[2,4,2] z) => (float[2,4,2] y) )" +
                    kInits + R"(y = ai.passlab.FusedGemm (a, w, c, z) })");
}

// GPT-2's MLP: Gemm, a Reshape back to [batch, seq, 4h], the tanh GELU subgraph.
const std::string kGpt2Mlp = kHeader + R"(main (float[4,3] a) => (float[1,4,2] y)
      <float[3,2] w = {1, -1, 0.5, 2, -0.5, 0.25}, float[2] c = {0.1, -0.2}, int64[3] s = {1, 4, 2},
       float half = {0.5}, float three = {3}, float k = {0.044715}, float r = {0.7978846}, float one = {1}> {
      g = Gemm(a, w, c)
      x = Reshape(g, s)
      xh = Mul(x, half)
      p = Pow(x, three)
      pk = Mul(p, k)
      i = Add(x, pk)
      ir = Mul(i, r)
      th = Tanh(ir)
      t1 = Add(th, one)
      y = Mul(xh, t1) })";

TEST(FuseGemmActivation, Gpt2GemmReshapeTanhGelu) {
  expectRewrite(kPass, kGpt2Mlp, kFusedHeader + R"(main (float[4,3] a) => (float[1,4,2] y)
      <float[3,2] w = {1, -1, 0.5, 2, -0.5, 0.25}, float[2] c = {0.1, -0.2}, int64[3] s = {1, 4, 2}> {
      f = ai.passlab.FusedGemm <activation = "Gelu", activation_params = [1.0]> (a, w, c)
      y = Reshape(f, s) })");
}

TEST(FuseGemmActivation, OutputsStayTheSame) {
  expectSameOutputs(kPass, kGpt2Mlp);
  expectSameOutputs(kPass, kHeader +
                               R"(main (float[2,4,3] a, float[2,4,2] z) => (float[2,4,2] y) )" +
                               kInits + R"(t = MatMul(a, w)
      u = Add(t, c)
      v = Add(u, z)
      y = Tanh(v) })");
  expectSameOutputs(kPass, kHeader + R"(main (float[4,3] a, float[3,2] z) => (float[3,2] y)
      <float[4,2] w = {1, -1, 0.5, 2, -0.5, 0.25, 2, 1}, float[3,1] c = {0.1, -0.2, 0.3}> {
      t = Gemm <transA = 1, alpha = 2.0, beta = 0.5> (a, w, c)
      u = Add(t, z)
      y = Sigmoid(u) })");
}

TEST(FuseGemmActivation, Converges) {
  expectConverges(kPass, kGpt2Mlp);
}

TEST(FuseGemmActivation, KeepsABatchedMatMul) {
  expectUnchanged(kPass, kHeader + R"(main (float[2,4,3] q, float[2,3,4] k) => (float[2,4,4] y) {
      t = MatMul(q, k)
      y = Relu(t) })",
                  "MatMul's B has rank 3");
}

TEST(FuseGemmActivation, KeepsAProductWithASecondConsumer) {
  expectUnchanged(kPass, kHeader + R"(main (float[4,3] a) => (float[4,2] y, float[4,2] t)
      <float[3,2] w = {1, -1, 0.5, 2, -0.5, 0.25}> {
      t = MatMul(a, w)
      y = Relu(t) })",
                  "'t' is a graph output");
}

TEST(FuseGemmActivation, KeepsAnAddThatWidensTheProduct) {
  expectUnchanged(kPass, kHeader + R"(main (float[4,3] a, float[5,4,2] z) => (float[5,4,2] y)
      <float[3,2] w = {1, -1, 0.5, 2, -0.5, 0.25}> {
      t = MatMul(a, w)
      y = Add(t, z) })",
                  "widens the product");
}

}  // namespace
}  // namespace passlab::testing
