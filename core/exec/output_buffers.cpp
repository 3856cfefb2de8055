#include "core/exec/output_buffers.h"

#include <cstdlib>
#include <string_view>

#include "core/exec/view_ops.h"

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

// Per slot: how often the main graph lists it among its outputs.
std::vector<int> timesListed(const CompiledGraph& plan) {
  std::vector<int> listed(plan.slotCount, 0);
  for (const SlotRef& r : plan.outputs)
    if (r.depth == 0 && r.present()) ++listed[static_cast<size_t>(r.index)];
  return listed;
}

// Per slot: whether a main-graph step writes it (not a graph input, an
// initializer, a constant).
std::vector<bool> writtenByAStep(const CompiledGraph& plan) {
  std::vector<bool> written(plan.slotCount, false);
  for (const Step& step : plan.steps)
    for (int32_t slot : step.outputs)
      if (slot >= 0) written[static_cast<size_t>(slot)] = true;
  for (int32_t slot : plan.inputSlots) written[static_cast<size_t>(slot)] = false;
  for (const auto& [slot, value] : plan.constants) written[static_cast<size_t>(slot)] = false;
  return written;
}

// Per output slot: the base a graph output views when that base gets a
// result buffer for it (written by a step, no graph output), else -1.
std::vector<int32_t> viewedBases(const CompiledGraph& plan) {
  const std::vector<int> listed = timesListed(plan);
  const std::vector<bool> written = writtenByAStep(plan);
  const std::vector<int32_t> base = viewBases(plan);
  std::vector<int32_t> viewOf(plan.slotCount, -1);
  for (size_t s = 0; s < viewOf.size(); ++s) {
    auto b = static_cast<size_t>(base[s]);
    if (listed[s] > 0 && b != s && written[b] && listed[b] == 0) viewOf[s] = base[s];
  }
  return viewOf;
}

}  // namespace

std::vector<bool> directOutputSlots(const CompiledGraph& plan) {
  const std::vector<int> listed = timesListed(plan);
  const std::vector<bool> written = writtenByAStep(plan);
  std::vector<bool> direct(plan.slotCount, false);
  for (size_t s = 0; s < direct.size(); ++s) direct[s] = listed[s] == 1 && written[s];
  for (int32_t b : viewedBases(plan))
    if (b >= 0) direct[static_cast<size_t>(b)] = true;
  return direct;
}

OutputBuffers::OutputBuffers(const CompiledGraph& plan)
    : eligible_(directOutputSlots(plan)), viewOf_(viewedBases(plan)), given_(plan.slotCount) {}

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
  Given& g = given_[static_cast<size_t>(slot)];
  if (g.reserved && g.storage != nullptr && g.bytes == bytes) {
    g.reserved = false;  // the buffer taken at the start of the run
    return Tensor(dtype, std::move(dims), g.storage);
  }
  auto storage = memory_.allocate(bytes);
  if (!storage) return storage.error();
  g = {*storage, static_cast<size_t>(bytes), false};
  return Tensor(dtype, std::move(dims), std::move(storage).value());
}

std::shared_ptr<Storage> OutputBuffers::reserve(int32_t slot, uint64_t bytes) {
  if (!on_ || slot < 0 || static_cast<size_t>(slot) >= eligible_.size() ||
      !eligible_[static_cast<size_t>(slot)] || bytes == 0 || bytes > (uint64_t{1} << 46))
    return nullptr;
  // Rounded up to the plan's 64 bytes: a tensor placed in it may reach there.
  auto storage = memory_.allocate((bytes + 63) / 64 * 64);
  if (!storage) return nullptr;
  given_[static_cast<size_t>(slot)] = {*storage, static_cast<size_t>(bytes), true};
  return std::move(storage).value();
}

std::optional<ir::Tensor> OutputBuffers::handOver(int32_t slot, const Tensor& t) {
  if (slot < 0 || static_cast<size_t>(slot) >= given_.size()) return std::nullopt;
  Given& g = given_[static_cast<size_t>(slot)];
  if (g.storage == nullptr || g.reserved || t.isString() || t.isReadOnly() ||
      t.raw() != g.storage->data() || t.byteSize() != g.bytes)
    return std::nullopt;
  ir::Tensor out(t.dtype(), t.dims(),
                 std::make_shared<HandedOverBytes>(std::move(g.storage), g.bytes));
  g = {};
  ++handedOver_;
  return out;
}

ir::Tensor OutputBuffers::take(int32_t slot, const Tensor& t) {
  if (auto own = handOver(slot, t)) return std::move(*own);
  if (slot >= 0 && static_cast<size_t>(slot) < viewOf_.size() &&
      viewOf_[static_cast<size_t>(slot)] >= 0)
    if (auto viewed = handOver(viewOf_[static_cast<size_t>(slot)], t)) return std::move(*viewed);
  return t.toIr();
}

void OutputBuffers::endRun() {
  // Only the slots it may write have a buffer (reserve(), allocate()).
  for (size_t s = 0; s < given_.size(); ++s)
    if (eligible_[s]) given_[s] = {};
}

}  // namespace passlab::exec
