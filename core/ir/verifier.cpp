#include "core/ir/verifier.h"

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <string_view>
#include <unordered_map>

#include "core/ir/attribute_limits.h"
#include "core/ir/op_schema.h"
#include "core/ir/passlab_ops.h"
#include "core/ir/walk_prefetch.h"

namespace passlab::ir {

std::string onnxTypeString(const Type& t) {
  switch (t.kind()) {
    case Type::Kind::kTensor:
      return "tensor(" + std::string(dtypeName(t.elemType())) + ")";
    case Type::Kind::kSparseTensor:
      return "sparse_tensor(" + std::string(dtypeName(t.elemType())) + ")";
    case Type::Kind::kSequence:
      return "seq(" + onnxTypeString(*t.inner()) + ")";
    case Type::Kind::kOptional:
      return "optional(" + onnxTypeString(*t.inner()) + ")";
    case Type::Kind::kMap: {
      // Maps of tensors are written with the bare element type ("map(string,float)") in schemas.
      const Type& v = *t.inner();
      std::string vs = v.isTensor() ? std::string(dtypeName(v.elemType())) : onnxTypeString(v);
      return "map(" + std::string(dtypeName(t.elemType())) + "," + vs + ")";
    }
    default:
      return "";
  }
}

namespace {

// `spaced` equals `plain` once its spaces are left out (no allocation: this
// runs for every input and output of every node).
bool equalIgnoringSpaces(std::string_view spaced, std::string_view plain) {
  size_t j = 0;
  for (char c : spaced) {
    if (c == ' ') continue;
    if (j == plain.size() || plain[j] != c) return false;
    ++j;
  }
  return j == plain.size();
}

// A type is "known enough" to check when it is defined and, for tensors, has an element type.
bool checkable(const Type& t) {
  if (t.isUndefined()) return false;
  if (t.isTensor() || t.kind() == Type::Kind::kSparseTensor)
    return t.elemType() != DataType::kUndefined;
  if (t.inner()) return checkable(*t.inner());
  return true;
}

// The problems' texts, one function each: the full walk and the check of a
// step's scope must word a problem alike, as the PassManager tells an error a
// step introduced from one the model had by its text.
std::string notVisibleText(size_t i, const Value* v, const std::string& graphLabel) {
  return "input " + std::to_string(i) + " '" + v->name() + "' is not visible from " + graphLabel;
}
std::string usedBeforeDefinedText(const Value* v) {
  return "input '" + v->name() + "' is used before it is defined (cycle or unsorted nodes)";
}
std::string outputNotVisibleText(const std::string& graphLabel, const Value* v) {
  return graphLabel + ": output '" + v->name() + "' is not visible here";
}
std::string outputNeverDefinedText(const std::string& graphLabel, const Value* v) {
  return graphLabel + ": output '" + v->name() + "' is never defined";
}
// ONNX Runtime refuses a subgraph that returns a value of an outer scope
// directly ("Subgraph output (X) is an outer scope value being returned
// directly. Please update the model to add an Identity node").
std::string outerScopeOutputText(const std::string& graphLabel, const Value* v) {
  return graphLabel + ": output '" + v->name() +
         "' is an outer scope value returned directly (ONNX Runtime needs an Identity node "
         "to return it)";
}
std::string twoProducersText(const Value* v) {
  return "output '" + v->name() + "' is also a graph input or initializer (two producers)";
}
std::string staleUseText(const Value* v) {
  return "stale use of '" + v->name() + "'";
}

class Verifier {
 public:
  Verifier(const Model& m, const VerifierOptions& o) : model_(m), options_(o) {
    // The table is kept per thread between runs (see entryTable): a fresh
    // one, zeroed for every value id of a large graph after every pass, was
    // a sixth of the misses of a pipeline's writes.
    entries_ = std::move(entryTable());
    const size_t bound = m.graph().valueIdBound();
    // A table kept from a much larger graph is given back, so that one huge
    // model does not pin its size on the thread for good.
    if (entries_.size() > kKeepEntries && entries_.size() > 4 * bound)
      std::vector<Entry>().swap(entries_);
    if (entries_.size() < bound) entries_.resize(bound);
  }
  ~Verifier() {
    for (size_t id : met_) entries_[id] = Entry{};
    entryTable() = std::move(entries_);
  }
  Verifier(const Verifier&) = delete;
  Verifier& operator=(const Verifier&) = delete;

