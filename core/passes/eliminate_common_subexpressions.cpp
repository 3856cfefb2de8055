// eliminate_common_subexpressions — nodes that compute the same thing twice.
//
// Before:  a = Relu(x); b = Relu(x); y = Add(a, b)
// After:   a = Relu(x); y = Add(a, a)
// Value numbering in one walk over each graph in node (topological) order: a
// node's key is its domain, op, overload, attributes (sorted by name; floats
// by bit pattern, tensors by content hash) and the identities of its input
// values; a node whose key was seen before, and which compares equal to that
// node in full, is replaced by it. Since the replaced outputs are rewired at
// once, later nodes see the surviving values and one walk reaches the
// fixpoint. O(N) expected (hash table), plus the bytes of tensor attributes.
// Conditions:
// - commutative ops (Add, Mul, And, Or, Xor, Equal, Bitwise{And,Or,Xor}, and
//   Sum/Mean with two inputs) compare their inputs as a set. Max/Min are not
//   reordered: implementations differ in which operand a NaN comes from; nor
//   are Sum/Mean of more inputs (the summation order changes the rounding);
// - deterministic ops only: ONNX's schema flag, plus any op named *Random*,
//   *Dropout*, Bernoulli, Multinomial in any domain; ops without a schema are
//   left alone (PassLab cannot tell);
// - nodes with subgraphs (If/Loop/Scan) are skipped, not compared: equal
//   bodies are rare and comparing them needs scoped value numbering of the
//   bodies. Nodes inside bodies are merged with each other and with nodes of
//   the enclosing graphs that come before the owner node (outer values are
//   visible there); nodes of sibling branches never meet;
// - equal DequantizeLinear nodes are merged like any other (OnnxSlim does the
//   same): ONNX Runtime copies a shared DQ back for each QDQ node unit when it
//   loads the model (EnsureUniqueDQForNodeUnit), so nothing is lost there.
//   merge_dequantize_linear=false keeps them apart, one per consumer, as ONNX
//   Runtime's own CSE does (onnxruntime PR #10934), for runtimes that need the
//   node units spelled out in the file;
// - two model outputs are never merged into one name; if only the removed
//   node's result is a model output, the survivor takes over its name.
// Exact: the merged nodes compute the same bits.
#include <absl/container/flat_hash_map.h>
#include <absl/container/inlined_vector.h>
#include <absl/hash/hash.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string_view>
#include <vector>

#include "core/ir/graph_compare.h"
#include "core/passes/node_policy.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"
#include "core/passes/rule_helpers.h"

namespace passlab::passes {

namespace {

constexpr const char* kPattern = "common_subexpression";

bool isCommutative(const ir::Node& n) {
  if (!n.domain().empty()) return false;
  static const char* kOps[] = {"Add",   "Mul",        "And",       "Or",        "Xor",
                               "Equal", "BitwiseAnd", "BitwiseOr", "BitwiseXor"};
  for (const char* op : kOps)
    if (n.opType() == op) return true;
  return (n.opType() == "Sum" || n.opType() == "Mean") && n.inputCount() == 2;
}

class Cse {
 public:
  Cse(PassContext& ctx, const ir::Model& model) : ctx_(ctx), model_(model) {
    mergeDq_ = ctx.boolOption("merge_dequantize_linear");
  }

  Status visit(ir::Graph& g) {
    scopes_.emplace_back();
    std::vector<ir::Node*> order;
    for (const auto& n : g.nodes()) order.push_back(n.get());
    for (ir::Node* n : order) {
      // The filter is applied in process(): an excluded node still numbers its outputs.
      if (cancelRequested(ctx_)) return cancelledError("eliminate_common_subexpressions");
      if (n->hasSubgraphs())
        for (ir::Graph* sub : n->subgraphs()) PASSLAB_RETURN_IF_ERROR(visit(*sub));
      process(*n);
    }
    scopes_.pop_back();
    return Status::ok();
  }

 private:
  // Nodes by the hash of their key. sameNode() decides equality, so a hash
  // collision costs a comparison, never a wrong merge; holding hashes rather
  // than key strings keeps the tables flat (a string, a hash node and a
  // vector per node made them the largest structure the pass touched).
  struct Scope {
    absl::flat_hash_map<uint64_t, absl::InlinedVector<ir::Node*, 1>> pure, impure;
  };

