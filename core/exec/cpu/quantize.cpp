// Linear quantization: QuantizeLinear, DequantizeLinear (per tensor, per
// axis and blocked; 8-, 16-, 4- and 2-bit integers, int32 for dequantizing,
// float8 e4m3fn/e4m3fnuz/e5m2/e5m2fnuz and float4 e2m1, float8 e8m0
// scales) and DynamicQuantizeLinear. Sub-byte types are packed low bits first.
// ONNX Runtime's com.microsoft QuantizeLinear and DequantizeLinear (the
// types of its contrib schemas) run on the same kernels: the ONNX semantics
// with an axis attribute (default 1).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#include "core/support/x86_intrinsics.h"
#endif

#include "core/exec/cpu/data_util.h"
#include "core/exec/cpu/dynamic_quantize.h"
#include "core/exec/cpu/families.h"
#include "core/exec/cpu/value_range.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"
#include "core/ir/passlab_ops.h"
#include "core/support/cpu_isa.h"

namespace passlab::exec::cpu {

namespace {

using ir::DataType;

// A small float format: exponent and mantissa bits, bias, and how it spells
// NaN and infinity.
struct MiniFloat {
  int expBits, manBits, bias;
  enum Special { kIeee, kFiniteNanAllOnes, kFnuz, kNone } special;
  double maxValue() const {
    int maxExp = (1 << expBits) - 1 - bias;
    int manMax = (1 << manBits) - 1;
    if (special == kIeee) --maxExp;                 // the top exponent is inf/NaN
    if (special == kFiniteNanAllOnes) manMax -= 1;  // S.1111.111 is NaN
    return (1.0 + manMax / static_cast<double>(1 << manBits)) * std::ldexp(1.0, maxExp);
  }
};

constexpr MiniFloat kE4M3FN{4, 3, 7, MiniFloat::kFiniteNanAllOnes};
constexpr MiniFloat kE4M3FNUZ{4, 3, 8, MiniFloat::kFnuz};
constexpr MiniFloat kE5M2{5, 2, 15, MiniFloat::kIeee};
constexpr MiniFloat kE5M2FNUZ{5, 2, 16, MiniFloat::kFnuz};
constexpr MiniFloat kE2M1{2, 1, 1, MiniFloat::kNone};

const MiniFloat* miniFloatOf(DataType t) {
  switch (t) {
    case DataType::kFloat8E4M3FN:
      return &kE4M3FN;
    case DataType::kFloat8E4M3FNUZ:
      return &kE4M3FNUZ;
    case DataType::kFloat8E5M2:
      return &kE5M2;
    case DataType::kFloat8E5M2FNUZ:
      return &kE5M2FNUZ;
    case DataType::kFloat4E2M1:
      return &kE2M1;
    default:
      return nullptr;
  }
}

double decodeMini(const MiniFloat& f, uint32_t bits) {
  const int total = 1 + f.expBits + f.manBits;
  const uint32_t sign = (bits >> (total - 1)) & 1u;
  const uint32_t e = (bits >> f.manBits) & ((1u << f.expBits) - 1);
  const uint32_t m = bits & ((1u << f.manBits) - 1);
  if (f.special == MiniFloat::kFnuz && bits == (1u << (total - 1)))
    return std::numeric_limits<double>::quiet_NaN();
  if (f.special == MiniFloat::kFiniteNanAllOnes && e == (1u << f.expBits) - 1 &&
      m == (1u << f.manBits) - 1)
    return std::numeric_limits<double>::quiet_NaN();
  if (f.special == MiniFloat::kIeee && e == (1u << f.expBits) - 1)
    return m == 0 ? (sign ? -HUGE_VAL : HUGE_VAL) : std::numeric_limits<double>::quiet_NaN();
  double v = e == 0 ? std::ldexp(static_cast<double>(m), 1 - f.bias - f.manBits)
                    : std::ldexp(1.0 + std::ldexp(static_cast<double>(m), -f.manBits),
                                 static_cast<int>(e) - f.bias);
  return sign ? -v : v;
}

// Rounds to nearest even; saturates to the largest finite value when asked
// (or when the format has no infinity and no NaN).
uint32_t encodeMini(const MiniFloat& f, double v, bool saturate) {
  const int total = 1 + f.expBits + f.manBits;
  const uint32_t signBit = 1u << (total - 1);
  const uint32_t nanBits = f.special == MiniFloat::kFnuz ? signBit
                           : f.special == MiniFloat::kIeee
                               ? ((1u << (f.expBits + f.manBits)) - 1) | 0u
                               : (1u << (f.expBits + f.manBits)) - 1;
  if (std::isnan(v)) return f.special == MiniFloat::kNone ? 0 : nanBits;
  uint32_t sign = std::signbit(v) ? signBit : 0;
  double a = std::fabs(v);
  const double maxV = f.maxValue();
  auto overflow = [&]() -> uint32_t {
    if (saturate || f.special == MiniFloat::kNone) {
      // The largest finite value: all exponent and mantissa bits, less the NaN pattern.
      uint32_t maxBits = (1u << (f.expBits + f.manBits)) - 1;
      if (f.special == MiniFloat::kFiniteNanAllOnes) maxBits -= 1;
      if (f.special == MiniFloat::kIeee) maxBits -= (1u << f.manBits);
      return sign | maxBits;
    }
    if (f.special == MiniFloat::kIeee) return sign | (((1u << f.expBits) - 1) << f.manBits);
    return nanBits;
  };
  if (std::isinf(a)) return overflow();
  if (saturate && a > maxV) a = maxV;
  // Quantum at a's exponent (subnormal quantum below the smallest normal).
  int e = a > 0 ? static_cast<int>(std::floor(std::log2(a))) : 1 - f.bias;
  e = std::max(e, 1 - f.bias);
  double q = std::ldexp(1.0, e - f.manBits);
  double r = std::nearbyint(a / q) * q;  // nearbyint rounds half to even
  if (r > maxV) return overflow();
  if (r == 0) return f.special == MiniFloat::kFnuz ? 0 : sign;
  int re = static_cast<int>(std::floor(std::log2(r)));
  uint32_t bits;
  if (re < 1 - f.bias) {
    bits = static_cast<uint32_t>(std::ldexp(r, f.bias - 1 + f.manBits));  // subnormal
  } else {
    uint32_t mant = static_cast<uint32_t>(std::ldexp(r, f.manBits - re)) - (1u << f.manBits);
    bits = (static_cast<uint32_t>(re + f.bias) << f.manBits) | mant;
  }
  return sign | bits;
}

// Integer range of a quantized integer type.
bool intRange(DataType t, int64_t& lo, int64_t& hi) {
  switch (t) {
    case DataType::kUInt8:
      lo = 0, hi = 255;
      return true;
    case DataType::kInt8:
      lo = -128, hi = 127;
      return true;
    case DataType::kUInt16:
      lo = 0, hi = 65535;
      return true;
    case DataType::kInt16:
      lo = -32768, hi = 32767;
      return true;
    case DataType::kInt32:
      lo = INT32_MIN, hi = INT32_MAX;
      return true;
    case DataType::kUInt4:
      lo = 0, hi = 15;
      return true;
    case DataType::kInt4:
      lo = -8, hi = 7;
      return true;
    case DataType::kUInt2:
      lo = 0, hi = 3;
      return true;
    case DataType::kInt2:
      lo = -2, hi = 1;
      return true;
    default:
      return false;
  }
}

// Reads element i of a quantized tensor as a number (floats decoded).
double readQ(const Tensor& t, int64_t i) {
  const auto* b = static_cast<const uint8_t*>(t.raw());
  switch (t.dtype()) {
    case DataType::kUInt8:
      return b[i];
    case DataType::kInt8:
      return static_cast<int8_t>(b[i]);
    case DataType::kUInt16:
      return t.data<uint16_t>()[i];
    case DataType::kInt16:
      return t.data<int16_t>()[i];
    case DataType::kInt32:
      return t.data<int32_t>()[i];
    case DataType::kUInt4:
    case DataType::kInt4: {
      uint32_t v = (b[i / 2] >> (4 * (i % 2))) & 0xfu;
      if (t.dtype() == DataType::kInt4 && (v & 0x8u)) return static_cast<double>(v) - 16;
      return v;
    }
    case DataType::kUInt2:
    case DataType::kInt2: {
      uint32_t v = (b[i / 4] >> (2 * (i % 4))) & 0x3u;
      if (t.dtype() == DataType::kInt2 && (v & 0x2u)) return static_cast<double>(v) - 4;
      return v;
    }
    case DataType::kFloat4E2M1:
      return decodeMini(kE2M1, (b[i / 2] >> (4 * (i % 2))) & 0xfu);
    case DataType::kFloat:
      return t.data<float>()[i];
    case DataType::kFloat16:
      return halfToFloat(t.data<uint16_t>()[i]);
    case DataType::kBFloat16:
      return bfloat16ToFloat(t.data<uint16_t>()[i]);
    case DataType::kFloat8E8M0:
      return b[i] == 0xff ? std::numeric_limits<double>::quiet_NaN() : std::ldexp(1.0, b[i] - 127);
    default:
      if (const MiniFloat* f = miniFloatOf(t.dtype())) return decodeMini(*f, b[i]);
      return 0;
  }
}

// Writes quantized element i (t zeroed beforehand for packed types).
void writeQ(Tensor& t, int64_t i, uint32_t bits) {
  auto* b = static_cast<uint8_t*>(t.mutableRaw());
  switch (ir::dtypeBits(t.dtype())) {
    case 16:
      t.mutableData<uint16_t>()[i] = static_cast<uint16_t>(bits);
      return;
    case 4:
      b[i / 2] = static_cast<uint8_t>(b[i / 2] | ((bits & 0xfu) << (4 * (i % 2))));
      return;
    case 2:
      b[i / 4] = static_cast<uint8_t>(b[i / 4] | ((bits & 0x3u) << (2 * (i % 4))));
      return;
    default:
      b[i] = static_cast<uint8_t>(bits);
  }
}

// Where each element of x finds its scale: per tensor, per axis or per block.
struct ScaleMap {
  int64_t outer = 1, n = 1, inner = 1;  // x seen as [outer, n, inner] around the axis
  enum { kTensor, kAxis, kBlock } kind = kTensor;
  int64_t block = 0, blocks = 1;
  int64_t indexOf(int64_t i) const {
    if (kind == kTensor) return 0;
    const int64_t a = (i / inner) % n;
    if (kind == kAxis) return a;
    const int64_t o = i / (inner * n), in = i % inner;
    return (o * blocks + a / block) * inner + in;
  }
};

Expected<ScaleMap> scaleMap(const Tensor& x, const Tensor& scale, int64_t axisAttr,
                            int64_t blockSize, const char* what) {
  ScaleMap m;
  if (scale.numel() == 1 && blockSize <= 0) return m;
  PASSLAB_ASSIGN_OR_RETURN(int64_t axis, normalizeAxis(axisAttr, static_cast<int64_t>(x.rank())));
  for (int64_t d = 0; d < axis; ++d) m.outer *= x.dim(static_cast<size_t>(d));
  m.n = x.dim(static_cast<size_t>(axis));
  for (size_t d = static_cast<size_t>(axis) + 1; d < x.rank(); ++d) m.inner *= x.dim(d);
  if (blockSize <= 0) {
    if (scale.rank() != 1 || scale.dim(0) != m.n)
      return invalidArgument(std::string(what) + " " + scale.describe() +
                             " must be a scalar or hold one value per element of axis " +
                             std::to_string(axis) + " of " + x.describe());
    m.kind = ScaleMap::kAxis;
    return m;
  }
  m.kind = ScaleMap::kBlock;
  m.block = blockSize;
  m.blocks = (m.n + blockSize - 1) / blockSize;
  Dims want = x.dims();
  want[static_cast<size_t>(axis)] = m.blocks;
  if (scale.dims() != want)
    return invalidArgument(std::string(what) + " " + scale.describe() + " must be " +
                           dimsToString(want) + " for blocks of " + std::to_string(blockSize) +
                           " along axis " + std::to_string(axis) + " of " + x.describe());
  return m;
}

// The SSE2 loop of quantizeRows below on 16 lanes (AVX-512F): the same
// operations in the same order (IEEE division, the clamps, the 1.5 * 2^23
// rounding, NaN -> 0, truncation), so the same bytes; `divps` bounds both,
// and one zmm division does four xmm ones' work. Returns the elements done.
// (A product by RN(1/s), divided only where it was within 2^-12 of a tie,
// gave the same bytes but was slower: DynamicQuantizeLinear of 32x120x160
// 0.168 against 0.135 ms; the test and the roundscale cost more than the
// divider, which is not what bounds the loop.)
template <class Q>
__attribute__((target("avx512f"))) int64_t quantizeAvx512(const float* xr, Q* yr, int64_t len,
                                                          float s, float qlo, float qhi, float z,
                                                          float lo, float hi) {
  const __m512 vs = _mm512_set1_ps(s), vqlo = _mm512_set1_ps(qlo), vqhi = _mm512_set1_ps(qhi),
               vz = _mm512_set1_ps(z), vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi),
               magic = _mm512_set1_ps(12582912.0f);
  int64_t i = 0;
  for (; i + 16 <= len; i += 16) {
    const __m512 q = _mm512_div_ps(_mm512_loadu_ps(xr + i), vs);
    const __m512 c = _mm512_min_ps(_mm512_max_ps(q, vqlo), vqhi);
    const __m512 r = _mm512_sub_ps(_mm512_add_ps(c, magic), magic);
    __m512 v = _mm512_min_ps(_mm512_max_ps(_mm512_add_ps(r, vz), vlo), vhi);
    v = _mm512_mask_mov_ps(v, _mm512_cmp_ps_mask(q, q, _CMP_UNORD_Q), _mm512_setzero_ps());
    _mm_storeu_si128(reinterpret_cast<__m128i*>(yr + i),
                     _mm512_cvtepi32_epi8(_mm512_cvttps_epi32(v)));  // in range: truncation exact
  }
  return i;
}

// The same quantization on 8 lanes (AVX2, without AVX-512), in fewer
// operations with the same bytes: the clamped quotient c (|c| < 2^9) is
// rounded half to even by vcvtps2dq (the rounding the 1.5 * 2^23 addition
// does; both under the default MXCSR), the zero point added in int32, and the
// clamp to [lo, hi] left to the saturating packs (c + z lies within
// [lo - 1, hi + 1]); NaN -> 0 on the integers. 32 floats per step: picodet
// int8's 27 QuantizeLinear 434 -> 268 us against the SSE2 operations on 8
// lanes (session 39). Returns the elements done.
__attribute__((target("avx2"))) inline __m256i quantize8Avx2(const float* p, __m256 vs, __m256 vqlo,
                                                             __m256 vqhi, __m256i vz) {
  const __m256 q = _mm256_div_ps(_mm256_loadu_ps(p), vs);
  const __m256 c = _mm256_min_ps(_mm256_max_ps(q, vqlo), vqhi);
  const __m256i v = _mm256_add_epi32(_mm256_cvtps_epi32(c), vz);
  return _mm256_andnot_si256(_mm256_castps_si256(_mm256_cmp_ps(q, q, _CMP_UNORD_Q)), v);
}

template <class Q>
__attribute__((target("avx2"))) int64_t quantizeAvx2(const float* xr, Q* yr, int64_t len, float s,
                                                     float qlo, float qhi, float z) {
  const __m256 vs = _mm256_set1_ps(s), vqlo = _mm256_set1_ps(qlo), vqhi = _mm256_set1_ps(qhi);
  const __m256i vz = _mm256_set1_epi32(static_cast<int32_t>(z));
  // The packs interleave the 128-bit halves: 32-bit groups 0 4 1 5 2 6 3 7.
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  int64_t i = 0;
  for (; i + 32 <= len; i += 32) {
    const __m256i a = _mm256_packs_epi32(quantize8Avx2(xr + i, vs, vqlo, vqhi, vz),
                                         quantize8Avx2(xr + i + 8, vs, vqlo, vqhi, vz));
    const __m256i b = _mm256_packs_epi32(quantize8Avx2(xr + i + 16, vs, vqlo, vqhi, vz),
                                         quantize8Avx2(xr + i + 24, vs, vqlo, vqhi, vz));
    const __m256i out = std::is_signed_v<Q> ? _mm256_packs_epi16(a, b) : _mm256_packus_epi16(a, b);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(yr + i),
                        _mm256_permutevar8x32_epi32(out, order));
  }
  return i;
}

