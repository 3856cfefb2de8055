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
// no padding is read, and keeps the channel where it is); a grouped Conv
// loses as many channels in every group (floor(sparsity * channels per
// group), the weakest of each), the layout remove_dead_channels can remove;
// a depthwise Conv (one channel per group) has its filters ranked together.
// Residual streams (streams = true, the default): the layers whose outputs
// residual Adds or Sums add into one stream (residual_stream.h, the tracing
// remove_dead_channels does: a ResNet stage's downsample Conv and every
// block's last Conv) share their channels, which remove_dead_channels removes
// only where they are zero in all of them; so their channels are ranked as
// one, by the L2 norm of the channel's weights over all the stream's layers,
// and the floor(sparsity * channels) smallest are zero in every one of them.
// A layer of the stream that may not be pruned (node_block_list, the node
// filter, min_weights, a weight not stored) leaves the whole stream dense,
// with a note on each. streams = false: each layer on its own.
// Channel shuffles and grouped Convs (channel pattern, a layer outside any
// stream): where the layer's output (through Relu-like ops) is read only by
// a channel shuffle (Reshape [N, g, C/g, H, W], Transpose [0, 2, 1, 3, 4],
// Reshape back) and/or, through depthwise Convs, by a grouped Conv (not
// depthwise) of G groups, remove_dead_channels takes a channel only as
// part of a "place": the channels a * C/g + b at one b in every shuffle
// group, the same count from every input group of the grouped Conv. So the
// layer's channels are chosen as whole places, ranked by the L2 norm of all
// their channels: floor(sparsity * places) (never all), or with a grouped
// Conv reading them floor(sparsity * n) of each of its input groups (n the
// fewest places any group holds whole; never all of one); a place whose
// channels land in two input groups stays. A layer read by anything else, or
// grouped unlike the shuffle, keeps the per-layer choice. A depthwise Conv
// reading a shuffle's output has its channels chosen as the shuffle's places
// too (shuffled channels b * g + a for every a), as many in every input
// group of a grouped Conv after it, so that remove_dead_channels takes its
// zero filters back through the shuffle to the layer before it.
// Branches (channel pattern, streams = true): two or more depthwise Convs
// reading one value (a detector's heads) are pruned as one, their filters
// ranked by the summed norm, so that the map's channel goes from every
// branch and from the layer computing it; one the step may not prune
// leaves the others each on its own.
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
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <unordered_set>

#include "core/analysis/sparsity.h"
#include "core/passes/function_pass.h"
#include "core/passes/fusion_utils.h"
#include "core/passes/layer_weight.h"
#include "core/passes/node_policy.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"
#include "core/passes/residual_stream.h"
#include "core/passes/rule_helpers.h"
#include "core/passes/subgraph_skips.h"
#include "core/support/strings.h"

