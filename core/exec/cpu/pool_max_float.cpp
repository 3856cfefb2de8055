// Separable float32 MaxPool and AveragePool (see pool_max_float.h): per output
// row, the max (sum) of the window's input rows into a row padded with the
// lowest float (0), then the max (sum) of each window along that row; 2-D
// windows of stride 1 on rows of at most 32 floats a plane at a time
// (runsOnWholePlanes).
#include "core/exec/cpu/pool_max_float.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string_view>
#include <utility>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include "core/support/x86_intrinsics.h"
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/exec/cpu/pool_ref.h"
#include "core/exec/cpu/pool_taps.h"
#include "core/exec/cpu/window3.h"
#include "core/exec/parallel.h"
#include "core/support/cpu_isa.h"

namespace passlab::exec::cpu {

namespace {

// Floats past the padded row that the stride-2 vector loop may read (unused).
constexpr int64_t kSlack = 8;

// The two reductions: max (padding is the lowest float) and sum (padding is 0).
struct MaxOp {
  static constexpr float kPad = std::numeric_limits<float>::lowest();
  static float apply(float a, float b) { return std::max(a, b); }
#if defined(__SSE2__)
  static __m128 apply(__m128 a, __m128 b) {
    return _mm_max_ps(a, b);
  }
#endif
};
struct SumOp {
  static constexpr float kPad = 0.0f;
  static float apply(float a, float b) { return a + b; }
#if defined(__SSE2__)
  static __m128 apply(__m128 a, __m128 b) {
    return _mm_add_ps(a, b);
  }
#endif
};

// dst[c] = op(dst[c], src[c]) for c in [0, n).
template <class Op>
void reduceInto(float* __restrict dst, const float* __restrict src, int64_t n) {
  int64_t c = 0;
#if defined(__SSE2__)
  for (; c + 8 <= n; c += 8) {
    _mm_storeu_ps(dst + c, Op::apply(_mm_loadu_ps(dst + c), _mm_loadu_ps(src + c)));
    _mm_storeu_ps(dst + c + 4, Op::apply(_mm_loadu_ps(dst + c + 4), _mm_loadu_ps(src + c + 4)));
  }
#endif
  for (; c < n; ++c) dst[c] = Op::apply(dst[c], src[c]);
}

#if defined(__SSE2__)
// p[0], p[2], p[4], p[6].
inline __m128 evens(const float* p) {
  return _mm_shuffle_ps(_mm_loadu_ps(p), _mm_loadu_ps(p + 4), _MM_SHUFFLE(2, 0, 2, 0));
}
#endif

// out[o] = op over j < k of row[o * s + j * d], o in [0, n), taps in order.
template <class Op>
void windowReduce(const float* row, float* out, int64_t n, int64_t k, int64_t s, int64_t d) {
  int64_t o = 0;
#if defined(__SSE2__)
  if (s == 1) {
    for (; o + 4 <= n; o += 4) {
      __m128 m = _mm_loadu_ps(row + o);
      for (int64_t j = 1; j < k; ++j) m = Op::apply(m, _mm_loadu_ps(row + o + j * d));
      _mm_storeu_ps(out + o, m);
    }
  } else if (s == 2) {
    for (; o + 4 <= n; o += 4) {
      const float* p = row + 2 * o;
      __m128 m = evens(p);
      for (int64_t j = 1; j < k; ++j) m = Op::apply(m, evens(p + j * d));
      _mm_storeu_ps(out + o, m);
    }
  }
#endif
  for (; o < n; ++o) {
    const float* p = row + o * s;
    float m = p[0];
    for (int64_t j = 1; j < k; ++j) m = Op::apply(m, p[j * d]);
    out[o] = m;
  }
}

#if defined(__x86_64__) || defined(__i386__)
#define PASSLAB_AVX2 __attribute__((target("avx2,fma")))
// reduceInto and windowReduce in 8 lanes (AVX2 machines): the same taps in
// the same order, so the same bits as the SSE2 loops. Called once per row.
PASSLAB_AVX2 inline __m256 apply8(MaxOp, __m256 a, __m256 b) {
  return _mm256_max_ps(b, a);  // a unless a < b, as std::max and _mm_max_ps(b, a)
}
PASSLAB_AVX2 inline __m256 apply8(SumOp, __m256 a, __m256 b) {
  return _mm256_add_ps(a, b);
}

template <class Op>
PASSLAB_AVX2 void reduceIntoAvx2(float* __restrict dst, const float* __restrict src, int64_t n) {
  int64_t c = 0;
  for (; c + 8 <= n; c += 8)
    _mm256_storeu_ps(dst + c, apply8(Op{}, _mm256_loadu_ps(dst + c), _mm256_loadu_ps(src + c)));
  for (; c < n; ++c) dst[c] = Op::apply(dst[c], src[c]);
}

// p[0], p[2], ..., p[14].
PASSLAB_AVX2 inline __m256 evens8(const float* p) {
  const __m256 m = _mm256_shuffle_ps(_mm256_loadu_ps(p), _mm256_loadu_ps(p + 8),
                                     _MM_SHUFFLE(2, 0, 2, 0));  // 0 2 8 10 | 4 6 12 14
  return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(m), _MM_SHUFFLE(3, 1, 2, 0)));
}