  uint64_t number(const ir::Value* v) {
    if (!v) return 0;
    // Indexed by the value's dense id, not hashed by pointer: one lookup per
    // input of every node, on a table as large as the graph.
    const size_t id = v->denseId();
    if (id >= numbers_.size()) numbers_.resize(std::max<size_t>(id + 1, 2 * numbers_.size()), 0);
    if (numbers_[id] == 0) numbers_[id] = ++numbered_;
    return numbers_[id];
  }

  void inputsInOrder(const ir::Node& n, std::vector<const ir::Value*>& ins) {
    ins.assign(n.inputs().begin(), n.inputs().end());
    while (!ins.empty() && !ins.back()) ins.pop_back();  // trailing omitted inputs
    for (const ir::Value* v : ins) number(v);            // numbered in input order
    if (isCommutative(n))
      std::sort(ins.begin(), ins.end(),
                [&](const ir::Value* a, const ir::Value* b) { return number(a) < number(b); });
  }
  std::vector<const ir::Value*> inputsInOrder(const ir::Node& n) {
    std::vector<const ir::Value*> ins;
    inputsInOrder(n, ins);
    return ins;
  }

  static void addBits(std::string& k, const void* p, size_t n) {
    k.append(static_cast<const char*>(p), n);
  }

  // The hash of a byte string that equal nodes share (built in one reused
  // buffer: no allocation per node once it has grown).
  uint64_t keyOf(const ir::Node& n) {
    std::string& k = keyBuffer_;
    k.clear();
    k += n.domain();
    k += '\x1f';
    k += n.opType();
    k += '\x1f';
    k += n.overload();
    k += '\x1e';
    inputsInOrder(n, inputBuffer_);
    for (const ir::Value* v : inputBuffer_) {
      uint64_t id = number(v);
      addBits(k, &id, sizeof id);
    }
    k += '\x1e';
    for (const ir::Value* v : n.outputs()) k += v ? '1' : '0';
    k += '\x1e';
    std::vector<const ir::Attribute*>& attrs = attrBuffer_;
    attrs.clear();
    for (const auto& a : n.attributes()) attrs.push_back(&a);
    std::sort(attrs.begin(), attrs.end(),
              [](const ir::Attribute* a, const ir::Attribute* b) { return a->name() < b->name(); });
    auto tensorKey = [&](const ir::Tensor& t) {
      uint64_t h = t.contentHash();
      addBits(k, &h, sizeof h);
    };
    for (const ir::Attribute* a : attrs) {
      k += a->name();
      k += '=';
      k += std::to_string(static_cast<int>(a->type()));
      k += ':';
      k += a->refAttrName();
      k += ':';
      // Only the field the attribute's type uses, as attributesEqual compares
      // (an Attribute is a large record: the other fields are further cache
      // lines). Graphs, sparse tensors and type protos add nothing: nodes
      // holding graphs are not compared, and sameNode decides the others.
      switch (a->type()) {
        case ir::AttrType::kFloat:
          addBits(k, &a->f, sizeof a->f);
          break;
        case ir::AttrType::kInt:
          addBits(k, &a->i, sizeof a->i);
          break;
        case ir::AttrType::kString:
          k += std::to_string(a->s.size());
          k += ':';
          k += a->s;
          break;
        case ir::AttrType::kFloats:
          for (float f : a->floats) addBits(k, &f, sizeof f);
          break;
        case ir::AttrType::kInts:
          for (int64_t i : a->ints) addBits(k, &i, sizeof i);
          break;
        case ir::AttrType::kStrings:
          for (const auto& str : a->strings) {
            k += std::to_string(str.size());
            k += ':';
            k += str;
          }
          break;
        case ir::AttrType::kTensor:
          tensorKey(a->t);
          break;
        case ir::AttrType::kTensors:
          for (const auto& t : a->tensors) tensorKey(t);
          break;
        default:
          break;
      }
      k += '\x1d';
    }
    return absl::Hash<std::string_view>{}(k);
  }

