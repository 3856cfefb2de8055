// fuse_layer_normalization — the decomposed layer norm subgraph becomes one LayerNormalization.
//
// Before (PyTorch export):
//   mean = ReduceMean(x, axes = [-1])          d  = Sub(x, mean)
//   sq   = Pow(d, 2)  or  Mul(d, d)            var = ReduceMean(sq, axes = [-1])
//   std  = Sqrt(Add(var, eps))                 n  = Div(d, std)  or  Mul(d, Reciprocal(std))
//   y    = Add(Mul(n, gamma), beta)            (the Mul and the Add are optional)
// Before (TensorFlow/Keras export, tf2onnx):
//   r = Reciprocal(Sqrt(Add(var, eps)))  (var as above)   a = Mul(r, gamma)
//   y = Add(Mul(x, a), Sub(beta, Mul(mean, a)))
// After:   y = LayerNormalization(x, gamma, beta, axis = -k, epsilon = eps)
// Algebra: both compute (x - E[x]) / sqrt(E[(x - E[x])^2] + eps) * gamma + beta
// over the last k axes; the TF form distributes it as x*a + (beta - E[x]*a)
// with a = gamma / sqrt(var + eps). LayerNormalization computes the same
// statistics (in float32 for 16-bit inputs: stash_type 1), so results agree
// within rounding (changesNumerics).
// Conditions: opset >= 17 (LayerNormalization); both ReduceMeans reduce the
// same trailing axes of x with keepdims = 1 (axes as an attribute before 18,
// as a constant input from 18: both handled); the two Subs, when there are
// two, read the same x and mean; eps, gamma and beta are constants (gamma and
// beta broadcast to the normalized shape, which must be static, and are
// expanded to it, without widening the result beyond x's shape); x is a
// float type; every intermediate is read only inside the pattern (not a
// graph output, not read in a subgraph). Without a constant gamma the scale
// is ones and a Mul by a non-constant stays after.
// Opsets: 17-28.
#include <cmath>

#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"

