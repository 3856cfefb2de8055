// prune_magnitude — precision: the smallest-magnitude weights of Conv, Gemm
// and MatMul set to zero (lossy: the check holds the outputs to the accuracy
// budget).
//
// Before:  y = Conv(x, w, b)      (w a stored floating-point constant)
// After:   y = Conv(x, w', b')    (w' is w with its smallest weights zero)
//
// pattern = unstructured (default): in each layer the floor(sparsity * n)
// weights of smallest magnitude (ties: the first in the file) are zero.
// pattern = 2:4: in each group of 4 consecutive weights along the reduction
// axis (a Conv's input channels and window, the K of MatMul / Gemm; the
// groups `passlab-cli precision --sparsity` counts), the 2 smallest are zero,
// the pattern sparse tensor cores run; `sparsity` does not apply, and a tail
// of fewer than 4 weights stays.
// pattern = channel: the floor(sparsity * channels) output channels of
// smallest L2 norm (never every one) are zero, weights and bias (a Gemm's C
// when it has one value per channel), so the channel's output is zero and
// remove_dead_channels can remove it with what only it feeds (keep_bias: the
// bias stays, so the channel holds its bias, closer to what it computed, and
// remove_dead_channels folds that constant into the next layer's bias where
// no padding is read, and keeps the channel where it is); grouped Convs
// (depthwise too) are left dense, since that pass cannot remove theirs.
// Conditions: a weight stored in the file (an initializer, also one that is
// a graph input, or a Constant's value) of a floating-point type, with at
// least min_weights elements; the node is not named in node_block_list and
// the step's node filter (--exclude-node, a recipe's node ids) lets it
// through, so `passlab-cli precision --pass prune_magnitude` ranks layers
// and keeps the most sensitive dense. The step's note counts the weights
// zeroed; the explain log gives each layer's count and resulting sparsity.
// Running it again changes nothing: the weights it zeroes are already the
// smallest.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_set>

#include "core/analysis/sparsity.h"
#include "core/passes/function_pass.h"
#include "core/passes/fusion_utils.h"
#include "core/passes/layer_weight.h"
#include "core/passes/node_policy.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"
#include "core/passes/rule_helpers.h"
#include "core/support/strings.h"

