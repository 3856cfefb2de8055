// fuse_ort_embed_layer_norm — summed embedding lookups followed by a layer
// norm become ONNX Runtime's EmbedLayerNormalization (ONNX Runtime target).
//
// Before:  e = Add(Gather(word, ids), Gather(position, position_ids))
//          (optionally + Gather(segment, segment_ids))
//          y = LayerNorm(e)          (a LayerNormalization node over the last axis, or
//                                     the decomposed subgraph of fuse_layer_normalization)
// After:   y[, _, e] = com.microsoft.EmbedLayerNormalization(
//              Cast<int32>(ids), [Cast<int32>(segment_ids)], word, position, [segment],
//              gamma, beta, , Cast<int32>(position_ids))
//          e (the embedding sum) comes out as output 2 when something else reads it
// Algebra: the op looks up each id's row in each table, adds the rows and
// normalizes the sum over the hidden axis with gamma and beta; with
// position_ids given it reads positions from them. Same sums, normalized in
// float (changesNumerics).
// Conditions: the layer norm normalizes the last axis only, with constant
// gamma and beta [H] (beta zeros when absent); each lookup is a Gather along
// axis 0 of a constant 2-D [rows, H] table of the result's float type; the
// ids are model inputs (or Casts of model inputs) of an integer type and
// shape [batch, sequence] (as ONNX Runtime's fusion requires: ids computed in
// the graph are left alone); the sum is [batch, sequence, H]; the inner Add
// of three lookups is read only by the outer one. Ids are cast to int32;
// negative ids, which Gather accepts, are errors in EmbedLayerNormalization.
// Opsets: 1-28.
#include "core/passes/layer_norm_match.h"
#include "core/passes/ort_fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"