// The common case, fast: float32 x, float32 scales per tensor or per axis,
// 8-bit integers. Runs over [outer, n] rows of `inner` elements in parallel.
template <class Q>
void quantizeRows(const Tensor& x, const Tensor& scale, const Tensor* zp, ScaleMap map, Tensor& y,
                  int threads) {
  if (map.kind == ScaleMap::kTensor)  // one run of 4096, the last shorter
    map.outer = (x.numel() + 4095) / 4096, map.n = 1, map.inner = 4096;
  const float* X = x.data<float>();
  const float* S = scale.data<float>();
  const Q* Z = zp ? zp->data<Q>() : nullptr;
  Q* Y = y.mutableData<Q>();
  const float lo = static_cast<float>(std::numeric_limits<Q>::min());
  const float hi = static_cast<float>(std::numeric_limits<Q>::max());
  const int64_t rows = map.outer * map.n;
  parallelFor(rows, threads, std::max<int64_t>(1, kElementwiseGrain / (map.inner + 1)),
              [&](int64_t r0, int64_t r1) {
                for (int64_t r = r0; r < r1; ++r) {
                  const int64_t a = map.kind == ScaleMap::kTensor ? 0 : r % map.n;
                  const float s = S[a];
                  const float z = Z ? static_cast<float>(Z[a]) : 0.0f;
                  const float* xr = X + r * map.inner;
                  Q* yr = Y + r * map.inner;
                  // Values beyond [lo - z - 1, hi - z + 1] end at lo or hi anyway;
                  // within them, adding and subtracting 1.5 * 2^23 rounds to
                  // nearest even (as nearbyint, without the call).
                  const float qlo = lo - z - 1.0f, qhi = hi - z + 1.0f;
                  const int64_t len = std::min(map.inner, x.numel() - r * map.inner);
                  int64_t i = cpu_isa::hasAvx512f()
                                  ? quantizeAvx512<Q>(xr, yr, len, s, qlo, qhi, z, lo, hi)
                              : cpu_isa::hasAvx2Fma() ? quantizeAvx2<Q>(xr, yr, len, s, qlo, qhi, z)
                                                      : 0;
#if defined(__SSE2__)
                  // 16 at a time (the compiler does not vectorize the loop
                  // below): the same operations, in the same order.
                  const __m128 vs = _mm_set1_ps(s), vqlo = _mm_set1_ps(qlo),
                               vqhi = _mm_set1_ps(qhi), vz = _mm_set1_ps(z), vlo = _mm_set1_ps(lo),
                               vhi = _mm_set1_ps(hi), magic = _mm_set1_ps(12582912.0f);
                  auto quad = [&](const float* p) {
                    const __m128 q = _mm_div_ps(_mm_loadu_ps(p), vs);
                    const __m128 c = _mm_min_ps(_mm_max_ps(q, vqlo), vqhi);
                    const __m128 r = _mm_sub_ps(_mm_add_ps(c, magic), magic);
                    __m128 v = _mm_min_ps(_mm_max_ps(_mm_add_ps(r, vz), vlo), vhi);
                    v = _mm_andnot_ps(_mm_cmpunord_ps(q, q), v);  // NaN -> 0
                    return _mm_cvttps_epi32(v);
                  };
                  for (; i + 16 <= len; i += 16) {
                    const __m128i a = _mm_packs_epi32(quad(xr + i), quad(xr + i + 4));
                    const __m128i b = _mm_packs_epi32(quad(xr + i + 8), quad(xr + i + 12));
                    const __m128i out =
                        std::is_signed_v<Q> ? _mm_packs_epi16(a, b) : _mm_packus_epi16(a, b);
                    _mm_storeu_si128(reinterpret_cast<__m128i*>(yr + i), out);
                  }
#endif
                  for (; i < len; ++i) {
                    const float q = xr[i] / s;
                    const float c = std::min(std::max(q, qlo), qhi);
                    const float r = (c + 12582912.0f) - 12582912.0f;
                    const float v = std::min(std::max(r + z, lo), hi);
                    yr[i] = static_cast<Q>(static_cast<int32_t>(q != q ? 0.0f : v));
                  }
                }
              });
}