namespace passlab::passes {

namespace {

constexpr const char* kId = "prune_magnitude";

using fusion::nodeText;

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

// Each channel's squared L2 norm added to `norm` (NaN: infinite, kept).
void addChannelNorms(const std::vector<double>& w, const analysis::WeightLayout& l,
                     std::vector<double>& norm) {
  norm.resize(static_cast<size_t>(l.channels), 0);
  for (int64_t c = 0; c < l.channels; ++c)
    for (int64_t r = 0; r < l.reduce; ++r) {
      const double x = w[static_cast<size_t>(c * l.channelStride + r * l.reduceStride)];
      norm[static_cast<size_t>(c)] += std::isnan(x) ? INFINITY : x * x;
    }
}

// The floor(sparsity * channels) channels of smallest norm, never all (sorted).
std::vector<int64_t> weakestChannels(const std::vector<double>& norm, double sparsity) {
  const auto k =
      std::min(static_cast<size_t>(std::floor(sparsity * static_cast<double>(norm.size()))),
               norm.empty() ? size_t{0} : norm.size() - 1);
  std::vector<int64_t> out;
  for (size_t c : smallest(norm, k)) out.push_back(static_cast<int64_t>(c));
  std::sort(out.begin(), out.end());
  return out;
}

void zeroChosenChannels(Pruned& p, const analysis::WeightLayout& l,
                        const std::vector<int64_t>& channels) {
  for (int64_t c : channels)
    for (int64_t r = 0; r < l.reduce; ++r)
      p.w[static_cast<size_t>(c * l.channelStride + r * l.reduceStride)] = 0;
  p.zeroedChannels = channels;
}

// The weakest channels of a layer of `groups` groups: with one channel per
// group (depthwise; or a layer of one group) ranked together, else the
// weakest floor(sparsity * channels per group) of every group, so that
// every group keeps one size.
void zeroChannels(Pruned& p, const analysis::WeightLayout& l, double sparsity, int64_t groups) {
  std::vector<double> norm;
  addChannelNorms(p.w, l, norm);
  const int64_t per = groups > 0 && l.channels % groups == 0 ? l.channels / groups : 1;
  if (groups <= 1 || per == 1) return zeroChosenChannels(p, l, weakestChannels(norm, sparsity));
  std::vector<int64_t> chosen;
  for (int64_t g = 0; g < groups; ++g) {
    const auto from = norm.begin() + g * per;
    for (int64_t c : weakestChannels(std::vector<double>(from, from + per), sparsity))
      chosen.push_back(g * per + c);
  }
  zeroChosenChannels(p, l, chosen);
}

// ---- whole places: channel shuffles and grouped Convs after a layer ----

// The only reader of `v` (at input 0), else null.
ir::Node* onlyReader(const ir::Value* v) {
  if (!v || v->isGraphOutput() || v->uses().size() != 1 || v->uses()[0].inputIndex != 0)
    return nullptr;
  return v->uses()[0].node;
}

// Ops that keep every channel where it is, one value in, one out.
bool keepsChannels(const ir::Node& n) {
  for (const char* op : {"Relu", "Clip", "LeakyRelu", "HardSwish", "HardSigmoid", "Sigmoid",
                         "Identity", "BatchNormalization"})
    if (isDefaultOp(n, op)) return true;
  return false;
}

// `n` past the ops keeping the channels (and depthwise Convs too with
// `depthwise`): the first node that is none, or null where one of them
// has another reader.
ir::Node* pastChannelKeepers(ir::Node* n, bool depthwise) {
  auto isDepthwise = [](const ir::Node& c) {
    const ir::Tensor* w = c.inputs().size() > 1 ? analysis::storedWeight(c.input(1)) : nullptr;
    const int64_t group = c.attrInt("group", 1);
    return isDefaultOp(c, "Conv") && group > 1 && w && w->rank() >= 3 && w->dims()[0] == group &&
           w->dims()[1] == 1;
  };
  while (n && (keepsChannels(*n) || (depthwise && isDepthwise(*n)))) n = onlyReader(n->output(0));
  return n;
}

// A layer's output channels as the places they can go in: each place's
// channels, and the input group of the grouped Conv reading them it falls
// in (-1: in two).
struct Places {
  std::vector<std::vector<int64_t>> channels;
  std::vector<int64_t> group;
  int64_t groups = 1;                  // the grouped Conv's (1: none)
  const ir::Node* shuffle = nullptr;   // its first Reshape
  const ir::Node* consumer = nullptr;  // the grouped Conv
};

// The channel shuffle starting at `n` for `c` channels: its groups g and
// its last Reshape; nullopt when `n` is not one.
std::optional<std::pair<int64_t, ir::Node*>> shuffleFrom(ir::Node* n, int64_t c) {
  if (!n || !isDefaultOp(*n, "Reshape") || n->inputs().size() < 2) return std::nullopt;
  auto split = constantInts(n->input(1));
  if (!split || split->size() != 5 || (*split)[1] < 2 || (*split)[2] < 1 ||
      (*split)[1] * (*split)[2] != c)
    return std::nullopt;
  ir::Node* t = onlyReader(n->output(0));
  if (!t || !isDefaultOp(*t, "Transpose") ||
      t->attrInts("perm") != std::vector<int64_t>{0, 2, 1, 3, 4})
    return std::nullopt;
  ir::Node* m = onlyReader(t->output(0));
  if (!m || !isDefaultOp(*m, "Reshape") || m->inputs().size() < 2) return std::nullopt;
  auto merge = constantInts(m->input(1));
  if (!merge || merge->size() != 4) return std::nullopt;
  return std::make_pair((*split)[1], m);
}

// The places of Conv `n`'s `c` output channels (grouped in `layerGroups`);
// nullopt when no shuffle or grouped Conv reads them as described above.
std::optional<Places> placesOf(const ir::Node& n, int64_t c, int64_t layerGroups) {
  ir::Node* next = pastChannelKeepers(onlyReader(n.output(0)), false);
  Places p;
  int64_t g = 1;
  if (auto s = shuffleFrom(next, c)) {
    if (s->first % layerGroups != 0) return std::nullopt;
    g = s->first;
    p.shuffle = next;
    next = onlyReader(s->second->output(0));
  }
  next = pastChannelKeepers(next, true);
  if (next && isDefaultOp(*next, "Conv") && next->attrInt("group", 1) > 1 &&
      next->attrInt("group", 1) < c && c % next->attrInt("group", 1) == 0) {
    p.groups = next->attrInt("group", 1);
    p.consumer = next;
  }
  if (!p.shuffle && (!p.consumer || layerGroups > 1)) return std::nullopt;
  const int64_t per = c / g, perInput = c / p.groups;
  for (int64_t b = 0; b < per; ++b) {
    std::vector<int64_t> members;
    std::set<int64_t> inputGroups;
    for (int64_t a = 0; a < g; ++a) {
      members.push_back(a * per + b);
      inputGroups.insert((b * g + a) / perInput);  // where the shuffle puts it
    }
    p.channels.push_back(std::move(members));
    p.group.push_back(inputGroups.size() == 1 ? *inputGroups.begin() : -1);
  }
  return p;
}

// A depthwise Conv of `c` channels reading a channel shuffle's output: its
// channels as the places of the shuffle's input (shuffled channel b * g + a
// belongs to place b), with the input groups of a grouped Conv reading its
// output (through Relu-like ops), so that remove_dead_channels can take its
// zero filters back through the shuffle; nullopt when no shuffle computes
// its input.
std::optional<Places> shuffledPlacesOf(const ir::Node& n, int64_t c) {
  ir::Node* merge = n.input(0)->producer();
  ir::Node* t = merge && isDefaultOp(*merge, "Reshape") ? merge->input(0)->producer() : nullptr;
  ir::Node* split = t && isDefaultOp(*t, "Transpose") ? t->input(0)->producer() : nullptr;
  auto s = shuffleFrom(split, c);
  if (!s || s->second != merge) return std::nullopt;
  Places p;
  p.shuffle = split;
  ir::Node* next = pastChannelKeepers(onlyReader(n.output(0)), false);
  if (next && isDefaultOp(*next, "Conv") && next->attrInt("group", 1) > 1 &&
      next->attrInt("group", 1) < c && c % next->attrInt("group", 1) == 0) {
    p.groups = next->attrInt("group", 1);
    p.consumer = next;
  }
  const int64_t g = s->first, per = c / g, perInput = c / p.groups;
  for (int64_t b = 0; b < per; ++b) {
    std::vector<int64_t> members;
    for (int64_t a = 0; a < g; ++a) members.push_back(b * g + a);
    const bool oneGroup = members.front() / perInput == members.back() / perInput;
    p.group.push_back(oneGroup ? members.front() / perInput : -1);
    p.channels.push_back(std::move(members));
  }
  return p;
}

bool isDepthwiseConv(const ir::Node& c) {
  const ir::Tensor* w = c.inputs().size() > 1 ? analysis::storedWeight(c.input(1)) : nullptr;
  const int64_t group = c.attrInt("group", 1);
  return isDefaultOp(c, "Conv") && group > 1 && w && w->rank() >= 3 && w->dims()[0] == group &&
         w->dims()[1] == 1;
}

// Layers pruned as one: a residual stream (their outputs added), or the
// branches of a feature map, two or more depthwise Convs reading one value,
// whose channel remove_dead_channels removes only where every branch drops
// it (a branch the step may not prune leaves the others each on its own).
struct Unit {
  std::vector<ir::Node*> layers;
  const ir::Node* join = nullptr;   // a stream's first join
  const ir::Value* read = nullptr;  // branches: the value they read
};

// The branches of the feature maps of `graph`: for each value read (as
// input 0) by two or more depthwise Convs of one channel count, those Convs.
std::vector<Unit> depthwiseBranches(const ir::Graph& graph) {
  std::vector<Unit> out;
  std::set<const ir::Value*> seen;
  for (const auto& n : graph.nodes()) {
    if (!isDepthwiseConv(*n) || !seen.insert(n->input(0)).second) continue;
    Unit u;
    u.read = n->input(0);
    for (const ir::Use& use : n->input(0)->uses())
      if (use.inputIndex == 0 && isDepthwiseConv(*use.node) &&
          use.node->attrInt("group", 1) == n->attrInt("group", 1) &&
          std::find(u.layers.begin(), u.layers.end(), use.node) == u.layers.end())
        u.layers.push_back(use.node);
    if (u.layers.size() >= 2) out.push_back(std::move(u));
  }
  return out;
}

// The places to zero: the weakest by the summed squared norm of their
// channels, as described above (sorted channels).
std::vector<int64_t> weakestPlaces(const Places& p, const std::vector<double>& norm,
                                   double sparsity, size_t& chosenPlaces) {
  std::vector<std::vector<double>> key(static_cast<size_t>(p.groups));
  std::vector<std::vector<size_t>> index(static_cast<size_t>(p.groups));
  for (size_t i = 0; i < p.channels.size(); ++i) {
    if (p.group[i] < 0) continue;
    double sum = 0;
    for (int64_t ch : p.channels[i]) sum += norm[static_cast<size_t>(ch)];
    key[static_cast<size_t>(p.group[i])].push_back(sum);
    index[static_cast<size_t>(p.group[i])].push_back(i);
  }
  size_t fewest = key.front().size();
  for (const auto& k : key) fewest = std::min(fewest, k.size());
  const size_t most = p.groups == 1 ? p.channels.size() : fewest;  // never all of them
  const size_t k = std::min(static_cast<size_t>(std::floor(sparsity * static_cast<double>(fewest))),
                            most == 0 ? 0 : most - 1);
  std::vector<int64_t> out;
  chosenPlaces = 0;
  for (size_t g = 0; g < key.size(); ++g)
    for (size_t j : smallest(key[g], k)) {
      for (int64_t ch : p.channels[index[g][j]]) out.push_back(ch);
      ++chosenPlaces;
    }
  std::sort(out.begin(), out.end());
  return out;
}

int64_t countZeros(const std::vector<double>& w) {
  return std::count(w.begin(), w.end(), 0.0);
}

std::string percent(double share) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", 100 * share);
  return buf;
}

// A layer the pass may prune: its weight, read.
struct Layer {
  ir::Node* node = nullptr;
  const ir::Tensor* w = nullptr;
  analysis::WeightLayout layout;
  std::vector<double> values;
};

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
    if (pattern_ == PrunePattern::kChannel && ctx_.boolOption("streams")) {
      for (residual::Stream& s : residual::residualStreams(
               ctx_.model().graph(), ctx_.model().opsetVersion("").value_or(1)))
        streams_.push_back(Unit{std::move(s.layers), s.joins.front(), nullptr});
      for (Unit& u : depthwiseBranches(ctx_.model().graph())) streams_.push_back(std::move(u));
      for (size_t i = 0; i < streams_.size(); ++i)
        for (const ir::Node* l : streams_[i].layers) streamOf_[l] = i;
    }
    std::vector<ir::Node*> layers;
    for (const auto& n : ctx_.model().graph().nodes())
      if (isDefaultOp(*n, "Conv") || isDefaultOp(*n, "MatMul") || isDefaultOp(*n, "Gemm"))
        layers.push_back(n.get());
    PASSLAB_RETURN_IF_ERROR(forEachNode(ctx_, kId, kId, layers, [&](ir::Node& n) {
      auto in = streamOf_.find(&n);
      Text why = in == streamOf_.end() ? prune(n) : pruneStream(in->second, n);
      if (!why.empty() && ctx_.explain) ctx_.explain->note(n.id(), kId, std::move(why));
      return Status::ok();
    }));
    writeNote();
    return Status::ok();
  }

 private:
  // Reads `n` into `l`; "" when the pass may prune it, else why not.
  Text readLayer(ir::Node& n, Layer& l) {
    if (blocked_.count(n.name())) return "not pruned: the node is in node_block_list";
    const ir::Tensor* w = analysis::storedWeight(n.input(1));
    if (!w) return "not pruned: the weight is not a floating-point constant stored in the file";
    auto layout = analysis::weightLayout(n, *w);
    if (!layout || w->numel() == 0)
      return Text::of("not pruned: the weight %1 is not a layer's weight", w->summary());
    if (w->numel() < minWeights_)
      return Text::of("not pruned: %1 weights, fewer than min_weights", std::to_string(w->numel()));
    auto values = fusion::floatValues(*w);
    if (!values) return Text::of("not pruned: cannot read the weight %1", w->summary());
    l = Layer{&n, w, *layout, std::move(*values)};
    return "";
  }

  // Prunes `n` on its own; its explain note: what was zeroed, or why nothing.
  Text prune(ir::Node& n) {
    Layer l;
    if (Text why = readLayer(n, l); !why.empty()) return why;
    Pruned p{std::move(l.values), {}, 0};
    const int64_t zerosBefore = countZeros(p.w);
    if (pattern_ == PrunePattern::kUnstructured) zeroUnstructured(p, sparsity_);
    if (pattern_ == PrunePattern::kTwoFour) zeroTwoFour(p, l.layout);
    const int64_t groups = n.opType() == "Conv" ? n.attrInt("group", 1) : 1;
    if (pattern_ == PrunePattern::kChannel && n.opType() == "Conv")
      if (auto places = isDepthwiseConv(n) ? shuffledPlacesOf(n, l.layout.channels)
                                           : placesOf(n, l.layout.channels, groups))
        return pruneByPlaces(n, l, p, *places, zerosBefore);
    if (pattern_ == PrunePattern::kChannel) zeroChannels(p, l.layout, sparsity_, groups);
    return store(n, *l.w, p, zerosBefore);
  }

  // Prunes `n`'s channels as whole places `places`; its note.
  Text pruneByPlaces(ir::Node& n, const Layer& l, Pruned& p, const Places& places,
                     int64_t zerosBefore) {
    std::vector<double> norm;
    addChannelNorms(p.w, l.layout, norm);
    size_t chosen = 0;
    zeroChosenChannels(p, l.layout, weakestPlaces(places, norm, sparsity_, chosen));
    Text layout =
        !places.consumer ? Text::of("the same place in every group of channel shuffle %1",
                                    nodeText(*places.shuffle))
        : !places.shuffle
            ? Text::of("as many in every input group of %1", nodeText(*places.consumer))
            : Text::of(
                  "the same place in every group of channel shuffle %1, as many in every input "
                  "group of %2",
                  nodeText(*places.shuffle), nodeText(*places.consumer));
    return Text::of("%1 of %2 places zero (%3 channels each, ranked by their norm; %4); %5",
                    std::to_string(chosen), std::to_string(places.channels.size()),
                    std::to_string(places.channels.front().size()), layout,
                    store(n, *l.w, p, zerosBefore));
  }

  // The layers of stream `i` pruned as one when `n`, the first of them the
  // pass reaches, comes; the note of `n`.
  Text pruneStream(size_t i, ir::Node& n) {
    if (streamNotes_.empty()) streamNotes_.resize(streams_.size());
    auto& notes = streamNotes_[i];
    if (notes.empty()) notes = pruneStreamLayers(streams_[i]);
    return notes.at(&n);
  }

  std::map<const ir::Node*, Text> pruneStreamLayers(const Unit& s) {
    std::map<const ir::Node*, Text> notes;
    std::vector<Layer> layers(s.layers.size());
    for (size_t j = 0; j < s.layers.size(); ++j) {
      ir::Node& m = *s.layers[j];
      Text why = mayChange(ctx_, m) ? readLayer(m, layers[j])
                                    : Text("not pruned: the node is excluded from this pass");
      if (why.empty() && j > 0 && layers[j].layout.channels != layers[0].layout.channels)
        why = Text::of("%1 output channels, not %2", std::to_string(layers[j].layout.channels),
                       std::to_string(layers[0].layout.channels));
      if (why.empty()) continue;
      if (!s.join) {  // branches: each on its own, as the ones the step may prune
        for (ir::Node* other : s.layers)
          if (mayChange(ctx_, *other)) notes[other] = prune(*other);
        return notes;
      }
      for (const ir::Node* other : s.layers)
        notes[other] = Text::of(
            "not pruned: its residual stream (%1 layers, added by %2) is pruned as one, and %3 "
            "is %4",
            std::to_string(s.layers.size()), nodeText(*s.join), nodeText(m), why);
      return notes;
    }
    std::vector<double> norm;
    for (const Layer& l : layers) addChannelNorms(l.values, l.layout, norm);
    const std::vector<int64_t> chosen = weakestChannels(norm, sparsity_);
    for (Layer& l : layers) {
      Pruned p{std::move(l.values), {}, 0};
      const int64_t zerosBefore = countZeros(p.w);
      zeroChosenChannels(p, l.layout, chosen);
      notes[l.node] = store(*l.node, *l.w, p, zerosBefore, s.join ? layers.size() : 0);
      if (!s.join)
        notes[l.node] = Text::of(
            "pruned with the %1 depthwise Convs reading '%2' (%3 channels ranked over them); %4",
            std::to_string(layers.size()), s.read->name(), std::to_string(chosen.size()),
            notes[l.node]);
    }
    if (s.join) ++streamsPruned_;
    return notes;
  }

  // Writes the pruned weight of `n` (and its bias, channel pattern); the note.
  Text store(ir::Node& n, const ir::Tensor& w, Pruned& p, int64_t zerosBefore,
             size_t streamLayers = 0) {
    const int64_t zeros = countZeros(p.w);
    p.zeroed = zeros - zerosBefore;
    const bool biasChanged = pattern_ == PrunePattern::kChannel && !ctx_.boolOption("keep_bias") &&
                             zeroBias(n, p.zeroedChannels);
    if (p.zeroed > 0 || biasChanged) ++layers_;
    if (p.zeroed > 0)
      replaceConstantInput(rw_, n, 1, fusion::floatTensorLike(w, p.w), n.input(1)->name());
    zeroed_ += p.zeroed;
    weights_ += static_cast<int64_t>(p.w.size());
    zeros_ += zeros;
    if (p.zeroed == 0 && !biasChanged)
      return Text::of("not pruned: the weights it would zero are zero already (%1% zero)",
                      percent(double(zeros) / double(p.w.size())));
    const std::string share = percent(double(zeros) / double(p.w.size()));
    if (streamLayers > 0)
      return Text::of(
          "pruned with its residual stream (%1 channels ranked over its %2 layers): %3 of %4 "
          "weights set to zero, %5% of the weight zero now",
          std::to_string(p.zeroedChannels.size()), std::to_string(streamLayers),
          std::to_string(p.zeroed), std::to_string(p.w.size()), share);
    return Text::of("pruned: %1 of %2 weights set to zero, %3% of the weight zero now",
                    std::to_string(p.zeroed), std::to_string(p.w.size()), share);
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
    if (!ctx_.note) return;
    const size_t left = nodesInSubgraphs(ctx_.model().graph(), {"Conv", "MatMul", "Gemm"});
    const Text why = "the pass does not enter If/Loop/Scan bodies";
    if (layers_ == 0) {
      if (left) *ctx_.note = withNodesLeftInSubgraphs(Text(), left, why);
      return;
    }
    const std::string share = percent(weights_ ? double(zeros_) / double(weights_) : 0);
    if (streamsPruned_ > 0)
      *ctx_.note = Text::of(
          "%1 layers pruned (%2), %3 residual streams as one: %4 weights set to zero, %5% of "
          "their %6 weights zero now (each layer in the explain log)",
          std::to_string(layers_), ctx_.option("pattern"), std::to_string(streamsPruned_),
          std::to_string(zeroed_), share, std::to_string(weights_));
    else
      *ctx_.note = Text::of(
          "%1 layers pruned (%2): %3 weights set to zero, %4% of their %5 weights zero now (each "
          "layer in the explain log)",
          std::to_string(layers_), ctx_.option("pattern"), std::to_string(zeroed_), share,
          std::to_string(weights_));
    *ctx_.note = withNodesLeftInSubgraphs(*ctx_.note, left, why);
  }

  PassContext& ctx_;
  rewrite::Rewriter& rw_;
  double sparsity_;
  int64_t minWeights_;
  std::unordered_set<std::string> blocked_;
  PrunePattern pattern_ = PrunePattern::kUnstructured;
  std::vector<Unit> streams_;  // residual streams and depthwise branches
  std::map<const ir::Node*, size_t> streamOf_;
  std::vector<std::map<const ir::Node*, Text>> streamNotes_;
  size_t streamsPruned_ = 0;
  size_t layers_ = 0;
  int64_t zeroed_ = 0, weights_ = 0, zeros_ = 0;
};

}  // namespace

std::unique_ptr<Pass> makePruneMagnitude() {
  return std::make_unique<FunctionPass>(catalogInfo(kId),
                                        [](PassContext& ctx) { return Pruner(ctx).run(); });
}

}  // namespace passlab::passes
