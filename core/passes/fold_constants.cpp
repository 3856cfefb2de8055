// fold_constants — compute ahead of time what depends only on constants.
//
// Before:  s = Shape(x: float[1,3,224,224]); d = Gather(s, 1); k = Mul(two, three); y = Add(x, k)
// After:   y = Add(x, six)   (d, with nobody left to read it, is gone too)
// One walk over each graph in node (topological) order, so a chain of
// constants folds in one pass, O(N) plus the kernels' work:
// - Constant nodes become initializers (option constant_nodes_to_initializers;
//   not in IR < 4 models, where every initializer must be a graph input);
// - with no kernel at all: Shape and Size of a static shape; Gather and Slice
//   of a Shape's static dims (the other dims may be dynamic); Reshape,
//   Squeeze, Unsqueeze, Flatten and Identity of a constant (the same bytes
//   under new dims, not copied);
// - If with a constant condition: the taken branch is inlined before the If
//   (its values get fresh names; its initializers become constants of the
//   enclosing graph) and then folded too. Branches holding nodes with
//   subgraphs are not inlined;
// - any other node whose inputs are all constant, through the Evaluator the
//   pipeline supplies (the CPU executor); without one, only the above.
// Results are written as initializers through the Rewriter (as Constant nodes
// in IR < 4 models, or when the result is a graph output, whose name must stay).
// Conditions:
// - deterministic ops without subgraphs only (random ops, ops without a
//   schema are left alone);
// - DequantizeLinear is not folded unless fold_dequantize_linear is set:
//   folding a quantized weight turns a QDQ model back into a float one;
// - size budget: a result is written only if its bytes are at most
//   max(size_budget_bytes, max_growth x the bytes of the node's constant
//   inputs). The defaults keep ConstantOfShape/Expand/Tile/Range from turning
//   a few bytes into megabytes (the onnx_light_* models would grow from kB to
//   hundreds of MB); max_growth=inf folds everything.
// Exact, given the kernels: a folded node computes what the runtime would.
#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>
#include <unordered_set>

#include "core/ir/op_schema.h"
#include "core/passes/node_policy.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"
#include "core/passes/rule_helpers.h"

namespace passlab::passes {

namespace {

constexpr const char* kPattern = "fold_constants";

bool isOp(const ir::Node& n, const char* op) {
  return n.domain().empty() && n.opType() == op;
}

Text bytesText(uint64_t b) {
  return Text::of("%1 bytes", std::to_string(b));
}

class Folder {
 public:
  Folder(PassContext& ctx, ir::Model& model) : ctx_(ctx), rw_(ctx.rewriter), model_(model) {
    budget_ = ctx.intOption("size_budget_bytes");
    growth_ = ctx.doubleOption("max_growth");
    foldDq_ = ctx.boolOption("fold_dequantize_linear");
    constantNodes_ = ctx.boolOption("constant_nodes_to_initializers") && model.irVersion >= 4;
  }

  Status visit(ir::Graph& g) {
    std::vector<std::pair<ir::Node*, ir::NodeId>> order;
    for (const auto& n : g.nodes()) order.emplace_back(n.get(), n->id());
    for (auto [n, id] : order) {
      if (cancelRequested(ctx_)) return cancelledError(kPattern);
      refreshRemoved();
      if (removed_.count(id)) continue;
      if (Status s = process(*n); !s.isOk()) return s;
    }
    return Status::ok();
  }

 private:
  void refreshRemoved() {
    const auto& edits = rw_.log().edits();
    for (; seenLog_ < edits.size(); ++seenLog_)
      if (edits[seenLog_].kind == rewrite::EditKind::kNodeRemoved)
        removed_.insert(edits[seenLog_].node);
  }

  void note(const ir::Node& n, Text why) {
    if (ctx_.explain) ctx_.explain->note(n.id(), kPattern, std::move(why));
  }

  Status process(ir::Node& n) {
    if (!mayChange(ctx_, n)) return Status::ok();  // silently, as before
    if (isOp(n, "If") && inlineIf(n)) return Status::ok();
    if (n.hasSubgraphs())
      for (ir::Graph* sub : n.subgraphs())
        if (Status s = visit(*sub); !s.isOk()) return s;
    if (isOp(n, "Constant")) {
      constantToInitializer(n);
      return Status::ok();
    }
    fold(n);
    return Status::ok();
  }

  void constantToInitializer(ir::Node& n) {
    ir::Value* out = n.output(0);
    if (!constantNodes_ || !out || out->isGraphOutput()) return;
    auto t = rewrite::constantValue(out);
    if (!t) return;  // sparse_value, or an attribute reference inside a function
    ir::Value* v = rw_.addInitializer(*n.owner(), out->name(), std::move(*t));
    rw_.replaceAllUsesWith(out, v);
    rw_.removeNode(&n);
  }

