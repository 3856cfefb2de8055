// CumSum and CumProd along one axis (given as a scalar tensor), with the
// `exclusive` (shifted by one, starting from the identity) and `reverse`
// (from the end) attributes. The lines along the axis are accumulated a span
// of contiguous lines at a time (row by row, so the inner loop vectorizes),
// each line in the same order as alone. Parallel over the spans.
//
// A sum starts from -0 (x + -0 is x for every x, -0 included, as onnxruntime
// copies the first element), an exclusive one from +0 (its first output, as
// onnxruntime's).
//
// float32 CumSum on AVX-512 (cpu_isa.h caps) takes each step's running sums
// from the output row before it (out[k] = out[k - 1] + in[k]; exclusive:
// out[k] = out[k - 1] + in[k - 1]), 16 lines per instruction, instead of an
// accumulator row it stores besides: the same additions in the same order,
// so the same bits. Along the last axis (lines alone, contiguous) 16 lines
// are summed together the same way, 16 positions at a time transposed so that
// a lane follows a line.
//
// int32 and int64 CumSum along the last axis on AVX-512 scan each line a
// register of positions at a time: the register's prefix (suffix when
// reverse) sums by log2(lanes) shifted additions, plus the running sum
// carried from the register before; exclusive is that less the element.
// Integer addition wraps and is associative, so the same bits as the loop.
#include "core/support/x86_intrinsics.h"

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "core/exec/cpu/avx512_lanes.h"
#include "core/exec/cpu/data_util.h"
#include "core/exec/cpu/families.h"
#include "core/exec/cpu/transpose16_avx512.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"
#include "core/support/cpu_isa.h"

