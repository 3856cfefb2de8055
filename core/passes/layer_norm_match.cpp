#include "core/passes/layer_norm_match.h"

#include <algorithm>
#include <cmath>

#include "core/passes/fusion_utils.h"

namespace passlab::passes::fusion {

namespace {

// ReduceMean(v, trailing axes, keepdims = 1): the number of trailing axes, or 0 with `why`.
int64_t trailingMean(const ir::Node* n, const ir::Value* x, Text& why) {
  if (!n || n->opType() != "ReduceMean" || !n->domain().empty()) {
    why = "not a ReduceMean";
    return 0;
  }
  if (n->attrInt("keepdims", 1) != 1) {
    why = "ReduceMean has keepdims = 0";
    return 0;
  }
  auto axes = rewrite::intsFromAttrOrInput(*n, "axes", 1);
  if (!axes) {
    why = "ReduceMean axes are given as a non-constant input";
    return 0;
  }
  auto rank = rankOf(x);
  if (!rank) {
    why = "the rank of x is unknown";
    return 0;
  }
  auto na = axes->empty() ? std::nullopt : normalizeAxes(*axes, rank);
  if (!na) {
    why = "ReduceMean axes are empty or invalid";
    return 0;
  }
  std::sort(na->begin(), na->end());
  int64_t k = static_cast<int64_t>(na->size());
  for (int64_t i = 0; i < k; ++i)
    if ((*na)[i] != *rank - k + i) {
      why = Text::of("ReduceMean axes %1 are not the trailing axes", intsText(*na));
      return 0;
    }
  return k;
}

// The statistics part: `s` = Sqrt(Add(ReduceMean(Pow(Sub(x, mean), 2)), eps)).
struct Variance {
  std::vector<ir::Node*> nodes;
  double eps = 0;
};
std::optional<Variance> matchVariance(const ir::Value* s, const ir::Value* x, const ir::Value* mean,
                                      int64_t k, Text& why) {
  Variance v;
  ir::Node* sqrt = producerOp(s, "Sqrt");
  if (!sqrt) {
    why = "the divisor is not a Sqrt";
    return std::nullopt;
  }
  ir::Node* add = producerOp(sqrt->input(0), "Add");
  if (!add) {
    why = "the Sqrt input is not an Add of epsilon";
    return std::nullopt;
  }
  ir::Node* var = nullptr;
  ir::Value* epsV = nullptr;
  for (size_t i = 0; i < 2; ++i)
    if (ir::Node* p = producerOp(add->input(i), "ReduceMean")) {
      var = p;
      epsV = add->input(1 - i);
    }
  auto eps = scalarValue(epsV);
  if (!var || !eps) {
    why = "the Sqrt input is not ReduceMean + a constant epsilon";
    return std::nullopt;
  }
  Text w;
  if (trailingMean(var, var->input(0), w) != k) {
    why = "the variance ReduceMean does not reduce the same axes as the mean";
    return std::nullopt;
  }
  ir::Node* sq = var->input(0) ? var->input(0)->producer() : nullptr;
  ir::Value* dd = nullptr;
  if (sq && sq->opType() == "Pow" && sq->domain().empty() && isScalarNear(sq->input(1), 2))
    dd = sq->input(0);
  else if (sq && sq->opType() == "Mul" && sq->domain().empty() && sq->input(0) == sq->input(1))
    dd = sq->input(0);
  if (!dd) {
    why = "the variance is not the mean of a square (Pow(d, 2) or Mul(d, d))";
    return std::nullopt;
  }
  ir::Node* sub = producerOp(dd, "Sub");
  if (!sub || sub->input(0) != x || sub->input(1) != mean) {
    why = "the squared value is not Sub(x, mean)";
    return std::nullopt;
  }
  v.nodes = {sqrt, add, var, sq, sub};
  v.eps = *eps;
  return v;
}

// A constant broadcast to `dims` (its rank at most dims', leading 1s allowed), as float64.
std::optional<std::vector<double>> expandTo(const ir::Value* c, const std::vector<int64_t>& dims) {
  auto t = rewrite::constantValue(c);
  auto vals = t ? floatValues(*t) : std::nullopt;
  if (!vals) return std::nullopt;
  std::vector<int64_t> cd = t->dims();
  while (cd.size() > dims.size()) {
    if (cd.front() != 1) return std::nullopt;
    cd.erase(cd.begin());
  }
  cd.insert(cd.begin(), dims.size() - cd.size(), 1);
  int64_t n = 1;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (cd[i] != 1 && cd[i] != dims[i]) return std::nullopt;
    n *= dims[i];
  }
  std::vector<double> out(static_cast<size_t>(n));
  std::vector<int64_t> idx(dims.size(), 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t off = 0;
    for (size_t a = 0; a < dims.size(); ++a) off = off * cd[a] + (cd[a] == 1 ? 0 : idx[a]);
    out[i] = (*vals)[off];
    for (size_t a = dims.size(); a-- > 0;) {
      if (++idx[a] < dims[a]) break;
      idx[a] = 0;
    }
  }
  return out;
}

struct Affine {
  ir::Value* gamma = nullptr;  // constants, or nullptr
  ir::Value* beta = nullptr;
  ir::Node* mul = nullptr;
  ir::Node* add = nullptr;
};
// The Mul by a constant gamma and the Add of a constant beta after `n`, where present.
Affine trailingAffine(ir::Value* n) {
  Affine a;
  Text why;
  ir::Node* next = rewrite::soleConsumer(n, &why);
  if (next && next->domain().empty() && next->opType() == "Mul") {
    ir::Value* g = otherOperand(*next, n);
    if (g && rewrite::isConstant(g)) {
      a.gamma = g;
      a.mul = next;
      n = next->output(0);
      next = rewrite::soleConsumer(n, &why);
    }
  }
  if (next && next->domain().empty() && next->opType() == "Add") {
    ir::Value* b = otherOperand(*next, n);
    if (b && rewrite::isConstant(b)) {
      a.beta = b;
      a.add = next;
    }
  }
  return a;
}

// The shared tail: the checks and the constants.
std::optional<LayerNormMatch> finish(ir::Value* x, int64_t k, double eps, ir::Value* gamma,
                                     ir::Value* beta, std::vector<ir::Node*> nodes, ir::Node* last,
                                     Text& why) {
  if (why = rewrite::whyNotClosed(nodes, last); !why.empty()) return std::nullopt;
  ir::DataType dt = elemTypeOf(x);
  if (!isFloatType(dt)) {
    why = "x is not a float tensor";
    return std::nullopt;
  }
  // gamma or beta of higher rank than x ([1, 1, D] for x [N, D]) broadcasts the
  // result to a larger shape than LayerNormalization's.
  if (!rewrite::sameTensorType(x, last->output(0))) {
    why = "the result does not have x's type and shape (gamma or beta broadcasts it)";
    return std::nullopt;
  }
  LayerNormMatch m;
  const auto& xd = x->type().shape();
  for (size_t i = xd->rank() - static_cast<size_t>(k); i < xd->rank(); ++i) {
    if (!(*xd)[i].isStatic()) {
      why = "the normalized dims are not static";
      return std::nullopt;
    }
    m.normDims.push_back((*xd)[i].value());
  }
  if (gamma) {
    auto e = expandTo(gamma, m.normDims);
    if (!e) {
      why = "gamma does not broadcast to the normalized shape";
      return std::nullopt;
    }
    m.gamma = *e;
  } else {
    int64_t n = 1;
    for (int64_t d : m.normDims) n *= d;
    m.gamma.assign(static_cast<size_t>(n), 1.0);
  }
  if (beta) {
    auto e = expandTo(beta, m.normDims);
    if (!e) {
      why = "beta does not broadcast to the normalized shape";
      return std::nullopt;
    }
    m.beta = *e;
  }
  m.x = x;
  m.axes = k;
  m.epsilon = eps;
  m.dtype = dt;
  m.nodes = std::move(nodes);
  m.last = last;
  return m;
}

}  // namespace

