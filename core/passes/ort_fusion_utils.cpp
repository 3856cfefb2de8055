#include "core/passes/ort_fusion_utils.h"

#include <algorithm>

namespace passlab::passes::ortfusion {

bool isMs(const ir::Node* n, std::string_view op) {
  return n && n->domain() == kMsDomain && n->opType() == op;
}

ir::Node* addMsNode(rewrite::Rewriter& rw, const std::string& op,
                    const std::vector<ir::Value*>& inputs, ir::Node* before,
                    const std::vector<const ir::Node*>& from,
                    const std::vector<const ir::Value*>& typesLike, size_t outputs) {
  if (!rw.model().opsetVersion(kMsDomain)) rw.setOpsetVersion(kMsDomain, 1);
  ir::Node* n = rw.addNode(*before->owner(), op, kMsDomain, inputs, outputs, before, "", from);
  for (size_t i = 0; i < typesLike.size() && i < outputs; ++i)
    if (typesLike[i] && !typesLike[i]->type().isUndefined())
      rw.setType(n->output(i), typesLike[i]->type());
  return n;
}

std::optional<BiasAdd> biasAddOf(const ir::Value* v, Text& why) {
  ir::Node* add = producerOp(v, "Add");
  if (!add || add->inputCount() != 2) {
    why = "not an Add";
    return std::nullopt;
  }
  for (size_t i = 0; i < 2; ++i) {
    ir::Value* b = add->input(1 - i);
    ir::Value* m = add->input(i);
    auto t = rewrite::constantValue(b);
    if (!t || rewrite::isConstant(m)) continue;
    auto md = m->type().shape();
    if (t->rank() != 1 || !md || md->rank() == 0) {
      why = "the Add's constant is not a 1-D bias";
      return std::nullopt;
    }
    const ir::Dim& last = (*md)[md->rank() - 1];
    if (!last.isStatic() || last.value() != t->dims()[0]) {
      why = "the bias does not hold one value per element of the last dim";
      return std::nullopt;
    }
    if (t->dtype() != elemTypeOf(m) || !rewrite::sameTensorType(m, v)) {
      why = "the bias Add changes the type or shape";
      return std::nullopt;
    }
    return BiasAdd{add, m, b};
  }
  why = "the Add has no constant operand";
  return std::nullopt;
}

bool isEmbeddingLookup(const ir::Value* v) {
  ir::Node* g = producerOp(v, "Gather");
  if (!g || g->attrInt("axis", 0) != 0) return false;
  auto t = rewrite::constantValue(g->input(0));
  return t && t->rank() == 2;
}

ir::Value* castTo(rewrite::Rewriter& rw, ir::Value* v, ir::DataType dtype, ir::Node* before,
                  const std::vector<const ir::Node*>& from) {
  if (elemTypeOf(v) == dtype) return v;
  ir::Node* c = rw.addNode(*before->owner(), "Cast", "", {v}, 1, before, "", from);
  rw.setAttr(c, ir::Attribute::makeInt("to", static_cast<int64_t>(dtype)));
  if (v->type().isTensor()) rw.setType(c->output(0), ir::Type::tensor(dtype, v->type().shape()));
  return c->output(0);
}

ir::Node* beforeReaders(const ir::Graph& g, const ir::Value* v, ir::Node* last) {
  std::vector<ir::Node*> readers{last};
  for (const ir::Use& u : v->uses()) {
    ir::Node* n = u.node;
    while (n && n->owner() != &g) n = n->owner()->parentNode();
    if (n) readers.push_back(n);
  }
  return fusion::firstInOrder(g, readers);
}

}  // namespace passlab::passes::ortfusion
