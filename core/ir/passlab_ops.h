// PassLab's own operators (domain ai.passlab, version 1) in one place: the
// domain, the op and attribute names, what each op requires (checked by the
// verifier), and the FusedElementwise program encoding with its one op table,
// read by the fusion passes, the CPU kernels and shape inference alike
// (docs/fused-kernels.md describes the ops).
//
//   FusedConv(X, W, B?, Z?)   Y = act(Conv(X, W) + B + Z)
//   FusedGemm(A, B, C?, Z?)   Y = act(alpha * A' * B' + beta * C + Z)
//   FusedElementwise(X...)    Y = a program of elementwise ops, one pass over the data
//   FusedAttention(Q, K, V, masks...)  Y = Softmax(mask(scale * Q Kᵀ)) V
//   FusedLayerNorm(X, Scale, B?, Skip?) -> Y, Sum?
//   FusedSoftmax(X, M?)       Y = Softmax(scale * X +/- M) over the last axis
//   ReorderToBlocked(X) -> Y  NCHW [N, C, H, W] to blocked [N, ceil(C/b), H, W, b]
//   ReorderFromBlocked(X) -> Y  blocked back to NCHW (attribute channels = C)
//   BlockedPool(X) -> Y       MaxPool/AveragePool/GlobalAveragePool on blocked tensors
//   QLinearLookup(X, Table) -> Y  an 8-bit -> 8-bit function as a 256-entry table (below)
//   FusedConvInteger(X, W, x_zero_point?, w_zero_point?, Scale, B?) -> Y, Range?
//                             Y = act(Cast<float>(ConvInteger(X, W, x_zero_point, w_zero_point))
//                                     * Scale + B), Scale and B one value or one per channel;
//                             Range float32 [2]: {min(0, min Y), max(0, max Y)}, {NaN, NaN}
//                             when Y holds a NaN (taken in the epilogue)
//   RangedDynamicQuantizeLinear(X, Range) -> Y, Y_scale, Y_zero_point
//                             DynamicQuantizeLinear(X) with X's range given (Range as
//                             FusedConvInteger's: fuse_dynamic_quantize_range)
//   QLinearSqueezeExcite(X, Table, W1, B1, W2, B2, y_scale, y_zero_point) -> Y
//                             an 8-bit squeeze-excitation block in one pass pair (below)
//   (and FusedConv with the attribute `block`: blocked output, below)
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace passlab::ir {
class Node;
}

