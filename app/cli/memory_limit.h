// --memory-limit as a promise (docs/memory.md "The memory limit"), for `run`
// and `profile`: a limit the command accepts, every run fits; a limit it
// refuses is refused before the runs asked for, with the bytes a run needs,
// never by a node failing partway.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/exec/executor.h"

namespace passlab::cli {

// The plan the executor's runs under `limit` take their block from (in place
// only where a kernel declares it, graph outputs in the block): sizes from the
// value types, or, when they are known only at run time, inferred for
// `inputs`' shapes as the executor does before its first run with them
// (input_shapes.h). Its peak against the limit, before any run; nothing is
// checked where inference leaves a size open or the executor does not plan
// (the measured run then decides, measuredPeakWithin).
// With `scratch` (per step, RunMemoryUse::scratchBytes of a run), the plan
// holds each step's kernel scratch as the executor's plans after that run do:
// the error then names the step and, where it is the largest live there, the
// kernel scratch.
Status executorPlanWithin(const exec::Executor& ex, const exec::NamedInputs& inputs, uint64_t limit,
                          const std::vector<uint64_t>* scratch = nullptr);

// What the measured run `r` (run with the limit's plan, not refused) needed:
// the arena's peak, which counts the block, kernel scratch that did not fit
// the block's gaps at its step, subgraph bodies' blocks and tensors outside the
// plan. The runs after it, with the same inputs, need the same.
Status measuredPeakWithin(const exec::RunResult& r, uint64_t limit);

// The same, `how` saying which run measured it ("one untimed run").
Status measuredPeakWithin(const exec::RunResult& r, uint64_t limit, const std::string& how);

// The measuring runs on `ex` (`o`: the runs' options; run with the limit's
// plan, no allocation refused): one run; where its kernels asked for scratch
// and `memoryPlan` (the executor runs on plans), the executor's plan with
// that scratch (the plan its next runs take their block from) against
// `limit` before running again (naming the step where most bytes are live),
// then one more run on it, whose need is checked. `firstRunToo`: the first
// run's need is checked as well (the runs that follow are of a fresh
// executor, whose first run has no scratch planned). `valueBytes`, when set,
// is given to the first run (sizes known only at run time).
Status measureRunsWithin(exec::Executor& ex, const exec::NamedInputs& inputs, exec::RunOptions o,
                         uint64_t limit, bool memoryPlan, bool firstRunToo,
                         std::vector<uint64_t>* valueBytes = nullptr);

// Both checks on an executor of its own for `model` (`options`, the options
// the runs use): its plan for `inputs` against `limit`, then, on the CPU, one
// run with the limit's plan and no allocation refused, its need against the
// limit. For a command whose runs make their own executor (`profile`): called
// before them, it refuses what they would fail partway. Ok when `limit` is 0.
Status runsFitMemoryLimit(const ir::Model& model, const exec::ExecutorOptions& options,
                          const exec::NamedInputs& inputs, const exec::RunOptions& runOptions,
                          uint64_t limit);

}  // namespace passlab::cli
