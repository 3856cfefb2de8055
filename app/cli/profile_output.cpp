#include "app/cli/profile_output.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "app/cli/device_report.h"
#include "app/cli/thread_use_text.h"
#include "core/pipeline/profile_json.h"
#include "core/support/strings.h"

namespace passlab::cli {

namespace {

std::string formatNumber(const char* format, double x) {
  char buf[48];
  std::snprintf(buf, sizeof buf, format, x);
  return buf;
}

std::string clip(std::string s, size_t width) {
  return s.size() > width ? s.substr(0, width - 3) + "..." : s;
}

// "12.345 ms (min 12.1, p90 12.9, spread 6.5%)" with " NOISY" past 10%.
std::string timingText(const pipeline::Timing& t) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%.3f ms (min %.3f, p90 %.3f, spread %.1f%%, %d runs)%s",
                t.medianMs, t.minMs, t.p90Ms, 100 * t.spread, t.samples, t.noisy ? " NOISY" : "");
  return buf;
}

void printHeader(const pipeline::ProfileResult& r, const std::string& model) {
  std::printf("model:    %s\n", model.c_str());
  std::printf("machine:  %s, %d logical cores; device %s, %d threads; timer resolution %.0f ns\n",
              r.machine.cpuModel.c_str(), r.machine.logicalCores, r.device.c_str(), r.threads,
              r.machine.timerResolutionNs);
  if (!r.deviceRun.device.empty()) {  // a device backend: where the last profiled run's steps ran
    std::printf("on:       %s\n", deviceSummaryText(r.deviceRun).c_str());
    for (const std::string& line : fallbackLines(r.deviceRun))
      std::printf("fallback: %s\n", line.c_str());
  }
  const size_t shown = std::min<size_t>(r.inputs.size(), 3);
  for (size_t i = 0; i < shown; ++i) std::printf("input:    %s\n", r.inputs[i].c_str());
  if (r.inputs.size() > shown)
    std::printf("input:    ... and %zu more (all in --json)\n", r.inputs.size() - shown);
}

void printLatency(const pipeline::ProfileResult& r) {
  std::printf("latency:  %s, without per-node timing, after %d warm-up\n",
              timingText(r.latency).c_str(), r.warmup);
  std::printf("profiled: %s, with per-node timing\n", timingText(r.profiledLatency).c_str());
  std::printf(
      "overhead: %.3f ms = latency median - sum of node medians (%.3f ms); %.1f%% of "
      "the latency is not in any node's time\n",
      r.overheadMs, r.nodeSumMs, 100 * r.overheadShare);
  std::printf("          from the minimums: %.3f ms\n", r.overheadMinMs);
  std::printf(
      "          within the profiled runs (medians): nodes %.3f ms, outside any node %.3f ms; "
      "nodes above the sum of node medians by %.3f ms (stalls from other work)\n",
      r.runNodeSums.medianMs, r.outsideNodes.medianMs, r.runNodeSums.medianMs - r.nodeSumMs);
  std::printf("peak arena memory: %s\n", str::humanBytes(r.peakArenaBytes).c_str());
  std::printf("threads:  %s\n", stepThreadsSummaryText(r.stepThreads).c_str());
}

