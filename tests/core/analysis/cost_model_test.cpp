// The cost model on known shapes: FLOPs of Conv, Gemm, MatMul and friends,
// bytes moved, unknown costs where shapes are symbolic.
#include "core/analysis/cost_model.h"

#include <gtest/gtest.h>

#include "tests/core/analysis/infer_test_util.h"

namespace passlab::analysis {
namespace {

using testing::inferText;

const ir::Node& producerOf(const testing::Inferred& r, const std::string& value) {
  return *r.model.graph().findValue(value)->producer();
}

TEST(CostModel, ConvFlopsAndBytes) {
  auto r = inferText(R"(
    main (float[1,3,224,224] x, float[64,3,7,7] w, float[64] b) => (float y) {
      y = Conv <pads = [3, 3, 3, 3], strides = [2, 2]> (x, w, b)
    })");
  NodeCost c = estimateNodeCost(producerOf(r, "y"));
  EXPECT_TRUE(c.known);
  double out = 1.0 * 64 * 112 * 112;
  EXPECT_DOUBLE_EQ(c.flops, 2 * out * 3 * 7 * 7 + out);  // multiply-adds plus the bias
  EXPECT_EQ(c.bytesRead, 4u * (3 * 224 * 224 + 64 * 3 * 7 * 7 + 64));
  EXPECT_EQ(c.bytesWritten, 4u * 64 * 112 * 112);
}

TEST(CostModel, GroupedConvCountsItsGroupOnly) {
  auto r = inferText(R"(
    main (float[1,32,10,10] x, float[32,1,3,3] w) => (float y) {
      y = Conv <group = 32, pads = [1, 1, 1, 1]> (x, w)
    })");
  EXPECT_DOUBLE_EQ(estimateNodeCost(producerOf(r, "y")).flops, 2.0 * 32 * 10 * 10 * 9);
}

TEST(CostModel, GemmAndMatMul) {
  auto r = inferText(R"(
    main (float[8,512] a, float[1000,512] w, float[1000] b, float[4,12,64,32] q, float[4,12,32,64] k)
      => (float g, float m) {
      g = Gemm <transB = 1> (a, w, b)
      m = MatMul(q, k)
    })");
  EXPECT_DOUBLE_EQ(estimateNodeCost(producerOf(r, "g")).flops, 2.0 * 8 * 1000 * 512 + 8 * 1000);
  EXPECT_DOUBLE_EQ(estimateNodeCost(producerOf(r, "m")).flops, 2.0 * 4 * 12 * 64 * 64 * 32);
}

// Contractions the executor runs on GEMM kernels that are not Conv, Gemm or
// MatMul by name: counted as their multiply-adds, not one FLOP per output
// element (which put attention's Einsum and QGemm under the small-step limit,
// step_threads.h, so they ran on one thread of two).
TEST(CostModel, EinsumQGemmAndFusedConvIntegerCountTheirMultiplyAdds) {
  auto r = inferText(R"(
    main (float[1,12,128,64] q, float[1,12,128,64] k, float[3,4] a, float[4] v,
          uint8[128,768] x, float[] as, uint8[] az, int8[768,768] w, float[] ws, int8[] wz,
          uint8[1,64,30,40] img, int8[32,64,3,3] cw, float[] cs)
      => (float s, float m, float e, float[128,768] g, float[1,32,30,40] c) {
      s = Einsum <equation = "bhqd,bhkd->bhqk"> (q, k)
      m = Einsum <equation = "ij, j -> i"> (a, v)
      e = Einsum <equation = "...ij,...jk->...ik"> (q, k)
      g = com.microsoft.QGemm <transB = 1> (x, as, az, w, ws, wz)
      c = ai.passlab.FusedConvInteger <pads = [1, 1, 1, 1]> (img, cw, az, wz, cs)
    })");
  NodeCost s = estimateNodeCost(producerOf(r, "s"));
  EXPECT_TRUE(s.known);
  EXPECT_DOUBLE_EQ(s.flops, 2.0 * 12 * 128 * 128 * 64);
  EXPECT_DOUBLE_EQ(estimateNodeCost(producerOf(r, "m")).flops, 2.0 * 3 * 4);
  EXPECT_FALSE(estimateNodeCost(producerOf(r, "e")).known);  // an ellipsis: not counted
  EXPECT_DOUBLE_EQ(estimateNodeCost(producerOf(r, "g")).flops, 2.0 * 128 * 768 * 768);
  NodeCost c = estimateNodeCost(producerOf(r, "c"));
  EXPECT_TRUE(c.known);
  EXPECT_DOUBLE_EQ(c.flops, 2.0 * 32 * 30 * 40 * 64 * 3 * 3);
}

TEST(CostModel, ElementwiseReductionsAndDataMovement) {
  auto r = inferText(R"(
    main (float[2,3,4] x) => (float a, float s, float t, float p) {
      a = Relu(x)
      s = ReduceSum <axes = [1]> (x)
      t = Transpose(x)
      p = MaxPool <kernel_shape = [2]> (x)
    })");
  EXPECT_DOUBLE_EQ(estimateNodeCost(producerOf(r, "a")).flops, 24);
  EXPECT_DOUBLE_EQ(estimateNodeCost(producerOf(r, "s")).flops, 24);
  EXPECT_DOUBLE_EQ(estimateNodeCost(producerOf(r, "t")).flops, 0);
  EXPECT_EQ(estimateNodeCost(producerOf(r, "t")).bytesWritten, 96u);
  EXPECT_DOUBLE_EQ(estimateNodeCost(producerOf(r, "p")).flops, 2.0 * 3 * 3 * 2);
}

TEST(CostModel, SymbolicShapesMakeTheCostUnknown) {
  auto r = inferText(R"(
    main (float[N,64] x, float[64,64] w, bool[] c) => (float y, float z) {
      y = MatMul(x, w)
      z = If <then_branch = t () => (float ta) { ta = Relu(w) },
              else_branch = e () => (float ea) { ea = Neg(w) }> (c)
    })");
  NodeCost c = estimateNodeCost(producerOf(r, "y"));
  EXPECT_FALSE(c.known);
  ModelCost m = estimateModelCost(r.model);
  EXPECT_EQ(m.nodesWithUnknownCost, 1u);
  // Both branch bodies counted once: Relu and Neg, 4096 each.
  EXPECT_DOUBLE_EQ(m.flops, 2.0 * 4096);
}

TEST(CostModel, ModelTotalsAddUp) {
  auto r = inferText(R"(
    main (float[1,16] x, float[16,16] w) => (float y) {
      h = MatMul(x, w)
      y = Relu(h)
    })");
  ModelCost m = estimateModelCost(r.model);
  EXPECT_EQ(m.nodesWithUnknownCost, 0u);
  EXPECT_DOUBLE_EQ(m.flops, 2.0 * 16 * 16 + 16);
  EXPECT_EQ(m.bytesWritten, 4u * 16 * 2);
  EXPECT_EQ(m.bytesRead, 4u * (16 + 256 + 16));
}

}  // namespace
}  // namespace passlab::analysis
