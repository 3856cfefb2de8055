// Normalizations and their statistics outputs.
#include <gtest/gtest.h>

#include "tests/core/analysis/infer_test_util.h"

namespace passlab::analysis {
namespace {

using testing::inferText;

TEST(NormalizationInfer, LayerNormStatisticsKeepLeadingDims) {
  auto r = inferText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    main (float16[B,S,8] x, float16[8] g, float16[8] b) => (float16 y, float m, float v) {
      y, m, v = LayerNormalization <axis = -1> (x, g, b)
    })");
  EXPECT_EQ(r.type("y"), "float16[B,S,8]");
  EXPECT_EQ(r.type("m"), "float[B,S,1]");
  EXPECT_EQ(r.type("v"), "float[B,S,1]");
}

TEST(NormalizationInfer, LayerNormInTheDefaultDomainBeforeOpset17) {
  // Exporters wrote it before it was standard; there is no schema, the rule still applies.
  auto r = inferText(R"(
    <ir_version: 7, opset_import: ["" : 12]>
    main (float[B,S,8] x, float[8] g, float[8] b) => (float y) { y = LayerNormalization(x, g, b) })");
  EXPECT_EQ(r.type("y"), "float[B,S,8]");
  EXPECT_TRUE(r.report.opsWithoutRule.empty());
}

TEST(NormalizationInfer, BatchNormTrainingOutputs) {
  auto r = inferText(R"(
    <ir_version: 8, opset_import: ["" : 15]>
    main (float[N,4,H,W] x, float[4] s, float[4] b, float[4] m, float[4] v) => (float y, float rm, float rv) {
      y, rm, rv = BatchNormalization <training_mode = 1> (x, s, b, m, v)
    })");
  EXPECT_EQ(r.type("y"), "float[N,4,H,W]");
  EXPECT_EQ(r.type("rm"), "float[4]");
  EXPECT_EQ(r.type("rv"), "float[4]");
}

TEST(NormalizationInfer, InstanceNormAndLrnKeepTheShape) {
  auto r = inferText(R"(
    main (float[N,4,H,W] x, float[4] s, float[4] b) => (float y, float l) {
      y = InstanceNormalization(x, s, b)
      l = LRN <size = 3> (y)
    })");
  EXPECT_EQ(r.type("y"), "float[N,4,H,W]");
  EXPECT_EQ(r.type("l"), "float[N,4,H,W]");
}

}  // namespace
}  // namespace passlab::analysis
