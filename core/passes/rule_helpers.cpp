#include "core/passes/rule_helpers.h"

#include <algorithm>
#include <set>

#include "core/ir/attribute_copy.h"
#include "core/ir/op_schema.h"

namespace passlab::passes {

rewrite::MatchResult forwardInput(ir::Node& node, size_t in, size_t out) {
  ir::Value* x = node.input(in);
  ir::Value* y = node.output(out);
  if (!x || !y) return rewrite::MatchResult::failure("the input or output is missing");
  for (size_t i = 0; i < node.outputCount(); ++i)
    if (i != out && node.output(i) &&
        (node.output(i)->hasUses() || node.output(i)->isGraphOutput()))
      return rewrite::MatchResult::failure(
          Text::of("output %1 '%2' is used", std::to_string(i), node.output(i)->name()));
  if (Text why = rewrite::Rewriter::canReplace(y, x); !why.empty())
    return rewrite::MatchResult::failure(why);
  return rewrite::MatchResult::success({&node}, [&node, x, y](rewrite::Rewriter& rw) {
    rw.replaceAllUsesWith(y, x);
    rw.removeNode(&node);
  });
}

rewrite::MatchResult forwardValue(ir::Node& node, ir::Value* replacement, size_t out,
                                  std::vector<ir::Node*> consumed) {
  ir::Value* y = node.output(out);
  if (!replacement || !y) return rewrite::MatchResult::failure("the input or output is missing");
  for (size_t i = 0; i < node.outputCount(); ++i)
    if (i != out && node.output(i) &&
        (node.output(i)->hasUses() || node.output(i)->isGraphOutput()))
      return rewrite::MatchResult::failure(
          Text::of("output %1 '%2' is used", std::to_string(i), node.output(i)->name()));
  if (Text why = rewrite::Rewriter::canReplace(y, replacement); !why.empty())
    return rewrite::MatchResult::failure(why);
  std::vector<ir::Node*> nodes{&node};
  nodes.insert(nodes.end(), consumed.begin(), consumed.end());
  return rewrite::MatchResult::success(std::move(nodes),
                                       [&node, replacement, y, consumed](rewrite::Rewriter& rw) {
                                         rw.replaceAllUsesWith(y, replacement);
                                         removeWithConstants(rw, &node);
                                         for (ir::Node* c : consumed) {
                                           bool dead = true;
                                           for (ir::Value* o : c->outputs())
                                             if (o && (o->hasUses() || o->isGraphOutput()))
                                               dead = false;
                                           if (dead) removeWithConstants(rw, c);
                                         }
                                       });
}

ir::DataType elemTypeOf(const ir::Value* v) {
  return v && v->type().isTensor() ? v->type().elemType() : ir::DataType::kUndefined;
}

bool isDefaultOp(const ir::Node& n, std::string_view op) {
  return n.domain().empty() && n.opType() == op;
}

ir::Node* producerOp(const ir::Value* v, std::string_view op) {
  if (!v || !v->producer()) return nullptr;
  ir::Node* p = v->producer();
  return isDefaultOp(*p, op) ? p : nullptr;
}

std::optional<int64_t> rankOf(const ir::Value* v) {
  if (!v || !v->type().isTensor() || !v->type().hasShape()) return std::nullopt;
  return static_cast<int64_t>(v->type().shape()->rank());
}

std::string typeText(const ir::Value* v) {
  if (!v) return "missing";
  if (v->type().isUndefined()) return "unknown";
  return v->type().toString();
}

std::string intsText(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::optional<std::vector<int64_t>> normalizeAxes(const std::vector<int64_t>& axes,
                                                  std::optional<int64_t> rank) {
  std::vector<int64_t> out;
  std::set<int64_t> seen;
  for (int64_t a : axes) {
    if (a < 0) {
      if (!rank) return std::nullopt;
      a += *rank;
    }
    if (a < 0 || (rank && a >= *rank) || !seen.insert(a).second) return std::nullopt;
    out.push_back(a);
  }
  return out;
}

std::optional<std::vector<int64_t>> constantInts(const ir::Value* v) {
  auto t = rewrite::constantValue(v);
  if (!t || !ir::isInteger(t->dtype()) || t->bytes().size() < t->expectedBytes())
    return std::nullopt;
  return t->toInt64Vector();
}

bool castIsExact(ir::DataType from, ir::DataType to) {
  using D = ir::DataType;
  if (from == to) return true;
  auto in = [to](std::initializer_list<D> l) {
    return std::find(l.begin(), l.end(), to) != l.end();
  };
  // Every value of `from` is a value of `to`. float8 and 4-bit types are left
  // out: casting back to them saturates (inf -> max for float8e5m2).
  switch (from) {
    case D::kBool:
      return in({D::kUInt8, D::kInt8, D::kUInt16, D::kInt16, D::kUInt32, D::kInt32, D::kUInt64,
                 D::kInt64, D::kFloat16, D::kBFloat16, D::kFloat, D::kDouble});
    case D::kUInt8:
      return in({D::kUInt16, D::kInt16, D::kUInt32, D::kInt32, D::kUInt64, D::kInt64, D::kFloat16,
                 D::kBFloat16, D::kFloat, D::kDouble});
    case D::kInt8:
      return in(
          {D::kInt16, D::kInt32, D::kInt64, D::kFloat16, D::kBFloat16, D::kFloat, D::kDouble});
    case D::kUInt16:
      return in({D::kUInt32, D::kInt32, D::kUInt64, D::kInt64, D::kFloat, D::kDouble});
    case D::kInt16:
      return in({D::kInt32, D::kInt64, D::kFloat, D::kDouble});
    case D::kUInt32:
      return in({D::kUInt64, D::kInt64, D::kDouble});
    case D::kInt32:
      return in({D::kInt64, D::kDouble});
    case D::kFloat16:
      return in({D::kFloat, D::kDouble});
    case D::kBFloat16:
      return in({D::kFloat, D::kDouble});
    case D::kFloat:
      return in({D::kDouble});
    default:
      return false;
  }
}

namespace {
// Constant-1 holds float16, float and double; Constant-9 and later any type.
bool constantNodeHolds(const ir::Model& model, ir::DataType type) {
  if (model.opsetVersion("").value_or(1) >= 9) return true;
  return type == ir::DataType::kFloat16 || type == ir::DataType::kFloat ||
         type == ir::DataType::kDouble;
}
}  // namespace

ir::Value* addConstant(rewrite::Rewriter& rw, ir::Graph& graph, ir::Node* before,
                       const std::string& hint, ir::Tensor t,
                       const std::vector<const ir::Node*>& derivedFrom, bool asNode) {
  if (!constantNodeHolds(rw.model(), t.dtype())) {
    rw.raiseIrVersion(4);
    return rw.addInitializer(graph, hint, std::move(t));
  }
  if (!asNode && rw.model().irVersion >= 4) return rw.addInitializer(graph, hint, std::move(t));
  ir::Graph& g = before ? *before->owner() : graph;
  ir::Node* c = rw.addNode(g, "Constant", "", {}, 1, before,
                           g.freshName(hint.empty() ? "const" : hint), derivedFrom);
  ir::Type type = ir::Type::tensor(t.dtype(), t.shape());
  rw.setAttr(c, ir::Attribute::makeTensor("value", std::move(t)));
  rw.setType(c->output(0), std::move(type));
  return c->output(0);
}

void dropIfUnused(rewrite::Rewriter& rw, ir::Value* v) {
  if (!v || v->hasUses() || v->isGraphOutput()) return;
  if (v->isInitializer()) {
    if (!v->isGraphInput()) rw.removeInitializer(v);
    return;
  }
  if (ir::Node* p = producerOp(v, "Constant")) rw.eraseIfDead(p);
}

void removeWithConstants(rewrite::Rewriter& rw, ir::Node* node) {
  std::vector<ir::Value*> ins;
  for (ir::Value* v : node->inputs())
    if (v && std::find(ins.begin(), ins.end(), v) == ins.end()) ins.push_back(v);
  rw.removeNode(node);
  for (ir::Value* v : ins) dropIfUnused(rw, v);
}

void setIntsParam(rewrite::Rewriter& rw, ir::Node* node, const char* attr, size_t inputIndex,
                  bool asInput, const std::vector<int64_t>& values) {
  if (!asInput) {
    rw.setAttr(node, ir::Attribute::makeInts(attr, values));
    return;
  }
  ir::Value* old = node->input(inputIndex);
  ir::Value* c =
      addConstant(rw, *node->owner(), node, attr, ir::Tensor::fromInt64s(values), {node});
  rw.setInput(node, inputIndex, c);
  dropIfUnused(rw, old);
}

std::optional<ir::Attribute> copyAttribute(const ir::Attribute& a) {
  return ir::copyAttribute(a);
}

Text whyNotPure(const ir::Node& n, const ir::Model& model) {
  const std::string& op = n.opType();
  if (n.hasSubgraphs())
    return Text::of(
        "%1 has subgraphs (If/Loop/Scan bodies are neither compared nor evaluated here)", op);
  // Random ops in any domain, whatever their schema says (com.microsoft's
  // BiasDropout and friends are not marked).
  if (op.find("Random") != std::string::npos || op.find("Dropout") != std::string::npos ||
      op == "Bernoulli" || op == "Multinomial")
    return Text::of("%1 draws random numbers", op);
  std::string_view domain = ir::OpRegistry::canonicalDomain(n.domain());
  const auto& reg = ir::OpRegistry::instance();
  int64_t version = model.opsetVersion(std::string(domain)).value_or(reg.maxOpset(domain));
  const ir::OpSchema* schema = reg.find(domain, op, version);
  if (!schema)
    return Text::of("PassLab has no schema for %1, so it cannot tell whether it is deterministic",
                    n.qualifiedOpType());
  // ONNX marks these pure permutations non-deterministic; they are not.
  bool knownPure = domain.empty() && (op == "DepthToSpace" || op == "SpaceToDepth");
  if (!schema->deterministic && !knownPure)
    return Text::of("ONNX marks %1 as non-deterministic", op);
  return "";
}

}  // namespace passlab::passes
