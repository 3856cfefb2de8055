// The inference driver: visits graphs in node order, runs one rule per node
// (after the schema's element types), merges results with declared types and
// keeps per-value side tables (tracked integer values) so the whole run is
// linear in the size of the model.
#include "core/analysis/shape_inference.h"

#include <exception>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "core/analysis/infer/context.h"
#include "core/analysis/infer/rules.h"
#include "core/ir/op_schema.h"
#include "core/ir/walk_prefetch.h"

namespace passlab::analysis {

namespace {

using infer::InferContext;
using infer::KnownValue;

bool isTensorLike(const ir::Type& t) {
  return t.kind() == ir::Type::Kind::kTensor || t.kind() == ir::Type::Kind::kSparseTensor;
}

bool typeKnown(const ir::Type& t) {
  if (t.isUndefined()) return false;
  if (isTensorLike(t) || t.kind() == ir::Type::Kind::kMap)
    return t.elemType() != ir::DataType::kUndefined;
  return true;
}

bool rankKnown(const ir::Type& t) {
  return typeKnown(t) && (!isTensorLike(t) || t.hasShape());
}

// Why a declared type and an inferred one cannot both hold, or "".
std::string contradiction(const ir::Type& declared, const ir::Type& inferred) {
  if (declared.isUndefined() || inferred.isUndefined()) return "";
  if (declared.kind() != inferred.kind()) return "kinds differ";
  if (!isTensorLike(declared)) return "";
  if (declared.elemType() != ir::DataType::kUndefined &&
      inferred.elemType() != ir::DataType::kUndefined && declared.elemType() != inferred.elemType())
    return "element types differ";
  if (!declared.hasShape() || !inferred.hasShape()) return "";
  const ir::Shape& a = *declared.shape();
  const ir::Shape& b = *inferred.shape();
  if (a.rank() != b.rank()) return "ranks differ";
  for (size_t i = 0; i < a.rank(); ++i)
    if (a[i].isStatic() && b[i].isStatic() && a[i].value() != b[i].value())
      return "dim " + std::to_string(i) + " differs";
  return "";
}

// The declared type with its holes (element type, shape, unknown dims) filled
// from the inferred one.
ir::Type fillHoles(const ir::Type& declared, const ir::Type& inferred) {
  if (declared.isUndefined()) return inferred;
  if (!isTensorLike(declared) || declared.kind() != inferred.kind()) return declared;
  ir::Type out = declared;
  if (out.elemType() == ir::DataType::kUndefined) out.setElemType(inferred.elemType());
  if (!inferred.hasShape()) return out;
  if (!out.hasShape()) {
    out.setShape(inferred.shape());
  } else if (out.shape()->rank() == inferred.shape()->rank()) {
    for (size_t i = 0; i < out.shape()->rank(); ++i) {
      ir::Dim& d = (*out.shape())[i];
      if (d.isUnknown()) {
        std::string denotation = d.denotation();
        d = (*inferred.shape())[i];
        if (!denotation.empty()) d.setDenotation(denotation);
      }
    }
  }
  return out;
}

bool isIntegerLike(ir::DataType t) {
  return ir::isInteger(t) || t == ir::DataType::kBool;
}

class Driver final : public infer::Session {
 public:
  Driver(ir::Model& model, const ShapeInferenceOptions& options)
      : model_(model), options_(options) {
    for (const auto& op : model.opsets)
      opsets_[std::string(ir::OpRegistry::canonicalDomain(op.domain))] = op.version;
  }

  ShapeInferenceReport run() {
    visitGraph(model_.graph());
    ShapeInferenceReport report;
    collect(model_.graph(), report);
    report.opsWithoutRule.assign(noRule_.begin(), noRule_.end());
    for (const auto& [v, k] : known_)
      if (!v->isInitializer()) report.knownContents.push_back(v);
    return report;
  }

  int64_t opsetVersion(const std::string& domain) const override {
    auto it = opsets_.find(std::string(ir::OpRegistry::canonicalDomain(domain)));
    if (it != opsets_.end()) return it->second;
    // Not imported: the newest default-domain opset, version 1 of any other domain.
    return ir::OpRegistry::canonicalDomain(domain).empty() ? ir::OpRegistry::instance().maxOpset("")
                                                           : 1;
  }

  const KnownValue* knownValue(const ir::Value* v) override {
    auto it = known_.find(v);
    if (it != known_.end()) return &it->second;
    if (!v->isInitializer()) return nullptr;
    const ir::Tensor* t = v->initializer();
    if (!isIntegerLike(t->dtype()) || t->numel() < 0 ||
        static_cast<size_t>(t->numel()) > options_.maxConstantElements ||
        t->bytes().size() < t->expectedBytes())
      return nullptr;
    KnownValue k;
    k.dtype = t->dtype();
    k.dims = t->dims();
    for (int64_t x : t->toInt64Vector()) k.elems.emplace_back(x);
    return &known_.emplace(v, std::move(k)).first->second;
  }

  size_t maxConstantElements() const override { return options_.maxConstantElements; }

  std::vector<ir::Type> inferSubgraph(ir::Graph& body, const std::vector<ir::Type>& inputs,
                                      bool neverRuns) override {
    if (!visitedStack_.empty()) visitedStack_.back().insert(&body);
    auto snap = snapshots_.find(&body);
    if (snap == snapshots_.end())
      snapshots_.emplace(&body, takeSnapshot(body));
    else
      restore(snap->second);
    for (size_t i = 0; i < inputs.size() && i < body.inputs().size(); ++i) {
      ir::Value* in = body.inputs()[i];
      if (!inputs[i].isUndefined()) setTypeOf(in, fillHoles(in->type(), inputs[i]));
      known_.erase(in);
    }
    struct Quiet {  // restores the count even if inference throws
      int& depth;
      bool on;
      ~Quiet() { depth -= on ? 1 : 0; }
    } quiet{quiet_, neverRuns};
    quiet_ += neverRuns ? 1 : 0;
    visitGraph(body);
    std::vector<ir::Type> out;
    out.reserve(body.outputs().size());
    for (const ir::Value* v : body.outputs()) out.push_back(v->type());
    return out;
  }