  std::vector<VerifierProblem> run();  // after ScopedCheck

 private:
  void report(const Node* n, std::string msg,
              VerifierProblem::Severity sev = VerifierProblem::Severity::kError) {
    if (problems_.size() >= options_.maxProblems) return;
    // Messages name other nodes by label only (graphLabel), so the key is
    // the message with the reporting node's id left out.
    std::string key = n ? n->label() + ": " + msg : msg;
    problems_.push_back({sev, n ? n->id() : 0, n ? n->describe() + ": " + msg : std::move(msg),
                         inSchemaCheck_, std::move(key)});
  }

  static std::string graphLabel(const Graph& g) {
    return g.parentNode() ? "subgraph '" + g.name() + "' of " + g.parentNode()->label()
                          : "main graph";
  }

  void verifyGraph(const Graph& g) {
    // Values available so far in this graph: inputs and initializers, then outputs of earlier
    // nodes.
    for (const Value* v : g.inputs()) define(v);
    for (const Value* v : g.initializers()) define(v);
    for (const Value* v : g.sparseInitializers()) define(v);
    NodeWalkPrefetcher prefetch(g.nodes());
    for (const auto& np : g.nodes()) {
      prefetch.advance();
      const Node* n = np.get();
      if (n->owner() != &g) report(n, "owner link is wrong");
      for (size_t i = 0; i < n->inputs().size(); ++i) {
        const Value* v = n->inputs()[i];
        if (!v) continue;
        if (!inScope(v, g))
          report(n, notVisibleText(i, v, graphLabel(g)));
        else if (!entry(v).defined)
          report(n, usedBeforeDefinedText(v));
        Entry& e = entry(v);
        ++e.refs;
        // The reader must sit where its node says in v's use list; with
        // that, and as many uses as readers, the list is exact (checkUseLists).
        const std::vector<Use>& uses = v->uses();
        const size_t slot = n->useSlot(i);
        if (slot >= uses.size() || uses[slot].node != n ||
            uses[slot].inputIndex != static_cast<int>(i))
          e.listInDoubt = true;
      }
      for (Graph* sub : n->subgraphs()) {
        if (sub->parentNode() != n)
          report(n, "subgraph '" + sub->name() + "' has a wrong parent link");
        verifyGraph(*sub);
      }
      for (size_t i = 0; i < n->outputs().size(); ++i) {
        const Value* v = n->outputs()[i];
        if (!v) continue;
        checkOutputLinks(*n, i, g);
        if (entry(v).defined) report(n, "output '" + v->name() + "' is defined twice");
        define(v);
      }
      maybeCheckSchema(*n);
    }
    for (const Value* v : g.outputs()) {
      if (!inScope(v, g))
        report(nullptr, outputNotVisibleText(graphLabel(g), v));
      else if (!entry(v).defined)
        report(nullptr, outputNeverDefinedText(graphLabel(g), v));
      else if (g.parentNode() && v->owner() != &g)
        report(nullptr, outerScopeOutputText(graphLabel(g), v));
    }
  }

  // Each value's use list holds exactly the (node, input) pairs that read it:
  // every use points back, none repeats, and there are as many as references.
  // The walk finds each reader at the slot its node records; after it, a
  // value is read use by use only when that failed or the count is off
  // (O(uses log uses) even for a constant read by thousands of nodes).
  void define(const Value* v) {
    Entry& e = entry(v);
    e.defined = true;
    // Noted while the value is at hand: checkUseLists then need not visit
    // every value again (a second miss per value on a large graph).
    e.useCount = static_cast<uint32_t>(v->uses().size());
  }