// y = (x - z) * s for 16 8-bit integers at a time, the loop below's float
// operations (exact widening, one subtraction, one product: the same bits).
// Returns the elements done. The compiler's SSE2 loop widens 4 bytes per
// step through unpacks; this one 16 per instruction (DequantizeLinear per
// channel [1, 64, 112, 112]: 0.168 ms, 1.8x onnxruntime, session 26).
template <class Q>
__attribute__((target("avx512f"))) int64_t dequantizeAvx512(const Q* xr, float* yr, int64_t len,
                                                            float z, float s) {
  const __m512 vz = _mm512_set1_ps(z), vs = _mm512_set1_ps(s);
  int64_t i = 0;
  for (; i + 16 <= len; i += 16) {
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(xr + i));
    const __m512i w = std::is_signed_v<Q> ? _mm512_cvtepi8_epi32(b) : _mm512_cvtepu8_epi32(b);
    const __m512 v = _mm512_cvtepi32_ps(w);
    _mm512_storeu_ps(yr + i, _mm512_mul_ps(_mm512_sub_ps(v, vz), vs));
  }
  return i;
}

// The same on 8 lanes (AVX2 CPUs: picodet int8's 40 DequantizeLinear took
// 2.8x the AVX-512 time on the compiler's SSE2 loop).
template <class Q>
__attribute__((target("avx2"))) int64_t dequantizeAvx2(const Q* xr, float* yr, int64_t len, float z,
                                                       float s) {
  const __m256 vz = _mm256_set1_ps(z), vs = _mm256_set1_ps(s);
  int64_t i = 0;
  for (; i + 8 <= len; i += 8) {
    const __m128i b = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(xr + i));
    const __m256i w = std::is_signed_v<Q> ? _mm256_cvtepi8_epi32(b) : _mm256_cvtepu8_epi32(b);
    const __m256 v = _mm256_cvtepi32_ps(w);
    _mm256_storeu_ps(yr + i, _mm256_mul_ps(_mm256_sub_ps(v, vz), vs));
  }
  return i;
}

