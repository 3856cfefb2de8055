// The 256-bit kernels of PassLab's channels-last int8 pointwise QLinearConv
// (qlinear_pointwise_nhwc.h) for CPUs without AVX-512 VNNI (issue #25):
// blocks of pixels by 1-4 vectors of 8 output channels, four input channels
// of a pixel (uint8; int8 as x + 128) broadcast to every int32 lane and
// summed against four int8 weights of 8 output channels, one of two ways:
//  - AVX-VNNI (Alder Lake and later, Zen 4): vpdpbusd on 256 bits, exact
//    int32 sums for any weights, as the AVX-512 VNNI kernel;
//  - AVX2: vpmaddubsw (two products in a saturating int16), vpmaddwd by 1
//    (pairs into int32), vpaddd: exact only where no pair sum saturates,
//    which every weight in [-64, 64] guarantees (2 x 255 x 64 = 32640;
//    int8_dot_exactness.h): the caller takes this only for such weights
//    (`reduce_range` files).
// Then the reference's requantization (qlinear_requant16.h's rule: float32
// where that is exact, else double), saturated by packs: bit for bit the
// reference QLinearConv and the AVX-512 VNNI kernel.
#pragma once

#include <cstdint>

namespace passlab::exec::cpu::pointwise256 {

// How four uint8 x int8 products are summed into an int32 lane.
enum class Dot {
  kAvxVnni,  // vpdpbusd (AVX-VNNI): any weights
  kAvx2,     // vpmaddubsw, vpmaddwd by 1, vpaddd: weights in [-64, 64] only
  // Two int16 pairs (x zero-extended, w sign-extended) per quad, vpmaddwd and
  // vpaddd: any weights (|pair sum| <= 2 x 255 x 128), the weights laid out
  // [ceil(c / 4)][2][mp] (channels 4q, 4q+1 then 4q+2, 4q+3 per lane).
  kAvx2Int16,
};

// One prepared layer as the kernels read it (QLinearPointwiseNhwc's members).
struct Layer {
  int64_t c = 0, m = 0;  // input and output channels
  int64_t mp = 0;        // the weights' row: the output channels padded to a multiple of 8
  const int32_t* weights = nullptr;  // [ceil(c / 4)][mp]: int8 weights of channels 4q..4q+3
                                     // ([ceil(c / 4)][2][mp] int16 pairs for kAvx2Int16)
  const int32_t* bias = nullptr;     // [mp]: the bias less the zero-point correction
  const double* mult = nullptr;      // [mp]: the requantization's multipliers
  const float* multf = nullptr;      // [mp]: the same in float32
  int32_t yZero = 0, yLo = 0, yHi = 255;
  bool xSigned = false;  // X int8 (summed as x + 128), else uint8
  bool fast = false;     // the float32 requantization is exact on this run
};

// Rows [first, last) of Y [pixels, m] from X [pixels, c] (AVX2 and FMA; AVX-VNNI for
// Dot::kAvxVnni: the caller checks).
void computePixels(Dot dot, const Layer& l, const uint8_t* x, uint8_t* y, int64_t first,
                   int64_t last);

}  // namespace passlab::exec::cpu::pointwise256
