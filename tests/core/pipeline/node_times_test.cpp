// The per-node reduction that every profile shares (node_times.h): one row
// per node in the order nodes first ran, its median over the runs (an
// outlier run does not move it, as it moved a mean), calls per run, the total
// as the sum of main-graph medians, and each run's time outside its nodes.
// Made-up run entries: no timing, every figure is exact.
#include "core/pipeline/node_times.h"

#include <gtest/gtest.h>

namespace passlab::pipeline {
namespace {

exec::NodeProfile entry(ir::NodeId id, const char* name, int depth, double ms, int64_t calls = 1) {
  exec::NodeProfile p;
  p.nodeId = id;
  p.name = name;
  p.op = "Relu";
  p.kernel = "cpu.Relu";
  p.depth = depth;
  p.calls = calls;
  p.micros = ms * 1000;
  p.bytesRead = 64;
  p.bytesWritten = 32;
  return p;
}

TEST(NodeTimes, OneRowPerNodeInFirstRunOrderWithItsMedian) {
  NodeTimes times;
  // "body" runs three times per run inside "loop" (depth 1); the third run
  // is stalled in "b" for 100 ms, as another process preempting it would.
  times.addRun({entry(1, "a", 0, 1.0), entry(2, "b", 0, 2.0), entry(3, "body", 1, 0.5, 3)}, 3.5);
  times.addRun({entry(1, "a", 0, 3.0), entry(2, "b", 0, 2.2), entry(3, "body", 1, 0.7, 3)}, 5.5);
  times.addRun({entry(2, "b", 0, 100.0), entry(1, "a", 0, 1.2), entry(3, "body", 1, 0.6, 3)},
               101.5);
  EXPECT_EQ(times.runs(), 3);
  const std::vector<NodeTimes::Row> rows = times.rows();
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].node.name, "a");
  EXPECT_EQ(rows[1].node.name, "b");
  EXPECT_EQ(rows[2].node.name, "body");
  EXPECT_DOUBLE_EQ(rows[0].time.medianMs, 1.2);
  EXPECT_DOUBLE_EQ(rows[0].time.minMs, 1.0);
  EXPECT_DOUBLE_EQ(rows[1].time.medianMs, 2.2);
  EXPECT_DOUBLE_EQ(rows[2].time.medianMs, 0.6);
  for (const NodeTimes::Row& r : rows) EXPECT_EQ(r.time.samples, 3) << r.node.name;
  EXPECT_EQ(rows[0].callsPerRun, 1);
  EXPECT_EQ(rows[2].callsPerRun, 3);
  EXPECT_EQ(rows[2].node.depth, 1);
  EXPECT_EQ(rows[0].node.bytesRead + rows[0].node.bytesWritten, 96u);
  // The total: main-graph medians only (the body's time is inside its
  // parent's), untouched by the stalled run; a mean would give 36.47 ms.
  EXPECT_DOUBLE_EQ(mainGraphMedianSumMs(rows), 1.2 + 2.2);
  // The runs' own node sums: 3.0, 5.2 and 101.2 ms; outside the nodes, per
  // run: 0.5, 0.3, 0.3 ms.
  const Timing nodes = times.runNodeSums();
  EXPECT_EQ(nodes.samples, 3);
  EXPECT_NEAR(nodes.medianMs, 5.2, 1e-9);
  EXPECT_NEAR(nodes.minMs, 3.0, 1e-9);
  const Timing outside = times.outsideNodes();
  EXPECT_EQ(outside.samples, 3);
  EXPECT_NEAR(outside.medianMs, 0.3, 1e-9);
  EXPECT_NEAR(outside.minMs, 0.3, 1e-9);
}

TEST(NodeTimes, ANodeMissingFromARunHasFewerSamples) {
  NodeTimes times;
  times.addRun({entry(1, "a", 0, 1.0), entry(7, "then", 1, 0.4)}, 1.0);
  times.addRun({entry(1, "a", 0, 1.0)}, 1.0);
  const std::vector<NodeTimes::Row> rows = times.rows();
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].time.samples, 2);
  EXPECT_EQ(rows[1].time.samples, 1);
  EXPECT_DOUBLE_EQ(rows[1].time.medianMs, 0.4);
}

TEST(NodeTimes, NoRunsNoRows) {
  NodeTimes times;
  EXPECT_EQ(times.runs(), 0);
  EXPECT_TRUE(times.rows().empty());
  EXPECT_EQ(mainGraphMedianSumMs(times.rows()), 0);
  EXPECT_EQ(times.outsideNodes().samples, 0);
  EXPECT_EQ(times.runNodeSums().samples, 0);
}

}  // namespace
}  // namespace passlab::pipeline
