// Recurrent layers RNN, GRU, LSTM:
//   layout 0: X [seq, batch, in]  -> Y [seq, dirs, batch, hidden], Y_h/Y_c [dirs, batch, hidden]
//   layout 1: X [batch, seq, in]  -> Y [batch, seq, dirs, hidden], Y_h/Y_c [batch, dirs, hidden]
#include "core/analysis/infer/helpers.h"
#include "core/analysis/infer/rules.h"

namespace passlab::analysis::infer {

void inferRnn(InferContext& ctx) {
  const ir::Shape* x = ctx.inputShape(0);
  const ir::Shape* r = ctx.inputShape(2);
  std::string direction = ctx.attrString("direction", "forward");
  if (direction != "forward" && direction != "reverse" && direction != "bidirectional") {
    ctx.fail("unknown direction '" + direction + "'");
    return;
  }
  ir::Dim dirs(direction == "bidirectional" ? 2 : 1);
  ir::Dim hidden;
  if (ctx.hasAttr("hidden_size"))
    hidden = ir::Dim(ctx.attrInt("hidden_size", 0));
  else if (r && r->rank() == 3)
    hidden = (*r)[2];
  bool batchFirst = ctx.opset() >= 14 && ctx.attrInt("layout", 0) != 0;
  ir::Dim seq, batch;
  if (x) {
    if (x->rank() != 3) {
      ctx.fail("X must be 3-D, got " + x->toString());
      return;
    }
    seq = (*x)[batchFirst ? 1 : 0];
    batch = (*x)[batchFirst ? 0 : 1];
  }
  ir::Shape y =
      batchFirst ? ir::Shape({batch, seq, dirs, hidden}) : ir::Shape({seq, dirs, batch, hidden});
  ir::Shape state =
      batchFirst ? ir::Shape({batch, dirs, hidden}) : ir::Shape({dirs, batch, hidden});
  ctx.setOutputShape(0, y);
  for (size_t i = 1; i < ctx.outputCount(); ++i) ctx.setOutputShape(i, state);
}

}  // namespace passlab::analysis::infer
