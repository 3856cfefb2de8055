#include "app/cli/precision_sparsity.h"

#include <cstdio>
#include <iostream>

#include "app/cli/per_layer_result.h"
#include "core/pipeline/layer_steps.h"

namespace passlab::cli {

namespace {

void printLayers(const std::vector<pipeline::SparsityLayer>& layers) {
  std::printf("%-44s %9s %6s %10s %7s %21s %8s\n", "layer", "weights", "ratio", "SNR alone",
              "trials", "nonzero before/after", "applied");
  for (const auto& l : layers) {
    char ratio[16];
    std::snprintf(ratio, sizeof ratio, "%.2f", l.ratio);
    const std::string nonzero = std::to_string(l.weights - l.zerosBefore) + " -> " +
                                std::to_string(l.weights - l.zerosAfter);
    std::printf("%-44s %9lld %6s %10s %7d %21s %8s\n", l.describe.c_str(),
                static_cast<long long>(l.weights), l.ratio > 0 ? ratio : "dense",
                l.ratio > 0 ? snrText(l.snrDb).c_str() : "-", l.trials, nonzero.c_str(),
                l.applied ? "yes" : "no");
  }
}

// The applied layers' steps in the order they were applied.
std::vector<pipeline::PassSpec> recipeSteps(const SparsityRequest& r,
                                            const std::vector<pipeline::SparsityLayer>& layers) {
  std::vector<pipeline::PassSpec> steps;
  for (const pipeline::SparsityLayer* l : appliedInStepOrder(layers))
    steps.push_back(pipeline::pruneStep(*l, l->ratio, r.options));
  return steps;
}

}  // namespace

int runSparsityPrecision(const ir::Model& model, pipeline::ExecOutputChecker& checker,
                         const SparsityRequest& request) {
  auto layers = pipeline::searchSparsity(model, checker, request.budget, request.options);
  if (!layers) {
    std::cerr << "error: " << layers.error().message() << "\n";
    return 2;
  }
  ir::Model result = model.clone();
  auto check = pipeline::applySparsity(result, checker, *layers, request.budget, request.options);
  if (!check) {
    std::cerr << "error: " << check.error().message() << "\n";
    return 2;
  }
  std::printf(
      "prune_magnitude (%s): %zu layers; the largest ratio (steps of 1/%d) each holds the budget "
      "with alone (%d input sets)\n",
      request.options.pattern.c_str(), layers->size(), request.options.steps, request.checkSets);
  printLayers(*layers);
  int64_t weights = 0, nonzeroBefore = 0, nonzeroAfter = 0;
  size_t applied = 0;
  for (const auto& l : *layers) {
    weights += l.weights;
    nonzeroBefore += l.weights - l.zerosBefore;
    nonzeroAfter += l.weights - l.zerosAfter;
    applied += l.applied ? 1 : 0;
  }
  std::printf("%zu of %zu layers pruned: %lld -> %lld nonzero of %lld weights in these layers\n",
              applied, layers->size(), static_cast<long long>(nonzeroBefore),
              static_cast<long long>(nonzeroAfter), static_cast<long long>(weights));
  printWorstTogether(*check);
  return saveLayerResult(result, request.out, request.saveRecipe, request.checkSets, request.budget,
                         recipeSteps(request, *layers));
}

}  // namespace passlab::cli
