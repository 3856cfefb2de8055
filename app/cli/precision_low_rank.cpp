#include "app/cli/precision_low_rank.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>

#include "app/cli/per_layer_result.h"
#include "core/exec/executor.h"
#include "core/pipeline/input_synthesis.h"
#include "core/pipeline/layer_steps.h"
#include "core/pipeline/low_rank_search.h"

namespace passlab::cli {

namespace {

constexpr int kLatencyRuns = 21;

// The median of `runs` runs of each model, interleaved (milliseconds).
Expected<std::pair<double, double>> medianLatencies(const ir::Model& before, const ir::Model& after,
                                                    int runs) {
  auto inputs = pipeline::makeInputs(before, {});
  if (!inputs) return inputs.error();
  auto a = exec::Executor::create(before);
  if (!a) return a.error();
  auto b = exec::Executor::create(after);
  if (!b) return b.error();
  std::vector<double> ta, tb;
  auto time = [&](exec::Executor& ex, std::vector<double>& into) -> Status {
    const auto start = std::chrono::steady_clock::now();
    exec::RunOptions one;
    one.threads = 1;  // steadier than every core on a busy machine
    auto r = ex.run(*inputs, one);
    if (!r) return r.error();
    into.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
    return Status::ok();
  };
  PASSLAB_RETURN_IF_ERROR(time(**a, ta));  // warm-up
  PASSLAB_RETURN_IF_ERROR(time(**b, tb));
  ta.clear(), tb.clear();
  for (int i = 0; i < runs; ++i) {
    PASSLAB_RETURN_IF_ERROR(time(**a, ta));
    PASSLAB_RETURN_IF_ERROR(time(**b, tb));
  }
  auto median = [](std::vector<double>& v) {
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    return v[v.size() / 2];
  };
  return std::make_pair(median(ta), median(tb));
}

void printLayers(const std::vector<pipeline::LowRankLayer>& layers) {
  std::printf("%-44s %11s %8s %6s %10s %7s %8s\n", "layer", "K x N", "max rank", "rank",
              "SNR alone", "trials", "applied");
  for (const auto& l : layers) {
    const std::string shape = std::to_string(l.k) + " x " + std::to_string(l.n);
    std::printf("%-44s %11s %8lld %6s %10s %7d %8s\n", l.describe.c_str(), shape.c_str(),
                static_cast<long long>(l.maxRank),
                l.rank ? std::to_string(l.rank).c_str() : "dense",
                l.rank ? snrText(l.snrDb).c_str() : "-", l.trials, l.applied ? "yes" : "no");
  }
}

// The applied layers' steps in the order they were applied.
std::vector<pipeline::PassSpec> recipeSteps(const std::vector<pipeline::LowRankLayer>& layers) {
  std::vector<pipeline::PassSpec> steps;
  for (const pipeline::LowRankLayer* l : appliedInStepOrder(layers))
    steps.push_back(
        pipeline::layerStep("factorize_low_rank", {{"rank", std::to_string(l->rank)}}, l->node));
  return steps;
}

}  // namespace

int runLowRankPrecision(const ir::Model& model, pipeline::ExecOutputChecker& checker,
                        const LowRankRequest& request) {
  pipeline::LowRankOptions o;
  o.evaluator = request.evaluator;
  o.workers = request.workers;
  o.shareDecompositions = request.shareDecompositions;
  auto layers = pipeline::searchRanks(model, checker, request.budget, o);
  if (!layers) {
    std::cerr << "error: " << layers.error().message() << "\n";
    return 2;
  }
  ir::Model result = model.clone();
  auto check = pipeline::applyRanks(result, checker, *layers, request.budget, o);
  if (!check) {
    std::cerr << "error: " << check.error().message() << "\n";
    return 2;
  }
  std::printf(
      "factorize_low_rank: %zu layers could save min_saving; the smallest rank each holds the "
      "budget with alone (%d input sets)\n",
      layers->size(), request.checkSets);
  printLayers(*layers);
  int64_t before = 0, after = 0;
  size_t applied = 0;
  for (const auto& l : *layers) {
    before += l.paramsBefore();
    after += l.paramsAfter();
    applied += l.applied ? 1 : 0;
  }
  std::printf(
      "%zu of %zu layers factorized: %lld -> %lld weights in these layers, and as many "
      "multiply-adds per input row\n",
      applied, layers->size(), static_cast<long long>(before), static_cast<long long>(after));
  printWorstTogether(*check);
  if (auto t = medianLatencies(model, result, kLatencyRuns))
    std::printf(
        "latency (1 thread, median of %d runs interleaved, synthesized inputs): %.3f ms -> "
        "%.3f ms\n",
        kLatencyRuns, t->first, t->second);
  else
    std::cerr << "warning: latency not measured: " << t.error().message() << "\n";
  return saveLayerResult(result, request.out, request.saveRecipe, request.checkSets, request.budget,
                         recipeSteps(*layers));
}

}  // namespace passlab::cli
