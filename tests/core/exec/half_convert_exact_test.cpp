// The bulk float16 <-> float32 conversions Cast uses (half_convert_exact.h)
// against the scalar conversions of dtype_traits.h, bit for bit: every half,
// float bit patterns around every boundary (subnormals, rounding ties,
// overflow, NaNs with payloads), every tail length. Suite Cast so that the
// ISA-capped runs (isa_avx2_kernels, isa_sse2_kernels) take the scalar loop.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "core/exec/cpu/half_convert_exact.h"
#include "core/exec/dtype_traits.h"

namespace passlab::exec::cpu {
namespace {

uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

float fromBits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

TEST(Cast, HalfToFloatBulkMatchesScalarForEveryHalf) {
  std::vector<uint16_t> in(65536);
  for (uint32_t i = 0; i < 65536; ++i) in[i] = static_cast<uint16_t>(i);
  std::vector<float> out(in.size());
  halfToFloatExactN(in.data(), out.data(), static_cast<int64_t>(in.size()));
  for (uint32_t i = 0; i < 65536; ++i)
    ASSERT_EQ(bitsOf(out[i]), bitsOf(halfToFloatFast(in[i]))) << "half 0x" << std::hex << i;
}

TEST(Cast, FloatToHalfBulkMatchesScalarBits) {
  std::vector<uint32_t> patterns;
  // Every exponent with mantissas at and around the half's rounding points.
  for (uint32_t sign : {0u, 0x80000000u})
    for (uint32_t e = 0; e < 256; ++e)
      for (uint32_t m : {0u, 1u, 0xfffu, 0x1000u, 0x1001u, 0x2000u, 0x3000u, 0x7fe000u, 0x7ff000u,
                         0x7fffffu, 0x400000u, 0x400001u, 0x123456u})
        patterns.push_back(sign | (e << 23) | m);
  std::mt19937 rng(7);
  for (int i = 0; i < 200000; ++i) patterns.push_back(static_cast<uint32_t>(rng()));
  std::vector<float> in;
  for (uint32_t p : patterns) in.push_back(fromBits(p));
  std::vector<uint16_t> out(in.size());
  floatToHalfExactN(in.data(), out.data(), static_cast<int64_t>(in.size()));
  for (size_t i = 0; i < in.size(); ++i)
    ASSERT_EQ(out[i], floatToHalfFast(in[i])) << "float bits 0x" << std::hex << patterns[i];
}

TEST(Cast, HalfBulkConversionsTouchOnlyTheirElements) {
  for (int64_t n = 0; n <= 40; ++n) {
    std::vector<float> f(n + 1, 123.0f);
    std::vector<uint16_t> h(n + 1, 0xabcd);
    for (int64_t i = 0; i < n; ++i) f[i] = 0.25f * static_cast<float>(i) - 3.0f;
    floatToHalfExactN(f.data(), h.data(), n);
    EXPECT_EQ(h[n], 0xabcd) << n;
    std::vector<float> back(n + 1, 77.0f);
    halfToFloatExactN(h.data(), back.data(), n);
    EXPECT_EQ(back[n], 77.0f) << n;
    for (int64_t i = 0; i < n; ++i) EXPECT_EQ(back[i], f[i]) << n << " " << i;
  }
}

}  // namespace
}  // namespace passlab::exec::cpu
