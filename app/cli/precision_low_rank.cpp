#include "app/cli/precision_low_rank.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>

#include "app/cli/per_layer_result.h"
#include "core/exec/executor.h"
#include "core/pipeline/input_synthesis.h"
#include "core/pipeline/layer_steps.h"
#include "core/pipeline/low_rank_latency.h"
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

std::string withCommas(int64_t v) {
  std::string s = std::to_string(v), out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (i && (s.size() - i) % 3 == 0 && s[i - 1] != '-') out += ',';
    out += s[i];
  }
  return out;
}

// "a -> b" multiply-adds, both in millions (one decimal) when a is 100,000 or more.
std::string macsPair(int64_t a, int64_t b) {
  if (a < 100000) return withCommas(a) + " -> " + withCommas(b);
  char t[64];
  std::snprintf(t, sizeof t, "%.1fM -> %.1fM", static_cast<double>(a) / 1e6,
                static_cast<double>(b) / 1e6);
  return t;
}

void printLayers(const std::vector<pipeline::LowRankLayer>& layers, bool timed) {
  std::printf("%-40s %11s %8s %6s %10s %6s %21s %17s %17s %8s\n", "layer", "K x N", "max rank",
              "rank", "SNR alone", "trials", "weights", "multiply-adds", "ms alone", "applied");
  for (const auto& l : layers) {
    const std::string shape = std::to_string(l.k) + " x " + std::to_string(l.n);
    std::string weights = "-", macs = "-", ms = "-";
    if (l.rank > 0) {
      const int64_t thin = l.rank * (l.k + l.n);
      weights = withCommas(l.k * l.n) + " -> " + withCommas(thin);
      if (l.rows > 0) macs = macsPair(l.rows * l.k * l.n, l.rows * thin);
      if (l.denseMs > 0) {
        char b[48];
        std::snprintf(b, sizeof b, "%.3f -> %.3f", l.denseMs, l.thinMs);
        ms = b;
      }
    }
    const char* applied = l.applied ? "yes" : l.slower ? "slower" : "no";
    std::printf("%-40s %11s %8lld %6s %10s %6d %21s %17s %17s %8s\n", l.describe.c_str(),
                shape.c_str(), static_cast<long long>(l.maxRank),
                l.rank ? std::to_string(l.rank).c_str() : "dense",
                l.rank ? snrText(l.snrDb).c_str() : "-", l.trials, weights.c_str(), macs.c_str(),
                ms.c_str(), applied);
  }
  if (!timed) std::printf("(no latency check per layer: --keep-slower)\n");
}

// MatMul / Gemm / Conv nodes whose weight is an initializer that is also a graph input.
size_t overridableWeights(const ir::Model& model) {
  size_t count = 0;
  for (const auto& n : model.graph().nodes()) {
    if (!n->domain().empty() ||
        (n->opType() != "MatMul" && n->opType() != "Gemm" && n->opType() != "Conv"))
      continue;
    const ir::Value* w = n->input(1);
    count += w && w->isInitializer() && w->isGraphInput();
  }
  return count;
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
  pipeline::LowRankLatencyOptions latency;
  latency.margin = request.latencyMargin;
  latency.minSaving = o.minSaving;
  if (request.checkLatency)
    if (Status t = pipeline::timeLowRankLayers(model, *layers, latency); !t.isOk()) {
      std::cerr << "error: the layers could not be timed: " << t.message()
                << " (--keep-slower skips the latency check)\n";
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
      "budget with alone (%d input sets); 'ms alone': the layer cut out, dense -> factorized, "
      "1 thread, medians of %d samples interleaved\n",
      layers->size(), request.checkSets, latency.rounds);
  printLayers(*layers, request.checkLatency);
  if (size_t inputs = overridableWeights(model); inputs > 0)
    std::printf(
        "note: %zu MatMul / Gemm / Conv weights are also graph inputs (overridable) and are not "
        "factorized; `passlab-cli optimize MODEL --passes freeze_initializer_inputs -o OUT` "
        "makes them constants\n",
        inputs);
  int64_t before = 0, after = 0, macsBefore = 0, macsAfter = 0;
  size_t applied = 0, slower = 0;
  for (const auto& l : *layers) {
    before += l.paramsBefore();
    after += l.paramsAfter();
    macsBefore += l.macsBefore();
    macsAfter += l.macsAfter();
    applied += l.applied ? 1 : 0;
    slower += l.slower ? 1 : 0;
  }
  std::printf(
      "%zu of %zu layers factorized: %s -> %s weights in these layers, %s multiply-adds per "
      "run\n",
      applied, layers->size(), withCommas(before).c_str(), withCommas(after).c_str(),
      macsPair(macsBefore, macsAfter).c_str());
  if (slower > 0)
    std::printf(
        "kept dense, slower factorized when timed alone on this CPU (beyond a margin of %g%%): "
        "%zu layers\n",
        request.latencyMargin * 100, slower);
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
