// Without VNNI, whether oneDNN's int8 sums are exact for one ConvInteger,
// FusedConvInteger or MatMulInteger node anyway (int8_dot_exactness.h; the
// dynamic INT8 form quantize_dynamic writes). Those kernels hand oneDNN the
// raw uint8 activations and W' = int8 W as it is, or uint8 W as W - 128
// (conv_integer::signedWeights, Int32MatMul's B'), without zero points, and
// take the zero points out of its int32 sums afterwards (exactly, in int32):
// so W' alone decides, whatever the zero points. Every W' in [-64, 64]
// (uint8 W in [64, 192]) with uint8 activations: a vpmaddubsw pair is at most
// 2 x 255 x 64 = 32640 and never saturates. `quantize_dynamic` with
// `reduce_range=true` writes int8 weights in [-64, 64] with zero point 0.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "core/exec/cpu/int8_dot_exactness.h"
#include "core/exec/tensor.h"

namespace passlab::exec::cpu::qlinear {

// Whether every W' of 8-bit weights `w` is in [-64, 64], on any CPU (false
// for any other type). The caller asks only without VNNI, and checks that the
// activations are uint8 and W invariant.
inline bool narrowSignedWeights(const Tensor& w) {
  const auto n = static_cast<size_t>(w.numel());
  if (w.dtype() == ir::DataType::kInt8) {
    const int8_t* v = w.data<int8_t>();
    return std::all_of(v, v + n,
                       [](int8_t b) { return b >= -kNarrowInt8Weight && b <= kNarrowInt8Weight; });
  }
  if (w.dtype() != ir::DataType::kUInt8) return false;
  const uint8_t* v = w.data<uint8_t>();
  return std::all_of(v, v + n, [](uint8_t b) {
    return b >= 128 - kNarrowInt8Weight && b <= 128 + kNarrowInt8Weight;
  });
}

// The largest sum of |W'| over one output channel of 8-bit weights `w`
// [M, ...] (W' = W for int8 W, W - 128 for uint8 W; 0 for any other type or
// no channels): what bounds oneDNN's int32 sums of raw activations
// (qlinear::int8ConvSumsExact).
inline int64_t largestSignedWeightSum(const Tensor& w) {
  if (w.rank() == 0 || w.dims()[0] <= 0) return 0;
  const int64_t m = w.dims()[0], perChannel = w.numel() / m;
  const bool u8 = w.dtype() == ir::DataType::kUInt8;
  if (!u8 && w.dtype() != ir::DataType::kInt8) return 0;
  int64_t largest = 0;
  for (int64_t c = 0; c < m; ++c) {
    int64_t sum = 0;
    for (int64_t k = c * perChannel; k < (c + 1) * perChannel; ++k) {
      const int v = u8 ? int{w.data<uint8_t>()[k]} - 128 : int{w.data<int8_t>()[k]};
      sum += v < 0 ? -v : v;
    }
    largest = std::max(largest, sum);
  }
  return largest;
}

}  // namespace passlab::exec::cpu::qlinear
