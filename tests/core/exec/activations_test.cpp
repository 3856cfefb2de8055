// Activations (activations.cpp) against their formulas, with attributes,
// float16, PRelu's broadcast slope and bad attributes.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <tuple>
#include <vector>

#include "tests/core/exec/op_test_util.h"

namespace passlab::exec {
namespace {

using namespace optest;

const std::vector<double> kX = {-3.0, -1.0, -0.25, 0.0, 0.25, 1.0, 2.5, 8.0};

std::vector<double> mapValues(const std::vector<double>& x,
                              const std::function<double(double)>& f) {
  std::vector<double> y;
  for (double v : x) y.push_back(f(v));
  return y;
}

void check(const Call& c, const std::function<double(double)>& ref) {
  SCOPED_TRACE(c.op);
  for (DataType dt : {DataType::kFloat, DataType::kDouble, DataType::kFloat16}) {
    Call call = c;
    call.inputs = {typed(dt, {2, 4}, kX)};
    ir::Tensor y = run1(call);
    bool half = dt == DataType::kFloat16;
    expectTensor(y, dt, {2, 4}, mapValues(values(*call.inputs[0]), ref), half ? 5e-3 : 1e-6,
                 half ? 5e-3 : 1e-6);
  }
}

double sigmoid(double x) {
  return 1 / (1 + std::exp(-x));
}

TEST(Activations, MatchTheirFormulas) {
  check({"HardSigmoid"}, [](double x) { return std::clamp(0.2 * x + 0.5, 0.0, 1.0); });
  check({"HardSigmoid", {}, {attrF("alpha", 0.5f), attrF("beta", 0.25f)}},
        [](double x) { return std::clamp(0.5 * x + 0.25, 0.0, 1.0); });
  check({"HardSwish"}, [](double x) { return x * std::clamp(x / 6 + 0.5, 0.0, 1.0); });
  check({"Softplus"}, [](double x) { return std::log1p(std::exp(x)); });
  check({"Softsign"}, [](double x) { return x / (1 + std::fabs(x)); });
  check({"Elu"}, [](double x) { return x < 0 ? std::exp(x) - 1 : x; });
  check({"Elu", {}, {attrF("alpha", 2.0f)}},
        [](double x) { return x < 0 ? 2 * (std::exp(x) - 1) : x; });
  check({"Selu"}, [](double x) {
    const double a = 1.67326319217681884765625, g = 1.05070102214813232421875;
    return x > 0 ? g * x : g * a * (std::exp(x) - 1);
  });
  check({"Celu", {}, {attrF("alpha", 2.0f)}},
        [](double x) { return std::max(0.0, x) + std::min(0.0, 2 * (std::exp(x / 2) - 1)); });
  check({"LeakyRelu"}, [](double x) { return x < 0 ? 0.01 * x : x; });
  check({"LeakyRelu", {}, {attrF("alpha", 0.1f)}}, [](double x) { return x < 0 ? 0.1 * x : x; });
  check({"ThresholdedRelu"}, [](double x) { return x > 1 ? x : 0; });
  check({"ThresholdedRelu", {}, {attrF("alpha", 0.0f)}}, [](double x) { return x > 0 ? x : 0; });
  check({"Mish"}, [](double x) { return x * std::tanh(std::log1p(std::exp(x))); });
  check({"Gelu"}, [](double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); });
  check({"Gelu", {}, {attrS("approximate", "tanh")}}, [](double x) {
    return 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
  });
  check({"Swish", {}, {}, 24}, [](double x) { return x * sigmoid(x); });
  check({"Swish", {}, {attrF("alpha", 2.0f)}, 24}, [](double x) { return x * sigmoid(2 * x); });
  check({"Shrink"}, [](double x) { return x < -0.5 ? x : (x > 0.5 ? x : 0); });
  check({"Shrink", {}, {attrF("lambd", 1.0f), attrF("bias", 0.5f)}},
        [](double x) { return x < -1 ? x + 0.5 : (x > 1 ? x - 0.5 : 0); });
}

// Selu and Swish on float32 (eluRow and sigmoidRow, vectorized) against
// the formulas in double over a dense sweep of [-20, 20], +-0, +-inf, NaN.
TEST(Activations, SeluAndSwishRowsMatchDoubleDensely) {
  std::vector<float> x;
  for (int i = 0; i <= 40000; ++i) x.push_back(-20.0f + 40.0f * static_cast<float>(i) / 40000);
  x.insert(x.end(), {0.0f, -0.0f, 1e-30f, -1e-30f, INFINITY, -INFINITY, NAN});
  const int64_t n = static_cast<int64_t>(x.size());
  const double a = 1.67326319217681884765625, g = 1.05070102214813232421875;
  auto selu = [&](double v) { return v > 0 ? g * v : (v == 0 ? 0.0 : g * a * std::expm1(v)); };
  auto swish = [](double v) { return v * (1 / (1 + std::exp(-2 * v))); };  // alpha 2
  const ir::Tensor se = run1({"Selu", {f32({n}, x)}});
  const ir::Tensor sw = run1({"Swish", {f32({n}, x)}, {attrF("alpha", 2.0f)}, 24});
  for (auto [y, ref, name] : {std::tuple{&se, std::function<double(double)>(selu), "Selu"},
                              std::tuple{&sw, std::function<double(double)>(swish), "Swish"}}) {
    const auto got = y->data<float>();
    ASSERT_EQ(got.size(), x.size());
    for (size_t i = 0; i < x.size(); ++i) {
      const double want = ref(x[i]);
      if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(got[i])) << name << " x = " << x[i];
      } else if (std::isinf(want) || want == 0) {
        EXPECT_EQ(got[i], static_cast<float>(want)) << name << " x = " << x[i];
        EXPECT_EQ(std::signbit(got[i]), std::signbit(static_cast<float>(want))) << name;
      } else {
        EXPECT_LE(std::fabs(got[i] - want), 1e-6 * std::fabs(want)) << name << " x = " << x[i];
      }
    }
  }
}