  // Per value, in a table indexed by Value::denseId() (no hashing: this runs
  // after every pass, over every value). Every value met (defined or read)
  // is listed once in met_, for checkUseLists.
  struct Entry {
    const Value* value = nullptr;
    uint32_t refs = 0;               // how many node inputs read it
    uint32_t useCount = UINT32_MAX;  // v->uses().size(), noted when it was defined
    bool defined = false;
    bool listInDoubt = false;  // a reader is not at its slot in the use list
  };
  Entry& entry(const Value* v) {
    size_t id = v->denseId();
    if (id >= entries_.size()) entries_.resize(id + 1);  // a value of another model
    Entry& e = entries_[id];
    if (e.value == nullptr) {
      e.value = v;
      met_.push_back(id);
    }
    if (e.value == v) return e;
    // Two values with one id: one of them belongs to another model (or was
    // not renumbered when its subgraph joined). Kept apart, and reported.
    auto [it, added] = foreign_.try_emplace(v);
    if (added) {
      it->second.value = v;
      foreignOrder_.push_back(v);
      report(v->producer(), "value '" + v->name() + "' has the id of '" + e.value->name() +
                                "' (it belongs to another model)");
    }
    return it->second;
  }

  void checkUseLists() {
    std::vector<const Entry*> all;
    all.reserve(met_.size() + foreignOrder_.size());
    for (size_t id : met_) all.push_back(&entries_[id]);
    for (const Value* v : foreignOrder_) all.push_back(&foreign_.at(v));
    std::vector<std::pair<const Node*, int>> seen;
    for (const Entry* e : all) {
      const Value* v = e->value;
      size_t refs = e->refs;
      // Every reader at its own slot and as many uses as readers: the list
      // holds exactly the readers (distinct readers, distinct slots). Only
      // otherwise is the list read use by use, for the message.
      const size_t useCount = e->useCount != UINT32_MAX ? e->useCount : v->uses().size();
      if (!e->listInDoubt && useCount == refs) continue;
      seen.clear();  // one buffer for all values: this runs for every value
      bool stale = false;
      for (const Use& u : v->uses()) {
        if (u.node->input(static_cast<size_t>(u.inputIndex)) != v) {
          report(u.node, staleUseText(v));
          stale = true;
        }
        seen.emplace_back(u.node, u.inputIndex);
      }
      std::sort(seen.begin(), seen.end());
      bool repeated = std::adjacent_find(seen.begin(), seen.end()) != seen.end();
      if (!stale && (repeated || seen.size() != refs))
        report(v->producer(), "use list of '" + v->name() + "' records " +
                                  std::to_string(seen.size()) + " uses for " +
                                  std::to_string(refs) + " inputs that read it");
    }
  }

  // Output i of n (in g) names n as its producer and has no other definition.
  void checkOutputLinks(const Node& n, size_t i, const Graph& g) {
    const Value* v = n.outputs()[i];
    if (v->producer() != &n || v->producerOutputIndex() != static_cast<int>(i))
      report(&n, "output '" + v->name() + "' names another producer");
    if (v->isGraphInput() || v->isInitializer()) report(&n, twoProducersText(v));
    if (v->owner() != &g) report(&n, "output '" + v->name() + "' belongs to another graph");
  }

  void maybeCheckSchema(const Node& n) {
    if (!options_.checkSchemas || (options_.schemaNodes && !options_.schemaNodes->contains(&n)))
      return;
    inSchemaCheck_ = true;
    checkSchema(n);
    for (std::string& problem : attributeLimitProblems(n)) report(&n, std::move(problem));
    checkSubgraphSignatures(n);
    inSchemaCheck_ = false;
  }

