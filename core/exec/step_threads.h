// Threads per step of a multi-threaded run (issue #26): a node whose work is
// too small to pay for waking a second OpenMP thread runs on the calling
// thread only. With idle threads sleeping (OMP_WAIT_POLICY=PASSIVE) every
// parallel region wakes them, which costs more than a small node's work.
//
// The work is the static cost model's time (core/analysis/work_micros.h) on
// the model's shapes inferred for the run's input shapes; a node whose cost is
// not known, or which runs subgraphs, keeps every thread. Nodes of subgraph
// bodies (If branches, Loop/Scan bodies) are decided the same way, on the
// shapes inference gives them: a body run per iteration hands off once per
// node and iteration, which is where a small recurrent model's time went.
// Body nodes whose shapes stay symbolic are decided per input dims at run
// time (run_shape_threads.h).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/exec/compiled_graph.h"
#include "core/exec/run_shape_threads.h"
#include "core/exec/step_trials.h"
#include "core/exec/value.h"

namespace passlab::exec {

// Estimated single-thread microseconds of work below which a node is not
// split, for callers that give no limit: a second thread saves at most half
// the work, and waking a sleeping one and joining it costs tens of
// microseconds (docs/exec-benchmark.md, "Small nodes on one thread": 20 left
// ppocr at 1.0 ms, 60 gave 0.70, on the estimates of then, which ran about 2x
// over for convolutions and 3-4x for element-wise ops; 30 is that 60 on the
// calibrated estimates, "The cost model's time, calibrated"). The executor's runs use
// splitLimitMicros(threads) instead (fork_join_cost.h: a multiple of the
// fork-join cost measured in the process, so it follows the wait policy;
// PASSLAB_SMALL_STEP_MICROS replaces it, 0: every step uses every thread).
inline constexpr double kSingleThreadMicros = 30.0;

// The threads for a node of `micros` estimated single-thread work
// (analysis::workMicros; negative: not known) on a run of `threads` threads.
int threadsForWork(double micros, int threads, double limitMicros = kSingleThreadMicros);

class StepThreads {
 public:
  using Inputs = std::vector<std::pair<std::string, Value>>;
  // Per step of `graph` (the main graph of `model`): whether it runs on one
  // thread of a run of `threads`, for these inputs' shapes (recomputed when
  // they or the thread count change). `reproducible`: on the fixed limit
  // (reproducibleSplitLimitMicros, ExecutorOptions::reproducible), not the
  // measured one.
  const std::vector<bool>& prepare(const ir::Model& model, const CompiledGraph& graph,
                                   const Inputs& inputs, int threads = 2,
                                   bool reproducible = false);
  // The trials of the main-graph steps (step_trials.h): those of work not
  // below kMinSplitMicros, whichever way prepare() put them; reset whenever
  // prepare() decides again; null when PASSLAB_SMALL_STEP_MICROS fixes the
  // limit.
  StepTrials* trials() { return trialsOn_ ? &trials_ : nullptr; }
  // The nodes of `model`'s subgraph bodies that run on one thread, as of the
  // last prepare().
  const std::unordered_set<const ir::Node*>& singleBodyNodes() const { return singleBody_; }
  // Those whose cost inference could not give: decided at run time
  // (run_shape_threads.h).
  const std::unordered_set<const ir::Node*>& runTimeBodyNodes() const { return runTimeBody_; }

  // For `node` of a subgraph body about to run on `ins`: one thread, every
  // thread, or every thread and learnBodyStep() once it ran.
  RunShapeThreads::Choice bodyStep(const ir::Node& node,
                                   const std::vector<const Value*>& ins) const;
  void learnBodyStep(const ir::Node& node, const std::vector<const Value*>& ins,
                     const std::vector<Value>& outs);

 private:
  std::string signature_;
  bool prepared_ = false;
  double limit_ = kSingleThreadMicros;
  std::vector<bool> single_;
  std::unordered_set<const ir::Node*> singleBody_;
  std::unordered_set<const ir::Node*> runTimeBody_;
  RunShapeThreads runShapes_;
  StepTrials trials_;
  bool trialsOn_ = false;
};

}  // namespace passlab::exec
