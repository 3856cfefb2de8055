// The vectorized float32 MaxPool (pool_max_float.h, kernel cpu.MaxPool)
// against the reference kernel, exactly, and AveragePool (counting padding or
// not) within rounding, on geometries that reach every branch: pads, ceil_mode,
// dilations, strides 1, 2 and 3, odd sizes, channel counts and widths that
// are not multiples of the vector width, 1-D and 3-D, windows wholly in the
// padding; the AVX2 row steps give the base (SSE2) ones' bits, and run
// exactly where the machine has AVX2.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/exec/cpu/pool_geometry.h"
#include "core/exec/cpu/pool_max_float.h"
#include "core/support/cpu_isa.h"
#include "tests/core/exec/exec_test_util.h"
#include "tests/core/exec/pool_reference_case.h"

namespace passlab::exec {
namespace {

using pooltest::Case;
using pooltest::Setup;
using pooltest::setUp;

class SeparablePool : public ::testing::TestWithParam<Case> {};

TEST_P(SeparablePool, MaxEqualsTheReferenceKernel) {
  auto s = setUp(GetParam(), "MaxPool");
  ASSERT_TRUE(s);
  for (int threads : {1, 2}) {
    std::vector<float> got(s->want.size(), 12345.0f);
    cpu::maxPoolFloat(s->g, s->x.data(), got.data(), threads);
    for (size_t i = 0; i < s->want.size(); ++i)
      ASSERT_EQ(got[i], s->want[i]) << "element " << i << ", " << threads << " threads";
  }
}

TEST_P(SeparablePool, AverageAgreesWithTheReferenceKernel) {
  for (bool includePad : {false, true}) {
    SCOPED_TRACE(includePad ? "count_include_pad" : "padding not counted");
    auto s = setUp(GetParam(), "AveragePool",
                   std::string(", count_include_pad = ") + (includePad ? "1" : "0"));
    ASSERT_TRUE(s);
    for (int threads : {1, 2}) {
      std::vector<float> got(s->want.size(), 12345.0f);
      cpu::averagePoolFloat(s->g, includePad, s->x.data(), got.data(), threads);
      for (size_t i = 0; i < s->want.size(); ++i)  // sums in another order
        ASSERT_NEAR(got[i], s->want[i], 1e-4 + 1e-5 * std::fabs(s->want[i]))
            << "element " << i << ", " << threads << " threads";
    }
  }
}

// The AVX2 row steps take the same taps in the same order as the base ones:
// the same bits, max and averages.
TEST_P(SeparablePool, Avx2GivesTheBaseBits) {
  if (!cpu_isa::hasAvx2Fma()) GTEST_SKIP() << "no AVX2 + FMA here";
  for (int pool = 0; pool < 3; ++pool) {
    const bool max = pool == 0, includePad = pool == 2;
    SCOPED_TRACE(max ? "max" : includePad ? "average, count_include_pad" : "average");
    auto s = setUp(GetParam(), max ? "MaxPool" : "AveragePool",
                   max ? "" : std::string(", count_include_pad = ") + (includePad ? "1" : "0"));
    ASSERT_TRUE(s);
    for (float& v : s->x) v *= 0.1f;  // sums that round (the case's own are exact)
    std::vector<float> base(s->want.size(), 1.0f), avx2(s->want.size(), 2.0f);
    ASSERT_TRUE(cpu::separablePoolWithIsa("base", max, s->g, includePad, s->x.data(), base.data()));
    ASSERT_TRUE(cpu::separablePoolWithIsa("avx2", max, s->g, includePad, s->x.data(), avx2.data()));
    for (size_t i = 0; i < base.size(); ++i)
      ASSERT_EQ(std::bit_cast<uint32_t>(avx2[i]), std::bit_cast<uint32_t>(base[i]))
          << "element " << i << ": " << avx2[i] << " vs " << base[i];
  }
}

TEST(SeparablePoolIsa, Avx2RunsWhereTheMachineHasIt) {
  cpu::PoolAttrs a;
  a.window.kernel = {3, 3};
  a.window.strides = {2, 2};
  auto g = cpu::poolGeometry(a, {1, 1, 5, 21});
  ASSERT_TRUE(g);
  std::vector<float> x(5 * 21), y(2 * 10, 0.0f);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  EXPECT_EQ(cpu::separablePoolWithIsa("avx2", true, *g, false, x.data(), y.data()),
            cpu_isa::hasAvx2Fma());
  EXPECT_FALSE(cpu::separablePoolWithIsa("avx9", true, *g, false, x.data(), y.data()));
  ASSERT_TRUE(cpu::separablePoolWithIsa("base", true, *g, false, x.data(), y.data()));
  // Output (1, 9): the max of rows 2..4, columns 18..20: x[4 * 21 + 20].
  EXPECT_EQ(y[10 + 9], static_cast<float>(4 * 21 + 20));
}

const Case kCases[] = {
    {"stem_3x3_s2_pad1", {1, 5, 16, 17}, {3, 3}, {2, 2}, {1, 1}, {1, 1, 1, 1}},
    {"stride1_odd_width", {2, 3, 9, 13}, {3, 3}, {1, 1}, {1, 1}, {1, 1, 1, 1}},
    {"ceil_mode_no_pads", {1, 3, 10, 11}, {3, 3}, {2, 2}, {1, 1}, {0, 0, 0, 0}, true},
    {"dilated_ceil", {1, 2, 9, 9}, {2, 2}, {2, 2}, {2, 2}, {0, 0, 0, 0}, true},
    {"dilated_stride1", {1, 3, 12, 15}, {3, 2}, {1, 1}, {2, 3}, {2, 1, 2, 3}},
    {"stride3_asymmetric_pads", {1, 4, 14, 19}, {2, 3}, {3, 3}, {1, 1}, {0, 2, 1, 1}},
    {"window_in_the_padding", {1, 1, 3, 3}, {2, 2}, {1, 1}, {1, 1}, {2, 2, 2, 2}},
    {"wide_kernel_2x2", {1, 7, 8, 33}, {2, 2}, {2, 2}, {1, 1}, {0, 0, 0, 0}},
    {"1d", {2, 3, 31}, {5}, {2}, {1}, {2, 2}},
    {"3d", {1, 2, 5, 6, 7}, {2, 3, 3}, {2, 1, 2}, {1, 1, 1}, {0, 1, 1, 1, 1, 1}, true},
};

INSTANTIATE_TEST_SUITE_P(Geometries, SeparablePool, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace passlab::exec
