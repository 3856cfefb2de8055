// The CUDA runner's device memory planned by lifetimes (docs/gpu.md): the
// CPU executor's memory planner (memory/memory_plan.h: the same lifetimes,
// views, offset strategies and plan checker) lays out the values the device
// steps write in one block per plan, allocated once and reused by every run
// with the same input shapes.
//
// Which values live on the device and how large they are is known only once a
// run has placed its steps (a kernel may decline at run time, shape
// arithmetic stays on the host, some sizes depend on values), so the first
// run with given input shapes takes its memory from the stream's pool and
// records, per slot, the bytes of each tensor a device step wrote there; the
// plan made from them serves the later runs with those shapes. The plan holds
// those slots only (PlanOptions::heldSlots) and shares no buffer in place
// (the CUDA kernels write outputs of their own). A plan the checker refuses
// is not run on; uploads of host values, kernel scratch, the outputs of
// constant-only steps (kept across runs) and any tensor whose bytes differ
// from the plan's come from the pool as before.
//
// Host logic only (no CUDA calls): planned and tested without a GPU.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/exec/compiled_graph.h"
#include "core/exec/memory/memory_plan.h"
#include "core/exec/memory/planned_block.h"

namespace passlab::exec::cuda {

// An entry of the per-slot device bytes for a slot no device step wrote.
inline constexpr uint64_t kNotOnDevice = memory::kUnknownBytes;

// The device plan of `graph`: the tensors at the slots `deviceBytes` gives
// bytes for (per main-graph slot, kNotOnDevice elsewhere), laid out by the
// CPU executor's planner without in-place sharing, and accepted by
// memory::checkPlan (its refusal is the error).
Expected<memory::MemoryPlan> planDeviceMemory(const CompiledGraph& graph,
                                              const std::vector<uint64_t>& deviceBytes);

// What to do with a device step's output `slot` that is a tensor of `bytes`
// at byte `offset` of the block (`inBlock`), given the slot's place: keep it
// (not in the block, or at the slot's own place, or a view the plan shares),
// copy it to the slot's own place (same bytes), or copy it to the pool. A
// kernel returning one of its inputs (a pass-through) would otherwise keep
// bytes the plan gives to later tensors.
enum class DeviceSettle : uint8_t { kKeep, kToOwnPlace, kToPool };
DeviceSettle settleAction(const memory::BlockLayout::Place& place, bool inBlock, uint64_t offset,
                          uint64_t bytes);

// What one run did with the block (DeviceRunSummary reports it).
struct DeviceBlockUse {
  uint64_t blockBytes = 0;          // the plan's block (0: no plan this run)
  uint64_t plannedTensorBytes = 0;  // the planned tensors' bytes, all together
  std::string note;                 // why the run was not on a plan
};

// The stages of one runner's device plan: recording a run's sizes, planned,
// or failed (the reason kept) for the current input shapes.
class DeviceMemory {
 public:
  explicit DeviceMemory(bool enabled) : enabled_(enabled) {}

  // Before a run whose frame is `slots` (graph inputs bound): the layout to
  // run on, or null; `recording()` then says whether the run records sizes.
  const memory::BlockLayout* prepare(const CompiledGraph& graph, const std::vector<Value>& slots,
                                     DeviceBlockUse& use);
  bool recording() const { return stage_ == Stage::kRecording; }
  // A device step of the recording run wrote `bytes` at `slot`.
  void record(int32_t slot, uint64_t bytes);
  // After the recording run succeeded: plans from what it recorded.
  void recorded(const CompiledGraph& graph);
  // The block of the plan could not be had (`why`): later runs with these
  // shapes use the pool.
  void blockFailed(const std::string& why);

  const memory::MemoryPlan* plan() const { return plan_ ? &*plan_ : nullptr; }
  // Counts the plans made: a block made for an earlier plan is not reused.
  uint64_t planNumber() const { return planNumber_; }

 private:
  enum class Stage : uint8_t { kFresh, kRecording, kPlanned, kFailed };

  bool enabled_;
  Stage stage_ = Stage::kFresh;
  std::string signature_;  // the input shapes the stage is for
  std::vector<uint64_t> bytes_;
  std::optional<memory::MemoryPlan> plan_;
  std::unique_ptr<memory::BlockLayout> layout_;
  std::string failure_;
  uint64_t planNumber_ = 0;
};

// The signature of the inputs bound in `slots` (their types and dims): a
// plan serves the runs with the same.
std::string inputSignature(const CompiledGraph& graph, const std::vector<Value>& slots);

}  // namespace passlab::exec::cuda
