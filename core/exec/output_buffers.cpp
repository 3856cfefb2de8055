#include "core/exec/output_buffers.h"

#include <cstdlib>
#include <string_view>

namespace passlab::exec {

namespace {

// A result buffer as the caller's immutable bytes; the storage goes back to
// the executor's result memory when the caller's last tensor releases it.
class HandedOverBytes final : public ir::Buffer {
 public:
  HandedOverBytes(std::shared_ptr<Storage> storage, size_t bytes)
      : storage_(std::move(storage)), bytes_(bytes) {}
  const std::byte* data() const override { return storage_->data(); }
  size_t size() const override { return bytes_; }
  std::string origin() const override { return "heap"; }

 private:
  std::shared_ptr<Storage> storage_;
  size_t bytes_;
};

// Per slot of the main graph: a graph output listed once, written by a step.
std::vector<bool> eligibleSlots(const CompiledGraph& plan) {
  std::vector<int> listed(plan.slotCount, 0);
  for (const SlotRef& r : plan.outputs)
    if (r.depth == 0 && r.present()) ++listed[static_cast<size_t>(r.index)];
  std::vector<bool> written(plan.slotCount, false);
  for (const Step& step : plan.steps)
    for (int32_t slot : step.outputs)
      if (slot >= 0) written[static_cast<size_t>(slot)] = true;
  for (int32_t slot : plan.inputSlots) written[static_cast<size_t>(slot)] = false;
  for (const auto& [slot, value] : plan.constants) written[static_cast<size_t>(slot)] = false;
  std::vector<bool> eligible(plan.slotCount, false);
  for (size_t s = 0; s < eligible.size(); ++s) eligible[s] = listed[s] == 1 && written[s];
  return eligible;
}

}  // namespace

OutputBuffers::OutputBuffers(const CompiledGraph& plan)
    : eligible_(eligibleSlots(plan)), given_(plan.slotCount) {}

bool OutputBuffers::turnedOff() {
  const char* v = std::getenv("PASSLAB_DIRECT_OUTPUTS");
  return v != nullptr && std::string_view(v) == "0";
}

void OutputBuffers::beginRun(bool on) {
  endRun();
  on_ = on && !turnedOff();
  handedOver_ = 0;
}

bool OutputBuffers::writes(int32_t slot, ir::DataType dtype) const {
  return on_ && dtype != ir::DataType::kString && dtype != ir::DataType::kUndefined && slot >= 0 &&
         static_cast<size_t>(slot) < eligible_.size() && eligible_[static_cast<size_t>(slot)];
}

Expected<Tensor> OutputBuffers::allocate(int32_t slot, ir::DataType dtype, Dims dims) {
  if (!writes(slot, dtype))
    return internalError("no result buffer for slot " + std::to_string(slot));
  const int64_t n = numelOf(dims);
  if (n < 0)
    return invalidArgument("cannot allocate a tensor of dims " + dimsToString(dims) +
                           " (negative or too large)");
  const uint64_t bytes = ir::dtypeStorageBytes(dtype, static_cast<uint64_t>(n));
  if (bytes > (uint64_t{1} << 46))
    return limitError("a tensor of " + std::string(ir::dtypeName(dtype)) + dimsToString(dims) +
                      " is too large");
  auto storage = memory_.allocate(bytes);
  if (!storage) return storage.error();
  given_[static_cast<size_t>(slot)] = {*storage, static_cast<size_t>(bytes)};
  return Tensor(dtype, std::move(dims), std::move(storage).value());
}

ir::Tensor OutputBuffers::take(int32_t slot, const Tensor& t) {
  if (slot >= 0 && static_cast<size_t>(slot) < given_.size()) {
    Given& g = given_[static_cast<size_t>(slot)];
    if (g.storage != nullptr && !t.isString() && !t.isReadOnly() && t.raw() == g.storage->data() &&
        t.byteSize() == g.bytes) {
      ir::Tensor out(t.dtype(), t.dims(),
                     std::make_shared<HandedOverBytes>(std::move(g.storage), g.bytes));
      g = {};
      ++handedOver_;
      return out;
    }
  }
  return t.toIr();
}

void OutputBuffers::endRun() {
  for (Given& g : given_) g = {};
}

}  // namespace passlab::exec