  // ONNX Runtime checks a control-flow node's subgraphs against the node
  // ("Size mismatch validating subgraph inputs"): an If branch takes no
  // inputs and returns one value per If output; a Loop body takes the
  // iteration number, the condition and the N loop-carried values (the node's
  // inputs after M and cond) and returns cond, those N and the scan outputs
  // (one more than the node's outputs); a Scan body (opset 9 on) takes and
  // returns one value per node input and output.
  void checkSubgraphSignatures(const Node& n) {
    if (!n.domain().empty() || !n.hasSubgraphs()) return;
    auto check = [&](const char* attr, size_t inputs, size_t outputs) {
      const Attribute* a = n.attr(attr);
      if (!a || !a->g) return;
      const Graph& body = *a->g;
      if (body.inputs().size() != inputs)
        report(&n, "subgraph '" + std::string(attr) + "' has " +
                       std::to_string(body.inputs().size()) + " inputs; " + n.opType() + " needs " +
                       std::to_string(inputs));
      if (body.outputs().size() != outputs)
        report(&n, "subgraph '" + std::string(attr) + "' has " +
                       std::to_string(body.outputs().size()) + " outputs; " + n.opType() +
                       " needs " + std::to_string(outputs));
    };
    const size_t nin = n.inputs().size(), nout = n.outputs().size();
    if (n.opType() == "If") {
      check("then_branch", 0, nout);
      check("else_branch", 0, nout);
    } else if (n.opType() == "Loop" && nin >= 2) {
      check("body", nin, nout + 1);
    } else if (n.opType() == "Scan" && opsetOf("") >= 9) {
      check("body", nin, nout);
    }
  }

  class ScopedCheck;

  static bool inScope(const Value* v, const Graph& g) {
    for (const Graph* s = &g; s; s = s->parent())
      if (v->owner() == s) return true;
    return false;
  }

  int64_t opsetOf(const std::string& domain) const {
    auto v = model_.opsetVersion(domain);
    return v ? *v : 1;
  }

  void checkSchema(const Node& n) {
    if (n.domain() == passlab_ops::kDomain) {  // PassLab's own ops: core/ir/passlab_ops.h
      if (std::string why = passlab_ops::whyNotValid(n); !why.empty()) report(&n, why);
      return;
    }
    const auto& reg = OpRegistry::instance();
    const OpSchema* s = reg.find(n, opsetOf(n.domain()));
    if (!s) return;  // unknown ops are reported by analysis, not here
    int nin = static_cast<int>(n.inputs().size());
    // Trailing omitted inputs do not count.
    while (nin > 0 && n.inputs()[nin - 1] == nullptr) --nin;
    if (nin < s->minInputs() || nin > s->maxInputs())
      report(&n, "has " + std::to_string(nin) + " inputs; " + n.opType() + "-" +
                     std::to_string(s->sinceVersion) + " takes " +
                     arity(s->minInputs(), s->maxInputs()));
    int nout = static_cast<int>(n.outputs().size());
    if (nout < s->minOutputs() || nout > s->maxOutputs())
      report(&n, "has " + std::to_string(nout) + " outputs; " + n.opType() + "-" +
                     std::to_string(s->sinceVersion) + " gives " +
                     arity(s->minOutputs(), s->maxOutputs()));
    for (size_t i = 0; i < n.inputs().size() && static_cast<int>(i) < nin; ++i) {
      const FormalParam* p = s->inputParam(i);
      if (p && p->option == ParamOption::kSingle && n.inputs()[i] == nullptr)
        report(&n, "required input '" + p->name + "' is missing");
    }
    for (const AttrSpec& a : s->attributes)
      if (a.required && !n.hasAttr(a.name))
        report(&n, "required attribute '" + a.name + "' is missing");
    for (const Attribute& a : n.attributes()) {
      const AttrSpec* spec = s->attr(a.name());
      if (!spec) {
        report(&n,
               "attribute '" + a.name() + "' is not defined by " + n.opType() + "-" +
                   std::to_string(s->sinceVersion),
               VerifierProblem::Severity::kWarning);
      } else if (spec->type != a.type() && a.refAttrName().empty()) {
        report(&n, "attribute '" + a.name() + "' is " + std::string(attrTypeName(a.type())) +
                       ", the schema wants " + std::string(attrTypeName(spec->type)));
      }
    }
    // Type constraints: every actual bound to one type parameter has the same type, and an allowed
    // one.
    // Type parameter -> the type its first actual has (a handful per node:
    // a small vector, no hashing).
    std::vector<std::pair<const std::string*, std::string>> bound;
    std::string scratch;
    auto checkOne = [&](const FormalParam* p, const Value* v, const char* side, size_t idx) {
      if (!p || !v || !checkable(v->type())) return;
      const std::string& actual = typeString(v->type(), scratch);
      if (actual.empty()) return;
      const TypeConstraint* tc = s->constraint(p->typeStr);
      if (!tc) {
        if (!equalIgnoringSpaces(p->typeStr, actual) && p->typeStr.find('(') != std::string::npos)
          report(&n, std::string(side) + " " + std::to_string(idx) + " '" + v->name() + "' is " +
                         actual + ", expected " + p->typeStr);
        return;
      }
      bool allowed = false;
      const int code = static_cast<int>(v->type().elemType());
      if (v->type().isTensor() && code >= 0 && code < 64) {
        allowed = (tc->tensorElemBits >> code) & 1;
      } else {
        for (const auto& a : tc->allowed)
          if (equalIgnoringSpaces(a, actual)) {
            allowed = true;
            break;
          }
      }
      if (!allowed) {
        report(&n, std::string(side) + " " + std::to_string(idx) + " '" + v->name() +
                       "' has type " + actual + ", not allowed for " + p->typeStr);
        return;
      }
      if (!p->homogeneous) return;
      auto it = std::find_if(bound.begin(), bound.end(),
                             [&](const auto& b) { return *b.first == p->typeStr; });
      if (it == bound.end())
        bound.emplace_back(&p->typeStr, actual);
      else if (it->second != actual)
        report(&n, std::string(side) + " " + std::to_string(idx) + " '" + v->name() + "' is " +
                       actual + " but " + p->typeStr + " is already " + it->second);
    };
    for (size_t i = 0; i < n.inputs().size(); ++i)
      checkOne(s->inputParam(i), n.inputs()[i], "input", i);
    for (size_t i = 0; i < n.outputs().size(); ++i)
      checkOne(s->outputParam(i), n.outputs()[i], "output", i);
  }

