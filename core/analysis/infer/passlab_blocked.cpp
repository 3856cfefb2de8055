// Shapes of the ai.passlab blocked-layout ops (core/ir/passlab_ops.h, "the
// blocked activation layout"): a blocked tensor is [N, ceil(C/b), H, W, b]
// for the NCHW tensor [N, C, H, W]. Each rule reads the NCHW shape behind a
// blocked input, computes the NCHW result as the plain op would, and blocks
// it.
//
//   ReorderToBlocked(X) <block>                [N, ceil(C/b), H, W, b]
//   ReorderFromBlocked(X) <block, channels>    [N, channels, H, W]
//   FusedConv(X, W, B?, Z?) <block>            Conv's output, blocked
//   BlockedPool(X) <block, pool>               the pool's output, blocked
#include "core/analysis/infer/helpers.h"
#include "core/analysis/infer/rules.h"
#include "core/ir/passlab_ops.h"

namespace passlab::analysis::infer {

namespace {

namespace ops = ir::passlab_ops;

// The node's block size; 0 (after ctx.fail) when it is not 8 or 16.
int64_t blockOf(InferContext& ctx) {
  const int64_t b = ctx.attrInt(ops::kBlock, 0);
  if (!ops::validBlock(b)) {
    ctx.fail("block " + std::to_string(b) + " is not 8 or 16");
    return 0;
  }
  return b;
}

ir::Dim groupsOf(const ir::Dim& channels, int64_t b) {
  return channels.isStatic() ? ir::Dim(ops::blockedGroups(channels.value(), b)) : ir::Dim();
}

// [N, C, H, W] -> [N, ceil(C/b), H, W, b].
ir::Shape blocked(const ir::Shape& plain, int64_t b) {
  return ir::Shape({plain[0], groupsOf(plain[1], b), plain[2], plain[3], ir::Dim(b)});
}

// The NCHW shape behind blocked input `i` with `channels` channels (unknown:
// the padded count); nullopt (after ctx.fail when the shape is wrong) when
// there is none.
std::optional<ir::Shape> plainOf(InferContext& ctx, size_t i, int64_t b, ir::Dim channels) {
  const ir::Shape* x = ctx.inputShape(i);
  if (!x) return std::nullopt;
  if (x->rank() != 5) {
    ctx.fail("blocked input " + std::to_string(i) + " has rank " + std::to_string(x->rank()) +
             ", expected 5 ([N, C/" + std::to_string(b) + ", H, W, " + std::to_string(b) + "])");
    return std::nullopt;
  }
  if ((*x)[4].isStatic() && (*x)[4].value() != b) {
    ctx.fail("blocked input " + std::to_string(i) + " " + x->toString() +
             " does not end in the block " + std::to_string(b));
    return std::nullopt;
  }
  if (!channels.isStatic() && (*x)[1].isStatic()) channels = ir::Dim((*x)[1].value() * b);
  return ir::Shape({(*x)[0], channels, (*x)[2], (*x)[3]});
}

void setFloat(InferContext& ctx) {
  if (ctx.hasInput(0) && ctx.inputElem(0) != ir::DataType::kUndefined)
    ctx.setOutputElem(0, ctx.inputElem(0));
}

}  // namespace

void inferPasslabReorderToBlocked(InferContext& ctx) {
  setFloat(ctx);
  const int64_t b = blockOf(ctx);
  const ir::Shape* x = ctx.inputShape(0);
  if (!b || !x) return;
  if (x->rank() != 4) {
    ctx.fail("ReorderToBlocked takes an NCHW tensor, got rank " + std::to_string(x->rank()));
    return;
  }
  ctx.setOutputShape(0, blocked(*x, b));
}

void inferPasslabReorderFromBlocked(InferContext& ctx) {
  setFloat(ctx);
  const int64_t b = blockOf(ctx);
  const int64_t c = ctx.attrInt(ops::kChannels, 0);
  if (!b) return;
  auto plain = plainOf(ctx, 0, b, ir::Dim(c));
  if (!plain) return;
  const ir::Dim groups = (*ctx.inputShape(0))[1];
  if (groups.isStatic() && groups.value() != ops::blockedGroups(c, b)) {
    ctx.fail("channels " + std::to_string(c) + " need " + std::to_string(ops::blockedGroups(c, b)) +
             " blocks of " + std::to_string(b) + ", the input has " +
             std::to_string(groups.value()));
    return;
  }
  ctx.setOutputShape(0, std::move(*plain));
}

void inferPasslabBlockedConv(InferContext& ctx) {
  setFloat(ctx);
  const int64_t b = blockOf(ctx);
  const ir::Shape* x = ctx.inputShape(0);
  const ir::Shape* w = ctx.inputShape(1);
  if (!b || !x || !w) return;
  if (w->rank() != 4) {
    ctx.fail("a blocked FusedConv takes 2-D kernels (W of rank 4), got " + w->toString());
    return;
  }
  std::optional<ir::Shape> plain;
  if (x->rank() == 4) {
    plain = *x;
  } else {
    const ir::Dim& cw = (*w)[1];
    const ir::Dim channels =
        cw.isStatic() ? ir::Dim(cw.value() * ctx.attrInt("group", 1)) : ir::Dim();
    plain = plainOf(ctx, 0, b, channels);
  }
  if (!plain) return;
  std::vector<int64_t> kernel;
  for (size_t i = 2; i < 4; ++i)
    if ((*w)[i].isStatic()) kernel.push_back((*w)[i].value());
  if (kernel.size() != 2) kernel.clear();
  WindowAttrs wa;
  if (!readWindowAttrs(ctx, 2, kernel, wa)) return;
  if (auto s = windowOutputShape(ctx, *plain, (*w)[0], wa)) ctx.setOutputShape(0, blocked(*s, b));
}

void inferPasslabBlockedPool(InferContext& ctx) {
  setFloat(ctx);
  const int64_t b = blockOf(ctx);
  if (!b) return;
  const std::string pool = ctx.attrString(ops::kPool, "");
  if (!ops::validBlockedPool(pool)) {
    ctx.fail("pool '" + pool + "' is not MaxPool, AveragePool or GlobalAveragePool");
    return;
  }
  auto plain = plainOf(ctx, 0, b, ir::Dim());
  if (!plain) return;
  if (pool == "GlobalAveragePool") {
    ctx.setOutputShape(0, blocked(ir::Shape({(*plain)[0], (*plain)[1], 1, 1}), b));
    return;
  }
  WindowAttrs wa;
  if (!readWindowAttrs(ctx, 2, {}, wa)) return;
  if (auto s = windowOutputShape(ctx, *plain, (*plain)[1], wa))
    ctx.setOutputShape(0, blocked(*s, b));
}

}  // namespace passlab::analysis::infer