void printNodes(const pipeline::ProfileResult& r, size_t top) {
  std::vector<const pipeline::NodeTiming*> rows;
  for (const auto& n : r.nodes) rows.push_back(&n);
  std::stable_sort(rows.begin(), rows.end(),
                   [](auto* a, auto* b) { return a->time.medianMs > b->time.medianMs; });
  if (top > 0 && rows.size() > top) rows.resize(top);
  std::printf(
      "\nnodes by median time (%zu of %zu; * noisy: spread > 10%%; subgraph nodes indented)\n",
      rows.size(), r.nodes.size());
  std::printf("%-24s %-30s %-20s %9s %9s %9s %7s %6s %9s %8s %3s %s\n", "op", "node", "kernel",
              "median ms", "min", "p90", "spread", "share", "GFLOP/s", "GB/s", "thr",
              "threads chosen by");
  for (const auto* n : rows) {
    std::string label = std::string(static_cast<size_t>(2 * n->depth), ' ') + n->label();
    std::string gflops = n->gflops > 0 ? formatNumber("%.2f", n->gflops) : "-";
    std::printf("%-24s %-30s %-20s %9.4f %9.4f %9.4f %6.1f%%%s %5.1f%% %9s %8.2f %3s %s\n",
                clip(n->op, 24).c_str(), clip(label, 30).c_str(), clip(n->kernel, 20).c_str(),
                n->time.medianMs, n->time.minMs, n->time.p90Ms, 100 * n->time.spread,
                n->time.noisy ? "*" : " ", 100 * n->share, gflops.c_str(), n->gbps,
                threadsText(n->threadUse).c_str(), threadChoiceText(n->threadUse).c_str());
  }
}

void printOpTypes(const pipeline::ProfileResult& r, size_t top) {
  std::printf("\nop types (main graph)\n%-28s %6s %10s %7s %12s\n", "op", "nodes", "ms", "share",
              "GFLOP");
  size_t shown = 0;
  for (const auto& t : r.opTypes) {
    if (top > 0 && shown++ >= top) break;
    std::printf("%-28s %6d %10.4f %6.1f%% %12.4f\n", clip(t.op, 28).c_str(), t.nodes, t.ms,
                100 * t.share, t.flops / 1e9);
  }
}

std::string groupText(const std::vector<std::string>& labels, const std::vector<std::string>& ops) {
  if (labels.empty()) return "-";
  if (labels.size() == 1) return labels[0] + " (" + ops[0] + ")";
  std::map<std::string, int> count;
  for (const auto& op : ops) count[op]++;
  // Ops of a domain (fused kernels) first: they name what the group became.
  std::vector<std::pair<std::string, int>> sorted(count.begin(), count.end());
  std::stable_partition(sorted.begin(), sorted.end(),
                        [](const auto& e) { return e.first.find('.') != std::string::npos; });
  std::string s = std::to_string(labels.size()) + " nodes: ";
  bool first = true;
  for (const auto& [op, k] : sorted) {
    s += (first ? "" : ", ") + (k > 1 ? std::to_string(k) + "x" : "") + op;
    first = false;
  }
  return s;
}

}  // namespace

void printProfileText(const pipeline::ProfileResult& r, const ProfileOutputOptions& o) {
  printHeader(r, o.model);
  printLatency(r);
  printNodes(r, o.top);
  printOpTypes(r, o.top);
}

void printCompareText(const pipeline::CompareResult& r, const ProfileOutputOptions& o) {
  printHeader(r.before, o.model);
  if (!r.after.deviceRun.device.empty()) {  // the header's "on:" is the original's
    std::printf("optimized on: %s\n", deviceSummaryText(r.after.deviceRun).c_str());
    for (const std::string& line : fallbackLines(r.after.deviceRun))
      std::printf("optimized fallback: %s\n", line.c_str());
  }
  std::printf("before:   %s\nafter:    %s\n", timingText(r.latencyBefore).c_str(),
              timingText(r.latencyAfter).c_str());
  std::printf(
      "speedup:  %.3fx (medians of %d interleaved rounds A B A B ...; without per-node "
      "timing)\n",
      r.speedup, r.latencyBefore.samples);
  std::printf(
      "overhead: before %.3f ms (%.1f%%), after %.3f ms (%.1f%%) of latency outside the "
      "node times\n",
      r.before.overheadMs, 100 * r.before.overheadShare, r.after.overheadMs,
      100 * r.after.overheadShare);
  std::printf("matching: by %s\n", r.matching.c_str());
  std::vector<const pipeline::NodeGroup*> rows;
  for (const auto& g : r.groups)
    if (g.kind != pipeline::GroupKind::kUnchanged) rows.push_back(&g);
  size_t unchanged = r.groups.size() - rows.size();
  if (o.top > 0 && rows.size() > o.top) rows.resize(o.top);
  std::printf(
      "\nchanged groups (%zu shown; regressions first, then by time saved; %zu unchanged "
      "nodes not shown; * noisy)\n",
      rows.size(), unchanged);
  std::printf("%-10s %-38s %-40s %9s %9s %8s %9s\n", "kind", "new", "original", "before ms",
              "after ms", "speedup", "saved ms");
  for (const auto* g : rows) {
    std::string speed = g->afterMs > 0 ? formatNumber("%.2fx", g->speedup) : "-";
    std::printf("%-10s %-38s %-40s %9.4f %9.4f %8s %9.4f%s%s\n", pipeline::groupKindName(g->kind),
                clip(groupText(g->newLabels, g->newOps), 38).c_str(),
                clip(groupText(g->originalLabels, g->originalOps), 40).c_str(), g->beforeMs,
                g->afterMs, speed.c_str(), g->savedMs, g->noisy ? "*" : "",
                g->regression ? "  REGRESSION" : "");
  }
}

