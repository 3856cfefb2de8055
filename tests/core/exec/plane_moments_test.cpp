// Plane moments and the affine row (core/exec/cpu/plane_moments.h) on each
// path this machine has against a double two-pass reference, on plane sizes
// around the lane width and the float block (0, 1, 15-17, 1023-1025, 56x56,
// 224x224), a plane far from zero (mean 1000, spread 1: the variance must
// not lose digits to the mean), tails and in place; and the
// InstanceNormalization node in float32 and float16 against its formula.
#include "core/exec/cpu/plane_moments.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "tests/core/exec/exec_test_util.h"
#include "tests/core/exec/op_test_util.h"

namespace passlab::exec {
namespace {

const char* const kPaths[] = {"avx512", "lanes"};

struct Reference {
  double mean = 0, variance = 0;
};

Reference reference(const std::vector<float>& x) {
  Reference r;
  if (x.empty()) return r;
  for (float v : x) r.mean += v;
  r.mean /= static_cast<double>(x.size());
  for (float v : x) r.variance += (v - r.mean) * (v - r.mean);
  r.variance /= static_cast<double>(x.size());
  return r;
}

std::vector<float> plane(size_t n, uint32_t seed, float offset) {
  std::vector<float> x = testutil::pattern(n, seed);
  for (float& v : x) v += offset;
  return x;
}

TEST(PlaneMoments, EveryPathMatchesTheDoubleReference) {
  for (const char* isa : kPaths)
    for (float offset : {0.0f, 1000.0f})
      for (size_t n : {0u, 1u, 15u, 16u, 17u, 33u, 1023u, 1024u, 1025u, 3136u, 50176u}) {
        SCOPED_TRACE(std::string(isa) + " n=" + std::to_string(n) +
                     " offset=" + std::to_string(offset));
        const std::vector<float> x = plane(n, static_cast<uint32_t>(n) + 7, offset);
        cpu::PlaneMoments got;
        if (!cpu::planeMomentsOn(isa, x.data(), static_cast<int64_t>(n), got)) {
          std::printf("[ SKIPPED ] %s: not on this CPU\n", isa);
          break;
        }
        const Reference want = reference(x);
        EXPECT_NEAR(got.mean, want.mean, 1e-6 * (1 + std::fabs(want.mean)));
        // Uniform in [-1, 1]: variance about 1/3; relative to it.
        EXPECT_NEAR(got.variance, want.variance, 1e-6 * (1e-3 + want.variance));
        if (n == 0) EXPECT_EQ(got.variance, 0.0);
      }
}

TEST(PlaneMoments, AConstantPlaneHasNoVariance) {
  for (const char* isa : kPaths) {
    const std::vector<float> x(5000, 3.25f);
    cpu::PlaneMoments got;
    if (!cpu::planeMomentsOn(isa, x.data(), 5000, got)) continue;
    EXPECT_EQ(got.mean, 3.25) << isa;
    EXPECT_EQ(got.variance, 0.0) << isa;
  }
}

TEST(PlaneMoments, AffineRowOnEveryPathTailsAndInPlace) {
  for (const char* isa : kPaths)
    for (int64_t n : {1, 15, 16, 17, 40, 1000}) {
      const std::vector<float> x = plane(static_cast<size_t>(n), 3, 0.5f);
      std::vector<float> y(x.size() + 1, -7.0f), inPlace = x;
      if (!cpu::affineRowOn(isa, x.data(), y.data(), n, 1.75f, -0.3f)) break;
      ASSERT_TRUE(cpu::affineRowOn(isa, inPlace.data(), inPlace.data(), n, 1.75f, -0.3f));
      for (int64_t i = 0; i < n; ++i) {
        const double want = static_cast<double>(x[i]) * 1.75 - 0.3;
        EXPECT_NEAR(y[i], want, 2e-7 * (1 + std::fabs(want))) << isa << " at " << i;
        EXPECT_EQ(inPlace[i], y[i]) << isa << " at " << i;
      }
      EXPECT_EQ(y[n], -7.0f) << isa << ": wrote past the row";
    }
}

TEST(PlaneMoments, UnknownPathsAreRejected) {
  const float x[2] = {1, 2};
  float y[2];
  cpu::PlaneMoments m;
  EXPECT_FALSE(cpu::planeMomentsOn("sse9", x, 2, m));
  EXPECT_FALSE(cpu::affineRowOn("sse9", x, y, 2, 1, 0));
}

// InstanceNormalization [N, C, H, W] by its formula in double.
std::vector<double> instanceNorm(const std::vector<float>& x, int64_t N, int64_t C, int64_t inner,
                                 const std::vector<float>& scale, const std::vector<float>& bias,
                                 double epsilon) {
  std::vector<double> y(x.size());
  for (int64_t nc = 0; nc < N * C; ++nc) {
    const std::vector<float> p(x.begin() + nc * inner, x.begin() + (nc + 1) * inner);
    const Reference r = reference(p);
    for (int64_t i = 0; i < inner; ++i)
      y[static_cast<size_t>(nc * inner + i)] = scale[static_cast<size_t>(nc % C)] *
                                                   (p[static_cast<size_t>(i)] - r.mean) /
                                                   std::sqrt(r.variance + epsilon) +
                                               bias[static_cast<size_t>(nc % C)];
  }
  return y;
}

TEST(PlaneMoments, InstanceNormalizationFloatAndHalfMatchTheFormula) {
  using namespace optest;
  const int64_t N = 2, C = 3, H = 37, W = 29, inner = H * W;
  std::vector<float> x = plane(static_cast<size_t>(N * C * inner), 11, 0.0f);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = x[i] * 4 + static_cast<float>(i / inner);  // planes apart
  const std::vector<float> scale = {0.5f, -1.25f, 2.0f}, bias = {0.1f, 0.0f, -3.0f};
  for (DataType dt : {DataType::kFloat, DataType::kFloat16}) {
    SCOPED_TRACE(dt == DataType::kFloat ? "float32" : "float16");
    const bool half = dt == DataType::kFloat16;
    const std::vector<double> xd(x.begin(), x.end());
    const ir::Tensor xt = typed(dt, {N, C, H, W}, xd);
    // The reference reads the values the kernel reads (float16-rounded).
    const std::vector<double> xr = values(xt);
    const std::vector<double> want =
        instanceNorm(std::vector<float>(xr.begin(), xr.end()), N, C, inner, scale, bias, 1e-3);
    const ir::Tensor y = run1({"InstanceNormalization",
                               {xt, typed(dt, {C}, {scale.begin(), scale.end()}),
                                typed(dt, {C}, {bias.begin(), bias.end()})},
                               {attrF("epsilon", 1e-3f)}});
    expectTensor(y, dt, {N, C, H, W}, want, half ? 2e-3 : 2e-6, half ? 4e-3 : 2e-6);
  }
}

}  // namespace
}  // namespace passlab::exec
