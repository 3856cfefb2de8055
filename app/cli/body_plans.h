// `run --memory-report`: the plan each If / Loop / Scan body ran on, next to
// the main graph's (the report's "bodies"). Each body runs on a block of its
// own laid out by the same planner (core/exec/memory/body_plans.h: planned
// once per shape signature, ahead or from the sizes its first activation
// wrote; its formal inputs, the outer values it reads and its outputs are not
// in it), checked by exec::memory::checkPlan. Bodies are compiled when their
// node first runs, so the report lists those compiled by the runs so far; a
// body that ran on no plan says why (and, where its sizes are known ahead,
// gives the plan it would run on).
#pragma once

#include <nlohmann/json.hpp>

#include "core/exec/compiled_graph.h"
#include "core/exec/memory/body_plans.h"

namespace passlab::cli {

// Per compiled body of `main`, nested ones included, in the order compiled:
// {"graph", "depth", "ran_on_plan", "sizes", "signatures",
// "planned_peak_bytes", "lower_bound_bytes", "ratio", "tensors", "steps",
// "in_place_steps"} (and "note" when it did not run on the plan), or
// {"graph", "depth", "ran_on_plan": false, "not_planned": why}.
nlohmann::json bodyPlansJson(const exec::CompiledGraph& main, const exec::memory::BodyPlans& plans);

}  // namespace passlab::cli
