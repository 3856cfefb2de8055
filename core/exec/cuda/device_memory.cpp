#include "core/exec/cuda/device_memory.h"

#include "core/exec/memory/plan_check.h"

namespace passlab::exec::cuda {

Expected<memory::MemoryPlan> planDeviceMemory(const CompiledGraph& graph,
                                              const std::vector<uint64_t>& deviceBytes) {
  memory::PlanOptions options = memory::PlanOptions::forExecution();
  options.inPlace = false;
  options.observedFirst = true;
  options.heldSlots.assign(graph.slotCount, false);
  for (size_t s = 0; s < deviceBytes.size() && s < graph.slotCount; ++s)
    options.heldSlots[s] = deviceBytes[s] != kNotOnDevice;
  auto plan = memory::planMemory(graph, &deviceBytes, options);
  if (!plan) return plan.error();
  if (Status st = memory::checkPlan(*plan); !st)
    return st.error().withContext("the device memory plan was refused");
  return plan;
}

DeviceSettle settleAction(const memory::BlockLayout::Place& place, bool inBlock, uint64_t offset,
                          uint64_t bytes) {
  if (!inBlock) return DeviceSettle::kKeep;
  if (place.planned && offset == place.offset) return DeviceSettle::kKeep;  // own, or a view
  if (place.planned && place.own && bytes == place.bytes) return DeviceSettle::kToOwnPlace;
  return DeviceSettle::kToPool;
}

std::string inputSignature(const CompiledGraph& graph, const std::vector<Value>& slots) {
  std::string s;
  for (int32_t slot : graph.inputSlots) {
    if (slot < 0 || static_cast<size_t>(slot) >= slots.size()) continue;
    s += slots[static_cast<size_t>(slot)].describe() + ";";
  }
  return s;
}

const memory::BlockLayout* DeviceMemory::prepare(const CompiledGraph& graph,
                                                 const std::vector<Value>& slots,
                                                 DeviceBlockUse& use) {
  if (!enabled_) {
    use.note = "device memory plan turned off (PASSLAB_CUDA_ARENA=off)";
    return nullptr;
  }
  std::string signature = inputSignature(graph, slots);
  if (stage_ == Stage::kFresh || signature != signature_) {
    signature_ = std::move(signature);
    stage_ = Stage::kRecording;
    bytes_.assign(graph.slotCount, kNotOnDevice);
    plan_.reset();
    layout_.reset();
    failure_.clear();
  }
  switch (stage_) {
    case Stage::kPlanned:
      use.blockBytes = layout_->blockBytes();
      use.plannedTensorBytes = 0;
      for (const memory::PlannedTensor& t : plan_->tensors)
        if (t.reuse == memory::Reuse::kNone) use.plannedTensorBytes += t.size;
      return layout_.get();
    case Stage::kRecording:
      bytes_.assign(graph.slotCount, kNotOnDevice);  // a failed recording run starts over
      use.note =
          "device values placed by this run (their sizes recorded for the next runs with "
          "these input shapes)";
      return nullptr;
    default:
      use.note = failure_;
      return nullptr;
  }
}

void DeviceMemory::record(int32_t slot, uint64_t bytes) {
  if (stage_ != Stage::kRecording || slot < 0 || static_cast<size_t>(slot) >= bytes_.size()) return;
  bytes_[static_cast<size_t>(slot)] = bytes;
}

void DeviceMemory::recorded(const CompiledGraph& graph) {
  if (stage_ != Stage::kRecording) return;
  auto plan = planDeviceMemory(graph, bytes_);
  if (!plan) {
    failure_ = "no device memory plan: " + plan.error().message();
    stage_ = Stage::kFailed;
    return;
  }
  plan_ = std::move(plan).value();
  layout_ = std::make_unique<memory::BlockLayout>(*plan_, graph.slotCount);
  ++planNumber_;
  stage_ = Stage::kPlanned;
}

void DeviceMemory::blockFailed(const std::string& why) {
  plan_.reset();
  layout_.reset();
  failure_ = "the device memory plan's block could not be allocated (" + why +
             "): the pool serves these input shapes";
  stage_ = Stage::kFailed;
}

}  // namespace passlab::exec::cuda
