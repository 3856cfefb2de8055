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
  totals["ratio_with_outputs"] = plan.ratioWithOutside();
  // Block tensors placed inside those outputs' buffers before the outputs'
  // steps: their count, their buffers' bytes, and the block's peak without.
  totals["tensors_in_outputs"] = plan.inOutputsCount;
  totals["tensors_in_outputs_bytes"] = plan.inOutputsBytes;
  totals["planned_peak_without_in_outputs_bytes"] = plan.peakWithoutRegions;
  nlohmann::json j = {{"model", model}, {"totals", totals}, {"live_bytes", plan.liveBytes}};
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

std::string memoryPlanSummary(const exec::memory::MemoryPlan& plan) {
  char ratio[32];
  std::snprintf(ratio, sizeof ratio, "%.3f", plan.ratio());
  std::string s = "planned peak " + str::humanBytes(plan.peak) + ", lower bound " +
                  str::humanBytes(plan.lowerBound) + " (ratio " + ratio + ", " + plan.strategy +
                  (plan.plannedAtRunTime ? ", planned at run time" : ", planned ahead") + ")";
  if (plan.outside.empty()) return s;
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
  return s;
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
         std::to_string(use.counts.scratchInBlock) + " scratch buffers in the block" + tail;
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
