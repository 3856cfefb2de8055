#include "core/pipeline/quant_steps.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <string_view>
#include <vector>

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

// Ops whose 8-bit output is a quantization of a real value: their integers are
// grid steps. Any other 8-bit tensor (a graph input, a Cast of class labels, a
// Gather of a token table) is data whose every unit counts.
bool quantizes(std::string_view op) {
  return op == "QuantizeLinear" || op == "DynamicQuantizeLinear" || op == "QGemm" ||
         op.substr(0, 7) == "QLinear";
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
  const ir::Node* p = v->producer();
  if (!p || p->inputs().empty()) return std::nullopt;
  const std::string& op = p->opType();
  if (integerGrid(v->type().elemType())) {
    if (quantizes(op)) return 1.0;
    if (standardOp(*p) && keepsGrid(op)) return stepOf(p->input(0), depth + 1);
    return std::nullopt;
  }
  if (!standardOp(*p)) return std::nullopt;
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

namespace {

// Moved elements per channel (axis 1), for the channels large enough to judge.
class ChannelShares {
 public:
  ChannelShares(const std::vector<int64_t>& dims, int64_t minElements) {
    if (dims.size() < 2 || dims[1] <= 0) return;
    inner_ = 1;
    for (size_t d = 2; d < dims.size(); ++d) inner_ *= dims[d];
    if (inner_ <= 0) return;
    perChannel_ = dims[0] * inner_;
    if (perChannel_ < minElements) return;
    moved_.assign(static_cast<size_t>(dims[1]), 0);
  }
  void count(int64_t element) {
    if (!moved_.empty())
      ++moved_[static_cast<size_t>((element / inner_) % static_cast<int64_t>(moved_.size()))];
  }
  void worst(StepCount& c) const {
    for (size_t ch = 0; ch < moved_.size(); ++ch) {
      const double share = static_cast<double>(moved_[ch]) / static_cast<double>(perChannel_);
      if (moved_[ch] > 0 && share > c.worstChannelShare) {
        c.worstChannelShare = share;
        c.worstChannel = static_cast<int64_t>(ch);
      }
    }
  }

 private:
  int64_t inner_ = 0, perChannel_ = 0;
  std::vector<int64_t> moved_;
};

}  // namespace

StepCount countSteps(const ir::Tensor& got, const ir::Tensor& want, double step,
                     double noiseAllowance, const StepRule& rule) {
  StepCount c;
  ChannelShares channels(want.dims(), rule.minChannelElements);
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
    channels.count(i);
    const double steps = d / step;
    if (std::isfinite(steps)) c.maxSteps = std::max(c.maxSteps, steps);
    // The slack covers the float rounding of the step itself.
    if (!(d <= rule.maxSteps * step + slack)) {
      if (c.beyond++ == 0) c.firstBeyond = i;
    }
  }
  channels.worst(c);
  return c;
}

bool withinSteps(const StepCount& count, const StepRule& rule) {
  return count.beyond == 0 &&
         static_cast<double>(count.moved) <= rule.maxShare * static_cast<double>(count.compared) &&
         count.worstChannelShare <= rule.maxChannelShare;
}

}  // namespace passlab::pipeline
