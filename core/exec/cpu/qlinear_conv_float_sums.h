// QLinearConv on CPUs whose int8 dot products are not exact (no VNNI: AVX2
// without AVX-VNNI, AVX-512 without VNNI, SSE4.1; exactInt8DotProducts).
// There oneDNN's int8 kernels multiply u8 by s8 with vpmaddubsw, whose int16
// pair sums saturate, so PassLab declines them, and until this kernel the
// reference's scalar loops ran every QLinearConv: INT8 models 17-50x slower
// than their float32 originals on an AVX2 machine (issue #25).
//
// Here oneDNN's float32 convolution computes the integer sums instead: X - zx
// and W - zw as float32 (integers of at most 9 bits, exact), the convolution
// direct (no Winograd) and without bias. Every partial sum of any order is
// then an integer of magnitude at most sum_k |W - zw| * max|X - zx| (per
// output channel), so where that bound is at most 2^24 float32 holds each one
// exactly (FMA too) and the result is the exact int32 sum. The int32 bias is
// added to it in int32, then the reference QLinearConv's requantization
// (qlinear.cpp): times x_scale * w_scale[m] / y_scale (float32) in double,
// rounded half to even, + y_zero_point, saturated. Bit for bit the reference
// kernel. Any 8-bit weights with any zero points (one or one per channel),
// any dilation, groups and padding (a padded tap is X - zx = 0, as in the
// reference), NCHW or com.microsoft channels_last.
//
// With AVX2, a channels-last 2-D convolution of one group, dilation 1, at
// least 8 input channels and not 1x1 takes the same exact sums from 16-bit
// integer products instead (vpmaddwd on X - zx and W - zw into int32
// accumulators, exact up to a bound of 2^31 - 1; runsIntegerSums): 1.5-1.8x
// faster than oneDNN's float32 kernel on 3x3 and 5x5 layers (Zen 3), the
// reference's bytes.
//
// Declined (create returns null; the reference runs): a bound past 2^24,
// 2^31 - 1 for the integer sums (sum |W - zw| of one output channel above
// 65793 for a full-range uint8 activation past 2^24), weights that are not
// invariant, quantization inputs readRequantization refuses, a multiplier
// that is not finite, or oneDNN offering only its reference float convolution.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/exec/cpu/conv_geometry.h"
#include "core/exec/cpu/onednn_conv_primitive.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

class QLinearConvFloatSums {
 public:
  // The kernel for the QLinearConv of `ctx` (X [N, C, in...] of geometry g,
  // or `channelsLast` X and Y [N, spatial..., C]), or null where it declines
  // (above). `previous`: the kernel of the same node for another input
  // shape, whose float32 weights this one shares instead of reading W.
  static std::unique_ptr<QLinearConvFloatSums> create(const KernelContext& ctx,
                                                      const ConvGeometry& g, bool channelsLast,
                                                      const QLinearConvFloatSums* previous);

  // Y (allocated by the caller: [N, M, out...] or [N, out..., M], of yType)
  // from X and the int32 bias [M] (or null) of this run.
  Status run(KernelContext& ctx, const Tensor& x, const Tensor* bias, Tensor& y);

  ir::DataType yType() const { return ySigned_ ? ir::DataType::kInt8 : ir::DataType::kUInt8; }

  // The largest |conv(X - zx, W - zw)| this kernel can meet (at most 2^24).
  int64_t sumBound() const { return sumBound_; }

  // Whether X or Y is reordered (float32) between the user's layout and
  // oneDNN's on every run: not for channels-last X and Y where oneDNN has a
  // channels-last float32 kernel, nor for 2-D NCHW ones in 8-channel blocks.
  bool reordersActivations() const { return conv_.reorderSrc || conv_.reorderDst; }
  // Whether the sums come from 16-bit integer products on AVX2 (vpmaddwd)
  // instead of oneDNN's float32 convolution: channels-last 2-D convolutions
  // of one group and dilation 1, not 1x1, of 8 or more input channels
  // (qlinear_conv_float_sums.cpp).
  bool runsIntegerSums() const { return w16_ != nullptr; }

 private:
  ConvGeometry g_;
  bool channelsLast_ = false;
  bool xSigned_ = false, ySigned_ = false;
  int32_t xZero_ = 0, yZero_ = 0;
  int64_t positions_ = 0;             // output positions per channel
  std::shared_ptr<const Tensor> wf_;  // W - zw as float32, W's dims
  int64_t largestWeightSum_ = 0;      // the largest sum of |W - zw| of one output channel
  int64_t sumBound_ = 0;
  std::vector<double> mult_;  // x_scale * w_scale[m] / y_scale per channel
  onednn::ConvPrimitive conv_;
  // W - zw as int16 pairs per 16 output channels (runsIntegerSums).
  std::shared_ptr<const std::vector<int16_t>> w16_;
  Status integerSums(KernelContext& ctx, const Tensor& x, int32_t* acc) const;
  // X written into / Y read from oneDNN's 8-channel blocks (nChw8c) directly.
  bool blockedSrc_ = false, blockedDst_ = false;
};

}  // namespace passlab::exec::cpu