namespace passlab::passes {

namespace {

constexpr const char* kId = "prune_magnitude";

enum class PrunePattern { kUnstructured, kTwoFour, kChannel };

std::optional<PrunePattern> parsePattern(const std::string& s) {
  if (s == "unstructured") return PrunePattern::kUnstructured;
  if (s == "2:4") return PrunePattern::kTwoFour;
  if (s == "channel") return PrunePattern::kChannel;
  return std::nullopt;
}

// |x| for ordering, NaN last (kept).
double magnitude(double x) {
  return std::isnan(x) ? INFINITY : std::fabs(x);
}

// The indices of the `k` smallest of `key` (ties: the lower index).
std::vector<size_t> smallest(const std::vector<double>& key, size_t k) {
  std::vector<size_t> idx(key.size());
  std::iota(idx.begin(), idx.end(), size_t{0});
  k = std::min(k, idx.size());
  std::nth_element(
      idx.begin(), idx.begin() + static_cast<std::ptrdiff_t>(k), idx.end(),
      [&](size_t a, size_t b) { return key[a] < key[b] || (key[a] == key[b] && a < b); });
  idx.resize(k);
  return idx;
}

// One layer's weights and what the pattern zeroes in them.
struct Pruned {
  std::vector<double> w;                // the weight, zeros set
  std::vector<int64_t> zeroedChannels;  // channel pattern: the channels zeroed (sorted)
  int64_t zeroed = 0;                   // nonzero weights set to zero
};

void zeroUnstructured(Pruned& p, double sparsity) {
  std::vector<double> key(p.w.size());
  for (size_t i = 0; i < p.w.size(); ++i) key[i] = magnitude(p.w[i]);
  const auto k = static_cast<size_t>(std::floor(sparsity * static_cast<double>(p.w.size())));
  for (size_t i : smallest(key, k)) p.w[i] = 0;
}

void zeroTwoFour(Pruned& p, const analysis::WeightLayout& l) {
  for (int64_t c = 0; c < l.channels; ++c)
    for (int64_t r0 = 0; r0 + 4 <= l.reduce; r0 += 4) {
      std::vector<double> key(4);
      std::vector<size_t> at(4);
      for (int64_t j = 0; j < 4; ++j) {
        at[j] = static_cast<size_t>(c * l.channelStride + (r0 + j) * l.reduceStride);
        key[j] = magnitude(p.w[at[j]]);
      }
      for (size_t j : smallest(key, 2)) p.w[at[j]] = 0;
    }
}

void zeroChannels(Pruned& p, const analysis::WeightLayout& l, double sparsity) {
  std::vector<double> norm(static_cast<size_t>(l.channels), 0);
  for (int64_t c = 0; c < l.channels; ++c)
    for (int64_t r = 0; r < l.reduce; ++r) {
      const double x = p.w[static_cast<size_t>(c * l.channelStride + r * l.reduceStride)];
      norm[static_cast<size_t>(c)] += std::isnan(x) ? INFINITY : x * x;
    }
  const auto k =
      std::min(static_cast<size_t>(std::floor(sparsity * static_cast<double>(l.channels))),
               static_cast<size_t>(l.channels - 1));
  for (size_t c : smallest(norm, k)) {
    for (int64_t r = 0; r < l.reduce; ++r)
      p.w[static_cast<size_t>(static_cast<int64_t>(c) * l.channelStride + r * l.reduceStride)] = 0;
    p.zeroedChannels.push_back(static_cast<int64_t>(c));
  }
  std::sort(p.zeroedChannels.begin(), p.zeroedChannels.end());
}

int64_t countZeros(const std::vector<double>& w) {
  return std::count(w.begin(), w.end(), 0.0);
}

std::string percent(double share) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", 100 * share);
  return buf;
}

class Pruner {
 public:
  explicit Pruner(PassContext& ctx)
      : ctx_(ctx),
        rw_(ctx.rewriter),
        sparsity_(ctx.doubleOption("sparsity")),
        minWeights_(ctx.intOption("min_weights")) {
    for (const std::string& s : str::split(ctx.option("node_block_list"), ',')) {
      std::string name(str::trim(s));
      if (!name.empty()) blocked_.insert(name);
    }
  }

  Status run() {
    auto pattern = parsePattern(ctx_.option("pattern"));
    if (!pattern)
      return invalidArgument(Text::of("%1: pattern '%2' is not unstructured, 2:4 or channel", kId,
                                      ctx_.option("pattern")));
    pattern_ = *pattern;
    if (!(sparsity_ <= 1))
      return invalidArgument(Text::of("%1: sparsity %2 is not a fraction between 0 and 1", kId,
                                      ctx_.option("sparsity")));
    std::vector<ir::Node*> layers;
    for (const auto& n : ctx_.model().graph().nodes())
      if (isDefaultOp(*n, "Conv") || isDefaultOp(*n, "MatMul") || isDefaultOp(*n, "Gemm"))
        layers.push_back(n.get());
    PASSLAB_RETURN_IF_ERROR(forEachNode(ctx_, kId, kId, layers, [&](ir::Node& n) {
      Text why = prune(n);
      if (!why.empty() && ctx_.explain) ctx_.explain->note(n.id(), kId, std::move(why));
      return Status::ok();
    }));
    writeNote();
    return Status::ok();
  }

