// The masks fuse_ort_attention takes off the Softmax input: a causal Where
// (GPT-2), s * m - k * (1 - m) (Megatron) and s + k * (1 - m4) (padding).
#include "core/passes/ort_attention_parts.h"

namespace passlab::passes::ortattention {

namespace {

const char* const kBinaryWhy =
    "the mask is a float tensor not known to hold only 0 and 1 (assume_binary_mask = false)";

// A scalar "very negative" constant: what masked positions get.
bool isMaskedValue(const ir::Value* v) {
  auto c = fusion::scalarValue(v);
  return c && *c <= -1000.0;
}

// "" when `m` (a Slice chain) is rows [T-S, T), columns [0, T) of a constant
// lower-triangular [1, 1, M, M] matrix (`keepTrue`: nonzero on and below the
// diagonal; else zero there, for a condition that selects the masked places).
Text whyNotCausal(ir::Value* m, const ir::Value* scores, bool keepTrue,
                  std::vector<ir::Node*>& nodes) {
  while (ir::Node* c = producerOp(m, "Cast")) {
    nodes.push_back(c);
    m = c->input(0);
  }
  SliceBounds b;
  Text why;
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
  ir::Node* km = producerOp(v, "Mul");
  if (!km || km->inputCount() != 2) return std::nullopt;
  for (size_t i = 0; i < 2; ++i) {
    auto c = fusion::scalarValue(km->input(1 - i));
    ir::Node* s1 = producerOp(km->input(i), "Sub");
    if (c && s1 && fusion::isScalarNear(s1->input(0), 1.0)) {
      nodes.push_back(km);
      nodes.push_back(s1);
      return std::make_pair(s1->input(1), *c);
    }
  }
  return std::nullopt;
}

// Where(causal, s, -10000) or Where(not causal, -10000, s): s, or nullptr with `why`.
ir::Value* peelCausal(ir::Node& n, Mask& mask, Text& why) {
  const bool keep = isMaskedValue(n.input(2));
  if (!keep && !isMaskedValue(n.input(1))) {
    why = "the Where does not write a large negative constant where the mask is off";
    return nullptr;
  }
  if (mask.causal) {
    why = "two causal masks";
    return nullptr;
  }
  ir::Value* s = n.input(keep ? 1 : 2);
  std::vector<ir::Node*> side;
  if (why = whyNotCausal(n.input(0), s, keep, side); !why.empty()) return nullptr;
  mask.causal = true;
  mask.core.push_back(&n);
  mask.side.insert(mask.side.end(), side.begin(), side.end());
  return s;
}

// Megatron: s * m - k * (1 - m), m the current rows of a [B, 1, M, M] tensor.
ir::Value* peelMegatron(ir::Value* v, ir::Node& n, Mask& mask, bool assumeBinary, Text& why) {
  ir::Node* sm = producerOp(n.input(0), "Mul");
  std::vector<ir::Node*> side;
  auto comp = scaledComplement(n.input(1), side);
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
    why = kBinaryWhy;
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
  mask.core.push_back(&n);
  mask.core.push_back(sm);
  mask.side.insert(mask.side.end(), side.begin(), side.end());
  return s;
}

// The [B, T] mask that `m4` [B, 1, 1, T] unsqueezes (and casts to float), with
// those nodes appended to `side`; nullptr when `m4` is not such.
ir::Value* paddingSource(ir::Value* m4, const ir::Shape& sd, std::vector<ir::Node*>& side) {
  ir::Value* m2 = m4;
  while (ir::Node* p = m2->producer()) {
    if (!p->domain().empty() || (p->opType() != "Unsqueeze" && p->opType() != "Cast")) break;
    if (p->opType() == "Cast" && !fusion::isFloatType(elemTypeOf(p->output(0)))) break;
    side.push_back(p);
    m2 = p->input(0);
  }
  const auto& m2d = m2->type().shape();
  if (!m2d || m2d->rank() != 2 || !(*m2d)[0].sameAs(sd[0]) || !(*m2d)[1].sameAs(sd[3]))
    return nullptr;
  return m2;
}

// BERT / GPT-2 padding mask: s + k * (1 - m4), m4 = [B, 1, 1, T] from m [B, T].
ir::Value* peelPadding(ir::Value* v, ir::Node& n, Mask& mask, bool assumeBinary, Text& why) {
  for (size_t i = 0; i < 2; ++i) {
    std::vector<ir::Node*> side;
    auto comp = scaledComplement(n.input(1 - i), side);
    if (!comp) continue;
    auto [m4, k] = *comp;
    ir::Value* s = n.input(i);
    if (k > -1000.0) {
      why = "the mask Add does not add k * (1 - mask) with a large negative k";
      return nullptr;
    }
    const auto& md = m4->type().shape();
    const auto& sd = s->type().shape();
    if (!md || !sd || md->rank() != 4 || sd->rank() != 4 || !(*md)[0].sameAs((*sd)[0]) ||
        !(*md)[1].sameAs(ir::Dim(1)) || !(*md)[2].sameAs(ir::Dim(1)) ||
        !(*md)[3].sameAs((*sd)[3])) {
      why = Text::of("the additive mask is not [B, 1, 1, T] (%1)", typeText(m4));
      return nullptr;
    }
    ir::Value* m2 = paddingSource(m4, *sd, side);
    if (!m2) {
      why = "the additive mask is not unsqueezed from a [B, T] mask";
      return nullptr;
    }
    if (!assumeBinary) {
      why = kBinaryWhy;
      return nullptr;
    }
    if (mask.index) {
      why = "two masks";
      return nullptr;
    }
    mask.index = m2;
    mask.filter = static_cast<float>(k);
    mask.core.push_back(&n);
    mask.side.insert(mask.side.end(), side.begin(), side.end());
    return s;
  }
  return v;
}

// One mask applied to `v` (the Softmax input, or what an earlier mask read):
// the scores it masks, `v` itself when it is no mask, nullptr with `why`.
ir::Value* peelOneMask(ir::Value* v, Mask& mask, bool assumeBinary, Text& why) {
  ir::Node* n = v->producer();
  if (!n || !n->domain().empty() || n->inputCount() != (n->opType() == "Where" ? 3u : 2u)) return v;
  if (n->opType() == "Where") return peelCausal(*n, mask, why);
  if (n->opType() == "Sub") return peelMegatron(v, *n, mask, assumeBinary, why);
  if (n->opType() == "Add") return peelPadding(v, *n, mask, assumeBinary, why);
  return v;
}

}  // namespace

ir::Value* peelMask(ir::Value* v, Mask& mask, bool assumeBinary, Text& why) {
  for (int i = 0; i < 3; ++i) {
    ir::Value* s = peelOneMask(v, mask, assumeBinary, why);
    if (!s || s == v) return s;
    v = s;
  }
  return v;
}

}  // namespace passlab::passes::ortattention
