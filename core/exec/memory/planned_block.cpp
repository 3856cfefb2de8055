#include "core/exec/memory/planned_block.h"

#include <algorithm>
#include <cstring>

#include "core/exec/output_buffers.h"

namespace passlab::exec::memory {

namespace {

constexpr uint64_t kAlign = 64;  // the arena's alignment

uint64_t alignUp(uint64_t n) {
  return (n + kAlign - 1) / kAlign * kAlign;
}

// The ranges of [0, blockBytes) that no tensor live at step s holds, per step.
std::vector<BlockLayout::Gaps> gapsPerStep(const MemoryPlan& plan) {
  std::vector<BlockLayout::Gaps> gaps(static_cast<size_t>(std::max(plan.stepCount, 0)));
  std::vector<std::pair<uint64_t, uint64_t>> live;
  for (int32_t s = 0; s < plan.stepCount; ++s) {
    live.clear();
    for (const PlannedTensor& t : plan.tensors)
      if (t.region < 0 && t.first <= s && s <= t.last && t.size > 0)
        live.emplace_back(t.offset, t.offset + t.size);
    std::sort(live.begin(), live.end());
    uint64_t at = 0;
    BlockLayout::Gaps& g = gaps[static_cast<size_t>(s)];
    for (const auto& [begin, end] : live) {
      if (begin > at) g.emplace_back(at, begin);
      at = std::max(at, end);
    }
    if (plan.peak > at) g.emplace_back(at, plan.peak);
  }
  return gaps;
}

}  // namespace

BlockLayout::BlockLayout(const MemoryPlan& plan, size_t slotCount)
    : places_(slotCount),
      gaps_(gapsPerStep(plan)),
      blockBytes_(plan.peak),
      inPlaceCount_(plan.inPlaceCount) {
  // Regions: the outside outputs some tensor is placed in, numbered in
  // the order of MemoryPlan::outside.
  std::vector<int32_t> regionOf(plan.outside.size(), -1);
  for (const PlannedTensor& t : plan.tensors) {
    Place* at = nullptr;
    if (t.scratch && t.first >= 0 && t.first < plan.stepCount) {
      if (scratch_.empty()) scratch_.resize(static_cast<size_t>(plan.stepCount));
      at = &scratch_[static_cast<size_t>(t.first)];
      at->bytes = t.size;  // the step's requests, each rounded up, fill all of it
    } else if (t.slot >= 0 && static_cast<size_t>(t.slot) < slotCount) {
      at = &places_[static_cast<size_t>(t.slot)];
      at->bytes = t.bytes;
    } else {
      continue;
    }
    Place& p = *at;
    p.planned = true;
    p.own = t.reuse != Reuse::kView;
    p.offset = t.offset;
    if (t.region < 0 || static_cast<size_t>(t.region) >= plan.outside.size()) continue;
    auto& r = regionOf[static_cast<size_t>(t.region)];
    if (r < 0) {
      const PlannedTensor& o = plan.outside[static_cast<size_t>(t.region)];
      r = static_cast<int32_t>(regions_.size());
      regions_.push_back({o.slot, o.bytes, o.first});
    }
    p.region = r;
  }
}

const BlockLayout::Place& BlockLayout::at(int32_t slot) const {
  if (slot < 0 || static_cast<size_t>(slot) >= places_.size()) return none_;
  return places_[static_cast<size_t>(slot)];
}

const BlockLayout::Place& BlockLayout::scratchAt(int32_t step) const {
  if (step < 0 || static_cast<size_t>(step) >= scratch_.size()) return none_;
  return scratch_[static_cast<size_t>(step)];
}

const BlockLayout::Gaps& BlockLayout::gapsAt(int32_t step) const {
  static const Gaps kNone;
  if (step < 0 || static_cast<size_t>(step) >= gaps_.size()) return kNone;
  return gaps_[static_cast<size_t>(step)];
}

Status PlannedBlock::begin(Arena& arena, OutputBuffers* results) {
  regions_.assign(layout_.regions().size(), nullptr);
  if (results != nullptr)
    for (size_t k = 0; k < regions_.size(); ++k) {
      const BlockLayout::Region& r = layout_.regions()[k];
      regions_[k] = results->reserve(r.slot, r.bytes);
    }
  if (layout_.blockBytes() == 0) return Status::ok();
  auto storage = arena.allocate(layout_.blockBytes());
  if (!storage) return storage.error().withContext("the memory plan's block");
  storage_ = std::move(storage).value();
  base_ = storage_->data();
  return Status::ok();
}

const std::shared_ptr<Storage>* PlannedBlock::storageOf(const BlockLayout::Place& place) const {
  if (place.region < 0) return base_ != nullptr ? &storage_ : nullptr;
  const auto k = static_cast<size_t>(place.region);
  return k < regions_.size() && regions_[k] != nullptr ? &regions_[k] : nullptr;
}

void PlannedBlock::restart() {
  std::lock_guard<std::mutex> lock(scratchMu_);
  scratchStep_ = -1;
  scratchGaps_.clear();
  scratchUsed_ = 0;
}

BlockCounts PlannedBlock::takeCounts() {
  BlockCounts c = counts_;
  counts_ = {};
  return c;
}

bool PlannedBlock::holds(const void* p) const {
  const auto* b = static_cast<const std::byte*>(p);
  return base_ != nullptr && b >= base_ && b < base_ + layout_.blockBytes();
}

bool PlannedBlock::holdsAt(const void* p, int32_t step) const {
  if (holds(p)) return true;
  const auto* b = static_cast<const std::byte*>(p);
  for (size_t k = 0; k < regions_.size(); ++k) {
    const BlockLayout::Region& r = layout_.regions()[k];
    if (regions_[k] == nullptr || (step >= 0 && step >= r.step)) continue;
    const std::byte* at = regions_[k]->data();
    if (b >= at && b < at + alignUp(r.bytes)) return true;
  }
  return false;
}

bool BlockLayout::fits(const Place& place, ir::DataType dtype, const Dims& dims) {
  const int64_t n = numelOf(dims);
  return place.own && n >= 0 && dtype != ir::DataType::kString &&
         dtype != ir::DataType::kUndefined &&
         ir::dtypeStorageBytes(dtype, static_cast<uint64_t>(n)) == place.bytes;
}

std::optional<Tensor> PlannedBlock::tensorFor(int32_t slot, ir::DataType dtype, const Dims& dims) {
  const BlockLayout::Place& place = layout_.at(slot);
  if (!place.planned) return std::nullopt;
  const std::shared_ptr<Storage>* storage = storageOf(place);
  if (storage == nullptr) return std::nullopt;  // no block, or its region's buffer not taken
  if (!BlockLayout::fits(place, dtype, dims)) {
    ++counts_.fellBack;
    return std::nullopt;
  }
  ++counts_.placed;
  return Tensor(dtype, dims, *storage, static_cast<size_t>(place.offset));
}

std::optional<Tensor> PlannedBlock::scratchFor(int32_t step, ir::DataType dtype, const Dims& dims) {
  int64_t n = numelOf(dims);
  if (base_ == nullptr || n < 0 || dtype == ir::DataType::kString ||
      dtype == ir::DataType::kUndefined)
    return std::nullopt;
  uint64_t bytes =
      alignUp(std::max<uint64_t>(ir::dtypeStorageBytes(dtype, static_cast<uint64_t>(n)), 1));
  std::lock_guard<std::mutex> lock(scratchMu_);
  if (step != scratchStep_) {  // a new step: every gap of it is free again
    scratchStep_ = step;
    scratchGaps_ = layout_.gapsAt(step);
    scratchUsed_ = 0;
  }
  // The step's planned scratch buffer first (its requests, in any order,
  // fill it exactly as the run that measured them asked).
  const BlockLayout::Place& planned = layout_.scratchAt(step);
  if (planned.planned && scratchUsed_ + bytes <= planned.bytes)
    if (const std::shared_ptr<Storage>* storage = storageOf(planned)) {
      const uint64_t at = planned.offset + scratchUsed_;
      scratchUsed_ += bytes;
      ++counts_.scratchPlanned;
      return Tensor(dtype, dims, *storage, static_cast<size_t>(at));
    }
  for (auto& [begin, end] : scratchGaps_) {
    uint64_t at = alignUp(begin);
    if (at + bytes > end) continue;
    begin = at + bytes;
    ++counts_.scratchInBlock;
    return Tensor(dtype, dims, storage_, static_cast<size_t>(at));
  }
  ++counts_.scratchOutside;
  counts_.scratchOutsideBytes += bytes;
  return std::nullopt;
}

bool PlannedBlock::inBlock(const Value& v, int32_t step) const {
  switch (v.kind()) {
    case Value::Kind::kTensor:
      return v.tensor().byteSize() > 0 && holdsAt(v.tensor().raw(), step);
    case Value::Kind::kSequence:
      for (const Value& item : v.sequence().items)
        if (inBlock(item, step)) return true;
      return false;
    case Value::Kind::kMap:
      return inBlock(Value(v.map().keys), step) || inBlock(Value(v.map().values), step);
    case Value::Kind::kNone:
      break;
  }
  return false;
}

Expected<Tensor> PlannedBlock::moved(const Tensor& t, const BlockLayout::Place* place,
                                     Arena& arena) {
  size_t bytes = t.byteSize();
  Tensor out;
  if (place != nullptr) {
    out = Tensor(t.dtype(), t.dims(), *storageOf(*place), static_cast<size_t>(place->offset));
  } else {
    auto storage = arena.allocate(bytes);
    if (!storage) return storage.error();
    out = Tensor(t.dtype(), t.dims(), std::move(storage).value());
  }
  // The source is live at this step and the place is the slot's own, which
  // the plan keeps apart from every buffer live then; memmove all the same.
  std::memmove(out.mutableRaw(), t.raw(), bytes);
  ++counts_.copiedOut;
  return out;
}

Expected<Value> PlannedBlock::movedOut(const Value& v, Arena& arena, int32_t step) {
  switch (v.kind()) {
    case Value::Kind::kTensor: {
      if (!inBlock(v, step)) return v;
      auto t = moved(v.tensor(), nullptr, arena);
      if (!t) return t.error();
      return Value(std::move(t).value());
    }
    case Value::Kind::kSequence: {
      if (!inBlock(v, step)) return v;
      Sequence s;
      s.elemType = v.sequence().elemType;
      for (const Value& item : v.sequence().items) {
        auto m = movedOut(item, arena, step);
        if (!m) return m.error();
        s.items.push_back(std::move(m).value());
      }
      return Value::sequence(std::move(s));
    }
    case Value::Kind::kMap: {
      if (!inBlock(v, step)) return v;
      auto keys = movedOut(Value(v.map().keys), arena, step);
      if (!keys) return keys.error();
      auto values = movedOut(Value(v.map().values), arena, step);
      if (!values) return values.error();
      return Value::map(Map{keys->tensor(), values->tensor()});
    }
    case Value::Kind::kNone:
      break;
  }
  return v;
}

Expected<Value> PlannedBlock::settle(int32_t slot, Value v, Arena& arena, int32_t step) {
  if (!inBlock(v, step)) return v;
  const BlockLayout::Place& place = layout_.at(slot);
  const std::shared_ptr<Storage>* storage = place.planned ? storageOf(place) : nullptr;
  if (v.isTensor()) {
    const Tensor& t = v.tensor();
    if (storage != nullptr && t.raw() == (*storage)->data() + place.offset)
      return v;  // its own place, or a view
    bool ownPlaceFits = storage != nullptr && place.own && t.byteSize() == place.bytes;
    auto m = moved(t, ownPlaceFits ? &place : nullptr, arena);
    if (!m) return m.error();
    return Value(std::move(m).value());
  }
  return movedOut(v, arena, step);
}

}  // namespace passlab::exec::memory