std::optional<LayerNormMatch> matchLayerNormPyTorch(ir::Node& root, Text& why) {
  ir::Value* d = nullptr;
  ir::Value* s = nullptr;
  ir::Node* recip = nullptr;
  if (root.opType() == "Div") {
    d = root.input(0);
    s = root.input(1);
  } else {
    for (size_t i = 0; i < 2 && !recip && root.inputCount() == 2; ++i)
      if (ir::Node* r = producerOp(root.input(i), "Reciprocal")) {
        recip = r;
        d = root.input(1 - i);
        s = r->input(0);
      }
    if (!recip) {
      why = "not a Mul by a Reciprocal";
      return std::nullopt;
    }
  }
  ir::Node* sub = producerOp(d, "Sub");
  if (!sub) {
    why = "the dividend is not a Sub";
    return std::nullopt;
  }
  ir::Value* x = sub->input(0);
  ir::Value* mean = sub->input(1);
  ir::Node* meanNode = producerOp(mean, "ReduceMean");
  if (!meanNode || meanNode->input(0) != x) {
    why = "the Sub does not subtract ReduceMean(x) from x";
    return std::nullopt;
  }
  int64_t k = trailingMean(meanNode, x, why);
  if (!k) return std::nullopt;
  auto v = matchVariance(s, x, mean, k, why);
  if (!v) return std::nullopt;
  std::vector<ir::Node*> nodes{meanNode, sub};
  for (ir::Node* n : v->nodes)
    if (std::find(nodes.begin(), nodes.end(), n) == nodes.end()) nodes.push_back(n);
  if (recip) nodes.push_back(recip);
  nodes.push_back(&root);
  Affine a = trailingAffine(root.output(0));
  ir::Node* last = &root;
  if (a.mul) nodes.push_back(last = a.mul);
  if (a.add) nodes.push_back(last = a.add);
  return finish(x, k, v->eps, a.gamma, a.beta, nodes, last, why);
}

