// Output element types from the op schema: a concrete type ("tensor(int64)"), a
// type parameter allowing one type, or a type parameter shared with an input
// whose type is known.
#include <string_view>

#include "core/analysis/infer/rules.h"
#include "core/ir/op_schema.h"

namespace passlab::analysis::infer {

namespace {

// Reads "tensor(float)", "seq(tensor(int64))", "optional(seq(tensor(float)))",
// "map(int64,tensor(float))", "sparse_tensor(float)". Undefined if not understood.
ir::Type typeFromString(std::string_view s) {
  auto inside = [&](std::string_view prefix) -> std::optional<std::string_view> {
    if (s.size() < prefix.size() + 2 || s.substr(0, prefix.size()) != prefix ||
        s[prefix.size()] != '(' || s.back() != ')')
      return std::nullopt;
    return s.substr(prefix.size() + 1, s.size() - prefix.size() - 2);
  };
  if (auto in = inside("tensor")) {
    auto dt = ir::dtypeFromName(*in);
    return dt ? ir::Type::tensor(*dt) : ir::Type();
  }
  if (auto in = inside("sparse_tensor")) {
    auto dt = ir::dtypeFromName(*in);
    return dt ? ir::Type::sparseTensor(*dt) : ir::Type();
  }
  if (auto in = inside("seq")) {
    ir::Type inner = typeFromString(*in);
    return inner.isUndefined() ? ir::Type() : ir::Type::sequence(inner);
  }
  if (auto in = inside("optional")) {
    ir::Type inner = typeFromString(*in);
    return inner.isUndefined() ? ir::Type() : ir::Type::optional(inner);
  }
  if (auto in = inside("map")) {
    size_t comma = in->find(',');
    if (comma == std::string_view::npos) return {};
    auto key = ir::dtypeFromName(in->substr(0, comma));
    std::string_view rest = in->substr(comma + 1);
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    ir::Type value = typeFromString(rest);
    if (!key || value.isUndefined()) return {};
    return ir::Type::map(*key, value);
  }
  return {};
}

// The type without shapes (schemas bind element types, not shapes).
ir::Type withoutShapes(const ir::Type& t) {
  switch (t.kind()) {
    case ir::Type::Kind::kTensor:
      return ir::Type::tensor(t.elemType());
    case ir::Type::Kind::kSparseTensor:
      return ir::Type::sparseTensor(t.elemType());
    case ir::Type::Kind::kSequence:
      return ir::Type::sequence(withoutShapes(*t.inner()));
    case ir::Type::Kind::kOptional:
      return ir::Type::optional(withoutShapes(*t.inner()));
    default:
      return t;
  }
}

bool isUseful(const ir::Type& t) {
  if (t.isUndefined()) return false;
  if (t.isTensor()) return t.elemType() != ir::DataType::kUndefined;
  return true;
}

}  // namespace

void inferTypesFromSchema(InferContext& ctx) {
  const ir::Node& n = ctx.node();
  const ir::OpSchema* schema = ir::OpRegistry::instance().find(n, ctx.opset());
  if (!schema) return;
  for (size_t i = 0; i < ctx.outputCount(); ++i) {
    if (!ctx.hasOutput(i)) continue;
    const ir::FormalParam* p = schema->outputParam(i);
    if (!p) continue;
    ir::Type t = typeFromString(p->typeStr);
    if (t.isUndefined()) {
      const ir::TypeConstraint* c = schema->constraint(p->typeStr);
      if (c && c->allowed.size() == 1) t = typeFromString(c->allowed[0]);
    }
    if (t.isUndefined() && p->homogeneous) {
      for (size_t j = 0; j < ctx.inputCount(); ++j) {
        const ir::FormalParam* q = schema->inputParam(j);
        if (q && q->typeStr == p->typeStr && q->homogeneous && isUseful(ctx.inputType(j))) {
          t = withoutShapes(ctx.inputType(j));
          break;
        }
      }
    }
    if (!t.isUndefined()) ctx.setOutputType(i, std::move(t));
  }
}

bool checkArity(InferContext& ctx) {
  const ir::Node& n = ctx.node();
  const ir::OpSchema* schema = ir::OpRegistry::instance().find(n, ctx.opset());
  if (!schema) return true;
  auto inputs = static_cast<int>(n.inputCount()), outputs = static_cast<int>(n.outputCount());
  if (inputs < schema->minInputs()) {
    ctx.fail("needs at least " + std::to_string(schema->minInputs()) + " input" +
             (schema->minInputs() == 1 ? "" : "s") + ", has " + std::to_string(inputs));
    return false;
  }
  if (inputs > schema->maxInputs()) {
    ctx.fail("has " + std::to_string(inputs) + " inputs, at most " +
             std::to_string(schema->maxInputs()) + " allowed");
    return false;
  }
  if (outputs > schema->maxOutputs()) {
    ctx.fail("has " + std::to_string(outputs) + " outputs, at most " +
             std::to_string(schema->maxOutputs()) + " allowed");
    return false;
  }
  for (size_t i = 0; i < n.inputCount(); ++i) {
    const ir::FormalParam* p = schema->inputParam(i);
    if (p && p->option == ir::ParamOption::kSingle && !n.input(i)) {
      ctx.fail("input " + std::to_string(i) + " (" + p->name + ") is required");
      return false;
    }
  }
  return true;
}

}  // namespace passlab::analysis::infer