template <class Op>
PASSLAB_AVX2 void windowReduceAvx2(const float* row, float* out, int64_t n, int64_t k, int64_t s,
                                   int64_t d) {
  int64_t o = 0;
  if (s == 1) {
    for (; o + 8 <= n; o += 8) {
      __m256 m = _mm256_loadu_ps(row + o);
      for (int64_t j = 1; j < k; ++j) m = apply8(Op{}, m, _mm256_loadu_ps(row + o + j * d));
      _mm256_storeu_ps(out + o, m);
    }
  } else if (s == 2) {
    for (; o + 8 <= n; o += 8) {
      const float* p = row + 2 * o;
      __m256 m = evens8(p);
      for (int64_t j = 1; j < k; ++j) m = apply8(Op{}, m, evens8(p + j * d));
      _mm256_storeu_ps(out + o, m);
    }
  }
  // The rest (fewer than 8, or another stride) one at a time, here: the SSE2
  // loops called from here ran 2.7x slower (SSE code after AVX code with the
  // upper halves dirty).
  for (; o < n; ++o) {
    const float* p = row + o * s;
    float m = p[0];
    for (int64_t j = 1; j < k; ++j) m = Op::apply(m, p[j * d]);
    out[o] = m;
  }
}
#undef PASSLAB_AVX2

// The row steps on the machine's widest vectors.
template <class Op, bool Avx2>
inline void reduceRow(float* dst, const float* src, int64_t n) {
  if constexpr (Avx2)
    reduceIntoAvx2<Op>(dst, src, n);
  else
    reduceInto<Op>(dst, src, n);
}
template <class Op, bool Avx2>
inline void windowRow(const float* row, float* out, int64_t n, int64_t k, int64_t s, int64_t d) {
  if constexpr (Avx2)
    windowReduceAvx2<Op>(row, out, n, k, s, d);
  else
    windowReduce<Op>(row, out, n, k, s, d);
}
#else
template <class Op, bool Avx2>
inline void reduceRow(float* dst, const float* src, int64_t n) {
  reduceInto<Op>(dst, src, n);
}
template <class Op, bool Avx2>
inline void windowRow(const float* row, float* out, int64_t n, int64_t k, int64_t s, int64_t d) {
  windowReduce<Op>(row, out, n, k, s, d);
}
#endif

// Input rows up to which a stride-1 2-D window runs on whole planes.
constexpr int64_t kWholePlaneMaxWidth = 32;