namespace passlab::ir::passlab_ops {

inline constexpr const char* kDomain = "ai.passlab";
inline constexpr int64_t kVersion = 1;

// Names are C strings, so that they compare with and convert to std::string
// and std::string_view alike.

// ---- op names ----
inline constexpr const char* kFusedConv = "FusedConv";
inline constexpr const char* kFusedGemm = "FusedGemm";
inline constexpr const char* kFusedElementwise = "FusedElementwise";
inline constexpr const char* kFusedAttention = "FusedAttention";
inline constexpr const char* kFusedLayerNorm = "FusedLayerNorm";
inline constexpr const char* kFusedSoftmax = "FusedSoftmax";
inline constexpr const char* kReorderToBlocked = "ReorderToBlocked";
inline constexpr const char* kReorderFromBlocked = "ReorderFromBlocked";
inline constexpr const char* kBlockedPool = "BlockedPool";
inline constexpr const char* kQLinearLookup = "QLinearLookup";
inline constexpr const char* kFusedConvInteger = "FusedConvInteger";
inline constexpr const char* kQLinearSqueezeExcite = "QLinearSqueezeExcite";
inline constexpr const char* kRangedDynamicQuantizeLinear = "RangedDynamicQuantizeLinear";

// ---- attribute names ----
// FusedConv, FusedGemm, FusedConvInteger: the epilogue activation.
inline constexpr const char* kActivation = "activation";               // STRING
inline constexpr const char* kActivationParams = "activation_params";  // FLOATS
// FusedElementwise: the program (below).
inline constexpr const char* kOps = "ops";              // STRINGS
inline constexpr const char* kOperands = "operands";    // INTS, three per op
inline constexpr const char* kConstants = "constants";  // FLOATS
// The blocked layout (below): the block size, the true channel count, the pool.
inline constexpr const char* kBlock = "block";        // INT, 8 or 16
inline constexpr const char* kChannels = "channels";  // INT, ReorderFromBlocked
inline constexpr const char* kPool = "pool";          // STRING, BlockedPool

// ---- the blocked activation layout (convert_to_blocked_layout) ----
// A 4-D NCHW float tensor of C channels held as an ordinary 5-D tensor
// [N, ceil(C/b), H, W, b]: channel c at [n, c / b, h, w, c % b] (oneDNN's
// nChw8c / nChw16c), the padding channels C..ceil(C/b)*b-1 zero where a
// ReorderToBlocked or a convolution writes them. What reads a blocked tensor
// never lets a padding channel reach a real one: convolutions weight them
// with zeros, pools and elementwise ops keep channels apart, and
// ReorderFromBlocked drops them.
//   ReorderToBlocked(X) <block>            Y = X blocked; X of rank 4
//   ReorderFromBlocked(X) <block, channels> Y = X's first `channels` channels, NCHW
//   FusedConv(X, W, B?, Z?) <block>        Y (and Z) blocked; X blocked (rank 5) or
//                                          NCHW (rank 4, as the first layer of a chain)
//   BlockedPool(X) <block, pool, the pool's attributes>  pool = "MaxPool",
//                                          "AveragePool" or "GlobalAveragePool"; X, Y blocked
// Spatial rank 2 only (NCHW).
inline constexpr int64_t blockedGroups(int64_t channels, int64_t block) {
  return (channels + block - 1) / block;
}
inline constexpr bool validBlock(int64_t block) {
  return block == 8 || block == 16;
}
inline constexpr bool validBlockedPool(std::string_view pool) {
  return pool == "MaxPool" || pool == "AveragePool" || pool == "GlobalAveragePool";
}

// ---- QLinearLookup: an 8-bit function as a table (fold_qdq_unary_into_lookup) ----
//   QLinearLookup(X, Table) -> Y
//   X      uint8 or int8, any shape
//   Table  uint8 or int8 [256] (Y's element type): the result for each value of X,
//          in the order of X's values from the lowest (uint8 0..255, int8 -128..127)
//   Y      X's shape; Y[i] = Table[X[i] - lowest value of X's type]
// Q(f(DQ(x))) of a unary f and per-tensor scales is such a function of x's
// 256 values; the table holds what the QDQ form computes for each.
inline constexpr size_t kLookupEntries = 256;

// ---- QLinearSqueezeExcite: squeeze-excitation on an 8-bit tensor (fuse_qdq_squeeze_excite) ----
//   QLinearSqueezeExcite(X, Table, W1, B1, W2, B2, y_scale, y_zero_point) -> Y
//   X      uint8 or int8 [N, C, H, W] ([N, H, W, C] with channels_last = 1)
//   Table  float32 [256]: H = Table[X - lowest value of X's type] (the float value
//          the block works on, e.g. HardSwish(DequantizeLinear(X)))
//   W1 float32 [C1, C], B1 [C1]; W2 float32 [C, C1], B2 [C]
//   y_scale float32 scalar, y_zero_point uint8 / int8 scalar (Y's type)
//   attributes: channels_last (INT, 0), clip0, clip1, clip2 (FLOATS [lo, hi], none:
//          no clip), alpha, beta (FLOAT, 0.2, 0.5: the HardSigmoid gate)
//   G[n, c] = clip0(mean over H, W of H);  T = clip1(W1 G + B1);  U = clip2(W2 T + B2)
//   S = min(max(alpha U + beta, 0), 1);  Y = QuantizeLinear(H * S[n, c], y_scale, y_zero_point)
//   (the CPU kernel rounds H * (S / y_scale): within one step of it, at ties)
// The exact form (exact = 1, channels_last = 1; fuse_qdq_squeeze_excite_exact):
//   QLinearSqueezeExcite(X, Table, W1, B1, W2, B2, y_scale, y_zero_point, g_scale,
//       g_zero_point, w1_scale, t_scale, t_zero_point, w2_scale, u_scale, u_zero_point)
//   W1 int8 [C1, C], B1 int32 [C1], W2 int8 [C, C1], B2 int32 [C] (weight zero points 0);
//   w1_scale, w2_scale float32 of 1 value or one per output; the rest one value each:
//   G = mean over H, W of H (in double);  Gq = QuantizeLinear(G, g_scale, g_zero_point)
//   T = QLinearConv(Gq, g_scale, g_zero_point, W1, w1_scale, 0, t_scale, t_zero_point, B1)
//   U = QLinearConv(T, t_scale, t_zero_point, W2, w2_scale, 0, u_scale, u_zero_point, B2)
//   S = HardSigmoid(DequantizeLinear(U, u_scale, u_zero_point))  (no clips)
//   Y = QuantizeLinear(H * S[n, c], y_scale, y_zero_point): the QDQ form's bytes
inline constexpr const char* kExact = "exact";
inline constexpr const char* kChannelsLast = "channels_last";
inline constexpr const char* kClip0 = "clip0";
inline constexpr const char* kClip1 = "clip1";
inline constexpr const char* kClip2 = "clip2";

// ---- schema: what the verifier checks of every ai.passlab node ----
struct OpSchema {
  std::string_view op;
  size_t minInputs, maxInputs;  // maxInputs SIZE_MAX: variadic
  size_t minOutputs, maxOutputs;
  std::span<const std::string_view> requiredAttrs;
};
std::span<const OpSchema> opSchemas();
const OpSchema* findSchema(std::string_view op);
// "" when an ai.passlab node has the inputs, outputs and attributes its
// schema requires (and a FusedElementwise program parses); else the reason.
std::string whyNotValid(const Node& n);

// ---- FusedElementwise: the program encoding ----
//   ops       STRINGS  one instruction name per step (the `instr` column below)
//   operands  INTS     three per step (a, b, c): r >= 0 register r (registers
//                      0..n-1 are the node's n inputs, step i writes n + i);
//                      -1 no operand; r <= -2 constants[-2 - r]
//   constants FLOATS   scalar constants
// Y is the last step's register; its shape is the broadcast of the inputs'.

// The instructions the kernel evaluates.
enum class EwInstr : uint8_t {
  kAdd,
  kSub,
  kMul,
  kDiv,
  kPow,
  kMax,
  kMin,
  kPRelu,  // two operands
  kIdentity,
  kNeg,
  kAbs,
  kRelu,
  kSigmoid,
  kTanh,
  kExp,
  kLog,
  kSqrt,
  kReciprocal,
  kErf,
  kFloor,
  kCeil,
  kSin,
  kCos,
  kSoftplus,
  kSoftsign,
  kHardSwish,
  kGelu,
  kGeluTanh,  // one operand
  kLeakyRelu,
  kElu,
  kHardSigmoid,
  kClip,  // one operand, constant parameters in b (and c)
  kCount
};

// An instruction's operands: a; a and b; a and constant parameters in b, c.
enum class EwOperands : uint8_t { kOne = 1, kTwo = 2, kParams = 3 };

// How an ONNX op becomes instructions.
enum class EwLowering : uint8_t {
  kSingle,  // one instruction on the op's data inputs
  kFold,    // a chain of the two-operand `instr` over the inputs (one input: Identity)
  kMean,    // kFold with Add, then Div by the input count
};

// One row per default-domain op fuse_elementwise_chains fuses (and per Gelu
// approximation). Rows whose `name` equals `instr` are the instructions the
// kernel knows.
struct ElementwiseOp {
  std::string_view name;         // the row: "Add", "Sum", "GeluTanh", ...
  std::string_view onnxOp;       // the default-domain op it encodes
  std::string_view approximate;  // for Gelu: the `approximate` value this row takes
  std::string_view instr;        // the instruction it becomes ("Add" for Sum and Mean)
  EwInstr code;                  // that instruction's code
  EwOperands operands;           // that instruction's operands
  EwLowering lowering;
  bool libm;  // evaluated by a scalar libm call (tanhf, expf, erff, ...)
};

std::span<const ElementwiseOp> elementwiseOps();
// The instruction row named `instr` (a name the kernel accepts), or nullptr.
const ElementwiseOp* findInstruction(std::string_view instr);
// The row for a default-domain op (and, for Gelu, its `approximate`), or nullptr.
const ElementwiseOp* findOnnxOp(std::string_view onnxOp, std::string_view approximate = "none");

}  // namespace passlab::ir::passlab_ops
