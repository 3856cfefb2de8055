#include "core/exec/cpu/half_convert_exact.h"

#include "core/exec/cpu/avx512_lanes.h"
#include "core/exec/dtype_traits.h"
#include "core/support/cpu_isa.h"

#if defined(__x86_64__) || defined(__i386__)
#include "core/support/x86_intrinsics.h"
#define PASSLAB_HAVE_AVX512_HALF_PATH 1
#endif

namespace passlab::exec::cpu {

namespace {

#ifdef PASSLAB_HAVE_AVX512_HALF_PATH
#define PASSLAB_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,f16c")))

// 16 halves to floats; NaN lanes as halfToFloatFast gives them (the payload
// shifted up, no quiet bit added: vcvtph2ps would set it).
PASSLAB_TARGET inline __m512 halfToFloat16(__m256i h) {
  __m512 f = _mm512_cvtph_ps(h);
  const __mmask16 nan = _mm256_cmpgt_epu16_mask(_mm256_and_si256(h, _mm256_set1_epi16(0x7fff)),
                                                _mm256_set1_epi16(0x7c00));
  if (nan == 0) return f;
  const __m512i w = _mm512_cvtepu16_epi32(h);
  const __m512i bits = _mm512_or_si512(
      _mm512_or_si512(_mm512_slli_epi32(_mm512_and_si512(w, _mm512_set1_epi32(0x3ff)), 13),
                      _mm512_set1_epi32(0x7f800000)),
      _mm512_slli_epi32(_mm512_and_si512(w, _mm512_set1_epi32(0x8000)), 16));
  return _mm512_mask_mov_ps(f, nan, _mm512_castsi512_ps(bits));
}

// 16 floats to halves; NaN lanes as floatToHalfFast gives them (sign | 0x7e00).
PASSLAB_TARGET inline __m256i floatToHalf16(__m512 v) {
  __m256i h = _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  const __mmask16 nan = _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
  if (nan == 0) return h;
  const __m512i sign =
      _mm512_and_si512(_mm512_srli_epi32(_mm512_castps_si512(v), 16), _mm512_set1_epi32(0x8000));
  const __m256i q = _mm512_cvtepi32_epi16(_mm512_or_si512(sign, _mm512_set1_epi32(0x7e00)));
  return _mm256_mask_mov_epi16(h, nan, q);
}

PASSLAB_TARGET void halfToFloatAvx512(const uint16_t* in, float* out, int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16)
    _mm512_storeu_ps(out + i,
                     halfToFloat16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i))));
  if (i < n) {
    const __mmask16 m = avx512::lanes(n - i);
    _mm512_mask_storeu_ps(out + i, m, halfToFloat16(_mm256_maskz_loadu_epi16(m, in + i)));
  }
}

PASSLAB_TARGET void floatToHalfAvx512(const float* in, uint16_t* out, int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16)
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i),
                        floatToHalf16(_mm512_loadu_ps(in + i)));
  if (i < n) {
    const __mmask16 m = avx512::lanes(n - i);
    _mm256_mask_storeu_epi16(out + i, m, floatToHalf16(_mm512_maskz_loadu_ps(m, in + i)));
  }
}
#undef PASSLAB_TARGET

bool hasAvx512Half() {
  return cpu_isa::hasAvx512BwVl() && cpu_isa::hasF16c();
}
#endif

}  // namespace

void halfToFloatExactN(const uint16_t* in, float* out, int64_t n) {
#ifdef PASSLAB_HAVE_AVX512_HALF_PATH
  if (hasAvx512Half()) return halfToFloatAvx512(in, out, n);
#endif
  for (int64_t i = 0; i < n; ++i) out[i] = halfToFloatFast(in[i]);
}

void floatToHalfExactN(const float* in, uint16_t* out, int64_t n) {
#ifdef PASSLAB_HAVE_AVX512_HALF_PATH
  if (hasAvx512Half()) return floatToHalfAvx512(in, out, n);
#endif
  for (int64_t i = 0; i < n; ++i) out[i] = floatToHalfFast(in[i]);
}

}  // namespace passlab::exec::cpu
