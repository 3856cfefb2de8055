// Whether oneDNN's int8 kernels compute the exact int32 sums of one layer on
// this CPU (issue #25). With VNNI (exactInt8DotProducts: vpdpbusd sums in
// int32) they always do. Without it (AVX2, AVX-512 without VNNI) oneDNN
// multiplies u8 by s8 with vpmaddubsw, which adds two products into a
// saturating int16, then widens the pairs (vpmaddwd by 1) into int32: with u8
// activations (0..255) and every s8 weight in [-64, 64] a pair is at most
// 2 x 255 x 64 = 32640 <= 32767 in magnitude, so nothing saturates and the
// sums are exact. oneDNN 2.6 adds nothing of its own to u8 sources there
// (the source zero point is compensated in int32 apart from the products);
// s8 sources it shifts by 128 and halves the weights (scale_adjust 0.5) on
// every non-VNNI ISA, so s8 activations are never exact there. Weights of
// +-65 at an activation of 255 already saturate (33150): the bound is tight.
//
// Static quantizers' `reduce_range` (weights in [-64, 64], ONNX Runtime's
// option for CPUs without VNNI; PassLab's quantize_static/quantize_dynamic
// `reduce_range=true`) writes exactly such layers, so those run on oneDNN's
// int8 convolution here instead of float32 sums.
#pragma once

#include <cstdint>
#include <span>

#include "core/ir/dtype.h"

namespace passlab::exec::cpu::qlinear {

// The largest |weight| of a u8 x s8 layer that is exact without VNNI.
inline constexpr int kNarrowInt8Weight = 64;

// Whether oneDNN's int8 kernels sum activations of type xType times the s8
// weights `w` (as handed to oneDNN: zero point 0) exactly on this CPU:
// exactInt8DotProducts(), or xType uint8 and every weight in [-64, 64].
bool int8DotProductsExactFor(std::span<const int8_t> w, ir::DataType xType);

// How many kernel plans took oneDNN's int8 kernels on a CPU without VNNI
// because their weights are narrow (int8DotProductsExactFor, not
// exactInt8DotProducts) since the process started: what tests observe.
uint64_t narrowWeightInt8Plans();
void countNarrowWeightInt8Plan();

}  // namespace passlab::exec::cpu::qlinear
