#include "core/passes/residual_stream.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "core/analysis/sparsity.h"
#include "core/passes/fusion_utils.h"
#include "core/passes/rule_helpers.h"

namespace passlab::passes::residual {

using fusion::nodeText;

std::optional<ChannelConstant> channelConstant(const ir::Value* v, int64_t rank, int64_t axis,
                                               int64_t channels) {
  const ir::Tensor* t = analysis::storedWeight(v);
  if (!t) return std::nullopt;
  auto vals = fusion::floatValues(*t);
  const auto k = static_cast<int64_t>(t->rank());
  if (!vals || k > rank) return std::nullopt;
  ChannelConstant c;
  for (int64_t j = 0; j < k; ++j) {
    const int64_t d = t->dims()[static_cast<size_t>(j)];
    if (d == 1) continue;
    if (rank - k + j != axis || d != channels) return std::nullopt;
    c.ownAxis = j;
  }
  c.values.resize(static_cast<size_t>(channels));
  for (int64_t i = 0; i < channels; ++i)
    c.values[static_cast<size_t>(i)] = (*vals)[c.ownAxis < 0 ? 0 : static_cast<size_t>(i)];
  return c;
}

std::optional<double> unaryValue(const ir::Node& n, double v, int64_t opset) {
  const std::string& op = n.opType();
  if (op == "Relu") return std::max(v, 0.0);
  if (op == "Identity" || op == "Dropout") return v;
  if (op == "Neg") return -v;
  if (op == "Abs") return std::fabs(v);
  if (op == "Exp") return std::exp(v);
  if (op == "Sigmoid") return 1 / (1 + std::exp(-v));
  if (op == "Tanh") return std::tanh(v);
  if (op == "Softplus") return std::log1p(std::exp(v));
  if (op == "LeakyRelu") return v < 0 ? n.attrFloat("alpha", 0.01f) * v : v;
  if (op == "Elu") return v < 0 ? n.attrFloat("alpha", 1.0f) * std::expm1(v) : v;
  if (op == "Selu")
    return n.attrFloat("gamma", 1.05070102214813232421875f) *
           (v <= 0 ? n.attrFloat("alpha", 1.67326319217681884765625f) * std::expm1(v) : v);
  if (op == "HardSigmoid")
    return std::clamp(n.attrFloat("alpha", 0.2f) * v + n.attrFloat("beta", 0.5f), 0.0, 1.0);
  if (op == "HardSwish") return v * std::clamp(v / 6 + 0.5, 0.0, 1.0);
  if (op == "Clip") {
    double lo = -std::numeric_limits<double>::infinity(), hi = -lo;
    if (opset < 11) {
      lo = n.attrFloat("min", std::numeric_limits<float>::lowest());
      hi = n.attrFloat("max", std::numeric_limits<float>::max());
    } else {
      for (size_t i = 1; i < 3 && i < n.inputs().size(); ++i) {
        if (!n.input(i)) continue;
        auto s = fusion::scalarValue(n.input(i));
        if (!s) return std::nullopt;
        (i == 1 ? lo : hi) = *s;
      }
    }
    return std::min(std::max(v, lo), hi);
  }
  return std::nullopt;
}

bool isChannelConstant(const ir::Value* v, const ChannelAxis& a) {
  return v && channelConstant(v, a.rank, a.axis, a.channels).has_value();
}

bool isJoin(const ir::Node& n, const ChannelAxis& a) {
  if (!n.domain().empty()) return false;
  if (n.opType() == "Sum") return !n.inputs().empty();
  return n.opType() == "Add" && n.inputs().size() == 2 && !isChannelConstant(n.input(0), a) &&
         !isChannelConstant(n.input(1), a);
}

bool sameShapeInputs(const ir::Node& join, int64_t rank) {
  auto shapeOf = [](const ir::Value* v) -> const ir::Shape* {
    if (!v || !v->type().isTensor() || !v->type().shape()) return nullptr;
    return &*v->type().shape();
  };
  if (join.inputs().empty()) return false;
  const ir::Shape* first = shapeOf(join.input(0));
  bool same = first && static_cast<int64_t>(first->rank()) == rank;
  for (size_t i = 1; same && i < join.inputs().size(); ++i) {
    const ir::Shape* s = shapeOf(join.input(i));
    same = s && s->rank() == first->rank();
    for (size_t d = 0; same && d < first->rank(); ++d) same = (*first)[d].sameAs((*s)[d]);
  }
  return same;
}

bool isStreamLayer(const ir::Node& n) {
  const std::string& op = n.opType();
  return n.domain().empty() && (op == "Conv" || op == "Gemm" || op == "MatMul") &&
         !(op == "Conv" && n.attrInt("group", 1) != 1);
}

namespace {

// A Conv of more than one group that is not depthwise (its filters read
// more than one input channel each, or it has more outputs than groups).
bool isGroupedLayer(const ir::Node& n) {
  if (!n.domain().empty() || n.opType() != "Conv" || n.attrInt("group", 1) <= 1) return false;
  const ir::Tensor* w = n.inputs().size() > 1 ? analysis::storedWeight(n.input(1)) : nullptr;
  return w && w->rank() >= 3 && !(w->dims()[0] == n.attrInt("group", 1) && w->dims()[1] == 1);
}

// A depthwise Conv (one stored filter per group, as many groups as
// outputs): its output channel c comes from input channel c alone.
bool isDepthwise(const ir::Node& n) {
  if (n.opType() != "Conv" || n.attrInt("group", 1) <= 1) return false;
  const ir::Tensor* w = n.inputs().size() > 1 ? analysis::storedWeight(n.input(1)) : nullptr;
  return w && w->rank() >= 3 && w->dims()[0] == n.attrInt("group", 1) && w->dims()[1] == 1;
}

}  // namespace

Text traceBack(const ir::Node& add, const ir::Value* v, const ChannelAxis& a, int64_t opset,
               std::set<const ir::Value*>& traced, const std::function<void(ir::Node&)>& layer,
               bool grouped) {
  if (!traced.insert(v).second) return "";
  ir::Node* n = v->producer();
  if (!n)
    return Text::of("the other input of %1 is '%2', not computed by a layer", nodeText(add),
                    v->name());
  if (isStreamLayer(*n) || (grouped && isGroupedLayer(*n))) {
    layer(*n);
    return "";
  }
  const std::string& op = n->opType();
  if (n->domain().empty() && v == n->output(0)) {
    auto back = [&](const ir::Value* in) {
      return traceBack(add, in, a, opset, traced, layer, grouped);
    };
    if (isJoin(*n, a)) {
      for (const ir::Value* in : n->inputs())
        if (Text why = in ? back(in) : Text(); !why.empty()) return why;
      return "";
    }
    if ((op == "Add" || op == "Sub" || op == "Mul" || op == "Div" || op == "PRelu") &&
        n->inputs().size() == 2) {
      if (isChannelConstant(n->input(1), a)) return back(n->input(0));
      if (op != "PRelu" && isChannelConstant(n->input(0), a)) return back(n->input(1));
    }
    // A grouped Conv that is not a layer here mixes the channels of each
    // group: not passed through (channel c would not be channel c above it).
    const bool sameShape = op == "BatchNormalization" || op == "Pad" || op == "MaxPool" ||
                           op == "AveragePool" || isDepthwise(*n) ||
                           unaryValue(*n, 0.0, opset).has_value();
    if (sameShape && !n->inputs().empty() && n->input(0)) return back(n->input(0));
  }
  return Text::of("the other input of %1 comes from %2, which this pass does not trace back",
                  nodeText(add), nodeText(*n));
}

namespace {

// Whether `layer`'s output has the join's shape, with its channels on `a`'s axis.
bool laidOutAs(const ir::Node& layer, const ChannelAxis& a) {
  const int64_t axis = layer.opType() == "Conv" ? 1 : a.rank - 1;
  if (axis != a.axis) return false;
  const ir::Type& t = layer.output(0)->type();
  if (!t.isTensor() || !t.shape() || static_cast<int64_t>(t.shape()->rank()) != a.rank)
    return false;
  const ir::Dim& d = (*t.shape())[static_cast<size_t>(a.axis)];
  return d.isStatic() && d.value() == a.channels;
}

// The layers `join` sums (on the first channel axis that traces), or none.
std::vector<ir::Node*> joinedLayers(const ir::Node& join, int64_t opset) {
  auto rank = rankOf(join.input(0));
  if (!rank || *rank < 1 || !sameShapeInputs(join, *rank)) return {};
  const ir::Shape& shape = *join.input(0)->type().shape();
  for (int64_t axis : {int64_t{1}, *rank - 1}) {
    if (axis >= *rank || !shape[static_cast<size_t>(axis)].isStatic()) continue;
    const ChannelAxis a{*rank, axis, shape[static_cast<size_t>(axis)].value()};
    if (!isJoin(join, a)) continue;
    std::vector<ir::Node*> layers;
    std::set<const ir::Value*> traced;
    bool ok = true;
    for (const ir::Value* in : join.inputs())
      ok = ok && in && traceBack(join, in, a, opset, traced, [&](ir::Node& n) {
                         if (std::find(layers.begin(), layers.end(), &n) == layers.end())
                           layers.push_back(&n);
                       }).empty();
    for (const ir::Node* l : layers) ok = ok && laidOutAs(*l, a);
    if (ok) return layers;
  }
  return {};
}

}  // namespace

std::vector<Stream> residualStreams(const ir::Graph& graph, int64_t opset) {
  // Union-find over the layers, keyed by their place in the graph.
  std::map<const ir::Node*, size_t> place;
  std::vector<ir::Node*> nodes;
  for (const auto& n : graph.nodes()) {
    place.emplace(n.get(), nodes.size());
    nodes.push_back(n.get());
  }
  std::vector<size_t> parent(nodes.size());
  for (size_t i = 0; i < parent.size(); ++i) parent[i] = i;
  auto root = [&](size_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  std::vector<std::vector<ir::Node*>> joinsAt(nodes.size());
  std::vector<char> joined(nodes.size(), 0);
  for (ir::Node* n : nodes) {
    if (!n->domain().empty() || (n->opType() != "Add" && n->opType() != "Sum")) continue;
    std::vector<ir::Node*> layers = joinedLayers(*n, opset);
    if (layers.size() < 2) continue;
    const size_t first = root(place.at(layers[0]));
    for (ir::Node* l : layers) {
      joined[place.at(l)] = 1;
      parent[root(place.at(l))] = first;
    }
    joinsAt[first].push_back(n);
  }
  std::map<size_t, Stream> byRoot;
  for (size_t i = 0; i < nodes.size(); ++i)
    if (joined[i]) byRoot[root(i)].layers.push_back(nodes[i]);
  for (size_t i = 0; i < nodes.size(); ++i)
    for (ir::Node* j : joinsAt[i]) byRoot[root(i)].joins.push_back(j);
  std::vector<Stream> out;
  for (auto& [r, s] : byRoot) {
    std::sort(s.joins.begin(), s.joins.end(),
              [&](const ir::Node* x, const ir::Node* y) { return place.at(x) < place.at(y); });
    out.push_back(std::move(s));
  }
  std::sort(out.begin(), out.end(), [&](const Stream& x, const Stream& y) {
    return place.at(x.layers[0]) < place.at(y.layers[0]);
  });
  return out;
}

}  // namespace passlab::passes::residual