// True for 2-D windows of stride 1 and dilation 1 on rows of at most
// kWholePlaneMaxWidth floats (inception_v2's 3x3/1 AveragePools and MaxPool
// on 7x7 to 28x28 planes): there the per-row steps of separablePool cost more
// than its reductions of 7-28 floats (wholePlanePool).
bool runsOnWholePlanes(const PoolGeometry& g) {
  if (g.spatial() != 2 || g.in[1] > kWholePlaneMaxWidth) return false;
  for (size_t i = 0; i < 2; ++i)
    if (g.stride[i] != 1 || g.dilation[i] != 1 || g.padBegin[i] >= g.kernel[i]) return false;
  return true;
}

// separablePool for runsOnWholePlanes, one plane at a time: the op over the
// window's input rows as one reduction per kernel row over the plane's
// contiguous rows (v[o] over x[o - padTop + a], the rows in range), those rows
// copied into rows padded with Op::kPad, then one reduction along the padded
// plane as a single row (windows that would cross a row end read padding);
// then each output row taken from it and finish(t0, t1, the output row).
template <class Op, bool Avx2, class Finish>
void wholePlanePool(const PoolGeometry& g, const float* x, float* y, int threads,
                    const Finish& finish) {
  const Window3 q(g);
  const int64_t H = q.in[1], W = q.in[2], outH = q.out[1], outW = q.out[2];
  const int64_t kH = q.k[1], kW = q.k[2], padTop = q.pb[1], padL = q.pb[2];
  const int64_t rowLen = std::max(padL + W, outW + kW - 1);  // a padded row
  const int64_t planes = g.N * g.C * q.out[0];
  const Taps t0 = taps(q, 0, 0);  // the leading axis of a 2-D window: one tap
  std::vector<Taps> taps1(static_cast<size_t>(outH));
  for (int64_t o = 0; o < outH; ++o) taps1[static_cast<size_t>(o)] = taps(q, 1, o);
  const int64_t work = std::max<int64_t>(1, H * W * kH);
  parallelFor(planes, threads, std::max<int64_t>(1, 16384 / work), [&](int64_t b, int64_t e) {
    std::vector<float> v(static_cast<size_t>(outH * W));
    // [0, padL) and [padL + W, rowLen) of every row stay Op::kPad.
    std::vector<float> padded(static_cast<size_t>(outH * rowLen + kSlack), Op::kPad);
    std::vector<float> h(static_cast<size_t>(outH * rowLen));
    for (int64_t p = b; p < e; ++p) {
      const float* xp = x + p * H * W;
      std::fill(v.begin(), v.end(), Op::kPad);
      for (int64_t a = 0; a < kH; ++a) {
        const int64_t lo = std::max<int64_t>(0, padTop - a);
        const int64_t hi = std::min<int64_t>(outH, H + padTop - a);
        if (lo < hi)
          reduceRow<Op, Avx2>(v.data() + lo * W, xp + (lo - padTop + a) * W, (hi - lo) * W);
      }
      for (int64_t o = 0; o < outH; ++o)
        std::memcpy(padded.data() + o * rowLen + padL, v.data() + o * W,
                    static_cast<size_t>(W) * sizeof(float));
      windowRow<Op, Avx2>(padded.data(), h.data(), outH * rowLen - kW + 1, kW, 1, 1);
      for (int64_t o = 0; o < outH; ++o) {
        float* out = y + (p * outH + o) * outW;
        std::memcpy(out, h.data() + o * rowLen, static_cast<size_t>(outW) * sizeof(float));
        finish(t0, taps1[static_cast<size_t>(o)], out);
      }
    }
  });
}