// Celu on float32 (eluRow on x / alpha, vectorized) against the formula in
// double over the same sweep, for an alpha whose division is exact and one
// whose is not.
TEST(Activations, CeluRowMatchesDoubleDensely) {
  std::vector<float> x;
  for (int i = 0; i <= 40000; ++i) x.push_back(-20.0f + 40.0f * static_cast<float>(i) / 40000);
  x.insert(x.end(), {0.0f, -0.0f, 1e-30f, -1e-30f, INFINITY, -INFINITY, NAN});
  const int64_t n = static_cast<int64_t>(x.size());
  for (float alpha : {2.0f, 0.3f}) {
    const double a = alpha;
    const ir::Tensor y = run1({"Celu", {f32({n}, x)}, {attrF("alpha", alpha)}});
    const auto got = y.data<float>();
    ASSERT_EQ(got.size(), x.size());
    for (size_t i = 0; i < x.size(); ++i) {
      const double v = x[i];
      const double want = v > 0 ? v : a * std::expm1(v / a);
      if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(got[i])) << alpha << " x = " << v;
      } else if (std::isinf(want) || want == 0) {
        EXPECT_EQ(got[i], static_cast<float>(want)) << alpha << " x = " << v;
        EXPECT_EQ(std::signbit(got[i]), std::signbit(want)) << alpha << " x = " << v;
      } else {
        EXPECT_LE(std::fabs(got[i] - want), 1e-6 * std::fabs(want)) << alpha << " x = " << v;
      }
    }
  }
}

TEST(Activations, SoftplusDoesNotOverflow) {
  expectTensor(run1({"Softplus", {f32({2}, {100.0f, -100.0f})}}), DataType::kFloat, {2},
               {100.0, std::exp(-100.0)});
}

TEST(Activations, ShrinkTakesIntegers) {
  expectTensor(
      run1({"Shrink", {i32({5}, {-3, -1, 0, 1, 3})}, {attrF("lambd", 1.5f), attrF("bias", 1.0f)}}),
      DataType::kInt32, {5}, {-2, 0, 0, 0, 2});
}

TEST(Activations, GeluRejectsAnUnknownApproximation) {
  std::string err = errorOf({"Gelu", {f32({1}, {1})}, {attrS("approximate", "fast")}});
  EXPECT_NE(err.find("approximate"), std::string::npos) << err;
}

TEST(Activations, PReluBroadcastsTheSlope) {
  ir::Tensor x = f32({2, 3, 2}, {-1, 1, -2, 2, -3, 3, -4, 4, -5, 5, -6, 6});
  // A slope per channel, [3, 1], broadcast over the last dim.
  ir::Tensor y = run1({"PRelu", {x, f32({3, 1}, {0.1f, 0.2f, 0.3f})}});
  expectTensor(y, DataType::kFloat, {2, 3, 2},
               {-0.1, 1, -0.4, 2, -0.9, 3, -0.4, 4, -1.0, 5, -1.8, 6});
  // A scalar slope and integer inputs (opset 16).
  expectTensor(run1({"PRelu", {i32({3}, {-4, 0, 4}), i32({}, {2})}, {}, 16}), DataType::kInt32, {3},
               {-8, 0, 4});
}

TEST(Activations, PReluLegacyChannelSlope) {
  // Opset 6: a 1-D slope of the channel count runs along axis 1.
  ir::Tensor x = f32({1, 2, 2}, {-1, -1, -1, -1});
  expectTensor(run1({"PRelu", {x, f32({2}, {0.5f, 2.0f})}, {}, 6}), DataType::kFloat, {1, 2, 2},
               {-0.5, -0.5, -2, -2});
}

TEST(Activations, PReluRejectsASlopeThatWidensX) {
  std::string err = errorOf({"PRelu", {f32({3}, {1, 2, 3}), f32({2, 3}, {1, 1, 1, 1, 1, 1})}});
  EXPECT_NE(err.find("does not broadcast"), std::string::npos) << err;
  err = errorOf({"PRelu", {f32({3}, {1, 2, 3}), f64({1}, {1})}});
  EXPECT_NE(err.find("type"), std::string::npos) << err;
}

}  // namespace
}  // namespace passlab::exec
