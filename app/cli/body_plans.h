// `run --memory-report`: a plan per If / Loop / Scan body, next to the main
// graph's (the report's "bodies"). The executor does not run bodies on a plan
// (each iteration allocates from the arena, docs/memory.md); this says what
// one execution of each body would need if it did: the same planner
// (exec::memory::planMemory) on the body's compiled graph, its formal inputs
// and the outer values it reads not counted (they live outside it), its
// outputs live to its end, checked by exec::memory::checkPlan. Bodies are
// compiled when their node first runs, so the report lists those compiled by
// the runs so far; a body whose sizes are not all known ahead (a Loop's
// growing state) says so instead of a plan.
#pragma once

#include <nlohmann/json.hpp>

#include "core/exec/compiled_graph.h"

namespace passlab::cli {

// Per compiled body of `main`, nested ones included, in the order compiled:
// {"graph", "depth", "planned_peak_bytes", "lower_bound_bytes", "ratio",
// "tensors", "steps"} or {"graph", "depth", "not_planned": why}.
nlohmann::json bodyPlansJson(const exec::CompiledGraph& main);

}  // namespace passlab::cli
