// DynamicQuantizeLinear's arithmetic, for the kernels that quantize
// dynamically: DynamicQuantizeLinear and ai.passlab RangedDynamicQuantizeLinear
// (quantize.cpp) and ai.passlab FusedConvInteger with quantize_output = 1
// (passlab_fused_conv_integer.cpp: its epilogue quantizes Y as it computes
// it). One formula for all of them, so that they give the same bytes.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#if defined(__x86_64__)
#include "core/support/x86_intrinsics.h"
#endif

#include "core/exec/cpu/value_range.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

// The scale and zero point DynamicQuantizeLinear derives from the range
// (min <= 0 <= max, no NaN): ONNX's formulas, in float32.
struct DynamicQuantization {
  float scale = 1.0f;
  uint8_t zeroPoint = 0;
};

inline DynamicQuantization dynamicQuantization(const ValueRange& r) {
  const float mx = r.max, mn = r.min;
  const float scale = (mx == mn ? 1.0f : mx - mn) / 255.0f;
  const float zpf = std::clamp(0.0f - mn / scale, 0.0f, 255.0f);
  return {scale, static_cast<uint8_t>(std::nearbyint(zpf))};
}

// Whether quantizeLanesAvx512 applies to scale s (else the division).
inline bool fastQuantizationScale(float s) {
  return s >= 0x1p-100f && s <= 0x1p100f;
}

// One x within the range quantized with the division: saturate(RN(x / s) + z).
inline uint8_t quantizeOne(float x, float s, uint8_t z) {
  const float v = std::nearbyint(x / s) + static_cast<float>(z);
  return static_cast<uint8_t>(std::min(std::max(v, 0.0f), 255.0f));
}

#if defined(__x86_64__)
// DynamicQuantizeLinear's quantization of 16 lanes (AVX-512F), for x within
// its range [mn, mx] (so |x / s| <= 256: no float clamp, no NaN, no
// infinity) and s in [2^-100, 2^100] (fastQuantizationScale). The quotient
// without the divider: q0 = RN(x * r) with r = RN(1 / s) (vr), e = x - q0 * s
// exactly (an FMA), then q = RN(q0 + e * r), which is RN(x / s) (Markstein's
// correction: r within half an ulp of 1 / s and q0 within an ulp of x / s,
// no underflow where the rounding can matter); rounded half to even by the
// conversion, the zero point added in integers and clamped below at 0 (the
// caller's unsigned narrowing saturates at 255). The same bytes as the
// division (every float32 x of the range checked for 25 scales, 55e9 values
// in all, none differs: scripts/dev/dynamic_quantize_exhaustive.cpp; random
// tensors and ties: tests/core/exec/quantize_test.cpp).
__attribute__((target("avx512f"))) inline __m512i quantizeLanesAvx512(__m512 x, __m512 vs,
                                                                      __m512 vr, __m512i vz) {
  const __m512 q0 = _mm512_mul_ps(x, vr);
  const __m512 q = _mm512_fmadd_ps(_mm512_fnmadd_ps(q0, vs, x), vr, q0);
  const __m512i v = _mm512_add_epi32(
      _mm512_cvt_roundps_epi32(q, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC), vz);
  return _mm512_max_epi32(v, _mm512_setzero_si512());
}
#endif

// DynamicQuantizeLinear's outputs for x's `range` (the error "x holds NaN"
// when it holds one): output 0 uint8 `dims` (returned, to be filled by the
// caller), output 1 the scale and output 2 the zero point where wanted; *q
// the two.
Expected<Tensor*> allocateDynamicOutputs(KernelContext& ctx, const Dims& dims,
                                         const ValueRange& range, DynamicQuantization* q);

// y[0, n) = DynamicQuantizeLinear's quantization of x[0, n), all within
// their range, with scale s and zero point z: the loop quantizeDynamic runs
// on AVX-512 (runs of 4096 in parallel). Only where hasAvx512f() and
// fastQuantizationScale(s) (quantize.cpp).
void quantizeInRangeFast(const float* x, uint8_t* y, int64_t n, float s, uint8_t z, int threads);

// y = DynamicQuantizeLinear(x) with x's range given: the outputs allocated as
// above and x quantized into output 0 (quantize.cpp).
Status quantizeDynamic(KernelContext& ctx, const Tensor& x, const ValueRange& range);

}  // namespace passlab::exec::cpu
