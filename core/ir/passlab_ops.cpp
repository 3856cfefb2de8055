#include "core/ir/passlab_ops.h"

#include <array>
#include <cstdint>

#include "core/ir/node.h"

namespace passlab::ir::passlab_ops {

namespace {

constexpr size_t kAny = SIZE_MAX;
constexpr std::array<std::string_view, 2> kProgramAttrs = {kOps, kOperands};
constexpr std::array<std::string_view, 1> kBlockAttrs = {kBlock};
constexpr std::array<std::string_view, 2> kFromBlockedAttrs = {kBlock, kChannels};
constexpr std::array<std::string_view, 2> kPoolAttrs = {kBlock, kPool};

constexpr OpSchema kSchemas[] = {
    {kFusedConv, 2, 4, 1, 1, {}},
    {kFusedGemm, 2, 4, 1, 1, {}},
    {kFusedElementwise, 0, kAny, 1, 1, kProgramAttrs},
    {kFusedAttention, 3, kAny, 1, 1, {}},
    {kFusedLayerNorm, 2, 4, 1, 2, {}},
    {kFusedSoftmax, 1, 2, 1, 1, {}},
    {kReorderToBlocked, 1, 1, 1, 1, kBlockAttrs},
    {kReorderFromBlocked, 1, 1, 1, 1, kFromBlockedAttrs},
    {kBlockedPool, 1, 1, 1, 1, kPoolAttrs},
    {kQLinearLookup, 2, 2, 1, 1, {}},
    {kFusedConvInteger, 5, 6, 1, 3, {}},       // 3: quantize_output = 1
    {kQLinearSqueezeExcite, 8, 16, 1, 1, {}},  // 16: exact = 1
    {kRangedDynamicQuantizeLinear, 2, 2, 1, 3, {}},
};

using enum EwInstr;
using enum EwOperands;
using enum EwLowering;

// name, onnx op, approximate, instruction, code, operands, lowering, libm
// (Sigmoid and Tanh run vectorized rows, sigmoid_rows.h, and Sin, Cos, Erf
// and Gelu's erf form too, trig_rows.h and erf_rows.h, and Exp, Log,
// Softplus, Gelu's tanh form and Elu, activation_rows.h: not libm)
constexpr ElementwiseOp kElementwise[] = {
    {"Add", "Add", "", "Add", kAdd, kTwo, kSingle, false},
    {"Sub", "Sub", "", "Sub", kSub, kTwo, kSingle, false},
    {"Mul", "Mul", "", "Mul", kMul, kTwo, kSingle, false},
    {"Div", "Div", "", "Div", kDiv, kTwo, kSingle, false},
    {"Pow", "Pow", "", "Pow", kPow, kTwo, kSingle,
     false},  // libm unless the exponent is 1, 2, 3, 0.5
    {"PRelu", "PRelu", "", "PRelu", kPRelu, kTwo, kSingle, false},
    {"Max", "Max", "", "Max", kMax, kTwo, kFold, false},
    {"Min", "Min", "", "Min", kMin, kTwo, kFold, false},
    {"Sum", "Sum", "", "Add", kAdd, kTwo, kFold, false},
    {"Mean", "Mean", "", "Add", kAdd, kTwo, kMean, false},
    {"Identity", "Identity", "", "Identity", kIdentity, kOne, kSingle, false},
    {"Neg", "Neg", "", "Neg", kNeg, kOne, kSingle, false},
    {"Abs", "Abs", "", "Abs", kAbs, kOne, kSingle, false},
    {"Relu", "Relu", "", "Relu", kRelu, kOne, kSingle, false},
    {"Sigmoid", "Sigmoid", "", "Sigmoid", kSigmoid, kOne, kSingle, false},
    {"Tanh", "Tanh", "", "Tanh", kTanh, kOne, kSingle, false},
    {"Exp", "Exp", "", "Exp", kExp, kOne, kSingle, false},
    {"Log", "Log", "", "Log", kLog, kOne, kSingle, false},
    {"Sqrt", "Sqrt", "", "Sqrt", kSqrt, kOne, kSingle, false},
    {"Reciprocal", "Reciprocal", "", "Reciprocal", kReciprocal, kOne, kSingle, false},
    {"Erf", "Erf", "", "Erf", kErf, kOne, kSingle, false},
    {"Floor", "Floor", "", "Floor", kFloor, kOne, kSingle, false},
    {"Ceil", "Ceil", "", "Ceil", kCeil, kOne, kSingle, false},
    {"Sin", "Sin", "", "Sin", kSin, kOne, kSingle, false},
    {"Cos", "Cos", "", "Cos", kCos, kOne, kSingle, false},
    {"Softplus", "Softplus", "", "Softplus", kSoftplus, kOne, kSingle, false},
    {"Softsign", "Softsign", "", "Softsign", kSoftsign, kOne, kSingle, false},
    {"HardSwish", "HardSwish", "", "HardSwish", kHardSwish, kOne, kSingle, false},
    {"Gelu", "Gelu", "none", "Gelu", kGelu, kOne, kSingle, false},
    {"GeluTanh", "Gelu", "tanh", "GeluTanh", kGeluTanh, kOne, kSingle, false},
    {"LeakyRelu", "LeakyRelu", "", "LeakyRelu", kLeakyRelu, kParams, kSingle, false},
    {"Elu", "Elu", "", "Elu", kElu, kParams, kSingle, false},
    {"HardSigmoid", "HardSigmoid", "", "HardSigmoid", kHardSigmoid, kParams, kSingle, false},
    {"Clip", "Clip", "", "Clip", kClip, kParams, kSingle, false},
};
// The instruction rows (name == instr) number the instructions.
constexpr size_t countInstructions() {
  size_t n = 0;
  for (const ElementwiseOp& r : kElementwise)
    if (r.name == r.instr) ++n;
  return n;
}
static_assert(countInstructions() == static_cast<size_t>(EwInstr::kCount),
              "every FusedElementwise instruction has exactly one row");

}  // namespace

std::span<const OpSchema> opSchemas() {
  return kSchemas;
}

const OpSchema* findSchema(std::string_view op) {
  for (const OpSchema& s : kSchemas)
    if (s.op == op) return &s;
  return nullptr;
}

std::span<const ElementwiseOp> elementwiseOps() {
  return kElementwise;
}

const ElementwiseOp* findInstruction(std::string_view instr) {
  for (const ElementwiseOp& r : kElementwise)
    if (r.name == instr && r.instr == instr) return &r;
  return nullptr;
}

const ElementwiseOp* findOnnxOp(std::string_view onnxOp, std::string_view approximate) {
  for (const ElementwiseOp& r : kElementwise)
    if (r.onnxOp == onnxOp && (r.approximate.empty() || r.approximate == approximate)) return &r;
  return nullptr;
}

std::string whyNotValid(const Node& n) {
  const OpSchema* s = findSchema(n.opType());
  if (!s) return std::string(kDomain) + " has no op '" + n.opType() + "'";
  size_t nin = n.inputCount();
  while (nin > 0 && !n.input(nin - 1)) --nin;  // trailing omitted inputs do not count
  if (nin < s->minInputs || nin > s->maxInputs)
    return "has " + std::to_string(nin) + " inputs; " + n.opType() + " takes " +
           std::to_string(s->minInputs) +
           (s->maxInputs == kAny ? " or more" : " to " + std::to_string(s->maxInputs));
  if (n.outputCount() < s->minOutputs || n.outputCount() > s->maxOutputs)
    return "has " + std::to_string(n.outputCount()) + " outputs; " + n.opType() + " gives " +
           std::to_string(s->minOutputs) + " to " + std::to_string(s->maxOutputs);
  for (std::string_view a : s->requiredAttrs)
    if (!n.hasAttr(a)) return "required attribute '" + std::string(a) + "' is missing";
  if (n.opType() == kFusedElementwise) {
    const std::vector<std::string>& ops = n.attr(kOps)->strings;
    const size_t operands = n.attrInts(kOperands).size();
    if (operands != 3 * ops.size())  // the kernel's words (passlab_fused_elementwise.cpp)
      return "FusedElementwise has " + std::to_string(ops.size()) + " ops and " +
             std::to_string(operands) + " operands (3 per op expected)";
    for (const std::string& op : ops)
      if (!findInstruction(op)) return "FusedElementwise does not know op '" + op + "'";
  }
  // quantize_output = 1: Q, Q_scale, Q_zero_point (DynamicQuantizeLinear's of Y);
  // else Y and the optional Range.
  if (n.opType() == kFusedConvInteger && n.outputCount() == 3 &&
      n.attrInt("quantize_output", 0) == 0)
    return "FusedConvInteger has 3 outputs without quantize_output = 1";
  if (n.hasAttr(kBlock) && !validBlock(n.attrInt(kBlock, 0)))
    return "block " + std::to_string(n.attrInt(kBlock, 0)) + " is not 8 or 16";
  if (n.opType() == kReorderFromBlocked && n.attrInt(kChannels, 0) < 1)
    return "channels " + std::to_string(n.attrInt(kChannels, 0)) + " is not positive";
  if (n.opType() == kBlockedPool && !validBlockedPool(n.attrString(kPool, "")))
    return "pool '" + n.attrString(kPool, "") +
           "' is not MaxPool, AveragePool or GlobalAveragePool";
  return "";
}

}  // namespace passlab::ir::passlab_ops
