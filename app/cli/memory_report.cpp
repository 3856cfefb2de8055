#include "app/cli/memory_report.h"

#include <cstdio>
#include <fstream>
#include <iostream>

#include "core/support/strings.h"

namespace passlab::cli {

namespace {

const char* reuseName(exec::memory::Reuse r) {
  switch (r) {
    case exec::memory::Reuse::kView:
      return "view";
    case exec::memory::Reuse::kInPlace:
      return "in-place";
    case exec::memory::Reuse::kConcatPart:
      return "concat-part";
    default:
      return "none";
  }
}

nlohmann::json tensorJson(const exec::memory::MemoryPlan& plan,
                          const exec::memory::PlannedTensor& t) {
  nlohmann::json j = {
      {"name", t.name},     {"producer", t.producer},      {"bytes", t.bytes},
      {"size", t.size},     {"first_step", t.first},       {"last_step", t.last},
      {"offset", t.offset}, {"reuse", reuseName(t.reuse)}, {"graph_output", t.graphOutput}};
  if (t.sharesWith >= 0) j["shares_with"] = plan.tensors[static_cast<size_t>(t.sharesWith)].name;
  // Inside a graph output's buffer (offset from its start), not the block.
  if (t.region >= 0) j["in_output"] = plan.outside[static_cast<size_t>(t.region)].name;
  // A step's kernel scratch (live at that step only; `producer` is the node).
  if (t.scratch) j["scratch"] = true;
  return j;
}

}  // namespace

nlohmann::json memoryReportJson(const std::string& model, const exec::memory::MemoryPlan& plan,
                                uint64_t arenaPeakBytes) {
  nlohmann::json totals = {{"planned_peak_bytes", plan.peak},
                           {"lower_bound_bytes", plan.lowerBound},
                           {"ratio", plan.ratio()},
                           {"strategy", plan.strategy},
                           {"planned_at_run_time", plan.plannedAtRunTime},
                           {"peak_step", plan.peakStep},
                           {"peak_node", plan.peakNode},
                           {"steps", plan.stepCount},
                           {"tensors", plan.tensors.size()},
                           {"in_place", plan.inPlaceCount},
                           {"views", plan.viewCount},
                           {"unplanned_subgraph_nodes", plan.unplannedBodies},
                           {"executor_arena_peak_bytes", arenaPeakBytes}};
  if (plan.peakTensor >= 0)
    totals["peak_tensor"] = plan.tensors[static_cast<size_t>(plan.peakTensor)].name;
  for (const auto& [name, peak] : plan.strategyPeaks) totals["strategy_peaks_bytes"][name] = peak;
  // Graph outputs written outside the block (where the caller gets them):
  // the block's peak and bound above leave them out; these count them.
  totals["graph_outputs_outside_block"] = plan.outside.size();
  totals["graph_outputs_outside_bytes"] = plan.outsideBytes;
  totals["peak_with_outputs_bytes"] = plan.peakWithOutside();
  totals["lower_bound_with_outputs_bytes"] = plan.lowerBoundWithOutside;
  totals["block_bound_beside_outputs_bytes"] = plan.blockBoundBesideOutputs;
  totals["ratio_with_outputs"] = plan.ratioWithOutside();
  // Block tensors placed inside those outputs' buffers before the outputs'
  // steps: their count, their buffers' bytes, and the block's peak without.
  totals["tensors_in_outputs"] = plan.inOutputsCount;
  totals["tensors_in_outputs_bytes"] = plan.inOutputsBytes;
  totals["planned_peak_without_in_outputs_bytes"] = plan.peakWithoutRegions;
  // Kernel scratch a run measured, planned with the tensors (one buffer per
  // step that asked for any): planned_peak_bytes, lower_bound_bytes and ratio
  // above count it; these leave it out (the peak: the same tensors planned
  // without it; 0 where not planned).
  totals["scratch_steps"] = plan.scratchCount;
  totals["scratch_bytes"] = plan.scratchBytes;
  totals["planned_peak_without_scratch_bytes"] = plan.peakWithoutScratch;
  totals["lower_bound_without_scratch_bytes"] = plan.lowerBoundWithoutScratch;
  totals["ratio_without_scratch"] =
      plan.lowerBoundWithoutScratch == 0 || plan.peakWithoutScratch == 0
          ? 1.0
          : static_cast<double>(plan.peakWithoutScratch) /
                static_cast<double>(plan.lowerBoundWithoutScratch);
  nlohmann::json j = {{"model", model}, {"totals", totals}, {"live_bytes", plan.liveBytes}};
  // Per node: the kernel scratch its step asked for (bytes, each request
  // rounded up to 64) and where the plan put it.
  j["scratch"] = nlohmann::json::array();
  for (const auto& t : plan.tensors)
    if (t.scratch)
      j["scratch"].push_back(
          {{"step", t.first}, {"node", t.producer}, {"bytes", t.bytes}, {"offset", t.offset}});
  if (!plan.liveBytesInOutputs.empty()) j["live_bytes_in_outputs"] = plan.liveBytesInOutputs;
  j["tensors"] = nlohmann::json::array();
  for (const auto& t : plan.tensors) j["tensors"].push_back(tensorJson(plan, t));
  j["outputs_outside_block"] = nlohmann::json::array();
  for (const auto& t : plan.outside)
    j["outputs_outside_block"].push_back({{"name", t.name},
                                          {"producer", t.producer},
                                          {"bytes", t.bytes},
                                          {"size", t.size},
                                          {"first_step", t.first}});
  return j;
}

namespace {
// The kernel scratch in the plan: its steps and bytes, the largest, and the
// peak and bound without it; "" when none.
std::string scratchSummary(const exec::memory::MemoryPlan& plan) {
  if (plan.scratchCount == 0) return "";
  const exec::memory::PlannedTensor* largest = nullptr;
  for (const auto& t : plan.tensors)
    if (t.scratch && (largest == nullptr || t.bytes > largest->bytes)) largest = &t;
  std::string s = "; kernel scratch of " + std::to_string(plan.scratchCount) + " steps (" +
                  str::humanBytes(plan.scratchBytes) + ", the largest " +
                  str::humanBytes(largest->bytes) + " at step " + std::to_string(largest->first) +
                  ", " + largest->producer + ") planned with the tensors, measured by a run";
  if (plan.peakWithoutScratch > 0)
    s += ": without it planned peak " + str::humanBytes(plan.peakWithoutScratch) +
         ", lower bound " + str::humanBytes(plan.lowerBoundWithoutScratch);
  return s;
}
}  // namespace

std::string memoryPlanSummary(const exec::memory::MemoryPlan& plan) {
  char ratio[32];
  std::snprintf(ratio, sizeof ratio, "%.3f", plan.ratio());
  std::string s = "planned peak " + str::humanBytes(plan.peak) + ", lower bound " +
                  str::humanBytes(plan.lowerBound) + " (ratio " + ratio + ", " + plan.strategy +
                  (plan.plannedAtRunTime ? ", planned at run time" : ", planned ahead") + ")";
  if (plan.outside.empty()) return s + scratchSummary(plan);
  char withOutputs[32];
  std::snprintf(withOutputs, sizeof withOutputs, "%.3f", plan.ratioWithOutside());
  s += "; " + std::to_string(plan.outside.size()) + " graph outputs (" +
       str::humanBytes(plan.outsideBytes) + ") outside the block: with them " +
       str::humanBytes(plan.peakWithOutside()) + ", lower bound " +
       str::humanBytes(plan.lowerBoundWithOutside) + " (ratio " + withOutputs + ")";
  if (plan.inOutputsCount > 0)
    s += "; " + std::to_string(plan.inOutputsCount) + " tensors (" +
         str::humanBytes(plan.inOutputsBytes) + ") placed in the outputs' buffers before " +
         "their steps (block " + str::humanBytes(plan.peakWithoutRegions) + " without)";
  return s + scratchSummary(plan);
}

namespace {
const char* sourceName(exec::memory::PlanSource s) {
  switch (s) {
    case exec::memory::PlanSource::kAhead:
      return "ahead";
    case exec::memory::PlanSource::kInputShapes:
      return "input shapes";
    case exec::memory::PlanSource::kRunTime:
      return "run time";
    case exec::memory::PlanSource::kNone:
      break;
  }
  return "none";
}
const char* planSourceText(exec::memory::PlanSource s) {
  switch (s) {
    case exec::memory::PlanSource::kAhead:
      return "ahead";
    case exec::memory::PlanSource::kInputShapes:
      return "at run time from the input shapes";
    case exec::memory::PlanSource::kRunTime:
      return "at run time from a run's sizes";
    case exec::memory::PlanSource::kNone:
      break;
  }
  return "not";
}
}  // namespace

nlohmann::json executorMemoryJson(const exec::memory::RunMemoryUse& use) {
  nlohmann::json j;
  j["on_plan"] = use.source != exec::memory::PlanSource::kNone;
  j["sizes"] = sourceName(use.source);
  if (!use.note.empty()) j["note"] = use.note;
  j["block_bytes"] = use.blockBytes;
  j["in_place_steps"] = use.inPlace;
  j["placed"] = use.counts.placed;
  j["fell_back"] = use.counts.fellBack;
  j["copied_out"] = use.counts.copiedOut;
  j["scratch_in_block"] = use.counts.scratchInBlock;
  j["scratch_planned"] = use.counts.scratchPlanned;
  j["scratch_outside"] = use.counts.scratchOutside;
  j["scratch_outside_bytes"] = use.counts.scratchOutsideBytes;
  j["planned_scratch_bytes"] = use.plannedScratchBytes;
  uint64_t asked = 0;
  for (uint64_t b : use.scratchBytes) asked += b;
  j["scratch_asked_bytes"] = asked;
  j["kept_bytes"] = use.keptBytes;
  j["kept_freed_bytes"] = use.keptFreedBytes;
  j["outputs_handed_over"] = use.outputsHandedOver;
  const exec::memory::BodyRunCounts& b = use.bodies;
  j["bodies"] = {{"on_plan", b.onPlan},
                 {"in_arena", b.inArena},
                 {"blocks", b.blocks},
                 {"placed", b.counts.placed},
                 {"fell_back", b.counts.fellBack},
                 {"copied_out", b.counts.copiedOut},
                 {"scratch_in_block", b.counts.scratchInBlock}};
  return j;
}

namespace {
// What the run's subgraph bodies did with their plans, or "" when none ran.
std::string bodiesSummary(const exec::memory::BodyRunCounts& b) {
  if (b.onPlan + b.inArena == 0) return "";
  return "; subgraph bodies: " + std::to_string(b.onPlan) + " runs on their plans (" +
         std::to_string(b.blocks) + " blocks taken, " + std::to_string(b.counts.placed) +
         " tensors placed, " + std::to_string(b.counts.fellBack) + " fell back, " +
         std::to_string(b.counts.scratchInBlock) + " scratch buffers in a block), " +
         std::to_string(b.inArena) + " on the arena";
}
}  // namespace

std::string executorMemorySummary(const exec::memory::RunMemoryUse& use) {
  std::string tail;
  if (use.keptBytes + use.keptFreedBytes > 0)
    tail = "; constant-only outputs kept: " + str::humanBytes(use.keptBytes) + " held; " +
           str::humanBytes(use.keptFreedBytes) +
           " of them and of initializers freed (their readers hold them packed)";
  tail += bodiesSummary(use.bodies);
  if (use.outputsHandedOver > 0)
    tail += "; " + std::to_string(use.outputsHandedOver) +
            " graph outputs handed over in the buffer their step wrote (no copy)";
  if (use.source == exec::memory::PlanSource::kNone)
    return "not on a memory plan (" + use.note + ")" + tail;
  return "one block of " + str::humanBytes(use.blockBytes) + " per run, planned " +
         planSourceText(use.source) + "; " + std::to_string(use.counts.placed) +
         " tensors placed, " + std::to_string(use.inPlace) + " steps in place, " +
         std::to_string(use.counts.fellBack) + " fell back to the arena, " +
         std::to_string(use.counts.copiedOut) + " copied out, " +
         std::to_string(use.counts.scratchInBlock) + " scratch buffers in the block" +
         (use.counts.scratchPlanned > 0 || use.plannedScratchBytes > 0
              ? " (" + std::to_string(use.counts.scratchPlanned) +
                    " more at their planned place, " + str::humanBytes(use.plannedScratchBytes) +
                    " planned)"
              : std::string()) +
         (use.counts.scratchOutside > 0
              ? ", " + std::to_string(use.counts.scratchOutside) + " outside it (" +
                    str::humanBytes(use.counts.scratchOutsideBytes) + ")"
              : std::string()) +
         tail;
}

Status writeMemoryReport(const std::string& path, const nlohmann::json& report) {
  if (path == "-") {
    std::cout << report.dump(2) << "\n";
    return Status::ok();
  }
  std::ofstream out(path);
  out << report.dump(2) << "\n";
  if (!out) return ioError("cannot write the memory report '" + path + "'");
  return Status::ok();
}

}  // namespace passlab::cli