  // onnxTypeString without an allocation for tensor types (nearly all).
  static const std::string& typeString(const Type& t, std::string& scratch) {
    static const std::vector<std::string> kTensorTypes = [] {
      std::vector<std::string> names;
      for (int i = 0; i < kDataTypeCount; ++i)
        names.push_back(onnxTypeString(Type::tensor(static_cast<DataType>(i))));
      return names;
    }();
    int code = static_cast<int>(t.elemType());
    if (t.isTensor() && code >= 0 && code < kDataTypeCount) return kTensorTypes[code];
    scratch = onnxTypeString(t);
    return scratch;
  }

  static std::string arity(int lo, int hi) {
    if (hi == INT32_MAX) return "at least " + std::to_string(lo);
    if (lo == hi) return std::to_string(lo);
    return std::to_string(lo) + " to " + std::to_string(hi);
  }

  // Every entry is back to its default when a Verifier returns the table
  // (the destructor resets those it met). A nested run on the same thread
  // finds it taken and starts an empty one.
  static constexpr size_t kKeepEntries = size_t{1} << 20;  // 24 MiB
  static std::vector<Entry>& entryTable() {
    thread_local std::vector<Entry> table;
    return table;
  }

  const Model& model_;
  VerifierOptions options_;
  std::vector<Entry> entries_;
  std::vector<size_t> met_;
  std::unordered_map<const Value*, Entry> foreign_;  // ids shared with entries_
  std::vector<const Value*> foreignOrder_;
  std::vector<VerifierProblem> problems_;
  bool inSchemaCheck_ = false;
};

// The check of a step's scope (StructureScope). Whatever the step did not
// touch passed before; what it touched is checked with positions instead of
// a walk: a value is defined before a reader when its producer comes earlier
// in the graph that holds both (for a reader inside a subgraph, earlier than
// the node that holds the subgraph), which NodeList::precedes answers once
// the list's chunks are numbered.
class Verifier::ScopedCheck {
 public:
  ScopedCheck(Verifier& v, const StructureScope& scope) : v_(v), scope_(scope) {}

