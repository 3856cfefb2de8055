// QLinearConv whose weights oneDNN's int8 primitive cannot requantize by
// itself: uint8 weights, or weight zero points other than 0 (one, or one per
// output channel), as TFLite/EdgeTPU converters and onnxruntime's
// quantize_static with QUInt8 weights write them. The reference kernel's
// scalar loops ran those 20-100x slower than the float model (issue #25).
// Also NCHW layers of int8 weights (qlinear_conv_onednn.cpp): the
// primitive's own requantization rounds the float32 product, one step off
// the reference at a near-tie, and was slower there.
//
// oneDNN's int8 convolution computes the int32 sums conv(X - zx, W') into
// channels-last scratch, with W' = W - 128 for uint8 weights (int8 ones as
// they are) and zx as its source zero point where those sums stay below 2^24
// (oneDNN takes them through float32 then); past that it computes conv(X, W')
// and zx comes off as zx * S[m, o] (S: W' summed over the taps inside the
// image). The weights' zero points zw' (moved by the same 128, so W - zw =
// W' - zw') come off as zw'[m] * T[n, g(m), o] (conv_integer_zero_point.h).
// Then the bias and the reference
// QLinearConv's requantization (qlinear_requant16.h), 16 positions of 16
// channels at a time, transposed in registers to Y's [N, M, spatial...]
// (channels-last Y: each position's channels as they come). Integer sums and
// the reference's rounding: bit for bit the reference kernel (qlinear.cpp).
//
// Once the primitive holds W' packed (holdsWeights), the kernel lets go of
// W'; the kernel for another input shape made from it (create's `previous`)
// takes the packed copy and what it needs of W (its per-tap sums and bounds:
// WeightFacts), so W itself may be freed (KernelContext::holdsOwnCopy).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/exec/cpu/conv_geometry.h"
#include "core/exec/cpu/onednn_conv_primitive.h"
#include "core/exec/cpu/qlinear_onednn_requantization.h"
#include "core/exec/cpu/qlinear_requant16.h"
#include "core/exec/cpu/window_indirection.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

class QLinearConvInt32 {
 public:
  // The kernel for the QLinearConv of `ctx` (X [N, C, in...] of geometry g,
  // or `channelsLast` X and Y [N, spatial..., C] as com.microsoft
  // QLinearConv's channels_last; its weights the same on every run:
  // KernelContext::invariantInput), or
  // null where it does not run it: a CPU with neither AVX-512 VNNI nor AVX2 + FMA, oneDNN
  // int8 sums that could saturate (without VNNI: int8 X, or a weight W' past [-64, 64],
  // int8_dot_exactness.h), quantization
  // inputs readRequantization refuses (with any 8-bit weights), weight zero
  // points of another type or count, sums that could overflow int32, a
  // configuration oneDNN has only its reference implementation for.
  // `previous`: the kernel of the same node for another input shape, whose
  // held weights this one takes instead of reading W (null: none; W read).
  // Null also where W was freed and `previous` does not hold it.
  static std::unique_ptr<QLinearConvInt32> create(const KernelContext& ctx, const ConvGeometry& g,
                                                  bool channelsLast = false,
                                                  const QLinearConvInt32* previous = nullptr);
  // Whether it holds W' packed (after its first run), so W is no longer read.
  bool holdsWeights() const { return conv_.holdsWeights(); }

  // Y (allocated by the caller: [N, M, out...], or [N, out..., M], of the requantization's type)
  // from X and the int32 bias [M] (or null) of this run.
  Status run(KernelContext& ctx, const Tensor& x, const Tensor* bias, Tensor& y);

  // Y's type (uint8 or int8).
  ir::DataType yType() const {
    return requant_.yLo < 0 ? ir::DataType::kInt8 : ir::DataType::kUInt8;
  }

 private:
  void requantize(const int32_t* acc, const int32_t* t, uint8_t* y, int threads) const;

  // What the kernel needs of W' beside the packed copy, for any input shape.
  struct WeightFacts {
    Dims wDims;
    std::vector<int32_t> tapSums;  // conv_integer::tapWeightSums of W'
    int64_t largestSum = 0;        // the largest sum of |W'| over one output channel
    int64_t largestLessZw = 0;     // the same of |W' - zw'|
    bool narrow = false;           // every W' in [-64, 64] (int8_dot_exactness.h)
  };

  ConvGeometry g_;
  bool channelsLast_ = false;
  bool avx512_ = false;    // the requantization on AVX-512 VNNI, else on AVX2 + FMA
  int64_t positions_ = 0;  // output positions per channel
  int32_t xZero_ = 0;
  onednn::ConvPrimitive conv_;
  Tensor weights_;  // W' (int8); empty once conv_ holds it packed
  WeightFacts facts_;
  std::vector<int32_t> zw_;         // zw' per output channel
  std::vector<int32_t> xTerm_;      // zx * S [P, M]; empty where oneDNN takes zx out
  bool weightZeroPoints_ = false;   // some zw' is not 0
  Indirection window_;              // the taps of each output position (when weightZeroPoints_)
  requant16::Multipliers requant_;  // each channel's in 16 lanes: [M * 16] (channels-last: [M])
  int64_t sumBound_ = 0;            // the largest |conv(X - zx, W - zw)|
  std::vector<int32_t> bias_;       // [M * 16] of this run, each channel's in 16 lanes (or [M])
  std::vector<int32_t> groupAt_;    // channels-last: channel c's group's offset in T
  bool fast_ = false;               // this run requantizes in float32 (exact: requant16::store16)
};

}  // namespace passlab::exec::cpu
