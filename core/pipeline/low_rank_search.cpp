#include "core/pipeline/low_rank_search.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <span>

#include "core/passes/matrix_weight.h"
#include "core/passes/non_finite_input_source.h"
#include "core/passes/weight_svd.h"
#include "core/pipeline/layer_steps.h"
#include "core/pipeline/parallel_trials.h"

namespace passlab::pipeline {

namespace {

constexpr const char* kPass = "factorize_low_rank";

// The layers the pass could take, with their weight's shape and r_max.
std::vector<LowRankLayer> candidates(const ir::Model& model, double minSaving) {
  std::vector<LowRankLayer> out;
  for (const auto& owned : model.graph().nodes()) {
    const ir::Node& n = *owned;
    if (!n.domain().empty() ||
        (n.opType() != "MatMul" && n.opType() != "Gemm" && n.opType() != "Conv"))
      continue;
    passes::LowRankWeight w;
    if (!passes::whyNotLowRankWeight(n, &w).empty()) continue;
    LowRankLayer l;
    l.node = n.id();
    l.describe = n.describe();
    l.k = w.k;
    l.n = w.n;
    const double most = (1 - minSaving) * double(l.k) * double(l.n) / double(l.k + l.n);
    l.maxRank = std::min<int64_t>(static_cast<int64_t>(std::floor(most)), std::min(l.k, l.n));
    if (l.maxRank >= 1) out.push_back(std::move(l));
  }
  return out;
}

bool transposesWeight(const ir::Node& n) {
  passes::LowRankWeight w;
  return passes::whyNotLowRankWeight(n, &w).empty() && w.transposed;
}

bool sameTensor(const ir::Tensor& a, const ir::Tensor& b) {
  if (a.dtype() != b.dtype() || a.dims() != b.dims()) return false;
  const std::span<const std::byte> x = a.bytes(), y = b.bytes();
  return x.size() == y.size() && (x.empty() || std::memcmp(x.data(), y.data(), x.size()) == 0);
}

// The decompositions of the candidate layers' weights, each computed once (by
// the worker that searches the layer, before its first trial) and handed to
// the pass in every trial and in applyRanks (passes::WeightSvdSource), where
// the node still reads the weight that was decomposed. Constant folding and
// calibration go to the pipeline's evaluator.
class SvdCache final : public rewrite::Evaluator,
                       public passes::WeightSvdSource,
                       public passes::NonFiniteInputSource {
 public:
  SvdCache(rewrite::Evaluator* inner, const ir::Model& model,
           const std::vector<LowRankLayer>& layers)
      : inner_(inner) {
    for (const LowRankLayer& l : layers) {
      const ir::Node* n = model.graph().findNode(l.node);
      if (!n) continue;
      auto e = std::make_unique<Entry>();
      auto weight = passes::constantFloat(n->input(1));  // an initializer or a Constant node's
      if (!weight) continue;
      e->weight = *weight;
      e->transposed = transposesWeight(*n);
      entries_.emplace(l.node, std::move(e));
    }
  }

  // Decomposes the weight of `layer` unless done already; one caller per layer.
  void prepare(const LowRankLayer& layer) {
    auto it = entries_.find(layer.node);
    if (it == entries_.end() || it->second->ready.load(std::memory_order_acquire)) return;
    Entry& e = *it->second;
    e.svd = passes::decomposeWeight(e.weight, e.transposed);
    e.ready.store(true, std::memory_order_release);
  }

  const passes::WeightSvd* svdOf(const ir::Node& n) const override {
    auto it = entries_.find(n.id());
    if (it == entries_.end() || !it->second->ready.load(std::memory_order_acquire)) return nullptr;
    const Entry& e = *it->second;
    const auto w = passes::constantFloat(n.input(1));
    if (!w || transposesWeight(n) != e.transposed || !sameTensor(*w, e.weight)) return nullptr;
    return &e.svd;
  }

  Expected<std::vector<ir::Tensor>> evaluate(const ir::Node& node,
                                             const std::vector<const ir::Tensor*>& inputs,
                                             int64_t opsetVersion) override {
    if (!inner_) return unsupported("no constant folding in this search");
    return inner_->evaluate(node, inputs, opsetVersion);
  }
  Status observeValues(const ir::Model& model, const std::vector<std::string>& values,
                       const Observer& observe, const std::atomic<bool>* cancel) override {
    if (!inner_) return Evaluator::observeValues(model, values, observe, cancel);
    return inner_->observeValues(model, values, observe, cancel);
  }
  size_t calibrationSets() const override { return inner_ ? inner_->calibrationSets() : 0; }
  Text firstNonFiniteInput(const ir::Model& model) override {
    auto* source = dynamic_cast<passes::NonFiniteInputSource*>(inner_);
    return source ? source->firstNonFiniteInput(model) : Text();
  }
  Text takeNonFiniteNote() override {
    auto* source = dynamic_cast<passes::NonFiniteInputSource*>(inner_);
    return source ? source->takeNonFiniteNote() : Text();
  }

 private:
  struct Entry {
    ir::Tensor weight;
    bool transposed = false;
    passes::WeightSvd svd;
    std::atomic<bool> ready{false};
  };
  rewrite::Evaluator* inner_;
  std::map<ir::NodeId, std::unique_ptr<Entry>> entries_;
};

passes::Options passOptions(int64_t rank, double minSaving) {
  return {{"rank", std::to_string(rank)}, {"min_saving", std::to_string(minSaving)}};
}

// One step of the pass for `layer` alone at `rank`.
PassSpec factorizeStep(const LowRankLayer& layer, int64_t rank, double minSaving) {
  return layerStep(kPass, passOptions(rank, minSaving), layer.node);
}

// `layer` alone at `rank` on a copy of `model`.
Expected<LayerTrial> tryRank(const ir::Model& model, ExecOutputChecker& checker,
                             const AccuracyBudget& budget, const LowRankOptions& options,
                             rewrite::Evaluator* evaluator, const LowRankLayer& layer,
                             int64_t rank) {
  ir::Model copy = model.clone();
  CheckedSteps steps(copy, checker, budget, evaluator, options.cancel);
  auto step = steps.run(factorizeStep(layer, rank, options.minSaving));
  if (!step) return step.error();
  const Step& s = **step;
  LayerTrial o;  // a pass that changed nothing (it kept the layer): does not hold
  if (!s.check.ran) return o;
  o.holds = s.check.passed;
  if (const OutputAccuracy* w = worstOutput(s.check.accuracy)) o.snrDb = w->snrDb;
  return o;
}

// The smallest rank of `layer` holding the budget alone (0: none up to r_max).
// The layer's weight is decomposed once (in `cache`, when there is one) for all its trials.
Status searchLayer(const ir::Model& model, ExecOutputChecker& checker, const AccuracyBudget& budget,
                   const LowRankOptions& options, SvdCache* cache, LowRankLayer& layer) {
  rewrite::Evaluator* evaluator = options.evaluator;
  if (cache) {
    cache->prepare(layer);
    evaluator = cache;
  }
  // Rank 0 fails (no factorization to try); r_max must hold.
  ++layer.trials;
  auto top = tryRank(model, checker, budget, options, evaluator, layer, layer.maxRank);
  if (!top) return top.error();
  if (!top->holds) return Status::ok();
  HoldBracket b{layer.maxRank, 0, top->snrDb};
  PASSLAB_RETURN_IF_ERROR(narrowBracket(b, [&](int64_t mid) {
    ++layer.trials;
    return tryRank(model, checker, budget, options, evaluator, layer, mid);
  }));
  layer.rank = b.holds;
  layer.snrDb = b.snrDb;
  return Status::ok();
}

}  // namespace

Expected<std::vector<LowRankLayer>> searchRanks(const ir::Model& model, ExecOutputChecker& checker,
                                                const AccuracyBudget& budget,
                                                const LowRankOptions& options) {
  std::vector<LowRankLayer> layers = candidates(model, options.minSaving);
  std::unique_ptr<SvdCache> cache;
  if (options.shareDecompositions)
    cache = std::make_unique<SvdCache>(options.evaluator, model, layers);
  TrialPool pool{options.workers, options.cancel, options.progress};
  PASSLAB_RETURN_IF_ERROR(runTrials(layers.size(), pool, [&](size_t i) {
    return searchLayer(model, checker, budget, options, cache.get(), layers[i]);
  }));
  return layers;
}

Expected<NumericCheck> applyRanks(ir::Model& model, ExecOutputChecker& checker,
                                  std::vector<LowRankLayer>& layers, const AccuracyBudget& budget,
                                  const LowRankOptions& options) {
  CheckedSteps steps(model, checker, budget, options.evaluator, options.cancel);
  return applyLayersInOrder(
      steps, layers, [](const LowRankLayer& l) { return l.rank > 0 && !l.slower; },
      [](const LowRankLayer& l) { return l.k * l.n - l.rank * (l.k + l.n); },
      [&](const LowRankLayer& l) { return factorizeStep(l, l.rank, options.minSaving); });
}

}  // namespace passlab::pipeline
