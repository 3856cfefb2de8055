// What QLinearConvInt32 (qlinear_conv_int32.h) requantizes one image's
// oneDNN int32 sums from, and its AVX2 requantizers (AVX2 + FMA: CPUs
// without AVX-512 VNNI, which take the kernel where oneDNN's int8 sums are
// exact: AVX-VNNI, or uint8 activations times weights in [-64, 64],
// int8_dot_exactness.h). The AVX-512 ones are in qlinear_conv_int32.cpp.
// Both give the reference QLinearConv's bytes (qlinear_requant16.h's
// arithmetic: the double product rounded half to even, or one float32 FMA
// where that is provably the same integer).
#pragma once

#include <cstdint>

#include "core/exec/cpu/qlinear_requant16.h"

namespace passlab::exec::cpu::int32_sums {

// One image's sums acc [P, M] (channels-last), the activation window sums
// t [group, P] and the weights' zero points zw [M] (t null: none), the
// activation zero point's term xTerm [P, M] (null: oneDNN took it out), and
// the channels' bias and multipliers: channels-first Y, each channel's
// repeated in 16 lanes ([M * 16]: the tiles compute along positions);
// channels-last Y, one per channel ([M] padded to a multiple of 16).
struct TileInput {
  const int32_t* acc;
  const int32_t* t;
  const int32_t* zw;
  const int32_t* xTerm;
  int64_t m, p, mPerGroup;
  const int32_t* bias16;
  const requant16::Multipliers* mult16;
};

// Positions per AVX2 tile of channels-first Y.
inline constexpr int64_t kAvx2TilePositions = 8;

// Channels-first Y [M, P]: positions [o0, o1) (at most 8) of every channel,
// as qlinear_conv_int32.cpp's 16-position AVX-512 tile.
void requantizeTileAvx2(const TileInput& in, bool fast, uint8_t* y, int64_t o0, int64_t o1);

// Channels-last Y [P, M]: positions [o0, o1), each position's channels 8 at
// a time; groupAt[c] is the offset in t of channel c's group.
void requantizePositionsAvx2(const TileInput& in, const int32_t* groupAt, bool fast, uint8_t* y,
                             int64_t o0, int64_t o1);

}  // namespace passlab::exec::cpu::int32_sums
