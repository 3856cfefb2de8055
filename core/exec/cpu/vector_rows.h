// Binary elementwise steps whose one operand repeats a short vector along a
// run of middle dims, as the blocked layout's squeeze-excite scale
// [N, C/16, H, W, 16] * [N, C/16, 1, 1, 16] or a bias [D] added to [B, S, D].
// BroadcastWalker visits such an output in runs of the vector's width, and
// for a width of 16 its per-run bookkeeping costs more than the run's
// arithmetic (ppocr_cls_mobile_v2's 9 blocked Muls: 0.085 ms of a 0.65 ms
// run, docs/exec-benchmark.md, session 26). Here the output is rows of that
// width, each one op(row of the operand with the output's dims, the vector of
// its outer index), in one loop: the same op on the same elements.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>

#include "core/exec/parallel.h"
#include "core/exec/tensor.h"

namespace passlab::exec::cpu {

// `out` as [outer, middle, width]: the operand `full` has out's dims, the
// other one the dims [outer, 1, width] (its vectors).
struct VectorRows {
  int64_t outer = 1;   // vectors
  int64_t middle = 1;  // rows that read the same vector
  int64_t width = 1;   // elements of a row and of a vector
  int full = 0;        // 0 or 1: the operand with the output's dims
};

// The split of `out` (the broadcast of a and b) into VectorRows when one
// operand has out's dims and the other, right-aligned, equals out on the
// last dims (more than one element) and on the first, and is 1 on those
// between (more than one element); nullopt otherwise.
inline std::optional<VectorRows> vectorRows(const Dims& out, const Dims& a, const Dims& b) {
  VectorRows s;
  if (a == out)
    s.full = 0;
  else if (b == out)
    s.full = 1;
  else
    return std::nullopt;
  const Dims& v = s.full == 0 ? b : a;
  const size_t shift = out.size() - v.size();
  auto vecDim = [&](size_t i) { return i < shift ? int64_t{1} : v[i - shift]; };
  size_t i = out.size();
  for (; i > 0 && vecDim(i - 1) == out[i - 1]; --i) s.width *= out[i - 1];
  for (; i > 0 && vecDim(i - 1) == 1; --i) s.middle *= out[i - 1];
  for (; i > 0; --i) {
    if (vecDim(i - 1) != out[i - 1]) return std::nullopt;
    s.outer *= out[i - 1];
  }
  if (s.width < 2 || s.middle < 2) return std::nullopt;
  return s;
}

// Rows [begin, end) of VectorRows `s` of width W known when compiled: the
// vector is copied to a local array once per outer index and each row is
// computed into a local array before it is stored, so the compiler knows
// neither aliases the output (in place over `full` is allowed) and keeps the
// row in vector registers (a 16-wide float row at 0.07 ns an element with
// SSE2 against 0.19 for the same loop with W a variable, standalone).
template <int W, class S, class Out, class F, class Load, class Store>
void vectorRowsFixed(const VectorRows& s, const S* full, const S* vec, Out* y, int64_t begin,
                     int64_t end, const F& ordered, Load load, Store store) {
  using C = decltype(load(S{}));
  int64_t p = begin / s.middle;
  int64_t m = begin % s.middle;
  for (int64_t t = begin; t < end; ++p, m = 0) {
    C v[W];
    for (int k = 0; k < W; ++k) v[k] = load(vec[p * W + k]);
    for (; m < s.middle && t < end; ++m, ++t) {
      const S* x = full + t * W;
      Out r[W];
      for (int k = 0; k < W; ++k) r[k] = store(ordered(load(x[k]), v[k]));
      for (int k = 0; k < W; ++k) y[t * W + k] = r[k];
    }
  }
}

// The same for any width.
template <class S, class Out, class F, class Load, class Store>
void vectorRowsAny(const VectorRows& s, const S* full, const S* vec, Out* y, int64_t begin,
                   int64_t end, const F& ordered, Load load, Store store) {
  const int64_t width = s.width;
  int64_t p = begin / s.middle;
  int64_t m = begin % s.middle;
  for (int64_t t = begin; t < end; ++p, m = 0) {
    const S* v = vec + p * width;
    for (; m < s.middle && t < end; ++m, ++t) {
      const S* x = full + t * width;
      Out* r = y + t * width;
      for (int64_t k = 0; k < width; ++k) r[k] = store(ordered(load(x[k]), load(v[k])));
    }
  }
}

// y = op(a, b) over VectorRows `s`, `full` and `vec` being a and b in the
// order s.full says; `load` reads an element as the op's compute type and
// `store` converts a result to Out.
template <class S, class Out, class Op, class Load, class Store>
void vectorRowsLoop(const VectorRows& s, const S* full, const S* vec, Out* y, const Op& op,
                    int threads, Load load, Store store) {
  auto rowsOf = [&](const auto& ordered) {
    parallelFor(s.outer * s.middle, threads, std::max<int64_t>(1, kElementwiseGrain / s.width),
                [&](int64_t begin, int64_t end) {
                  if (s.width == 16)
                    vectorRowsFixed<16>(s, full, vec, y, begin, end, ordered, load, store);
                  else if (s.width == 8)
                    vectorRowsFixed<8>(s, full, vec, y, begin, end, ordered, load, store);
                  else
                    vectorRowsAny(s, full, vec, y, begin, end, ordered, load, store);
                });
  };
  if (s.full == 0)
    rowsOf([&](auto x, auto v) { return op(x, v); });
  else
    rowsOf([&](auto x, auto v) { return op(v, x); });
}

}  // namespace passlab::exec::cpu
