// The shape arithmetic fuse_ort_attention follows: the integers that Shape,
// Gather, Slice, Concat and arithmetic compute from dims (as analysis::SymInt),
// the nodes that compute them, and the bounds of a mask slice.
#include <algorithm>
#include <set>

#include "core/passes/ort_attention_parts.h"

namespace passlab::passes::ortattention {

using analysis::SymInt;

namespace {

bool isIntType(ir::DataType t) {
  return t == ir::DataType::kInt64 || t == ir::DataType::kInt32;
}

using Ints = std::optional<std::vector<SymInt>>;

Ints knownOnly(std::vector<SymInt> out) {
  for (const SymInt& s : out)
    if (!s.isKnown()) return std::nullopt;
  return out;
}

Ints dimsOfShape(const ir::Node& n) {
  if (n.hasAttr("start") || n.hasAttr("end")) return std::nullopt;
  const ir::Value* u = n.input(0);
  auto r = rankOf(u);
  if (!r) return std::nullopt;
  std::vector<SymInt> out;
  for (int64_t i = 0; i < *r; ++i) {
    auto d = dimOf(u, i);
    if (!d) return std::nullopt;
    out.push_back(*d);
  }
  return out;
}

Ints gathered(const ir::Node& n, int depth) {
  auto a = shapeInts(n.input(0), depth + 1);
  auto idx = constantInts(n.input(1));
  if (!a || !idx || n.attrInt("axis", 0) != 0) return std::nullopt;
  std::vector<SymInt> out;
  for (int64_t i : *idx) {
    if (i < 0) i += static_cast<int64_t>(a->size());
    if (i < 0 || i >= static_cast<int64_t>(a->size())) return std::nullopt;
    out.push_back((*a)[static_cast<size_t>(i)]);
  }
  return out;
}

Ints sliced(const ir::Node& n, int depth) {
  auto a = shapeInts(n.input(0), depth + 1);
  Text why;
  auto p = fusion::sliceParams(n, 1, why);
  if (!a || !p || p->starts.size() != 1 || p->axes[0] != 0) return std::nullopt;
  auto r =
      fusion::resolveSlice(p->starts[0], p->ends[0], p->steps[0], static_cast<int64_t>(a->size()));
  std::vector<SymInt> out;
  for (int64_t i = 0; i < r.count; ++i)
    out.push_back((*a)[static_cast<size_t>(r.start + i * r.step)]);
  return out;
}

Ints splitPart(const ir::Value* v, const ir::Node& n, int depth) {
  auto a = shapeInts(n.input(0), depth + 1);
  if (!a || n.attrInt("axis", 0) != 0) return std::nullopt;
  std::vector<int64_t> sizes;
  if (auto sp = rewrite::intsFromAttrOrInput(n, "split", 1); sp && !sp->empty()) {
    sizes = *sp;
  } else {
    const auto k = static_cast<int64_t>(n.outputCount());
    if (static_cast<int64_t>(a->size()) % k) return std::nullopt;
    sizes.assign(static_cast<size_t>(k), static_cast<int64_t>(a->size()) / k);
  }
  int64_t off = 0;
  for (int i = 0; i < v->producerOutputIndex(); ++i) off += sizes[static_cast<size_t>(i)];
  const int64_t len = sizes[static_cast<size_t>(v->producerOutputIndex())];
  if (off + len > static_cast<int64_t>(a->size())) return std::nullopt;
  return std::vector<SymInt>(a->begin() + off, a->begin() + off + len);
}

Ints concatenated(const ir::Node& n, int depth) {
  std::vector<SymInt> out;
  for (const ir::Value* in : n.inputs()) {
    auto a = shapeInts(in, depth + 1);
    if (!a) return std::nullopt;
    out.insert(out.end(), a->begin(), a->end());
  }
  return out;
}

// Add, Sub or Mul, with a one-element operand broadcast.
Ints elementwise(const ir::Node& n, int depth) {
  auto a = shapeInts(n.input(0), depth + 1);
  auto b = shapeInts(n.input(1), depth + 1);
  if (!a || !b || a->empty() || b->empty()) return std::nullopt;
  size_t len = std::max(a->size(), b->size());
  if ((a->size() != 1 && a->size() != len) || (b->size() != 1 && b->size() != len))
    return std::nullopt;
  const std::string& op = n.opType();
  std::vector<SymInt> out;
  for (size_t i = 0; i < len; ++i) {
    const SymInt& x = (*a)[a->size() == 1 ? 0 : i];
    const SymInt& y = (*b)[b->size() == 1 ? 0 : i];
    out.push_back(op == "Add" ? x + y : op == "Sub" ? x - y : x * y);
  }
  return knownOnly(std::move(out));
}

}  // namespace

bool isShapeArithmeticOp(const std::string& op) {
  static const std::set<std::string> kOps = {
      "Shape", "Gather", "Slice", "Squeeze", "Unsqueeze", "Concat",  "Cast",
      "Add",   "Sub",    "Mul",   "Div",     "Identity",  "Reshape", "Split"};
  return kOps.count(op) > 0;
}

bool isShapeInt(const ir::Value* v) {
  return isIntType(elemTypeOf(v));
}

std::optional<SymInt> dimOf(const ir::Value* v, int64_t axis) {
  if (!v || !v->type().hasShape()) return std::nullopt;
  const ir::Shape& s = *v->type().shape();
  if (axis < 0) axis += static_cast<int64_t>(s.rank());
  if (axis < 0 || axis >= static_cast<int64_t>(s.rank())) return std::nullopt;
  SymInt d = SymInt::fromDim(s[static_cast<size_t>(axis)]);
  if (!d.isKnown()) return std::nullopt;
  return d;
}

Ints shapeInts(const ir::Value* v, int depth) {
  if (!v || depth > 24) return std::nullopt;
  if (auto t = rewrite::constantValue(v)) {
    if (!isIntType(t->dtype()) || t->numel() > 16) return std::nullopt;
    std::vector<SymInt> out;
    for (int64_t x : t->toInt64Vector()) out.emplace_back(x);
    return out;
  }
  ir::Node* n = v->producer();
  if (!n || !n->domain().empty()) return std::nullopt;
  const std::string& op = n->opType();
  if (op == "Shape") return dimsOfShape(*n);
  if (op == "Squeeze" || op == "Unsqueeze" || op == "Reshape" || op == "Identity" ||
      (op == "Cast" && isIntType(elemTypeOf(v))))
    return shapeInts(n->input(0), depth + 1);
  if (op == "Gather") return gathered(*n, depth);
  if (op == "Slice") return sliced(*n, depth);
  if (op == "Split") return splitPart(v, *n, depth);
  if (op == "Concat") return concatenated(*n, depth);
  if (op == "Add" || op == "Sub" || op == "Mul") return elementwise(*n, depth);
  return std::nullopt;
}

void shapeProducers(const ir::Value* v, std::vector<ir::Node*>& out, int depth) {
  if (!v || depth > 24) return;
  ir::Node* n = v->producer();
  if (!n || !n->domain().empty() || !isIntType(elemTypeOf(v))) return;
  if (!isShapeArithmeticOp(n->opType())) return;
  if (std::find(out.begin(), out.end(), n) != out.end()) return;
  out.push_back(n);
  if (n->opType() == "Shape") return;
  for (const ir::Value* in : n->inputs()) shapeProducers(in, out, depth + 1);
}

// ---- the slice of a mask: rows [T - S, T), columns [0, T) ----

namespace {

// One Slice's bounds (attributes or inputs), axes and steps; false with `why`.
bool readSlice(const ir::Node& s, std::vector<SymInt>& starts, std::vector<SymInt>& ends,
               std::vector<int64_t>& axes, std::vector<int64_t>& steps, Text& why) {
  if (s.hasAttr("starts")) {
    for (int64_t x : s.attrInts("starts")) starts.emplace_back(x);
    for (int64_t x : s.attrInts("ends")) ends.emplace_back(x);
    axes = s.attrInts("axes");
    return true;
  }
  auto st = shapeInts(s.input(1));
  auto en = shapeInts(s.input(2));
  if (!st || !en) {
    why = "the mask slice bounds are not shape arithmetic PassLab can follow";
    return false;
  }
  starts = *st;
  ends = *en;
  if (s.input(3)) {
    auto a = constantInts(s.input(3));
    if (!a) {
      why = "the mask slice axes are not constant";
      return false;
    }
    axes = *a;
  }
  if (s.inputCount() > 4 && s.input(4)) {
    auto st4 = constantInts(s.input(4));
    if (!st4) {
      why = "the mask slice steps are not constant";
      return false;
    }
    steps = *st4;
  }
  return true;
}

// Adds one Slice's bounds on axes 2 and 3 to `b`; false with `why`.
bool addBounds(const ir::Node& s, SliceBounds& b, Text& why) {
  std::vector<SymInt> starts, ends;
  std::vector<int64_t> axes, steps;
  if (!readSlice(s, starts, ends, axes, steps, why)) return false;
  if (axes.empty())
    for (size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<int64_t>(i));
  if (starts.size() != axes.size() || ends.size() != axes.size()) {
    why = "the mask slice bounds and axes differ in length";
    return false;
  }
  for (int64_t st : steps)
    if (st != 1) {
      why = "the mask slice has a step other than 1";
      return false;
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
      why = Text::of("the mask is sliced on axis %1 or twice on one axis", std::to_string(a));
      return false;
    }
  }
  return true;
}

}  // namespace