std::optional<LayerNormMatch> matchLayerNormTf(ir::Node& root, Text& why) {
  for (size_t i = 0; i < 2 && root.inputCount() == 2; ++i) {
    ir::Node* xa = producerOp(root.input(i), "Mul");
    ir::Node* sub = producerOp(root.input(1 - i), "Sub");
    if (!xa || !sub) continue;
    ir::Value* beta = sub->input(0);
    ir::Node* ma = producerOp(sub->input(1), "Mul");
    if (!ma || !rewrite::isConstant(beta)) continue;
    // ma = Mul(mean, a), xa = Mul(x, a): find the shared a
    for (size_t j = 0; j < 2; ++j) {
      ir::Value* a = ma->input(j);
      ir::Value* mean = ma->input(1 - j);
      ir::Value* x = otherOperand(*xa, a);
      ir::Node* meanNode = producerOp(mean, "ReduceMean");
      if (!x || !meanNode || meanNode->input(0) != x) continue;
      int64_t k = trailingMean(meanNode, x, why);
      if (!k) return std::nullopt;
      // a = Mul(r, gamma) or r; r = Reciprocal(s)
      ir::Value* gamma = nullptr;
      ir::Node* ag = producerOp(a, "Mul");
      ir::Node* recip = producerOp(a, "Reciprocal");
      if (ag) {
        for (size_t q = 0; q < 2 && !recip; ++q)
          if (ir::Node* r = producerOp(ag->input(q), "Reciprocal")) {
            recip = r;
            gamma = ag->input(1 - q);
          }
        if (!gamma || !rewrite::isConstant(gamma)) {
          why = "the scale is not Reciprocal(...) * constant gamma";
          return std::nullopt;
        }
      }
      if (!recip) {
        why = "no Reciprocal of the standard deviation";
        return std::nullopt;
      }
      auto v = matchVariance(recip->input(0), x, mean, k, why);
      if (!v) return std::nullopt;
      std::vector<ir::Node*> nodes{meanNode};
      for (ir::Node* n : v->nodes) nodes.push_back(n);
      nodes.push_back(recip);
      if (ag) nodes.push_back(ag);
      nodes.push_back(ma);
      nodes.push_back(sub);
      nodes.push_back(xa);
      nodes.push_back(&root);
      return finish(x, k, v->eps, gamma, beta, nodes, &root, why);
    }
  }
  why = "not Add(Mul(x, a), Sub(beta, Mul(mean, a)))";
  return std::nullopt;
}

