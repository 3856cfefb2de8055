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
#include "core/exec/cpu/window_indirection.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cpu::conv_integer {

// S [M, positions] for int8 weights w of geometry g; `positions` is set to
// the output positions per channel.
std::vector<int32_t> windowWeightSums(const Tensor& w, const ConvGeometry& g, int64_t& positions);

// What S needs of the weights: W summed over each output channel's input
// channels, per tap of the kernel ([M, taps], M * taps int32: a C-th of the
// weights or less). A kernel that holds the weights packed keeps these, so
// that it makes S for another input shape after the weights were freed
// (KernelContext::holdsOwnCopy).
std::vector<int32_t> tapWeightSums(const Tensor& w, const ConvGeometry& g);
// S [M, positions] from tapWeightSums for geometry g (the same kernel).
std::vector<int32_t> windowWeightSums(const std::vector<int32_t>& tapSums, const ConvGeometry& g,
                                      int64_t& positions);

// S [M, positions] as one value per channel ([M]) where every row is one
// value (no output position has a tap in the padding, as in any convolution
// without pads); false, S unchanged, otherwise.
bool sumsToOnePerChannel(std::vector<int32_t>& sums, int64_t channels, int64_t positions);

// The activation's zero point (input `i`) when it is one value of input
// `x`'s type (absent: 0).
std::optional<int32_t> activationZeroPoint(const KernelContext& ctx, size_t x, size_t i);

// The weights' zero point, for 8-bit weights of either type (a QDQ model's
// uint8 weights, fuse_qdq_conv_integer), taken out the same way:
//
//   conv(X - zx, W - zw)[n, m, o] = conv(X - zx, W)[n, m, o] - zw[m] * T[n, g(m), o],
//   T[n, g, o] = the sum of X - zx over group g's channels and the taps of
//                position o that fall inside the image.
//
// oneDNN takes int8 weights only, so uint8 weights run as W - 128 with their
// zero points moved by the same 128 (signedWeights, weightZeroPoints):
// W - zw is unchanged.

// W as int8: a copy of uint8 weights minus 128; int8 weights as they are.
Tensor signedWeights(const Tensor& w);

// tapWeightSums of W, kept by a kernel for every plan it builds (another
// input shape after W was freed).
struct KeptTapSums {
  std::vector<int32_t> sums;
  Dims dims;  // W's dims `sums` was made for (empty: none yet)
};

// A new plan's weights and S: `p` takes the weights `old` (the plan it
// replaces) holds packed, else W as signed while W is there; S comes from
// `taps`, made from W when W's dims change. False where W was freed and
// neither covers the plan (the kernel then declines it and reports that).
template <class Plan>
bool takeWeightsAndSums(Plan& p, const Plan* old, const Tensor& w, const ConvGeometry& g,
                        KeptTapSums& taps) {
  if (old && !old->declined) p.inheritWeights(*old);
  if (w.dataFreed() && (!p.holdsWeights() || taps.dims != w.dims())) return false;
  if (!p.holdsWeights()) p.weights = signedWeights(w);
  if (taps.dims != w.dims()) {
    taps.sums = tapWeightSums(signedWeights(w), g);
    taps.dims = w.dims();
  }
  p.sums = windowWeightSums(taps.sums, g, p.positions);
  return true;
}

// The zero points of weights w (input `i`: one value or one per output
// channel, of w's type; absent: 0) per output channel, in signedWeights'
// terms; nullopt when input `i` is not that.
std::optional<std::vector<int32_t>> weightZeroPoints(const KernelContext& ctx, size_t w, size_t i,
                                                     int64_t channels);

// T [N, group, positions] for X (8-bit, [N, C, in...], or `channelsLast`
// [N, in..., C]) of geometry g; with the window's indirection `ind`
// (buildIndirection(g.window)) when the caller keeps it from run to run.
std::vector<int32_t> activationWindowSums(const Tensor& x, int32_t zx, const ConvGeometry& g);
std::vector<int32_t> activationWindowSums(const Tensor& x, int32_t zx, const ConvGeometry& g,
                                          const Indirection& ind, bool channelsLast = false);

// acc[n, m, o] -= zw[m] * T[n, g(m), o] on the int32 sums of a run, laid out
// [N, M, P] or, `channelsLast`, [N, P, M].
void subtractWeightZeroPoint(int32_t* acc, bool channelsLast, const ConvGeometry& g,
                             int64_t positions, const std::vector<int32_t>& zw,
                             const std::vector<int32_t>& t, int threads);

}  // namespace passlab::exec::cpu::conv_integer
