// Threads per step of a multi-threaded run (issue #26): a node whose work is
// too small to pay for waking a second OpenMP thread runs on the calling
// thread only. With idle threads sleeping (OMP_WAIT_POLICY=PASSIVE) every
// parallel region wakes them, which costs more than a small node's work.
//
// The work is the static cost model's (core/analysis/cost_model.h) on the
// model's shapes inferred for the run's input shapes; a node whose cost is
// not known, or which runs subgraphs, keeps every thread.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/analysis/cost_model.h"
#include "core/exec/compiled_graph.h"
#include "core/exec/value.h"

namespace passlab::exec {

// Estimated single-thread microseconds of work below which a node is not
// split: a second thread saves at most half the work, and waking a sleeping
// one and joining it costs tens of microseconds (docs/exec-benchmark.md,
// "Small nodes on one thread": 20 left ppocr at 1.0 ms, 60 gave 0.70).
// The environment variable PASSLAB_SMALL_STEP_MICROS replaces it for the
// executor's runs (0: every step uses every thread, as before; for A/B
// measurements).
inline constexpr double kSingleThreadMicros = 60.0;

// Estimated single-thread microseconds of `cost` (FLOPs at a vectorized
// rate, bytes at a memory rate); negative when the cost is not known.
double workMicros(const analysis::NodeCost& cost);

// The threads for a node of cost `cost` on a run of `threads` threads.
int threadsForWork(const analysis::NodeCost& cost, int threads,
                   double limitMicros = kSingleThreadMicros);

class StepThreads {
 public:
  using Inputs = std::vector<std::pair<std::string, Value>>;
  // Per step of `graph` (the main graph of `model`): whether it runs on one
  // thread, for these inputs' shapes (recomputed when they change).
  const std::vector<bool>& prepare(const ir::Model& model, const CompiledGraph& graph,
                                   const Inputs& inputs);

 private:
  std::string signature_;
  bool prepared_ = false;
  std::vector<bool> single_;
};

}  // namespace passlab::exec
