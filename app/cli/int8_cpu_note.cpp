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

// Whether every int8 weight of the model is in [-64, 64] and every 8-bit
// activation uint8: what `reduce_range` quantizers write, whose layers run on
// oneDNN's int8 kernels even without VNNI (int8_dot_exactness.h). Weights:
// the int8 initializers of more than one value (zero points are scalars or
// per channel 0s, within the bound anyway); activations: the zero points of
// QuantizeLinear and of the int8 ops' x (int8 ones mean int8 activations).
// The dynamic form (ConvInteger, MatMulInteger) does not take that path yet.
bool narrowInt8Throughout(const ir::Model& model) {
  for (const ir::Value* v : model.graph().initializers()) {
    const ir::Tensor* t = v->initializer();
    if (!t || t->dtype() != ir::DataType::kInt8 || t->numel() <= 1) continue;
    if (!exec::cpu::qlinear::int8DotProductsExactFor(t->data<int8_t>(), ir::DataType::kUInt8))
      return false;
  }
  for (const auto& n : model.graph().nodes()) {
    const std::string_view op = n->opType();
    // The dynamic form's integer ops keep the float32 sums or the reference here.
    for (std::string_view d :
         {"ConvInteger", "FusedConvInteger", "MatMulInteger", "DynamicQuantizeLinear"})
      if (op == d) return false;
    // uint8 weights (stored, more than one value) take the int32 sums path.
    const size_t weight = op == "DequantizeLinear" ? 0 : op == "QuantizeLinear" ? 99 : 3;
    const ir::Value* w = n->input(weight);
    if (w && w->isInitializer() && w->initializer()->dtype() == ir::DataType::kUInt8 &&
        w->initializer()->numel() > 1)
      return false;
    if (op != "QuantizeLinear" && op != "QLinearConv" && op != "QLinearMatMul") continue;
    const ir::Value* z = n->input(2);  // y_zero_point, x_zero_point, a_zero_point
    if (z && z->isInitializer() && z->initializer()->dtype() == ir::DataType::kInt8) return false;
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
      "--set quantize_static.reduce_range=true (and uint8 activations, the default) to run them on "
      "int8 kernels here (docs/precision.md, \"INT8 on a CPU without "
      "AVX-512 VNNI\")");
}

void warnIfInt8SlowerHere(const ir::Model& model) {
  if (auto w = int8SlowerHereWarning(model)) std::cerr << *w << "\n";
}

}  // namespace passlab::cli
