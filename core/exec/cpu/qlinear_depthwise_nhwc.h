// PassLab's own kernel for channels-last int8 depthwise QLinearConv
// (com.microsoft QLinearConv with channels_last = 1, group == C == M, 1 or 2
// spatial dims, any kernel size, stride, padding and dilation) on AVX-512
// VNNI, and in 256-bit registers on AVX-VNNI or AVX2 + FMA CPUs
// (qlinear_depthwise_nhwc_256.h: the same ring, exact for any weights too).
// oneDNN 2.6 runs such a convolution on its generic jit_int8 kernel when the
// zero points are nonzero (its fast brdgmm_dw takes none): ppocr_cls's eight
// 5x5 layers take 169 us there, 88 us here as first written, 42.9 us at the
// start of session 38 and 34.8 us since its ring of quad rows (all 11
// depthwise layers 53.5 -> 44.9 us, float32's 56.9 us; 1 thread, AVX-512
// VNNI; docs/precision.md).
//
// Exact, bit for bit the reference QLinearConv (qlinear.cpp): the input is
// copied, a few channel blocks and input rows at a time (a ring of the rows
// the kernel reads, in L1 where it fits), into rows of uint8 quads (four
// horizontally adjacent taps per int32 lane; int8 as x + 128; the padding
// holds the zero point), each input row once per run; the weights the same
// way as int8, so one AVX512-VNNI vpdpbusd sums four taps of 16 channels in
// int32 (exact); zx * sum(w) of the kernel rows
// summed comes off with the int32 bias (kernel rows entirely over the top or
// bottom padding are skipped). Then the requantization as the reference does
// it: the sum times the float32 multiplier x_scale * w_scale[c] / y_scale in
// double, rounded half to even, + y_zero_point, saturated (in float32 where
// that gives the same integers, which is nearly always: qlinear_requant16.h).
#pragma once

#include <cstdint>
#include <vector>

#include "core/exec/cpu/conv_geometry.h"
#include "core/exec/cpu/qlinear_onednn_requantization.h"
#include "core/exec/cpu/qlinear_requant16.h"

namespace passlab::exec::cpu {

class QLinearDepthwiseNhwc {
 public:
  // Whether this CPU (AVX-512 F/BW/VL and VNNI, AVX-VNNI or AVX2 + FMA: cpu_isa.h) and
  // geometry g (depthwise, one input channel per group, 1 or 2 spatial dims) are covered.
  static bool covers(const ConvGeometry& g);

  // Takes the weights W [C, 1, k...] (int8, zero point 0) and the
  // requantization (readRequantization) for X of type xType (uint8 or
  // int8). False when an int32 sum might overflow (more than 65536 taps):
  // the caller runs another kernel.
  bool prepare(const ConvGeometry& g, const int8_t* w, const qlinear::Requantization& r,
               ir::DataType xType);
  // The prepared kernel for another input shape g of the same convolution
  // (channels, kernel, strides and dilations as prepared): the weights
  // prepared stay, W is not read again. False where g is another convolution.
  bool reshape(const ConvGeometry& g);

  // y [N, out..., C] from x [N, in..., C] (the types given to prepare) and
  // the int32 bias [C] (or null).
  void run(const void* x, const int32_t* bias, void* y, int threads);

  // The path prepare chose: "avx512vnni", "avxvnni" or "avx2" (what tests check).
  const char* pathName() const;

 private:
  // Which dot step runs (cpu_isa.h, at prepare): AVX-512 VNNI quads, AVX-VNNI's
  // 256-bit quads, or AVX2's int16 pairs (qlinear_depthwise_nhwc_256.h).
  enum class Path { kAvx512Vnni, kAvxVnni, kAvx2 };

  void setGeometry(const ConvGeometry& g);
  void chooseTiles();
  // Output rows [first, last) of channel blocks [block, block + blocks) of one image.
  void runTile(const uint8_t* x, uint8_t* y, int64_t first, int64_t last, int64_t block,
               int64_t blocks, int32_t* ring) const;
  void fillRow(const uint8_t* x, int64_t ih, int64_t block, int64_t blocks, int32_t* out) const;
  void computeRow(const int32_t* const* rows, uint8_t* y, int64_t o, int64_t a0, int64_t a1,
                  int64_t block, int64_t blocks) const;
  // fillRow and computeRow on path_ (the 256-bit ones: qlinear_depthwise_nhwc_256.h).
  void fillAny(const uint8_t* x, int64_t ih, int64_t block, int64_t blocks, int32_t* out) const;
  void computeAny(const int32_t* const* rows, uint8_t* y, int64_t o, int64_t a0, int64_t a1,
                  int64_t block, int64_t blocks) const;

  // Geometry as 2-D (a 1-D convolution has H = KH = 1).
  int64_t h_ = 1, w_ = 1, c_ = 0, oh_ = 1, ow_ = 1, kh_ = 1, kw_ = 1;
  int64_t sh_ = 1, sw_ = 1, dh_ = 1, dw_ = 1, padTop_ = 0, padLeft_ = 0, n_ = 1;
  int64_t cp_ = 0;  // channels rounded up to 16
  Path path_ = Path::kAvx512Vnni;
  int64_t taps_ = 4;         // taps per int32 lane: 4 (uint8 quads) or 2 (int16 pairs, kAvx2)
  int64_t quads_ = 1;        // int32 lanes (tap groups) per kernel row: (kw + taps - 1) / taps
  int64_t hb_ = 0, wb_ = 0;  // rows and columns of the padded input read
  bool xSigned_ = false;
  int32_t xZero_ = 0;
  std::vector<int32_t> weights_;        // [kh][quads_][cp_] int8 quads (or int16 pairs), 0 in
                                        // the padding channels
  std::vector<int32_t> rowCorrection_;  // [kh][cp_]: zx (as uint8) * the kernel row's sum of w
  requant16::Multipliers requant_;      // [cp_]
  int64_t sumBound_ = 0;                // the largest |sum| before the bias
  bool fast_ = false;                   // this run requantizes in float32 (exact: storeSum16)
  std::vector<int32_t> bias_;           // [cp_] of this run
  // The ring of quad rows, chunkBlocks_ blocks of 16 channels at a time,
  // each [ringRows_][wb_][16] int32 (blockStride_ lanes): uint8 quads
  // (columns col, col + dw, col + 2 dw, col + 3 dw) or int16 pairs (col,
  // col + dw), the zero point in the padding.
  int64_t ringRows_ = 1, chunkBlocks_ = 1, blockStride_ = 16;
  std::vector<int32_t> ring_;  // one thread's ring (more threads: their own)
};

}  // namespace passlab::exec::cpu