namespace passlab::exec::cpu {

namespace {

// out = a + b over n floats (a null: -0, out = b).
__attribute__((target("avx512f"))) void addRowAvx512(const float* a, const float* b, float* out,
                                                     int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512 va = a ? _mm512_loadu_ps(a + i) : _mm512_set1_ps(-0.0f);
    _mm512_storeu_ps(out + i, _mm512_add_ps(va, _mm512_loadu_ps(b + i)));
  }
  if (i < n) {
    const __mmask16 k = avx512::lanes(n - i);
    const __m512 va = a ? _mm512_maskz_loadu_ps(k, a + i) : _mm512_set1_ps(-0.0f);
    _mm512_mask_storeu_ps(out + i, k, _mm512_add_ps(va, _mm512_maskz_loadu_ps(k, b + i)));
  }
}

// The `width` lines from `in` / `out` (row k of them at k * inner, taken
// in reverse when `reverse`), summed by addRowAvx512 from the row before.
void cumSumLinesAvx512(const float* in, float* out, int64_t len, int64_t inner, int64_t width,
                       bool exclusive, bool reverse) {
  const float* prevIn = nullptr;
  const float* prevOut = nullptr;
  for (int64_t k = 0; k < len; ++k) {
    const int64_t at = (reverse ? len - 1 - k : k) * inner;
    if (!exclusive) {
      addRowAvx512(prevOut, in + at, out + at, width);
    } else if (prevIn) {
      addRowAvx512(prevOut, prevIn, out + at, width);
    } else {
      std::fill(out + at, out + at + width, 0.0f);
    }
    prevIn = in + at;
    prevOut = out + at;
  }
}

// One tile's steps: r[p] (lane l: line l at position p of the tile) for the
// tile's w positions in order (backwards when reverse), each replaced by the
// running sum after it (before it when exclusive).
__attribute__((target("avx512f"))) inline void sumTile(__m512 r[16], __m512* sum, int64_t w,
                                                       bool exclusive, bool reverse) {
  for (int64_t s = 0; s < w; ++s) {
    const int64_t p = reverse ? w - 1 - s : s;
    const __m512 v = r[p];
    if (!exclusive) *sum = _mm512_add_ps(*sum, v);
    r[p] = *sum;
    if (exclusive) *sum = _mm512_add_ps(*sum, v);
  }
}

// `lines` (1 to 16) lines of `len` contiguous floats (line l at l * len):
// tiles of 16 positions loaded from every line, transposed, summed by sumTile
// (lane l carries line l's sum), transposed back and stored.
__attribute__((target("avx512f"))) void cumSumLastAxisAvx512(const float* in, float* out,
                                                             int64_t lines, int64_t len,
                                                             bool exclusive, bool reverse) {
  __m512 sum = _mm512_set1_ps(exclusive ? 0.0f : -0.0f);
  const int64_t tiles = (len + avx512::kLanes - 1) / avx512::kLanes;
  for (int64_t t = 0; t < tiles; ++t) {
    const int64_t j = (reverse ? tiles - 1 - t : t) * avx512::kLanes;
    const int64_t w = std::min(avx512::kLanes, len - j);
    const __mmask16 k = avx512::lanes(w);
    __m512 r[16];
    for (int64_t l = 0; l < 16; ++l)
      r[l] = l < lines ? _mm512_maskz_loadu_ps(k, in + l * len + j) : _mm512_setzero_ps();
    transpose16(r);
    sumTile(r, &sum, w, exclusive, reverse);
    transpose16(r);
    for (int64_t l = 0; l < lines; ++l) _mm512_mask_storeu_ps(out + l * len + j, k, r[l]);
  }
}

// v's inclusive prefix sums (suffix sums when kReverse) over its lanes of T
// (int32 or int64): v plus v shifted by 1, 2, 4 (and 8) lanes.
template <class T, bool kReverse>
__attribute__((target("avx512f"))) inline __m512i scanLanes(__m512i v) {
  const __m512i z = _mm512_setzero_si512();
  if constexpr (sizeof(T) == 4) {
    if constexpr (kReverse) {
      v = _mm512_add_epi32(v, _mm512_alignr_epi32(z, v, 1));
      v = _mm512_add_epi32(v, _mm512_alignr_epi32(z, v, 2));
      v = _mm512_add_epi32(v, _mm512_alignr_epi32(z, v, 4));
      return _mm512_add_epi32(v, _mm512_alignr_epi32(z, v, 8));
    } else {
      v = _mm512_add_epi32(v, _mm512_alignr_epi32(v, z, 15));
      v = _mm512_add_epi32(v, _mm512_alignr_epi32(v, z, 14));
      v = _mm512_add_epi32(v, _mm512_alignr_epi32(v, z, 12));
      return _mm512_add_epi32(v, _mm512_alignr_epi32(v, z, 8));
    }
  } else {
    if constexpr (kReverse) {
      v = _mm512_add_epi64(v, _mm512_alignr_epi64(z, v, 1));
      v = _mm512_add_epi64(v, _mm512_alignr_epi64(z, v, 2));
      return _mm512_add_epi64(v, _mm512_alignr_epi64(z, v, 4));
    } else {
      v = _mm512_add_epi64(v, _mm512_alignr_epi64(v, z, 7));
      v = _mm512_add_epi64(v, _mm512_alignr_epi64(v, z, 6));
      return _mm512_add_epi64(v, _mm512_alignr_epi64(v, z, 4));
    }
  }
}

// One line of `len` contiguous T (int32 or int64) summed a register at a
// time, from the end when kReverse; the running sum is the last (first)
// lane of the register before, broadcast.
template <class T, bool kReverse>
__attribute__((target("avx512f"))) void cumSumIntLineAvx512(const T* in, T* out, int64_t len,
                                                            bool exclusive) {
  constexpr bool k32 = sizeof(T) == 4;
  constexpr int64_t kL = 64 / static_cast<int64_t>(sizeof(T));
  const __m512i carryLane =
      k32 ? _mm512_set1_epi32(kReverse ? 0 : 15) : _mm512_set1_epi64(kReverse ? 0 : 7);
  __m512i carry = _mm512_setzero_si512();
  const int64_t regs = (len + kL - 1) / kL;
  for (int64_t t = 0; t < regs; ++t) {
    const int64_t j = (kReverse ? regs - 1 - t : t) * kL;
    const int64_t w = std::min(kL, len - j);
    if constexpr (k32) {
      const __mmask16 k = avx512::lanes(w);
      const __m512i v = _mm512_maskz_loadu_epi32(k, in + j);
      const __m512i s = _mm512_add_epi32(scanLanes<T, kReverse>(v), carry);
      carry = _mm512_permutexvar_epi32(carryLane, s);
      _mm512_mask_storeu_epi32(out + j, k, exclusive ? _mm512_sub_epi32(s, v) : s);
    } else {
      const auto k = static_cast<__mmask8>((1u << w) - 1);
      const __m512i v = _mm512_maskz_loadu_epi64(k, in + j);
      const __m512i s = _mm512_add_epi64(scanLanes<T, kReverse>(v), carry);
      carry = _mm512_permutexvar_epi64(carryLane, s);
      _mm512_mask_storeu_epi64(out + j, k, exclusive ? _mm512_sub_epi64(s, v) : s);
    }
  }
}

template <bool kProd>
class Cumulative final : public Kernel {
 public:
  explicit Cumulative(const KernelBuild& b)
      : exclusive_(b.node().attrInt("exclusive", 0) != 0),
        reverse_(b.node().attrInt("reverse", 0) != 0) {}

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    const Tensor& a = ctx.input(1);
    if (a.numel() != 1 || a.rank() > 1)
      return invalidArgument("axis must be a scalar, got " + a.describe());
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int64_t> axisValue, readInts(a, "axis"));
    const auto rank = static_cast<int64_t>(x.rank());
    if (rank == 0) return invalidArgument("the input must have at least one dim");
    PASSLAB_ASSIGN_OR_RETURN(int64_t axis, normalizeAxis(axisValue[0], rank));
    int64_t outer = 1, inner = 1;
    const int64_t len = x.dim(static_cast<size_t>(axis));
    for (int64_t d = 0; d < axis; ++d) outer *= x.dim(static_cast<size_t>(d));
    for (int64_t d = axis + 1; d < rank; ++d) inner *= x.dim(static_cast<size_t>(d));
    return dispatch<types::kNumeric>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      using C = ComputeT<S>;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), x.dims()));
      const S* in = x.data<S>();
      S* out = y->mutableData<S>();
      const bool avx512 = cpu_isa::hasAvx512f();
      if constexpr (!kProd && (std::is_same_v<S, int32_t> || std::is_same_v<S, int64_t>)) {
        if (avx512 && inner == 1) {
          parallelFor(
              outer, ctx.threads(), std::max<int64_t>(1, kElementwiseGrain / (len + 1)),
              [&](int64_t b, int64_t e) {
                for (int64_t l = b; l < e; ++l) {
                  if (reverse_)
                    cumSumIntLineAvx512<S, true>(in + l * len, out + l * len, len, exclusive_);
                  else
                    cumSumIntLineAvx512<S, false>(in + l * len, out + l * len, len, exclusive_);
                }
              });
          return Status::ok();
        }
      }
      if constexpr (!kProd && std::is_same_v<S, float>) {
        if (avx512 && inner == 1) {  // one line too: 2.5 ms for 2^20, 3.7 in the loop
          const int64_t groups = (outer + avx512::kLanes - 1) / avx512::kLanes;
          parallelFor(groups, ctx.threads(),
                      std::max<int64_t>(1, kElementwiseGrain / (avx512::kLanes * len + 1)),
                      [&](int64_t b, int64_t e) {
                        for (int64_t g = b; g < e; ++g) {
                          const int64_t first = g * avx512::kLanes;
                          cumSumLastAxisAvx512(in + first * len, out + first * len,
                                               std::min(avx512::kLanes, outer - first), len,
                                               exclusive_, reverse_);
                        }
                      });
          return Status::ok();
        }
      }
      // Work items are (outer block, span of `inner`): the lines of a span are
      // accumulated together, one contiguous row of `inner` per step along the axis.
      const int64_t spans = (inner + kSpan - 1) / kSpan;
      parallelFor(outer * spans, ctx.threads(),
                  std::max<int64_t>(1, kElementwiseGrain / (len * std::min(inner, kSpan) + 1)),
                  [&](int64_t b, int64_t e) {
                    std::vector<C> acc(static_cast<size_t>(std::min(inner, kSpan)));
                    for (int64_t item = b; item < e; ++item) {
                      const int64_t o = item / spans, i0 = (item % spans) * kSpan;
                      const int64_t width = std::min(kSpan, inner - i0);
                      const int64_t base = o * len * inner + i0;
                      if constexpr (!kProd && std::is_same_v<S, float>) {
                        if (avx512 && width >= 16) {  // (lines alone: the scalar loop)
                          cumSumLinesAvx512(in + base, out + base, len, inner, width, exclusive_,
                                            reverse_);
                          continue;
                        }
                      }
                      std::fill(acc.begin(), acc.begin() + width, identity<C>());
                      for (int64_t k = 0; k < len; ++k) {
                        const int64_t at = base + (reverse_ ? len - 1 - k : k) * inner;
                        accumulateRow(in + at, out + at, acc.data(), width);
                      }
                    }
                  });
      return Status::ok();
    });
  }

 private:
  static constexpr int64_t kSpan = 1024;  // lines accumulated together

  // What a line's sum or product starts from.
  template <class C>
  C identity() const {
    if constexpr (kProd) return C(1);
    if constexpr (std::is_floating_point_v<C>) return exclusive_ ? C(0) : -C(0);
    return C(0);
  }

  // One step along the axis for `width` lines: acc op= in, out = acc (before
  // the step when exclusive), in the same order as line by line.
  template <class S, class C>
  void accumulateRow(const S* in, S* out, C* acc, int64_t width) const {
    if (exclusive_) {
      for (int64_t i = 0; i < width; ++i) {
        const C v = load(in[i]);
        out[i] = store<S>(acc[i]);
        acc[i] = kProd ? static_cast<C>(acc[i] * v) : static_cast<C>(acc[i] + v);
      }
    } else {
      for (int64_t i = 0; i < width; ++i) {
        const C v = load(in[i]);
        acc[i] = kProd ? static_cast<C>(acc[i] * v) : static_cast<C>(acc[i] + v);
        out[i] = store<S>(acc[i]);
      }
    }
  }

  bool exclusive_, reverse_;
};

const KernelDef kRows[] = {
    // Dispatch on x; axis is int32 or int64.
    {"", "CumSum", 11, kOpsetMax, types::kNumeric, 0, Tier::kReference, "cpu.CumSum",
     makeKernel<Cumulative<false>>},
    {"", "CumProd", 26, kOpsetMax, types::kNumeric, 0, Tier::kReference, "cpu.CumProd",
     makeKernel<Cumulative<true>>},
};

}  // namespace

std::span<const KernelDef> cumulativeKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
