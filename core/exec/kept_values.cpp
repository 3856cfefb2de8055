#include "core/exec/kept_values.h"

#include <algorithm>
#include <cstdint>

#include "core/analysis/shape_inference.h"
#include "core/exec/compiler.h"

namespace passlab::exec {

namespace {

// A value the executor can hold across runs: the model's own (read-only)
// data as it is, anything else copied off the Arena and the planned block.
Value ownCopy(const Value& v) {
  if (v.isTensor() && v.tensor().isReadOnly()) return v;
  return v.detached();
}

// Whether shape inference reads initializer `t`'s elements (a shape, axes,
// pads: int64, at most ShapeInferenceOptions::maxConstantElements): the
// executor infers shapes again from its model for every new input shape (the
// memory plan, the step threads), and without that data it would not know
// the shapes of values computed from it (w = ConstantOfShape(s)) that a
// fresh executor knows. So its data stays (a few bytes).
bool readByShapeInference(const ir::Tensor& t) {
  return t.dtype() == ir::DataType::kInt64 && t.numel() >= 0 &&
         static_cast<size_t>(t.numel()) <= analysis::ShapeInferenceOptions{}.maxConstantElements;
}

}  // namespace

bool keepsOutputs(const Step& step) {
  return step.outputsInvariance != Invariance::kNo &&
         std::any_of(step.outputs.begin(), step.outputs.end(), [](int32_t s) { return s >= 0; });
}

bool KeptValues::applies(const Step& step, bool overridden) {
  if (!keepsOutputs(step)) return false;
  return step.outputsInvariance == Invariance::kAlways || !overridden;
}

const std::vector<Value>* KeptValues::find(size_t index) const {
  if (index >= values_.size() || !values_[index]) return nullptr;
  return &*values_[index];
}

const std::vector<Value>& KeptValues::keep(size_t index, std::vector<Value> outputs,
                                           const std::vector<bool>& own) {
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (i >= own.size() || !own[i]) outputs[i] = ownCopy(outputs[i]);
    bytes_ += outputs[i].byteSize();
  }
  peakBytes_ = std::max(peakBytes_, bytes_);
  values_[index] = std::move(outputs);
  ++generation_;
  return *values_[index];
}

void KeptValues::noteHeld(size_t step, size_t input, const Kernel& k) {
  if (step >= held_.size()) return;
  std::vector<const Kernel*>& holders = held_[step];
  if (input < holders.size() && holders[input] == &k) return;  // noted on an earlier run
  if (holders.size() <= input) holders.resize(input + 1, nullptr);
  holders[input] = &k;
  ++generation_;
}

const Kernel* KeptValues::heldBy(size_t step, size_t input) const {
  if (step >= held_.size() || input >= held_[step].size()) return nullptr;
  return held_[step][input];
}

Status KeptValues::checkFreedInputs(size_t step, const Kernel& k,
                                    const std::vector<const Value*>& ins) const {
  for (size_t i = 0; i < ins.size(); ++i) {
    if (ins[i] == nullptr || !ins[i]->isTensor() || !ins[i]->tensor().dataFreed()) continue;
    if (heldBy(step, i) != &k)
      return internalError("input " + std::to_string(i) +
                           " was freed after its readers packed it, and this kernel holds no "
                           "copy of it");
  }
  return Status::ok();
}

void KeptValues::findReaders(const CompiledGraph& plan) {
  readers_.assign(plan.slotCount, {});
  stillReadAt_.assign(plan.slotCount, UINT64_MAX);
  pinned_.assign(plan.slotCount, false);
  producer_.assign(plan.slotCount, -1);
  for (const SlotRef& r : plan.outputs)
    if (r.depth == 0 && r.present()) pinned_[static_cast<size_t>(r.index)] = true;
  for (size_t s = 0; s < plan.steps.size(); ++s) {
    const Step& step = plan.steps[s];
    for (int32_t slot : step.outputs)
      if (slot >= 0) producer_[static_cast<size_t>(slot)] = static_cast<int32_t>(s);
    for (size_t i = 0; i < step.inputs.size(); ++i)
      if (step.inputs[i].present() && step.inputs[i].depth == 0)
        readers_[static_cast<size_t>(step.inputs[i].index)].push_back({s, i});
    if (!step.node->hasSubgraphs()) continue;
    std::vector<const ir::Value*> outer;
    collectOuterReads(*step.node, *plan.graph, outer);
    for (const ir::Value* v : outer)
      if (auto it = plan.slotOf.find(v); it != plan.slotOf.end())
        pinned_[static_cast<size_t>(it->second)] = true;
  }
}

bool KeptValues::unread(const CompiledGraph& plan, Invariance made, int32_t slot) const {
  if (pinned_[static_cast<size_t>(slot)]) return false;
  for (const auto& [s, i] : readers_[static_cast<size_t>(slot)]) {
    const Step& reader = plan.steps[s];
    // A kept reader never runs again on the runs that bind this value from
    // here, unless it runs afresh on runs that override initializers while
    // this value (kAlways) is still bound from here.
    if (keepsOutputs(reader) && find(s) != nullptr &&
        (reader.outputsInvariance == Invariance::kAlways || made == Invariance::kUnlessOverridden))
      continue;
    if (heldBy(s, i) == nullptr) return false;
  }
  return true;
}