 private:
  using Snapshot = std::vector<std::pair<ir::Value*, ir::Type>>;

  void setTypeOf(ir::Value* v, ir::Type t) {
    if (options_.undo) {
      if (v->type() == t) return;
      options_.undo->typeSet(v, v->type());
    }
    v->setType(std::move(t));
  }

  static void snapshotInto(ir::Graph& g, Snapshot& s) {
    for (ir::Value* v : g.inputs()) s.emplace_back(v, v->type());
    for (const auto& n : g.nodes()) {
      for (ir::Value* v : n->outputs())
        if (v) s.emplace_back(v, v->type());
      for (ir::Graph* sub : n->subgraphs()) snapshotInto(*sub, s);
    }
  }
  static Snapshot takeSnapshot(ir::Graph& g) {
    Snapshot s;
    snapshotInto(g, s);
    return s;
  }
  void restore(const Snapshot& s) {
    for (const auto& [v, t] : s) {
      setTypeOf(v, t);
      known_.erase(v);
    }
  }

  void visitGraph(ir::Graph& g) {
    ir::NodeWalkPrefetcher prefetch(g.nodes());
    for (const auto& n : g.nodes()) {
      prefetch.advance();
      visitNode(*n);
    }
  }

  void visitNode(ir::Node& n) {
    InferContext ctx(*this, n);
    visitedStack_.emplace_back();
    try {
      infer::inferTypesFromSchema(ctx);
      infer::Rule rule = infer::findRule(n);
      if (!rule)
        noRule_.insert(n.qualifiedOpType());
      else if (infer::checkArity(ctx))
        rule(ctx);
      // Bodies the rule did not bind are still inferred, from their declared inputs.
      if (n.hasSubgraphs())
        for (ir::Graph* g : n.subgraphs())
          if (!visitedStack_.back().count(g)) inferSubgraph(*g, {}, false);
    } catch (const std::exception& e) {
      ctx.fail(std::string("inference error: ") + e.what());
    }
    visitedStack_.pop_back();
    commit(n, ctx);
  }

  void commit(ir::Node& n, InferContext& ctx) {
    std::vector<std::string> conflicts;
    for (size_t i = 0; i < n.outputCount(); ++i) {
      ir::Value* v = n.output(i);
      if (!v) continue;
      const ir::Type& inferred = ctx.outputTypes()[i];
      const ir::Type& declared = v->type();
      std::string why = contradiction(declared, inferred);
      if (!why.empty())
        conflicts.push_back(n.describe() + ": output '" + v->name() + "' declared " +
                            declared.toString() + ", inferred " + inferred.toString() + " (" + why +
                            ")");
      // Equal types (nearly every value on re-inference) leave the value as
      // it is: no copy of the type, no record in the undo log.
      if (!(declared == inferred)) {
        if (options_.replaceDeclared && !inferred.isUndefined())
          setTypeOf(v, fillHoles(inferred, declared));
        else
          setTypeOf(v, fillHoles(declared, inferred));
      }
      known_.erase(v);
      if (ctx.outputValues()[i]) known_.emplace(v, std::move(*ctx.outputValues()[i]));
    }
    setOrErase(failures_, &n, quiet_ ? std::vector<std::string>() : ctx.failures());
    setOrErase(conflicts_, &n, std::move(conflicts));
  }

  static void setOrErase(std::unordered_map<const ir::Node*, std::vector<std::string>>& table,
                         const ir::Node* n, std::vector<std::string> messages) {
    if (messages.empty())
      table.erase(n);
    else
      table[n] = std::move(messages);
  }

  // The report, in node order, from the final state of every graph.
  void collect(const ir::Graph& g, ShapeInferenceReport& r) const {
    ir::NodeWalkPrefetcher prefetch(g.nodes());
    for (const auto& n : g.nodes()) {
      prefetch.advance();
      for (const ir::Value* v : n->outputs()) {
        if (!v) continue;
        ++r.values;
        if (typeKnown(v->type())) ++r.typed;
        if (rankKnown(v->type())) ++r.shaped;
      }
      if (auto it = failures_.find(n.get()); it != failures_.end())
        r.failures.insert(r.failures.end(), it->second.begin(), it->second.end());
      if (auto it = conflicts_.find(n.get()); it != conflicts_.end())
        r.conflicts.insert(r.conflicts.end(), it->second.begin(), it->second.end());
      if (n->hasSubgraphs())
        for (const ir::Graph* sub : n->subgraphs()) collect(*sub, r);
    }
  }

  ir::Model& model_;
  ShapeInferenceOptions options_;
  std::unordered_map<std::string, int64_t> opsets_;
  std::unordered_map<const ir::Value*, KnownValue> known_;
  std::unordered_map<const ir::Node*, std::vector<std::string>> failures_, conflicts_;
  std::unordered_map<const ir::Graph*, Snapshot> snapshots_;
  std::vector<std::unordered_set<const ir::Graph*>> visitedStack_;
  int quiet_ = 0;  // > 0 while inferring a body that never runs
  std::set<std::string> noRule_;
};

}  // namespace

ShapeInferenceReport inferShapes(ir::Model& model, const ShapeInferenceOptions& options) {
  return Driver(model, options).run();
}

}  // namespace passlab::analysis