// Per output row (r = its index over planes and the outer output axes): the
// op over the window's input rows into a row padded with Op::kPad, then along
// that row into y; then finish(t0, t1, the output row).
template <class Op, bool Avx2, class Finish>
void separablePoolOn(const PoolGeometry& g, const float* x, float* y, int threads,
                     const Finish& finish) {
  if (runsOnWholePlanes(g)) {
    wholePlanePool<Op, Avx2>(g, x, y, threads, finish);
    return;
  }
  const Window3 q(g);
  const int64_t W = q.in[2], padL = q.pb[2], outW = q.out[2];
  const int64_t rowLen = std::max(padL + W, (outW - 1) * q.s[2] + (q.k[2] - 1) * q.d[2] + 1);
  const int64_t rowsPerPlane = q.out[0] * q.out[1];
  const int64_t rows = g.N * g.C * rowsPerPlane;
  const int64_t work = std::max<int64_t>(1, W * q.k[0] * q.k[1]);
  // The taps of every output index on the two outer axes, computed once (on
  // small planes, 7x7 to 27x27, the per-row taps and index divisions cost
  // about as much as the row's reductions).
  std::vector<Taps> taps0(static_cast<size_t>(q.out[0])), taps1(static_cast<size_t>(q.out[1]));
  for (int64_t o = 0; o < q.out[0]; ++o) taps0[static_cast<size_t>(o)] = taps(q, 0, o);
  for (int64_t o = 0; o < q.out[1]; ++o) taps1[static_cast<size_t>(o)] = taps(q, 1, o);
  parallelFor(rows, threads, std::max<int64_t>(1, 16384 / work), [&](int64_t b, int64_t e) {
    // The padded row: [0, padL) and [padL + W, end) stay Op::kPad.
    std::vector<float> padded(static_cast<size_t>(rowLen + kSlack), Op::kPad);
    float* row = padded.data() + padL;
    // Row r's plane and outer output indices, divided once and then stepped.
    int64_t plane = b / rowsPerPlane, o0 = b % rowsPerPlane / q.out[1], o1 = b % q.out[1];
    for (int64_t r = b; r < e; ++r) {
      const float* xp = x + plane * q.inSize();
      const Taps& t0 = taps0[static_cast<size_t>(o0)];
      const Taps& t1 = taps1[static_cast<size_t>(o1)];
      if (++o1 == q.out[1]) {
        o1 = 0;
        if (++o0 == q.out[0]) {
          o0 = 0;
          ++plane;
        }
      }
      bool first = true;
      for (int64_t a = 0; a < t0.count; ++a)
        for (int64_t c = 0; c < t1.count; ++c) {
          const float* src = xp + ((t0.first + a * t0.step) * q.in[1] + t1.first + c * t1.step) * W;
          if (first) {
            std::memcpy(row, src, static_cast<size_t>(W) * sizeof(float));
            first = false;
          } else {
            reduceRow<Op, Avx2>(row, src, W);
          }
        }
      if (first) std::fill(row, row + W, Op::kPad);  // the window lies in the padding
      float* out = y + r * outW;
      windowRow<Op, Avx2>(padded.data(), out, outW, q.k[2], q.s[2], q.d[2]);
      finish(t0, t1, out);
    }
  });
}

// The row steps' instruction set: AVX2 where the machine has it (as
// PASSLAB_MAX_ISA caps it), SSE2 (plain loops off x86) elsewhere.
bool useAvx2() {
  return cpu_isa::hasAvx2Fma();
}

class MaxPoolFloat final : public Kernel {
 public:
  MaxPoolFloat(PoolAttrs a, std::unique_ptr<Kernel> fallback)
      : attrs_(std::move(a)), fallback_(std::move(fallback)) {}

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    if (x.dtype() != ir::DataType::kFloat || ctx.wantsOutput(1) || attrs_.storageOrder != 0)
      return fallback_->run(ctx);
    PASSLAB_ASSIGN_OR_RETURN(PoolGeometry g, poolGeometry(attrs_, x.dims()));
    if (g.spatial() > 3 || x.numel() == 0) return fallback_->run(ctx);
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, ir::DataType::kFloat, g.outDims));
    maxPoolFloat(g, x.data<float>(), y->mutableData<float>(), ctx.threads());
    return Status::ok();
  }

 private:
  PoolAttrs attrs_;
  std::unique_ptr<Kernel> fallback_;
};

}  // namespace

