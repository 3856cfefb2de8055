// raise_opset: the model's default-domain opset raised to `target` (13 by
// default: per-channel DequantizeLinear, the QDQ form ONNX Runtime fuses),
// with every node whose op changed between the two versions rewritten to
// mean the same under the new one:
//   - parameters that became inputs (Squeeze/Unsqueeze axes, Split's split,
//     ReduceSum's axes, Clip's min/max, Pad's pads/value, Slice's
//     starts/ends/axes, TopK's k) move into constant inputs;
//   - Softmax / LogSoftmax / Hardmax (13 normalizes one axis, not the
//     flattened tail): the axis is written out when it is the last one, else
//     the op runs on a Flatten and is reshaped back;
//   - BatchNormalization's `spatial` (1) and Dropout's `ratio` (inference:
//     an identity either way) are dropped; Upsample becomes Resize (asymmetric
//     coordinates, nearest rounding down, as Upsample computed); the
//     experimental ImageScaler becomes Mul and Add;
//   - any other op whose signature did not change keeps its node; one whose
//     signature did (an attribute the node sets was removed, inputs renamed)
//     stops the pass before any edit, naming the node and both versions;
//     so does a node the raise would rewrite that the step's node filter
//     keeps the pass away from.
// Exact: the check compares the outputs for equality.
#include "core/ir/op_schema.h"
#include "core/passes/function_pass.h"
#include "core/passes/opset_raise.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"

namespace passlab::passes {

namespace {

constexpr const char* kId = "raise_opset";

Status raise(PassContext& ctx) {
  const int64_t target = ctx.intOption("target");
  const int64_t from = ctx.model().opsetVersion("").value_or(1);
  const int64_t newest = ir::OpRegistry::instance().maxOpset("");
  if (target > newest)
    return invalidArgument(Text::of("%1: target opset %2 is newer than the newest known (%3)", kId,
                                    std::to_string(target), std::to_string(newest)));
  if (from >= target) {
    if (ctx.note) *ctx.note = Text::of("the model already imports opset %1", std::to_string(from));
    return Status::ok();
  }
  // Every node is judged before any edit: a model is raised whole or not at all.
  if (Text why = whyNotRaiseOpset(ctx.rewriter, target); !why.empty())
    return unsupported(Text::of("%1: %2", kId, why));
  // Nor where the raise would rewrite a node the step's node filter keeps the
  // pass away from (--exclude-node, --exclude-op, a recipe's node ids).
  if (ctx.filter)
    if (const ir::Node* kept = raiseRewritesOutside(ctx.rewriter, target, *ctx.filter))
      return unsupported(Text::of(
          "%1: the raise to opset %2 would rewrite %3, which this step's node filter keeps the "
          "pass away from",
          kId, std::to_string(target), kept->describe()));
  const size_t rewritten = raiseOpset(ctx.rewriter, target);
  if (ctx.note)
    *ctx.note = Text::of("opset %1 -> %2, %3 nodes rewritten", std::to_string(from),
                         std::to_string(target), std::to_string(rewritten));
  return Status::ok();
}

}  // namespace

std::unique_ptr<Pass> makeRaiseOpset() {
  return std::make_unique<FunctionPass>(catalogInfo(kId), raise);
}

}  // namespace passlab::passes