uint64_t KeptValues::release(const CompiledGraph& plan, size_t producer, size_t out) {
  if (!values_[producer] || out >= values_[producer]->size()) return 0;
  const Step& step = plan.steps[producer];
  Value& v = (*values_[producer])[out];
  if (out >= step.outputs.size() || step.outputs[out] < 0 || !v.isTensor() ||
      v.tensor().dataFreed())
    return 0;
  const auto slot = static_cast<size_t>(step.outputs[out]);
  if (stillReadAt_[slot] == generation_) return 0;  // nothing changed since it was
  if (!unread(plan, step.outputsInvariance, step.outputs[out])) {
    stillReadAt_[slot] = generation_;
    return 0;
  }
  const uint64_t bytes = v.byteSize();
  v = Value(v.tensor().withoutData());
  bytes_ -= std::min(bytes_, bytes);
  freedBytes_ += bytes;
  ++freedCount_;
  return bytes;
}

uint64_t KeptValues::releaseConstant(const CompiledGraph& plan, size_t k,
                                     std::vector<Value>* slots) {
  ir::Tensor* model = constantTensors_[k];
  auto& [slot, v] = (*constants_)[k];
  if (model == nullptr || !v.isTensor() || v.tensor().dataFreed() || readByShapeInference(*model))
    return 0;
  const auto s = static_cast<size_t>(slot);
  if (stillReadAt_[s] == generation_) return 0;  // nothing changed since it was
  if (!unread(plan, Invariance::kAlways, slot)) {
    stillReadAt_[s] = generation_;
    return 0;
  }
  const uint64_t bytes = v.byteSize();
  v = Value(v.tensor().withoutData());
  if (slots != nullptr && s < slots->size()) (*slots)[s] = v;
  ir::Tensor bare(model->dtype(), model->dims(), nullptr);
  bare.setName(model->name());
  *model = std::move(bare);
  freedBytes_ += bytes;
  ++freedCount_;
  return bytes;
}

void KeptValues::trackConstants(CompiledGraph& plan, ir::Graph& graph) {
  constants_ = &plan.constants;
  constantTensors_.assign(plan.constants.size(), nullptr);
  constantOfSlot_.assign(plan.slotCount, -1);
  std::vector<bool> graphInput(plan.slotCount, false);
  for (int32_t slot : plan.inputSlots) graphInput[static_cast<size_t>(slot)] = true;
  for (size_t k = 0; k < plan.constants.size(); ++k)
    constantOfSlot_[static_cast<size_t>(plan.constants[k].first)] = static_cast<int32_t>(k);
  for (ir::Value* v : graph.initializers()) {
    auto it = plan.slotOf.find(v);
    if (it == plan.slotOf.end()) continue;
    const auto slot = static_cast<size_t>(it->second);
    // A graph input's initializer is only a default the caller may replace.
    if (constantOfSlot_[slot] >= 0 && !graphInput[slot])
      constantTensors_[static_cast<size_t>(constantOfSlot_[slot])] = v->mutableInitializer();
  }
}

uint64_t KeptValues::releaseHeld(const CompiledGraph& plan, std::vector<Value>* slots) {
  // Every value was decided at this generation already (freed, or still
  // read): nothing changed since.
  if (runCheckedAt_ == generation_) return 0;
  if (readers_.size() != plan.slotCount) findReaders(plan);
  uint64_t freed = 0;
  for (size_t p = 0; p < values_.size() && p < plan.steps.size(); ++p)
    if (values_[p])
      for (size_t o = 0; o < values_[p]->size(); ++o) freed += release(plan, p, o);
  if (constants_ != nullptr)
    for (size_t k = 0; k < constants_->size(); ++k) freed += releaseConstant(plan, k, slots);
  runCheckedAt_ = generation_;
  return freed;
}

uint64_t KeptValues::releaseReadBy(const CompiledGraph& plan, size_t step,
                                   std::vector<Value>& slots) {
  // Decided at this generation already: every input it reads is freed, or
  // still read, or not kept yet (keeping one bumps the generation).
  if (step >= stepCheckedAt_.size() || stepCheckedAt_[step] == generation_) return 0;
  if (readers_.size() != plan.slotCount) findReaders(plan);
  uint64_t freed = 0;
  for (const SlotRef& r : plan.steps[step].inputs) {
    if (!r.present() || r.depth != 0) continue;
    const auto slot = static_cast<size_t>(r.index);
    if (constants_ != nullptr && constantOfSlot_[slot] >= 0) {
      freed += releaseConstant(plan, static_cast<size_t>(constantOfSlot_[slot]), &slots);
      continue;
    }
    const int32_t p = producer_[slot];
    if (p < 0 || !values_[static_cast<size_t>(p)]) continue;
    const Step& made = plan.steps[static_cast<size_t>(p)];
    for (size_t o = 0; o < made.outputs.size(); ++o)
      if (made.outputs[o] == r.index) freed += release(plan, static_cast<size_t>(p), o);
  }
  stepCheckedAt_[step] = generation_;
  return freed;
}

size_t KeptValues::count() const {
  size_t n = 0;
  for (const auto& v : values_)
    if (v) n += v->size();
  return n;
}

}  // namespace passlab::exec
