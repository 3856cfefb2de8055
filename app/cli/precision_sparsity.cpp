#include "app/cli/precision_sparsity.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "core/io/atomic_file.h"
#include "core/io/model_io.h"
#include "core/pipeline/recipe.h"

namespace passlab::cli {

namespace {

std::string snrText(double snr) {
  if (std::isinf(snr)) return snr > 0 ? "inf" : "-inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", snr);
  return buf;
}

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

Status saveRecipe(const SparsityRequest& r, const std::vector<pipeline::SparsityLayer>& layers) {
  pipeline::Recipe recipe;
  recipe.checkInputSets = r.checkSets;
  recipe.budget = r.budget;
  // In the order they were applied: each step was checked with the ones before.
  std::vector<const pipeline::SparsityLayer*> applied;
  for (const auto& l : layers)
    if (l.applied) applied.push_back(&l);
  std::sort(applied.begin(), applied.end(),
            [](const auto* a, const auto* b) { return a->step < b->step; });
  for (const pipeline::SparsityLayer* l : applied) {
    pipeline::PassSpec spec{"prune_magnitude", pipeline::pruneOptions(r.options, l->ratio), {}};
    spec.filter.only.insert(l->node);
    recipe.passes.push_back(std::move(spec));
  }
  io::AtomicFile file(r.saveRecipe);
  Status s = file.open();
  if (s.isOk()) s = file.write(pipeline::recipeToJson(recipe));
  if (s.isOk()) s = file.commit();
  return s;
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
  if (check->ran) {
    if (const pipeline::OutputAccuracy* w = pipeline::worstOutput(check->accuracy))
      std::printf("together: worst output '%s' SNR %s dB, cosine %.6f\n", w->output.c_str(),
                  snrText(w->snrDb).c_str(), w->cosine);
  }
  if (request.out.empty()) return 0;
  if (Status saved = io::saveModel(result, request.out, {}); !saved) {
    std::cerr << "error: " << saved.message() << "\n";
    return 1;
  }
  std::printf("saved %s\n", request.out.c_str());
  if (!request.saveRecipe.empty()) {
    if (Status s = saveRecipe(request, *layers); !s.isOk()) {
      std::cerr << "error: cannot write the recipe to " << request.saveRecipe << ": " << s.message()
                << "\n";
      return 1;
    }
    std::printf("recipe saved to %s\n", request.saveRecipe.c_str());
  }
  return 0;
}

}  // namespace passlab::cli