template <class Q>
void dequantizeRows(const Tensor& x, const Tensor& scale, const Tensor* zp, ScaleMap map, Tensor& y,
                    int threads) {
  if (map.kind == ScaleMap::kTensor)  // one run of 4096, the last shorter
    map.outer = (x.numel() + 4095) / 4096, map.n = 1, map.inner = 4096;
  const Q* X = x.data<Q>();
  const float* S = scale.data<float>();
  const Q* Z = zp ? zp->data<Q>() : nullptr;
  float* Y = y.mutableData<float>();
  const int64_t rows = map.outer * map.n;
  parallelFor(rows, threads, std::max<int64_t>(1, kElementwiseGrain / (map.inner + 1)),
              [&](int64_t r0, int64_t r1) {
                for (int64_t r = r0; r < r1; ++r) {
                  const int64_t a = map.kind == ScaleMap::kTensor ? 0 : r % map.n;
                  const float s = S[a];
                  const float z = Z ? static_cast<float>(Z[a]) : 0.0f;
                  const Q* xr = X + r * map.inner;
                  float* yr = Y + r * map.inner;
                  const int64_t len = std::min(map.inner, x.numel() - r * map.inner);
                  int64_t i = 0;
                  if constexpr (sizeof(Q) == 1) {
                    if (cpu_isa::hasAvx512f())
                      i = dequantizeAvx512(xr, yr, len, z, s);
                    else if (cpu_isa::hasAvx2Fma())
                      i = dequantizeAvx2(xr, yr, len, z, s);
                  }
                  for (; i < len; ++i) yr[i] = (static_cast<float>(xr[i]) - z) * s;
                }
              });
}

