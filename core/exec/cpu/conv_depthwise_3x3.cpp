#include "core/exec/cpu/conv_depthwise_3x3.h"

#include <algorithm>

#include "core/exec/cpu/avx512_lanes.h"
#include "core/exec/parallel.h"
#include "core/support/cpu_isa.h"

namespace passlab::exec::cpu {

namespace {

// The outputs [first, last) whose tap at input offset `offset` (o * stride +
// offset) lies inside a row of `in` elements.
void validOutputs(int64_t offset, int64_t stride, int64_t in, int64_t out, int64_t& first,
                  int64_t& last) {
  first = offset >= 0 ? 0 : (-offset + stride - 1) / stride;
  last = in - 1 - offset < 0 ? 0 : std::min(out, (in - 1 - offset) / stride + 1);
  first = std::min(first, last);
}

// One output row, portable: the bias, then each tap of the three input rows
// (kh, kw order) over the outputs it reaches.
void rowPortable(const ConvDepthwise3x3Shape& s, const float* x, const float* w, float b, int64_t i,
                 float* y) {
  std::fill(y, y + s.OW, b);
  for (int64_t kh = 0; kh < 3; ++kh) {
    const int64_t ih = i * s.strideH + kh - s.padTop;
    if (ih < 0 || ih >= s.H) continue;
    const float* xr = x + ih * s.W;
    for (int64_t kw = 0; kw < 3; ++kw) {
      const int64_t offset = kw - s.padLeft;
      int64_t first = 0, last = 0;
      validOutputs(offset, s.strideW, s.W, s.OW, first, last);
      const float wk = w[kh * 3 + kw];
      if (s.strideW == 1) {
        const float* xs = xr + offset;
        for (int64_t o = first; o < last; ++o) y[o] += wk * xs[o];
      } else {
        for (int64_t o = first; o < last; ++o) y[o] += wk * xr[o * s.strideW + offset];
      }
    }
  }
}

void planePortable(const ConvDepthwise3x3Shape& s, const float* x, const float* w, float b,
                   float* y) {
  for (int64_t i = 0; i < s.OH; ++i) rowPortable(s, x, w, b, i, y + i * s.OW);
}

#if defined(__x86_64__)
// The lanes j of 16 with lo <= j < hi.
inline __mmask16 rangeMask(int64_t lo, int64_t hi) {
  lo = std::clamp<int64_t>(lo, 0, 16);
  hi = std::clamp<int64_t>(hi, 0, 16);
  if (hi <= lo) return 0;
  const uint32_t upTo = hi == 16 ? 0xffffu : (1u << hi) - 1;
  return static_cast<__mmask16>(upTo & ~((1u << lo) - 1));
}

// One plane, 16 outputs a vector, column block by column block: the masks of
// the three taps of a row (the inputs inside the row: zeros outside, no read
// past it) depend on the block only, so they are made once per block; then
// each output row's accumulator starts at the bias and takes the nine taps
// in (kh, kw) order. Stride 2 loads 32 inputs and keeps the even ones.
__attribute__((target("avx512f"))) void planeAvx512(const ConvDepthwise3x3Shape& s, const float* x,
                                                    const float* w, float b, float* y) {
  const __m512i evens =
      _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  __m512 wv[9];
  for (int k = 0; k < 9; ++k) wv[k] = _mm512_set1_ps(w[k]);
  const __m512 bv = _mm512_set1_ps(b);
  const bool two = s.strideW == 2;
  for (int64_t o0 = 0; o0 < s.OW; o0 += avx512::kLanes) {
    const __mmask16 store = avx512::lanes(s.OW - o0);
    int64_t base[3];
    __mmask16 lo[3], hi[3];
    for (int64_t kw = 0; kw < 3; ++kw) {
      base[kw] = o0 * s.strideW + kw - s.padLeft;
      lo[kw] = rangeMask(-base[kw], s.W - base[kw]);
      hi[kw] = rangeMask(-base[kw] - 16, s.W - base[kw] - 16);
    }
    for (int64_t i = 0; i < s.OH; ++i) {
      __m512 acc = bv;
      for (int64_t kh = 0; kh < 3; ++kh) {
        const int64_t ih = i * s.strideH + kh - s.padTop;
        if (ih < 0 || ih >= s.H) continue;
        // Addresses as integers: a masked load never touches its masked lanes.
        const uintptr_t xr = reinterpret_cast<uintptr_t>(x + ih * s.W);
        for (int64_t kw = 0; kw < 3; ++kw) {
          const float* at = reinterpret_cast<const float*>(xr + base[kw] * int64_t(sizeof(float)));
          __m512 v = _mm512_maskz_loadu_ps(lo[kw], at);
          if (two) v = _mm512_permutex2var_ps(v, evens, _mm512_maskz_loadu_ps(hi[kw], at + 16));
          acc = _mm512_fmadd_ps(wv[kh * 3 + kw], v, acc);
        }
      }
      _mm512_mask_storeu_ps(y + i * s.OW + o0, store, acc);
    }
  }
}
#endif

using PlaneFn = void (*)(const ConvDepthwise3x3Shape&, const float*, const float*, float, float*);

PlaneFn planeKernel() {
#if defined(__x86_64__)
  if (cpu_isa::hasAvx512f()) return planeAvx512;
#endif
  return planePortable;
}

}  // namespace

ConvDepthwise3x3Shape depthwise3x3Shape(const ConvGeometry& g) {
  return {g.N,      g.C,         g.in[0],     g.in[1],       g.out[0],
          g.out[1], g.stride[0], g.stride[1], g.padBegin[0], g.padBegin[1]};
}

void convDepthwise3x3(const ConvDepthwise3x3Shape& s, const float* x, const float* w,
                      const float* bias, float* y, int threads, const PlaneEpilogue& after) {
  const PlaneFn plane = planeKernel();
  const int64_t planes = s.N * s.C, in = s.H * s.W, out = s.OH * s.OW;
  const int64_t grain = std::max<int64_t>(1, 16384 / (9 * out + 1));
  parallelFor(planes, threads, grain, [&](int64_t begin, int64_t end) {
    for (int64_t p = begin; p < end; ++p) {
      const int64_t c = p % s.C;
      float* yp = y + p * out;
      plane(s, x + p * in, w + c * 9, bias ? bias[c] : 0.0f, yp);
      if (after) after(p, yp);
    }
  });
}

}  // namespace passlab::exec::cpu