  bool sameNode(const ir::Node& a, const ir::Node& b) {
    if (a.domain() != b.domain() || a.opType() != b.opType() || a.overload() != b.overload())
      return false;
    if (inputsInOrder(a) != inputsInOrder(b)) return false;
    if (a.outputCount() != b.outputCount()) return false;
    for (size_t i = 0; i < a.outputCount(); ++i)
      if ((a.output(i) == nullptr) != (b.output(i) == nullptr)) return false;
    if (a.attributes().size() != b.attributes().size()) return false;
    for (const auto& x : a.attributes()) {
      const ir::Attribute* y = b.attr(x.name());
      if (!y || !ir::attributesEqual(x, *y)) return false;
      // attributesEqual treats 0.0 and -0.0 (and NaNs) as equal; merged nodes
      // must carry the same bits, so floats are compared bit for bit.
      if (x.type() == ir::AttrType::kFloat && std::memcmp(&x.f, &y->f, sizeof x.f) != 0)
        return false;
      if (x.type() == ir::AttrType::kFloats &&
          (x.floats.size() != y->floats.size() ||
           (!x.floats.empty() &&
            std::memcmp(x.floats.data(), y->floats.data(), x.floats.size() * sizeof(float)) != 0)))
        return false;
    }
    return true;
  }

  // The earlier node equal to `n` in this scope or an enclosing one.
  ir::Node* find(const ir::Node& n, uint64_t key, bool pure) {
    for (auto s = scopes_.rbegin(); s != scopes_.rend(); ++s) {
      auto& table = pure ? s->pure : s->impure;
      auto it = table.find(key);
      if (it == table.end()) continue;
      for (ir::Node* c : it->second)
        if (sameNode(*c, n)) return c;
    }
    return nullptr;
  }

  void note(const ir::Node& n, Text why) {
    if (ctx_.explain) ctx_.explain->note(n.id(), kPattern, std::move(why));
  }

  void process(ir::Node& n) {
    Text why = whyNotPure(n, model_);
    if (why.empty() && !mergeDq_ && n.opType() == "DequantizeLinear" &&
        (n.domain().empty() || n.domain() == "com.microsoft"))
      why =
          "DequantizeLinear nodes stay apart so each QDQ node unit keeps its own, because "
          "merge_dequantize_linear=false";
    if (n.hasSubgraphs()) return;  // not compared; their bodies were visited
    const uint64_t key = keyOf(n);
    bool pure = why.empty();
    ir::Node* earlier = find(n, key, pure);
    if (!pure) {
      if (earlier) note(n, Text::of("computes the same as %1, but %2", earlier->describe(), why));
      scopes_.back().impure[key].push_back(&n);
      return;
    }
    if (!earlier) {
      scopes_.back().pure[key].push_back(&n);
      return;
    }
    if (!mayChange(ctx_, n, kPattern)) return;
    for (size_t i = 0; i < n.outputCount(); ++i) {
      ir::Value* from = n.output(i);
      if (!from) continue;
      ir::Value* to = earlier->output(i);
      Text w = rewrite::Rewriter::canReplace(from, to);
      if (w.empty() && from->isGraphOutput() && to->isGraphOutput())
        w = Text::of("'%1' and '%2' are both outputs of a graph", from->name(), to->name());
      if (!w.empty()) {
        note(n, Text::of("computes the same as %1, but %2", earlier->describe(), w));
        return;
      }
    }
    rewrite::Rewriter& rw = ctx_.rewriter;
    for (size_t i = 0; i < n.outputCount(); ++i)
      if (ir::Value* from = n.output(i)) rw.replaceAllUsesWith(from, earlier->output(i));
    rw.removeNode(&n);
  }

  PassContext& ctx_;
  const ir::Model& model_;
  bool mergeDq_ = false;
  std::vector<Scope> scopes_;
  std::vector<uint64_t> numbers_;  // by Value::denseId(); 0: not numbered yet
  std::string keyBuffer_;
  std::vector<const ir::Value*> inputBuffer_;
  std::vector<const ir::Attribute*> attrBuffer_;
  uint64_t numbered_ = 0;
};

class EliminateCommonSubexpressions final : public Pass {
 public:
  const PassInfo& info() const override { return catalogInfo("eliminate_common_subexpressions"); }

  Status run(PassContext& ctx) const override {
    ir::Model& model = ctx.model();
    Cse cse(ctx, model);
    return cse.visit(model.graph());
  }
};

}  // namespace

std::unique_ptr<Pass> makeEliminateCommonSubexpressions() {
  return std::make_unique<EliminateCommonSubexpressions>();
}

}  // namespace passlab::passes
