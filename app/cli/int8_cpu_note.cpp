#include "app/cli/int8_cpu_note.h"

#include <iostream>
#include <string_view>

#include "core/exec/cpu/int8_dot_exactness.h"
#include "core/exec/cpu/qlinear_onednn_requantization.h"

namespace passlab::cli {

namespace {

// Ops that compute in 8 bits on PassLab's executor, or that --level fused
// makes such ops of.
bool eightBit(std::string_view op) {
  for (std::string_view o : {"QLinearConv", "ConvInteger", "FusedConvInteger", "QLinearMatMul",
                             "MatMulInteger", "QGemm", "QuantizeLinear", "DynamicQuantizeLinear"})
    if (op == o) return true;
  return false;
}

// Whether `t` is not an int8 weight (more than one value) or one oneDNN's
// int8 kernels sum exactly here with uint8 activations.
bool narrowInt8Weights(const ir::Tensor* t) {
  return !t || t->dtype() != ir::DataType::kInt8 || t->numel() <= 1 ||
         exec::cpu::qlinear::int8DotProductsExactFor(t->data<int8_t>(), ir::DataType::kUInt8);
}

// Whether `v` is typed int8 (as declared or inferred).
bool int8Typed(const ir::Value* v) {
  return v && v->type().isTensor() && v->type().elemType() == ir::DataType::kInt8;
}

// Whether `z`, a zero point, is an int8 initializer.
bool int8ZeroPoint(const ir::Value* z) {
  return z && z->isInitializer() && z->initializer()->dtype() == ir::DataType::kInt8;
}

// Whether `v` is computed at run time: not a weight (an initializer, or a
// Constant node's output).
bool computedAtRunTime(const ir::Value* v) {
  return v && !v->isInitializer() && !(v->producer() && v->producer()->opType() == "Constant");
}

// Whether `n` reads or writes int8 activations. In ONNX the activation's
// element type is its own; the zero point, where given, has that type, but it
// is optional in ConvInteger, MatMulInteger, DequantizeLinear and
// QuantizeLinear (absent: 0 of the activation's type), so both are asked.
// QuantizeLinear's y is of y_zero_point's type, else of output_dtype (opset
// 21), else uint8. Only a DequantizeLinear of a value computed at run time
// reads an activation (one of a weight, an initializer or a Constant node's
// output, does not).
bool int8Activations(const ir::Node& n) {
  const std::string_view op = n.opType();
  if (op == "QuantizeLinear") {
    const ir::Attribute* dt = n.attr("output_dtype");
    return int8Typed(n.output(0)) || int8ZeroPoint(n.input(2)) ||
           (dt && dt->type() == ir::AttrType::kInt &&
            dt->i == static_cast<int64_t>(ir::DataType::kInt8));
  }
  const bool reads = op == "ConvInteger" || op == "FusedConvInteger" || op == "MatMulInteger" ||
                     op == "QLinearConv" || op == "QLinearMatMul" || op == "QGemm" ||
                     (op == "DequantizeLinear" && computedAtRunTime(n.input(0)));
  return reads && (int8Typed(n.input(0)) || int8ZeroPoint(n.input(2)));
}

// Whether a ConvInteger / FusedConvInteger / MatMulInteger runs on oneDNN's
// int8 kernels here: constant weights (input 1) whose W' (int8 W as it is,
// uint8 W - 128) is in [-64, 64] (int8 initializers are checked with the
// others); its activations are checked by int8Activations.
bool narrowDynamicWeights(const ir::Node& n) {
  const ir::Value* w = n.input(1);
  const ir::Tensor* t = w ? w->initializer() : nullptr;
  if (!t) return false;  // fed at run time (or a Constant node's): the reference
  if (t->dtype() == ir::DataType::kUInt8)
    for (uint8_t v : t->data<uint8_t>())
      if (v < 128 - exec::cpu::qlinear::kNarrowInt8Weight ||
          v > 128 + exec::cpu::qlinear::kNarrowInt8Weight)
        return false;
  return true;
}

// A weight's zero point other than 0: the int8 kernels take only 0 (the
// layer keeps the int32 or float32 sums). QLinearConv's w_zero_point and
// QLinearMatMul's b_zero_point (input 5), and a DequantizeLinear's of a
// stored int8 weight (input 2).
bool nonzeroWeightZeroPoint(const ir::Node& n) {
  const std::string_view op = n.opType();
  const bool weightDq = op == "DequantizeLinear" && n.input(0) && n.input(0)->isInitializer();
  if (op != "QLinearConv" && op != "QLinearMatMul" && !weightDq) return false;
  const ir::Value* z = n.input(weightDq ? 2 : 5);
  const ir::Tensor* t = z ? z->initializer() : nullptr;
  if (!t || t->dtype() != ir::DataType::kInt8) return false;
  for (int8_t v : t->data<int8_t>())
    if (v != 0) return true;
  return false;
}

// Whether every int8 weight of the model is in [-64, 64] with zero point 0
// and every 8-bit activation uint8: what `reduce_range` quantizers write, whose layers run on
// oneDNN's int8 kernels even without VNNI (int8_dot_exactness.h). Weights:
// the int8 initializers and Constant tensors of more than one value (zero
// points are scalars, or per channel within the bound anyway), and the
// weights' zero points 0; activations: QuantizeLinear's y and the 8-bit
// ops' x, by type or zero point (int8Activations).
// The dynamic form (ConvInteger, FusedConvInteger, MatMulInteger after
// DynamicQuantizeLinear, whose output is uint8) takes it too, with its
// weights' zero points taken out after the sums (narrow_signed_weights.h):
// a constant W with W' (uint8 W as W - 128) in [-64, 64].
bool narrowInt8Throughout(const ir::Model& model) {
  for (const ir::Value* v : model.graph().initializers())
    if (!narrowInt8Weights(v->initializer())) return false;
  for (const auto& n : model.graph().nodes()) {
    const std::string_view op = n->opType();
    if (op == "Constant") {  // weights held by Constant nodes (paddle2onnx's files)
      const ir::Attribute* value = n->attr("value");
      if (value && value->type() == ir::AttrType::kTensor && !narrowInt8Weights(&value->t))
        return false;
      continue;
    }
    if (nonzeroWeightZeroPoint(*n) || int8Activations(*n)) return false;
    if (op == "ConvInteger" || op == "FusedConvInteger" || op == "MatMulInteger") {
      if (!narrowDynamicWeights(*n)) return false;
      continue;
    }
    // uint8 weights (stored, more than one value) take the int32 sums path.
    const ir::Value* w =
        op == "QuantizeLinear" ? nullptr : n->input(op == "DequantizeLinear" ? 0 : 3);
    if (w && w->isInitializer() && w->initializer()->dtype() == ir::DataType::kUInt8 &&
        w->initializer()->numel() > 1)
      return false;
  }
  return true;
}

}  // namespace

std::optional<std::string> int8SlowerHereWarning(const ir::Model& model) {
  bool any = false;
  for (const auto& n : model.graph().nodes())
    if (eightBit(n->opType())) {
      any = true;
      break;
    }
  if (!any || exec::cpu::qlinear::exactInt8DotProducts() || narrowInt8Throughout(model))
    return std::nullopt;
  return std::string(
      "warning: this CPU has no AVX-512 VNNI or AVX-VNNI (exact int8 dot products): PassLab runs "
      "INT8 convolutions with int8 weights outside [-64, 64] or int8 activations on float32 "
      "sums here, usually slower than the float32 model; quantize with "
      "--set quantize_static.reduce_range=true (or quantize_dynamic.reduce_range=true; uint8 "
      "activations, the default) to run them on int8 kernels here, as the default "
      "reduce_range=auto does when it quantizes on such a CPU (docs/precision.md, \"INT8 on a "
      "CPU without AVX-512 VNNI\")");
}

void warnIfInt8SlowerHere(const ir::Model& model) {
  if (auto w = int8SlowerHereWarning(model)) std::cerr << *w << "\n";
}

}  // namespace passlab::cli
