// The rank of each low-rank factorization chosen by the accuracy budget
// (factorize_low_rank with its `rank` option, one layer at a time).
//
// searchRanks: per MatMul / Gemm / 1x1 Conv with a constant weight [K, N]
// (passes::whyNotLowRankWeight; a Conv's W [M, C, 1, 1] as C x M), the smallest
// rank r whose factorization of that layer alone holds the budget, by
// bisection over r in [1, r_max] (r_max: the largest rank that still saves
// min_saving of the weights, r (K + N) <= (1 - min_saving) K N), O(log r_max)
// trials per layer, the layers on several threads (parallel_trials.h), the
// weight's singular value decomposition computed once per layer for all its
// trials (passes::WeightSvdSource; the same factors as the pass computes). A
// layer whose r_max does not hold the budget stays dense. It assumes a larger
// rank never costs accuracy, which holds for the truncated SVD up to rounding.
//
// applyRanks: the layers factorized together, each at its rank, one checked
// step each (largest saving first): the errors of several layers add up, so
// a step that would take the model over the budget is rolled back and that
// layer stays dense.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/ir/model.h"
#include "core/pipeline/accuracy.h"
#include "core/pipeline/numeric_check.h"
#include "core/rewrite/evaluator.h"

namespace passlab::pipeline {

struct LowRankLayer {
  ir::NodeId node = 0;
  std::string describe;
  int64_t k = 0, n = 0;  // the weight as K x N (Gemm's B transposed with transB; Conv: C x M)
  int64_t maxRank = 0;   // the largest rank saving min_saving
  int64_t rank = 0;      // the smallest holding the budget alone; 0: stays dense
  double snrDb = 0;      // of the worst output, this layer alone at `rank`
  int trials = 0;
  bool applied = false;  // applyRanks: factorized in the result
  int step = 0;          // applyRanks: its place among the factorized (1, 2, ...)
  // timeLowRankLayers (low_rank_latency.h): output positions per run of the
  // model on synthesized inputs (0: unknown), the layer alone dense and
  // factorized at `rank` (medians, ms; 0: not timed), and whether the
  // factorization was slower: then applyRanks keeps it dense.
  int64_t rows = 0;
  double denseMs = 0, thinMs = 0;
  bool slower = false;

  int64_t paramsBefore() const { return k * n; }
  int64_t paramsAfter() const { return applied ? rank * (k + n) : k * n; }
  // Multiply-adds per run (rows x the weights); 0 when rows is unknown.
  int64_t macsBefore() const { return rows * paramsBefore(); }
  int64_t macsAfter() const { return rows * paramsAfter(); }
};

struct LowRankOptions {
  double minSaving = 0.25;
  rewrite::Evaluator* evaluator = nullptr;  // constant folding; null: none
  int workers = 0;                          // layers at once (0: one per core)
  const std::atomic<bool>* cancel = nullptr;
  std::function<void(size_t, size_t)> progress;  // (layers done, total), calling thread
  // searchRanks: one decomposition per layer for all its trials (false: the
  // pass decomposes the weight in every trial, as before; for comparisons).
  bool shareDecompositions = true;
};

// The layers factorize_low_rank could take in `model` with their ranks;
// `checker` holds the original's outputs.
Expected<std::vector<LowRankLayer>> searchRanks(const ir::Model& model, ExecOutputChecker& checker,
                                                const AccuracyBudget& budget,
                                                const LowRankOptions& options);

// Factorizes `model` in place, each layer of `layers` with a rank at its rank
// and not `slower` (largest saving first), every step checked against `budget`; marks the
// layers applied and numbers them in that order (a replay must take them in
// it: each step is checked with the ones before). The check of the last step
// that held.
Expected<NumericCheck> applyRanks(ir::Model& model, ExecOutputChecker& checker,
                                  std::vector<LowRankLayer>& layers, const AccuracyBudget& budget,
                                  const LowRankOptions& options);

}  // namespace passlab::pipeline