Status checkZeroPoint(const KernelContext& ctx, size_t i, const Tensor& scale) {
  if (!ctx.has(i)) return Status::ok();
  const Tensor& zp = ctx.input(i);
  if (zp.dims() != scale.dims() && !(zp.numel() == 1 && scale.numel() == 1))
    return invalidArgument("the zero point " + zp.describe() + " and the scale " +
                           scale.describe() + " differ in shape");
  return Status::ok();
}

class QuantizeLinear final : public Kernel {
 public:
  explicit QuantizeLinear(const KernelBuild& b)
      : axis_(b.node().attrInt("axis", 1)),
        blockSize_(b.node().attrInt("block_size", 0)),
        saturate_(b.node().attrInt("saturate", 1) != 0),
        outputDtype_(static_cast<DataType>(b.node().attrInt("output_dtype", 0))) {}

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    const Tensor& scale = ctx.input(1);
    DataType out = ctx.has(2)                             ? ctx.input(2).dtype()
                   : outputDtype_ != DataType::kUndefined ? outputDtype_
                                                          : DataType::kUInt8;
    if (ctx.has(2) && outputDtype_ != DataType::kUndefined && outputDtype_ != out)
      return invalidArgument("output_dtype " + std::string(ir::dtypeName(outputDtype_)) +
                             " differs from the zero point's type " +
                             std::string(ir::dtypeName(out)));
    int64_t lo = 0, hi = 0;
    const MiniFloat* mf = miniFloatOf(out);
    const bool isInt = out != DataType::kInt32 && intRange(out, lo, hi);
    if (!isInt && mf == nullptr)
      return unsupported("quantizing to " + std::string(ir::dtypeName(out)));
    PASSLAB_ASSIGN_OR_RETURN(ScaleMap map, scaleMap(x, scale, axis_, blockSize_, "y_scale"));
    PASSLAB_RETURN_IF_ERROR(checkZeroPoint(ctx, 2, scale));
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, out, x.dims()));
    const Tensor* zp = ctx.has(2) ? &ctx.input(2) : nullptr;
    if (x.dtype() == DataType::kFloat && scale.dtype() == DataType::kFloat &&
        map.kind != ScaleMap::kBlock && (!zp || zp->dtype() == out)) {
      if (out == DataType::kUInt8) {
        quantizeRows<uint8_t>(x, scale, zp, map, *y, ctx.threads());
        return Status::ok();
      }
      if (out == DataType::kInt8) {
        quantizeRows<int8_t>(x, scale, zp, map, *y, ctx.threads());
        return Status::ok();
      }
    }
    if (y->numel() > 0) std::memset(y->mutableRaw(), 0, ir::dtypeStorageBytes(out, y->numel()));
    for (int64_t i = 0; i < x.numel(); ++i) {
      const int64_t s = map.indexOf(i);
      // x / scale in float, as the reference computes it.
      const float q = static_cast<float>(readQ(x, i)) / static_cast<float>(readQ(scale, s));
      if (isInt) {
        double v = std::nearbyint(static_cast<double>(q));
        if (zp) v += readQ(*zp, s);
        v = std::clamp(v, static_cast<double>(lo), static_cast<double>(hi));
        if (std::isnan(q)) v = 0;
        writeQ(*y, i, static_cast<uint32_t>(static_cast<int64_t>(v)));
      } else {
        double v = q;
        if (out == DataType::kFloat4E2M1 && zp) v += readQ(*zp, s);
        writeQ(*y, i, encodeMini(*mf, v, saturate_));
      }
    }
    return Status::ok();
  }

 private:
  int64_t axis_, blockSize_;
  bool saturate_;
  DataType outputDtype_;
};