namespace passlab::passes {

namespace {

struct Lookup {
  ir::Node* gather = nullptr;
  ir::Value* table = nullptr;
  ir::Value* ids = nullptr;  // the model input (behind a Cast, if any)
};

// Gather(table, ids) along axis 0 of a constant [rows, h] table with ids a
// model input of rank 2: the lookup, or nullopt with `why`.
std::optional<Lookup> lookupOf(ir::Value* v, int64_t h, ir::DataType dt, Text& why) {
  ir::Node* g = producerOp(v, "Gather");
  if (!g || g->attrInt("axis", 0) != 0) {
    why = Text::of("'%1' is not a Gather along axis 0", v->name());
    return std::nullopt;
  }
  auto t = rewrite::constantValue(g->input(0));
  if (!t || t->rank() != 2 || t->dims()[1] != h || t->dtype() != dt) {
    why = Text::of(
        "the Gather producing '%1' does not read a constant [rows, %2] table of the result's type",
        v->name(), std::to_string(h));
    return std::nullopt;
  }
  ir::Value* ids = g->input(1);
  if (ir::Node* c = producerOp(ids, "Cast")) ids = c->input(0);
  ir::DataType it = elemTypeOf(ids);
  if (!ids->isGraphInput() || ids->isInitializer() ||
      (it != ir::DataType::kInt32 && it != ir::DataType::kInt64)) {
    why = Text::of(
        "the ids of the Gather producing '%1' are not an integer model input (computed ids are "
        "left alone)",
        v->name());
    return std::nullopt;
  }
  if (rankOf(g->input(1)) != 2) {
    why = Text::of("the ids of the Gather producing '%1' are not [batch, sequence]", v->name());
    return std::nullopt;
  }
  return Lookup{g, g->input(0), g->input(1)};
}

MatchResult embedLayerNorm(ir::Node& root, const MatchContext&) {
  Text why;
  auto m = fusion::matchAnyLayerNorm(root, why);
  if (!m) return MatchResult::failure(why);
  if (m->axes != 1)
    return MatchResult::failure(Text::of(
        "the layer norm normalizes %1 axes; EmbedLayerNormalization normalizes the last one",
        std::to_string(m->axes)));
  ir::Node* add = producerOp(m->x, "Add");
  if (!add || add->inputCount() != 2)
    return MatchResult::failure("the layer norm input is not an Add");
  if (rankOf(m->x) != 3) return MatchResult::failure("the sum is not [batch, sequence, hidden]");
  const int64_t h = m->normDims[0];
  // Two lookups, or (word + position) + segment.
  std::vector<ir::Value*> terms{add->input(0), add->input(1)};
  std::vector<ir::Node*> adds{add};
  for (size_t i = 0; i < 2 && terms.size() == 2; ++i) {
    ir::Node* inner = producerOp(terms[i], "Add");
    if (inner && inner->inputCount() == 2 && rewrite::whyNotReadOnlyBy(terms[i], {add}).empty()) {
      ir::Value* other = terms[1 - i];
      terms = {inner->input(0), inner->input(1), other};
      adds.push_back(inner);
    }
  }
  std::vector<Lookup> ls;
  for (ir::Value* t : terms) {
    auto l = lookupOf(t, h, m->dtype, why);
    if (!l) return MatchResult::failure(why);
    if (!rewrite::whyNotReadOnlyBy(t, adds).empty())
      return MatchResult::failure(Text::of("the lookup '%1' has other readers", t->name()));
    if (!rewrite::sameTensorType(t, m->x))
      return MatchResult::failure("the lookups do not all have the sum's shape");
    ls.push_back(*l);
  }
  std::vector<ir::Node*> nodes = m->nodes;
  for (ir::Node* a : adds) nodes.push_back(a);
  for (const Lookup& l : ls) nodes.push_back(l.gather);
  const bool sumUsed = !rewrite::whyNotReadOnlyBy(m->x, m->nodes).empty();
  return MatchResult::success(nodes, [m = *m, ls, nodes, sumUsed](rewrite::Rewriter& rw) {
    ir::Graph& g = *m.last->owner();
    std::vector<const ir::Node*> from(nodes.begin(), nodes.end());
    ir::Node* before = ortfusion::beforeReaders(g, m.x, m.last);
    auto ids = [&](const Lookup& l) {
      return ortfusion::castTo(rw, l.ids, ir::DataType::kInt32, before, from);
    };
    std::vector<double> beta = m.beta;
    if (beta.empty()) beta.assign(m.gamma.size(), 0.0);
    // word, position[, segment]: the third lookup, when there is one, is the segment.
    std::vector<ir::Value*> ins{
        ids(ls[0]),
        ls.size() == 3 ? ids(ls[2]) : nullptr,
        ls[0].table,
        ls[1].table,
        ls.size() == 3 ? ls[2].table : nullptr,
        addConstant(rw, g, before, "embed_ln_gamma",
                    fusion::floatTensor(m.dtype, m.normDims, m.gamma), from),
        addConstant(rw, g, before, "embed_ln_beta", fusion::floatTensor(m.dtype, m.normDims, beta),
                    from),
        nullptr,
        ids(ls[1])};
    ir::Node* e = ortfusion::addMsNode(rw, "EmbedLayerNormalization", ins, before, from,
                                       {m.last->output(0)}, sumUsed ? 3 : 1);
    rw.setAttr(e, ir::Attribute::makeFloat("epsilon", static_cast<float>(m.epsilon)));
    if (sumUsed) {
      rw.setType(e->output(2), m.x->type());
      rw.replaceAllUsesWith(m.x, e->output(2));
    }
    fusion::replaceAndErase(rw, m.last->output(0), e->output(0), nodes);
  });
}

fusion::Rules rules() {
  fusion::Rules r;
  // LayerNorm(word[ids] + position[pos_ids] [+ segment[seg_ids]]) -> EmbedLayerNormalization
  fusion::addRule(r, "ort_embed_layer_norm",
                  "LayerNorm(word[ids] + position[pos] [+ segment[seg]]) -> com.microsoft "
                  "EmbedLayerNormalization",
                  {"LayerNormalization", "Div", "Mul", "Add"}, embedLayerNorm);
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeFuseOrtEmbedLayerNorm() {
  return std::make_unique<PatternPass>(catalogInfo("fuse_ort_embed_layer_norm"), rules());
}

}  // namespace passlab::passes
