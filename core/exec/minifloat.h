// The 8- and 4-bit float formats of ONNX (float8e4m3fn, float8e4m3fnuz,
// float8e5m2, float8e5m2fnuz, float8e8m0, float4e2m1) to and from float.
//
// Encoding rounds to nearest, ties to even. A value beyond the largest finite
// one saturates to it when `saturate` is set; otherwise it becomes infinity
// (e5m2) or NaN (the formats without infinity). float4e2m1 has neither and
// always saturates. Doubles round once, from their own value. float8e8m0 (a bare power of two) has
// its own rounding modes.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace passlab::exec {

struct MiniFloatFormat {
  int expBits;
  int mantBits;
  int bias;
  bool hasInf;      // e5m2: exponent all ones is inf/NaN
  bool fnuz;        // no negative zero; 0x80 is the only NaN
  bool allOnesNaN;  // e4m3fn: S.1111.111 is NaN, the rest of that exponent is finite
  bool hasNaN;      // float4e2m1 has none
  float maxFinite;
};

inline constexpr MiniFloatFormat kE4M3FN{4, 3, 7, false, false, true, true, 448.0f};
inline constexpr MiniFloatFormat kE4M3FNUZ{4, 3, 8, false, true, false, true, 240.0f};
inline constexpr MiniFloatFormat kE5M2{5, 2, 15, true, false, false, true, 57344.0f};
inline constexpr MiniFloatFormat kE5M2FNUZ{5, 2, 16, false, true, false, true, 57344.0f};
inline constexpr MiniFloatFormat kE2M1{2, 1, 1, false, false, false, false, 6.0f};

inline float miniFloatToFloat(uint8_t bits, const MiniFloatFormat& f) {
  const int width = 1 + f.expBits + f.mantBits;
  const uint32_t signBit = 1u << (width - 1);
  const uint32_t mantMask = (1u << f.mantBits) - 1;
  const uint32_t expMask = (1u << f.expBits) - 1;
  const bool neg = (bits & signBit) != 0;
  const uint32_t e = (bits >> f.mantBits) & expMask;
  const uint32_t m = bits & mantMask;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  if (f.fnuz && bits == signBit) return nan;
  if (f.allOnesNaN && e == expMask && m == mantMask) return nan;
  if (f.hasInf && e == expMask)
    return m == 0 ? (neg ? -std::numeric_limits<float>::infinity()
                         : std::numeric_limits<float>::infinity())
                  : nan;
  float v = e == 0 ? std::ldexp(static_cast<float>(m), 1 - f.bias - f.mantBits)
                   : std::ldexp(1.0f + std::ldexp(static_cast<float>(m), -f.mantBits),
                                static_cast<int>(e) - f.bias);
  return neg ? -v : v;
}

inline uint8_t floatToMiniFloat(double x, const MiniFloatFormat& f, bool saturate) {
  const int width = 1 + f.expBits + f.mantBits;
  const uint32_t signBit = 1u << (width - 1);
  const uint32_t expMask = (1u << f.expBits) - 1;
  const uint32_t sign = std::signbit(x) ? signBit : 0;
  if (!f.hasNaN) saturate = true;
  // The NaN code: fnuz has one; e4m3fn keeps the sign; float4 has none (ml_dtypes gives -0).
  auto nanCode = [&]() -> uint8_t {
    if (f.fnuz) return static_cast<uint8_t>(signBit);
    if (!f.hasNaN) return static_cast<uint8_t>(signBit);
    if (f.hasInf)
      return static_cast<uint8_t>(sign | (expMask << f.mantBits) | (1u << (f.mantBits - 1)));
    return static_cast<uint8_t>(sign | (signBit - 1));
  };
  auto maxCode = [&]() -> uint8_t {
    uint32_t code = signBit - 1;               // all ones below the sign
    if (f.allOnesNaN) code -= 1;               // S.1111.110
    if (f.hasInf) code -= (1u << f.mantBits);  // exponent all ones is reserved
    return static_cast<uint8_t>(sign | code);
  };
  auto overflow = [&]() -> uint8_t {
    if (saturate) return maxCode();
    if (f.hasInf) return static_cast<uint8_t>(sign | (expMask << f.mantBits));
    return nanCode();
  };
  if (std::isnan(x)) return nanCode();
  if (std::isinf(x)) return overflow();
  const double a = std::fabs(x);
  const uint8_t zero = f.fnuz ? 0 : static_cast<uint8_t>(sign);
  if (a == 0) return zero;
  const int emin = 1 - f.bias;
  int e2;
  std::frexp(a, &e2);
  const int ex = e2 - 1;  // a = 1.m * 2^ex
  const int quantumExp = (ex < emin ? emin : ex) - f.mantBits;
  const double q = std::nearbyint(std::ldexp(a, -quantumExp));  // ties to even
  const double v = std::ldexp(q, quantumExp);
  if (v > f.maxFinite) return overflow();
  if (q == 0) return zero;
  std::frexp(v, &e2);
  const int vex = e2 - 1;
  uint32_t expField, mant;
  if (vex < emin) {
    expField = 0;
    mant = static_cast<uint32_t>(std::ldexp(v, f.mantBits - emin));
  } else {
    expField = static_cast<uint32_t>(vex + f.bias);
    mant = static_cast<uint32_t>(std::ldexp(v, f.mantBits - vex)) - (1u << f.mantBits);
  }
  return static_cast<uint8_t>(sign | (expField << f.mantBits) | mant);
}

// float8e8m0: 2^(bits - 127), 0xFF is NaN; no sign and no zero.
inline float e8m0ToFloat(uint8_t bits) {
  if (bits == 0xFF) return std::numeric_limits<float>::quiet_NaN();
  return std::ldexp(1.0f, static_cast<int>(bits) - 127);
}

enum class E8M0Rounding { kUp, kDown, kNearest };

// As the ONNX reference: the float's exponent, rounded by the fraction bits;
// inf and NaN give 0xFF; with saturate the largest exponent does not round up.
inline uint8_t floatToE8M0(float x, bool saturate, E8M0Rounding mode) {
  uint32_t b;
  std::memcpy(&b, &x, 4);
  uint32_t e = (b >> 23) & 0xFF;
  if (e == 0xFF) return 0xFF;
  bool up = false;
  if (mode == E8M0Rounding::kUp) {
    up = (b & 0x7FFFFF) != 0;
  } else if (mode == E8M0Rounding::kNearest) {
    bool g = (b & 0x400000) != 0;
    bool r = (b & 0x200000) != 0;
    bool s = (b & 0x1FFFFF) != 0;
    bool lsb = e > 0;
    up = g && (r || s || lsb);
  }
  if (up && saturate && e == 0xFE) up = false;
  e += up ? 1 : 0;
  return static_cast<uint8_t>(e);
}

}  // namespace passlab::exec