  // ---- folds that need no kernel ----

  // The dims a Shape node reports (with its start/end), each known or not.
  static std::optional<std::vector<std::optional<int64_t>>> shapeDims(const ir::Node& shape) {
    const ir::Value* x = shape.input(0);
    auto rank = rankOf(x);
    if (!rank) return std::nullopt;
    int64_t start = shape.attrInt("start", 0), end = shape.attrInt("end", *rank);
    if (start < 0) start += *rank;
    if (end < 0) end += *rank;
    start = std::clamp<int64_t>(start, 0, *rank);
    end = std::clamp<int64_t>(end, 0, *rank);
    std::vector<std::optional<int64_t>> dims;
    for (int64_t i = start; i < end; ++i) {
      const ir::Dim& d = (*x->type().shape())[static_cast<size_t>(i)];
      dims.push_back(d.isStatic() ? std::optional(d.value()) : std::nullopt);
    }
    return dims;
  }

  // Shape, Size, and Gather/Slice of a Shape, as far as the dims are static.
  std::optional<ir::Tensor> foldShapeArithmetic(const ir::Node& n) {
    if (isOp(n, "Shape")) {
      auto dims = shapeDims(n);
      if (!dims) return std::nullopt;
      std::vector<int64_t> v;
      for (const auto& d : *dims) {
        if (!d) return std::nullopt;
        v.push_back(*d);
      }
      return ir::Tensor::fromInt64s(v);
    }
    if (isOp(n, "Size")) {
      auto dims = rewrite::staticDims(n.input(0));
      auto numel = dims ? ir::checkedProduct(*dims) : std::nullopt;
      if (!numel) return std::nullopt;
      return ir::Tensor::scalarInt64(*numel);
    }
    bool gather = isOp(n, "Gather"), slice = isOp(n, "Slice");
    if (!gather && !slice) return std::nullopt;
    ir::Node* shape = producerOp(n.input(0), "Shape");
    if (!shape) return std::nullopt;
    auto dims = shapeDims(*shape);
    if (!dims) return std::nullopt;
    auto len = static_cast<int64_t>(dims->size());
    std::vector<int64_t> picked;
    std::vector<int64_t> outDims;
    if (gather) {
      auto idx = rewrite::constantValue(n.input(1));
      if (!idx || idx->rank() > 1 || n.attrInt("axis", 0) != 0 || !ir::isInteger(idx->dtype()))
        return std::nullopt;
      for (int64_t i : idx->toInt64Vector()) picked.push_back(i < 0 ? i + len : i);
      outDims = idx->dims();
    } else {
      auto starts = rewrite::intsFromAttrOrInput(n, "starts", 1);
      auto ends = rewrite::intsFromAttrOrInput(n, "ends", 2);
      auto axes = rewrite::intsFromAttrOrInput(n, "axes", 3);
      auto steps = rewrite::intsFromAttrOrInput(n, "steps", 4);
      if (!starts || !ends || !axes || !steps || starts->size() != 1 || ends->size() != 1)
        return std::nullopt;
      if (!axes->empty() && (axes->size() != 1 || ((*axes)[0] != 0 && (*axes)[0] != -1)))
        return std::nullopt;
      int64_t step = steps->empty() ? 1 : (*steps)[0];
      if (step == 0) return std::nullopt;
      // ONNX Slice clamping on one axis of length `len`.
      auto clampIdx = [&](int64_t v, bool isEnd) {
        if (v < 0) v += len;
        if (step > 0) return std::clamp<int64_t>(v, 0, len);
        return std::clamp<int64_t>(v, isEnd ? -1 : 0, len - 1);
      };
      int64_t s = clampIdx((*starts)[0], false), e = clampIdx((*ends)[0], true);
      for (int64_t i = s; step > 0 ? i < e : i > e; i += step) picked.push_back(i);
      outDims = {static_cast<int64_t>(picked.size())};
    }
    std::vector<int64_t> values;
    for (int64_t i : picked) {
      if (i < 0 || i >= len || !(*dims)[static_cast<size_t>(i)]) return std::nullopt;
      values.push_back(*(*dims)[static_cast<size_t>(i)]);
    }
    return ir::Tensor::fromVector(ir::DataType::kInt64, outDims, values);
  }

