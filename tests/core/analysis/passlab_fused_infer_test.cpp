// ai.passlab FusedConv, FusedGemm, FusedElementwise, FusedAttention,
// FusedLayerNorm, FusedSoftmax and FusedConvInteger (channels_last or not): shapes
// and element types (the ops have no schema, so the rules give both), and the
// output of the `fused` level typed on every value.
#include <gtest/gtest.h>

#include "core/passes/registry.h"
#include "core/pipeline/pass_manager.h"
#include "tests/core/analysis/infer_test_util.h"

namespace passlab::analysis {
namespace {

using testing::inferText;

const char* kHeader = R"(<ir_version: 8, opset_import: ["" : 17, "ai.passlab" : 1]>)";

TEST(PasslabFusedInfer, EveryOpGetsShapeAndType) {
  auto r = inferText(std::string(kHeader) + R"(
    main (float[N,3,32,32] x, float[16,3,3,3] w, float[16] b, float[B,S,768] a, float[768,3072] g,
          float[3072] c, float[B,12,S,64] q, float[B,12,64,T] kt, float[B,12,T,64] v,
          bool[B,1,S,T] m, float[16,1,1] s, float[64,768] gt, float[768] ln, float[B,12,S,T] sc,
          float[B,1,1,T] am)
        => (float y1, float y2, float y3, float y4, float y5, float y6, float y7, float y8,
            float y9) {
      y1 = ai.passlab.FusedConv <pads = [1, 1, 1, 1], strides = [2, 2], activation = "Relu"> (x, w, b)
      y2 = ai.passlab.FusedGemm <activation = "Gelu"> (a, g, c)
      y3 = ai.passlab.FusedGemm <transB = 1> (a, gt)
      y4 = ai.passlab.FusedElementwise <ops = ["Mul", "Relu"], operands = [0, 1, -1, 2, -1, -1]> (y1, s)
      y5 = ai.passlab.FusedAttention <scale = 0.125, k_transposed = 1> (q, kt, v, , , m)
      y6 = ai.passlab.FusedAttention (q, v, v)
      y7 = ai.passlab.FusedLayerNorm <axis = -1, epsilon = 1e-5> (a, ln, ln)
      y8, sum = ai.passlab.FusedLayerNorm <axis = -1> (a, ln, , a)
      y9 = ai.passlab.FusedSoftmax <scale = 0.125> (sc, am)
    })");
  EXPECT_TRUE(r.report.failures.empty()) << r.report.failures.front();
  EXPECT_TRUE(r.report.opsWithoutRule.empty()) << r.report.opsWithoutRule.front();
  EXPECT_EQ(r.type("y1"), "float[N,16,16,16]");
  EXPECT_EQ(r.type("y2"), "float[B,S,3072]");
  EXPECT_EQ(r.type("y3"), "float[B,S,64]");
  EXPECT_EQ(r.type("y4"), "float[N,16,16,16]");
  EXPECT_EQ(r.type("y5"), "float[B,12,S,64]");
  EXPECT_EQ(r.type("y6"), "float[B,12,S,64]");
  EXPECT_EQ(r.type("y7"), "float[B,S,768]");
  EXPECT_EQ(r.type("y8"), "float[B,S,768]");
  EXPECT_EQ(r.type("sum"), "float[B,S,768]");
  EXPECT_EQ(r.type("y9"), "float[B,12,S,T]");
}

TEST(PasslabFusedInfer, FusedConvIntegerChannelsFirstAndLast) {
  auto r = inferText(std::string(kHeader) + R"(
    main (uint8[N,3,32,40] x, uint8[N,32,40,3] xl, int8[16,3,3,3] w, uint8 zx, float[16] s)
        => (float y1, float y2) {
      y1 = ai.passlab.FusedConvInteger <pads = [1, 1, 1, 1], strides = [2, 2]> (x, w, zx, , s)
      y2 = ai.passlab.FusedConvInteger <pads = [1, 1, 1, 1], strides = [2, 2], channels_last = 1> (xl, w, zx, , s)
    })");
  EXPECT_TRUE(r.report.failures.empty()) << r.report.failures.front();
  EXPECT_EQ(r.type("y1"), "float[N,16,16,20]");
  EXPECT_EQ(r.type("y2"), "float[N,16,20,16]");
}

TEST(PasslabFusedInfer, MismatchesFail) {
  auto r = inferText(std::string(kHeader) + R"(
    main (float[4,8] a, float[9,3] b, float[1,2,3,4] q, float[1,2,5,6] kt, float[1,2,6,4] v)
        => (float y1, float y2) {
      y1 = ai.passlab.FusedGemm (a, b)
      y2 = ai.passlab.FusedAttention <k_transposed = 1> (q, kt, v)
    })");
  ASSERT_EQ(r.report.failures.size(), 2u);
  EXPECT_NE(r.report.failures[0].find("inner dimensions differ"), std::string::npos);
  EXPECT_NE(r.report.failures[1].find("head sizes"), std::string::npos);
}

TEST(PasslabFusedInfer, FusedLevelOutputIsTypedEverywhere) {
  // Attention, a GEMM with GELU and an elementwise group: after the `fused`
  // level and a fresh inference (declared types forgotten), every value has a
  // dtype and a shape.
  ir::Model m = testing::parse(R"(<ir_version: 8, opset_import: ["" : 13]>
    main (float[1,2,3,4] q, float[1,2,4,5] kt, float[1,2,5,4] v, bool[1,1,3,5] mk, float[3,4] x,
          float[3,4] z) => (float[1,2,3,4] y, float[3,8] h, float[3,4] e)
        <float c = {2}, float f = {-10000}, float[4,8] w = {1,2,3,4,5,6,7,8,1,2,3,4,5,6,7,8,1,2,3,4,5,6,7,8,1,2,3,4,5,6,7,8}, float[8] bb = {1,1,1,1,1,1,1,1}> {
      s0 = MatMul(q, kt)
      s1 = Div(s0, c)
      s2 = Where(mk, s1, f)
      p = Softmax<axis = 3>(s2)
      y = MatMul(p, v)
      g = MatMul(x, w)
      ga = Add(g, bb)
      h = Relu(ga)
      e0 = Mul(x, z)
      e1 = Add(e0, x)
      e = Sigmoid(e1)
    })");
  pipeline::PipelineOptions po;
  po.keepSnapshots = false;
  po.standardOnly = false;
  pipeline::PassManager pm(m, po);
  auto ids = passes::passesForLevel("fused");
  ASSERT_TRUE(ids);
  for (const std::string& id : *ids) {
    auto step = pm.run({id, {}, {}});
    ASSERT_TRUE(step) << id << ": " << step.error().message();
  }
  int fusedNodes = 0;
  for (const auto& n : m.graph().nodes()) fusedNodes += n->domain() == "ai.passlab";
  EXPECT_EQ(fusedNodes, 3);
  testing::clearNodeOutputTypes(m.graph());
  auto report = inferShapes(m);
  EXPECT_TRUE(report.failures.empty());
  EXPECT_TRUE(report.opsWithoutRule.empty());
  for (const auto& n : m.graph().nodes())
    for (const ir::Value* o : n->outputs()) {
      ASSERT_TRUE(o);
      EXPECT_TRUE(o->type().isTensor() && o->type().elemType() == ir::DataType::kFloat &&
                  o->type().hasShape())
          << n->opType() << " " << o->name() << ": " << o->type().toString();
    }
}

}  // namespace
}  // namespace passlab::analysis
