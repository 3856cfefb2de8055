// The executor running on a memory plan: one block of the plan's peak per run
// (taken from the Arena, so it counts against the memory limit), and every
// main-graph tensor a kernel allocates placed at its slot's planned offset.
//
//   BlockLayout layout(plan, graph.slotCount);   // once per plan
//   PlannedBlock block(layout);                  // per run
//   block.begin(arena);
//   block.tensorFor(slot, dtype, dims)           // NodeContext::allocate
//   block.settle(slot, value, arena)             // after each main-graph step
//   block.scratchFor(step, dtype, dims)          // NodeContext::scratch
//
// tensorFor gives nothing (the caller falls back to the Arena) when the bytes
// differ from the plan's (a shape the plan did not know), for a slot the plan
// makes a view (the kernel returns its input instead) and for slots the plan
// does not hold. settle copies out a value that points into the block but not
// at its own planned place: kernels that return an existing tensor (Cast to
// the same type, OptionalGetElement, sequence ops, If/Loop/Scan returning an
// outer value) would otherwise keep memory the plan gives to later tensors.
// scratchFor gives a kernel's working memory from the step's planned scratch
// buffer (MemoryPlan: PlannedTensor::scratch) first, then from the block's
// gaps at that step (bytes no tensor live at the step holds), else nothing
// (the Arena).
//
// Regions: tensors the plan places inside a graph output's result buffer
// (PlannedTensor::region) go there: begin() takes those buffers from the
// executor's result memory (OutputBuffers::reserve) before the first step,
// and the output's step later writes the same buffer. Where a buffer cannot
// be taken (outputs copied on this run), its tensors go to the Arena. settle
// treats a region as the block until its output's step: a value pointing
// into it but not at its slot's place is copied out.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "core/exec/arena.h"
#include "core/exec/memory/memory_plan.h"
#include "core/exec/value.h"

namespace passlab::exec {
class OutputBuffers;
}

namespace passlab::exec::memory {

// Where each main-graph slot's tensor goes.
class BlockLayout {
 public:
  BlockLayout(const MemoryPlan& plan, size_t slotCount);

  struct Place {
    bool planned = false;  // the plan holds the slot
    bool own = false;      // its own place (not a view of another slot's buffer)
    uint64_t offset = 0;
    uint64_t bytes = 0;
    int32_t region = -1;  // -1: the block; else an index into regions()
  };
  const Place& at(int32_t slot) const;
  // A graph output's result buffer that holds planned tensors before its
  // step (MemoryPlan::outside).
  struct Region {
    int32_t slot = -1;   // the output (or viewed base) that owns the buffer
    uint64_t bytes = 0;  // the output's (the buffer: rounded up to 64)
    int32_t step = 0;    // the step writing it; the tensors in it die before
  };
  const std::vector<Region>& regions() const { return regions_; }
  // Whether a tensor of `dtype` and `dims` goes to `place`: a place of its own
  // that the plan sized for exactly this many bytes.
  static bool fits(const Place& place, ir::DataType dtype, const Dims& dims);
  uint64_t blockBytes() const { return blockBytes_; }
  int inPlaceCount() const { return inPlaceCount_; }
  // [begin, end) ranges of the block no tensor live at `step` holds.
  using Gaps = std::vector<std::pair<uint64_t, uint64_t>>;
  const Gaps& gapsAt(int32_t step) const;
  // The kernel scratch buffer the plan gives `step` (planned false: none).
  const Place& scratchAt(int32_t step) const;

 private:
  std::vector<Place> places_;
  std::vector<Place> scratch_;  // per step
  std::vector<Region> regions_;
  std::vector<Gaps> gaps_;  // per step
  Place none_;
  uint64_t blockBytes_ = 0;
  int inPlaceCount_ = 0;
};

// What one run did with the block.
struct BlockCounts {
  int placed = 0;          // tensors allocated at their planned offset
  int fellBack = 0;        // allocations of a planned slot that went to the Arena
  int copiedOut = 0;       // values moved out of memory that was not theirs
  int scratchInBlock = 0;  // kernel scratch buffers given from the block's gaps
  int scratchPlanned = 0;  // kernel scratch buffers given from their step's planned buffer
  // Kernel scratch neither planned nor in the gaps: asked of the Arena.
  int scratchOutside = 0;
  uint64_t scratchOutsideBytes = 0;
  BlockCounts& operator+=(const BlockCounts& o) {
    placed += o.placed;
    scratchPlanned += o.scratchPlanned;
    scratchOutside += o.scratchOutside;
    scratchOutsideBytes += o.scratchOutsideBytes;
    fellBack += o.fellBack;
    copiedOut += o.copiedOut;
    scratchInBlock += o.scratchInBlock;
    return *this;
  }
};

class PlannedBlock {
 public:
  explicit PlannedBlock(const BlockLayout& layout) : layout_(layout) {}

  // Takes the block from `arena` (a kLimit error when it does not fit), and
  // the result buffers of the layout's regions from `results` (none: the
  // regions' tensors go to the Arena).
  Status begin(Arena& arena, OutputBuffers* results = nullptr);
  // A tensor at `slot`'s planned offset, or nothing when the plan has no
  // place of exactly these bytes for it.
  std::optional<Tensor> tensorFor(int32_t slot, ir::DataType dtype, const Dims& dims);
  // `v` as the slot keeps it: unchanged unless it holds a tensor in the block
  // at another place than the slot's own; such a tensor is copied to the
  // slot's place (same bytes) or to the Arena.
  // `step`: the step that wrote it (-1: unknown, regions then count as the
  // block at every step).
  Expected<Value> settle(int32_t slot, Value v, Arena& arena, int32_t step = -1);
  // Working memory for a kernel of main-graph step `step`, in a gap of the
  // block at that step, or nothing. Thread-safe.
  std::optional<Tensor> scratchFor(int32_t step, ir::DataType dtype, const Dims& dims);
  // Whether `p` points into the block.
  bool holds(const void* p) const;
  // Whether no tensor points into the block any more (a body's next
  // activation may run on it), and the start of such an activation: every
  // step's gaps free again for scratch.
  bool idle() const { return storage_ == nullptr || storage_.use_count() == 1; }
  void restart();
  // The counts so far, and zero from now on.
  BlockCounts takeCounts();

  const BlockCounts& counts() const { return counts_; }

 private:
  Expected<Tensor> moved(const Tensor& t, const BlockLayout::Place* place, Arena& arena);
  Expected<Value> movedOut(const Value& v, Arena& arena, int32_t step);
  bool inBlock(const Value& v, int32_t step) const;
  // Whether `p` is in the block, or in a region whose output step is after
  // `step` (-1: any region).
  bool holdsAt(const void* p, int32_t step) const;
  // The storage a place is in (the block, or its region's buffer), or null.
  const std::shared_ptr<Storage>* storageOf(const BlockLayout::Place& place) const;

  const BlockLayout& layout_;
  std::shared_ptr<Storage> storage_;
  const std::byte* base_ = nullptr;
  std::vector<std::shared_ptr<Storage>> regions_;  // per layout region; null: not taken
  BlockCounts counts_;
  std::mutex scratchMu_;
  int32_t scratchStep_ = -1;
  BlockLayout::Gaps scratchGaps_;  // the step's gaps less what scratch took
  uint64_t scratchUsed_ = 0;       // bytes of the step's planned scratch buffer taken
};

}  // namespace passlab::exec::memory
