// The excitation of the exact QLinearSqueezeExcite (passlab_squeeze_excite_exact.cpp):
// the pooled mean quantized (QuantizeLinear as quantizeRows), then the two
// 1x1 QLinearConvs on that one pixel as the reference QLinearConv
// (qlinear.cpp) computes them: int32 sums, the multiplier x_scale *
// w_scale[m] / y_scale in float32, the product in double rounded half to
// even, + y_zero_point, saturated. Integer sums are exact in any order, so
// the AVX-512 VNNI form (4 products a lane per instruction) gives the same
// bytes as the plain loops.
#pragma once

#include <cstdint>
#include <vector>

#include "core/exec/cpu/squeeze_excite_exact_scale.h"

namespace passlab::exec::cpu::squeeze_excite {

// One convolution's int8 weights W [M, K]: as the VNNI loop reads them
// ([K / 4][M padded to 16][4], zeros padding) or row by row, and each
// output's sum of weights (for the input's zero point).
struct GateWeights {
  int64_t outputs = 0, inputs = 0;
  std::vector<int8_t> packed;
  std::vector<int32_t> sums;

  void pack(const int8_t* w, int64_t m, int64_t k);
};

// The output side of one convolution: x_scale, y's quantization, and
// w_scale (1 value or one per output).
struct GateOutput {
  float xScale = 1;
  const float* wScale = nullptr;
  int64_t wScaleCount = 1;
  Quant y;
  bool ySigned = false;
};

// The inputs as bytes in [0, 255] (an int8 input with 128 added, and its
// zero point with it) the convolutions read: a multiple of 4 of them.
int64_t gateInputBytes(int64_t k);

// g[k] = QuantizeLinear(float32(sum[k] / positions)) + (128 if g is int8),
// for k < c (g holds gateInputBytes(c) bytes; the rest become 0).
void quantizeMeans(const double* sum, int64_t c, int64_t positions, const Quant& qg, bool gSigned,
                   uint8_t* g);

// out[m] = the reference's requantization of sum_k (in[k] - zin) W[m, k] +
// bias[m] (bias may be null), as the output type's bytes, for m < M.
void gateConv(const GateWeights& w, const uint8_t* in, int32_t zin, const int32_t* bias,
              const GateOutput& o, uint8_t* out);

}  // namespace passlab::exec::cpu::squeeze_excite
