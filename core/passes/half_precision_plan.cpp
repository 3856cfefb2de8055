#include "core/passes/half_precision_plan.h"

#include <algorithm>
#include <optional>

#include "core/ir/op_schema.h"
#include "core/passes/rule_helpers.h"

namespace passlab::passes {

namespace {

bool isFloat32Tensor(const ir::Value* v) {
  return v && v->type().isTensor() && v->type().elemType() == ir::DataType::kFloat;
}

// Ops whose float result type an attribute sets, and that the pass patches.
bool isPatchedTypeSetter(const ir::Node& n) {
  if (!n.domain().empty()) return false;
  const std::string& op = n.opType();
  return op == "Cast" || op == "ConstantOfShape" || op == "Constant" || op == "EyeLike";
}

bool isHalfFloat(ir::DataType t) {
  return t == ir::DataType::kFloat16 || t == ir::DataType::kBFloat16;
}

bool hasTypeAttribute(const ir::Node& n) {
  for (const char* a : {"to", "dtype", "output_dtype"})
    if (n.hasAttr(a)) return true;
  return false;
}

// Whether the schema lets value slot `param` take the target type: kConvert,
// kKeep (a fixed type, it stays float32), kRefuse (a type parameter that
// does not allow it).
enum class Slot { kConvert, kKeep, kRefuse };

Slot slotRule(const ir::OpSchema& s, const ir::FormalParam* param, ir::DataType target) {
  if (!param) return Slot::kRefuse;
  const ir::TypeConstraint* tc = s.constraint(param->typeStr);
  if (!tc) return Slot::kKeep;  // "tensor(float)": a fixed type
  return (tc->tensorElemBits >> static_cast<int>(target)) & 1 ? Slot::kConvert : Slot::kRefuse;
}

// The values of graph `g` that nodes inside its subgraphs read, or that a
// subgraph returns as it is.
std::unordered_set<const ir::Value*> readInSubgraphs(const ir::Graph& g) {
  std::unordered_set<const ir::Value*> out;
  for (const auto& n : g.nodes())
    for (size_t i = 0; i < n->outputCount(); ++i)
      if (const ir::Value* v = n->output(i)) {
        for (const ir::Use& u : v->uses())
          if (u.node->owner() != &g) out.insert(v);
        if (v->isGraphOutput())
          for (const ir::Graph* og : v->outputOf())
            if (og != &g) out.insert(v);
      }
  return out;
}

class Planner {
 public:
  Planner(const ir::Model& model, const ir::Graph& graph, const HalfPrecisionOptions& options)
      : model_(model), graph_(graph), options_(options), nested_(readInSubgraphs(graph)) {}

  HalfPrecisionPlan run() {
    for (const auto& n : graph_.nodes()) {
      if (!touchesFloat32(*n)) continue;
      NodeConversion c;
      Text why = whyNot(*n, c);
      if (why.empty()) {
        plan_.converted.emplace(n.get(), std::move(c));
        continue;
      }
      plan_.kept.emplace_back(n.get(), std::move(why));
      if (auto either = eitherTypeInputs(*n)) plan_.eitherType.emplace(n.get(), std::move(*either));
    }
    dropIsolated();
    return std::move(plan_);
  }

 private:
  static bool touchesFloat32(const ir::Node& n) {
    for (const ir::Value* v : n.inputs())
      if (isFloat32Tensor(v)) return true;
    for (const ir::Value* v : n.outputs())
      if (isFloat32Tensor(v)) return true;
    return false;
  }

  // "" and the slots in `c` when `n` converts; else why it stays float32.
  Text whyNot(const ir::Node& n, NodeConversion& c) const {
    if (options_.blockedNodes.count(n.name())) return "the node is in the node block list";
    if (options_.filter && !options_.filter->allows(n.id()))
      return "not applied: the node is excluded from this pass";
    if (options_.blockedOps.count(n.opType()))
      return Text::of("%1 is in the op block list", n.opType());
    if (n.hasSubgraphs())
      return entersSubgraphs(n, options_)
                 ? "it holds subgraphs: their nodes convert on their own, with float32 inputs "
                   "and outputs"
                 : "it holds subgraphs (they stay float32)";
    if (hasTypeAttribute(n) && !isPatchedTypeSetter(n)) return "an attribute sets its output type";
    if (isDefaultOp(n, "Cast") && n.input(0) && isHalfFloat(n.input(0)->type().elemType()))
      return "it casts from a 16-bit float (a boundary of a converted region)";
    for (const ir::Value* v : n.outputs())
      if (v && nested_.count(v)) return Text::of("'%1' is read inside a subgraph", v->name());
    const ir::OpSchema* s =
        ir::OpRegistry::instance().find(n, model_.opsetVersion(n.domain()).value_or(1));
    if (!s) return "its schema is unknown";
    if (!s->deterministic) return "it draws random numbers";
    c.inputs.assign(n.inputCount(), false);
    c.outputs.assign(n.outputCount(), false);
    bool anyOutput = false;
    for (size_t i = 0; i < n.inputCount(); ++i) {
      if (!isFloat32Tensor(n.input(i))) continue;
      Slot r = slotRule(*s, s->inputParam(i), options_.target);
      if (r == Slot::kRefuse) return refused("input", i, n.input(i));
      c.inputs[i] = r == Slot::kConvert;
    }
    for (size_t i = 0; i < n.outputCount(); ++i) {
      if (!isFloat32Tensor(n.output(i))) continue;
      Slot r = slotRule(*s, s->outputParam(i), options_.target);
      if (r == Slot::kRefuse) return refused("output", i, n.output(i));
      c.outputs[i] = r == Slot::kConvert;
      anyOutput = anyOutput || c.outputs[i];
    }
    // Only a node with a 16-bit result computes in 16 bits (a comparison or a
    // Shape of float32 values stays: it would only add Casts).
    if (!anyOutput) return "no float32 result of it may change type";
    return "";
  }

