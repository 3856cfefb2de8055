// LayerNormalization, RMSNormalization, GroupNormalization,
// MeanVarianceNormalization and LpNormalization (layer_norm.cpp,
// group_norm.cpp, feature_norm.cpp) against direct computations.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/core/exec/op_test_util.h"

namespace passlab::exec {
namespace {

using namespace optest;

// Normalizes rows of `cols` values; rms: no mean subtraction.
std::vector<double> rowNorm(const std::vector<double>& x, size_t cols, double eps, bool rms,
                            const std::vector<double>& w, const std::vector<double>& b,
                            std::vector<double>* means = nullptr,
                            std::vector<double>* invs = nullptr) {
  std::vector<double> y(x.size());
  for (size_t r = 0; r < x.size() / cols; ++r) {
    double m = 0, v = 0;
    for (size_t i = 0; i < cols; ++i) m += x[r * cols + i];
    m = rms ? 0 : m / static_cast<double>(cols);
    for (size_t i = 0; i < cols; ++i) v += (x[r * cols + i] - m) * (x[r * cols + i] - m);
    v /= static_cast<double>(cols);
    double inv = 1 / std::sqrt(v + eps);
    for (size_t i = 0; i < cols; ++i)
      y[r * cols + i] = (x[r * cols + i] - m) * inv * w[i] + (b.empty() ? 0 : b[i]);
    if (means) means->push_back(m);
    if (invs) invs->push_back(inv);
  }
  return y;
}

TEST(LayerNorm, NormalizesTrailingDimsWithStatistics) {
  std::vector<double> xv = ramp(24, -3, 3);
  ir::Tensor x = f32({2, 3, 4}, std::vector<float>(xv.begin(), xv.end()));
  xv = values(x);
  // axis = 1: normalize [3, 4] with a scale of shape [4] broadcast over it.
  std::vector<double> w4 = {0.5, 1, 1.5, 2}, b4 = {0.1, 0.2, 0.3, 0.4};
  std::vector<double> w12, b12;
  for (int r = 0; r < 3; ++r)
    for (int i = 0; i < 4; ++i) {
      w12.push_back(w4[static_cast<size_t>(i)]);
      b12.push_back(b4[static_cast<size_t>(i)]);
    }
  std::vector<double> means, invs;
  std::vector<double> want = rowNorm(xv, 12, 1e-3, false, w12, b12, &means, &invs);
  auto r = runAll({"LayerNormalization",
                   {x, typed(DataType::kFloat, {4}, w4), typed(DataType::kFloat, {4}, b4)},
                   {attrI("axis", -2), attrF("epsilon", 1e-3f)},
                   17,
                   3});
  ASSERT_EQ(r.size(), 3u);
  expectTensor(r[0], DataType::kFloat, {2, 3, 4}, want, 1e-5, 1e-5);
  expectTensor(r[1], DataType::kFloat, {2, 1, 1}, means, 1e-5, 1e-6);
  expectTensor(r[2], DataType::kFloat, {2, 1, 1}, invs, 1e-5, 1e-6);
}

TEST(LayerNorm, Float16NoBiasAndContribOpset) {
  std::vector<double> xv = ramp(8, -1, 1);
  ir::Tensor x = f16({2, 4}, std::vector<float>(xv.begin(), xv.end()));
  std::vector<double> w = {1, 2, 3, 4};
  std::vector<double> want = rowNorm(values(x), 4, 1e-5, false, w, {});
  expectTensor(run1({"LayerNormalization", {x, typed(DataType::kFloat16, {4}, w)}, {}, 17}),
               DataType::kFloat16, {2, 4}, want, 5e-3, 5e-3);
  // onnxruntime's contrib LayerNormalization in the default domain before opset 17.
  ir::Tensor xf = f32({2, 4}, std::vector<float>(xv.begin(), xv.end()));
  expectTensor(run1({"LayerNormalization", {xf, typed(DataType::kFloat, {4}, w)}, {}, 12}),
               DataType::kFloat, {2, 4}, rowNorm(values(xf), 4, 1e-5, false, w, {}), 1e-5, 1e-5);
}

TEST(LayerNorm, BadInputsAreErrors) {
  ir::Tensor x = f32({2, 4}, std::vector<float>(8, 1));
  std::string err = errorOf({"LayerNormalization", {x, f32({3}, {1, 1, 1})}, {}, 17});
  EXPECT_NE(err.find("does not broadcast"), std::string::npos) << err;
  err = errorOf({"LayerNormalization", {x, f32({4}, {1, 1, 1, 1})}, {attrI("axis", 2)}, 17});
  EXPECT_NE(err.find("axis"), std::string::npos) << err;
  err = errorOf({"LayerNormalization", {x, f64({4}, {1, 1, 1, 1})}, {}, 17});
  EXPECT_NE(err.find("type"), std::string::npos) << err;
}

TEST(RMSNorm, ScalesByTheRootMeanSquare) {
  std::vector<double> xv = ramp(12, -2, 2);
  ir::Tensor x = f32({3, 4}, std::vector<float>(xv.begin(), xv.end()));
  std::vector<double> w = {1, 0.5, 2, 1};
  expectTensor(run1({"RMSNormalization", {x, typed(DataType::kFloat, {4}, w)}, {}, 23}),
               DataType::kFloat, {3, 4}, rowNorm(values(x), 4, 1e-5, true, w, {}), 1e-5, 1e-5);
  // axis 0: everything is one row.
  std::vector<double> w12(12, 1.0);
  expectTensor(
      run1({"RMSNormalization", {x, typed(DataType::kFloat, {3, 4}, w12)}, {attrI("axis", 0)}, 23}),
      DataType::kFloat, {3, 4}, rowNorm(values(x), 12, 1e-5, true, w12, {}), 1e-5, 1e-5);
}

TEST(GroupNorm, PerGroupAndPerChannelParameters) {
  // N=1, C=4, spatial 3, 2 groups of 2 channels.
  std::vector<double> xv = ramp(12, -1, 1);
  ir::Tensor x = f32({1, 4, 3}, std::vector<float>(xv.begin(), xv.end()));
  xv = values(x);
  std::vector<double> ones6(6, 1.0);
  std::vector<double> plain = rowNorm(xv, 6, 1e-5, false, ones6, {});
  // Opset 21: scale and bias per channel.
  std::vector<double> sc = {1, 2, 3, 4}, bi = {0, 1, 0, -1};
  std::vector<double> want21(12);
  for (size_t i = 0; i < 12; ++i) want21[i] = plain[i] * sc[i / 3] + bi[i / 3];
  expectTensor(run1({"GroupNormalization",
                     {x, typed(DataType::kFloat, {4}, sc), typed(DataType::kFloat, {4}, bi)},
                     {attrI("num_groups", 2)},
                     21}),
               DataType::kFloat, {1, 4, 3}, want21, 1e-5, 1e-5);
  // Opset 18: per group.
  std::vector<double> sg = {2, 3}, bg = {1, -1};
  std::vector<double> want18(12);
  for (size_t i = 0; i < 12; ++i) want18[i] = plain[i] * sg[i / 6] + bg[i / 6];
  expectTensor(run1({"GroupNormalization",
                     {x, typed(DataType::kFloat, {2}, sg), typed(DataType::kFloat, {2}, bg)},
                     {attrI("num_groups", 2)},
                     18}),
               DataType::kFloat, {1, 4, 3}, want18, 1e-5, 1e-5);
  std::string err = errorOf({"GroupNormalization",
                             {x, f32({4}, {1, 1, 1, 1}), f32({4}, {0, 0, 0, 0})},
                             {attrI("num_groups", 3)},
                             21});
  EXPECT_NE(err.find("groups"), std::string::npos) << err;
  err = errorOf({"GroupNormalization",
                 {x, f32({4}, {1, 1, 1, 1}), f32({4}, {0, 0, 0, 0})},
                 {attrI("num_groups", 2)},
                 18});
  EXPECT_NE(err.find("one per group"), std::string::npos) << err;
}

TEST(GroupNorm, LargeGroupsAgainstDouble) {
  // [2, 6, 37, 29]: 3 groups of 2 channels (2146 elements: two float blocks
  // and a tail, planes not a multiple of the lanes), values around 50 so that
  // the variance must not lose digits to the mean; float32 vector path.
  const size_t C = 6, S = 37 * 29, G = 3, per = C / G;
  std::vector<double> xv = ramp(2 * C * S, -1, 1);
  for (size_t i = 0; i < xv.size(); ++i) xv[i] = 50 + xv[i] * ((i * 7919) % 13 - 6) / 6.0;
  ir::Tensor x = f32({2, 6, 37, 29}, std::vector<float>(xv.begin(), xv.end()));
  xv = values(x);
  std::vector<double> ones(per * S, 1.0);
  const std::vector<double> plain = rowNorm(xv, per * S, 1e-5, false, ones, {});
  const std::vector<double> sc = {1, -2, 0.5, 3, 1.5, -1}, bi = {0, 1, 0.25, -1, 2, 0};
  std::vector<double> want(xv.size());
  for (size_t i = 0; i < want.size(); ++i) want[i] = plain[i] * sc[i / S % C] + bi[i / S % C];
  expectTensor(run1({"GroupNormalization",
                     {x, typed(DataType::kFloat, {6}, sc), typed(DataType::kFloat, {6}, bi)},
                     {attrI("num_groups", 3)},
                     21}),
               DataType::kFloat, {2, 6, 37, 29}, want, 2e-5, 2e-5);
}

TEST(MeanVarianceNorm, DefaultAxesAndCustomAxes) {
  // [N=2, C=2, H=1, W=2]: default axes {0, 2, 3} normalize per channel.
  ir::Tensor x = f32({2, 2, 1, 2}, {1, 2, 10, 20, 3, 4, 30, 40});
  std::vector<double> c0 = {1, 2, 3, 4}, c1 = {10, 20, 30, 40};
  auto norm = [](std::vector<double> v) {
    double m = 0, s = 0;
    for (double a : v) m += a;
    m /= static_cast<double>(v.size());
    for (double a : v) s += (a - m) * (a - m);
    double sd = std::sqrt(s / static_cast<double>(v.size()));
    for (double& a : v) a = (a - m) / (sd + 1e-9);
    return v;
  };
  auto n0 = norm(c0), n1 = norm(c1);
  expectTensor(run1({"MeanVarianceNormalization", {x}, {}, 13}), DataType::kFloat, {2, 2, 1, 2},
               {n0[0], n0[1], n1[0], n1[1], n0[2], n0[3], n1[2], n1[3]}, 1e-5, 1e-5);
  auto rows = norm({1, 2});
  ir::Tensor y = run1({"MeanVarianceNormalization", {x}, {attrInts("axes", {-1})}, 13});
  EXPECT_NEAR(values(y)[0], rows[0], 1e-5);
  EXPECT_NEAR(values(y)[1], rows[1], 1e-5);
}

TEST(LpNorm, L1AndL2AlongAnAxis) {
  ir::Tensor x = f32({2, 2}, {3, -4, 0, 0});
  expectTensor(run1({"LpNormalization", {x}}), DataType::kFloat, {2, 2}, {0.6, -0.8, 0, 0});
  expectTensor(run1({"LpNormalization", {x}, {attrI("p", 1)}}), DataType::kFloat, {2, 2},
               {3.0 / 7, -4.0 / 7, 0, 0});
  expectTensor(run1({"LpNormalization", {x}, {attrI("axis", 0)}}), DataType::kFloat, {2, 2},
               {1, -1, 0, 0});
  std::string err = errorOf({"LpNormalization", {x}, {attrI("p", 3)}});
  EXPECT_NE(err.find("p must be"), std::string::npos) << err;
}

}  // namespace
}  // namespace passlab::exec
