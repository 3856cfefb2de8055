#include "core/exec/memory/execution_memory.h"

#include <cstdlib>
#include <string_view>

#include "core/exec/memory/input_shapes.h"
#include "core/exec/memory/input_sizes.h"
#include "core/exec/memory/plan_check.h"

namespace passlab::exec::memory {

namespace {

// Whether PASSLAB_QUICK_PLANS=0 makes every plan tight, whatever the
// Executor asked (ExecutorOptions::tightMemoryPlan): to compare the two.
bool quickPlansTurnedOff() {
  const char* v = std::getenv("PASSLAB_QUICK_PLANS");
  return v != nullptr && std::string_view(v) == "0";
}

// The given inputs' names, types and dims: a plan made at run time serves
// runs with the same.
std::string signatureOf(const ExecutionMemory::Inputs& inputs) {
  std::string s;
  for (const auto& [name, value] : inputs) s += name + "=" + value.describe() + ";";
  return s;
}

}  // namespace

bool ExecutionMemory::adopt(Expected<MemoryPlan> plan, const CompiledGraph& graph,
                            PlanSource source) {
  plan_.reset();
  layout_.reset();
  source_ = PlanSource::kNone;
  if (!plan) {
    failure_ = "no memory plan: " + plan.error().message();
    return false;
  }
  if (Status st = checkPlan(*plan); !st) {
    failure_ = "memory plan refused: " + st.error().message();
    return false;
  }
  plan_ = std::move(plan).value();
  layout_ = std::make_unique<BlockLayout>(*plan_, graph.slotCount);
  source_ = source;
  failure_.clear();
  return true;
}

const BlockLayout* ExecutionMemory::use(RunMemoryUse& use) const {
  use.source = source_;
  use.blockBytes = layout_->blockBytes();
  use.inPlace = layout_->inPlaceCount();
  use.plannedScratchBytes = plan_->scratchBytes;
  return layout_.get();
}

PlanOptions ExecutionMemory::options() const {
  PlanOptions o = PlanOptions::forExecution();
  if (!tight_ && !quickPlansTurnedOff()) o.hillClimbBudget = 0;
  o.outputsOutside = outputsOutside_;
  o.tensorsInOutputs = outputsOutside_;
  if (!scratch_.empty()) o.scratchBytes = &scratch_;
  return o;
}

const BlockLayout* ExecutionMemory::prepare(const ir::Model& model, const CompiledGraph& graph,
                                            const Inputs& inputs, bool outputsOutside,
                                            RunMemoryUse& use) {
  if (!enabled_) {
    use.note = "memory plan turned off";
    return nullptr;
  }
  if (outputsOutside != outputsOutside_) {  // plan again, from the start
    outputsOutside_ = outputsOutside;
    aheadTried_ = false;
    signature_.clear();
    stage_ = Stage::kFresh;
    source_ = PlanSource::kNone;
    plan_.reset();
    layout_.reset();
  }
  if (!aheadTried_) {
    aheadTried_ = true;
    if (sizesKnownAhead(graph)) {
      replan_ = [this, &graph] { return planMemory(graph, nullptr, options()); };
      if (adopt(replan_(), graph, PlanSource::kAhead)) stage_ = Stage::kPlanned;
    }
  }
  if (source_ == PlanSource::kAhead) return this->use(use);

  std::string signature = signatureOf(inputs);
  if (signature != signature_ || stage_ == Stage::kFresh) {
    signature_ = signature;
    replan_ = [this, &graph, shapes = shapesForInputs(model, graph, inputs)] {
      return planMemory(graph, &shapes.bytes, options(), &shapes.dims);
    };
    bool planned = adopt(replan_(), graph, PlanSource::kInputShapes);
    stage_ = planned ? Stage::kPlanned : Stage::kRecording;
  }
  switch (stage_) {
    case Stage::kPlanned:
      return this->use(use);
    case Stage::kRecording:
      use.note = "tensor sizes known only once a run wrote them (" + failure_ +
                 "): this run records them for the next runs with these input shapes";
      return nullptr;
    default:
      use.note = failure_;
      return nullptr;
  }
}

void ExecutionMemory::recorded(const CompiledGraph& graph, const std::vector<uint64_t>& bytes) {
  if (stage_ != Stage::kRecording) return;
  replan_ = [this, &graph, bytes] { return planMemory(graph, &bytes, options()); };
  stage_ = adopt(replan_(), graph, PlanSource::kRunTime) ? Stage::kPlanned : Stage::kFailed;
}

void ExecutionMemory::scratchRecorded(const CompiledGraph& graph,
                                      const std::vector<uint64_t>& scratch) {
  if (!enabled_) return;
  bool grew = false;
  for (size_t s = 0; s < scratch.size(); ++s) {
    if (scratch[s] == 0) continue;
    if (scratch_.size() < scratch.size()) scratch_.resize(scratch.size(), 0);
    if (scratch[s] > scratch_[s]) {
      scratch_[s] = scratch[s];
      grew = true;
    }
  }
  // A plan in use that lacks some of it: planned again with the same sizes
  // (recording sizes: the plan made from them holds it). A plan the checker
  // refuses leaves the one in use.
  if (!grew || stage_ != Stage::kPlanned || !replan_) return;
  Expected<MemoryPlan> plan = replan_();
  if (plan && checkPlan(*plan)) adopt(std::move(plan), graph, source_);
}

}  // namespace passlab::exec::memory