std::optional<LayerNormMatch> matchLayerNormNode(ir::Node& ln, Text& why) {
  if (ln.opType() != "LayerNormalization" || !ln.domain().empty()) {
    why = "not a LayerNormalization";
    return std::nullopt;
  }
  if (why = whyExtraOutputsUsed(ln, 0); !why.empty()) return std::nullopt;
  ir::Value* x = ln.input(0);
  auto rank = rankOf(x);
  if (!rank) {
    why = "the rank of x is unknown";
    return std::nullopt;
  }
  int64_t axis = ln.attrInt("axis", -1);
  if (axis < 0) axis += *rank;
  if (axis < 0 || axis >= *rank) {
    why = "LayerNormalization axis is out of range";
    return std::nullopt;
  }
  ir::Value* gamma = ln.input(1);
  ir::Value* beta = ln.inputCount() > 2 ? ln.input(2) : nullptr;
  if (!gamma || !rewrite::isConstant(gamma)) {
    why = "the LayerNormalization scale is not constant";
    return std::nullopt;
  }
  if (beta && !rewrite::isConstant(beta)) {
    why = "the LayerNormalization bias is not constant";
    return std::nullopt;
  }
  double eps = ln.attrFloat("epsilon", 1e-5f);
  return finish(x, *rank - axis, eps, gamma, beta, {&ln}, &ln, why);
}

std::optional<LayerNormMatch> matchAnyLayerNorm(ir::Node& root, Text& why) {
  if (!root.domain().empty()) {
    why = "not a layer norm";
    return std::nullopt;
  }
  if (root.opType() == "LayerNormalization") return matchLayerNormNode(root, why);
  if (root.opType() == "Div" || root.opType() == "Mul") return matchLayerNormPyTorch(root, why);
  if (root.opType() == "Add") return matchLayerNormTf(root, why);
  why = "not a layer norm";
  return std::nullopt;
}

rewrite::MatchResult toLayerNormalization(LayerNormMatch m) {
  std::vector<ir::Node*> nodes = m.nodes;
  return rewrite::MatchResult::success(nodes, [m = std::move(m)](rewrite::Rewriter& rw) {
    ir::Node* last = m.last;
    ir::Graph& gr = *last->owner();
    std::vector<const ir::Node*> from(m.nodes.begin(), m.nodes.end());
    std::vector<ir::Value*> ins{m.x, addConstant(rw, gr, last, "ln_scale",
                                                 floatTensor(m.dtype, m.normDims, m.gamma), from)};
    if (!m.beta.empty())
      ins.push_back(
          addConstant(rw, gr, last, "ln_bias", floatTensor(m.dtype, m.normDims, m.beta), from));
    ir::Node* ln =
        addDerived(rw, "LayerNormalization", ins, last, from, nullptr, {last->output(0)});
    rw.setAttr(ln, ir::Attribute::makeInt("axis", -m.axes));
    rw.setAttr(ln, ir::Attribute::makeFloat("epsilon", static_cast<float>(m.epsilon)));
    replaceAndErase(rw, last->output(0), ln->output(0), m.nodes);
  });
}

}  // namespace passlab::passes::fusion
