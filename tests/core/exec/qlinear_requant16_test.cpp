// The requantization of PassLab's int8 convolution kernels
// (core/exec/cpu/qlinear_requant16.h) against the reference QLinearConv's
// formula (qlinear.cpp): (sum + bias) * the float32 multiplier in double,
// rounded half to even, + y_zero_point, saturated. storeSum16's float32 path
// (one FMA with 1.5 * 2^23) and the double path, on random sums and
// multipliers within Multipliers::floatExact, exact .5 ties (power-of-2
// multipliers), float32 products that are half-integers while the exact
// product is not, and saturation at both ends, uint8 and int8 outputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "core/exec/cpu/qlinear_requant16.h"
#include "core/support/cpu_isa.h"

namespace passlab::exec::cpu {
namespace {

#if defined(__x86_64__)

struct Case {
  std::vector<int32_t> sums;  // bias included
  std::vector<float> mults;
  int yZero = 0;
  bool ySigned = false;
};

// The reference's integer for one value.
int reference(int32_t sum, float mult, int yZero, bool ySigned) {
  const double v = std::nearbyint(static_cast<double>(sum) * static_cast<double>(mult)) + yZero;
  const double lo = ySigned ? -128 : 0, hi = ySigned ? 127 : 255;
  return static_cast<int>(std::min(std::max(v, lo), hi));
}

__attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni"))) std::vector<int> requantize(
    const Case& c, bool fast) {
  const int64_t n = static_cast<int64_t>(c.sums.size());
  const int64_t padded = (n + 15) / 16 * 16;
  qlinear::Requantization r;
  r.yZeroPoint = c.yZero;
  r.yType = c.ySigned ? ir::DataType::kInt8 : ir::DataType::kUInt8;
  r.outputScales = c.mults;
  requant16::Multipliers m;
  m.prepare(r, n, padded);
  const requant16::Requant q = requant16::constants(m, fast);
  std::vector<int32_t> sums(c.sums);
  sums.resize(static_cast<size_t>(padded), 0);
  std::vector<uint8_t> y(static_cast<size_t>(padded), 0);
  for (int64_t i = 0; i < padded; i += 16) {
    const requant16::Channels ch{nullptr, m.mult.data() + i, m.multf.data() + i};
    const int64_t left = std::min<int64_t>(16, n - i);
    const __mmask16 k = static_cast<__mmask16>((1u << left) - 1u);
    requant16::storeSum16(_mm512_loadu_si512(sums.data() + i), ch, q, y.data() + i, k);
  }
  std::vector<int> out(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    out[static_cast<size_t>(i)] =
        c.ySigned ? static_cast<int>(static_cast<int8_t>(y[static_cast<size_t>(i)]))
                  : y[static_cast<size_t>(i)];
  return out;
}

// Both paths against the reference; the float path only where floatExact holds.
void expectReference(const Case& c, const char* what) {
  int64_t largest = 0;
  for (int32_t s : c.sums) largest = std::max<int64_t>(largest, std::abs(int64_t{s}));
  qlinear::Requantization r;
  r.outputScales = c.mults;
  requant16::Multipliers m;
  const int64_t n = static_cast<int64_t>(c.sums.size());
  m.prepare(r, n, (n + 15) / 16 * 16);
  const bool exact = m.floatExact(largest);
  for (bool fast : {false, true}) {
    if (fast && !exact) continue;
    const std::vector<int> got = requantize(c, fast);
    for (size_t i = 0; i < c.sums.size(); ++i)
      ASSERT_EQ(got[i], reference(c.sums[i], c.mults[i], c.yZero, c.ySigned))
          << what << (fast ? " (float path)" : " (double path)") << ": sum " << c.sums[i] << " * "
          << c.mults[i] << " + " << c.yZero;
  }
}

bool covered() {
  return cpu_isa::hasAvx512Vnni();
}

TEST(Requant16, RandomSumsAndMultipliersGiveTheReferencesIntegers) {
  if (!covered()) GTEST_SKIP() << "no AVX-512 VNNI on this CPU";
  std::mt19937 rng(7);
  for (int round = 0; round < 400; ++round) {
    Case c;
    c.ySigned = round % 2 == 1;
    c.yZero = c.ySigned ? static_cast<int>(rng() % 256) - 128 : static_cast<int>(rng() % 256);
    // Sums up to 2^k for k in [4, 23], multipliers bringing them to about [-300, 300].
    const int k = 4 + static_cast<int>(rng() % 20);
    const float scale = 300.0f / static_cast<float>(1 << k);
    std::uniform_int_distribution<int32_t> sum(-(1 << k), 1 << k);
    std::uniform_real_distribution<float> mult(0.0f, scale);
    const int n = 1 + static_cast<int>(rng() % 40);
    for (int i = 0; i < n; ++i) {
      c.sums.push_back(sum(rng));
      c.mults.push_back(mult(rng));
    }
    expectReference(c, "random");
  }
}

TEST(Requant16, ExactTiesRoundHalfToEven) {
  if (!covered()) GTEST_SKIP() << "no AVX-512 VNNI on this CPU";
  for (bool ySigned : {false, true}) {
    Case c;
    c.ySigned = ySigned;
    c.yZero = ySigned ? -3 : 101;
    // Multiplier 2^-s: every odd multiple of 2^(s-1) is an exact .5 tie.
    for (int s = 1; s <= 6; ++s)
      for (int32_t v = -40; v <= 40; ++v) {
        c.sums.push_back(v * (1 << (s - 1)));
        c.mults.push_back(std::ldexp(1.0f, -s));
      }
    expectReference(c, "ties");
    // Half-integers of both parities around zero and near 2^21.
    Case d = c;
    d.sums = {1, -1, 3, -3, 5, -5, (1 << 22) + 1, -((1 << 22) + 1), (1 << 22) + 3};
    d.mults.assign(d.sums.size(), 0.5f);
    expectReference(d, "ties near 2^21");
  }
}

// 25067 * 0.00233374559f rounds to 58.5 in float32 while the exact product
// is 58.50000078...: the reference rounds to 59.
TEST(Requant16, AHalfIntegerFloatProductRoundsAsTheExactProduct) {
  if (!covered()) GTEST_SKIP() << "no AVX-512 VNNI on this CPU";
  const float m = 0.0023337455932050943f;
  ASSERT_EQ(25067.0f * m, 58.5f);
  Case c;
  c.yZero = 100;
  c.sums = {25067, -25067};
  c.mults = {m, m};
  expectReference(c, "float tie");
  EXPECT_EQ(requantize(c, true), (std::vector<int>{159, 41}));
}

TEST(Requant16, SaturatesAtBothEnds) {
  if (!covered()) GTEST_SKIP() << "no AVX-512 VNNI on this CPU";
  for (bool ySigned : {false, true}) {
    Case c;
    c.ySigned = ySigned;
    c.yZero = ySigned ? 0 : 128;
    for (int32_t v : {-3000000, -70000, -1000, -300, -129, -128, -127, 126, 127, 128, 255, 256,
                      1000, 70000, 3000000}) {
      c.sums.push_back(v);
      c.mults.push_back(1.0f);
    }
    expectReference(c, ySigned ? "saturation int8" : "saturation uint8");
  }
}

#endif

}  // namespace
}  // namespace passlab::exec::cpu
