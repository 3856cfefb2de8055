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
    headSize = SymInt::fromDim((*q)[2]).floorDiv(SymInt(qh));
    vHeadSize = SymInt::fromDim((*v)[2]).floorDiv(SymInt(kvh));
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

}  // namespace passlab::analysis::infer
