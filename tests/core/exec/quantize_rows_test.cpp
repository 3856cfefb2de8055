// QuantizeLinear's vector paths (quantize.cpp: 16 lanes of AVX-512F where the
// CPU has it, else 32 floats a step on AVX2, else SSE2, then a scalar tail;
// ctests isa_*_kernels run each) against the formula, element by
// element: y = saturate(round_half_even(x / s) + z), NaN -> 0, in float32.
// Long rows (every path and the tail), ties, values just off ties, +-inf,
// NaN, saturation both ways; uint8 and int8; per tensor and per axis.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "tests/core/exec/kernel_test_util.h"

namespace passlab::exec {
namespace {

// The inputs: ties (k + 0.5) * s, neighbours of ties, large, inf and NaN.
std::vector<float> inputs(int64_t n, float s) {
  std::vector<float> x(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const float k = static_cast<float>(i % 301 - 150);
    switch (i % 7) {
      case 0:
        x[static_cast<size_t>(i)] = (k + 0.5f) * s;
        break;
      case 1:
        x[static_cast<size_t>(i)] = std::nextafter((k + 0.5f) * s, 1e30f);
        break;
      case 2:
        x[static_cast<size_t>(i)] = std::nextafter((k - 0.5f) * s, -1e30f);
        break;
      case 3:
        x[static_cast<size_t>(i)] = k * 3.7f * s;
        break;
      case 4:
        x[static_cast<size_t>(i)] = (i % 2 ? 1 : -1) * 1e30f;
        break;
      case 5:
        x[static_cast<size_t>(i)] = i % 3 == 0   ? std::numeric_limits<float>::quiet_NaN()
                                    : i % 3 == 1 ? std::numeric_limits<float>::infinity()
                                                 : -std::numeric_limits<float>::infinity();
        break;
      default:
        x[static_cast<size_t>(i)] = k * 0.37f;
        break;
    }
  }
  return x;
}

template <class Q>
Q expected(float x, float s, Q z) {
  const float q = x / s;
  if (q != q) return 0;
  const float lo = static_cast<float>(std::numeric_limits<Q>::min());
  const float hi = static_cast<float>(std::numeric_limits<Q>::max());
  const float v = std::nearbyint(std::min(std::max(q, -1e9f), 1e9f)) + static_cast<float>(z);
  return static_cast<Q>(std::min(std::max(v, lo), hi));
}

template <class Q>
void check(const char* type, ir::DataType dt, Q z0, Q z1) {
  const int64_t rows = 2, cols = 1037;  // rows of 1037: 64 x 16 lanes, 13 left
  const std::vector<float> scales{0.0473f, 1.5f};
  std::vector<float> x;
  for (int64_t r = 0; r < rows; ++r) {
    std::vector<float> row = inputs(cols, scales[static_cast<size_t>(r)]);
    x.insert(x.end(), row.begin(), row.end());
  }
  const std::string dims = "[" + std::to_string(rows) + "," + std::to_string(cols) + "]";
  // Per axis 0: each row its scale and zero point.
  const std::string perAxis = "<ir_version: 8, opset_import: [\"\" : 13]>\nmain (float" + dims +
                              " x, float[2] s, " + type + "[2] z) => (" + type + dims +
                              " y) { y = QuantizeLinear <axis = 0> (x, s, z) }";
  auto r = testutil::runText(perAxis, {{"x", kt::f32({rows, cols}, x)},
                                       {"s", kt::f32({2}, scales)},
                                       {"z", ir::Tensor::fromVector<Q>(dt, {2}, {z0, z1})}});
  ASSERT_EQ(r.outputs.size(), 1u);
  auto got = r.outputs[0].template data<Q>();
  for (int64_t i = 0; i < rows * cols; ++i) {
    const size_t row = static_cast<size_t>(i / cols);
    const Q want = expected<Q>(x[static_cast<size_t>(i)], scales[row], row ? z1 : z0);
    ASSERT_EQ(int{got[static_cast<size_t>(i)]}, int{want})
        << "element " << i << " x = " << x[static_cast<size_t>(i)];
  }
  // Per tensor: one scale (runs of 4096 inside the kernel).
  const std::string perTensor = "<ir_version: 8, opset_import: [\"\" : 13]>\nmain (float" + dims +
                                " x, float s, " + type + " z) => (" + type + dims +
                                " y) { y = QuantizeLinear(x, s, z) }";
  auto t = testutil::runText(perTensor, {{"x", kt::f32({rows, cols}, x)},
                                         {"s", kt::f32({}, {scales[0]})},
                                         {"z", ir::Tensor::fromVector<Q>(dt, {}, {z1})}});
  ASSERT_EQ(t.outputs.size(), 1u);
  auto one = t.outputs[0].template data<Q>();
  for (int64_t i = 0; i < rows * cols; ++i)
    ASSERT_EQ(int{one[static_cast<size_t>(i)]},
              int{expected<Q>(x[static_cast<size_t>(i)], scales[0], z1)})
        << "element " << i << " x = " << x[static_cast<size_t>(i)];
}

TEST(QuantizeLinearRows, Uint8EqualsTheFormula) {
  check<uint8_t>("uint8", ir::DataType::kUInt8, 128, 3);
}

TEST(QuantizeLinearRows, Int8EqualsTheFormula) {
  check<int8_t>("int8", ir::DataType::kInt8, 0, -100);
}

}  // namespace
}  // namespace passlab::exec
