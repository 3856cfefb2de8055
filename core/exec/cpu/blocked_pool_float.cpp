// Separable MaxPool / AveragePool on the blocked layout (blocked_pool_float.h).
// Each output row (a plane and an output row index): the op over the
// window's input rows into a padded row (W x b floats, contiguous), then per
// output column the op over its taps along that row, b channels at a time.
// The loops over rows are plain C++ over compile-time b, vectorized by the
// compiler: as compiled (portable), once more for AVX2 + FMA and once more
// for AVX-512; the run picks the best the machine has (cpu_isa, capped by
// PASSLAB_MAX_ISA). The pass along a row is written in vectors on SSE2 (the
// portable path on x86), AVX2 (a block of 8 is one register) and AVX-512 (a
// block of 16 is one): compiled from plain loops it stayed scalar, one maxss
// per lane and tap.
#include "core/exec/cpu/blocked_pool_float.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string_view>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include "core/support/x86_intrinsics.h"
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/exec/cpu/pool_taps.h"
#include "core/exec/cpu/window3.h"
#include "core/exec/parallel.h"
#include "core/support/cpu_isa.h"

namespace passlab::exec::cpu {

namespace {

#define PASSLAB_INLINE inline __attribute__((always_inline))

struct MaxOp {
  static constexpr float kPad = std::numeric_limits<float>::lowest();
  static PASSLAB_INLINE float apply(float a, float b) { return std::max(a, b); }
};
struct SumOp {
  static constexpr float kPad = 0.0f;
  static PASSLAB_INLINE float apply(float a, float b) { return a + b; }
};

// What every output row needs, computed once per call.
struct Plan {
  int64_t H = 0, W = 0, outH = 0, outW = 0;
  int64_t kw = 1, sw = 1, dw = 1, padL = 0, rowLen = 0;  // rowLen: padded row, in pixels
  std::vector<Taps> rowTaps;                             // per output row index
  std::vector<Taps> colTaps;                             // per output column
  bool average = false, countIncludePad = false;
  const float* x = nullptr;
  float* y = nullptr;
};

Plan makePlan(const PoolGeometry& g, const float* x, float* y) {
  const Window3 q(g);  // 2 spatial dims: axes 1 (H) and 2 (W)
  Plan p;
  p.H = q.in[1];
  p.W = q.in[2];
  p.outH = q.out[1];
  p.outW = q.out[2];
  p.kw = q.k[2];
  p.sw = q.s[2];
  p.dw = q.d[2];
  p.padL = q.pb[2];
  p.rowLen = std::max(p.padL + p.W, (p.outW - 1) * p.sw + (p.kw - 1) * p.dw + 1);
  for (int64_t o = 0; o < p.outH; ++o) p.rowTaps.push_back(taps(q, 1, o));
  for (int64_t o = 0; o < p.outW; ++o) p.colTaps.push_back(taps(q, 2, o));
  p.x = x;
  p.y = y;
  return p;
}

// dst[i] = op(dst[i], src[i]), i in [0, n).
template <class Op>
PASSLAB_INLINE void reduceInto(float* __restrict dst, const float* __restrict src, int64_t n) {
  for (int64_t i = 0; i < n; ++i) dst[i] = Op::apply(dst[i], src[i]);
}

// dst[i] = op(a[i], b[i]), i in [0, n).
template <class Op>
PASSLAB_INLINE void reduceTwo(float* __restrict dst, const float* __restrict a,
                              const float* __restrict b, int64_t n) {
  for (int64_t i = 0; i < n; ++i) dst[i] = Op::apply(a[i], b[i]);
}

// Output rows [r0, r1) (row r: plane r / outH, output row r % outH), with a
// row buffer of rowLen x B floats whose padding stays Op::kPad; Cols makes
// the output row from the padded one.
template <class Op, int B, class Cols>
PASSLAB_INLINE void poolRowsBody(const Plan& p, int64_t r0, int64_t r1) {
  std::vector<float> padded(static_cast<size_t>(p.rowLen * B), Op::kPad);
  float* row = padded.data() + p.padL * B;
  const int64_t rowFloats = p.W * B;
  for (int64_t r = r0; r < r1; ++r) {
    const int64_t plane = r / p.outH, oh = r % p.outH;
    const Taps& t = p.rowTaps[static_cast<size_t>(oh)];
    const float* xp = p.x + plane * p.H * rowFloats;
    if (t.count == 0) {
      std::fill(row, row + rowFloats, Op::kPad);  // the window lies in the padding
    } else if (t.count == 1) {
      std::memcpy(row, xp + t.first * rowFloats, sizeof(float) * static_cast<size_t>(rowFloats));
    } else {
      // The first two rows in one pass (no copy first), then the others.
      reduceTwo<Op>(row, xp + t.first * rowFloats, xp + (t.first + t.step) * rowFloats, rowFloats);
      for (int64_t a = 2; a < t.count; ++a)
        reduceInto<Op>(row, xp + (t.first + a * t.step) * rowFloats, rowFloats);
    }
    Cols::template run<Op, B>(p, t, padded.data(), p.y + r * p.outW * B);
  }
}

// The divisor's inverse of output (row taps t, column ow): 1 for a max.
PASSLAB_INLINE float scaleOf(const Plan& p, const Taps& t, int64_t ow) {
  if (!p.average) return 1.0f;
  const Taps& ct = p.colTaps[static_cast<size_t>(ow)];
  const int64_t n = p.countIncludePad ? t.padded * ct.padded : t.count * ct.count;
  return n > 0 ? 1.0f / static_cast<float>(n) : 0.0f;
}

// The pass along a padded row (output row with row taps t): per output
// column the op over its kw taps, tap 0 first, then the scale (averages).
struct PlainCols {
  template <class Op, int B>
  static PASSLAB_INLINE void run(const Plan& p, const Taps& t, const float* padded, float* out) {
    for (int64_t ow = 0; ow < p.outW; ++ow) {
      const float* src = padded + ow * p.sw * B;
      float acc[B];
      for (int c = 0; c < B; ++c) acc[c] = src[c];
      for (int64_t j = 1; j < p.kw; ++j) {
        const float* tap = src + j * p.dw * B;
        for (int c = 0; c < B; ++c) acc[c] = Op::apply(acc[c], tap[c]);
      }
      const float scale = scaleOf(p, t, ow);
      float* o = out + ow * B;
      if (p.average)
        for (int c = 0; c < B; ++c) o[c] = acc[c] * scale;
      else
        for (int c = 0; c < B; ++c) o[c] = acc[c];
    }
  }
};

#if defined(__SSE2__)
// PlainCols on SSE2 (every x86-64): 4 lanes a register, the same order.
PASSLAB_INLINE __m128 apply4(MaxOp, __m128 a, __m128 b) {
  return _mm_max_ps(b, a);  // a unless a < b, as std::max (maxps: second when unordered)
}
PASSLAB_INLINE __m128 apply4(SumOp, __m128 a, __m128 b) {
  return _mm_add_ps(a, b);
}

struct Sse2Cols {
  template <class Op, int B>
  static PASSLAB_INLINE void run(const Plan& p, const Taps& t, const float* padded, float* out) {
    static_assert(B % 4 == 0);
    const int64_t step = p.sw * B, tapStep = p.dw * B;
    for (int64_t ow = 0; ow < p.outW; ++ow) {
      const float* src = padded + ow * step;
      float* o = out + ow * B;
      const __m128 scale = _mm_set1_ps(scaleOf(p, t, ow));
      for (int h = 0; h < B; h += 4) {
        __m128 acc = _mm_loadu_ps(src + h);
        for (int64_t j = 1; j < p.kw; ++j)
          acc = apply4(Op{}, acc, _mm_loadu_ps(src + j * tapStep + h));
        if (p.average) acc = _mm_mul_ps(acc, scale);
        _mm_storeu_ps(o + h, acc);
      }
    }
  }
};
using PortableCols = Sse2Cols;
#else
using PortableCols = PlainCols;
#endif

template <class Op, int B>
void poolRowsPortable(const Plan& p, int64_t r0, int64_t r1) {
  poolRowsBody<Op, B, PortableCols>(p, r0, r1);
}

#if defined(__x86_64__) || defined(__i386__)
#define PASSLAB_AVX2 __attribute__((target("avx2,fma")))

// The op on 8 lanes, as Op::apply on each: max(a, b) keeps a unless a < b
// (maxps returns its second operand when unordered), sums in the same order.
PASSLAB_AVX2 PASSLAB_INLINE __m256 apply8(MaxOp, __m256 a, __m256 b) {
  return _mm256_max_ps(b, a);
}
PASSLAB_AVX2 PASSLAB_INLINE __m256 apply8(SumOp, __m256 a, __m256 b) {
  return _mm256_add_ps(a, b);
}

// PlainCols on AVX2: a block of 8 channels is one register (16: two). The
// compiler keeps PlainCols' acc[] in scalar registers (one vmaxss per lane
// and tap), which made this pass the pools' cost on AVX2 machines. Called
// once per output row (not inlined: poolRowsBody has no target of its own).
struct Avx2Cols {
  template <class Op, int B>
  PASSLAB_AVX2 static void run(const Plan& p, const Taps& t, const float* padded, float* out) {
    static_assert(B % 8 == 0);
    const int64_t step = p.sw * B, tapStep = p.dw * B;
    for (int64_t ow = 0; ow < p.outW; ++ow) {
      const float* src = padded + ow * step;
      float* o = out + ow * B;
      const __m256 scale = _mm256_set1_ps(scaleOf(p, t, ow));
      for (int h = 0; h < B; h += 8) {
        __m256 acc = _mm256_loadu_ps(src + h);
        for (int64_t j = 1; j < p.kw; ++j)
          acc = apply8(Op{}, acc, _mm256_loadu_ps(src + j * tapStep + h));
        if (p.average) acc = _mm256_mul_ps(acc, scale);
        _mm256_storeu_ps(o + h, acc);
      }
    }
  }
};

template <class Op, int B>
PASSLAB_AVX2 void poolRowsAvx2(const Plan& p, int64_t r0, int64_t r1) {
  poolRowsBody<Op, B, Avx2Cols>(p, r0, r1);
}
#undef PASSLAB_AVX2
#define PASSLAB_AVX512 __attribute__((target("avx512f,avx2,fma")))

PASSLAB_AVX512 PASSLAB_INLINE __m512 apply16(MaxOp, __m512 a, __m512 b) {
  return _mm512_max_ps(b, a);  // as apply8: a unless a < b
}
PASSLAB_AVX512 PASSLAB_INLINE __m512 apply16(SumOp, __m512 a, __m512 b) {
  return _mm512_add_ps(a, b);
}

// PlainCols on AVX-512: a block of 16 channels is one register, a block of 8
// one AVX register (as Avx2Cols). The same taps in the same order as the
// other paths, so the same bits. Compiled from plain loops this pass stayed
// scalar (one vmaxss per lane and tap): inception_v2's 64 x 112 x 112 stem
// took 0.081 ms where oneDNN's AVX-512 pooling took 0.148 (h4, session 36).
struct Avx512Cols {
  template <class Op, int B>
  PASSLAB_AVX512 static void run(const Plan& p, const Taps& t, const float* padded, float* out) {
    static_assert(B == 8 || B == 16);
    const int64_t step = p.sw * B, tapStep = p.dw * B;
    for (int64_t ow = 0; ow < p.outW; ++ow) {
      const float* src = padded + ow * step;
      float* o = out + ow * B;
      const float scale = scaleOf(p, t, ow);
      if constexpr (B == 16) {
        __m512 acc = _mm512_loadu_ps(src);
        for (int64_t j = 1; j < p.kw; ++j)
          acc = apply16(Op{}, acc, _mm512_loadu_ps(src + j * tapStep));
        if (p.average) acc = _mm512_mul_ps(acc, _mm512_set1_ps(scale));
        _mm512_storeu_ps(o, acc);
      } else {
        __m256 acc = _mm256_loadu_ps(src);
        for (int64_t j = 1; j < p.kw; ++j)
          acc = apply8(Op{}, acc, _mm256_loadu_ps(src + j * tapStep));
        if (p.average) acc = _mm256_mul_ps(acc, _mm256_set1_ps(scale));
        _mm256_storeu_ps(o, acc);
      }
    }
  }
};

template <class Op, int B>
PASSLAB_AVX512 void poolRowsAvx512(const Plan& p, int64_t r0, int64_t r1) {
  poolRowsBody<Op, B, Avx512Cols>(p, r0, r1);
}
#undef PASSLAB_AVX512
#else
template <class Op, int B>
void poolRowsAvx2(const Plan& p, int64_t r0, int64_t r1) {
  poolRowsBody<Op, B, PlainCols>(p, r0, r1);
}
template <class Op, int B>
void poolRowsAvx512(const Plan& p, int64_t r0, int64_t r1) {
  poolRowsBody<Op, B, PlainCols>(p, r0, r1);
}
#endif

enum class PoolIsa { kPortable, kAvx2, kAvx512 };

// The best the machine has (PASSLAB_MAX_ISA caps cpu_isa).
PoolIsa detectedIsa() {
  return cpu_isa::hasAvx512f()   ? PoolIsa::kAvx512
         : cpu_isa::hasAvx2Fma() ? PoolIsa::kAvx2
                                 : PoolIsa::kPortable;
}

using RowsFn = void (*)(const Plan&, int64_t, int64_t);

template <class Op, int B>
RowsFn rowsFnOf(PoolIsa isa) {
  switch (isa) {
    case PoolIsa::kAvx512:
      return poolRowsAvx512<Op, B>;
    case PoolIsa::kAvx2:
      return poolRowsAvx2<Op, B>;
    case PoolIsa::kPortable:
      break;
  }
  return poolRowsPortable<Op, B>;
}

template <class Op>
RowsFn rowsFn(int64_t b, PoolIsa isa) {
  return b == 16 ? rowsFnOf<Op, 16>(isa) : rowsFnOf<Op, 8>(isa);
}

void run(const Plan& p, RowsFn rows, int64_t planes, int threads) {
  const int64_t n = planes * p.outH;
  const int64_t work = std::max<int64_t>(1, p.W * p.rowLen);
  parallelFor(n, threads, std::max<int64_t>(1, 4096 / work),
              [&](int64_t r0, int64_t r1) { rows(p, r0, r1); });
}

int64_t planesOf(const PoolGeometry& g, int64_t b) {
  return g.N * ((g.C + b - 1) / b);
}

#undef PASSLAB_INLINE

}  // namespace

void blockedMaxPool(const PoolGeometry& g, int64_t b, const float* x, float* y, int threads) {
  const Plan p = makePlan(g, x, y);
  run(p, rowsFn<MaxOp>(b, detectedIsa()), planesOf(g, b), threads);
}

void blockedAveragePool(const PoolGeometry& g, bool countIncludePad, int64_t b, const float* x,
                        float* y, int threads) {
  Plan p = makePlan(g, x, y);
  p.average = true;
  p.countIncludePad = countIncludePad;
  run(p, rowsFn<SumOp>(b, detectedIsa()), planesOf(g, b), threads);
}

bool blockedPoolWithIsa(const char* isa, bool max, const PoolGeometry& g, bool countIncludePad,
                        int64_t b, const float* x, float* y) {
  const std::string_view name(isa);
  PoolIsa path = PoolIsa::kPortable;
  if (name == "avx512") {
    if (!cpu_isa::hasAvx512f()) return false;
    path = PoolIsa::kAvx512;
  } else if (name == "avx2") {
    if (!cpu_isa::hasAvx2Fma()) return false;
    path = PoolIsa::kAvx2;
  } else if (name != "portable") {
    return false;
  }
  Plan p = makePlan(g, x, y);
  p.average = !max;
  p.countIncludePad = countIncludePad;
  run(p, max ? rowsFn<MaxOp>(b, path) : rowsFn<SumOp>(b, path), planesOf(g, b), 1);
  return true;
}

}  // namespace passlab::exec::cpu