  void run() {
    // In address order, not the set's hash order: nodes and values were
    // allocated roughly in graph order, so neighbours share cache lines and
    // pages, and the hardware prefetcher can follow.
    std::vector<const Node*> nodes;
    if (scope_.nodes) nodes.assign(scope_.nodes->begin(), scope_.nodes->end());
    std::sort(nodes.begin(), nodes.end());
    for (const Node* n : nodes)
      if (live(n)) checkNode(*n);
    std::vector<const Value*> values = scope_.values;
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    for (const Value* value : values) checkValue(*value);
    checkGraphOutputs(v_.model_.graph());
    for (const Graph* g : scope_.graphOutputs)
      if (g != &v_.model_.graph() && live(g)) checkGraphOutputs(*g);
  }

 private:
  // In its graph's order, and that graph is in the model (every node holding
  // it, up to the main graph, is in its own graph's order).
  bool live(const Node* n) { return NodeList::isPlaced(n) && n->owner() && live(n->owner()); }
  bool live(const Graph* g) {
    if (g == &v_.model_.graph()) return true;
    auto [it, added] = liveGraphs_.try_emplace(g, false);
    if (!added) return it->second;
    const Node* holder = g->parentNode();
    bool isLive = false;
    if (holder && live(holder)) {
      for (const Graph* sub : holder->subgraphs())
        if (sub == g) isLive = true;
    }
    liveGraphs_[g] = isLive;  // `it` may have moved while the holder was looked at
    return isLive;
  }

  // a and b are nodes of one graph.
  bool precedes(const Node* a, const Node* b) {
    const Graph* g = a->owner();
    if (g != lastNumbered_ && numbered_.insert(g).second) g->nodes().numberChunks();
    lastNumbered_ = g;
    return NodeList::precedes(a, b);
  }

  // Something defines `value`: a node of the model (as its output), or its
  // graph (as an input or initializer).
  bool defined(const Value& value) {
    if (const Node* p = value.producer()) {
      const int k = value.producerOutputIndex();
      return k >= 0 && static_cast<size_t>(k) < p->outputs().size() && p->output(k) == &value &&
             live(p);
    }
    return (value.isGraphInput() || value.isInitializer() || value.isSparseInitializer()) &&
           value.owner() && live(value.owner());
  }

  // `value` (visible from g) is defined when `at`, a node of g, runs; with
  // at == nullptr, by the end of g (for g's outputs).
  bool definedBefore(const Value& value, const Graph& g, const Node* at) {
    if (!defined(value)) return false;
    const Node* p = value.producer();
    if (!p) return true;  // an input or initializer of g or of a graph around it
    // Up from g to the graph of the producer: the node there that holds
    // (a graph that holds) g must come after the producer.
    const Graph* cur = &g;
    while (cur != p->owner()) {
      at = cur->parentNode();
      if (!at) return false;
      cur = at->owner();
    }
    return at == nullptr || precedes(p, at);
  }

  // Input `index` of `reader` reads `value`: visible there, and defined
  // before it (as the whole walk checks and words it).
  void checkRead(const Node& reader, size_t index, const Value& value) {
    const Graph& g = *reader.owner();
    if (!Verifier::inScope(&value, g))
      v_.report(&reader, notVisibleText(index, &value, Verifier::graphLabel(g)));
    else if (!definedBefore(value, g, &reader))
      v_.report(&reader, usedBeforeDefinedText(&value));
  }

