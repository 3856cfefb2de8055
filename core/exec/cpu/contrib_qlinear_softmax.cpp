// ONNX Runtime's com.microsoft QLinearSoftmax: X, X_scale, x_zero_point
// (optional), y_scale, y_zero_point; attributes opset (required: the Softmax
// opset whose semantics it follows) and axis. From opset 13 it runs along
// one axis; before, over X seen as 2-D at the axis. A missing axis is -1 at
// every opset: the op's schema default, which ONNX Runtime fills in before its
// kernel reads the attribute (so its kernel's own default of 1 before opset
// 13 never applies). X is dequantized with its per-tensor scale and zero
// point, the float Softmax kernel runs on it (softmax.h, as
// qlinear_float_run.h says), and the result is quantized with Y's: round half
// to even, saturated.
#include "core/exec/cpu/contrib_qlinear_softmax.h"

#include <string>
#include <utility>

#include "core/exec/cpu/qlinear_float_run.h"
#include "core/exec/cpu/softmax.h"

namespace passlab::exec::cpu {

namespace {

using ir::DataType;

class QLinearSoftmax final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    const ir::Node& n = b.node();
    if (!n.hasAttr("opset"))
      return invalidArgument(
          "QLinearSoftmax has no opset attribute (the Softmax opset whose semantics it follows)");
    const int64_t opset = n.attrInt("opset", 13);
    if (opset < 1)
      return invalidArgument("QLinearSoftmax has opset " + std::to_string(opset) +
                             ", not a Softmax opset (1 or more)");
    return std::unique_ptr<Kernel>(
        std::make_unique<QLinearSoftmax>(makeFloatSoftmax(n.attrInt("axis", -1), opset < 13)));
  }
  explicit QLinearSoftmax(std::unique_ptr<Kernel> softmax) : softmax_(std::move(softmax)) {}

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    PASSLAB_ASSIGN_OR_RETURN(QLinearSoftmaxQuantization q, qlinearSoftmaxQuantization(ctx));
    PASSLAB_ASSIGN_OR_RETURN(Tensor f, dequantizedToFloat(ctx, x, q.x));
    FloatRun run(ctx, std::move(f));
    PASSLAB_RETURN_IF_ERROR(softmax_->run(run));
    return quantizedOutput(ctx, run.output(), x.dtype(), q.y);
  }

 private:
  std::unique_ptr<Kernel> softmax_;
};

}  // namespace

Expected<QLinearSoftmaxQuantization> qlinearSoftmaxQuantization(const KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.dtype() != DataType::kInt8 && x.dtype() != DataType::kUInt8)
    return invalidArgument("X " + x.describe() + " must be int8 or uint8");
  QLinearSoftmaxQuantization q;
  PASSLAB_ASSIGN_OR_RETURN(q.x, quantization(ctx, 1, 2, x.dtype(), "X"));
  PASSLAB_ASSIGN_OR_RETURN(q.y, quantization(ctx, 3, 4, x.dtype(), "Y"));
  if (!ctx.has(4)) return invalidArgument("Y zero point is missing");
  return q;
}

Expected<std::unique_ptr<Kernel>> makeQLinearSoftmax(const KernelBuild& b) {
  return QLinearSoftmax::create(b);
}

}  // namespace passlab::exec::cpu