  // Reshape-like ops of a constant: the same bytes under the inferred static dims.
  static std::optional<ir::Tensor> foldReshapeLike(const ir::Node& n, const ir::Tensor& in) {
    bool reshapeLike = isOp(n, "Reshape") || isOp(n, "Squeeze") || isOp(n, "Unsqueeze") ||
                       isOp(n, "Flatten") || isOp(n, "Identity");
    if (!reshapeLike || in.dtype() == ir::DataType::kString || !in.buffer()) return std::nullopt;
    auto dims = rewrite::staticDims(n.output(0));
    if (!dims || elemTypeOf(n.output(0)) != in.dtype()) return std::nullopt;
    ir::Tensor t(in.dtype(), *dims, in.buffer());
    if (t.expectedBytes() != in.expectedBytes() || in.bytes().size() != in.expectedBytes())
      return std::nullopt;
    return t;
  }

  // ---- the general case ----

  void fold(ir::Node& n) {
    if (n.hasSubgraphs()) return;
    if (auto t = foldShapeArithmetic(n)) {
      replaceWith(n, {std::move(*t)});
      return;
    }
    std::vector<std::optional<ir::Tensor>> consts(n.inputCount());
    bool any = false;
    uint64_t inBytes = 0;
    for (size_t i = 0; i < n.inputCount(); ++i) {
      ir::Value* v = n.input(i);
      if (!v) continue;
      consts[i] = rewrite::constantValue(v);
      if (!consts[i]) return;  // not all constant: nothing to fold, nothing to explain
      any = true;
      inBytes += consts[i]->expectedBytes();
    }
    if (!any) return;  // Constant, RandomNormal, ...: no inputs to fold from
    if (Text why = whyNotPure(n, model_); !why.empty()) {
      note(n, Text::of("all inputs are constant, but %1", why));
      return;
    }
    if (isOp(n, "DequantizeLinear") && !foldDq_) {
      note(n,
           "a DequantizeLinear of constants is a quantized weight; folding it would store it as "
           "float (set fold_dequantize_linear=true to fold anyway)");
      return;
    }
    for (const ir::Value* out : n.outputs())
      if (out && !out->type().isUndefined() && !out->type().isTensor()) {
        note(n, "an output is not a tensor");
        return;
      }
    // inf folds everything (inf x 0 bytes of inputs would be NaN, no limit).
    double limitD = std::isinf(growth_) ? growth_
                                        : std::max(static_cast<double>(budget_),
                                                   growth_ * static_cast<double>(inBytes));
    auto overBudget = [&](uint64_t bytes) { return static_cast<double>(bytes) > limitD; };
    auto budgetText = [&](uint64_t bytes) {
      return Text::of(
          "the result would take %1, more than the budget max(%2, %3 x %4 of constant inputs); "
          "raise size_budget_bytes or max_growth to fold it",
          bytesText(bytes), std::to_string(budget_), std::to_string(growth_), bytesText(inBytes));
    };
    // Known output sizes are checked before anything is computed.
    uint64_t predicted = 0;
    bool allKnown = true;
    for (const ir::Value* out : n.outputs()) {
      if (!out) continue;
      auto dims = rewrite::staticDims(out);
      auto numel = dims ? ir::checkedProduct(*dims) : std::nullopt;
      ir::DataType dt = elemTypeOf(out);
      if (!numel || dt == ir::DataType::kUndefined || dt == ir::DataType::kString) {
        allKnown = false;
        continue;
      }
      predicted += ir::dtypeStorageBytes(dt, static_cast<uint64_t>(*numel));
    }
    if (allKnown && overBudget(predicted)) {
      note(n, budgetText(predicted));
      return;
    }
    if (n.outputCount() == 1 && consts[0]) {
      if (auto t = foldReshapeLike(n, *consts[0])) {
        replaceWith(n, {std::move(*t)});
        return;
      }
    }
    if (!ctx_.evaluator) {
      note(n, Text::of("all inputs are constant, but %1 needs a kernel and no evaluator was given "
                       "(the pipeline supplies the CPU executor)",
                       n.opType()));
      return;
    }
    std::vector<const ir::Tensor*> ptrs;
    for (const auto& c : consts) ptrs.push_back(c ? &*c : nullptr);
    std::string domain(ir::OpRegistry::canonicalDomain(n.domain()));
    int64_t version = model_.opsetVersion(domain).value_or(1);
    auto result = ctx_.evaluator->evaluate(n, ptrs, version);
    if (!result) {
      note(n, Text::of("evaluating it failed: %1", result.error().text()));
      return;
    }
    if (result->size() != n.outputCount()) {
      note(n, Text::of("the evaluator returned %1 outputs", std::to_string(result->size())));
      return;
    }
    uint64_t bytes = 0;
    for (size_t i = 0; i < result->size(); ++i)
      if (n.output(i)) bytes += (*result)[i].expectedBytes();
    if (overBudget(bytes)) {
      note(n, budgetText(bytes));
      return;
    }
    replaceWith(n, std::move(*result));
  }

