// The removed experimental ONNX ops (core/exec/cpu/legacy_ops.cpp), expected
// values worked out by hand from the formulas in onnx/defs/experiments.
#include <gtest/gtest.h>

#include "core/ir/op_schema.h"
#include "tests/core/exec/op_test_util.h"

namespace passlab::exec::optest {
namespace {

Attr attrFloats(std::string n, std::vector<float> v) {
  Attr a(std::move(n), Attr::kFloats);
  a.floats = std::move(v);
  return a;
}

// 1x1x4x4 holding 1..16, row by row.
ir::Tensor image4x4() {
  std::vector<float> v;
  for (int i = 1; i <= 16; ++i) v.push_back(static_cast<float>(i));
  return f32({1, 1, 4, 4}, v);
}

TEST(LegacyOps, Affine) {
  expectTensor(
      run1({"Affine", {f32({3}, {-1, 0, 1.5f})}, {attrF("alpha", 2), attrF("beta", -1)}, 7}),
      DataType::kFloat, {3}, {-3, -1, 2});
  // Defaults alpha = 1, beta = 0: the identity.
  expectTensor(run1({"Affine", {f64({2}, {-1, 0.25})}, {}, 7}), DataType::kDouble, {2}, {-1, 0.25});
}

TEST(LegacyOps, Scale) {
  expectTensor(run1({"Scale", {f32({2}, {2, -4})}, {attrF("scale", 0.5f)}, 7}), DataType::kFloat,
               {2}, {1, -2});
  expectTensor(run1({"Scale", {f32({2}, {2, -4})}, {}, 7}), DataType::kFloat, {2}, {2, -4});
}

TEST(LegacyOps, ScaledTanh) {
  // 2 * tanh(0.5 * +-2) = +-2 tanh(1) = +-1.5231883
  expectTensor(
      run1({"ScaledTanh", {f32({3}, {0, 2, -2})}, {attrF("alpha", 2), attrF("beta", 0.5f)}, 7}),
      DataType::kFloat, {3}, {0, 1.5231883, -1.5231883});
  std::string e = errorOf({"ScaledTanh", {f32({1}, {0})}, {attrF("alpha", 2)}, 7});
  EXPECT_NE(e.find("'beta'"), std::string::npos) << e;
}

TEST(LegacyOps, ParametricSoftplus) {
  // 2 ln(e^x + 1): x = 0 -> 2 ln 2; x = 1 -> 2 * 1.3132617; x = -1 -> 2 * 0.3132617;
  // x = 100 -> 200 (no overflow in exp).
  expectTensor(run1({"ParametricSoftplus",
                     {f32({4}, {0, 1, -1, 100})},
                     {attrF("alpha", 2), attrF("beta", 1)},
                     7}),
               DataType::kFloat, {4}, {1.3862944, 2.6265234, 0.6265234, 200});
  std::string e = errorOf({"ParametricSoftplus", {f32({1}, {0})}, {attrF("beta", 1)}, 7});
  EXPECT_NE(e.find("'alpha'"), std::string::npos) << e;
}

TEST(LegacyOps, ThresholdedReluBeforeOpset10) {
  expectTensor(run1({"ThresholdedRelu", {f32({4}, {0.5f, 1, 1.5f, -2})}, {}, 7}), DataType::kFloat,
               {4}, {0, 0, 1.5, 0});
  expectTensor(run1({"ThresholdedRelu", {f32({4}, {0.5f, 1, 1.5f, -2})}, {attrF("alpha", 0)}, 1}),
               DataType::kFloat, {4}, {0.5, 1, 1.5, 0});
}

TEST(LegacyOps, CropByBorder) {
  // border = [left, top, right, bottom]
  expectTensor(run1({"Crop", {image4x4()}, {attrInts("border", {1, 1, 1, 1})}, 7}),
               DataType::kFloat, {1, 1, 2, 2}, {6, 7, 10, 11});
  expectTensor(run1({"Crop", {image4x4()}, {attrInts("border", {1, 0, 0, 2})}, 7}),
               DataType::kFloat, {1, 1, 2, 3}, {2, 3, 4, 6, 7, 8});
}

TEST(LegacyOps, CropByScale) {
  // A 2x1 window from top 1, left 2: rows 1-2 of column 2.
  expectTensor(
      run1(
          {"Crop", {image4x4()}, {attrInts("border", {2, 1, 0, 0}), attrInts("scale", {2, 1})}, 7}),
      DataType::kFloat, {1, 1, 2, 1}, {7, 11});
}

TEST(LegacyOps, CropRejectsBadBordersAndShapes) {
  std::string e = errorOf({"Crop", {image4x4()}, {attrInts("border", {1, 1, 1})}, 7});
  EXPECT_NE(e.find("'border'"), std::string::npos) << e;
  e = errorOf({"Crop", {image4x4()}, {}, 7});
  EXPECT_NE(e.find("'border'"), std::string::npos) << e;
  e = errorOf({"Crop", {image4x4()}, {attrInts("border", {3, 0, 2, 0})}, 7});
  EXPECT_NE(e.find("does not fit"), std::string::npos) << e;
  e = errorOf(
      {"Crop", {image4x4()}, {attrInts("border", {0, 3, 0, 0}), attrInts("scale", {2, 2})}, 7});
  EXPECT_NE(e.find("does not fit"), std::string::npos) << e;
  e = errorOf(
      {"Crop", {image4x4()}, {attrInts("border", {0, 0, 0, 0}), attrInts("scale", {2})}, 7});
  EXPECT_NE(e.find("'scale'"), std::string::npos) << e;
  e = errorOf(
      {"Crop", {f32({4, 4}, std::vector<float>(16, 1))}, {attrInts("border", {0, 0, 0, 0})}, 7});
  EXPECT_NE(e.find("4-D"), std::string::npos) << e;
}

// x: 1x2x1x2, channel 0 = [1, 3], channel 1 = [2, 6].
ir::Tensor mvnInput() {
  return f32({1, 2, 1, 2}, {1, 3, 2, 6});
}

TEST(LegacyOps, MeanVarianceNormalization1PerChannel) {
  // Channel 0: mean 2, std 1 -> [-1, 1]; channel 1: mean 4, std 2 -> [-1, 1].
  expectTensor(run1({"MeanVarianceNormalization", {mvnInput()}, {}, 7}), DataType::kFloat,
               {1, 2, 1, 2}, {-1, 1, -1, 1});
  // Without the variance: only the mean is removed.
  expectTensor(
      run1({"MeanVarianceNormalization", {mvnInput()}, {attrI("normalize_variance", 0)}, 7}),
      DataType::kFloat, {1, 2, 1, 2}, {-1, 1, -2, 2});
}

TEST(LegacyOps, MeanVarianceNormalization1AcrossChannels) {
  // All four values: mean 3, E[x^2] = 12.5, var 3.5, std 1.8708287.
  expectTensor(run1({"MeanVarianceNormalization", {mvnInput()}, {attrI("across_channels", 1)}, 7}),
               DataType::kFloat, {1, 2, 1, 2}, {-1.0690450, 0, -0.5345225, 1.6035675});
  expectTensor(run1({"MeanVarianceNormalization",
                     {mvnInput()},
                     {attrI("across_channels", 1), attrI("normalize_variance", 0)},
                     7}),
               DataType::kFloat, {1, 2, 1, 2}, {-2, 0, -1, 3});
}

TEST(LegacyOps, MeanVarianceNormalization1RejectsBadAttributes) {
  std::string e =
      errorOf({"MeanVarianceNormalization", {mvnInput()}, {attrI("across_channels", 2)}, 7});
  EXPECT_NE(e.find("'across_channels'"), std::string::npos) << e;
  e = errorOf({"MeanVarianceNormalization", {mvnInput()}, {attrI("normalize_variance", -1)}, 7});
  EXPECT_NE(e.find("'normalize_variance'"), std::string::npos) << e;
  e = errorOf({"MeanVarianceNormalization", {f32({2, 2}, {1, 2, 3, 4})}, {}, 7});
  EXPECT_NE(e.find("4-D"), std::string::npos) << e;
}

TEST(LegacyOps, GivenTensorFill) {
  expectTensor(run1({"GivenTensorFill",
                     {},
                     {attrInts("shape", {2, 2}), attrFloats("values", {1, 2, 3, 4})},
                     7}),
               DataType::kFloat, {2, 2}, {1, 2, 3, 4});
  // The shape from input 0's values, then extra_shape.
  expectTensor(run1({"GivenTensorFill",
                     {f32({2}, {2, 1})},
                     {attrI("input_as_shape", 1), attrInts("extra_shape", {2}),
                      attrFloats("values", {5, 6, 7, 8})},
                     7}),
               DataType::kFloat, {2, 1, 2}, {5, 6, 7, 8});
}

TEST(LegacyOps, GivenTensorFillRejectsMismatchedValues) {
  std::string e = errorOf(
      {"GivenTensorFill", {}, {attrInts("shape", {2, 2}), attrFloats("values", {1, 2, 3})}, 7});
  EXPECT_NE(e.find("'values'"), std::string::npos) << e;
  e = errorOf({"GivenTensorFill", {}, {attrI("input_as_shape", 1), attrFloats("values", {1})}, 7});
  EXPECT_NE(e.find("'shape'"), std::string::npos) << e;
  e = errorOf({"GivenTensorFill", {f32({1}, {-2})}, {attrI("input_as_shape", 1)}, 7});
  EXPECT_NE(e.find("not a dimension"), std::string::npos) << e;
}

TEST(LegacyOps, DynamicSliceTakesInputsAtAnyOpset) {
  const ir::Tensor x = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  // Columns 1..2 of both rows.
  expectTensor(run1({"DynamicSlice", {x, i64({1}, {1}), i64({1}, {3}), i64({1}, {1})}, {}, 7}),
               DataType::kFloat, {2, 2}, {2, 3, 5, 6});
  // Without axes: one axis per start, row 0, column 1.
  expectTensor(run1({"DynamicSlice", {x, i32({2}, {0, 1}), i32({2}, {1, 2})}, {}, 7}),
               DataType::kFloat, {1, 1}, {2});
  std::string e = errorOf({"DynamicSlice", {x, i64({2}, {0, 1}), i64({1}, {1})}, {}, 7});
  EXPECT_NE(e.find("different lengths"), std::string::npos) << e;
}

TEST(LegacyOps, SimplifiedLayerNormalizationIsRmsNorm) {
  // Row [3, 4]: mean(x^2) = 12.5, 1 / sqrt(12.5) = 0.28284271; y = x * that * scale.
  auto outs = runAll({"SimplifiedLayerNormalization",
                      {f32({1, 2}, {3, 4}), f32({2}, {2, 0.5f})},
                      {attrF("epsilon", 0)},
                      13,
                      2});
  ASSERT_EQ(outs.size(), 2u);
  expectTensor(outs[0], DataType::kFloat, {1, 2}, {1.6970563, 0.5656854});
  expectTensor(outs[1], DataType::kFloat, {1, 1}, {0.28284271});
  // Default epsilon 1e-5 on a zero row: 0 / sqrt(1e-5) = 0, not NaN.
  expectTensor(
      run1({"SimplifiedLayerNormalization", {f32({1, 2}, {0, 0}), f32({2}, {1, 1})}, {}, 13}),
      DataType::kFloat, {1, 2}, {0, 0});
  std::string e =
      errorOf({"SimplifiedLayerNormalization", {f32({1, 2}, {3, 4}), f64({2}, {1, 1})}, {}, 13});
  EXPECT_NE(e.find("scale"), std::string::npos) << e;
}

TEST(LegacyOps, ErrorsNameTheNode) {
  std::string e = errorOf({"Crop", {image4x4()}, {}, 7});
  EXPECT_NE(e.find("Crop"), std::string::npos) << e;
}

TEST(LegacyOps, SchemasAreKnown) {
  const auto& reg = ir::OpRegistry::instance();
  for (const char* op : {"Affine", "Crop", "DynamicSlice", "GivenTensorFill", "ImageScaler",
                         "ParametricSoftplus", "Scale", "ScaledTanh"}) {
    const ir::OpSchema* s = reg.find("", op, 7);
    ASSERT_NE(s, nullptr) << op;
    EXPECT_TRUE(s->deprecated) << op;
  }
  const ir::OpSchema* mvn = reg.find("", "MeanVarianceNormalization", 8);
  ASSERT_NE(mvn, nullptr);
  EXPECT_EQ(mvn->sinceVersion, 1);
  EXPECT_NE(mvn->attr("across_channels"), nullptr);
  // The standard versions still win from their own opset on.
  EXPECT_EQ(reg.find("", "MeanVarianceNormalization", 9)->sinceVersion, 9);
  EXPECT_EQ(reg.find("", "ThresholdedRelu", 9)->sinceVersion, 1);
  EXPECT_EQ(reg.find("", "ThresholdedRelu", 10)->sinceVersion, 10);
}

// BatchNormalization-6 (PyTorch 0.3's exports): inference with is_test = 1,
// y = (x - mean) / sqrt(var + eps) * scale + B per channel.
TEST(LegacyOps, BatchNormalizationOpset6Inference) {
  expectTensor(run1({"BatchNormalization",
                     {f32({1, 2, 1, 2}, {1, 3, 2, 6}), f32({2}, {2, 1}), f32({2}, {0, 1}),
                      f32({2}, {1, 2}), f32({2}, {4, 16})},
                     {attrI("is_test", 1), attrF("epsilon", 0)},
                     6}),
               DataType::kFloat, {1, 2, 1, 2}, {0, 2, 1, 2});
}

TEST(LegacyOps, BatchNormalizationOpset6TrainingIsAClearError) {
  std::string e =
      errorOf({"BatchNormalization",
               {f32({1, 1, 1, 1}, {1}), f32({1}, {1}), f32({1}, {0}), f32({1}, {0}), f32({1}, {1})},
               {},
               6});
  EXPECT_NE(e.find("is_test = 0"), std::string::npos) << e;
}

// Gemm-6: C broadcast along the rows (broadcast = 1).
TEST(LegacyOps, GemmOpset6) {
  expectTensor(run1({"Gemm",
                     {f32({2, 2}, {1, 2, 3, 4}), f32({2, 1}, {1, 1}), f32({1}, {10})},
                     {attrI("broadcast", 1)},
                     6}),
               DataType::kFloat, {2, 1}, {13, 17});
}

}  // namespace
}  // namespace passlab::exec::optest
