// com.microsoft ops that ONNX Runtime's transformer fusions produce:
//   Attention(input [B,S,D], weights [D, 3H] | qkv_hidden_sizes, bias, mask, past [2,B,N,P,H/N])
//     -> output [B,S,Hv], present [2,B,N,P+S,H/N]
//   EmbedLayerNormalization(ids [B,S], ..., word_embedding [V,H], ...)
//     -> output [B,S,H], mask_index [B] int32, embedding_sum [B,S,H]
//   BeamSearch(input_ids [B,L], max_length, ...) -> sequences [B,R,max_length], scores [B,R], ...
#include "core/analysis/infer/helpers.h"
#include "core/analysis/infer/rules.h"

namespace passlab::analysis::infer {

namespace {

// The number held by a tracked one-element input, as a dim.
ir::Dim scalarDim(InferContext& ctx, size_t input) {
  if (!ctx.hasInput(input)) return {};
  const KnownValue* k = ctx.inputValue(input);
  if (!k || k->elems.size() != 1) return {};
  return k->elems[0].toDim();
}

}  // namespace

void inferMsAttention(InferContext& ctx) {
  const ir::Shape* in = ctx.inputShape(0);
  const ir::Shape* w = ctx.inputShape(1);
  const ir::Shape* bias = ctx.inputShape(2);
  if (ctx.outputType(0).elemType() == ir::DataType::kUndefined)
    ctx.setOutputElem(0, ctx.inputElem(0));
  if (!in) return;
  if (in->rank() != 3) {
    ctx.fail("input must be 3-D [batch, sequence, hidden], got " + in->toString());
    return;
  }
  int64_t heads = ctx.attrInt("num_heads", 0);
  std::vector<int64_t> qkv = ctx.attrInts("qkv_hidden_sizes");
  SymInt vHidden, qkHidden;
  if (qkv.size() == 3) {
    vHidden = SymInt(qkv[2]);
    qkHidden = SymInt(qkv[0]);
  } else if (w && w->rank() == 2) {
    vHidden = qkHidden = SymInt::fromDim((*w)[1]).exactDiv(SymInt(3));
  } else if (bias && bias->rank() == 1) {
    vHidden = qkHidden = SymInt::fromDim((*bias)[0]).exactDiv(SymInt(3));
  }
  ir::Dim batch = (*in)[0], seq = (*in)[1];
  ctx.setOutputShape(0, ir::Shape({batch, seq, vHidden.toDim()}));
  if (ctx.outputCount() < 2 || !ctx.hasOutput(1)) return;
  if (ctx.outputType(1).elemType() == ir::DataType::kUndefined)
    ctx.setOutputElem(1, ctx.inputElem(0));
  SymInt total = SymInt::fromDim(seq);
  if (const ir::Shape* past = ctx.inputShape(4); past && past->rank() == 5)
    total = total + SymInt::fromDim((*past)[3]);
  else if (ctx.hasInput(4))
    total = SymInt();
  SymInt headSize = heads > 0 ? vHidden.exactDiv(SymInt(heads)) : SymInt();
  ctx.setOutputShape(1, ir::Shape({ir::Dim(2), batch, heads > 0 ? ir::Dim(heads) : ir::Dim(),
                                   total.toDim(), headSize.toDim()}));
}

void inferEmbedLayerNorm(InferContext& ctx) {
  const ir::Shape* ids = ctx.inputShape(0);
  const ir::Shape* word = ctx.inputShape(2);
  const ir::Shape* gamma = ctx.inputShape(5);
  ir::DataType elem = ctx.inputElem(2);
  if (elem == ir::DataType::kUndefined) elem = ctx.inputElem(5);
  ir::Dim hidden;
  if (word && word->rank() == 2)
    hidden = (*word)[1];
  else if (gamma && gamma->rank() == 1)
    hidden = (*gamma)[0];
  ir::Dim batch, seq;
  if (ids) {
    if (ids->rank() != 2) {
      ctx.fail("input_ids must be 2-D [batch, sequence], got " + ids->toString());
      return;
    }
    batch = (*ids)[0];
    seq = (*ids)[1];
  }
  ctx.setOutput(0, elem, ir::Shape({batch, seq, hidden}));
  if (ctx.outputCount() > 1 && ctx.hasOutput(1))
    ctx.setOutput(1, ir::DataType::kInt32, ir::Shape({batch}));
  if (ctx.outputCount() > 2 && ctx.hasOutput(2))
    ctx.setOutput(2, elem, ir::Shape({batch, seq, hidden}));
}

void inferBeamSearch(InferContext& ctx) {
  const ir::Shape* ids = ctx.inputShape(0);
  ir::Dim batch = ids && ids->rank() == 2 ? (*ids)[0] : ir::Dim();
  ir::Dim maxLength = scalarDim(ctx, 1);
  ctx.setOutputElem(0, ir::DataType::kInt32);
  if (ctx.node().opType() == "GreedySearch") {
    ctx.setOutputShape(0, ir::Shape({batch, maxLength}));
    return;
  }
  ir::Dim returned = scalarDim(ctx, 4);
  ctx.setOutputShape(0, ir::Shape({batch, returned, maxLength}));
  ir::DataType scoreElem = ctx.hasInput(5) ? ctx.inputElem(5) : ir::DataType::kFloat;
  if (scoreElem == ir::DataType::kUndefined) scoreElem = ir::DataType::kFloat;
  if (ctx.outputCount() > 1 && ctx.hasOutput(1))
    ctx.setOutput(1, scoreElem, ir::Shape({batch, returned}));
  if (ctx.outputCount() > 2 && ctx.hasOutput(2)) {
    // scores: [max_length - sequence_length, batch * num_beams, vocab]
    SymInt steps = ids && ids->rank() == 2 ? SymInt::fromDim(maxLength) - SymInt::fromDim((*ids)[1])
                                           : SymInt();
    SymInt rows = SymInt::fromDim(batch) * SymInt::fromDim(scalarDim(ctx, 3));
    ir::Dim vocab = ctx.hasAttr("vocab_size") ? ir::Dim(ctx.attrInt("vocab_size", -1)) : ir::Dim();
    ctx.setOutput(2, scoreElem, ir::Shape({steps.toDim(), rows.toDim(), vocab}));
  }
}

}  // namespace passlab::analysis::infer
