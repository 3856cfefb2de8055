#include "core/pipeline/rounding_floor.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <span>

#include "core/ir/graph.h"
#include "core/ir/node.h"

namespace passlab::pipeline {
namespace {

// Moves every element one ulp up or down.
template <typename T>
void nudge(std::span<T> values, std::mt19937_64& rng) {
  std::bernoulli_distribution up(0.5);
  for (T& x : values)
    x = std::nextafter(
        x, up(rng) ? std::numeric_limits<T>::infinity() : -std::numeric_limits<T>::infinity());
}

// False for a type it does not move (float16 / bfloat16 scales, opset 19+).
bool nudgeTensor(ir::Tensor& t, std::mt19937_64& rng) {
  if (t.numel() == 0) return false;
  if (t.dtype() == ir::DataType::kFloat) {
    nudge(t.mutableData<float>(), rng);
    return true;
  }
  if (t.dtype() == ir::DataType::kDouble) {
    nudge(t.mutableData<double>(), rng);
    return true;
  }
  return false;
}

std::vector<ir::Value*> quantScales(ir::Graph& g) {
  std::vector<ir::Value*> scales;
  for (const auto& n : g.nodes()) {
    if (n->opType() != "QuantizeLinear" && n->opType() != "DequantizeLinear") continue;
    if (!n->domain().empty() && n->domain() != "ai.onnx") continue;
    if (n->inputs().size() < 2 || !n->inputs()[1] || !n->inputs()[1]->initializer()) continue;
    if (std::find(scales.begin(), scales.end(), n->inputs()[1]) == scales.end())
      scales.push_back(n->inputs()[1]);
  }
  return scales;
}

// The loss a figure stands for: 0 for none, larger for worse.
double cosineLoss(const OutputAccuracy& a) {
  return 1 - a.cosine;
}
double noisePower(const OutputAccuracy& a) {
  return std::pow(10.0, -a.snrDb / 10);
}
double shareLoss(const std::optional<double>& share) {
  return share ? 1 - *share : 0;
}

void keepWorst(OutputAccuracy& worst, const OutputAccuracy& a) {
  worst.compared = worst.compared && a.compared;
  worst.cosine = std::min(worst.cosine, a.cosine);
  worst.snrDb = std::min(worst.snrDb, a.snrDb);
  worst.maxRelError = std::max(worst.maxRelError, a.maxRelError);
  if (a.top1) worst.top1 = worst.top1 ? std::min(*worst.top1, *a.top1) : *a.top1;
  if (a.topK) worst.topK = worst.topK ? std::min(*worst.topK, *a.topK) : *a.topK;
  worst.nonFinite = std::max(worst.nonFinite, a.nonFinite);
}

// The detail of a check the floor excused: the multiple, the worst output.
Text excusedText(Text multiple, Text worst) {
  return Text::of(
      "over the accuracy budget, but within the model's own tie-rounding noise (its Q/DQ scales "
      "moved by one ulp move its outputs as much; at most %1x): %2",
      std::move(multiple), std::move(worst));
}

}  // namespace

ir::Model perturbQuantScales(const ir::Model& model, uint64_t seed, size_t* moved) {
  ir::Model copy = model.clone();
  std::mt19937_64 rng(seed);
  size_t count = 0;
  ir::Graph& g = copy.graph();
  for (ir::Value* v : quantScales(g)) {
    ir::Tensor changed = *v->initializer();
    if (!nudgeTensor(changed, rng)) continue;
    g.setInitializer(v, std::move(changed));
    ++count;
  }
  if (moved) *moved = count;
  return copy;
}

std::map<std::string, OutputAccuracy> measureRoundingFloor(
    const ir::Model& original, const std::vector<exec::NamedInputs>& inputs,
    const std::vector<std::map<std::string, ir::Tensor>>& reference,
    const std::set<std::string>& skip, int draws, uint64_t seed, int topK) {
  std::map<std::string, OutputAccuracy> floor;
  for (int d = 0; d < draws; ++d) {
    size_t moved = 0;
    ir::Model perturbed = perturbQuantScales(original, seed + static_cast<uint64_t>(d), &moved);
    if (moved == 0) return {};
    // Reproducible runs (executor.h): the floor excuses or not a step's loss.
    exec::ExecutorOptions executorOptions;
    executorOptions.reproducible = true;
    auto ex = exec::Executor::create(perturbed, executorOptions);
    if (!ex) return {};
    std::map<std::string, AccuracyMeter> meters;
    for (size_t s = 0; s < inputs.size() && s < reference.size(); ++s) {
      auto r = (*ex)->run(inputs[s]);
      if (!r) return {};
      for (size_t i = 0; i < r->outputNames.size(); ++i) {
        const std::string& name = r->outputNames[i];
        auto want = reference[s].find(name);
        if (want == reference[s].end() || skip.count(name)) continue;
        if (want->second.dtype() == ir::DataType::kUndefined) continue;
        meters.try_emplace(name, name, topK).first->second.add(r->outputs[i], want->second);
      }
    }
    for (const auto& [name, meter] : meters) {
      OutputAccuracy a = meter.result();
      auto [it, fresh] = floor.try_emplace(name, a);
      if (!fresh) keepWorst(it->second, a);
    }
  }
  return floor;
}

bool withinRoundingFloor(const OutputAccuracy& step, const OutputAccuracy& floor,
                         const AccuracyBudget& budget, double multiple) {
  if (!step.compared || !floor.compared) return false;
  if (step.nonFinite > floor.nonFinite) return false;
  // Nothing measured, or the original's NaN or infinity lost: no floor excuses it.
  if (step.nonFiniteDiffer > floor.nonFiniteDiffer || comparedNoFiniteValue(step)) return false;
  auto within = [multiple](double got, double allowed) { return got <= multiple * allowed; };
  // The figures the budget limits (max rel, top-1 and top-k are only reported by default).
  if (!within(cosineLoss(step), cosineLoss(floor))) return false;
  if (!within(noisePower(step), noisePower(floor))) return false;
  if (std::isfinite(budget.maxRelError) && !within(step.maxRelError, floor.maxRelError))
    return false;
  if (budget.minTop1 > 0 && !within(shareLoss(step.top1), shareLoss(floor.top1))) return false;
  if (budget.minTopK > 0 && !within(shareLoss(step.topK), shareLoss(floor.topK))) return false;
  return true;
}

void excuseByRoundingFloor(NumericCheck& c, const AccuracyBudget& budget,
                           const std::map<std::string, OutputAccuracy>& floor) {
  if (c.passed || floor.empty()) return;
  std::optional<NumericCheck::RoundingFloorVerdict> verdict;
  for (const OutputAccuracy& a : c.accuracy) {
    if (whyOverBudget(a, budget).empty()) continue;
    auto f = floor.find(a.output);
    if (f == floor.end() || !withinRoundingFloor(a, f->second, budget)) return;
    if (!verdict) verdict = {a.output, a, f->second, kRoundingFloorMultiple, std::nullopt};
  }
  if (!verdict) return;  // over the budget for no output's figures: not this rule's
  c.passed = true;
  c.detail = excusedText(std::to_string(static_cast<int>(kRoundingFloorMultiple)),
                         Text::of("'%1': %2; with its scales moved: %3", verdict->output,
                                  accuracyText(verdict->figures), accuracyText(verdict->floor)));
  c.roundingFloor = std::move(verdict);
}

bool excusedByRoundingFloor(const NumericCheck& c) {
  return c.passed && c.roundingFloor.has_value();
}

}  // namespace passlab::pipeline
