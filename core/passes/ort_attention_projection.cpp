// The QKV projection for fuse_ort_attention: Q, K and V as parts (one Split,
// or three Slices) of x · W (+ b), packed into one weight [Din, 3D] with
// columns [Q | K | V] (and one bias [3D]).
#include <algorithm>
#include <cstring>

#include "core/passes/ort_attention_parts.h"

namespace passlab::passes::ortattention {

namespace {

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

// Reshape -> Gemm -> Reshape ending in `mm`, into `l` (which has no bias yet).
bool gemmLinear(ir::Value* mm, Linear& l, Text& why) {
  ir::Node* r2 = producerOp(mm, "Reshape");
  ir::Node* g = r2 ? producerOp(r2->input(0), "Gemm") : nullptr;
  ir::Node* r1 = g ? producerOp(g->input(0), "Reshape") : nullptr;
  if (!r1 || l.b) {
    why = "the Q/K/V projection is not x · W (+ b): MatMul (+ Add) or Reshape -> Gemm -> Reshape";
    return false;
  }
  ir::Value* x = r1->input(0);
  auto w = rewrite::constantValue(g->input(1));
  if (g->attrFloat("alpha", 1) != 1 || g->attrFloat("beta", 1) != 1 || g->attrInt("transA", 0) ||
      !w || w->rank() != 2 || rankOf(x) != 3 || rankOf(r1->output(0)) != 2 ||
      rankOf(r2->output(0)) != 3) {
    why = "the projection Gemm is not x · W + b on the flattened [B*S, Din] input";
    return false;
  }
  const ir::Shape& xs = *x->type().shape();
  const ir::Shape& fs = *r1->output(0)->type().shape();
  const ir::Shape& os = *r2->output(0)->type().shape();
  if (!xs[2].isStatic() || !fs[1].sameAs(xs[2]) || !os[0].sameAs(xs[0]) || !os[1].sameAs(xs[1])) {
    why = "the Reshapes around the projection Gemm do not flatten [B, S, Din] and restore [B, S]";
    return false;
  }
  l.x = x;
  if (g->attrInt("transB", 0)) {
    auto t = fusion::transposeTensor(*w, {1, 0});
    if (!t) {
      why = "the projection weights cannot be transposed";
      return false;
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
      return false;
    }
    l.b = *b;
    l.bValue = g->input(2);
  }
  l.nodes = {r2, g, r1};
  shapeProducers(r1->input(1), l.nodes);
  shapeProducers(r2->input(1), l.nodes);
  return true;
}

std::optional<Linear> linearOf(ir::Value* p, Text& why) {
  Linear l;
  ir::Value* mm = p;
  if (ir::Node* add = producerOp(p, "Add")) {
    Text w;
    auto ba = ortfusion::biasAddOf(p, w);
    if (!ba) {
      why = Text::of("the projection Add is not a bias: %1", w);
      return std::nullopt;
    }
    l.b = rewrite::constantValue(ba->bias);
    l.bValue = ba->bias;
    l.nodes.push_back(add);
    mm = ba->input;
  }
  if (ir::Node* m = producerOp(mm, "MatMul")) {
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
  if (!gemmLinear(mm, l, why)) return std::nullopt;
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

// Columns [start[i], start[i] + d) of `t` for Q, K and V, side by side, into
// `out`; false when a part cannot be sliced.
bool packColumns(const ir::Tensor& t, const std::array<int64_t, 3>& start, int64_t d,
                 std::optional<ir::Tensor>& out) {
  std::vector<ir::Tensor> parts;
  for (size_t i = 0; i < 3; ++i) {
    auto c = columns(t, start[i], d);
    if (!c) return false;
    parts.push_back(*c);
  }
  out = concatColumns(parts);
  return true;
}

// Where each of Q, K and V lies in the packed projection: columns [start, start + width).
struct Parts {
  ir::Value* packed = nullptr;
  std::array<int64_t, 3> start{};
  std::array<int64_t, 3> width{};
  std::vector<ir::Node*> nodes;
};

// Q, K and V as three outputs of one Split along the static last axis.
bool splitParts(ir::Node& split, const std::array<ir::Value*, 3>& in, Parts& pt, Text& why) {
  for (ir::Value* v : in)
    if (v->producer() != &split) {
      why = "Q, K and V are not outputs of one Split";
      return false;
    }
  pt.packed = split.input(0);
  auto r = rankOf(pt.packed);
  int64_t axis = split.attrInt("axis", 0);
  if (r && axis < 0) axis += *r;
  auto pd = pt.packed->type().shape();
  if (!r || axis != *r - 1 || !pd || !(*pd)[axis].isStatic()) {
    why = "the Split is not along the static last axis";
    return false;
  }
  std::vector<int64_t> sizes;
  if (auto s = rewrite::intsFromAttrOrInput(split, "split", 1); s && !s->empty()) {
    sizes = *s;
  } else {
    int64_t total = (*pd)[axis].value();
    int64_t k = static_cast<int64_t>(split.outputCount());
    if (total % k) {
      why = "the Split does not divide the last axis evenly";
      return false;
    }
    sizes.assign(static_cast<size_t>(k), total / k);
  }
  std::vector<int64_t> offs{0};
  for (int64_t s : sizes) offs.push_back(offs.back() + s);
  for (size_t i = 0; i < 3; ++i) {
    int idx = in[i]->producerOutputIndex();
    if (idx < 0 || idx >= static_cast<int>(sizes.size())) return false;
    pt.start[i] = offs[static_cast<size_t>(idx)];
    pt.width[i] = sizes[static_cast<size_t>(idx)];
  }
  for (ir::Value* o : split.outputs())
    if (o && std::find(in.begin(), in.end(), o) == in.end() &&
        (o->hasUses() || o->isGraphOutput())) {
      why = "the Split has an output besides Q, K and V that is read";
      return false;
    }
  pt.nodes.push_back(&split);
  return true;
}

// Q, K and V as three Slices of one tensor along its last axis.
bool sliceParts(const std::array<ir::Value*, 3>& in, Parts& pt, Text& why) {
  for (size_t i = 0; i < 3; ++i) {
    ir::Node* s = producerOp(in[i], "Slice");
    if (!s || (pt.packed && s->input(0) != pt.packed)) {
      why = "Q, K and V are neither outputs of one Split nor Slices of one tensor";
      return false;
    }
    pt.packed = s->input(0);
    auto r = rankOf(pt.packed);
    auto pd = pt.packed->type().shape();
    if (!r || !pd || !(*pd)[*r - 1].isStatic()) {
      why = "the sliced projection has no static last axis";
      return false;
    }
    auto p = fusion::sliceParams(*s, *r, why);
    if (!p) return false;
    if (p->axes.size() != 1 || (p->axes[0] != *r - 1 && p->axes[0] != -1) || p->steps[0] != 1) {
      why = "a Q/K/V Slice is not one step-1 range of the last axis";
      return false;
    }
    auto rr = fusion::resolveSlice(p->starts[0], p->ends[0], 1, (*pd)[*r - 1].value());
    pt.start[i] = rr.start;
    pt.width[i] = rr.count;
    pt.nodes.push_back(s);
  }
  return true;
}

// The weights and bias of Attention: those of `lin` when Q, K and V are its
// columns in order, else the columns of each packed anew.
bool packWeights(const Linear& lin, const Parts& pt, Projection& pr, Text& why) {
  const int64_t d = pt.width[0];
  const bool inOrder = pt.start[0] == 0 && pt.start[1] == d && pt.start[2] == 2 * d;
  const bool reusable = inOrder && lin.w.dims()[1] == 3 * d;
  if (reusable && lin.wValue) {
    pr.weights = lin.wValue;
  } else if (!packColumns(lin.w, pt.start, d, pr.newWeights)) {
    why = "the projection weights cannot be sliced";
    return false;
  }
  if (!lin.b) return true;
  if (reusable && lin.bValue) {
    pr.biasValue = lin.bValue;
  } else if (!packColumns(*lin.b, pt.start, d, pr.bias)) {
    why = "the projection bias cannot be sliced";
    return false;
  }
  return true;
}

}  // namespace

std::optional<Projection> projectionOf(const std::array<ir::Value*, 3>& in, Text& why) {
  Parts pt;
  ir::Node* split = in[0]->producer();
  const bool ok = split && split->domain().empty() && split->opType() == "Split"
                      ? splitParts(*split, in, pt, why)
                      : sliceParts(in, pt, why);
  if (!ok) return std::nullopt;
  if (pt.width[0] != pt.width[1] || pt.width[1] != pt.width[2] || pt.width[0] <= 0) {
    why = "Q, K and V do not have the same width";
    return std::nullopt;
  }
  auto lin = linearOf(pt.packed, why);
  if (!lin) return std::nullopt;
  Projection pr;
  pr.x = lin->x;
  pr.nodes = pt.nodes;
  pr.nodes.insert(pr.nodes.end(), lin->nodes.begin(), lin->nodes.end());
  if (!packWeights(*lin, pt, pr, why)) return std::nullopt;
  return pr;
}

}  // namespace passlab::passes::ortattention
