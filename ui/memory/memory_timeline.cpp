#include "ui/memory/memory_timeline.h"

#include <algorithm>
#include <unordered_map>

#include "core/analysis/shape_inference.h"
#include "core/exec/executor.h"
#include "core/exec/memory/plan_check.h"
#include "core/pipeline/input_synthesis.h"

namespace passlab::ui {

namespace {

bool cancelled(const std::atomic<bool>* cancel) {
  return cancel != nullptr && cancel->load();
}

MemoryTimeline cancelledTimeline() {
  MemoryTimeline t;
  t.state = MemoryTimeline::State::kCancelled;
  return t;
}

MemoryTimeline failedTimeline(Text error) {
  MemoryTimeline t;
  t.state = MemoryTimeline::State::kFailed;
  t.error = std::move(error);
  return t;
}

std::string nodeLabel(const ir::Node& n) {
  return n.name().empty() ? n.describe() : n.name();
}

std::vector<MemoryStep> stepsOf(const exec::CompiledGraph& g) {
  std::vector<MemoryStep> steps;
  steps.reserve(g.steps.size());
  for (const exec::Step& s : g.steps)
    steps.push_back({s.node->id(), nodeLabel(*s.node), s.node->opType()});
  return steps;
}

// Per main-graph slot, the nodes of the steps that read it directly.
std::unordered_map<int32_t, std::vector<ir::NodeId>> readersBySlot(const exec::CompiledGraph& g) {
  std::unordered_map<int32_t, std::vector<ir::NodeId>> readers;
  for (const exec::Step& s : g.steps)
    for (const exec::SlotRef& in : s.inputs) {
      if (!in.present() || in.depth != 0) continue;
      std::vector<ir::NodeId>& list = readers[in.index];
      if (std::find(list.begin(), list.end(), s.node->id()) == list.end())
        list.push_back(s.node->id());
    }
  return readers;
}

std::vector<MemoryBand> bandsOf(const exec::CompiledGraph& g,
                                const exec::memory::MemoryPlan& plan) {
  auto readers = readersBySlot(g);
  std::vector<MemoryBand> bands;
  bands.reserve(plan.tensors.size() + plan.outside.size());
  auto add = [&](const exec::memory::PlannedTensor& t, int tensor, int outside) {
    MemoryBand b;
    b.tensor = tensor;
    b.outside = outside;
    b.producer = g.steps[static_cast<size_t>(t.first)].node->id();
    if (t.scratch) {
      // A step's scratch: no slot, no readers.
    } else if (auto it = readers.find(t.slot); it != readers.end()) {
      b.readers = it->second;
    }
    bands.push_back(std::move(b));
  };
  for (size_t i = 0; i < plan.tensors.size(); ++i) add(plan.tensors[i], static_cast<int>(i), -1);
  for (size_t k = 0; k < plan.outside.size(); ++k) add(plan.outside[k], -1, static_cast<int>(k));
  return bands;
}

// Per main-graph slot, the bytes one run on synthesized inputs wrote there;
// `described` gets each input's description, `scratch` the kernel scratch
// each step of the run asked for.
Expected<std::vector<uint64_t>> observedValueBytes(const ir::Model& model, exec::Executor& ex,
                                                   const std::atomic<bool>* cancel,
                                                   std::vector<Text>& described,
                                                   std::vector<uint64_t>& scratch) {
  const pipeline::InputSpec spec;
  auto plan = pipeline::planInputs(model, spec);
  if (!plan) return plan.error();
  for (const pipeline::InputPlan& input : *plan) described.push_back(input.describe());
  auto inputs = pipeline::fillInputs(*plan, model, spec);
  if (!inputs) return inputs.error();
  std::vector<uint64_t> observed;
  exec::RunOptions options;
  options.cancel = cancel;
  options.valueBytes = &observed;
  auto run = ex.run(*inputs, options);
  if (!run) return run.error();
  scratch = std::move(run->memory.scratchBytes);
  return observed;
}

}  // namespace

exec::memory::PlanOptions memoryPlanOptions(const std::vector<uint64_t>* scratch) {
  // As app/cli/cmd_run.cpp's checkedPlan plans for `run --memory-report`
  // without --memory-limit.
  exec::memory::PlanOptions options = exec::memory::PlanOptions::withDirectOutputs({});
  options.scratchBytes = scratch;
  return options;
}

MemoryTimeline memoryTimelineOf(const ir::Model& model, const std::atomic<bool>* cancel) {
  ir::Model typed = model.clone();
  analysis::inferShapes(typed);  // the plan sizes tensors from their types
  if (cancelled(cancel)) return cancelledTimeline();
  auto ex = exec::Executor::create(typed);
  if (!ex) return failedTimeline(ex.error().text());
  if (cancelled(cancel)) return cancelledTimeline();
  const exec::CompiledGraph& graph = (*ex)->compiled();

  MemoryTimeline t;
  t.steps = stepsOf(graph);
  std::vector<uint64_t> observed, scratch;
  if (exec::memory::SizeUnknownAhead unknown = exec::memory::firstSizeUnknownAhead(graph);
      unknown.value != nullptr) {
    t.unknownTensor = unknown.value->name();
    t.unknownProducer = nodeLabel(*unknown.producer);
    auto run = observedValueBytes(typed, **ex, cancel, t.runInputs, scratch);
    if (cancelled(cancel)) return cancelledTimeline();
    if (!run) {
      t.state = MemoryTimeline::State::kSizesUnknown;
      t.error = run.error().text();
      return t;
    }
    observed = std::move(run).value();
    t.plannedFromRun = true;
  } else {
    // Sizes known ahead: one run all the same, for the kernel scratch its
    // steps ask for, as the report plans its last run's. A run that fails
    // leaves the plan without scratch and says why.
    auto run = observedValueBytes(typed, **ex, cancel, t.runInputs, scratch);
    if (cancelled(cancel)) return cancelledTimeline();
    if (!run) {
      t.scratchRunError = run.error().text();
      scratch.clear();
    }
  }
  // The run's kernel scratch is planned with the tensors where a step asked
  // for any, as the report plans it from its last run.
  const bool withScratch =
      std::any_of(scratch.begin(), scratch.end(), [](uint64_t b) { return b > 0; });
  auto plan = exec::memory::planMemory(graph, t.plannedFromRun ? &observed : nullptr,
                                       memoryPlanOptions(withScratch ? &scratch : nullptr));
  if (!plan) return failedTimeline(plan.error().text());
  if (Status st = exec::memory::checkPlan(*plan); !st) return failedTimeline(st.error().text());
  if (cancelled(cancel)) return cancelledTimeline();
  t.state = MemoryTimeline::State::kPlanned;
  t.bands = bandsOf(graph, *plan);
  t.plan = std::move(plan).value();
  return t;
}

}  // namespace passlab::ui
