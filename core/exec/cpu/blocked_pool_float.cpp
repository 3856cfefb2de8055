// Separable MaxPool / AveragePool on the blocked layout (blocked_pool_float.h).
// Each output row (a plane and an output row index): the op over the
// window's input rows into a padded row (W x b floats, contiguous), then per
// output column the op over its taps along that row, b channels at a time.
// The loops are plain C++ over compile-time b, vectorized by the compiler:
// as compiled (portable) and, on machines with AVX-512, once more for it.
#include "core/exec/cpu/blocked_pool_float.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string_view>
#include <vector>

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
// row buffer of rowLen x B floats whose padding stays Op::kPad.
template <class Op, int B>
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
    float* out = p.y + r * p.outW * B;
    for (int64_t ow = 0; ow < p.outW; ++ow) {
      const float* src = padded.data() + ow * p.sw * B;
      float acc[B];
      for (int c = 0; c < B; ++c) acc[c] = src[c];
      for (int64_t j = 1; j < p.kw; ++j) {
        const float* tap = src + j * p.dw * B;
        for (int c = 0; c < B; ++c) acc[c] = Op::apply(acc[c], tap[c]);
      }
      float scale = 1.0f;
      if (p.average) {
        const Taps& ct = p.colTaps[static_cast<size_t>(ow)];
        const int64_t n = p.countIncludePad ? t.padded * ct.padded : t.count * ct.count;
        scale = n > 0 ? 1.0f / static_cast<float>(n) : 0.0f;
      }
      float* o = out + ow * B;
      if (p.average)
        for (int c = 0; c < B; ++c) o[c] = acc[c] * scale;
      else
        for (int c = 0; c < B; ++c) o[c] = acc[c];
    }
  }
}

template <class Op, int B>
void poolRowsPortable(const Plan& p, int64_t r0, int64_t r1) {
  poolRowsBody<Op, B>(p, r0, r1);
}

#if defined(__x86_64__) || defined(__i386__)
template <class Op, int B>
__attribute__((target("avx512f"))) void poolRowsAvx512(const Plan& p, int64_t r0, int64_t r1) {
  poolRowsBody<Op, B>(p, r0, r1);
}
#else
template <class Op, int B>
void poolRowsAvx512(const Plan& p, int64_t r0, int64_t r1) {
  poolRowsBody<Op, B>(p, r0, r1);
}
#endif

using RowsFn = void (*)(const Plan&, int64_t, int64_t);

template <class Op>
RowsFn rowsFn(int64_t b, bool avx512) {
  if (b == 16) return avx512 ? poolRowsAvx512<Op, 16> : poolRowsPortable<Op, 16>;
  return avx512 ? poolRowsAvx512<Op, 8> : poolRowsPortable<Op, 8>;
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
  run(p, rowsFn<MaxOp>(b, cpu_isa::hasAvx512f()), planesOf(g, b), threads);
}

void blockedAveragePool(const PoolGeometry& g, bool countIncludePad, int64_t b, const float* x,
                        float* y, int threads) {
  Plan p = makePlan(g, x, y);
  p.average = true;
  p.countIncludePad = countIncludePad;
  run(p, rowsFn<SumOp>(b, cpu_isa::hasAvx512f()), planesOf(g, b), threads);
}

bool blockedPoolWithIsa(const char* isa, bool max, const PoolGeometry& g, bool countIncludePad,
                        int64_t b, const float* x, float* y) {
  const std::string_view name(isa);
  bool avx512 = false;
  if (name == "avx512") {
    if (!cpu_isa::hasAvx512f()) return false;
    avx512 = true;
  } else if (name != "portable") {
    return false;
  }
  Plan p = makePlan(g, x, y);
  p.average = !max;
  p.countIncludePad = countIncludePad;
  run(p, max ? rowsFn<MaxOp>(b, avx512) : rowsFn<SumOp>(b, avx512), planesOf(g, b), 1);
  return true;
}

}  // namespace passlab::exec::cpu
