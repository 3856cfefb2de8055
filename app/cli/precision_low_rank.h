// passlab-cli precision MODEL --pass factorize_low_rank [-o OUT]: the rank of
// each layer chosen by the accuracy budget (core/pipeline/low_rank_search.h),
// with the parameters, multiply-adds and measured latency before and after;
// a layer whose factorization timed slower alone (low_rank_latency.h) stays dense.
#pragma once

#include <string>

#include "core/ir/model.h"
#include "core/pipeline/accuracy.h"
#include "core/pipeline/numeric_check.h"
#include "core/rewrite/evaluator.h"

namespace passlab::cli {

struct LowRankRequest {
  std::string modelPath, out, saveRecipe;
  int checkSets = 2;
  int workers = 0;
  pipeline::AccuracyBudget budget;
  rewrite::Evaluator* evaluator = nullptr;
  bool shareDecompositions = true;  // one SVD per layer for all its trials
  double latencyMargin = 0.02;      // pipeline::LowRankLatencyOptions::margin
  bool checkLatency = true;         // false: a slower factorization is kept
};

// Prints the search and the result; saves it with `out`. The exit code.
int runLowRankPrecision(const ir::Model& model, pipeline::ExecOutputChecker& checker,
                        const LowRankRequest& request);

}  // namespace passlab::cli
