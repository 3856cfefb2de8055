// Sigmoid and Tanh rows (see sigmoid_rows.h). Both come from one exp core
// (exp_lanes.h on AVX-512 and AVX2, exp4 below otherwise):
// t = n ln2 + r with n = round(t log2 e) and |r| <= ln2 / 2 (ln2 split in two
// as in Cephes' expf), exp(r) - 1 = r + r^2 q(r) with Cephes' degree-5 q.
//
//   Sigmoid: e = exp(-|x|) (in (0, 1], so nothing overflows), y = 1 / (1 + e)
//            for x >= 0 and e / (1 + e) otherwise. -|x| is clamped at -105,
//            where e is below half the smallest subnormal, so Sigmoid(-inf)
//            is 0; between -87 and -104 e is subnormal: 2^n is applied in two
//            steps (or with scalef) so that it is not flushed to 0.
//   Tanh:    m = expm1(-2|x|) = 2^n (r + r^2 q) + (2^n - 1), accurate near 0
//            where 1 - exp would cancel, y = sign(x) * -m / (2 + m). -2|x| is
//            clamped at -20, where m rounds to -1 and y to 1.
//
// NaN propagates through every step (max(lo, t) returns t when t is NaN).
#include "core/exec/cpu/sigmoid_rows.h"

#include "core/exec/cpu/avx512_lanes.h"
#include "core/exec/cpu/exp_lanes.h"
#include "core/exec/cpu/row_isa.h"

#include "core/support/x86_intrinsics.h"

#include <cstring>

namespace passlab::exec::cpu {

namespace {

// The exp core and Sigmoid on 16 and 8 lanes (exp_lanes.h).
using namespace exp_lanes;

constexpr float kTanhLo = -20.0f;  // expm1(-20) rounds to -1

// ---- AVX-512 (16 lanes; the tail with masks) -------------------------------

// GCC 12 warns about the _mm512_undefined_ps() inside the unmasked intrinsics
// (max, roundscale, scalef) once inlined: a false positive.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#define PASSLAB_AVX512 __attribute__((target("avx512f")))

PASSLAB_AVX512 inline __m512 tanh16(__m512 x) {
  const __m512i sign = _mm512_set1_epi32(static_cast<int>(0x80000000u));
  const __m512 t =
      _mm512_max_ps(_mm512_set1_ps(kTanhLo), _mm512_add_ps(absMinus512(x), absMinus512(x)));
  __m512 n;
  const __m512 em = expm1Reduced512(t, &n);
  const __m512 p = _mm512_scalef_ps(_mm512_set1_ps(1.0f), n);  // 2^n, n in [-29, 0]
  const __m512 m = _mm512_fmadd_ps(p, em, _mm512_sub_ps(p, _mm512_set1_ps(1.0f)));
  const __m512 mag = _mm512_div_ps(m, _mm512_sub_ps(_mm512_set1_ps(-2.0f), m));  // -m / (2 + m)
  const __m512i xs = _mm512_and_si512(_mm512_castps_si512(x), sign);
  return _mm512_castsi512_ps(
      _mm512_or_si512(_mm512_andnot_si512(sign, _mm512_castps_si512(mag)), xs));
}

template <__m512 (*F)(__m512)>
PASSLAB_AVX512 void row512(const float* x, float* y, int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(y + i, F(_mm512_loadu_ps(x + i)));
  if (i < n) {
    const __mmask16 k = avx512::lanes(n - i);
    _mm512_mask_storeu_ps(y + i, k, F(_mm512_maskz_loadu_ps(k, x + i)));
  }
}

// kStore: y written (else only the sum; the same sum).
template <bool kStore>
PASSLAB_AVX512 float expShiftedSum512(const float* x, float shift, float* y, int64_t n) {
  const __m512 s = _mm512_set1_ps(shift);
  __m512 acc = _mm512_setzero_ps();
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512 e = exp16(_mm512_sub_ps(_mm512_loadu_ps(x + i), s));
    if (kStore) _mm512_storeu_ps(y + i, e);
    acc = _mm512_add_ps(acc, e);
  }
  if (i < n) {
    const __mmask16 k = avx512::lanes(n - i);
    const __m512 e = exp16(_mm512_sub_ps(_mm512_maskz_loadu_ps(k, x + i), s));
    if (kStore) _mm512_mask_storeu_ps(y + i, k, e);
    acc = _mm512_add_ps(acc, _mm512_maskz_mov_ps(k, e));
  }
  return _mm512_reduce_add_ps(acc);
}

#pragma GCC diagnostic pop

// ---- AVX2 + FMA (8 lanes; the tail through a buffer) -----------------------

#define PASSLAB_AVX2 __attribute__((target("avx2,fma")))

PASSLAB_AVX2 inline __m256 tanh8(__m256 x) {
  const __m256 sign = _mm256_set1_ps(-0.0f);
  const __m256 t =
      _mm256_max_ps(_mm256_set1_ps(kTanhLo), _mm256_add_ps(absMinus256(x), absMinus256(x)));
  __m256i n;
  const __m256 em = expm1Reduced256(t, &n);
  const __m256 p = pow2i256(n);
  const __m256 m = _mm256_fmadd_ps(p, em, _mm256_sub_ps(p, _mm256_set1_ps(1.0f)));
  const __m256 mag = _mm256_div_ps(m, _mm256_sub_ps(_mm256_set1_ps(-2.0f), m));
  return _mm256_or_ps(_mm256_andnot_ps(sign, mag), _mm256_and_ps(x, sign));
}

template <__m256 (*F)(__m256)>
PASSLAB_AVX2 void row256(const float* x, float* y, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, F(_mm256_loadu_ps(x + i)));
  if (i < n) {
    float buf[8] = {};
    std::memcpy(buf, x + i, static_cast<size_t>(n - i) * sizeof(float));
    _mm256_storeu_ps(buf, F(_mm256_loadu_ps(buf)));
    std::memcpy(y + i, buf, static_cast<size_t>(n - i) * sizeof(float));
  }
}