ir::Value* sliceSource(ir::Value* v, SliceBounds& b, std::vector<ir::Node*>& nodes, Text& why) {
  while (ir::Node* s = producerOp(v, "Slice")) {
    ir::Value* src = s->input(0);
    if (rankOf(src) != 4) {
      why = "the mask slice is not of a rank-4 tensor";
      return nullptr;
    }
    if (!addBounds(*s, b, why)) return nullptr;
    nodes.push_back(s);
    for (size_t i = 1; i < s->inputCount(); ++i) shapeProducers(s->input(i), nodes);
    v = src;
  }
  return v;
}

Text whyNotCurrentRows(const SliceBounds& b, const ir::Value* scores) {
  auto S = dimOf(scores, 2);
  auto T = dimOf(scores, 3);
  if (!S || !T) return "the sequence lengths of the scores are unknown";
  if (!b.rowStart || !b.colStart) return "the mask is not sliced on both of its last two axes";
  if (!b.rowStart->sameAs(*T - *S) || !b.rowEnd->sameAs(*T))
    return "the mask rows are not [total - sequence, total) (the current positions)";
  if (!b.colStart->sameAs(SymInt(0)) || !b.colEnd->sameAs(*T))
    return "the mask columns are not [0, total)";
  return "";
}

}  // namespace passlab::passes::ortattention
