#include "app/cli/memory_limit.h"

#include <limits>
#include <string>

#include "core/exec/memory/input_shapes.h"
#include "core/exec/memory/plan_check.h"
#include "core/support/strings.h"

namespace passlab::cli {

Status executorPlanWithin(const exec::Executor& ex, const exec::NamedInputs& inputs,
                          uint64_t limit) {
  namespace mem = exec::memory;
  const exec::CompiledGraph& graph = ex.compiled();
  const mem::PlanOptions options =
      mem::PlanOptions::withDirectOutputs(mem::PlanOptions::forExecution(), limit);
  Expected<mem::MemoryPlan> plan = mem::MemoryPlan();
  if (mem::sizesKnownAhead(graph)) {
    plan = mem::planMemory(graph, nullptr, options);
  } else {
    mem::InputShapes shapes = mem::shapesForInputs(ex.model(), graph, inputs);
    plan = mem::planMemory(graph, &shapes.bytes, options, &shapes.dims);
  }
  // A size inference leaves open (the executor records it on the first run),
  // or no plan (the executor runs on the arena alone): the measured run decides.
  if (!plan) return Status::ok();
  Status within = mem::checkMemoryLimit(*plan, limit);
  if (within) return within;
  return within.error().withContext(
      "the executor's memory plan (in place only where a kernel declares it" +
      std::string(mem::sizesKnownAhead(graph) ? "" : "; sizes inferred from the input shapes") +
      ")");
}

Status measuredPeakWithin(const exec::RunResult& r, uint64_t limit) {
  const uint64_t peak = r.peakArenaBytes;
  if (peak <= limit) return Status::ok();
  std::string msg = "a run with these inputs needs " + str::humanBytes(peak) + " (" +
                    std::to_string(peak) + " bytes) of intermediate memory, above the memory " +
                    "limit of " + str::humanBytes(limit) + " (" + std::to_string(limit) + " bytes)";
  const exec::memory::RunMemoryUse& use = r.memory;
  if (use.source != exec::memory::PlanSource::kNone && use.blockBytes < peak)
    msg += ": the executor's planned block is " + str::humanBytes(use.blockBytes) + ", the other " +
           str::humanBytes(peak - use.blockBytes) +
           " are kernel scratch that did not fit the block's free space at its step, " +
           "subgraph bodies' memory or tensors outside the plan";
  else if (!use.note.empty())
    msg += " (" + use.note + ")";
  msg +=
      "; measured by one untimed run before the runs asked for (not bounded by the limit); "
      "--memory-limit " +
      std::to_string(peak) + " or more runs";
  return limitError(msg);
}

Status runsFitMemoryLimit(const ir::Model& model, const exec::ExecutorOptions& options,
                          const exec::NamedInputs& inputs, const exec::RunOptions& runOptions,
                          uint64_t limit) {
  if (limit == 0) return Status::ok();
  auto ex = exec::Executor::create(model, options);
  if (!ex) return ex.error();
  if (options.memoryPlan) PASSLAB_RETURN_IF_ERROR(executorPlanWithin(**ex, inputs, limit));
  if (options.backend != "cpu") return Status::ok();
  // Any limit copies the outputs into the block: the limit's plan, with no
  // allocation refused, measures what a run under it needs.
  exec::RunOptions o = runOptions;
  o.profile = false;
  o.valueBytes = nullptr;
  o.memoryLimitBytes = std::numeric_limits<uint64_t>::max();
  auto r = (*ex)->run(inputs, o);
  if (!r) return r.error();
  return measuredPeakWithin(*r, limit);
}

}  // namespace passlab::cli
