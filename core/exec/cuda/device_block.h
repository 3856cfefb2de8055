// The block of a device memory plan (device_memory.h) in GPU memory: one
// allocation per plan, kept by the runner across its runs with the same input
// shapes, and the device steps' outputs placed at their slots' offsets.
//
//   DeviceBlock::create(layout, stream)      // once per plan
//   block.tensorFor(slot, dtype, dims)       // CudaContext::allocate
//   block.settle(slot, tensor, stream)       // after each device step
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "core/exec/cuda/device_tensor.h"
#include "core/exec/memory/planned_block.h"

namespace passlab::exec::cuda {

class DeviceBlock {
 public:
  // The layout's block from the stream's pool (a kLimit-like error from
  // CUDA when it does not fit).
  static Expected<std::unique_ptr<DeviceBlock>> create(const memory::BlockLayout& layout,
                                                       cudaStream_t stream);

  const memory::BlockLayout& layout() const { return layout_; }
  // A tensor at `slot`'s planned offset, or nothing when the plan has no
  // place of exactly these bytes for it (the caller uses the pool).
  std::optional<DeviceTensor> tensorFor(int32_t slot, ir::DataType dtype, const Dims& dims);
  // `t` as the slot keeps it: unchanged unless it lies in the block at
  // another place than the slot's (a kernel passing an input through), then
  // copied on `stream` to the slot's own place or to the pool.
  Expected<DeviceTensor> settle(int32_t slot, DeviceTensor t, cudaStream_t stream);
  bool holds(const void* p) const;

  // Counts since the last resetCounts (one run).
  const memory::BlockCounts& counts() const { return counts_; }
  void resetCounts() { counts_ = {}; }

 private:
  DeviceBlock(const memory::BlockLayout& layout, std::shared_ptr<DeviceStorage> storage)
      : layout_(layout), storage_(std::move(storage)) {}

  const memory::BlockLayout& layout_;
  std::shared_ptr<DeviceStorage> storage_;
  memory::BlockCounts counts_;
};

}  // namespace passlab::exec::cuda
