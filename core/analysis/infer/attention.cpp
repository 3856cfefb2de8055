// ai.onnx Attention (opset 23):
//   4-D: Q [B, Hq, Sq, E], K [B, Hkv, Skv, E], V [B, Hkv, Skv, Ev]
//        -> Y [B, Hq, Sq, Ev]
//   3-D: Q [B, Sq, Hq*E], K [B, Skv, Hkv*E], V [B, Skv, Hkv*Ev] (q_num_heads, kv_num_heads)
//        -> Y [B, Sq, Hq*Ev]
//   present_key [B, Hkv, P+Skv, E], present_value [B, Hkv, P+Skv, Ev],
//   qk_matmul_output [B, Hq, Sq, P+Skv]   (P: past sequence length)
#include "core/analysis/infer/helpers.h"
#include "core/analysis/infer/rules.h"

namespace passlab::analysis::infer {

void inferAttention(InferContext& ctx) {
  const ir::Shape* q = ctx.inputShape(0);
  const ir::Shape* k = ctx.inputShape(1);
  const ir::Shape* v = ctx.inputShape(2);
  if (!q || !k || !v) return;
  if (q->rank() != k->rank() || q->rank() != v->rank() || (q->rank() != 3 && q->rank() != 4)) {
    ctx.fail("Q, K, V must all be 3-D or all 4-D, got " + q->toString() + ", " + k->toString() +
             ", " + v->toString());
    return;
  }
  SymInt batch = SymInt::fromDim((*q)[0]);
  SymInt qHeads, kvHeads, qSeq, kvSeq, headSize, vHeadSize;
  if (q->rank() == 4) {
    qHeads = SymInt::fromDim((*q)[1]);
    kvHeads = SymInt::fromDim((*k)[1]);
    qSeq = SymInt::fromDim((*q)[2]);
    kvSeq = SymInt::fromDim((*k)[2]);
    headSize = SymInt::fromDim((*q)[3]);
    vHeadSize = SymInt::fromDim((*v)[3]);
  } else {
    int64_t qh = ctx.attrInt("q_num_heads", 0), kvh = ctx.attrInt("kv_num_heads", 0);
    if (qh <= 0 || kvh <= 0) {
      ctx.fail("3-D inputs need q_num_heads and kv_num_heads");
      return;
    }
    qHeads = SymInt(qh);
    kvHeads = SymInt(kvh);
    qSeq = SymInt::fromDim((*q)[1]);
    kvSeq = SymInt::fromDim((*k)[1]);
    headSize = SymInt::fromDim((*q)[2]).exactDiv(SymInt(qh));
    vHeadSize = SymInt::fromDim((*v)[2]).exactDiv(SymInt(kvh));
  }
  SymInt total = kvSeq;
  if (ctx.hasInput(4)) {
    const ir::Shape* past = ctx.inputShape(4);
    total = past && past->rank() == 4 ? SymInt::fromDim((*past)[2]) + kvSeq : SymInt();
  }
  if (q->rank() == 4)
    ctx.setOutputShape(0, shapeOf({batch, qHeads, qSeq, vHeadSize}));
  else
    ctx.setOutputShape(0, shapeOf({batch, qSeq, qHeads * vHeadSize}));
  if (ctx.outputCount() > 1 && ctx.hasOutput(1))
    ctx.setOutputShape(1, shapeOf({batch, kvHeads, total, headSize}));
  if (ctx.outputCount() > 2 && ctx.hasOutput(2))
    ctx.setOutputShape(2, shapeOf({batch, kvHeads, total, vHeadSize}));
  if (ctx.outputCount() > 3 && ctx.hasOutput(3))
    ctx.setOutputShape(3, shapeOf({batch, qHeads, qSeq, total}));
}

// LinearAttention (opset 27): q [B,T,Hq*Dk], k [B,T,Hkv*Dk], v [B,T,Hkv*Dv]
//   -> output [B,T,Hq*Dv], present_state [B,Hkv,Dk,Dv]
void inferLinearAttention(InferContext& ctx) {
  const ir::Shape* q = ctx.inputShape(0);
  const ir::Shape* k = ctx.inputShape(1);
  const ir::Shape* v = ctx.inputShape(2);
  int64_t qh = ctx.attrInt("q_num_heads", 0), kvh = ctx.attrInt("kv_num_heads", 0);
  if (qh <= 0 || kvh <= 0) {
    ctx.fail("q_num_heads and kv_num_heads must be positive");
    return;
  }
  if (!q || !k || !v) return;
  if (q->rank() != 3 || k->rank() != 3 || v->rank() != 3) {
    ctx.fail("query, key and value must be 3-D [B, T, H*D]");
    return;
  }
  SymInt dk = SymInt::fromDim((*k)[2]).exactDiv(SymInt(kvh));
  SymInt dv = SymInt::fromDim((*v)[2]).exactDiv(SymInt(kvh));
  ctx.setOutputShape(
      0, shapeOf({SymInt::fromDim((*q)[0]), SymInt::fromDim((*q)[1]), SymInt(qh) * dv}));
  if (ctx.outputCount() > 1 && ctx.hasOutput(1)) {
    // The state's type: past_state's when given, else the query's.
    if (ctx.outputType(1).elemType() == ir::DataType::kUndefined)
      ctx.setOutputElem(1, ctx.hasInput(3) ? ctx.inputElem(3) : ctx.inputElem(0));
    ctx.setOutputShape(1, shapeOf({SymInt::fromDim((*q)[0]), SymInt(kvh), dk, dv}));
  }
}

// ai.onnx.preview FlexAttention: Q [B,Hq,Sq,E], K [B,Hkv,Skv,E], V [B,Hkv,Skv,Ev]
//   -> Y [B,Hq,Sq,Ev]; the score_mod/prob_mod bodies see [B,Hq,Sq,Skv].
void inferFlexAttention(InferContext& ctx) {
  const ir::Shape* q = ctx.inputShape(0);
  const ir::Shape* k = ctx.inputShape(1);
  const ir::Shape* v = ctx.inputShape(2);
  if (!q || !k || !v) return;
  if (q->rank() != 4 || k->rank() != 4 || v->rank() != 4) {
    ctx.fail("Q, K, V must be 4-D");
    return;
  }
  ctx.setOutputShape(0, ir::Shape({(*q)[0], (*q)[1], (*q)[2], (*v)[3]}));
  ir::DataType precision =
      ctx.inputElem(0) == ir::DataType::kDouble ? ir::DataType::kDouble : ir::DataType::kFloat;
  if (ctx.hasAttr("softmax_precision")) {
    auto p = static_cast<int32_t>(ctx.attrInt("softmax_precision", 1));
    if (ir::isKnownDtype(p)) precision = static_cast<ir::DataType>(p);
  }
  ir::Type scores = ir::Type::tensor(precision, ir::Shape({(*q)[0], (*q)[1], (*q)[2], (*k)[2]}));
  for (const char* name : {"score_mod", "prob_mod"})
    if (ir::Graph* body = ctx.attrGraph(name)) ctx.session().inferSubgraph(*body, {scores});
}

}  // namespace passlab::analysis::infer
