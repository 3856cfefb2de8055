// The main graph's values during a CUDA run, each on the host, on the device
// or both: copied to the other side only when a step needs it there, and
// counted. Host values live in a Frame, so CPU kernels (and the subgraphs of
// control-flow nodes) read them as the interpreter's would.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "core/exec/cuda/device_tensor.h"
#include "core/exec/device_run_summary.h"
#include "core/exec/interpreter.h"

namespace passlab::exec::cuda {

struct PlacedValue {
  Value host;
  DeviceTensor device;
  bool onHost = false, onDevice = false;
};

// Device copies of the graph's constants (initializers, and the outputs of
// constant-only steps kept on the host), made on a runner's first run and
// reused by its later ones. An entry holds the host tensor it
// was copied from, so a caller's override of an initializer (another buffer)
// is uploaded afresh.
class ConstantUploads {
 public:
  const DeviceTensor* find(int32_t slot, const Tensor& host) const;
  void keep(int32_t slot, const Tensor& host, DeviceTensor device);
  void setConstantSlots(const std::vector<int32_t>& slots);
  bool isConstantSlot(int32_t slot) const;

 private:
  struct Entry {
    Tensor host;
    DeviceTensor device;
  };
  std::unordered_map<int32_t, Entry> entries_;
  std::vector<bool> constant_;
};

class PlacedValues {
 public:
  // `slots`: the frame with constants and inputs bound (host values).
  PlacedValues(std::vector<Value> slots, cudaStream_t stream, ConstantUploads& uploads);

  // Holds a value that is not an omitted input or an empty optional.
  bool present(int32_t slot) const;
  ir::DataType dtype(int32_t slot) const;
  // On the host and not on the device.
  bool onHostOnly(int32_t slot) const {
    auto i = static_cast<size_t>(slot);
    return onHost_[i] && !onDevice_[i];
  }
  const Dims& dims(int32_t slot) const;

  // The value on the device (copied there when it was on the host only).
  Expected<DeviceTensor> onDevice(int32_t slot);
  // The value on the host (copied there, waiting for the stream, when it was
  // on the device only).
  Expected<const Value*> onHost(int32_t slot);
  // Every value held on the device only is copied to the host (before a CPU
  // step whose subgraphs may read any of them).
  Status allOnHost();

  void setDevice(int32_t slot, DeviceTensor t);
  void setHost(int32_t slot, Value v);
  void release(const std::vector<int32_t>& slots);
  std::vector<PlacedValue> snapshot(const std::vector<int32_t>& slots) const;
  void bind(const std::vector<int32_t>& slots, const std::vector<PlacedValue>& values);

  Frame& hostFrame() { return frame_; }
  void countCopies(DeviceRunSummary& summary) const;

 private:
  Frame frame_;  // frame_.slots[i]: slot i's host value when onHost_[i]
  std::vector<DeviceTensor> device_;
  std::vector<bool> onHost_, onDevice_;
  cudaStream_t stream_;
  ConstantUploads& uploads_;
  int copiesToDevice_ = 0, copiesToHost_ = 0;
  uint64_t bytesToDevice_ = 0, bytesToHost_ = 0;
};

}  // namespace passlab::exec::cuda
