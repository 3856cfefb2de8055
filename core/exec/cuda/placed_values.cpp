#include "core/exec/cuda/placed_values.h"

namespace passlab::exec::cuda {

const DeviceTensor* ConstantUploads::find(int32_t slot, const Tensor& host) const {
  auto it = entries_.find(slot);
  if (it == entries_.end() || it->second.host.raw() != host.raw() ||
      it->second.host.dims() != host.dims() || it->second.host.dtype() != host.dtype())
    return nullptr;
  return &it->second.device;
}

void ConstantUploads::keep(int32_t slot, const Tensor& host, DeviceTensor device) {
  entries_[slot] = {host, std::move(device)};
}

void ConstantUploads::setConstantSlots(const std::vector<int32_t>& slots) {
  for (int32_t s : slots) {
    if (s < 0) continue;
    if (static_cast<size_t>(s) >= constant_.size()) constant_.resize(static_cast<size_t>(s) + 1);
    constant_[static_cast<size_t>(s)] = true;
  }
}

bool ConstantUploads::isConstantSlot(int32_t slot) const {
  return slot >= 0 && static_cast<size_t>(slot) < constant_.size() &&
         constant_[static_cast<size_t>(slot)];
}

PlacedValues::PlacedValues(std::vector<Value> slots, cudaStream_t stream, ConstantUploads& uploads)
    : device_(slots.size()),
      onHost_(slots.size(), true),
      onDevice_(slots.size(), false),
      stream_(stream),
      uploads_(uploads) {
  frame_.slots = std::move(slots);
}

bool PlacedValues::present(int32_t slot) const {
  auto i = static_cast<size_t>(slot);
  if (onDevice_[i]) return true;
  return onHost_[i] && !frame_.slots[i].isNone();
}

ir::DataType PlacedValues::dtype(int32_t slot) const {
  auto i = static_cast<size_t>(slot);
  if (onDevice_[i]) return device_[i].dtype();
  const Value& v = frame_.slots[i];
  return v.isTensor() ? v.tensor().dtype() : ir::DataType::kUndefined;
}

const Dims& PlacedValues::dims(int32_t slot) const {
  static const Dims kNone;
  auto i = static_cast<size_t>(slot);
  if (onDevice_[i]) return device_[i].dims();
  const Value& v = frame_.slots[i];
  return v.isTensor() ? v.tensor().dims() : kNone;
}

Expected<DeviceTensor> PlacedValues::onDevice(int32_t slot) {
  auto i = static_cast<size_t>(slot);
  if (onDevice_[i]) return device_[i];
  const Value& v = frame_.slots[i];
  if (!onHost_[i] || !v.isTensor())
    return invalidArgument("the value is " + v.describe() + ", not a tensor the GPU can take");
  bool constant = uploads_.isConstantSlot(slot);
  if (constant)
    if (const DeviceTensor* kept = uploads_.find(slot, v.tensor())) {
      device_[i] = *kept;
      onDevice_[i] = true;
      return device_[i];
    }
  auto d = upload(v.tensor(), stream_);
  if (!d) return d.error();
  ++copiesToDevice_;
  bytesToDevice_ += v.tensor().byteSize();
  if (constant) uploads_.keep(slot, v.tensor(), *d);
  device_[i] = std::move(d).value();
  onDevice_[i] = true;
  return device_[i];
}

Expected<const Value*> PlacedValues::onHost(int32_t slot) {
  auto i = static_cast<size_t>(slot);
  if (onHost_[i]) return &frame_.slots[i];
  if (!onDevice_[i]) return invalidArgument("the value was released before this use");
  auto h = download(device_[i], stream_);
  if (!h) return h.error();
  ++copiesToHost_;
  bytesToHost_ += device_[i].byteSize();
  frame_.slots[i] = Value(std::move(h).value());
  onHost_[i] = true;
  return &frame_.slots[i];
}

Status PlacedValues::allOnHost() {
  for (size_t i = 0; i < device_.size(); ++i)
    if (onDevice_[i] && !onHost_[i]) {
      auto h = onHost(static_cast<int32_t>(i));
      if (!h) return h.error();
    }
  return Status::ok();
}

void PlacedValues::setDevice(int32_t slot, DeviceTensor t) {
  auto i = static_cast<size_t>(slot);
  device_[i] = std::move(t);
  onDevice_[i] = true;
  frame_.slots[i] = Value();
  onHost_[i] = false;
}

void PlacedValues::setHost(int32_t slot, Value v) {
  auto i = static_cast<size_t>(slot);
  frame_.slots[i] = std::move(v);
  onHost_[i] = true;
  device_[i] = DeviceTensor();
  onDevice_[i] = false;
}

void PlacedValues::release(const std::vector<int32_t>& slots) {
  for (int32_t s : slots) {
    auto i = static_cast<size_t>(s);
    frame_.slots[i] = Value();
    device_[i] = DeviceTensor();
    onHost_[i] = false;
    onDevice_[i] = false;
  }
}

std::vector<PlacedValue> PlacedValues::snapshot(const std::vector<int32_t>& slots) const {
  std::vector<PlacedValue> out(slots.size());
  for (size_t k = 0; k < slots.size(); ++k) {
    if (slots[k] < 0) continue;
    auto i = static_cast<size_t>(slots[k]);
    // Host values may sit in a CPU step's arena: kept ones get their own copy.
    if (onHost_[i]) out[k].host = frame_.slots[i].detached();
    out[k].device = device_[i];
    out[k].onHost = onHost_[i];
    out[k].onDevice = onDevice_[i];
  }
  return out;
}

void PlacedValues::bind(const std::vector<int32_t>& slots, const std::vector<PlacedValue>& values) {
  for (size_t k = 0; k < slots.size() && k < values.size(); ++k) {
    if (slots[k] < 0) continue;
    auto i = static_cast<size_t>(slots[k]);
    frame_.slots[i] = values[k].host;
    device_[i] = values[k].device;
    onHost_[i] = values[k].onHost;
    onDevice_[i] = values[k].onDevice;
  }
}

void PlacedValues::countCopies(DeviceRunSummary& summary) const {
  summary.copiesToDevice += copiesToDevice_;
  summary.copiesToHost += copiesToHost_;
  summary.bytesToDevice += bytesToDevice_;
  summary.bytesToHost += bytesToHost_;
}

}  // namespace passlab::exec::cuda
