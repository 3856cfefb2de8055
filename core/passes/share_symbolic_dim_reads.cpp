// share_symbolic_dim_reads — read a named (symbolic) dimension from the graph input that
// declares it, so that every read of it becomes one computation.
//
// Before:  d1 = Gather(Shape(h1), 0); d2 = Gather(Shape(h7), 0)   (h1, h7: [batch_size, 1, 12])
// After:   d1 = Gather(Shape(input_ids), 0); d2 = Gather(Shape(input_ids), 0)
//          (input_ids: [batch_size, 1]; eliminate_common_subexpressions then merges the two,
//          and the Unsqueeze/Concat shape arithmetic built on them)
// Exporters compute a tensor's batch or sequence length again at every Reshape
// (GPT-2: Shape, Gather, Unsqueeze, Concat per head split, 12 layers). Shape
// inference proves which of those dims carry the same name as a dim of a graph
// input; reading that input's dim instead is the same number at run time, as
// long as the inputs honour the names their dims are declared with (the
// assumption ONNX Runtime's symbolic shape inference, onnxsim and OnnxSlim make;
// a model fed with inputs that disagree on one name is outside it).
// Conditions: Gather(Shape(x), i) with axis 0 and a constant index i (scalar or
// one element, negative counted from the end); Shape's start/end (opset 15)
// honoured; the dim of x it reads is symbolic (a static dim is folded by
// fold_constants) and some main-graph input declares a dim of that name (the
// first such input and dim in input order is the source); not already a read
// of that source. Exact. Opsets: 1-28.
#include <unordered_map>

#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"

namespace passlab::passes {

namespace {

struct DimSource {
  ir::Value* input;
  int64_t dim;
};

// The first main-graph input declaring each dim name.
std::unordered_map<std::string, DimSource> dimSources(const ir::Graph& root) {
  std::unordered_map<std::string, DimSource> sources;
  for (ir::Value* in : root.inputs()) {
    if (in->isInitializer() || !in->type().hasShape()) continue;
    const ir::Shape& s = *in->type().shape();
    for (size_t k = 0; k < s.rank(); ++k)
      if (s[k].isSymbolic())
        sources.try_emplace(s[k].param(), DimSource{in, static_cast<int64_t>(k)});
  }
  return sources;
}

const ir::Graph& mainGraph(const ir::Node& n) {
  const ir::Graph* g = n.owner();
  while (g->parent()) g = g->parent();
  return *g;
}

// The dim index of Shape's input that element `i` of Shape's output reads.
std::optional<int64_t> dimIndex(const ir::Node& shape, int64_t rank, int64_t i) {
  auto clamp = [rank](int64_t v) {
    if (v < 0) v += rank;
    return std::min(std::max<int64_t>(v, 0), rank);
  };
  int64_t start = clamp(shape.attrInt("start", 0));
  int64_t end = clamp(shape.attrInt("end", rank));
  int64_t len = std::max<int64_t>(end - start, 0);
  if (i < 0) i += len;
  if (i < 0 || i >= len) return std::nullopt;
  return start + i;
}

MatchResult share(ir::Node& gather, const MatchContext& c) {
  if (Text why = fusion::whyNotOpset(c, 1, 28, "share_symbolic_dim_reads"); !why.empty())
    return MatchResult::failure(why);
  ir::Node* shape = producerOp(gather.input(0), "Shape");
  if (!shape) return MatchResult::failure("Gather does not read a Shape");
  if (gather.attrInt("axis", 0) != 0) return MatchResult::failure("Gather axis is not 0");
  auto index = rewrite::constantValue(gather.input(1));
  if (!index) return MatchResult::failure("the Gather index is not constant");
  if (index->numel() != 1 || index->rank() > 1 || !ir::isInteger(index->dtype()))
    return MatchResult::failure("the Gather index is not one integer");
  ir::Value* x = shape->input(0);
  if (!x || !x->type().hasShape())
    return MatchResult::failure("the rank of the Shape input is unknown");
  const ir::Shape& xs = *x->type().shape();
  auto k = dimIndex(*shape, static_cast<int64_t>(xs.rank()), index->toInt64Vector().at(0));
  if (!k) return MatchResult::failure("the Gather index is out of range");
  const ir::Dim& d = xs[static_cast<size_t>(*k)];
  if (d.isStatic())
    return MatchResult::failure(
        Text::of("dim %1 is static (fold_constants folds it)", std::to_string(*k)));
  if (!d.isSymbolic())
    return MatchResult::failure(
        Text::of("dim %1 of '%2' has no name (shape inference could not relate it)",
                 std::to_string(*k), x->name()));
  auto sources = dimSources(mainGraph(gather));
  auto it = sources.find(d.param());
  if (it == sources.end())
    return MatchResult::failure(Text::of("no graph input declares a dim named '%1'", d.param()));
  const DimSource src = it->second;
  if (src.input == x && src.dim == *k && !shape->hasAttr("start") && !shape->hasAttr("end"))
    return MatchResult::failure(
        Text::of("already reads dim '%1' from input '%2'", d.param(), x->name()));
  const bool vectorIndex = index->rank() == 1;
  return MatchResult::success({&gather}, [&gather, shape, src, vectorIndex](rewrite::Rewriter& rw) {
    ir::Graph& g = *gather.owner();
    ir::Node* newShape = fusion::addDerived(rw, "Shape", {src.input}, &gather, {&gather});
    ir::Tensor at =
        vectorIndex ? ir::Tensor::fromInt64s({src.dim}) : ir::Tensor::scalarInt64(src.dim);
    ir::Value* idx = addConstant(rw, g, &gather, "dim_index", std::move(at), {&gather});
    ir::Node* read = fusion::addDerived(rw, "Gather", {newShape->output(0), idx}, &gather,
                                        {&gather}, nullptr, {gather.output(0)});
    fusion::replaceAndErase(rw, gather.output(0), read->output(0), {&gather, shape});
  });
}

fusion::Rules rules() {
  fusion::Rules r;
  // Gather(Shape(x), i) -> Gather(Shape(input), j) where dim i of x and dim j
  // of the graph input carry the same name
  fusion::addRule(r, "dim_from_declaring_input",
                  "Gather(Shape(x), i) -> Gather(Shape(input), j), dim i of x named like dim j "
                  "of a graph input",
                  {"Gather"}, share);
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeShareSymbolicDimReads() {
  return std::make_unique<PatternPass>(catalogInfo("share_symbolic_dim_reads"), rules());
}

}  // namespace passlab::passes
