// `passlab-cli run --memory-report [FILE]`: the run's memory plan as JSON
// (per tensor: name, producer, bytes, first and last step, offset, sharing;
// totals: planned peak, lower bound, ratio, strategy, planned at run time).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "core/exec/memory/execution_memory.h"
#include "core/exec/memory/memory_plan.h"
#include "core/support/error.h"

namespace passlab::cli {

nlohmann::json memoryReportJson(const std::string& model, const exec::memory::MemoryPlan& plan,
                                uint64_t arenaPeakBytes);
// One line for the text output: peak, lower bound, ratio, strategy.
std::string memoryPlanSummary(const exec::memory::MemoryPlan& plan);
// How the executor's last run used memory: on a plan's block (ahead or made
// at run time, block bytes, in-place steps, tensors placed, fallen back to
// the Arena, copied out) or not (and why).
nlohmann::json executorMemoryJson(const exec::memory::RunMemoryUse& use);
std::string executorMemorySummary(const exec::memory::RunMemoryUse& use);
// Writes `report` to `path` ("-": standard output).
Status writeMemoryReport(const std::string& path, const nlohmann::json& report);

}  // namespace passlab::cli