 private:
  // Prunes `n`; its explain note: what was zeroed, or why nothing.
  Text prune(ir::Node& n) {
    if (blocked_.count(n.name())) return "not pruned: the node is in node_block_list";
    const ir::Tensor* w = analysis::storedWeight(n.input(1));
    if (!w) return "not pruned: the weight is not a floating-point constant stored in the file";
    auto layout = analysis::weightLayout(n, *w);
    if (!layout || w->numel() == 0)
      return Text::of("not pruned: the weight %1 is not a layer's weight", w->summary());
    if (pattern_ == PrunePattern::kChannel && n.opType() == "Conv" && n.attrInt("group", 1) != 1)
      return Text::of(
          "not pruned: grouped Conv (group %1), whose channels remove_dead_channels cannot remove",
          std::to_string(n.attrInt("group", 1)));
    if (w->numel() < minWeights_)
      return Text::of("not pruned: %1 weights, fewer than min_weights", std::to_string(w->numel()));
    auto values = fusion::floatValues(*w);
    if (!values) return Text::of("not pruned: cannot read the weight %1", w->summary());
    Pruned p{*values, {}, 0};
    const int64_t zerosBefore = countZeros(p.w);
    if (pattern_ == PrunePattern::kUnstructured) zeroUnstructured(p, sparsity_);
    if (pattern_ == PrunePattern::kTwoFour) zeroTwoFour(p, *layout);
    if (pattern_ == PrunePattern::kChannel) zeroChannels(p, *layout, sparsity_);
    const int64_t zeros = countZeros(p.w);
    p.zeroed = zeros - zerosBefore;
    const bool biasChanged = pattern_ == PrunePattern::kChannel && !ctx_.boolOption("keep_bias") &&
                             zeroBias(n, p.zeroedChannels);
    if (p.zeroed > 0 || biasChanged) ++layers_;
    if (p.zeroed > 0)
      replaceConstantInput(rw_, n, 1, fusion::floatTensorLike(*w, p.w), n.input(1)->name());
    zeroed_ += p.zeroed;
    weights_ += static_cast<int64_t>(p.w.size());
    zeros_ += zeros;
    if (p.zeroed == 0 && !biasChanged)
      return Text::of("not pruned: the weights it would zero are zero already (%1% zero)",
                      percent(double(zeros) / double(p.w.size())));
    return Text::of("pruned: %1 of %2 weights set to zero, %3% of the weight zero now",
                    std::to_string(p.zeroed), std::to_string(p.w.size()),
                    percent(double(zeros) / double(p.w.size())));
  }

  // The bias entries of the zeroed channels set to zero (a Conv's B, a
  // Gemm's C when it holds one value per output channel); whether any changed.
  bool zeroBias(ir::Node& n, const std::vector<int64_t>& channels) {
    if (channels.empty() || n.inputs().size() < 3 || !n.input(2)) return false;
    const ir::Tensor* b = analysis::storedWeight(n.input(2));
    if (!b) return false;
    auto values = fusion::floatValues(*b);
    const int64_t count = analysis::weightLayout(n, *analysis::storedWeight(n.input(1)))->channels;
    if (!values || static_cast<int64_t>(values->size()) != count || b->rank() == 0) return false;
    if (n.opType() == "Gemm" && !(b->rank() == 1 || (b->rank() == 2 && b->dims()[0] == 1)))
      return false;
    bool changed = false;
    for (int64_t c : channels) {
      double& x = (*values)[static_cast<size_t>(c)];
      changed = changed || x != 0;
      x = 0;
    }
    if (changed)
      replaceConstantInput(rw_, n, 2, fusion::floatTensorLike(*b, *values), n.input(2)->name());
    return changed;
  }

  void writeNote() {
    if (!ctx_.note || layers_ == 0) return;
    *ctx_.note = Text::of(
        "%1 layers pruned (%2): %3 weights set to zero, %4% of their %5 weights zero now (each "
        "layer in the explain log)",
        std::to_string(layers_), ctx_.option("pattern"), std::to_string(zeroed_),
        percent(weights_ ? double(zeros_) / double(weights_) : 0), std::to_string(weights_));
  }

  PassContext& ctx_;
  rewrite::Rewriter& rw_;
  double sparsity_;
  int64_t minWeights_;
  std::unordered_set<std::string> blocked_;
  PrunePattern pattern_ = PrunePattern::kUnstructured;
  size_t layers_ = 0;
  int64_t zeroed_ = 0, weights_ = 0, zeros_ = 0;
};

}  // namespace

std::unique_ptr<Pass> makePruneMagnitude() {
  return std::make_unique<FunctionPass>(catalogInfo(kId),
                                        [](PassContext& ctx) { return Pruner(ctx).run(); });
}

}  // namespace passlab::passes