template <bool kStore>
PASSLAB_AVX2 float expShiftedSum256(const float* x, float shift, float* y, int64_t n) {
  const __m256 s = _mm256_set1_ps(shift);
  __m256 acc = _mm256_setzero_ps();
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 e = exp8(_mm256_sub_ps(_mm256_loadu_ps(x + i), s));
    if (kStore) _mm256_storeu_ps(y + i, e);
    acc = _mm256_add_ps(acc, e);
  }
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, acc);
  float sum = 0;
  for (float v : lanes) sum += v;
  if (i < n) {
    float buf[8] = {};
    std::memcpy(buf, x + i, static_cast<size_t>(n - i) * sizeof(float));
    _mm256_storeu_ps(buf, exp8(_mm256_sub_ps(_mm256_loadu_ps(buf), s)));
    if (kStore) std::memcpy(y + i, buf, static_cast<size_t>(n - i) * sizeof(float));
    for (int64_t k = 0; k < n - i; ++k) sum += buf[k];
  }
  return sum;
}

// ---- Baseline (4 lanes of GCC vectors: SSE2, no FMA) -----------------------

using F4 = float __attribute__((vector_size(16)));
using I4 = int32_t __attribute__((vector_size(16)));

F4 bitsF(I4 v) {
  F4 f;
  std::memcpy(&f, &v, sizeof f);
  return f;
}
I4 bitsI(F4 v) {
  I4 i;
  std::memcpy(&i, &v, sizeof i);
  return i;
}

F4 expm1Reduced4(F4 t, I4* n) {
  const float magic = 12582912.0f;  // 1.5 * 2^23: rounds to nearest for |t log2 e| < 2^22
  const F4 nf = (t * kLog2e + magic) - magic;
  *n = __builtin_convertvector(nf, I4);
  F4 r = t - nf * kLn2Hi;
  r = r + nf * kLn2Lo;
  F4 q = F4{} + kQ0;
  q = q * r + kQ1;
  q = q * r + kQ2;
  q = q * r + kQ3;
  q = q * r + kQ4;
  q = q * r + kQ5;
  return r * r * q + r;
}

F4 pow2i4(I4 n) {
  return bitsF((n + 127) << 23);
}

F4 maxKeepNan4(float lo, F4 t) {  // t when t is NaN, as maxps(lo, t)
  return t < lo ? F4{} + lo : t;
}

F4 sigmoid4(F4 x) {
  const I4 signBit = I4{} + static_cast<int32_t>(0x80000000u);
  const F4 t = maxKeepNan4(kSigmoidLo, bitsF(bitsI(x) | signBit));
  I4 n;
  const F4 em = expm1Reduced4(t, &n);
  const I4 half = n >> 1;
  const F4 e = (em + 1.0f) * pow2i4(half) * pow2i4(n - half);
  const I4 pos = x >= 0.0f;
  return (pos ? F4{} + 1.0f : e) / (e + 1.0f);
}

F4 tanh4(F4 x) {
  const I4 signBit = I4{} + static_cast<int32_t>(0x80000000u);
  const F4 minusAbs = bitsF(bitsI(x) | signBit);
  const F4 t = maxKeepNan4(kTanhLo, minusAbs + minusAbs);
  I4 n;
  const F4 em = expm1Reduced4(t, &n);
  const F4 p = pow2i4(n);
  const F4 m = p * em + (p - 1.0f);
  const F4 mag = m / (-2.0f - m);
  return bitsF((bitsI(mag) & ~signBit) | (bitsI(x) & signBit));
}

F4 exp4(F4 x) {
  F4 t = maxKeepNan4(kSigmoidLo, x);
  t = t > kExpHi ? F4{} + kExpHi : t;  // NaN compares false and stays
  I4 n;
  const F4 em = expm1Reduced4(t, &n);
  const I4 half = n >> 1;
  return (em + 1.0f) * pow2i4(half) * pow2i4(n - half);
}