Expected<std::unique_ptr<Kernel>> makeMaxPoolFloat(const KernelBuild& b) {
  auto a = parsePoolAttrs(b.node());
  if (!a) return a.error();
  auto fallback = makeMaxPoolRef(b);
  if (!fallback) return fallback.error();
  return std::unique_ptr<Kernel>(new MaxPoolFloat(*a, std::move(fallback).value()));
}

namespace {

template <bool Avx2>
void maxPoolOn(const PoolGeometry& g, const float* x, float* y, int threads) {
  separablePoolOn<MaxOp, Avx2>(g, x, y, threads, [](const Taps&, const Taps&, float*) {});
}

template <bool Avx2>
void averagePoolOn(const PoolGeometry& g, bool countIncludePad, const float* x, float* y,
                   int threads) {
  // Taps counted per output column once; a row's count is the product of its axes'.
  const Window3 q(g);
  std::vector<int64_t> columns(static_cast<size_t>(q.out[2]));
  for (int64_t o = 0; o < q.out[2]; ++o) {
    const Taps t = taps(q, 2, o);
    columns[static_cast<size_t>(o)] = countIncludePad ? t.padded : t.count;
  }
  // 1 / (taps of the row's outer axes x the column's taps), per value of the
  // former (at most k0 * k1) and column: a multiply per output instead of a
  // division (within an ulp of dividing); 0 for a window with no taps.
  const int64_t maxRowTaps = q.k[0] * q.k[1];
  const size_t outW = columns.size();
  std::vector<float> scale;
  if ((maxRowTaps + 1) * static_cast<int64_t>(outW) <= (int64_t{1} << 16)) {
    scale.resize(static_cast<size_t>(maxRowTaps + 1) * outW);
    for (int64_t t = 0; t <= maxRowTaps; ++t)
      for (size_t o = 0; o < outW; ++o) {
        const int64_t n = t * columns[o];
        scale[static_cast<size_t>(t) * outW + o] = n > 0 ? 1.0f / static_cast<float>(n) : 0.0f;
      }
  }
  separablePoolOn<SumOp, Avx2>(g, x, y, threads, [&](const Taps& t0, const Taps& t1, float* out) {
    const int64_t rowTaps = countIncludePad ? t0.padded * t1.padded : t0.count * t1.count;
    if (!scale.empty()) {
      const float* s = scale.data() + static_cast<size_t>(rowTaps) * outW;
      for (size_t o = 0; o < outW; ++o) out[o] *= s[o];
      return;
    }
    for (size_t o = 0; o < outW; ++o) {
      const int64_t n = rowTaps * columns[o];
      out[o] = n > 0 ? out[o] / static_cast<float>(n) : 0.0f;
    }
  });
}

}  // namespace

void maxPoolFloat(const PoolGeometry& g, const float* x, float* y, int threads) {
  if (useAvx2())
    maxPoolOn<true>(g, x, y, threads);
  else
    maxPoolOn<false>(g, x, y, threads);
}

void averagePoolFloat(const PoolGeometry& g, bool countIncludePad, const float* x, float* y,
                      int threads) {
  if (useAvx2())
    averagePoolOn<true>(g, countIncludePad, x, y, threads);
  else
    averagePoolOn<false>(g, countIncludePad, x, y, threads);
}

bool separablePoolWithIsa(const char* isa, bool max, const PoolGeometry& g, bool countIncludePad,
                          const float* x, float* y) {
  const std::string_view name(isa);
  if (name != "base" && (name != "avx2" || !useAvx2())) return false;
  const bool avx2 = name == "avx2";
  if (max)
    avx2 ? maxPoolOn<true>(g, x, y, 1) : maxPoolOn<false>(g, x, y, 1);
  else
    avx2 ? averagePoolOn<true>(g, countIncludePad, x, y, 1)
         : averagePoolOn<false>(g, countIncludePad, x, y, 1);
  return true;
}

}  // namespace passlab::exec::cpu
