// deduplicate_initializers — the same constant stored twice.
//
// Before:  <float[3] a = {1, 2, 3}, float[3] b = {1, 2, 3}> { y = Add(x, a); z = Mul(x, b) }
// After:   <float[3] a = {1, 2, 3}> { y = Add(x, a); z = Mul(x, a) }
// Initializers with the same dtype, dims and bytes (strings for string
// tensors) are merged into the first one in graph order. Only initializers
// whose (dtype, dims) occur more than once are hashed, and a hash match is
// confirmed byte for byte: O(N) plus the bytes of the candidates.
// Conditions:
// - initializers that are also graph inputs are neither merged nor kept as the
//   survivor: a caller may override them (in IR < 4 every initializer is an
//   input, so nothing is merged there);
// - a duplicate that is a graph output stays (the output name is interface);
// - names used by quantization annotations stay;
// - a subgraph's initializer may merge into an equal one of an enclosing graph
//   (visible there); initializers of sibling subgraphs never meet.
// Sparse initializers are left alone; equal Constant nodes are
// eliminate_common_subexpressions' job. Exact: the data is identical.
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "core/passes/node_policy.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"
#include "core/passes/rule_helpers.h"

namespace passlab::passes {

namespace {

constexpr const char* kInfoId = "deduplicate_initializers";
constexpr const char* kPattern = "duplicate_initializer";

struct ShapeKey {
  ir::DataType dtype;
  std::vector<int64_t> dims;
  bool operator<(const ShapeKey& o) const {
    return dtype != o.dtype ? dtype < o.dtype : dims < o.dims;
  }
};

class Dedup {
 public:
  explicit Dedup(PassContext& ctx) : ctx_(ctx) {}

  Status run(ir::Graph& root) {
    collectAnnotated(root);
    return visit(root);
  }

 private:
  // Survivors by (dtype, dims) then content hash, per scope.
  struct Scope {
    std::map<ShapeKey, std::unordered_map<uint64_t, std::vector<ir::Value*>>> reps;
  };

  void collectAnnotated(const ir::Graph& g) {
    for (const auto& qa : g.quantizationAnnotations()) {
      annotated_.insert(qa.tensorName);
      for (const auto& [k, v] : qa.params) annotated_.insert(v);
    }
    for (const auto& n : g.nodes())
      if (n->hasSubgraphs())
        for (ir::Graph* sub : n->subgraphs()) collectAnnotated(*sub);
  }

  bool eligible(const ir::Value* v) const {
    return v->isInitializer() && !v->isGraphInput() && !annotated_.count(v->name()) &&
           v->initializer()->dtype() != ir::DataType::kUndefined;
  }

  // (dtype, dims) of every eligible initializer of `g` and its subgraphs, with counts.
  void countShapes(const ir::Graph& g) {
    for (ir::Value* v : g.initializers())
      if (eligible(v)) ++shapeCount_[{v->initializer()->dtype(), v->initializer()->dims()}];
    for (const auto& n : g.nodes())
      if (n->hasSubgraphs())
        for (ir::Graph* sub : n->subgraphs()) countShapes(*sub);
  }

  ir::Value* findEqual(const ir::Tensor& t, const ShapeKey& key, uint64_t h) {
    for (auto s = scopes_.rbegin(); s != scopes_.rend(); ++s) {
      auto bucket = s->reps.find(key);
      if (bucket == s->reps.end()) continue;
      auto it = bucket->second.find(h);
      if (it == bucket->second.end()) continue;
      for (ir::Value* rep : it->second)
        if (rep->initializer()->sameData(t)) return rep;
    }
    return nullptr;
  }

  // Merges the duplicates of `g` and its subgraphs; stops between two
  // initializers on Cancel (hashing large ones is the slow part).
  Status visit(ir::Graph& g) {
    if (scopes_.empty()) countShapes(g);
    scopes_.emplace_back();
    std::vector<ir::Value*> inits = g.initializers();
    for (ir::Value* v : inits) {
      if (cancelRequested(ctx_)) return cancelledError(kInfoId);
      if (!eligible(v)) continue;
      const ir::Tensor& t = *v->initializer();
      ShapeKey key{t.dtype(), t.dims()};
      if (shapeCount_[key] < 2) continue;  // nothing else has this shape: no hashing
      uint64_t h = t.contentHash();
      ir::Value* rep = findEqual(t, key, h);
      if (!rep) {
        scopes_.back().reps[key][h].push_back(v);
        continue;
      }
      if (v->isGraphOutput()) {
        note(v, Text::of("'%1' equals '%2' but is a graph output", v->name(), rep->name()));
        continue;
      }
      if (ctx_.filter) {
        bool excluded = false;
        for (const ir::Use& u : v->uses()) excluded |= !ctx_.filter->allows(u.node->id());
        if (excluded) {
          note(v,
               Text::of("not applied: a node reading '%1' is excluded from this pass", v->name()));
          continue;
        }
      }
      ctx_.rewriter.replaceAllUsesWith(v, rep);
      ctx_.rewriter.removeInitializer(v);
    }
    for (const auto& n : g.nodes())
      if (n->hasSubgraphs())
        for (ir::Graph* sub : n->subgraphs()) PASSLAB_RETURN_IF_ERROR(visit(*sub));
    scopes_.pop_back();
    return Status::ok();
  }

  void note(const ir::Value* v, Text why) {
    if (!ctx_.explain) return;
    // Explanations are per node: file it under the first reader (by node id).
    if (!v->uses().empty())
      ctx_.explain->note(rewrite::usesInNodeOrder(v).front().node->id(), kPattern, std::move(why));
  }

  PassContext& ctx_;
  std::unordered_set<std::string> annotated_;
  std::map<ShapeKey, size_t> shapeCount_;
  std::vector<Scope> scopes_;
};

class DeduplicateInitializers final : public Pass {
 public:
  const PassInfo& info() const override { return catalogInfo(kInfoId); }

  Status run(PassContext& ctx) const override { return Dedup(ctx).run(ctx.model().graph()); }
};

}  // namespace

std::unique_ptr<Pass> makeDeduplicateInitializers() {
  return std::make_unique<DeduplicateInitializers>();
}

}  // namespace passlab::passes
