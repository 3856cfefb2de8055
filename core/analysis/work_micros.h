// Estimated single-thread time of a node, from the static cost model's
// FLOPs and bytes (cost_model.h) at rates of this machine class. The
// executor uses it to run small steps on one thread (exec/step_threads.h)
// and to leave small oneDNN reorders on one thread.
//
// Each node is timed by its kind, because one pair of rates cannot fit both
// a convolution and a Relu:
//
//   contraction (Conv, Gemm, MatMul, recurrent, attention):
//       FLOPs / flopsPerMicro + bytes / contractionBytesPerMicro
//   window (MaxPool, AveragePool, LpPool):
//       FLOPs (one per output element and window position) / windowFlopsPerMicro
//       + bytes / bytesPerMicro
//   per element (Softmax, LogSoftmax, LRN, Exp, Resize, Upsample):
//       output elements * that op's ns per element + bytes / bytesPerMicro
//   view (Reshape, Squeeze, Unsqueeze, Flatten, Identity): 0, the executor
//       aliases the input
//   everything else (element-wise ops, data movement, reductions, norms):
//       FLOPs / flopsPerMicro + bytes / bytesPerMicro
//
// The rates are fits to `passlab-cli profile --threads 1` (minimum of 10
// runs) of every node of the corpus models on the AMD EPYC (Zen 4) VM;
// docs/exec-benchmark.md ("The cost model's time, calibrated") has the
// estimate/actual table per op. The contraction bytes rate is session 24's
// (weights streamed from memory: Gemm 1.3x over); its FLOP rate was 50
// GFLOP/s, which put convolutions 2.2x over (oneDNN's 3x3 layers run at
// ~107): now 100, 1.2x; the split limits built on it (fork_join_cost.h) were
// halved with it. Fixed costs per node (about 1 us of dispatch) are left out.
#pragma once

#include <cstdint>

#include "core/analysis/cost_model.h"
#include "core/ir/node.h"

namespace passlab::analysis {

struct WorkRates {
  double flopsPerMicro = 100'000;            // vectorized arithmetic
  double contractionBytesPerMicro = 20'000;  // weights and activations of a contraction
  double bytesPerMicro = 60'000;             // streamed by element-wise ops and copies
  double windowFlopsPerMicro = 10'000;       // pools: compares or adds per window position
};
inline constexpr WorkRates kWorkRates{};

// Nanoseconds per output element of the ops timed per element (scalar exp
// or pow per element, or interpolation); 0 for other ops.
double nsPerOutputElement(const ir::Node& node);

// Estimated single-thread microseconds of `node` with cost `cost` (its
// estimateNodeCost); negative when the cost is not known.
double workMicros(const ir::Node& node, const NodeCost& cost);
// The same with estimateNodeCost(node).
double workMicros(const ir::Node& node);
// Microseconds to copy or re-lay out a tensor of `bytes` (read once,
// written once).
double copyMicros(uint64_t bytes);

}  // namespace passlab::analysis
