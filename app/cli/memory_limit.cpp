#include "app/cli/memory_limit.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <string>

#include "core/exec/memory/input_shapes.h"
#include "core/exec/memory/plan_check.h"
#include "core/support/strings.h"

namespace passlab::cli {

namespace {

namespace mem = exec::memory;

// The plan the executor's runs under `limit` take their block from, with
// `scratch` (per step) where given; none where inference leaves a size open
// or no plan is made (the measured run then decides).
std::optional<mem::MemoryPlan> executorPlan(const exec::Executor& ex,
                                            const exec::NamedInputs& inputs, uint64_t limit,
                                            const std::vector<uint64_t>* scratch) {
  const exec::CompiledGraph& graph = ex.compiled();
  mem::PlanOptions options =
      mem::PlanOptions::withDirectOutputs(mem::PlanOptions::forExecution(), limit);
  options.scratchBytes = scratch;
  Expected<mem::MemoryPlan> plan = mem::MemoryPlan();
  if (mem::sizesKnownAhead(graph)) {
    plan = mem::planMemory(graph, nullptr, options);
  } else {
    mem::InputShapes shapes = mem::shapesForInputs(ex.model(), graph, inputs);
    plan = mem::planMemory(graph, &shapes.bytes, options, &shapes.dims);
  }
  if (!plan) return std::nullopt;
  return std::move(plan).value();
}

std::string limitText(uint64_t limit) {
  return str::humanBytes(limit) + " (" + std::to_string(limit) + " bytes)";
}

}  // namespace

Status executorPlanWithin(const exec::Executor& ex, const exec::NamedInputs& inputs, uint64_t limit,
                          const std::vector<uint64_t>* scratch) {
  std::optional<mem::MemoryPlan> plan = executorPlan(ex, inputs, limit, scratch);
  if (!plan) return Status::ok();
  Status within = mem::checkMemoryLimit(*plan, limit);
  if (within) return within;
  return within.error().withContext(
      "the executor's memory plan (in place only where a kernel declares it" +
      std::string(mem::sizesKnownAhead(ex.compiled()) ? ""
                                                      : "; sizes inferred from the input shapes") +
      (plan->scratchCount > 0 ? "; with the kernel scratch a run measured" : "") + ")");
}

Status measuredPeakWithin(const exec::RunResult& r, uint64_t limit) {
  return measuredPeakWithin(r, limit, "one untimed run");
}

Status measuredPeakWithin(const exec::RunResult& r, uint64_t limit, const std::string& how) {
  const uint64_t peak = r.peakArenaBytes;
  if (peak <= limit) return Status::ok();
  std::string msg = "a run with these inputs needs " + limitText(peak) +
                    " of intermediate memory, above the memory limit of " + limitText(limit);
  const mem::RunMemoryUse& use = r.memory;
  if (use.source != mem::PlanSource::kNone && use.blockBytes < peak)
    msg += ": the executor's planned block is " + str::humanBytes(use.blockBytes) +
           (use.plannedScratchBytes > 0
                ? " (" + str::humanBytes(use.plannedScratchBytes) + " of it kernel scratch)"
                : std::string()) +
           ", the other " + str::humanBytes(peak - use.blockBytes) +
           " are kernel scratch that did not fit the block's free space at its step, " +
           "subgraph bodies' memory or tensors outside the plan";
  else if (!use.note.empty())
    msg += " (" + use.note + ")";
  msg += "; measured by " + how +
         " before the runs asked for (not bounded by the limit); --memory-limit " +
         std::to_string(peak) + " or more runs";
  return limitError(msg);
}

Status measureRunsWithin(exec::Executor& ex, const exec::NamedInputs& inputs, exec::RunOptions o,
                         uint64_t limit, bool memoryPlan, bool firstRunToo,
                         std::vector<uint64_t>* valueBytes) {
  o.profile = false;
  o.memoryLimitBytes = std::numeric_limits<uint64_t>::max();
  o.valueBytes = valueBytes;
  auto r = ex.run(inputs, o);
  if (!r) return r.error();
  const std::vector<uint64_t>& scratch = r->memory.scratchBytes;
  const bool anyScratch =
      std::any_of(scratch.begin(), scratch.end(), [](uint64_t b) { return b > 0; });
  if (!anyScratch || !memoryPlan) return measuredPeakWithin(*r, limit);
  // A fresh executor's first run has no scratch planned yet: it needs what
  // this one did.
  if (firstRunToo) PASSLAB_RETURN_IF_ERROR(measuredPeakWithin(*r, limit));
  // The next runs' block holds the scratch: their plan against the limit
  // before running on it, naming the step where most bytes are live.
  if (std::optional<mem::MemoryPlan> plan = executorPlan(ex, inputs, limit, &scratch)) {
    const uint64_t need = plan->peakWithOutside();
    if (need > limit) {
      std::string msg =
          "a run with these inputs needs " + limitText(need) +
          " of intermediate memory, above the memory limit of " + limitText(limit) +
          ": the executor's memory plan with the kernel scratch of " +
          std::to_string(plan->scratchCount) + " steps (" + str::humanBytes(plan->scratchBytes) +
          ") measured by one untimed run before the runs asked for (not " + "bounded by the limit)";
      Status st = mem::checkMemoryLimit(*plan, limit);
      const std::string detail = st ? std::string() : st.error().message();
      const size_t at = detail.find("; at step ");
      if (at != std::string::npos) msg += detail.substr(at);
      msg += "; --memory-limit " + std::to_string(need) + " or more runs";
      return limitError(msg);
    }
  }
  o.valueBytes = nullptr;
  auto again = ex.run(inputs, o);
  if (!again) return again.error();
  return measuredPeakWithin(*again, limit,
                            "two untimed runs (the second on the plan with the first's "
                            "kernel scratch)");
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
  // allocation refused, measures what a run under it needs; the runs that
  // follow make executors of their own, whose first run has no scratch
  // planned yet.
  return measureRunsWithin(**ex, inputs, runOptions, limit, options.memoryPlan,
                           /*firstRunToo=*/true);
}

}  // namespace passlab::cli
