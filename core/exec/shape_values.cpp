#include "core/exec/shape_values.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "core/exec/constant_steps_order.h"

namespace passlab::exec {

namespace {

bool isShapeOp(const ir::Node& n) {
  return (n.domain().empty() || n.domain() == "ai.onnx") &&
         (n.opType() == "Shape" || n.opType() == "Size");
}

// Whether `n` gives the same outputs for the same inputs: no subgraphs, not
// random (the rule the kept constant steps use: outputInvariance with every
// input invariant).
bool sameForSameInputs(const ir::Node& n) {
  InvariantValues all;
  for (const ir::Value* v : n.inputs())
    if (v) all.emplace(v, Invariance::kAlways);
  return outputInvariance(n, all) != Invariance::kNo;
}

bool equalTensors(const Value& a, const Value& b) {
  if (!a.isTensor() || !b.isTensor()) return false;
  const Tensor& x = a.tensor();
  const Tensor& y = b.tensor();
  if (x.dtype() != y.dtype() || x.dims() != y.dims() || x.isString() || x.dataFreed() ||
      y.dataFreed())
    return false;
  return x.byteSize() == 0 || std::memcmp(x.raw(), y.raw(), x.byteSize()) == 0;
}

// A copy of the outputs of `step` in `slots` fit to keep, or nothing.
std::optional<std::vector<Value>> keepable(const Step& step, const std::vector<Value>& slots) {
  std::vector<Value> out(step.outputs.size());
  for (size_t i = 0; i < step.outputs.size(); ++i) {
    if (step.outputs[i] < 0) continue;
    const Value& v = slots[static_cast<size_t>(step.outputs[i])];
    if (!v.isTensor() || v.tensor().isString() || v.tensor().dataFreed() ||
        v.tensor().numel() > ShapeValues::kMaxElements)
      return std::nullopt;
    out[i] = v.detached();
  }
  return out;
}

}  // namespace

bool ShapeValues::turnedOff() {
  const char* v = std::getenv("PASSLAB_SHAPE_VALUES");
  return v != nullptr && std::string_view(v) == "0";
}

void ShapeValues::classify(const CompiledGraph& plan) {
  if (turnedOff()) return;
  roles_.assign(plan.steps.size(), Role::kNone);
  values_.assign(plan.steps.size(), std::nullopt);
  std::vector<bool> shapeSlot(plan.slotCount, false), outputSlot(plan.slotCount, false);
  for (const SlotRef& r : plan.outputs)
    if (r.depth == 0 && r.present()) outputSlot[static_cast<size_t>(r.index)] = true;
  for (size_t s = 0; s < plan.steps.size(); ++s) {
    const Step& step = plan.steps[s];
    if (step.outputsInvariance != Invariance::kNo) continue;  // a kept constant step
    bool fromShapes = false, onlyShapes = sameForSameInputs(*step.node);
    for (size_t i = 0; i < step.inputs.size(); ++i) {
      const SlotRef& r = step.inputs[i];
      if (!r.present()) continue;
      if (r.depth == 0 && shapeSlot[static_cast<size_t>(r.index)])
        fromShapes = true;
      else if (step.invariantInputs[i] == Invariance::kNo)
        onlyShapes = false;
    }
    for (int32_t o : step.outputs)
      if (o >= 0 && outputSlot[static_cast<size_t>(o)]) onlyShapes = false;
    if (fromShapes && onlyShapes)
      roles_[s] = Role::kShapeOnly;
    else if (isShapeOp(*step.node))
      roles_[s] = Role::kProbe;
    else
      continue;
    for (int32_t o : step.outputs)
      if (o >= 0) shapeSlot[static_cast<size_t>(o)] = true;
  }
  enabled_ = true;
}

void ShapeValues::beginRun(bool trusted) {
  enabled_ = !roles_.empty() && trusted;
  stale_ = !(enabled_ && trusted_);
  trusted_ = false;  // until this run succeeds
}

const std::vector<Value>* ShapeValues::reuse(size_t index) const {
  if (!enabled_ || stale_ || roles_[index] != Role::kShapeOnly || !values_[index]) return nullptr;
  return &*values_[index];
}

void ShapeValues::ran(const Step& step, size_t index, const std::vector<Value>& slots) {
  if (!enabled_ || roles_[index] == Role::kNone) return;
  if (roles_[index] == Role::kProbe && !stale_ && values_[index]) {
    const std::vector<Value>& kept = *values_[index];
    bool same = true;
    for (size_t i = 0; i < step.outputs.size(); ++i)
      if (step.outputs[i] >= 0 &&
          !equalTensors(kept[i], slots[static_cast<size_t>(step.outputs[i])]))
        same = false;
    if (same) return;
  }
  if (roles_[index] == Role::kProbe) stale_ = true;
  values_[index] = keepable(step, slots);
}

size_t ShapeValues::probeCount() const {
  return static_cast<size_t>(std::count(roles_.begin(), roles_.end(), Role::kProbe));
}

size_t ShapeValues::shapeOnlyCount() const {
  return static_cast<size_t>(std::count(roles_.begin(), roles_.end(), Role::kShapeOnly));
}

}  // namespace passlab::exec
