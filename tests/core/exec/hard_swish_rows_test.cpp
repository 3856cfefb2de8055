// HardSwish on float32 through its vector paths (activations.cpp: 16 lanes of
// AVX-512F where the CPU has it, else 8 of AVX2, else SSE2, then the scalar
// tail; ctests isa_*_kernels run each) against the
// scalar formula of the same float32 operations, bit for bit: a long row
// (every path and the tail) of ordinary values, the clamp edges (-3, 3),
// -0, +-inf, NaN and large magnitudes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "tests/core/exec/exec_test_util.h"

namespace passlab::exec {
namespace {

float formula(float x) {
  float v = x / 6.0f + 0.5f;
  v = v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
  return x * v;
}

TEST(HardSwishRows, EqualsTheScalarFormulaBitForBit) {
  const int64_t n = 1037;  // 64 x 16 lanes, 13 left
  std::vector<float> x(static_cast<size_t>(n));
  const float special[] = {-0.0f,
                           0.0f,
                           -3.0f,
                           3.0f,
                           std::nextafter(-3.0f, 0.0f),
                           std::nextafter(3.0f, 0.0f),
                           std::numeric_limits<float>::infinity(),
                           -std::numeric_limits<float>::infinity(),
                           std::numeric_limits<float>::quiet_NaN(),
                           3e38f,
                           -3e38f,
                           1e-40f};
  for (int64_t i = 0; i < n; ++i)
    x[static_cast<size_t>(i)] =
        i % 5 == 0 ? special[(i / 5) % 12] : static_cast<float>(i % 397 - 198) * 0.0371f;
  const std::string text = R"(<ir_version: 8, opset_import: ["" : 14]>
main (float[1037] x) => (float[1037] y) { y = HardSwish(x) })";
  RunResult r = testutil::runText(text, {{"x", testutil::floats({n}, x)}});
  ASSERT_EQ(r.outputs.size(), 1u);
  auto got = r.outputs[0].data<float>();
  for (int64_t i = 0; i < n; ++i) {
    const float want = formula(x[static_cast<size_t>(i)]);
    uint32_t a, b;
    std::memcpy(&a, &got[static_cast<size_t>(i)], 4);
    std::memcpy(&b, &want, 4);
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(got[static_cast<size_t>(i)])) << "element " << i;
    } else {
      ASSERT_EQ(a, b) << "element " << i << " x = " << x[static_cast<size_t>(i)] << ": "
                      << got[static_cast<size_t>(i)] << " vs " << want;
    }
  }
}

}  // namespace
}  // namespace passlab::exec
