// What QLinearConv, QLinearMatMul and com.microsoft QGemm on oneDNN's int8
// primitives share: the ops take their quantization inputs in the same places
// (x, x_scale, x_zero_point, w, w_scale, w_zero_point, then y_scale,
// y_zero_point; QGemm has its bias C before these two), and all bake the
// requantization x_scale * w_scale[c] / y_scale with the zero points into the
// primitive, on CPUs whose int8 dot products are exact.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <dnnl.hpp>

#include "core/exec/kernel.h"

namespace passlab::exec::cpu::qlinear {

// The inputs of QLinearConv and QLinearMatMul (A is x, B is w).
enum Input : size_t {
  kX = 0,
  kXScale = 1,
  kXZeroPoint = 2,
  kW = 3,
  kWScale = 4,
  kWZeroPoint = 5,
  kYScale = 6,
  kYZeroPoint = 7,
};
// The inputs a primitive bakes in: they must be the same on every run.
constexpr Input kQuantizationInputs[] = {kXScale,     kXZeroPoint, kWScale,
                                         kWZeroPoint, kYScale,     kYZeroPoint};

bool isInt8(ir::DataType t);
dnnl::memory::data_type int8Type(ir::DataType t);
// One 8-bit value of a uint8 or int8 tensor.
int32_t int8At(const Tensor& t, int64_t i);

struct Requantization {
  int32_t xZeroPoint = 0, yZeroPoint = 0;
  // u8 or s8; float for QGemm without y_scale (then no rounding and no zero point).
  ir::DataType yType = ir::DataType::kUInt8;
  // x_scale * w_scale[c] / y_scale in float32 as the reference computes it
  // (QGemm: alpha * x_scale * w_scale[c] / y_scale, as ONNX Runtime does):
  // one value, or one per output channel (`channels` of readRequantization).
  std::vector<float> outputScales;
};

// Where an op's output quantization differs from QLinearConv's: QGemm takes
// y_scale and y_zero_point at 7 and 8 (after its bias C), multiplies every
// scale by its alpha, and without them gives the float product
// alpha * x_scale * w_scale[c] * sum.
struct OutputForm {
  size_t yScale = kYScale, yZeroPoint = kYZeroPoint;
  float alpha = 1;
  bool floatWithoutYScale = false;
};
// QGemm's form for its alpha attribute.
OutputForm qgemmOutputForm(float alpha);

// The weights readRequantization takes: int8 with zero points of 0 (what
// oneDNN's int8 primitives requantize), or 8-bit of either type with any
// zero points, which the caller takes out itself (qlinear_conv_int32.h).
enum class WeightForm { kSymmetricInt8, kAny8Bit };

// The requantization of this run, or nullopt where the reference must run:
// an activation that is not 8-bit, weights that are not int8, a weight zero
// point other than 0 (both allowed with kAny8Bit), scales other than float32,
// an activation or output scale or zero point that is not one value, weight
// scales that are neither one value nor one per channel; for QGemm a y_scale
// without y_zero_point.
std::optional<Requantization> readRequantization(const KernelContext& ctx, int64_t channels,
                                                 const OutputForm& form = {},
                                                 WeightForm weights = WeightForm::kSymmetricInt8);

// The scales and zero points as primitive attributes; the output channels
// are axis 1 of dst ([N, M, ...] or [rows, N]).
dnnl::primitive_attr requantizationAttr(const Requantization& r);

// Without VNNI, oneDNN multiplies u8 by s8 with vpmaddubsw, whose int16 sums
// of pairs saturate (and for s8 sources it halves the weights): measured 8 to
// 27 off the reference under ONEDNN_MAX_CPU_ISA=AVX2 or AVX512_CORE. Only CPUs
// with VNNI (exact int32 dot products) run oneDNN's int8 kernels here.
bool exactInt8DotProducts();

// Whether oneDNN's int8 convolution writes int32 sums of 2^24 and more
// exactly on this CPU: its AVX-512 VNNI kernels do (brgconv, jit_int8,
// measured in session 27); the others (AVX2, AVX-VNNI, AVX-512 without VNNI,
// SSE4.1) pass every sum through float32 on its way out, whatever dst's type,
// so a sum past 2^24 comes back rounded to float32 (2 off at 5.5 x 10^7:
// ConvIntegerLargeSums). Its int8 matmul keeps them exact everywhere.
bool int8ConvSumsExactPastFloat32();

// Whether oneDNN's int8 convolution of weights whose largest sum of
// |W'| over one output channel is `largestWeightSum` (W' as oneDNN gets them)
// writes exact int32 sums here: int8ConvSumsExactPastFloat32(), or every sum
// (|X| <= 255) below 2^24.
bool int8ConvSumsExact(int64_t largestWeightSum);

}  // namespace passlab::exec::cpu::qlinear