namespace passlab::passes {

namespace {

using rewrite::MatchContext;
using rewrite::MatchResult;

// ReduceMean(v, trailing axes, keepdims = 1): the number of trailing axes, or 0 with `why`.
int64_t trailingMean(const ir::Node* n, const ir::Value* x, std::string& why) {
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
      why = "ReduceMean axes " + intsText(*na) + " are not the trailing axes";
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
                                      int64_t k, std::string& why) {
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
  auto eps = fusion::scalarValue(epsV);
  if (!var || !eps) {
    why = "the Sqrt input is not ReduceMean + a constant epsilon";
    return std::nullopt;
  }
  std::string w;
  if (trailingMean(var, var->input(0), w) != k) {
    why = "the variance ReduceMean does not reduce the same axes as the mean";
    return std::nullopt;
  }
  ir::Node* sq = var->input(0) ? var->input(0)->producer() : nullptr;
  ir::Value* dd = nullptr;
  if (sq && sq->opType() == "Pow" && sq->domain().empty() && fusion::isScalarNear(sq->input(1), 2))
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
  auto vals = t ? fusion::floatValues(*t) : std::nullopt;
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
  std::string why;
  ir::Node* next = fusion::singleConsumer(n, why);
  if (next && next->domain().empty() && next->opType() == "Mul") {
    ir::Value* g = fusion::otherOperand(*next, n);
    if (g && rewrite::isConstant(g)) {
      a.gamma = g;
      a.mul = next;
      n = next->output(0);
      next = fusion::singleConsumer(n, why);
    }
  }
  if (next && next->domain().empty() && next->opType() == "Add") {
    ir::Value* b = fusion::otherOperand(*next, n);
    if (b && rewrite::isConstant(b)) {
      a.beta = b;
      a.add = next;
    }
  }
  return a;
}

// The shared tail: checks, constants, the new node.
MatchResult finish(const MatchContext& c, ir::Value* x, int64_t k, double eps, ir::Value* gamma,
                   ir::Value* beta, std::vector<ir::Node*> nodes, ir::Node* last) {
  if (std::string why = fusion::whyNotClosed(nodes, last); !why.empty())
    return MatchResult::failure(why);
  ir::DataType dt = elemTypeOf(x);
  if (!fusion::isFloatType(dt)) return MatchResult::failure("x is not a float tensor");
  // gamma or beta of higher rank than x ([1, 1, D] for x [N, D]) broadcasts the
  // result to a larger shape than LayerNormalization's.
  if (!rewrite::sameTensorType(x, last->output(0)))
    return MatchResult::failure(
        "the result does not have x's type and shape (gamma or beta "
        "broadcasts it)");
  auto xd = x->type().shape();
  std::vector<int64_t> norm;
  for (size_t i = xd->rank() - static_cast<size_t>(k); i < xd->rank(); ++i) {
    if (!(*xd)[i].isStatic()) return MatchResult::failure("the normalized dims are not static");
    norm.push_back((*xd)[i].value());
  }
  std::vector<double> g, b;
  if (gamma) {
    auto e = expandTo(gamma, norm);
    if (!e) return MatchResult::failure("gamma does not broadcast to the normalized shape");
    g = *e;
  } else {
    int64_t n = 1;
    for (int64_t d : norm) n *= d;
    g.assign(static_cast<size_t>(n), 1.0);
  }
  if (beta) {
    auto e = expandTo(beta, norm);
    if (!e) return MatchResult::failure("beta does not broadcast to the normalized shape");
    b = *e;
  }
  int64_t axis = -k;
  return MatchResult::success(nodes, [x, dt, norm, g, b, eps, axis, nodes,
                                      last](rewrite::Rewriter& rw) {
    ir::Graph& gr = *last->owner();
    std::vector<const ir::Node*> from(nodes.begin(), nodes.end());
    std::vector<ir::Value*> ins{
        x, addConstant(rw, gr, last, "ln_scale", fusion::floatTensor(dt, norm, g), from)};
    if (!b.empty())
      ins.push_back(addConstant(rw, gr, last, "ln_bias", fusion::floatTensor(dt, norm, b), from));
    ir::Node* ln =
        fusion::addDerived(rw, "LayerNormalization", ins, last, from, nullptr, {last->output(0)});
    rw.setAttr(ln, ir::Attribute::makeInt("axis", axis));
    rw.setAttr(ln, ir::Attribute::makeFloat("epsilon", static_cast<float>(eps)));
    fusion::replaceAndErase(rw, last->output(0), ln->output(0), nodes);
  });
}

// Rooted at the normalizing Div (or Mul by a Reciprocal).
MatchResult pytorchForm(ir::Node& root, const MatchContext& c) {
  if (std::string why = fusion::whyNotOpset(c, 17, 28, "LayerNormalization"); !why.empty())
    return MatchResult::failure(why);
  ir::Value* d = nullptr;
  ir::Value* s = nullptr;
  ir::Node* recip = nullptr;
  if (root.opType() == "Div") {
    d = root.input(0);
    s = root.input(1);
  } else {
    for (size_t i = 0; i < 2 && !recip; ++i)
      if (ir::Node* r = producerOp(root.input(i), "Reciprocal")) {
        recip = r;
        d = root.input(1 - i);
        s = r->input(0);
      }
    if (!recip) return MatchResult::failure("not a Mul by a Reciprocal");
  }
  ir::Node* sub = producerOp(d, "Sub");
  if (!sub) return MatchResult::failure("the dividend is not a Sub");
  ir::Value* x = sub->input(0);
  ir::Value* mean = sub->input(1);
  ir::Node* meanNode = producerOp(mean, "ReduceMean");
  if (!meanNode || meanNode->input(0) != x)
    return MatchResult::failure("the Sub does not subtract ReduceMean(x) from x");
  std::string why;
  int64_t k = trailingMean(meanNode, x, why);
  if (!k) return MatchResult::failure(why);
  auto v = matchVariance(s, x, mean, k, why);
  if (!v) return MatchResult::failure(why);
  std::vector<ir::Node*> nodes{meanNode, sub};
  for (ir::Node* n : v->nodes)
    if (std::find(nodes.begin(), nodes.end(), n) == nodes.end()) nodes.push_back(n);
  if (recip) nodes.push_back(recip);
  nodes.push_back(&root);
  Affine a = trailingAffine(root.output(0));
  ir::Node* last = &root;
  if (a.mul) nodes.push_back(last = a.mul);
  if (a.add) nodes.push_back(last = a.add);
  return finish(c, x, k, v->eps, a.gamma, a.beta, nodes, last);
}

// Rooted at the final Add of the TF form: Add(Mul(x, a), Sub(beta, Mul(mean, a))).
MatchResult tfForm(ir::Node& root, const MatchContext& c) {
  if (std::string why = fusion::whyNotOpset(c, 17, 28, "LayerNormalization"); !why.empty())
    return MatchResult::failure(why);
  for (size_t i = 0; i < 2; ++i) {
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
      ir::Value* x = fusion::otherOperand(*xa, a);
      ir::Node* meanNode = producerOp(mean, "ReduceMean");
      if (!x || !meanNode || meanNode->input(0) != x) continue;
      std::string why;
      int64_t k = trailingMean(meanNode, x, why);
      if (!k) return MatchResult::failure(why);
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
        if (!gamma || !rewrite::isConstant(gamma))
          return MatchResult::failure("the scale is not Reciprocal(...) * constant gamma");
      }
      if (!recip) return MatchResult::failure("no Reciprocal of the standard deviation");
      auto v = matchVariance(recip->input(0), x, mean, k, why);
      if (!v) return MatchResult::failure(why);
      std::vector<ir::Node*> nodes{meanNode};
      for (ir::Node* n : v->nodes) nodes.push_back(n);
      nodes.push_back(recip);
      if (ag) nodes.push_back(ag);
      nodes.push_back(ma);
      nodes.push_back(sub);
      nodes.push_back(xa);
      nodes.push_back(&root);
      return finish(c, x, k, v->eps, gamma, beta, nodes, &root);
    }
  }
  return MatchResult::failure("not Add(Mul(x, a), Sub(beta, Mul(mean, a)))");
}

fusion::Rules rules() {
  fusion::Rules r;
  // (x - mean) / sqrt(var + eps) * gamma + beta -> LayerNormalization(x, gamma, beta)
  fusion::addRule(r, "layer_norm", "(x - E[x]) / sqrt(Var[x] + eps) * g + b -> LayerNormalization",
                  {"Div", "Mul"}, pytorchForm);
  // x * a + (beta - E[x] * a), a = g / sqrt(Var[x] + eps) -> LayerNormalization
  fusion::addRule(r, "layer_norm_tf",
                  "x*a + (b - E[x]*a), a = g/sqrt(Var[x]+eps) -> LayerNormalization", {"Add"},
                  tfForm);
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeFuseLayerNormalization() {
  PassInfo info{"fuse_layer_normalization",
                Category::kReadWrite,
                "fusion: into one standard op",
                "Fuse the decomposed layer norm subgraph (PyTorch and TensorFlow exports) into "
                "LayerNormalization",
                "将分解的层归一化子图（PyTorch 与 TensorFlow 导出形式）融合为 LayerNormalization",
                {},
                17,
                28,
                true};
  return std::make_unique<PatternPass>(std::move(info), rules());
}

}  // namespace passlab::passes
