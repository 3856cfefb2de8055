// Shapes, schemas and `info`'s unknown-op list for the removed experimental
// ONNX ops and the QONNX quantizers.
#include <gtest/gtest.h>

#include "core/analysis/model_summary.h"
#include "core/ir/verifier.h"
#include "tests/core/analysis/infer_test_util.h"

namespace passlab::analysis {
namespace {

using testing::inferText;

const char* kLegacyModel = R"(
    <ir_version: 3, opset_import: ["" : 7]>
    main (float[N,3,8,10] x) => (float a, float s, float t, float p, float c1, float c2, float m,
                                 float r, float i, float g, float d, float n, float inv)
    <int64[1] st = {1}, int64[1] en = {3}, int64[1] ax = {3}, float[10] w = {1,1,1,1,1,1,1,1,1,1}> {
      a = Affine <alpha = 2.0, beta = 1.0> (x)
      s = Scale <scale = 0.5> (a)
      t = ScaledTanh <alpha = 1.0, beta = 1.0> (s)
      p = ParametricSoftplus <alpha = 1.0, beta = 1.0> (t)
      c1 = Crop <border = [1, 2, 3, 1]> (p)
      c2 = Crop <border = [1, 2, 0, 0], scale = [4, 5]> (p)
      m = MeanVarianceNormalization <across_channels = 1, normalize_variance = 0> (x)
      r = ThresholdedRelu <alpha = 0.5> (x)
      i = ImageScaler <scale = 2.0, bias = [1.0, 2.0, 3.0]> (x)
      g = GivenTensorFill <shape = [2, 3], values = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> ()
      d = DynamicSlice (x, st, en, ax)
      n, inv = SimplifiedLayerNormalization <axis = -1> (x, w)
    })";

TEST(LegacyOpsInfer, ShapesOfTheExperimentalOps) {
  auto r = inferText(kLegacyModel);
  EXPECT_TRUE(r.report.failures.empty());
  EXPECT_TRUE(r.report.opsWithoutRule.empty());
  EXPECT_EQ(r.type("a"), "float[N,3,8,10]");
  EXPECT_EQ(r.type("p"), "float[N,3,8,10]");
  // Height 8 - top 2 - bottom 1; width 10 - left 1 - right 3.
  EXPECT_EQ(r.type("c1"), "float[N,3,5,6]");
  EXPECT_EQ(r.type("c2"), "float[N,3,4,5]");
  EXPECT_EQ(r.type("m"), "float[N,3,8,10]");
  EXPECT_EQ(r.type("i"), "float[N,3,8,10]");
  EXPECT_EQ(r.type("g"), "float[2,3]");
  EXPECT_EQ(r.type("d"), "float[N,3,8,2]");
  EXPECT_EQ(r.type("n"), "float[N,3,8,10]");
  EXPECT_EQ(r.type("inv"), "float[N,3,8,1]");
}

TEST(LegacyOpsInfer, CropWithABadBorderFails) {
  auto r = inferText(R"(
    <ir_version: 3, opset_import: ["" : 7]>
    main (float[1,3,8,10] x) => (float c) {
      c = Crop <border = [1, 2]> (x)
    })");
  ASSERT_FALSE(r.report.failures.empty());
  EXPECT_NE(r.report.failures[0].find("'border'"), std::string::npos) << r.report.failures[0];
}

TEST(LegacyOpsInfer, InfoListsNoUnknownOps) {
  auto r = inferText(kLegacyModel);
  ModelSummary s = summarize(r.model);
  for (const auto& u : s.unknownOps) ADD_FAILURE() << u.op << ": " << u.reason;
  for (const auto& e : s.verifierErrors) ADD_FAILURE() << e;
}

const char* kQonnxModel = R"(
    <ir_version: 8, opset_import: ["" : 13, "qonnx.custom_op.general" : 2, "onnx.brevitas" : 1]>
    main (float[N,4] x) => (float q, float b, float t, float bq)
    <float[1] sc = {0.5}, float[1] zp = {0.0}, float[1] bw = {8.0}> {
      q = qonnx.custom_op.general.Quant <signed = 1, narrow = 0, rounding_mode = "ROUND"> (x, sc, zp, bw)
      b = qonnx.custom_op.general.BipolarQuant (x, sc)
      t = qonnx.custom_op.general.Trunc <rounding_mode = "FLOOR"> (q, sc, zp, bw, sc, bw)
      bq = onnx.brevitas.Quant (x, sc, zp, bw)
    })";

TEST(QonnxInfer, ShapesAndSchemas) {
  auto r = inferText(kQonnxModel);
  EXPECT_TRUE(r.report.failures.empty());
  EXPECT_TRUE(r.report.opsWithoutRule.empty());
  EXPECT_EQ(r.type("q"), "float[N,4]");
  EXPECT_EQ(r.type("b"), "float[N,4]");
  EXPECT_EQ(r.type("t"), "float[N,4]");
  EXPECT_EQ(r.type("bq"), "float[N,4]");
  ModelSummary s = summarize(r.model);
  for (const auto& u : s.unknownOps) ADD_FAILURE() << u.domain << "." << u.op << ": " << u.reason;
  for (const auto& e : s.verifierErrors) ADD_FAILURE() << e;
}

}  // namespace
}  // namespace passlab::analysis