class DequantizeLinear final : public Kernel {
 public:
  explicit DequantizeLinear(const KernelBuild& b)
      : axis_(b.node().attrInt("axis", 1)),
        blockSize_(b.node().attrInt("block_size", 0)),
        outputDtype_(static_cast<DataType>(b.node().attrInt("output_dtype", 0))) {}

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    const Tensor& scale = ctx.input(1);
    DataType out = outputDtype_ != DataType::kUndefined ? outputDtype_ : scale.dtype();
    if (out == DataType::kFloat8E8M0) out = DataType::kFloat;
    if (out != DataType::kFloat && out != DataType::kFloat16 && out != DataType::kBFloat16)
      return unsupported("dequantizing to " + std::string(ir::dtypeName(out)));
    PASSLAB_ASSIGN_OR_RETURN(ScaleMap map, scaleMap(x, scale, axis_, blockSize_, "x_scale"));
    PASSLAB_RETURN_IF_ERROR(checkZeroPoint(ctx, 2, scale));
    // Float inputs carry no zero point (it must be 0).
    const bool useZp = ctx.has(2) && miniFloatOf(x.dtype()) == nullptr;
    if (useZp && ctx.input(2).dtype() != x.dtype())
      return invalidArgument("the zero point " + ctx.input(2).describe() + " and x " +
                             x.describe() + " differ in type");
    const Tensor* zp = useZp ? &ctx.input(2) : nullptr;
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, out, x.dims()));
    if (out == DataType::kFloat && scale.dtype() == DataType::kFloat &&
        map.kind != ScaleMap::kBlock) {
      switch (x.dtype()) {
        case DataType::kUInt8:
          dequantizeRows<uint8_t>(x, scale, zp, map, *y, ctx.threads());
          return Status::ok();
        case DataType::kInt8:
          dequantizeRows<int8_t>(x, scale, zp, map, *y, ctx.threads());
          return Status::ok();
        case DataType::kInt32:
          dequantizeRows<int32_t>(x, scale, zp, map, *y, ctx.threads());
          return Status::ok();
        default:
          break;
      }
    }
    for (int64_t i = 0; i < x.numel(); ++i) {
      const int64_t s = map.indexOf(i);
      float dx = static_cast<float>(readQ(x, i)) - (zp ? static_cast<float>(readQ(*zp, s)) : 0.0f);
      float v = dx * static_cast<float>(readQ(scale, s));
      switch (out) {
        case DataType::kFloat16:
          y->mutableData<uint16_t>()[i] = floatToHalf(v);
          break;
        case DataType::kBFloat16:
          y->mutableData<uint16_t>()[i] = floatToBfloat16(v);
          break;
        default:
          y->mutableData<float>()[i] = v;
      }
    }
    return Status::ok();
  }

 private:
  int64_t axis_, blockSize_;
  DataType outputDtype_;
};

