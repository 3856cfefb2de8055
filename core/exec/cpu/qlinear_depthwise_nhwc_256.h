// The 256-bit halves of PassLab's channels-last int8 depthwise kernel
// (qlinear_depthwise_nhwc.h) for CPUs without AVX-512 VNNI: the same ring
// of input rows and blocks of 16 channels, each block taken as two halves of
// 8 int32 lanes, with one of two dot steps (qlinear_depthwise_nhwc_256_body.h):
//   AVX-VNNI (Alder Lake and later): four horizontally adjacent taps as uint8
//     quads per int32 lane, 256-bit vpdpbusd (_mm256_dpbusd_avx_epi32): the
//     AVX-512 kernel's quads, exact for any int8 weights;
//   AVX2 + FMA: two taps as int16 pairs per int32 lane (activations as uint8
//     values 0..255, weights int16), vpmaddwd then vpaddd: each pair sum at
//     most 2 * 255 * 128 in magnitude, so int32 sums exact for any int8
//     weights (no vpmaddubsw, whose int16 pair sums saturate above |w| = 64).
// Then the requantization of qlinear_requant8.h (bit for bit the AVX-512
// path's). The class decides which runs (cpu_isa.h); these only compute.
#pragma once

#include <cstdint>

#include "core/exec/cpu/qlinear_requant16.h"

namespace passlab::exec::cpu::dw256 {

// One input row into the ring: channel blocks [block, block + blocks) of
// row `row` (its first pixel), block b's [wb][16] int32 lanes at out + b *
// blockStride; taps (4 or 2) horizontally adjacent columns col + t * dw - padLeft
// per lane, the zero point (as uint8) where a column lies in the padding.
struct FillArgs {
  const uint8_t* row;
  int64_t width, channels, padLeft, dw, wb, blockStride, block, blocks;
  bool xSigned;
  int32_t xZeroU;  // the zero point as uint8 (int8: + 128)
  int32_t* out;
  // Only the even columns are read (an even horizontal stride: output j's tap
  // groups start at columns j sw + p taps dw, all even), so only they are filled.
  bool evenColumns;
};

// One output row: channel blocks [block, block + blocks) from the ring rows
// of its kernel rows summed (rows[a], kh of them, block 0's), the weights
// [kh][groups][cp] and row corrections [kh][cp] of those rows, the bias [cp].
struct ComputeArgs {
  const int32_t* const* rows;
  int64_t kh, groups, dw, sw, ow, channels, cp, blockStride, block, blocks;
  const int32_t* weights;
  const int32_t* rowCorrection;
  const int32_t* bias;
  const requant16::Multipliers* requant;
  bool fast;
  uint8_t* y;  // the output row's first pixel
};

// Taps per int32 lane of each dot step.
inline constexpr int kVnniTaps = 4;
inline constexpr int kPairTaps = 2;

void fillRowAvxVnni(const FillArgs& a);
void computeRowAvxVnni(const ComputeArgs& a);
void fillRowAvx2(const FillArgs& a);
void computeRowAvx2(const ComputeArgs& a);

}  // namespace passlab::exec::cpu::dw256
