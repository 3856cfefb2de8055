// fuse_ort_attention — the self-attention subgraph of GPT-2 and BERT style
// models becomes ONNX Runtime's Attention (ONNX Runtime target).
//
// Before:  qkv = x · W (+ b)            (MatMul [+ Add], or Reshape -> Gemm -> Reshape)
//          q, k, v = Split(qkv, last axis)  (or three Slices of it)
//          each: Reshape to [B, S, N, H], Transpose to [B, N, S, H] (k to [B, N, H, S])
//          with a cache: k = Concat(past[0], k), v = Concat(past[1], v) along the sequence
//          (past [2, B, N, P, H] read by Gather(past, i) or Squeeze(Split(past)[i]))
//          p = Softmax(mask(scale * (q · kᵀ)))  (scale: Div/Mul on q, kᵀ or the product)
//          y = Reshape(Transpose(p · v, [0, 2, 1, 3]), [B, S, N*H])
//          present = Concat(Unsqueeze(k), Unsqueeze(v))   (k, v as [B, N, T, H])
//          mask (any of): Where(causal, s, -10000) with `causal` the slice [T-S:T, 0:T]
//          of a constant lower-triangular matrix (GPT-2); s * m - 10000 * (1 - m) with m
//          the slice [T-S:T, 0:T] of a [B, 1, M, M] tensor (Megatron); s + k * (1 - m4),
//          m4 a [B, T] mask unsqueezed to [B, 1, 1, T] (BERT, GPT-2 padding)
// After:   y, present = com.microsoft.Attention<num_heads = N, unidirectional>
//                          (x, W, b, [Cast<int32>(mask)], [past])
// Algebra: Attention computes exactly this: Q, K and V from one packed
// weight (columns [Q | K | V], heads in order within each, as the Reshape
// splits them), K and V after the cache, softmax(Q Kᵀ · scale + mask) V with
// heads merged back, and present = [K; V]. unidirectional masks t > P + s,
// which is what the triangular slice keeps (the -10000 it writes and the
// kernel's mask value both vanish in the softmax). The Megatron mask goes
// in as a 4-D mask_index (rows P..P+S-1 and columns 0..T-1 are read), the
// padding mask as a 2-D one; 0 masks with the subgraph's constant (-10000)
// as mask_filter_value. That is equal only when the mask holds 0s and 1s, as
// ONNX Runtime assumes; option assume_binary_mask (default true) says the
// model's masks are such (a bool mask cast to float is). Results agree
// within rounding (changesNumerics).
// Conditions: Softmax over the last axis of a rank-4 tensor; Q, K and V of
// one width D = N*H from the same x [B, S, Din] with constant weights (and
// bias); the heads reshape [B, S, D] -> [B, S, N, H] (checked on the
// inferred shapes; the Shape/Gather/Concat arithmetic that feeds them goes
// with the subgraph); the scale factors scalar constants (a scale other than
// 1/sqrt(H) becomes the `scale` attribute); slice bounds proved equal to
// T - S, T and 0 from the Shape arithmetic; mask constants k of magnitude
// 1000 or more; every intermediate read only inside the subgraph or by Shape
// nodes (shape arithmetic read elsewhere too, such as position ids computed
// from the cache length, keeps what it reads); the context and present
// outputs replace the Reshape and the Concat.
// Opsets: 1-28.
#include <array>
#include <cmath>
#include <cstring>
#include <map>
#include <set>

#include "core/passes/ort_fusion_utils.h"
#include "core/passes/pass.h"