void printRoofsText(const pipeline::MachineRoofs& roofs) {
  std::printf(
      "roofs:    GEMM %.1f GFLOP/s (%dx%d MatMul), triad bandwidth %.1f GB/s; %d threads; "
      "%s %s\n",
      roofs.gemmGflops, roofs.gemmSize, roofs.gemmSize, roofs.bandwidthGBps, roofs.threads,
      roofs.fromCache ? "cached, measured" : "measured", roofs.measuredAt.c_str());
}

void printNodeBenchmarkText(const pipeline::NodeBenchmark& b) {
  printHeader(b.optimized, b.node + " (" + b.op + "), cut out as a model of its own");
  std::printf("alone:    %s\n", timingText(b.optimized.latency).c_str());
  std::printf("original: %zu nodes (%s), cut out the same way\n", b.originalLabels.size(),
              str::join(b.originalLabels, ", ").c_str());
  std::printf("alone:    %s\n", timingText(b.original.latency).c_str());
  std::printf("speedup:  %.3fx (latency medians, without per-node timing)\n", b.speedup);
  if (b.maxAbsDifference >= 0)
    std::printf("outputs:  max |difference| %.3g (each side fed in context)\n", b.maxAbsDifference);
  else
    std::printf(
        "outputs:  not compared (a boundary value is not in the main graph, or the "
        "outputs differ in count, type or shape)\n");
}

nlohmann::json profileJson(const pipeline::ProfileResult& r) {
  return nlohmann::json::parse(pipeline::profileToJson(r));
}

nlohmann::json compareJson(const pipeline::CompareResult& r) {
  return nlohmann::json::parse(pipeline::compareToJson(r));
}

nlohmann::json roofsJson(const pipeline::MachineRoofs& roofs) {
  return {{"cpu_model", roofs.cpuModel},           {"threads", roofs.threads},
          {"gemm_size", roofs.gemmSize},           {"gemm_gflops", roofs.gemmGflops},
          {"bandwidth_gbps", roofs.bandwidthGBps}, {"measured_at", roofs.measuredAt},
          {"from_cache", roofs.fromCache}};
}

nlohmann::json nodeBenchmarkJson(const pipeline::NodeBenchmark& b) {
  return {{"node", b.node},
          {"op", b.op},
          {"original_nodes", b.originalLabels},
          {"optimized", profileJson(b.optimized)},
          {"original", profileJson(b.original)},
          {"speedup", b.speedup},
          {"max_abs_difference", b.maxAbsDifference}};
}

std::string profileCsv(const pipeline::ProfileResult& r) {
  return pipeline::profileToCsv(r);
}

std::string compareCsv(const pipeline::CompareResult& r) {
  return pipeline::compareToCsv(r);
}

}  // namespace passlab::cli
