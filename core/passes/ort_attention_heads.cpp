// The heads of Q, K and V for fuse_ort_attention: a Reshape [B, S, D] ->
// [B, S, N, H] of the current step, Transposes of it, and the key/value cache
// concatenated in front (Gather(past, i) or Squeeze(Split(past)[i])).
#include "core/passes/ort_attention_parts.h"

namespace passlab::passes::ortattention {

namespace {

std::optional<Desc> describeTranspose(ir::Node& n, Text& why, int depth) {
  auto d = describe(n.input(0), why, depth + 1);
  auto perm = fusion::transposePerm(n);
  if (!d || !perm || perm->size() != 4) {
    if (d) why = "a Transpose in the Q/K/V path is not of rank 4";
    return std::nullopt;
  }
  std::array<int, 4> a{};
  for (size_t i = 0; i < 4; ++i) a[i] = d->axes[static_cast<size_t>((*perm)[i])];
  d->axes = a;
  d->nodes.push_back(&n);
  return d;
}

std::optional<Desc> describeReshape(ir::Node& n, Text& why) {
  ir::Value* in = n.input(0);
  if (rankOf(n.output(0)) != 4 || rankOf(in) != 3) {
    why = "a Reshape in the Q/K/V path does not split [B, S, D] into [B, S, N, H]";
    return std::nullopt;
  }
  const ir::Shape& os = *n.output(0)->type().shape();
  const ir::Shape& is = *in->type().shape();
  if (!os[0].sameAs(is[0]) || !os[1].sameAs(is[1]) || !os[2].isStatic() || !os[3].isStatic() ||
      !is[2].isStatic() || os[2].value() * os[3].value() != is[2].value()) {
    why = Text::of("the Reshape of '%1' does not split [B, S, D] into [B, S, N, H] (%2 -> %3)",
                   in->name(), typeText(in), typeText(n.output(0)));
    return std::nullopt;
  }
  Desc d;
  d.axes = {0, 2, 1, 3};
  d.reshape = &n;
  d.nodes.push_back(&n);
  shapeProducers(n.input(1), d.nodes);
  return d;
}

// The cache: Gather(past, i) or Squeeze(Split(past, axis 0)[i], axis 0).
std::optional<Desc> describeCache(ir::Value* v, ir::Node& n, Text& why) {
  ir::Value* past = nullptr;
  int64_t idx = -1;
  std::vector<ir::Node*> nodes{&n};
  if (n.opType() == "Gather") {
    auto i = fusion::scalarValue(n.input(1));
    if (n.attrInt("axis", 0) == 0 && i && rankOf(n.input(1)) == 0) {
      past = n.input(0);
      idx = static_cast<int64_t>(*i);
    }
  } else {
    auto axes = rewrite::intsFromAttrOrInput(n, "axes", 1);
    ir::Node* sp = producerOp(n.input(0), "Split");
    if (axes && *axes == std::vector<int64_t>{0} && sp && sp->attrInt("axis", 0) == 0 &&
        sp->outputCount() == 2) {
      past = sp->input(0);
      idx = n.input(0)->producerOutputIndex();
      nodes.push_back(sp);
    }
  }
  if (!past || rankOf(past) != 5 || (idx != 0 && idx != 1) || !past->type().shape() ||
      !(*past->type().shape())[0].sameAs(ir::Dim(2))) {
    why = Text::of("'%1' is not the keys or values of a [2, B, N, P, H] cache", v->name());
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

// Concat(cache, current step) along the sequence axis.
std::optional<Desc> describeConcat(ir::Node& n, Text& why, int depth) {
  auto a = describe(n.input(0), why, depth + 1);
  if (!a) return std::nullopt;
  auto b = describe(n.input(1), why, depth + 1);
  if (!b) return std::nullopt;
  if (!a->isPast || b->isPast || b->past || a->axes != b->axes) {
    why = "the Concat is not the cache followed by the current step, in one layout";
    return std::nullopt;
  }
  int64_t axis = n.attrInt("axis", 0);
  if (axis < 0) axis += 4;
  if (axis < 0 || axis > 3 || b->axes[static_cast<size_t>(axis)] != 2) {
    why = "the cache is not concatenated along the sequence axis";
    return std::nullopt;
  }
  b->past = a->past;
  b->pastIndex = a->pastIndex;
  b->nodes.insert(b->nodes.end(), a->nodes.begin(), a->nodes.end());
  b->nodes.push_back(&n);
  return b;
}

}  // namespace

std::optional<Desc> describe(ir::Value* v, Text& why, int depth) {
  if (depth > 8) {
    why = "the Q/K/V path is too long";
    return std::nullopt;
  }
  ir::Node* n = v ? v->producer() : nullptr;
  if (!n || !n->domain().empty()) {
    why =
        Text::of("'%1' is not produced by a Reshape/Transpose", (v ? v->name() : std::string("?")));
    return std::nullopt;
  }
  const std::string& op = n->opType();
  if (op == "Transpose") return describeTranspose(*n, why, depth);
  if (op == "Reshape") return describeReshape(*n, why);
  if (op == "Gather" || op == "Squeeze") return describeCache(v, *n, why);
  if (op == "Concat" && n->inputCount() == 2) return describeConcat(*n, why, depth);
  why = Text::of("'%1' comes from a %2, not a head Reshape/Transpose", v->name(), op);
  return std::nullopt;
}

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

}  // namespace passlab::passes::ortattention