  // Every used output of `n` becomes the matching constant; `n` goes.
  void replaceWith(ir::Node& n, std::vector<ir::Tensor> tensors) {
    ir::Graph& g = *n.owner();
    for (size_t i = 0; i < n.outputCount() && i < tensors.size(); ++i) {
      ir::Value* out = n.output(i);
      if (!out || (!out->hasUses() && !out->isGraphOutput())) continue;
      ir::Value* v =
          addConstant(rw_, g, &n, out->name(), std::move(tensors[i]), {&n}, out->isGraphOutput());
      rw_.replaceAllUsesWith(out, v);
    }
    removeWithConstants(rw_, &n);
  }

  // ---- If with a constant condition ----

  bool inlineIf(ir::Node& n) {
    auto cond = rewrite::constantValue(n.input(0));
    if (!cond || cond->numel() != 1 || cond->bytes().size() < cond->expectedBytes()) return false;
    bool taken = cond->valueAsDouble(0) != 0.0;
    const ir::Attribute* a = n.attr(taken ? "then_branch" : "else_branch");
    ir::Graph* branch = a ? a->g.get() : nullptr;
    if (!branch || branch->outputs().size() != n.outputCount()) return false;
    for (const auto& bn : branch->nodes())
      if (bn->hasSubgraphs()) {
        note(n, Text::of("the condition is constant, but the taken branch holds %1, which has "
                         "subgraphs; inlining those is not supported",
                         bn->describe()));
        return false;
      }
    if (!branch->sparseInitializers().empty()) {
      note(n, "the condition is constant, but the taken branch has sparse initializers");
      return false;
    }
    ir::Graph& g = *n.owner();
    std::unordered_map<const ir::Value*, ir::Value*> map;
    auto mapped = [&](ir::Value* v) -> ir::Value* {
      if (!v) return nullptr;
      auto it = map.find(v);
      return it == map.end() ? v : it->second;  // outer values stay as they are
    };
    for (ir::Value* init : branch->initializers())
      map[init] = addConstant(rw_, g, &n, init->name(), *init->initializer(), {&n});
    std::vector<std::pair<ir::Node*, ir::NodeId>> added;
    for (const auto& bn : branch->nodes()) {
      std::vector<ir::Value*> inputs;
      for (ir::Value* v : bn->inputs()) inputs.push_back(mapped(v));
      size_t count = bn->outputCount();
      while (count > 0 && !bn->output(count - 1)) --count;  // trailing omitted outputs stay omitted
      std::string name = bn->name().empty() ? "" : g.freshName(bn->name());
      ir::Node* nn =
          rw_.addNode(g, bn->opType(), bn->domain(), inputs, count, &n, name, {bn.get(), &n});
      for (const auto& attr : bn->attributes())
        if (auto c = copyAttribute(attr)) rw_.setAttr(nn, std::move(*c));
      for (size_t i = 0; i < count; ++i)
        if (ir::Value* o = bn->output(i)) {
          map[o] = nn->output(i);
          rw_.setType(nn->output(i), o->type());
        }
      added.emplace_back(nn, nn->id());
    }
    for (size_t i = 0; i < n.outputCount(); ++i) {
      ir::Value* out = n.output(i);
      if (!out) continue;
      ir::Value* v = mapped(branch->outputs()[i]);
      if (!rewrite::Rewriter::canReplace(out, v).empty() ||
          (out->isGraphOutput() && v->isGraphOutput())) {
        // An outer value or constant cannot take a model output's name: keep one Identity.
        ir::Node* id = rw_.addNode(g, "Identity", "", {v}, 1, &n, "", {&n});
        rw_.setType(id->output(0), out->type());
        v = id->output(0);
      }
      rw_.replaceAllUsesWith(out, v);
    }
    removeWithConstants(rw_, &n);
    for (auto [nn, id] : added) {
      refreshRemoved();
      if (!removed_.count(id)) (void)process(*nn);
    }
    return true;
  }

  PassContext& ctx_;
  rewrite::Rewriter& rw_;
  ir::Model& model_;
  int64_t budget_ = 4096;
  double growth_ = 1.0;
  bool foldDq_ = false;
  bool constantNodes_ = true;
  size_t seenLog_ = 0;
  std::unordered_set<ir::NodeId> removed_;
};

class FoldConstants final : public Pass {
 public:
  const PassInfo& info() const override { return catalogInfo("fold_constants"); }

  Status run(PassContext& ctx) const override {
    ir::Model& model = ctx.model();
    Folder folder(ctx, model);
    return folder.visit(model.graph());
  }
};

}  // namespace

std::unique_ptr<Pass> makeFoldConstants() {
  return std::make_unique<FoldConstants>();
}

}  // namespace passlab::passes
