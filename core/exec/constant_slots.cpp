#include "core/exec/constant_slots.h"

#include <utility>

namespace passlab::exec {

void ConstantSlots::build(const CompiledGraph& plan) {
  slots_.assign(plan.slotCount, Value());
  std::vector<bool> constant(plan.slotCount, false);
  for (const auto& [slot, value] : plan.constants) {
    slots_[static_cast<size_t>(slot)] = value;
    constant[static_cast<size_t>(slot)] = true;
  }
  others_.clear();
  for (size_t s = 0; s < plan.slotCount; ++s)
    if (!constant[s]) others_.push_back(static_cast<int32_t>(s));
  std::vector<bool> input(plan.slotCount, false);
  for (int32_t slot : plan.inputSlots) input[static_cast<size_t>(slot)] = true;
  overridable_.clear();
  for (size_t k = 0; k < plan.constants.size(); ++k)
    if (input[static_cast<size_t>(plan.constants[k].first)])
      overridable_.push_back({plan.constants[k].first, k});
  built_ = true;
}

std::vector<Value> ConstantSlots::take(const CompiledGraph& plan) {
  // Not built yet, or a run did not give the slots back (an exception).
  if (!built_ || slots_.size() != plan.slotCount) build(plan);
  built_ = false;  // until given back
  return std::move(slots_);
}

void ConstantSlots::giveBack(const CompiledGraph& plan, std::vector<Value> slots, bool overridden) {
  if (slots.size() != plan.slotCount) return;  // built afresh on the next take()
  for (int32_t s : others_) slots[static_cast<size_t>(s)] = Value();
  if (overridden)
    for (const auto& [slot, k] : overridable_)
      slots[static_cast<size_t>(slot)] = plan.constants[k].second;
  slots_ = std::move(slots);
  built_ = true;
}

}  // namespace passlab::exec