namespace passlab::passes {

namespace {

using rewrite::MatchContext;
using rewrite::MatchResult;

ir::Node* defaultOp(const ir::Value* v, std::string_view op) {
  return producerOp(v, op);
}

// ---- shape arithmetic: integers as a constant plus symbolic dims ----

struct Lin {
  int64_t c = 0;
  std::map<std::string, int64_t> terms;  // symbolic dim -> coefficient
  bool operator==(const Lin& o) const { return c == o.c && terms == o.terms; }
};

Lin combine(Lin a, const Lin& b, int64_t sign) {
  a.c += sign * b.c;
  for (const auto& [k, v] : b.terms) {
    a.terms[k] += sign * v;
    if (a.terms[k] == 0) a.terms.erase(k);
  }
  return a;
}

std::optional<Lin> linOfDim(const ir::Dim& d) {
  Lin l;
  if (d.isStatic()) {
    l.c = d.value();
    return l;
  }
  if (d.isSymbolic()) {
    l.terms[d.param()] = 1;
    return l;
  }
  return std::nullopt;
}

std::optional<Lin> dimOf(const ir::Value* v, int64_t axis) {
  if (!v || !v->type().hasShape()) return std::nullopt;
  const ir::Shape& s = *v->type().shape();
  if (axis < 0) axis += static_cast<int64_t>(s.rank());
  if (axis < 0 || axis >= static_cast<int64_t>(s.rank())) return std::nullopt;
  return linOfDim(s[static_cast<size_t>(axis)]);
}

bool isIntType(ir::DataType t) {
  return t == ir::DataType::kInt64 || t == ir::DataType::kInt32;
}

// The elements of a small integer tensor built by shape arithmetic.
std::optional<std::vector<Lin>> linsOf(const ir::Value* v, int depth = 0) {
  if (!v || depth > 24) return std::nullopt;
  if (auto t = rewrite::constantValue(v)) {
    if (!isIntType(t->dtype()) || t->numel() > 16) return std::nullopt;
    std::vector<Lin> out;
    for (int64_t x : t->toInt64Vector()) out.push_back(Lin{x, {}});
    return out;
  }
  ir::Node* n = v->producer();
  if (!n || !n->domain().empty()) return std::nullopt;
  const std::string& op = n->opType();
  if (op == "Shape") {
    if (n->hasAttr("start") || n->hasAttr("end")) return std::nullopt;
    const ir::Value* u = n->input(0);
    auto r = rankOf(u);
    if (!r) return std::nullopt;
    std::vector<Lin> out;
    for (int64_t i = 0; i < *r; ++i) {
      auto d = dimOf(u, i);
      if (!d) return std::nullopt;
      out.push_back(*d);
    }
    return out;
  }
  if (op == "Squeeze" || op == "Unsqueeze" || op == "Reshape" || op == "Identity" ||
      (op == "Cast" && isIntType(elemTypeOf(v))))
    return linsOf(n->input(0), depth + 1);
  if (op == "Gather") {
    auto a = linsOf(n->input(0), depth + 1);
    auto idx = constantInts(n->input(1));
    if (!a || !idx || n->attrInt("axis", 0) != 0) return std::nullopt;
    std::vector<Lin> out;
    for (int64_t i : *idx) {
      if (i < 0) i += static_cast<int64_t>(a->size());
      if (i < 0 || i >= static_cast<int64_t>(a->size())) return std::nullopt;
      out.push_back((*a)[static_cast<size_t>(i)]);
    }
    return out;
  }
  if (op == "Slice") {
    auto a = linsOf(n->input(0), depth + 1);
    std::string why;
    auto p = fusion::sliceParams(*n, 1, why);
    if (!a || !p || p->starts.size() != 1 || p->axes[0] != 0) return std::nullopt;
    auto r = fusion::resolveSlice(p->starts[0], p->ends[0], p->steps[0],
                                  static_cast<int64_t>(a->size()));
    std::vector<Lin> out;
    for (int64_t i = 0; i < r.count; ++i)
      out.push_back((*a)[static_cast<size_t>(r.start + i * r.step)]);
    return out;
  }
  if (op == "Split") {
    auto a = linsOf(n->input(0), depth + 1);
    if (!a || n->attrInt("axis", 0) != 0) return std::nullopt;
    std::vector<int64_t> sizes;
    if (auto sp = rewrite::intsFromAttrOrInput(*n, "split", 1); sp && !sp->empty()) {
      sizes = *sp;
    } else {
      const auto k = static_cast<int64_t>(n->outputCount());
      if (static_cast<int64_t>(a->size()) % k) return std::nullopt;
      sizes.assign(static_cast<size_t>(k), static_cast<int64_t>(a->size()) / k);
    }
    int64_t off = 0;
    for (int i = 0; i < v->producerOutputIndex(); ++i) off += sizes[static_cast<size_t>(i)];
    const int64_t len = sizes[static_cast<size_t>(v->producerOutputIndex())];
    if (off + len > static_cast<int64_t>(a->size())) return std::nullopt;
    return std::vector<Lin>(a->begin() + off, a->begin() + off + len);
  }
  if (op == "Concat") {
    std::vector<Lin> out;
    for (const ir::Value* in : n->inputs()) {
      auto a = linsOf(in, depth + 1);
      if (!a) return std::nullopt;
      out.insert(out.end(), a->begin(), a->end());
    }
    return out;
  }
  if (op == "Add" || op == "Sub" || op == "Mul") {
    auto a = linsOf(n->input(0), depth + 1);
    auto b = linsOf(n->input(1), depth + 1);
    if (!a || !b || a->empty() || b->empty()) return std::nullopt;
    size_t len = std::max(a->size(), b->size());
    if ((a->size() != 1 && a->size() != len) || (b->size() != 1 && b->size() != len))
      return std::nullopt;
    std::vector<Lin> out;
    for (size_t i = 0; i < len; ++i) {
      const Lin& x = (*a)[a->size() == 1 ? 0 : i];
      const Lin& y = (*b)[b->size() == 1 ? 0 : i];
      if (op == "Mul") {
        const Lin* k = x.terms.empty() ? &x : (y.terms.empty() ? &y : nullptr);
        if (!k) return std::nullopt;
        const Lin& o = k == &x ? y : x;
        Lin r{o.c * k->c, {}};
        for (const auto& [s, c] : o.terms)
          if (c * k->c != 0) r.terms[s] = c * k->c;
        out.push_back(r);
      } else {
        out.push_back(combine(x, y, op == "Add" ? 1 : -1));
      }
    }
    return out;
  }
  return std::nullopt;
}

// The shape-arithmetic producers of `v` (to be removed with the subgraph when unused).
void shapeProducers(const ir::Value* v, std::vector<ir::Node*>& out, int depth = 0) {
  if (!v || depth > 24) return;
  ir::Node* n = v->producer();
  if (!n || !n->domain().empty() || !isIntType(elemTypeOf(v))) return;
  static const std::set<std::string> kOps = {"Shape",    "Gather",  "Slice", "Squeeze", "Unsqueeze",
                                             "Concat",   "Cast",    "Add",   "Sub",     "Mul",
                                             "Identity", "Reshape", "Split"};
  if (!kOps.count(n->opType())) return;
  if (std::find(out.begin(), out.end(), n) != out.end()) return;
  out.push_back(n);
  if (n->opType() == "Shape") return;
  for (const ir::Value* in : n->inputs()) shapeProducers(in, out, depth + 1);
}

// ---- the slice of a mask: rows [T - S, T), columns [0, T) ----

// Walks Slices up from `v` and returns the sliced tensor; `b` gets the
// bounds on axes 2 and 3 (of a rank-4 source). nullptr with `why`.
struct SliceBounds {
  std::optional<Lin> rowStart, rowEnd, colStart, colEnd;
};
ir::Value* sliceSource(ir::Value* v, SliceBounds& b, std::vector<ir::Node*>& nodes,
                       std::string& why) {
  while (ir::Node* s = defaultOp(v, "Slice")) {
    ir::Value* src = s->input(0);
    auto rank = rankOf(src);
    if (rank != 4) {
      why = "the mask slice is not of a rank-4 tensor";
      return nullptr;
    }
    std::vector<Lin> starts, ends;
    std::vector<int64_t> axes, steps;
    if (s->hasAttr("starts")) {
      for (int64_t x : s->attrInts("starts")) starts.push_back(Lin{x, {}});
      for (int64_t x : s->attrInts("ends")) ends.push_back(Lin{x, {}});
      axes = s->attrInts("axes");
    } else {
      auto st = linsOf(s->input(1));
      auto en = linsOf(s->input(2));
      if (!st || !en) {
        why = "the mask slice bounds are not shape arithmetic PassLab can follow";
        return nullptr;
      }
      starts = *st;
      ends = *en;
      if (s->input(3)) {
        auto a = constantInts(s->input(3));
        if (!a) {
          why = "the mask slice axes are not constant";
          return nullptr;
        }
        axes = *a;
      }
      if (s->inputCount() > 4 && s->input(4)) {
        auto st4 = constantInts(s->input(4));
        if (!st4) {
          why = "the mask slice steps are not constant";
          return nullptr;
        }
        steps = *st4;
      }
    }
    if (axes.empty())
      for (size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<int64_t>(i));
    if (starts.size() != axes.size() || ends.size() != axes.size()) {
      why = "the mask slice bounds and axes differ in length";
      return nullptr;
    }
    for (int64_t st : steps)
      if (st != 1) {
        why = "the mask slice has a step other than 1";
        return nullptr;
      }
    for (size_t i = 0; i < axes.size(); ++i) {
      int64_t a = axes[i] < 0 ? axes[i] + 4 : axes[i];
      if (a == 2 && !b.rowStart) {
        b.rowStart = starts[i];
        b.rowEnd = ends[i];
      } else if (a == 3 && !b.colStart) {
        b.colStart = starts[i];
        b.colEnd = ends[i];
      } else {
        why = "the mask is sliced on axis " + std::to_string(a) + " or twice on one axis";
        return nullptr;
      }
    }
    nodes.push_back(s);
    for (size_t i = 1; i < s->inputCount(); ++i) shapeProducers(s->input(i), nodes);
    v = src;
  }
  return v;
}

// "" when the bounds select rows [T - S, T) and columns [0, T) of the scores [.., S, T].
std::string whyNotCurrentRows(const SliceBounds& b, const ir::Value* scores) {
  auto S = dimOf(scores, 2);
  auto T = dimOf(scores, 3);
  if (!S || !T) return "the sequence lengths of the scores are unknown";
  if (!b.rowStart || !b.colStart) return "the mask is not sliced on both of its last two axes";
  Lin zero;
  if (!(*b.rowStart == combine(*T, *S, -1)) || !(*b.rowEnd == *T))
    return "the mask rows are not [total - sequence, total) (the current positions)";
  if (!(*b.colStart == zero) || !(*b.colEnd == *T)) return "the mask columns are not [0, total)";
  return "";
}

// ---- layouts of Q, K and V: tensors whose axes hold B (0), N (1), the sequence (2), H (3) ----

struct Desc {
  std::array<int, 4> axes{};    // canonical axis held by each tensor axis
  ir::Node* reshape = nullptr;  // Reshape([B, S, D] -> [B, S, N, H]) of the current step
  ir::Value* past = nullptr;    // the cache [2, B, N, P, H], when concatenated in front
  int64_t pastIndex = -1;       // 0: keys, 1: values
  bool isPast = false;          // the cache alone
  std::vector<ir::Node*> nodes;
};

std::optional<Desc> describe(ir::Value* v, std::string& why, int depth = 0) {
  if (depth > 8) {
    why = "the Q/K/V path is too long";
    return std::nullopt;
  }
  ir::Node* n = v ? v->producer() : nullptr;
  if (!n || !n->domain().empty()) {
    why = "'" + (v ? v->name() : std::string("?")) + "' is not produced by a Reshape/Transpose";
    return std::nullopt;
  }
  const std::string& op = n->opType();
  if (op == "Transpose") {
    auto d = describe(n->input(0), why, depth + 1);
    auto perm = fusion::transposePerm(*n);
    if (!d || !perm || perm->size() != 4) {
      if (d) why = "a Transpose in the Q/K/V path is not of rank 4";
      return std::nullopt;
    }
    std::array<int, 4> a{};
    for (size_t i = 0; i < 4; ++i) a[i] = d->axes[static_cast<size_t>((*perm)[i])];
    d->axes = a;
    d->nodes.push_back(n);
    return d;
  }
  if (op == "Reshape") {
    ir::Value* in = n->input(0);
    auto r = rankOf(n->output(0));
    if (r != 4 || rankOf(in) != 3) {
      why = "a Reshape in the Q/K/V path does not split [B, S, D] into [B, S, N, H]";
      return std::nullopt;
    }
    const ir::Shape& os = *n->output(0)->type().shape();
    const ir::Shape& is = *in->type().shape();
    if (!os[0].sameAs(is[0]) || !os[1].sameAs(is[1]) || !os[2].isStatic() || !os[3].isStatic() ||
        !is[2].isStatic() || os[2].value() * os[3].value() != is[2].value()) {
      why = "the Reshape of '" + in->name() + "' does not split [B, S, D] into [B, S, N, H] (" +
            typeText(in) + " -> " + typeText(n->output(0)) + ")";
      return std::nullopt;
    }
    Desc d;
    d.axes = {0, 2, 1, 3};
    d.reshape = n;
    d.nodes.push_back(n);
    shapeProducers(n->input(1), d.nodes);
    return d;
  }
  if (op == "Gather" || op == "Squeeze") {
    // The cache: Gather(past, i) or Squeeze(Split(past, axis 0)[i], axis 0).
    ir::Value* past = nullptr;
    int64_t idx = -1;
    std::vector<ir::Node*> nodes{n};
    if (op == "Gather") {
      auto i = fusion::scalarValue(n->input(1));
      if (n->attrInt("axis", 0) == 0 && i && rankOf(n->input(1)) == 0) {
        past = n->input(0);
        idx = static_cast<int64_t>(*i);
      }
    } else {
      auto axes = rewrite::intsFromAttrOrInput(*n, "axes", 1);
      ir::Node* sp = defaultOp(n->input(0), "Split");
      if (axes && *axes == std::vector<int64_t>{0} && sp && sp->attrInt("axis", 0) == 0 &&
          sp->outputCount() == 2) {
        past = sp->input(0);
        idx = n->input(0)->producerOutputIndex();
        nodes.push_back(sp);
      }
    }
    auto pr = rankOf(past);
    if (!past || pr != 5 || (idx != 0 && idx != 1) || !past->type().shape() ||
        !(*past->type().shape())[0].sameAs(ir::Dim(2))) {
      why = "'" + v->name() + "' is not the keys or values of a [2, B, N, P, H] cache";
      return std::nullopt;
    }
    Desc d;
    d.axes = {0, 1, 2, 3};
    d.past = past;
    d.pastIndex = idx;
    d.isPast = true;
    d.nodes = nodes;
    return d;
  }
  if (op == "Concat" && n->inputCount() == 2) {
    auto a = describe(n->input(0), why, depth + 1);
    if (!a) return std::nullopt;
    auto b = describe(n->input(1), why, depth + 1);
    if (!b) return std::nullopt;
    if (!a->isPast || b->isPast || b->past || a->axes != b->axes) {
      why = "the Concat is not the cache followed by the current step, in one layout";
      return std::nullopt;
    }
    int64_t axis = n->attrInt("axis", 0);
    if (axis < 0) axis += 4;
    if (axis < 0 || axis > 3 || b->axes[static_cast<size_t>(axis)] != 2) {
      why = "the cache is not concatenated along the sequence axis";
      return std::nullopt;
    }
    b->past = a->past;
    b->pastIndex = a->pastIndex;
    b->nodes.insert(b->nodes.end(), a->nodes.begin(), a->nodes.end());
    b->nodes.push_back(n);
    return b;
  }
  why = "'" + v->name() + "' comes from a " + op + ", not a head Reshape/Transpose";
  return std::nullopt;
}

// Strips Div/Mul by scalar constants, multiplying `scale` by what they apply.
ir::Value* stripScale(ir::Value* v, double& scale, std::vector<ir::Node*>& nodes) {
  for (;;) {
    ir::Node* n = v ? v->producer() : nullptr;
    if (!n || !n->domain().empty() || n->inputCount() != 2) return v;
    if (n->opType() == "Div") {
      auto c = fusion::scalarValue(n->input(1));
      if (!c || *c == 0 || rewrite::isConstant(n->input(0))) return v;
      scale /= *c;
      v = n->input(0);
    } else if (n->opType() == "Mul") {
      size_t ci = rewrite::isConstant(n->input(1)) ? 1 : 0;
      auto c = fusion::scalarValue(n->input(ci));
      if (!c || rewrite::isConstant(n->input(1 - ci))) return v;
      scale *= *c;
      v = n->input(1 - ci);
    } else {
      return v;
    }
    nodes.push_back(n);
  }
}

// ---- the QKV projection ----

struct Projection {
  ir::Value* x = nullptr;
  ir::Value* weights = nullptr;  // reusable as is, or nullptr
  std::optional<ir::Tensor> newWeights;
  std::optional<ir::Tensor> bias;  // [3D], when the projection has one
  ir::Value* biasValue = nullptr;  // reusable as is, or nullptr
  std::vector<ir::Node*> nodes;
};

// x · W (+ b) producing `p` [B, S, W cols]: MatMul (+ Add) or Reshape -> Gemm -> Reshape.
// The weights as [Din, cols] and the bias [cols] (nullopt: none).
struct Linear {
  ir::Value* x = nullptr;
  ir::Tensor w;
  ir::Value* wValue = nullptr;  // the constant when it is [Din, cols] already
  std::optional<ir::Tensor> b;
  ir::Value* bValue = nullptr;
  std::vector<ir::Node*> nodes;
};

std::optional<Linear> linearOf(ir::Value* p, std::string& why) {
  Linear l;
  ir::Value* mm = p;
  if (ir::Node* add = defaultOp(p, "Add")) {
    std::string w;
    auto ba = ortfusion::biasAddOf(p, w);
    if (!ba) {
      why = "the projection Add is not a bias: " + w;
      return std::nullopt;
    }
    l.b = rewrite::constantValue(ba->bias);
    l.bValue = ba->bias;
    l.nodes.push_back(add);
    mm = ba->input;
  }
  if (ir::Node* m = defaultOp(mm, "MatMul")) {
    auto w = rewrite::constantValue(m->input(1));
    if (!w || w->rank() != 2 || rankOf(m->input(0)) != 3) {
      why = "the projection MatMul does not multiply a [B, S, Din] input by constant 2-D weights";
      return std::nullopt;
    }
    l.x = m->input(0);
    l.w = *w;
    l.wValue = m->input(1);
    l.nodes.push_back(m);
    return l;
  }
  ir::Node* r2 = defaultOp(mm, "Reshape");
  ir::Node* g = r2 ? defaultOp(r2->input(0), "Gemm") : nullptr;
  ir::Node* r1 = g ? defaultOp(g->input(0), "Reshape") : nullptr;
  if (!r1 || l.b) {
    why = "the Q/K/V projection is not x · W (+ b): MatMul (+ Add) or Reshape -> Gemm -> Reshape";
    return std::nullopt;
  }
  ir::Value* x = r1->input(0);
  auto w = rewrite::constantValue(g->input(1));
  if (g->attrFloat("alpha", 1) != 1 || g->attrFloat("beta", 1) != 1 || g->attrInt("transA", 0) ||
      !w || w->rank() != 2 || rankOf(x) != 3 || rankOf(r1->output(0)) != 2 ||
      rankOf(r2->output(0)) != 3) {
    why = "the projection Gemm is not x · W + b on the flattened [B*S, Din] input";
    return std::nullopt;
  }
  const ir::Shape& xs = *x->type().shape();
  const ir::Shape& fs = *r1->output(0)->type().shape();
  const ir::Shape& os = *r2->output(0)->type().shape();
  if (!xs[2].isStatic() || !fs[1].sameAs(xs[2]) || !os[0].sameAs(xs[0]) || !os[1].sameAs(xs[1])) {
    why = "the Reshapes around the projection Gemm do not flatten [B, S, Din] and restore [B, S]";
    return std::nullopt;
  }
  l.x = x;
  if (g->attrInt("transB", 0)) {
    auto t = fusion::transposeTensor(*w, {1, 0});
    if (!t) {
      why = "the projection weights cannot be transposed";
      return std::nullopt;
    }
    l.w = *t;
  } else {
    l.w = *w;
    l.wValue = g->input(1);
  }
  if (g->inputCount() > 2 && g->input(2)) {
    auto b = rewrite::constantValue(g->input(2));
    if (!b || b->rank() != 1 || b->dims()[0] != l.w.dims()[1]) {
      why = "the projection Gemm bias is not a constant [cols] vector";
      return std::nullopt;
    }
    l.b = *b;
    l.bValue = g->input(2);
  }
  l.nodes = {r2, g, r1};
  shapeProducers(r1->input(1), l.nodes);
  shapeProducers(r2->input(1), l.nodes);
  return l;
}

// Columns [start, start + n) of a [rows, cols] tensor.
std::optional<ir::Tensor> columns(const ir::Tensor& t, int64_t start, int64_t n) {
  if (t.rank() == 2) return fusion::sliceTensor(t, {start}, {start + n}, {1}, {1});
  return fusion::sliceTensor(t, {start}, {start + n}, {0}, {1});
}

std::optional<ir::Tensor> concatColumns(const std::vector<ir::Tensor>& parts) {
  auto dtype = parts[0].dtype();
  size_t es = ir::dtypeStorageBytes(dtype, 1);
  int64_t rows = parts[0].rank() == 2 ? parts[0].dims()[0] : 1;
  int64_t cols = 0;
  for (const auto& p : parts) {
    if (p.dtype() != dtype || p.rank() != parts[0].rank() || (p.rank() == 2 && p.dims()[0] != rows))
      return std::nullopt;
    cols += p.dims().back();
  }
  std::vector<int64_t> dims =
      parts[0].rank() == 2 ? std::vector<int64_t>{rows, cols} : std::vector<int64_t>{cols};
  ir::Tensor out(dtype, dims);
  auto dst = out.mutableBytes();
  int64_t off = 0;
  for (const auto& p : parts) {
    int64_t pc = p.dims().back();
    auto src = p.bytes();
    for (int64_t r = 0; r < rows; ++r)
      std::memcpy(dst.data() + (r * cols + off) * es, src.data() + r * pc * es, pc * es);
    off += pc;
  }
  return out;
}

// Where Q, K and V (the inputs of the head Reshapes) come from, as one packed projection.
std::optional<Projection> projectionOf(const std::array<ir::Value*, 3>& in, std::string& why) {
  Projection pr;
  std::array<int64_t, 3> start{};
  std::array<int64_t, 3> width{};
  ir::Value* packed = nullptr;
  ir::Node* split = in[0]->producer();
  if (split && split->domain().empty() && split->opType() == "Split") {
    for (ir::Value* v : in)
      if (v->producer() != split) {
        why = "Q, K and V are not outputs of one Split";
        return std::nullopt;
      }
    packed = split->input(0);
    auto r = rankOf(packed);
    int64_t axis = split->attrInt("axis", 0);
    if (r && axis < 0) axis += *r;
    auto pd = packed->type().shape();
    if (!r || axis != *r - 1 || !pd || !(*pd)[axis].isStatic()) {
      why = "the Split is not along the static last axis";
      return std::nullopt;
    }
    std::vector<int64_t> sizes;
    if (auto s = rewrite::intsFromAttrOrInput(*split, "split", 1); s && !s->empty()) {
      sizes = *s;
    } else {
      int64_t total = (*pd)[axis].value();
      int64_t k = static_cast<int64_t>(split->outputCount());
      if (total % k) {
        why = "the Split does not divide the last axis evenly";
        return std::nullopt;
      }
      sizes.assign(static_cast<size_t>(k), total / k);
    }
    std::vector<int64_t> offs{0};
    for (int64_t s : sizes) offs.push_back(offs.back() + s);
    for (size_t i = 0; i < 3; ++i) {
      int idx = in[i]->producerOutputIndex();
      if (idx < 0 || idx >= static_cast<int>(sizes.size())) return std::nullopt;
      start[i] = offs[static_cast<size_t>(idx)];
      width[i] = sizes[static_cast<size_t>(idx)];
    }
    for (ir::Value* o : split->outputs())
      if (o && std::find(in.begin(), in.end(), o) == in.end() &&
          (o->hasUses() || o->isGraphOutput())) {
        why = "the Split has an output besides Q, K and V that is read";
        return std::nullopt;
      }
    pr.nodes.push_back(split);
  } else {
    // Three Slices of one tensor along its last axis.
    for (size_t i = 0; i < 3; ++i) {
      ir::Node* s = defaultOp(in[i], "Slice");
      if (!s || (packed && s->input(0) != packed)) {
        why = "Q, K and V are neither outputs of one Split nor Slices of one tensor";
        return std::nullopt;
      }
      packed = s->input(0);
      auto r = rankOf(packed);
      auto pd = packed->type().shape();
      if (!r || !pd || !(*pd)[*r - 1].isStatic()) {
        why = "the sliced projection has no static last axis";
        return std::nullopt;
      }
      auto p = fusion::sliceParams(*s, *r, why);
      if (!p) return std::nullopt;
      if (p->axes.size() != 1 || (p->axes[0] != *r - 1 && p->axes[0] != -1) || p->steps[0] != 1) {
        why = "a Q/K/V Slice is not one step-1 range of the last axis";
        return std::nullopt;
      }
      auto rr = fusion::resolveSlice(p->starts[0], p->ends[0], 1, (*pd)[*r - 1].value());
      start[i] = rr.start;
      width[i] = rr.count;
      pr.nodes.push_back(s);
    }
  }
  if (width[0] != width[1] || width[1] != width[2] || width[0] <= 0) {
    why = "Q, K and V do not have the same width";
    return std::nullopt;
  }
  auto lin = linearOf(packed, why);
  if (!lin) return std::nullopt;
  pr.x = lin->x;
  pr.nodes.insert(pr.nodes.end(), lin->nodes.begin(), lin->nodes.end());
  const int64_t d = width[0];
  const bool inOrder = start[0] == 0 && start[1] == d && start[2] == 2 * d;
  const bool whole = lin->w.dims()[1] == 3 * d;
  if (inOrder && whole && lin->wValue) {
    pr.weights = lin->wValue;
  } else {
    std::vector<ir::Tensor> parts;
    for (size_t i = 0; i < 3; ++i) {
      auto c = columns(lin->w, start[i], d);
      if (!c) {
        why = "the projection weights cannot be sliced";
        return std::nullopt;
      }
      parts.push_back(*c);
    }
    pr.newWeights = concatColumns(parts);
  }
  if (lin->b) {
    if (inOrder && whole && lin->bValue) {
      pr.biasValue = lin->bValue;
    } else {
      std::vector<ir::Tensor> parts;
      for (size_t i = 0; i < 3; ++i) {
        auto c = columns(*lin->b, start[i], d);
        if (!c) {
          why = "the projection bias cannot be sliced";
          return std::nullopt;
        }
        parts.push_back(*c);
      }
      pr.bias = concatColumns(parts);
    }
  }
  return pr;
}

// ---- the mask between the scaled scores and the Softmax ----

struct Mask {
  bool causal = false;
  ir::Value* index = nullptr;  // the mask for mask_index: [B, T] or [B, 1, M, M]
  float filter = -10000.0f;
  std::vector<ir::Node*> core;  // the nodes that read the scores
  std::vector<ir::Node*> side;  // the nodes that compute the mask (other layers may share them)
};

// A scalar "very negative" constant: what masked positions get.
bool isMaskedValue(const ir::Value* v) {
  auto c = fusion::scalarValue(v);
  return c && *c <= -1000.0;
}

// "" when `m` (a Slice chain) is rows [T-S, T), columns [0, T) of a constant
// lower-triangular [1, 1, M, M] matrix (`keepTrue`: nonzero on and below the
// diagonal; else zero there, for a condition that selects the masked places).
std::string whyNotCausal(ir::Value* m, const ir::Value* scores, bool keepTrue,
                         std::vector<ir::Node*>& nodes) {
  while (ir::Node* c = defaultOp(m, "Cast")) {
    nodes.push_back(c);
    m = c->input(0);
  }
  SliceBounds b;
  std::string why;
  ir::Value* src = sliceSource(m, b, nodes, why);
  if (!src) return why;
  if (why = whyNotCurrentRows(b, scores); !why.empty()) return why;
  auto t = rewrite::constantValue(src);
  if (!t || t->rank() != 4 || t->dims()[0] != 1 || t->dims()[1] != 1 ||
      t->dims()[2] != t->dims()[3])
    return "the Where condition is not sliced from a constant [1, 1, M, M] matrix";
  const int64_t M = t->dims()[2];
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < M; ++j)
      if ((t->valueAsDouble(i * M + j) != 0) != ((j <= i) == keepTrue))
        return "the Where condition is not triangular (not a causal mask)";
  return "";
}

// `v` = k * (1 - m) (either order) with k a scalar constant: m and k.
std::optional<std::pair<ir::Value*, double>> scaledComplement(const ir::Value* v,
                                                              std::vector<ir::Node*>& nodes) {
  ir::Node* km = defaultOp(v, "Mul");
  if (!km || km->inputCount() != 2) return std::nullopt;
  for (size_t i = 0; i < 2; ++i) {
    auto c = fusion::scalarValue(km->input(1 - i));
    ir::Node* s1 = defaultOp(km->input(i), "Sub");
    if (c && s1 && fusion::isScalarNear(s1->input(0), 1.0)) {
      nodes.push_back(km);
      nodes.push_back(s1);
      return std::make_pair(s1->input(1), *c);
    }
  }
  return std::nullopt;
}

// One mask applied to `v` (the Softmax input, or what an earlier mask read):
// the scores it masks, `v` itself when it is no mask, nullptr with `why`.
ir::Value* peelOneMask(ir::Value* v, Mask& mask, bool assumeBinary, std::string& why) {
  ir::Node* n = v->producer();
  if (!n || !n->domain().empty()) return v;
  const std::string binaryWhy =
      "the mask is a float tensor not known to hold only 0 and 1 (assume_binary_mask = false)";
  if (n->opType() == "Where" && n->inputCount() == 3) {
    // Where(causal, s, -10000) or Where(not causal, -10000, s)
    const bool keep = isMaskedValue(n->input(2));
    if (!keep && !isMaskedValue(n->input(1))) {
      why = "the Where does not write a large negative constant where the mask is off";
      return nullptr;
    }
    if (mask.causal) {
      why = "two causal masks";
      return nullptr;
    }
    ir::Value* s = n->input(keep ? 1 : 2);
    std::vector<ir::Node*> side;
    if (why = whyNotCausal(n->input(0), s, keep, side); !why.empty()) return nullptr;
    mask.causal = true;
    mask.core.push_back(n);
    mask.side.insert(mask.side.end(), side.begin(), side.end());
    return s;
  }
  if (n->opType() == "Sub" && n->inputCount() == 2) {
    // Megatron: s * m - k * (1 - m)
    ir::Node* sm = defaultOp(n->input(0), "Mul");
    std::vector<ir::Node*> side;
    auto comp = scaledComplement(n->input(1), side);
    if (!sm || !comp) return v;
    auto [m, k] = *comp;
    if (k < 1000.0) {
      why = "the Sub is not s * m - k * (1 - m) with a large k (a Megatron mask)";
      return nullptr;
    }
    ir::Value* s = fusion::otherOperand(*sm, m);
    if (!s) {
      why = "the masked product does not multiply by the same mask";
      return nullptr;
    }
    if (!assumeBinary) {
      why = binaryWhy;
      return nullptr;
    }
    if (mask.index) {
      why = "two masks";
      return nullptr;
    }
    SliceBounds b;
    ir::Value* src = sliceSource(m, b, side, why);
    if (!src) return nullptr;
    if (why = whyNotCurrentRows(b, s); !why.empty()) return nullptr;
    const auto& sd = src->type().shape();
    const auto& xd = s->type().shape();
    if (rewrite::isConstant(src) || !sd || sd->rank() != 4 || !(*sd)[0].sameAs((*xd)[0]) ||
        !(*sd)[1].sameAs(ir::Dim(1)) || !(*sd)[2].isStatic() || !(*sd)[2].sameAs((*sd)[3])) {
      why = "the Megatron mask is not a [B, 1, M, M] tensor";
      return nullptr;
    }
    mask.index = src;
    mask.filter = static_cast<float>(-k);
    mask.core.push_back(n);
    mask.core.push_back(sm);
    mask.side.insert(mask.side.end(), side.begin(), side.end());
    return s;
  }
  if (n->opType() == "Add" && n->inputCount() == 2) {
    // BERT / GPT-2 padding mask: s + k * (1 - m4), m4 = [B, 1, 1, T] from m [B, T]
    for (size_t i = 0; i < 2; ++i) {
      std::vector<ir::Node*> side;
      auto comp = scaledComplement(n->input(1 - i), side);
      if (!comp) continue;
      auto [m4, k] = *comp;
      ir::Value* s = n->input(i);
      if (k > -1000.0) {
        why = "the mask Add does not add k * (1 - mask) with a large negative k";
        return nullptr;
      }
      const auto& md = m4->type().shape();
      const auto& sd = s->type().shape();
      if (!md || !sd || md->rank() != 4 || sd->rank() != 4 || !(*md)[0].sameAs((*sd)[0]) ||
          !(*md)[1].sameAs(ir::Dim(1)) || !(*md)[2].sameAs(ir::Dim(1)) ||
          !(*md)[3].sameAs((*sd)[3])) {
        why = "the additive mask is not [B, 1, 1, T] (" + typeText(m4) + ")";
        return nullptr;
      }
      ir::Value* m2 = m4;
      while (ir::Node* p = m2->producer()) {
        if (!p->domain().empty() || (p->opType() != "Unsqueeze" && p->opType() != "Cast")) break;
        if (p->opType() == "Cast" && !fusion::isFloatType(elemTypeOf(p->output(0)))) break;
        side.push_back(p);
        m2 = p->input(0);
      }
      const auto& m2d = m2->type().shape();
      if (!m2d || m2d->rank() != 2 || !(*m2d)[0].sameAs((*sd)[0]) || !(*m2d)[1].sameAs((*sd)[3])) {
        why = "the additive mask is not unsqueezed from a [B, T] mask";
        return nullptr;
      }
      if (!assumeBinary) {
        why = binaryWhy;
        return nullptr;
      }
      if (mask.index) {
        why = "two masks";
        return nullptr;
      }
      mask.index = m2;
      mask.filter = static_cast<float>(k);
      mask.core.push_back(n);
      mask.side.insert(mask.side.end(), side.begin(), side.end());
      return s;
    }
    return v;
  }
  return v;
}

// Peels the masks off the Softmax input; returns the masked scores.
ir::Value* peelMask(ir::Value* v, Mask& mask, bool assumeBinary, std::string& why) {
  for (int i = 0; i < 3; ++i) {
    ir::Value* s = peelOneMask(v, mask, assumeBinary, why);
    if (!s || s == v) return s;
    v = s;
  }
  return v;
}

// ---- the whole subgraph ----

// The one reader of `v` that is not a Shape node (Shape readers feed the
// shape arithmetic, checked with the rest of the subgraph), or nullptr.
ir::Node* mainConsumer(const ir::Value* v) {
  ir::Node* found = nullptr;
  if (!v || v->isGraphOutput()) return nullptr;
  for (const ir::Use& u : v->uses()) {
    if (u.node->domain().empty() && u.node->opType() == "Shape") continue;
    if (found) return nullptr;
    found = u.node;
  }
  return found;
}

MatchResult attention(ir::Node& softmax, const MatchContext& c) {
  ir::Value* smIn = softmax.input(0);
  if (rankOf(smIn) != 4) return MatchResult::failure("the Softmax input is not of rank 4");
  int64_t axis = softmax.attrInt("axis", c.opset < 13 ? 1 : -1);
  if (axis != 3 && axis != -1) return MatchResult::failure("the Softmax is not over the last axis");
  std::string why;
  ir::Node* pv = mainConsumer(softmax.output(0));
  if (!pv || !pv->domain().empty() || pv->opType() != "MatMul" || pv->input(0) != softmax.output(0))
    return MatchResult::failure("the probabilities are not multiplied by V in one MatMul");
  const bool assumeBinary = c.option("assume_binary_mask", "true") != "false";
  Mask mask;
  ir::Value* scores = peelMask(smIn, mask, assumeBinary, why);
  if (!scores) return MatchResult::failure(why);
  double scale = 1.0;
  std::vector<ir::Node*> nodes{&softmax, pv};
  nodes.insert(nodes.end(), mask.core.begin(), mask.core.end());
  ir::Value* raw = stripScale(scores, scale, nodes);
  ir::Node* qk = defaultOp(raw, "MatMul");
  if (!qk) return MatchResult::failure("the scores are not a MatMul of Q and Kᵀ");
  nodes.push_back(qk);
  ir::Value* qv = stripScale(qk->input(0), scale, nodes);
  ir::Value* kv = stripScale(qk->input(1), scale, nodes);
  auto q = describe(qv, why);
  if (!q) return MatchResult::failure("Q: " + why);
  auto k = describe(kv, why);
  if (!k) return MatchResult::failure("K: " + why);
  auto v = describe(pv->input(1), why);
  if (!v) return MatchResult::failure("V: " + why);
  if (q->past || q->axes != std::array<int, 4>{0, 1, 2, 3})
    return MatchResult::failure("Q is not [B, N, S, H] of the current step");
  if (k->axes != std::array<int, 4>{0, 1, 3, 2})
    return MatchResult::failure("K is not transposed to [B, N, H, T] before the product");
  if (v->axes != std::array<int, 4>{0, 1, 2, 3})
    return MatchResult::failure("V is not [B, N, T, H]");
  if (k->isPast || v->isPast) return MatchResult::failure("K or V is the cache alone");
  if ((k->past != v->past) || (k->past && (k->pastIndex != 0 || v->pastIndex != 1)))
    return MatchResult::failure("K and V do not read keys (0) and values (1) of one cache");
  // Heads: [B, S, N, H] alike.
  const ir::Shape& qs = *q->reshape->output(0)->type().shape();
  for (const Desc* d : {&*k, &*v}) {
    const ir::Shape& s = *d->reshape->output(0)->type().shape();
    if (!s[2].sameAs(qs[2]) || !s[3].sameAs(qs[3]) || !s[0].sameAs(qs[0]) || !s[1].sameAs(qs[1]))
      return MatchResult::failure("Q, K and V are not split into the same heads");
  }
  const int64_t heads = qs[2].value(), headSize = qs[3].value();
  auto proj = projectionOf({q->reshape->input(0), k->reshape->input(0), v->reshape->input(0)}, why);
  if (!proj) return MatchResult::failure(why);
  ir::Value* x = proj->x;
  const ir::Shape& xs = *x->type().shape();
  if (!xs[0].sameAs(qs[0]) || !xs[1].sameAs(qs[1]))
    return MatchResult::failure("the heads do not keep x's batch and sequence dims");
  if (!fusion::isFloatType(elemTypeOf(x))) return MatchResult::failure("x is not a float tensor");
  // The context: Transpose to [B, S, N, H], Reshape to [B, S, D].
  ir::Node* ct = mainConsumer(pv->output(0));
  auto cperm = ct && ct->domain().empty() && ct->opType() == "Transpose"
                   ? fusion::transposePerm(*ct)
                   : std::nullopt;
  if (!cperm || *cperm != std::vector<int64_t>{0, 2, 1, 3})
    return MatchResult::failure("the context is not transposed back to [B, S, N, H]");
  ir::Node* cr = mainConsumer(ct->output(0));
  if (!cr || !cr->domain().empty() || cr->opType() != "Reshape" || rankOf(cr->output(0)) != 3)
    return MatchResult::failure("the context heads are not merged by a Reshape");
  {
    const ir::Shape& os = *cr->output(0)->type().shape();
    if (!os[0].sameAs(xs[0]) || !os[1].sameAs(xs[1]) || !os[2].sameAs(ir::Dim(heads * headSize)))
      return MatchResult::failure("the merging Reshape does not give [B, S, N*H] (" +
                                  typeText(cr->output(0)) + ")");
  }
  nodes.push_back(ct);
  nodes.push_back(cr);
  shapeProducers(cr->input(1), nodes);
  auto addAll = [&](const std::vector<ir::Node*>& more) {
    for (ir::Node* n : more)
      if (std::find(nodes.begin(), nodes.end(), n) == nodes.end()) nodes.push_back(n);
  };
  addAll(q->nodes);
  addAll(k->nodes);
  addAll(v->nodes);
  addAll(proj->nodes);
  // The present: Concat(Unsqueeze(K as [B, N, T, H]), Unsqueeze(V as [B, N, T, H])) on axis 0.
  ir::Node* present = nullptr;
  {
    std::vector<ir::Node*> kvNodes = k->nodes;
    kvNodes.insert(kvNodes.end(), v->nodes.begin(), v->nodes.end());
    for (ir::Node* n : kvNodes) {
      for (ir::Value* o : n->outputs()) {
        if (!o) continue;
        for (const ir::Use& u : o->uses()) {
          ir::Node* un = u.node;
          if (std::find(nodes.begin(), nodes.end(), un) != nodes.end()) continue;
          ir::Node* uq = un;
          if (un->domain().empty() && un->opType() == "Transpose") {
            std::string w;
            uq = rewrite::soleConsumer(un->output(0), &w);
          }
          if (!uq || !uq->domain().empty() || uq->opType() != "Unsqueeze") continue;
          std::string w;
          ir::Node* cc = rewrite::soleConsumer(uq->output(0), &w);
          if (!cc || !cc->domain().empty() || cc->opType() != "Concat" || cc->inputCount() != 2 ||
              cc->attrInt("axis", 1) != 0)
            continue;
          present = cc;
        }
        if (present) break;
      }
      if (present) break;
    }
  }
  if (present) {
    std::vector<ir::Node*> pn{present};
    for (size_t i = 0; i < 2; ++i) {
      ir::Node* uq = defaultOp(present->input(i), "Unsqueeze");
      auto ax = uq ? rewrite::intsFromAttrOrInput(*uq, "axes", 1) : std::nullopt;
      if (!uq || !ax || *ax != std::vector<int64_t>{0})
        return MatchResult::failure("the present Concat does not stack two Unsqueeze(.., 0)");
      auto d = describe(uq->input(0), why);
      const Desc& want = i == 0 ? *k : *v;
      if (!d || d->axes != std::array<int, 4>{0, 1, 2, 3} || d->reshape != want.reshape ||
          d->past != want.past || d->pastIndex != want.pastIndex)
        return MatchResult::failure(std::string("the present does not stack ") +
                                    (i == 0 ? "K" : "V") + " as [B, N, T, H]");
      pn.push_back(uq);
      for (ir::Node* n : d->nodes) pn.push_back(n);
    }
    addAll(pn);
  }
  // Closed: every value made inside is read inside, or by Shape nodes (whose
  // arithmetic goes with the subgraph when nothing else reads it).
  std::set<ir::Node*> inside(nodes.begin(), nodes.end());
  inside.insert(mask.side.begin(), mask.side.end());
  // By node id, not address: its order is the order of the removals in the
  // edit log, which must not vary from run to run.
  struct ById {
    bool operator()(const ir::Node* a, const ir::Node* b) const { return a->id() < b->id(); }
  };
  std::set<ir::Node*, ById> shapeSide;
  std::vector<ir::Node*> queue;
  const ir::Value* out = cr->output(0);
  const ir::Value* presentOut = present ? present->output(0) : nullptr;
  for (ir::Node* n : nodes)
    for (ir::Value* o : n->outputs()) {
      if (!o || o == out || o == presentOut) continue;
      if (o->isGraphOutput()) return MatchResult::failure("'" + o->name() + "' is a graph output");
      for (const ir::Use& u : rewrite::usesInNodeOrder(o)) {
        if (inside.count(u.node)) continue;
        if (u.node->owner() != n->owner() || !u.node->domain().empty() ||
            u.node->opType() != "Shape")
          return MatchResult::failure("'" + o->name() + "' is read outside the subgraph (" +
                                      fusion::nodeText(*u.node) + ")");
        if (shapeSide.insert(u.node).second) queue.push_back(u.node);
      }
    }
  static const std::set<std::string> kShapeOps = {
      "Shape", "Gather", "Slice", "Squeeze", "Unsqueeze", "Concat",  "Cast",
      "Add",   "Sub",    "Mul",   "Div",     "Identity",  "Reshape", "Split"};
  while (!queue.empty()) {
    ir::Node* s = queue.back();
    queue.pop_back();
    // A shape value read elsewhere too (position ids computed from the cache
    // length) keeps what it reads; the rest of the subgraph still goes.
    for (ir::Value* o : s->outputs()) {
      if (!o) continue;
      for (const ir::Use& u : o->uses()) {
        if (inside.count(u.node) || shapeSide.count(u.node)) continue;
        if (!u.node->domain().empty() || !kShapeOps.count(u.node->opType()) ||
            !isIntType(elemTypeOf(u.node->output(0))))
          continue;
        shapeSide.insert(u.node);
        queue.push_back(u.node);
      }
    }
  }
  std::vector<ir::Node*> dead = nodes;
  dead.insert(dead.end(), mask.side.begin(), mask.side.end());
  for (ir::Node* s : shapeSide) {
    dead.push_back(s);
    for (ir::Value* in : s->inputs()) shapeProducers(in, dead);
  }
  const double defaultScale = 1.0 / std::sqrt(static_cast<double>(headSize));
  const bool customScale = std::fabs(scale - defaultScale) > 1e-6 * defaultScale;
  ir::Value* past = k->past;
  ir::Value* maskIndex = mask.index;
  float filter = mask.filter;
  bool causal = mask.causal;
  Projection p = *proj;
  return MatchResult::success(nodes, [=](rewrite::Rewriter& rw) {
    ir::Graph& g = *cr->owner();
    std::vector<const ir::Node*> from(nodes.begin(), nodes.end());
    std::vector<ir::Node*> ends{cr};
    if (present) ends.push_back(present);
    ir::Node* before = fusion::firstInOrder(g, ends);
    ir::Value* w = p.weights
                       ? p.weights
                       : addConstant(rw, g, before, "attention_qkv_weight", *p.newWeights, from);
    ir::Value* b = p.biasValue;
    if (!b && p.bias) b = addConstant(rw, g, before, "attention_qkv_bias", *p.bias, from);
    std::vector<ir::Value*> ins{p.x, w, b};
    if (maskIndex || past)
      ins.push_back(maskIndex ? ortfusion::castTo(rw, maskIndex, ir::DataType::kInt32, before, from)
                              : nullptr);
    if (past) ins.push_back(past);
    while (!ins.empty() && !ins.back()) ins.pop_back();
    ir::Node* a = ortfusion::addMsNode(rw, "Attention", ins, before, from,
                                       {cr->output(0), present ? present->output(0) : nullptr},
                                       present ? 2 : 1);
    rw.setAttr(a, ir::Attribute::makeInt("num_heads", heads));
    rw.setAttr(a, ir::Attribute::makeInt("unidirectional", causal ? 1 : 0));
    if (maskIndex && filter != -10000.0f)
      rw.setAttr(a, ir::Attribute::makeFloat("mask_filter_value", filter));
    if (customScale) rw.setAttr(a, ir::Attribute::makeFloat("scale", static_cast<float>(scale)));
    rw.replaceAllUsesWith(cr->output(0), a->output(0));
    if (present) rw.replaceAllUsesWith(present->output(0), a->output(1));
    fusion::eraseDead(rw, dead);
  });
}

fusion::Rules rules() {
  fusion::Rules r;
  // Softmax(mask(Q Kᵀ scale)) V with heads split and merged -> Attention(x, W, b, mask, past)
  fusion::addRule(r, "ort_attention",
                  "heads of x·W split, Softmax(mask(Q Kᵀ·scale))·V merged -> com.microsoft "
                  "Attention",
                  {"Softmax"}, attention);
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeFuseOrtAttention() {
  PassInfo info{"fuse_ort_attention",
                Category::kStructural,
                "fusion: into ONNX Runtime contrib ops",
                "Fuse the multi-head self-attention subgraph of GPT-2 and BERT style models (QKV "
                "projection, heads, scaled masked softmax, key/value cache) into ONNX Runtime's "
                "Attention (com.microsoft)",
                "将 GPT-2 与 BERT 类模型的多头自注意力子图（QKV 投影、分头、缩放与掩码的 "
                "softmax、键值缓存）融合为 ONNX Runtime 的 Attention（com.microsoft）",
                {{"assume_binary_mask", "true",
                  "Treat float attention masks read from model inputs as holding only 0 and 1 "
                  "(ONNX Runtime's Attention takes them as an int32 mask_index)",
                  OptionKind::kBool}},
                1,
                28,
                true,
                true};
  return std::make_unique<PatternPass>(std::move(info), rules());
}

}  // namespace passlab::passes
