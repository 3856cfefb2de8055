// Operator families for colouring: one table shared by the GUI and SVG export.
#pragma once

#include <cstdint>
#include <string_view>

namespace passlab::layout {

enum class OpFamily : uint8_t {
  kConvolution,    // Conv, ConvTranspose, QLinearConv, ...
  kLinear,         // MatMul, Gemm, Einsum, ...
  kActivation,     // Relu, Sigmoid, Gelu, Erf, Softmax, ...
  kNormalization,  // BatchNormalization, LayerNormalization, ...
  kPooling,        // MaxPool, GlobalAveragePool, ...
  kElementwise,    // Add, Mul, Sin, Log, Where, Cast, ...
  kReduction,      // ReduceMean, ArgMax, TopK, ...
  kShape,          // Reshape, Transpose, Concat, Slice, Gather, Shape, ...
  kConstant,       // Constant, ConstantOfShape, Range, ...
  kControlFlow,    // If, Loop, Scan
  kRecurrent,      // LSTM, GRU, RNN
  kQuantization,   // QuantizeLinear, DequantizeLinear, ...
  kAttention,      // Attention, MultiHeadAttention, fused contrib ops
  kOther,
};
inline constexpr int kOpFamilyCount = 14;

// The family of an op ("" or "ai.onnx" for the default domain).
OpFamily familyOf(std::string_view domain, std::string_view opType);
// English name for legends ("Convolution").
std::string_view familyName(OpFamily f);
// Fill colour as 0xRRGGBB, readable with dark text.
uint32_t familyColor(OpFamily f);

}  // namespace passlab::layout
