#include "core/exec/cuda/device_block.h"

#include <cuda_runtime_api.h>

#include "core/exec/cuda/cuda_check.h"
#include "core/exec/cuda/device_memory.h"

namespace passlab::exec::cuda {

Expected<std::unique_ptr<DeviceBlock>> DeviceBlock::create(const memory::BlockLayout& layout,
                                                           cudaStream_t stream) {
  auto storage = DeviceStorage::allocate(static_cast<size_t>(layout.blockBytes()), stream);
  if (!storage) return storage.error();
  return std::unique_ptr<DeviceBlock>(new DeviceBlock(layout, std::move(storage).value()));
}

bool DeviceBlock::holds(const void* p) const {
  const auto* b = static_cast<const std::byte*>(p);
  const std::byte* base = storage_->data();
  return base != nullptr && b >= base && b < base + storage_->size();
}

std::optional<DeviceTensor> DeviceBlock::tensorFor(int32_t slot, ir::DataType dtype,
                                                   const Dims& dims) {
  const memory::BlockLayout::Place& place = layout_.at(slot);
  if (!place.planned || storage_->data() == nullptr) return std::nullopt;
  if (!memory::BlockLayout::fits(place, dtype, dims)) {
    ++counts_.fellBack;
    return std::nullopt;
  }
  ++counts_.placed;
  return DeviceTensor(dtype, dims, storage_, static_cast<size_t>(place.offset));
}

Expected<DeviceTensor> DeviceBlock::settle(int32_t slot, DeviceTensor t, cudaStream_t stream) {
  const bool inBlock = t.byteSize() > 0 && holds(t.raw());
  const uint64_t offset =
      inBlock ? static_cast<uint64_t>(static_cast<const std::byte*>(t.raw()) - storage_->data())
              : 0;
  const memory::BlockLayout::Place& place = layout_.at(slot);
  DeviceSettle action = settleAction(place, inBlock, offset, t.byteSize());
  if (action == DeviceSettle::kKeep) return t;
  DeviceTensor out;
  if (action == DeviceSettle::kToOwnPlace) {
    out = DeviceTensor(t.dtype(), t.dims(), storage_, static_cast<size_t>(place.offset));
  } else {
    auto storage = DeviceStorage::allocate(t.byteSize(), stream);
    if (!storage) return storage.error();
    out = DeviceTensor(t.dtype(), t.dims(), std::move(storage).value());
  }
  // The source is live at this step and the own place is kept apart from
  // every buffer live then by the plan.
  PASSLAB_CUDA_TRY(
      cudaMemcpyAsync(out.mutableRaw(), t.raw(), t.byteSize(), cudaMemcpyDeviceToDevice, stream));
  ++counts_.copiedOut;
  return out;
}

}  // namespace passlab::exec::cuda