#if defined(__x86_64__)
// DynamicQuantizeLinear's quantization on 16 lanes (AVX-512F) over a run of
// x within its range (quantizeLanesAvx512, dynamic_quantize.h: no divider,
// the same bytes as the division; 1.75x faster on 32x120x160 floats, 0.054
// against 0.094 ms). Returns the elements done.
__attribute__((target("avx512f"))) int64_t quantizeInRangeAvx512(const float* x, uint8_t* y,
                                                                 int64_t n, float s, uint8_t z) {
  const __m512 vs = _mm512_set1_ps(s), vr = _mm512_set1_ps(1.0f / s);
  const __m512i vz = _mm512_set1_epi32(z);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(y + i),
                     _mm512_cvtusepi32_epi8(  // saturates at 255
                         quantizeLanesAvx512(_mm512_loadu_ps(x + i), vs, vr, vz)));
  return i;
}
#endif

// x (within its range) quantized with scale s and zero point z: the AVX-512
// loop above where it applies, QuantizeLinear's loop (quantizeRows) for the
// rest and on other CPUs; runs of 4096 in parallel.
Status quantizeInRange(KernelContext& ctx, const Tensor& x, float s, uint8_t z, Tensor& y) {
  const int threads = ctx.threads();
#if defined(__x86_64__)
  if (cpu_isa::hasAvx512f() && fastQuantizationScale(s)) {
    quantizeInRangeFast(x.data<float>(), y.mutableData<uint8_t>(), x.numel(), s, z, threads);
    return Status::ok();
  }
#endif
  PASSLAB_ASSIGN_OR_RETURN(Tensor scale, ctx.scratch(DataType::kFloat, {}));
  PASSLAB_ASSIGN_OR_RETURN(Tensor zp, ctx.scratch(DataType::kUInt8, {}));
  scale.mutableData<float>()[0] = s;
  zp.mutableData<uint8_t>()[0] = z;
  quantizeRows<uint8_t>(x, scale, &zp, ScaleMap{}, y, threads);
  return Status::ok();
}

}  // namespace

#if defined(__x86_64__)
void quantizeInRangeFast(const float* x, uint8_t* y, int64_t n, float s, uint8_t z, int threads) {
  const int64_t run = 4096;
  parallelFor((n + run - 1) / run, threads, std::max<int64_t>(1, kElementwiseGrain / run),
              [&](int64_t r0, int64_t r1) {
                const int64_t b = r0 * run, e = std::min(n, r1 * run);
                int64_t i = b + quantizeInRangeAvx512(x + b, y + b, e - b, s, z);
                for (; i < e; ++i) y[i] = quantizeOne(x[i], s, z);  // the tail
              });
}
#endif

