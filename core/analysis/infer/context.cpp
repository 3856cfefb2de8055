#include "core/analysis/infer/context.h"

namespace passlab::analysis::infer {

namespace {
const ir::Type kUndefinedType;
}

KnownValue KnownValue::vector(std::vector<SymInt> elems, ir::DataType dtype) {
  KnownValue v;
  v.dtype = dtype;
  v.dims = {static_cast<int64_t>(elems.size())};
  v.elems = std::move(elems);
  return v;
}

KnownValue KnownValue::scalar(SymInt s, ir::DataType dtype) {
  KnownValue v;
  v.dtype = dtype;
  v.elems = {std::move(s)};
  return v;
}

std::optional<std::vector<int64_t>> KnownValue::numbers() const {
  std::vector<int64_t> out;
  out.reserve(elems.size());
  for (const auto& e : elems) {
    auto c = e.constant();
    if (!c) return std::nullopt;
    out.push_back(*c);
  }
  return out;
}

InferContext::InferContext(Session& session, ir::Node& node)
    : session_(session),
      node_(node),
      opset_(session.opsetVersion(node.domain())),
      outTypes_(node.outputCount()),
      outValues_(node.outputCount()) {}

const ir::Type& InferContext::inputType(size_t i) const {
  const ir::Value* v = node_.input(i);
  return v ? v->type() : kUndefinedType;
}

const ir::Shape* InferContext::inputShape(size_t i) const {
  const ir::Type& t = inputType(i);
  if ((t.kind() != ir::Type::Kind::kTensor && t.kind() != ir::Type::Kind::kSparseTensor) ||
      !t.hasShape())
    return nullptr;
  return &*t.shape();
}

const KnownValue* InferContext::inputValue(size_t i) const {
  const ir::Value* v = node_.input(i);
  return v ? session_.knownValue(v) : nullptr;
}

std::optional<std::vector<int64_t>> InferContext::inputInts(size_t i) const {
  const KnownValue* k = inputValue(i);
  if (!k) return std::nullopt;
  return k->numbers();
}

const ir::Tensor* InferContext::inputConstant(size_t i) const {
  const ir::Value* v = node_.input(i);
  if (!v) return nullptr;
  if (v->isInitializer()) return v->initializer();
  const ir::Node* p = v->producer();
  if (p && p->opType() == "Constant" && p->domain().empty()) {
    const ir::Attribute* a = p->attr("value");
    if (a && a->type() == ir::AttrType::kTensor) return &a->t;
  }
  return nullptr;
}

const ir::Type& InferContext::outputType(size_t i) const {
  return i < outTypes_.size() ? outTypes_[i] : kUndefinedType;
}

void InferContext::setOutputType(size_t i, ir::Type t) {
  if (i < outTypes_.size()) outTypes_[i] = std::move(t);
}

void InferContext::setOutputElem(size_t i, ir::DataType elem) {
  if (i >= outTypes_.size()) return;
  ir::Type& t = outTypes_[i];
  if (!t.isTensor())
    t = ir::Type::tensor(elem);
  else
    t.setElemType(elem);
}

void InferContext::setOutputShape(size_t i, ir::Shape shape) {
  if (i >= outTypes_.size()) return;
  ir::Type& t = outTypes_[i];
  if (t.kind() != ir::Type::Kind::kTensor && t.kind() != ir::Type::Kind::kSparseTensor)
    t = ir::Type::tensor(ir::DataType::kUndefined);
  t.setShape(std::move(shape));
}

void InferContext::setOutput(size_t i, ir::DataType elem, std::optional<ir::Shape> shape) {
  if (i >= outTypes_.size()) return;
  if (elem == ir::DataType::kUndefined) elem = outTypes_[i].elemType();
  outTypes_[i] = ir::Type::tensor(elem, std::move(shape));
}

void InferContext::setOutputValue(size_t i, KnownValue v) {
  if (i >= outValues_.size() || v.elems.size() > session_.maxConstantElements()) return;
  outValues_[i] = std::move(v);
}

void InferContext::fail(const std::string& message) {
  failures_.push_back(node_.describe() + ": " + message);
}

std::optional<int64_t> InferContext::axis(int64_t a, int64_t rank, std::string_view what) {
  if (a < -rank || a >= rank) {
    fail(std::string(what) + " " + std::to_string(a) + " is out of range for rank " +
         std::to_string(rank));
    return std::nullopt;
  }
  return a < 0 ? a + rank : a;
}

int64_t InferContext::attrInt(std::string_view name, int64_t fallback) const {
  return node_.attrInt(name, fallback);
}

std::string InferContext::attrString(std::string_view name, std::string fallback) const {
  return node_.attrString(name, std::move(fallback));
}

ir::Graph* InferContext::attrGraph(std::string_view name) const {
  const ir::Attribute* a = node_.attr(name);
  return a ? a->g.get() : nullptr;
}

}  // namespace passlab::analysis::infer
