#include "core/pipeline/quant_steps.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <string_view>

#include "core/pipeline/graph_facts.h"
#include "core/pipeline/numeric_check.h"

namespace passlab::pipeline {

namespace {

bool integerGrid(ir::DataType t) {
  return t == ir::DataType::kUInt8 || t == ir::DataType::kInt8 || t == ir::DataType::kUInt4 ||
         t == ir::DataType::kInt4;
}

// Ops whose every output element is one of their first input's elements (or
// zero, which every grid holds): the grid passes through unchanged.
bool keepsGrid(std::string_view op) {
  static const std::set<std::string_view> kOps{"Reshape",   "Transpose", "Flatten", "Squeeze",
                                               "Unsqueeze", "Identity",  "Slice",   "Split",
                                               "Gather",    "MaxPool",   "Relu"};
  return kOps.count(op) != 0;
}

// The one scale of a per-tensor DequantizeLinear (constant, finite, > 0).
std::optional<double> perTensorScale(const ir::Node& dq) {
  if (dq.hasAttr("block_size") || dq.inputs().size() < 2) return std::nullopt;
  const ir::Tensor* s = constantOf(dq.input(1));
  if (!s || s->numel() != 1 || !ir::isFloatingPoint(s->dtype())) return std::nullopt;
  const double v = std::fabs(s->valueAsDouble(0));
  if (!std::isfinite(v) || v <= 0) return std::nullopt;
  return v;
}

// The grid step of `v`, walking back through the ops above (depth-limited:
// a long chain of such ops is not worth following further).
std::optional<double> stepOf(const ir::Value* v, int depth) {
  if (!v || depth > 64) return std::nullopt;
  if (integerGrid(v->type().elemType())) return 1.0;
  const ir::Node* p = v->producer();
  if (!p || !standardOp(*p) || p->inputs().empty()) return std::nullopt;
  const std::string& op = p->opType();
  if (op == "DequantizeLinear") return perTensorScale(*p);
  if (keepsGrid(op)) return stepOf(p->input(0), depth + 1);
  if (op == "Concat" || op == "Add" || op == "Sub") {
    if (op != "Concat" && p->inputs().size() != 2) return std::nullopt;
    double largest = 0, sum = 0;
    for (const ir::Value* in : p->inputs()) {
      auto s = stepOf(in, depth + 1);
      if (!s) return std::nullopt;
      largest = std::max(largest, *s);
      sum += *s;
    }
    return op == "Concat" ? largest : sum;
  }
  return std::nullopt;
}

}  // namespace

std::map<std::string, double> outputSteps(const ir::Model& model) {
  std::map<std::string, double> steps;
  for (const ir::Value* out : model.graph().outputs())
    if (out)
      if (auto s = stepOf(out, 0)) steps[out->name()] = *s;
  return steps;
}

StepCount countSteps(const ir::Tensor& got, const ir::Tensor& want, double step,
                     double noiseAllowance, const StepRule& rule) {
  StepCount c;
  const Tolerance tol = toleranceFor(want.dtype());
  const bool floating = ir::isFloatingPoint(want.dtype());
  c.compared = want.numel();
  for (int64_t i = 0; i < c.compared; ++i) {
    const double a = floating ? got.valueAsDouble(i) : static_cast<double>(got.valueAsInt64(i));
    const double b = floating ? want.valueAsDouble(i) : static_cast<double>(want.valueAsInt64(i));
    const double slack = noiseAllowance > 0 ? noiseAllowance : tol.atol + tol.rtol * std::fabs(b);
    if (a == b || (std::isnan(a) && std::isnan(b))) continue;
    const double d = std::fabs(a - b);
    if (d <= slack) continue;  // NaN and infinity fall through to `beyond`
    ++c.moved;
    const double steps = d / step;
    if (std::isfinite(steps)) c.maxSteps = std::max(c.maxSteps, steps);
    // The slack covers the float rounding of the step itself.
    if (!(d <= rule.maxSteps * step + slack)) {
      if (c.beyond++ == 0) c.firstBeyond = i;
    }
  }
  return c;
}

bool withinSteps(const StepCount& count, const StepRule& rule) {
  return count.beyond == 0 &&
         static_cast<double>(count.moved) <= rule.maxShare * static_cast<double>(count.compared);
}

}  // namespace passlab::pipeline
