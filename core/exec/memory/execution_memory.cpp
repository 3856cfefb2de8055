#include "core/exec/memory/execution_memory.h"

#include "core/exec/memory/input_shapes.h"
#include "core/exec/memory/input_sizes.h"
#include "core/exec/memory/plan_check.h"

namespace passlab::exec::memory {

namespace {

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
  return layout_.get();
}

PlanOptions ExecutionMemory::options() const {
  PlanOptions o = PlanOptions::forExecution();
  o.outputsOutside = outputsOutside_;
  o.tensorsInOutputs = outputsOutside_;
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
    if (sizesKnownAhead(graph) &&
        adopt(planMemory(graph, nullptr, options()), graph, PlanSource::kAhead))
      stage_ = Stage::kPlanned;
  }
  if (source_ == PlanSource::kAhead) return this->use(use);

  std::string signature = signatureOf(inputs);
  if (signature != signature_ || stage_ == Stage::kFresh) {
    signature_ = signature;
    InputShapes shapes = shapesForInputs(model, graph, inputs);
    bool planned = adopt(planMemory(graph, &shapes.bytes, options(), &shapes.dims), graph,
                         PlanSource::kInputShapes);
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
  stage_ = adopt(planMemory(graph, &bytes, options()), graph, PlanSource::kRunTime)
               ? Stage::kPlanned
               : Stage::kFailed;
}

}  // namespace passlab::exec::memory