// Output 0, and the scale and zero point of x's range (containing 0) over
// 255 written where wanted. The range is x's own (DynamicQuantizeLinear),
// the one its producer took while writing x (RangedDynamicQuantizeLinear:
// FusedConvInteger's `range`) or the one FusedConvInteger's quantizing
// epilogue took (quantize_output = 1).
Expected<Tensor*> allocateDynamicOutputs(KernelContext& ctx, const Dims& dims,
                                         const ValueRange& range, DynamicQuantization* q) {
  if (range.nan) return invalidArgument("x holds NaN");
  *q = dynamicQuantization(range);
  PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, DataType::kUInt8, dims));
  if (ctx.wantsOutput(1)) {
    PASSLAB_ASSIGN_OR_RETURN(Tensor * s, ctx.allocate(1, DataType::kFloat, {}));
    s->mutableData<float>()[0] = q->scale;
  }
  if (ctx.wantsOutput(2)) {
    PASSLAB_ASSIGN_OR_RETURN(Tensor * z, ctx.allocate(2, DataType::kUInt8, {}));
    z->mutableData<uint8_t>()[0] = q->zeroPoint;
  }
  return y;
}

// y = saturate(round(x / scale) + zero_point) with the scale and zero point
// of x's range: QuantizeLinear's formula.
Status quantizeDynamic(KernelContext& ctx, const Tensor& x, const ValueRange& range) {
  DynamicQuantization q;
  PASSLAB_ASSIGN_OR_RETURN(Tensor * y, allocateDynamicOutputs(ctx, x.dims(), range, &q));
  return quantizeInRange(ctx, x, q.scale, q.zeroPoint, *y);
}

namespace {

class DynamicQuantizeLinear final : public Kernel {
 public:
  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    if (x.dtype() != DataType::kFloat)
      return unsupported("DynamicQuantizeLinear of " + x.describe());
    return quantizeDynamic(ctx, x, rangeWithZero(x.data<float>(), x.numel()));
  }
};

// ai.passlab RangedDynamicQuantizeLinear(X, Range): DynamicQuantizeLinear
// with X's range given (core/ir/passlab_ops.h), not scanned again.
class RangedDynamicQuantizeLinear final : public Kernel {
 public:
  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    const Tensor& r = ctx.input(1);
    if (x.dtype() != DataType::kFloat || r.dtype() != DataType::kFloat || r.numel() != 2)
      return unsupported("RangedDynamicQuantizeLinear of " + x.describe() + " with range " +
                         r.describe());
    return quantizeDynamic(ctx, x, loadRange(r.data<float>()));
  }
};

constexpr TypeSet kQuantizeInputs{DataType::kFloat, DataType::kFloat16, DataType::kBFloat16,
                                  DataType::kInt32};
constexpr TypeSet kDequantizeInputs{
    DataType::kInt8,           DataType::kUInt8,          DataType::kInt16,
    DataType::kUInt16,         DataType::kInt32,          DataType::kUInt4,
    DataType::kInt4,           DataType::kUInt2,          DataType::kInt2,
    DataType::kFloat8E4M3FN,   DataType::kFloat8E4M3FNUZ, DataType::kFloat8E5M2,
    DataType::kFloat8E5M2FNUZ, DataType::kFloat4E2M1};

constexpr TypeSet kMsQuantizeInputs{DataType::kFloat, DataType::kFloat16};
constexpr TypeSet kMsDequantizeInputs{DataType::kInt8,   DataType::kUInt8, DataType::kInt16,
                                      DataType::kUInt16, DataType::kInt32, DataType::kUInt4,
                                      DataType::kInt4};

const KernelDef kRows[] = {
    {"", "QuantizeLinear", 10, kOpsetMax, kQuantizeInputs, 0, Tier::kReference,
     "cpu.QuantizeLinear", makeKernel<QuantizeLinear>},
    {"", "DequantizeLinear", 10, kOpsetMax, kDequantizeInputs, 0, Tier::kReference,
     "cpu.DequantizeLinear", makeKernel<DequantizeLinear>},
    {"", "DynamicQuantizeLinear", 11, kOpsetMax, types::kFloat32, 0, Tier::kReference,
     "cpu.DynamicQuantizeLinear", makeKernel<DynamicQuantizeLinear>},
    {ir::passlab_ops::kDomain, ir::passlab_ops::kRangedDynamicQuantizeLinear, 1, kOpsetMax,
     types::kFloat32, 0, Tier::kReference, "cpu.passlab.RangedDynamicQuantizeLinear",
     makeKernel<RangedDynamicQuantizeLinear>},
    {"com.microsoft", "QuantizeLinear", 1, kOpsetMax, kMsQuantizeInputs, 0, Tier::kReference,
     "cpu.ms.QuantizeLinear", makeKernel<QuantizeLinear>},
    {"com.microsoft", "DequantizeLinear", 1, kOpsetMax, kMsDequantizeInputs, 0, Tier::kReference,
     "cpu.ms.DequantizeLinear", makeKernel<DequantizeLinear>},
};

}  // namespace

std::span<const KernelDef> quantizeKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
