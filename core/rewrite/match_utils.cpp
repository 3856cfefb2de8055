#include "core/rewrite/match_utils.h"

#include <algorithm>
#include <unordered_set>

namespace passlab::rewrite {

std::optional<ir::Tensor> constantValue(const ir::Value* v) {
  if (!v) return std::nullopt;
  if (v->isInitializer() && !v->isGraphInput()) return *v->initializer();
  const ir::Node* p = v->producer();
  if (!p || p->opType() != "Constant" || !p->domain().empty() || p->outputCount() != 1)
    return std::nullopt;
  if (const ir::Attribute* a = p->attr("value"); a && a->type() == ir::AttrType::kTensor)
    return a->t;
  if (const ir::Attribute* a = p->attr("value_float")) return ir::Tensor::scalarFloat(a->f);
  if (const ir::Attribute* a = p->attr("value_int")) return ir::Tensor::scalarInt64(a->i);
  if (const ir::Attribute* a = p->attr("value_floats"))
    return ir::Tensor::fromVector(ir::DataType::kFloat, {static_cast<int64_t>(a->floats.size())},
                                  a->floats);
  if (const ir::Attribute* a = p->attr("value_ints")) return ir::Tensor::fromInt64s(a->ints);
  return std::nullopt;
}

bool isConstant(const ir::Value* v) {
  return constantValue(v).has_value();
}

bool isConstantFilledWith(const ir::Value* v, double x) {
  auto t = constantValue(v);
  if (!t || t->dtype() == ir::DataType::kString || t->dtype() == ir::DataType::kUndefined)
    return false;
  if (t->bytes().size() < t->expectedBytes() || ir::dtypeBits(t->dtype()) < 8) return false;
  int64_t n = t->numel();
  for (int64_t i = 0; i < n; ++i)
    if (t->valueAsDouble(i) != x) return false;
  return true;
}

Text whyNotSoleConsumer(const ir::Value* v) {
  if (!v) return "the value is missing";
  if (v->isGraphOutput()) return Text::of("'%1' is a graph output", v->name());
  if (v->uses().size() != 1)
    return Text::of("'%1' has %2 consumers", v->name(), std::to_string(v->uses().size()));
  const ir::Node* user = v->uses()[0].node;
  if (v->owner() != user->owner()) return Text::of("'%1' is used inside a subgraph", v->name());
  return "";
}

ir::Node* soleConsumer(const ir::Value* v, Text* why) {
  Text reason = whyNotSoleConsumer(v);
  const bool sole = reason.empty();
  if (why) *why = std::move(reason);
  return sole ? v->uses()[0].node : nullptr;
}

ir::Node* onlyReader(const ir::Value* v, std::string_view ignoredOp) {
  if (!v) return nullptr;
  ir::Node* found = nullptr;
  for (const ir::Use& u : v->uses()) {
    if (!ignoredOp.empty() && u.node->domain().empty() && u.node->opType() == ignoredOp) continue;
    if (found) return nullptr;
    found = u.node;
  }
  return found;
}

Text whyNotReadOnlyBy(const ir::Value* v, const std::vector<ir::Node*>& nodes) {
  if (!v) return "the value is missing";
  if (v->isGraphOutput()) return Text::of("'%1' is a graph output", v->name());
  for (const ir::Use& u : usesInNodeOrder(v))
    if (std::find(nodes.begin(), nodes.end(), u.node) == nodes.end())
      return Text::of("'%1' has a consumer outside the pattern (%2)", v->name(), nodeText(*u.node));
  return "";
}

Text whyNotClosed(const std::vector<ir::Node*>& nodes, const ir::Node* last) {
  const std::unordered_set<const ir::Node*> in(nodes.begin(), nodes.end());
  for (const ir::Node* n : nodes) {
    if (n == last) continue;
    for (const ir::Value* o : n->outputs()) {
      if (!o) continue;
      if (o->isGraphOutput()) return Text::of("'%1' is a graph output", o->name());
      for (const ir::Use& u : usesInNodeOrder(o)) {
        if (u.node->owner() != n->owner())
          return Text::of("'%1' is used inside a subgraph", o->name());
        if (!in.count(u.node))
          return Text::of("'%1' has a consumer outside the pattern (%2)", o->name(),
                          nodeText(*u.node));
      }
    }
  }
  return "";
}

std::string nodeText(const ir::Node& n) {
  std::string s = n.qualifiedOpType();
  if (!n.name().empty()) s += " '" + n.name() + "'";
  return s;
}

std::optional<std::vector<int64_t>> staticDims(const ir::Value* v) {
  if (!v || !v->type().isTensor() || !v->type().hasShape()) return std::nullopt;
  return v->type().shape()->staticDims();
}

bool broadcastKeepsShape(const ir::Value* x, const ir::Value* other) {
  if (!x || !other) return false;
  const ir::Type& tx = x->type();
  const ir::Type& to = other->type();
  if (!tx.isTensor() || !to.isTensor() || !tx.hasShape() || !to.hasShape()) return false;
  const auto& dx = tx.shape()->dims();
  const auto& dn = to.shape()->dims();
  if (dn.size() > dx.size()) return false;
  size_t off = dx.size() - dn.size();
  for (size_t i = 0; i < dn.size(); ++i) {
    const ir::Dim& a = dx[off + i];
    const ir::Dim& b = dn[i];
    if (b.isStatic() && b.value() == 1) continue;
    if (!a.sameAs(b)) return false;
  }
  return true;
}

bool sameTensorType(const ir::Value* a, const ir::Value* b) {
  if (!a || !b) return false;
  const ir::Type& ta = a->type();
  const ir::Type& tb = b->type();
  if (!ta.isTensor() || !tb.isTensor() || ta.elemType() != tb.elemType() ||
      ta.elemType() == ir::DataType::kUndefined)
    return false;
  if (!ta.hasShape() || !tb.hasShape() || ta.shape()->rank() != tb.shape()->rank()) return false;
  for (size_t i = 0; i < ta.shape()->rank(); ++i)
    if (!(*ta.shape())[i].sameAs((*tb.shape())[i])) return false;
  return true;
}

std::optional<std::vector<int64_t>> intsFromAttrOrInput(const ir::Node& n, const char* attr,
                                                        size_t inputIndex) {
  if (const ir::Attribute* a = n.attr(attr)) return a->ints;
  const ir::Value* in = n.input(inputIndex);
  if (!in) return std::vector<int64_t>{};
  auto t = constantValue(in);
  if (!t) return std::nullopt;
  return t->toInt64Vector();
}

int64_t defaultOpset(const ir::Model& model) {
  return model.opsetVersion("").value_or(1);
}

std::vector<ir::Use> usesInNodeOrder(const ir::Value* v) {
  std::vector<ir::Use> out = v->uses();
  std::sort(out.begin(), out.end(), [](const ir::Use& a, const ir::Use& b) {
    return a.node->id() != b.node->id() ? a.node->id() < b.node->id() : a.inputIndex < b.inputIndex;
  });
  return out;
}

}  // namespace passlab::rewrite