  bool isConverted(const ir::Node* n) const { return n && plan_.converted.count(n) > 0; }

  // Whether converted node `n` has a converted neighbour: a producer of a
  // converted input, or a reader of a converted output.
  bool hasConvertedNeighbour(const ir::Node& n, const NodeConversion& c) const {
    for (size_t i = 0; i < c.inputs.size(); ++i)
      if (c.inputs[i] && isConverted(n.input(i)->producer())) return true;
    for (size_t i = 0; i < c.outputs.size(); ++i)
      if (c.outputs[i])
        for (const ir::Use& u : n.output(i)->uses())
          if (isConverted(u.node)) return true;
    return false;
  }

  // Reads a weight: an initializer or a Constant node's value.
  static bool readsWeights(const ir::Node& n, const NodeConversion& c) {
    for (size_t i = 0; i < c.inputs.size(); ++i) {
      if (!c.inputs[i]) continue;
      const ir::Value* v = n.input(i);
      if (v->isInitializer() || (v->producer() && isDefaultOp(*v->producer(), "Constant")))
        return true;
    }
    return false;
  }

  // A converted node without weights whose neighbours all stay float32 would
  // only add a Cast on each side: it stays too (to a fixpoint, as each one
  // dropped may leave another alone).
  void dropIsolated() {
    for (bool dropped = true; dropped;) {
      dropped = false;
      for (auto it = plan_.converted.begin(); it != plan_.converted.end();) {
        const ir::Node& n = *it->first;
        if (readsWeights(n, it->second) || hasConvertedNeighbour(n, it->second)) {
          ++it;
          continue;
        }
        Text why = "its neighbours stay float32: the Casts around it would cost more than it saves";
        plan_.kept.emplace_back(&n, std::move(why));
        it = plan_.converted.erase(it);
        dropped = true;
      }
    }
  }

  // The inputs of a kept node bound to a type parameter no other input or
  // output shares and that allows the target type; nullopt when none.
  std::optional<std::vector<bool>> eitherTypeInputs(const ir::Node& n) const {
    if (n.hasSubgraphs() || options_.blockedNodes.count(n.name()) ||
        options_.blockedOps.count(n.opType()))
      return std::nullopt;
    const ir::OpSchema* s =
        ir::OpRegistry::instance().find(n, model_.opsetVersion(n.domain()).value_or(1));
    if (!s) return std::nullopt;
    std::vector<bool> either(n.inputCount(), false);
    bool any = false;
    for (size_t i = 0; i < n.inputCount(); ++i) {
      const ir::FormalParam* p = s->inputParam(i);
      if (!isFloat32Tensor(n.input(i)) || !p || slotRule(*s, p, options_.target) != Slot::kConvert)
        continue;
      bool shared = false;
      for (size_t j = 0; j < n.inputCount() && !shared; ++j)
        shared = j != i && s->inputParam(j) && s->inputParam(j)->typeStr == p->typeStr;
      for (size_t j = 0; j < n.outputCount() && !shared; ++j)
        shared = s->outputParam(j) && s->outputParam(j)->typeStr == p->typeStr;
      either[i] = !shared;
      any = any || !shared;
    }
    if (!any) return std::nullopt;
    return either;
  }

  Text refused(const char* side, size_t i, const ir::Value* v) const {
    return Text::of("its schema does not allow %1 for %2 %3 '%4'",
                    std::string(ir::dtypeName(options_.target)), side, std::to_string(i),
                    v->name());
  }

  const ir::Model& model_;
  const ir::Graph& graph_;
  const HalfPrecisionOptions& options_;
  std::unordered_set<const ir::Value*> nested_;
  HalfPrecisionPlan plan_;
};

}  // namespace

const std::vector<std::string>& defaultHalfPrecisionBlockList() {
  static const std::vector<std::string> ops = {
      // random draws (also refused as non-deterministic by their schemas)
      "RandomNormal", "RandomUniform", "RandomNormalLike", "RandomUniformLike", "Bernoulli",
      "Multinomial",
      // detection post-processing: boxes and scores compared at float32 precision
      "NonMaxSuppression", "RoiAlign",
      // index generation
      "Range"};
  return ops;
}

bool entersSubgraphs(const ir::Node& n, const HalfPrecisionOptions& options) {
  return options.enterSubgraphs && !options.blockedNodes.count(n.name()) &&
         !options.blockedOps.count(n.opType()) &&
         (!options.filter || !options.filter->excluded.count(n.id()));
}

HalfPrecisionPlan planHalfPrecision(const ir::Model& model, const HalfPrecisionOptions& options) {
  return Planner(model, model.graph(), options).run();
}

HalfPrecisionPlan planHalfPrecision(const ir::Model& model, const ir::Graph& graph,
                                    const HalfPrecisionOptions& options) {
  return Planner(model, graph, options).run();
}

}  // namespace passlab::passes
