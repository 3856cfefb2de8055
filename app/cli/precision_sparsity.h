// passlab-cli precision MODEL --pass prune_magnitude --per-layer-sparsity:
// the largest pruning ratio per layer that holds the budget alone
// (core/pipeline/sparsity_search.h), the layers pruned together (each
// step checked), the table, and the result saved with -o.
#pragma once

#include <string>

#include "core/pipeline/accuracy.h"
#include "core/pipeline/numeric_check.h"
#include "core/pipeline/sparsity_search.h"

namespace passlab::cli {

struct SparsityRequest {
  std::string modelPath, out, saveRecipe;
  int checkSets = 2;
  pipeline::AccuracyBudget budget;
  pipeline::SparsityOptions options;
};

// Prints the search and the result; saves it with `out`. The exit code.
int runSparsityPrecision(const ir::Model& model, pipeline::ExecOutputChecker& checker,
                         const SparsityRequest& request);

}  // namespace passlab::cli
