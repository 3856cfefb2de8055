// ConvInteger's activation zero point taken out after an int8 convolution
// that ran without it (conv_integer_onednn.cpp, passlab_fused_conv_integer.cpp):
//
//   conv(X - zx, W)[n, m, o] = conv(X, W)[n, m, o] - zx * S[m, o],
//   S[m, o] = the sum of W[m, c, k] over the channels c and the taps k of
//             output position o that fall inside the image
//
// (a tap in the padding reads zx in the reference, X - zx = 0 there, and 0
// in oneDNN's padding). S depends on the weights and the geometry only.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/exec/cpu/conv_geometry.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cpu::conv_integer {

// S [M, positions] for int8 weights w of geometry g; `positions` is set to
// the output positions per channel.
std::vector<int32_t> windowWeightSums(const Tensor& w, const ConvGeometry& g, int64_t& positions);

// True when input `i` (int8 weight zero points, one or one per channel) is
// absent or all 0.
bool weightZeroPointIsZero(const KernelContext& ctx, size_t i, int64_t channels);

// The activation's zero point (input `i`) when it is one value of input
// `x`'s type (absent: 0).
std::optional<int32_t> activationZeroPoint(const KernelContext& ctx, size_t x, size_t i);

}  // namespace passlab::exec::cpu::conv_integer
