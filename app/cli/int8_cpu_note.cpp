#include "app/cli/int8_cpu_note.h"

#include <iostream>
#include <string_view>

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

}  // namespace

std::optional<std::string> int8SlowerHereWarning(const ir::Model& model) {
  bool any = false;
  for (const auto& n : model.graph().nodes())
    if (eightBit(n->opType())) {
      any = true;
      break;
    }
  if (!any || exec::cpu::qlinear::exactInt8DotProducts()) return std::nullopt;
  return std::string(
      "warning: this CPU has no AVX-512 VNNI or AVX-VNNI (exact int8 dot products): PassLab runs "
      "INT8 convolutions on float32 sums here, usually slower than the float32 model; "
      "INT8 saves size here, not time (docs/precision.md, \"INT8 on a CPU without AVX-512 VNNI\")");
}

void warnIfInt8SlowerHere(const ir::Model& model) {
  if (auto w = int8SlowerHereWarning(model)) std::cerr << *w << "\n";
}

}  // namespace passlab::cli