template <F4 (*F)(F4)>
void row4(const float* x, float* y, int64_t n) {
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    F4 v;
    std::memcpy(&v, x + i, sizeof v);
    v = F(v);
    std::memcpy(y + i, &v, sizeof v);
  }
  if (i < n) {
    F4 v = {};
    std::memcpy(&v, x + i, static_cast<size_t>(n - i) * sizeof(float));
    v = F(v);
    std::memcpy(y + i, &v, static_cast<size_t>(n - i) * sizeof(float));
  }
}

template <bool kStore>
float expShiftedSum4(const float* x, float shift, float* y, int64_t n) {
  F4 acc = {};
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    F4 v;
    std::memcpy(&v, x + i, sizeof v);
    v = exp4(v - shift);
    if (kStore) std::memcpy(y + i, &v, sizeof v);
    acc += v;
  }
  float sum = (acc[0] + acc[1]) + (acc[2] + acc[3]);
  if (i < n) {
    F4 v = {};
    std::memcpy(&v, x + i, static_cast<size_t>(n - i) * sizeof(float));
    v = exp4(v - shift);
    if (kStore) std::memcpy(y + i, &v, static_cast<size_t>(n - i) * sizeof(float));
    for (int64_t k = 0; k < n - i; ++k) sum += v[k];
  }
  return sum;
}

// ---- Dispatch ---------------------------------------------------------------

// The SSE2 path's name (row_isa.h).
constexpr char kBaseIsa[] = "sse2";

void sigmoidOn(RowIsa isa, const float* x, float* y, int64_t n) {
  switch (isa) {
    case RowIsa::kAvx512:
      return row512<sigmoid16>(x, y, n);
    case RowIsa::kAvx2:
      return row256<sigmoid8>(x, y, n);
    case RowIsa::kBase:
      return row4<sigmoid4>(x, y, n);
  }
}

void tanhOn(RowIsa isa, const float* x, float* y, int64_t n) {
  switch (isa) {
    case RowIsa::kAvx512:
      return row512<tanh16>(x, y, n);
    case RowIsa::kAvx2:
      return row256<tanh8>(x, y, n);
    case RowIsa::kBase:
      return row4<tanh4>(x, y, n);
  }
}

void expOn(RowIsa isa, const float* x, float* y, int64_t n) {
  switch (isa) {
    case RowIsa::kAvx512:
      return row512<exp16>(x, y, n);
    case RowIsa::kAvx2:
      return row256<exp8>(x, y, n);
    case RowIsa::kBase:
      return row4<exp4>(x, y, n);
  }
}

template <bool kStore>
float expShiftedSumOn(RowIsa isa, const float* x, float shift, float* y, int64_t n) {
  switch (isa) {
    case RowIsa::kAvx512:
      return expShiftedSum512<kStore>(x, shift, y, n);
    case RowIsa::kAvx2:
      return expShiftedSum256<kStore>(x, shift, y, n);
    case RowIsa::kBase:
      break;
  }
  return expShiftedSum4<kStore>(x, shift, y, n);
}

float expShiftedSumOn(RowIsa isa, const float* x, float shift, float* y, int64_t n) {
  return y ? expShiftedSumOn<true>(isa, x, shift, y, n)
           : expShiftedSumOn<false>(isa, x, shift, y, n);
}

}  // namespace

void sigmoidRow(const float* x, float* y, int64_t n) {
  sigmoidOn(detectedRowIsa(), x, y, n);
}

void tanhRow(const float* x, float* y, int64_t n) {
  tanhOn(detectedRowIsa(), x, y, n);
}

void expRow(const float* x, float* y, int64_t n) {
  expOn(detectedRowIsa(), x, y, n);
}

float expShiftedSumRow(const float* x, float shift, float* y, int64_t n) {
  return expShiftedSumOn(detectedRowIsa(), x, shift, y, n);
}

const char* sigmoidRowsIsa() {
  return rowIsaName(detectedRowIsa(), kBaseIsa);
}

bool sigmoidRowOn(std::string_view isa, const float* x, float* y, int64_t n) {
  RowIsa chosen;
  if (!parseRowIsa(isa, kBaseIsa, &chosen)) return false;
  sigmoidOn(chosen, x, y, n);
  return true;
}

bool tanhRowOn(std::string_view isa, const float* x, float* y, int64_t n) {
  RowIsa chosen;
  if (!parseRowIsa(isa, kBaseIsa, &chosen)) return false;
  tanhOn(chosen, x, y, n);
  return true;
}

bool expRowOn(std::string_view isa, const float* x, float* y, int64_t n) {
  RowIsa chosen;
  if (!parseRowIsa(isa, kBaseIsa, &chosen)) return false;
  expOn(chosen, x, y, n);
  return true;
}

bool expShiftedSumRowOn(std::string_view isa, const float* x, float shift, float* y, int64_t n,
                        float* sum) {
  RowIsa chosen;
  if (!parseRowIsa(isa, kBaseIsa, &chosen)) return false;
  *sum = expShiftedSumOn(chosen, x, shift, y, n);
  return true;
}

}  // namespace passlab::exec::cpu
