// Per-node times over profiled runs (exec::RunResult::profile of each run):
// one row per node that ran, in the order nodes first ran, its time per run
// (calls summed, for nodes in Loop bodies) summarized as median, min and p90
// (timing_stats.h). The one reduction that `passlab-cli profile`,
// `passlab-cli run --profile` and the GUI's Profile dock share: a row's
// figure is the median of the node's per-run times, and a profile's total is
// the sum of the main-graph rows' medians. Never a mean: one run that another
// process preempts for a few milliseconds would add its stall to every row it
// touched, and on a model of 0.2 ms the rows then summed to twice the median
// run (session 25).
//
// Each run's main-graph node time (the sum of its nodes' times) and its time
// outside them (its whole time minus that: binding inputs, the executor's
// work between nodes, freeing) are kept per run, so what the rows do not
// cover is measured within the same runs, not inferred from medians of
// different runs. On a quiet machine the median of the runs' node sums and
// the sum of the node medians agree; on a busy one the runs' sums are larger
// by the stalls that other work scattered over different nodes in different
// runs, which each node's median leaves out.
//
//   NodeTimes times;
//   for (...) times.addRun(result->profile, result->totalMicros / 1000);  // after the warm-up
//   std::vector<NodeTimes::Row> rows = times.rows();
//   double total = mainGraphMedianSumMs(rows);
//   Timing nodes = times.runNodeSums(), outside = times.outsideNodes();
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "core/exec/profiler.h"
#include "core/pipeline/timing_stats.h"

namespace passlab::pipeline {

class NodeTimes {
 public:
  struct Row {
    // Identity (op, name, kernel, depth) and bytes of its first run; the
    // threads it ran on (threadUse) in the last.
    exec::NodeProfile node;
    Timing time;  // of its per-run times; samples: the runs it ran in
    int64_t callsPerRun = 0;
  };

  // One profiled run's entries (one per node, calls summed: Profiler::take)
  // and its whole time.
  void addRun(const std::vector<exec::NodeProfile>& run, double runMs);
  int runs() const { return static_cast<int>(nodeSumMs_.size()); }
  // One row per node, in the order nodes first ran.
  std::vector<Row> rows() const;
  // Per run: the sum of its main-graph nodes' times.
  Timing runNodeSums() const { return summarizeTimes(nodeSumMs_); }
  // Per run: its whole time minus the sum of its main-graph nodes' times.
  Timing outsideNodes() const { return summarizeTimes(outsideMs_); }

 private:
  struct Series {
    exec::NodeProfile first;
    std::vector<double> ms;
    int64_t calls = 0;
  };
  std::vector<Series> series_;
  std::unordered_map<ir::NodeId, size_t> index_;
  std::vector<double> nodeSumMs_, outsideMs_;
};

// Sum of the main-graph (depth 0) rows' medians: the profile's total, which
// the shares divide. Subgraph rows are left out: their time is also inside
// their parent's.
double mainGraphMedianSumMs(const std::vector<NodeTimes::Row>& rows);

}  // namespace passlab::pipeline