  void checkNode(const Node& n) {
    const Graph& g = *n.owner();
    for (size_t i = 0; i < n.inputs().size(); ++i) {
      const Value* value = n.inputs()[i];
      if (!value) continue;
      checkRead(n, i, *value);
      const std::vector<Use>& uses = value->uses();
      const size_t slot = n.useSlot(i);
      if (slot >= uses.size() || uses[slot].node != &n ||
          uses[slot].inputIndex != static_cast<int>(i))
        v_.report(value->producer(), "use list of '" + value->name() + "' does not record input " +
                                         std::to_string(i) + " of " + n.label());
    }
    for (Graph* sub : n.subgraphs()) {
      if (sub->parentNode() != &n)
        v_.report(&n, "subgraph '" + sub->name() + "' has a wrong parent link");
      else
        checkGraphOutputs(*sub);
    }
    for (size_t i = 0; i < n.outputs().size(); ++i) {
      const Value* out = n.outputs()[i];
      if (!out) continue;
      v_.checkOutputLinks(n, i, g);
      for (size_t j = 0; j < i; ++j)
        if (n.outputs()[j] == out) v_.report(&n, "output '" + out->name() + "' is defined twice");
      // Its readers come after it (a reader the step did not touch may now
      // read a node the step put after it).
      for (const Use& u : out->uses()) {
        const Node* reader = u.node;
        if (reader->input(static_cast<size_t>(u.inputIndex)) != out || !live(reader)) continue;
        checkRead(*reader, static_cast<size_t>(u.inputIndex), *out);
      }
      // And the graphs it is an output of (a subgraph may return it).
      if (out->isGraphOutput())
        for (const Graph* og : out->outputOf())
          if (og != &g && live(og)) checkGraphOutputs(*og);
    }
    v_.maybeCheckSchema(n);
  }

  void checkValue(const Value& value) {
    if (!defined(value)) {
      // Gone (or never defined): nothing may read it.
      for (const Use& u : value.uses())
        if (live(u.node)) checkRead(*u.node, static_cast<size_t>(u.inputIndex), value);
      if (value.isGraphOutput())
        for (const Graph* g : value.outputOf())
          if (live(g)) v_.report(nullptr, outputNeverDefinedText(Verifier::graphLabel(*g), &value));
      return;
    }
    if (value.producer() && (value.isGraphInput() || value.isInitializer()))
      v_.report(value.producer(), twoProducersText(&value));
    // Every use points back at this value, and none repeats.
    seen_.clear();
    bool stale = false;
    for (const Use& u : value.uses()) {
      if (u.node->input(static_cast<size_t>(u.inputIndex)) != &value) {
        v_.report(u.node, staleUseText(&value));
        stale = true;
      }
      seen_.emplace_back(u.node, u.inputIndex);
    }
    std::sort(seen_.begin(), seen_.end());
    if (!stale && std::adjacent_find(seen_.begin(), seen_.end()) != seen_.end())
      v_.report(value.producer(), "use list of '" + value.name() + "' records a use twice");
  }

  void checkGraphOutputs(const Graph& g) {
    for (const Value* value : g.outputs()) {
      if (!Verifier::inScope(value, g))
        v_.report(nullptr, outputNotVisibleText(Verifier::graphLabel(g), value));
      else if (!definedBefore(*value, g, nullptr))
        v_.report(nullptr, outputNeverDefinedText(Verifier::graphLabel(g), value));
      else if (g.parentNode() && value->owner() != &g)
        v_.report(nullptr, outerScopeOutputText(Verifier::graphLabel(g), value));
    }
  }

  Verifier& v_;
  const StructureScope& scope_;
  absl::flat_hash_set<const Graph*> numbered_;
  const Graph* lastNumbered_ = nullptr;
  absl::flat_hash_map<const Graph*, bool> liveGraphs_;
  std::vector<std::pair<const Node*, int>> seen_;
};

std::vector<VerifierProblem> Verifier::run() {
  if (options_.structureScope) {
    ScopedCheck(*this, *options_.structureScope).run();
  } else {
    verifyGraph(model_.graph());
    checkUseLists();
  }
  return std::move(problems_);
}

}  // namespace

std::vector<VerifierProblem> verifyModel(const Model& model, const VerifierOptions& options) {
  return Verifier(model, options).run();
}

Status verifyModelStatus(const Model& model, const VerifierOptions& options) {
  for (const auto& p : verifyModel(model, options))
    if (p.severity == VerifierProblem::Severity::kError) return invalidModel(p.message);
  return Status::ok();
}

}  // namespace passlab::ir
