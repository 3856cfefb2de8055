#include "core/pipeline/graph_facts.h"

#include "core/ir/graph.h"

namespace passlab::pipeline {

bool standardOp(const ir::Node& n) {
  return n.domain().empty() || n.domain() == "ai.onnx";
}

const ir::Tensor* constantOf(const ir::Value* v) {
  if (!v) return nullptr;
  if (const ir::Tensor* t = v->initializer()) return t;
  const ir::Node* p = v->producer();
  if (p && p->opType() == "Constant" && standardOp(*p))
    if (const ir::Attribute* a = p->attr("value")) return &a->t;
  return nullptr;
}

std::optional<std::vector<int64_t>> staticDims(const ir::Value* v) {
  if (!v) return std::nullopt;
  if (const ir::Tensor* t = constantOf(v)) return t->dims();
  const ir::Type& t = v->type();
  if (!t.isTensor() || !t.hasShape()) return std::nullopt;
  std::vector<int64_t> dims;
  for (const ir::Dim& d : t.shape()->dims()) {
    if (!d.isStatic()) return std::nullopt;
    dims.push_back(d.value());
  }
  return dims;
}

std::string nodeName(const ir::Node& n) {
  return n.opType() + " '" +
         (n.name().empty() ? n.output(0) ? n.output(0)->name() : "?" : n.name()) + "'";
}

}  // namespace passlab::pipeline
