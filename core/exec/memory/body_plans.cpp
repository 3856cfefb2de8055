#include "core/exec/memory/body_plans.h"

#include <algorithm>

#include "core/exec/memory/plan_check.h"
#include "core/exec/view_ops.h"

namespace passlab::exec::memory {

namespace {

// Work the hill climb may spend on one body's plan: bodies are planned per
// shape signature while the run waits, and are small.
constexpr uint64_t kBodyHillClimbBudget = 2'000'000;

std::vector<SlotRef> collectOuterReads(const CompiledGraph& body) {
  std::vector<SlotRef> reads;
  auto add = [&](const SlotRef& r) {
    if (!r.present() || r.depth == 0) return;
    for (const SlotRef& seen : reads)
      if (seen.depth == r.depth && seen.index == r.index) return;
    reads.push_back(r);
  };
  for (const Step& step : body.steps)
    for (const SlotRef& r : step.inputs) add(r);
  for (const SlotRef& r : body.outputs) add(r);
  return reads;
}

}  // namespace

PlanOptions bodyPlanOptions(const CompiledGraph& body) {
  PlanOptions o = PlanOptions::forExecution();
  o.hillClimbBudget = kBodyHillClimbBudget;
  o.heldSlots.assign(body.slotCount, true);
  const std::vector<int32_t> base = viewBases(body);
  for (const SlotRef& r : body.outputs) {
    if (r.depth != 0 || !r.present() || static_cast<size_t>(r.index) >= body.slotCount) continue;
    o.heldSlots[static_cast<size_t>(r.index)] = false;
    o.heldSlots[static_cast<size_t>(base[static_cast<size_t>(r.index)])] = false;  // viewed
  }
  return o;
}

void appendShapeKey(const Value& v, std::vector<int64_t>& key) {
  key.push_back(static_cast<int64_t>(v.kind()));
  switch (v.kind()) {
    case Value::Kind::kTensor: {
      const Tensor& t = v.tensor();
      key.push_back(static_cast<int64_t>(t.dtype()));
      key.push_back(static_cast<int64_t>(t.rank()));
      key.insert(key.end(), t.dims().begin(), t.dims().end());
      break;
    }
    case Value::Kind::kSequence:
      key.push_back(static_cast<int64_t>(v.sequence().items.size()));
      for (const Value& item : v.sequence().items) appendShapeKey(item, key);
      break;
    case Value::Kind::kMap:
      appendShapeKey(Value(v.map().keys), key);
      appendShapeKey(Value(v.map().values), key);
      break;
    case Value::Kind::kNone:
      break;
  }
}

BodyPlans::PerBody& BodyPlans::of(const CompiledGraph& body) {
  return bodies_[&body];
}

const std::vector<SlotRef>& BodyPlans::outerReads(const CompiledGraph& body) {
  PerBody& b = of(body);
  if (!b.readsKnown) {
    b.outerReads = collectOuterReads(body);
    b.readsKnown = true;
  }
  return b.outerReads;
}

std::shared_ptr<const BlockLayout> BodyPlans::adopt(PerBody& b, const CompiledGraph& body,
                                                    Expected<MemoryPlan> plan, PlanSource source) {
  if (!plan) {
    b.note = "no memory plan: " + plan.error().message();
    return nullptr;
  }
  if (Status st = checkPlan(*plan); !st) {
    b.note = "memory plan refused: " + st.error().message();
    return nullptr;
  }
  auto layout = std::make_shared<const BlockLayout>(*plan, body.slotCount);
  b.last = std::move(plan).value();
  b.lastSource = source;
  b.note.clear();
  return layout;
}

BodyPlans::Choice BodyPlans::prepare(const CompiledGraph& body, const std::vector<int64_t>& key) {
  if (!enabled_) return {};
  PerBody& b = of(body);
  if (!b.aheadTried) {  // every size from the value types (the outputs need none)
    b.aheadTried = true;
    auto plan = planMemory(body, nullptr, bodyPlanOptions(body));
    if (plan) b.ahead = adopt(b, body, std::move(plan), PlanSource::kAhead);
  }
  if (b.ahead) return {b.ahead, false};
  for (const Keyed& k : b.keyed)
    if (k.key == key) return {k.layout, false};  // null while failed: the Arena
  if (b.signatures >= kMaxSignatures) {
    b.note = "more than " + std::to_string(kMaxSignatures) +
             " shape signatures (sizes that change with the iteration): runs on the arena";
    return {};
  }
  ++b.signatures;
  b.keyed.push_back({key, nullptr, false});
  return {nullptr, true};
}

void BodyPlans::recorded(const CompiledGraph& body, const std::vector<int64_t>& key,
                         const std::vector<uint64_t>& bytes) {
  PerBody& b = of(body);
  for (Keyed& k : b.keyed) {
    if (k.key != key || k.layout || k.failed) continue;
    k.layout =
        adopt(b, body, planMemory(body, &bytes, bodyPlanOptions(body)), PlanSource::kRunTime);
    k.failed = k.layout == nullptr;
    return;
  }
}

BodyPlanInfo BodyPlans::info(const CompiledGraph& body) const {
  BodyPlanInfo i;
  i.body = &body;
  auto it = bodies_.find(&body);
  if (!enabled_) {
    i.note = "memory plan turned off";
    return i;
  }
  if (it == bodies_.end()) {
    i.note = "not run";
    return i;
  }
  const PerBody& b = it->second;
  i.signatures = b.signatures;
  i.note = b.note;
  if (b.last) {
    i.planned = true;
    i.plan = *b.last;
    i.source = b.lastSource;
  } else if (i.note.empty()) {
    i.note = "sizes known only once an activation wrote them: none has finished recording";
  }
  return i;
}

PlannedBlock* BodyBlocks::blockFor(const CompiledGraph& body,
                                   std::shared_ptr<const BlockLayout> layout, Arena& arena,
                                   BodyRunCounts& counts) {
  auto it =
      std::find_if(held_.begin(), held_.end(), [&](const Held& h) { return h.body == &body; });
  if (it != held_.end() && it->layout == layout && it->block->idle()) {
    it->block->restart();
    return it->block.get();
  }
  if (it == held_.end()) it = held_.insert(held_.end(), Held{&body, nullptr, nullptr});
  // The previous block goes back first (a block something still points into
  // stays alive through those tensors).
  it->block.reset();
  auto block = std::make_unique<PlannedBlock>(*layout);
  if (Status st = block->begin(arena); !st) {
    held_.erase(it);
    return nullptr;
  }
  ++counts.blocks;
  it->block = std::move(block);
  it->layout = std::move(layout);
  return it->block.get();
}

}  // namespace passlab::exec::memory
