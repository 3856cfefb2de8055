// Half-type nodes on float32 kernels (see half_as_float.h).
#include "core/exec/cpu/half_as_float.h"

#include <cstring>
#include <utility>
#include <vector>

#include "core/exec/cpu/half_convert.h"
#include "core/exec/dtype_traits.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

bool isHalf(ir::DataType t) {
  return t == ir::DataType::kFloat16 || t == ir::DataType::kBFloat16;
}

// What the float32 kernel sees: the half-type inputs as float32 tensors, its
// outputs in scratch memory until they are narrowed.
class WidenedContext final : public KernelContext {
 public:
  WidenedContext(KernelContext& outer, std::vector<Value> wide)
      : outer_(outer), wide_(std::move(wide)), outputs_(outer.outputCount()) {}

  // Output i as the float32 kernel left it: allocated or set, or none.
  std::vector<Value> outputs() {
    std::vector<Value> out;
    for (Output& o : outputs_) out.push_back(o.allocated ? Value(o.tensor) : o.value);
    return out;
  }

  size_t inputCount() const override { return outer_.inputCount(); }
  const Value* value(size_t i) const override {
    return i < wide_.size() && wide_[i].isTensor() ? &wide_[i] : outer_.value(i);
  }
  bool invariantInput(size_t i) const override { return outer_.invariantInput(i); }
  // holdsOwnCopy is not passed on: the outer input is the half-type original,
  // which the float32 copy is made from.
  size_t outputCount() const override { return outer_.outputCount(); }
  bool wantsOutput(size_t i) const override { return outer_.wantsOutput(i); }
  Expected<Tensor*> allocate(size_t i, ir::DataType dtype, Dims dims) override {
    if (i >= outputs_.size()) return invalidArgument("output " + std::to_string(i) + " is absent");
    PASSLAB_ASSIGN_OR_RETURN(outputs_[i].tensor, outer_.scratch(dtype, std::move(dims)));
    outputs_[i].allocated = true;
    return &outputs_[i].tensor;
  }
  void setOutput(size_t i, Value v) override {
    if (i >= outputs_.size()) return;
    outputs_[i].allocated = false;
    outputs_[i].value = std::move(v);
  }
  Expected<Tensor> scratch(ir::DataType dtype, Dims dims) override {
    return outer_.scratch(dtype, std::move(dims));
  }
  int threads() const override { return outer_.threads(); }
  bool cancelled() const override { return outer_.cancelled(); }
  int64_t maxLoopIterations() const override { return outer_.maxLoopIterations(); }

 private:
  struct Output {
    Tensor tensor;
    bool allocated = false;
    Value value;  // set instead (a view, a constant)
  };
  KernelContext& outer_;
  std::vector<Value> wide_;
  std::vector<Output> outputs_;
};

class HalfAsFloat final : public Kernel {
 public:
  explicit HalfAsFloat(std::unique_ptr<Kernel> inner) : inner_(std::move(inner)) {}

  Status run(KernelContext& ctx) override {
    const ir::DataType half = ctx.input(0).dtype();
    if (!isHalf(half)) return inner_->run(ctx);
    PASSLAB_ASSIGN_OR_RETURN(std::vector<Value> wide, widenedInputs(ctx, half));
    WidenedContext run(ctx, std::move(wide));
    PASSLAB_RETURN_IF_ERROR(inner_->run(run));
    std::vector<Value> outputs = run.outputs();
    return narrowOutputs(ctx, outputs, half);
  }

 private:
  // Input i widened when it has the node's half type; none (the original
  // is read) otherwise.
  Expected<std::vector<Value>> widenedInputs(KernelContext& ctx, ir::DataType half) {
    std::vector<Value> wide(ctx.inputCount());
    kept_.resize(ctx.inputCount());
    for (size_t i = 0; i < wide.size(); ++i) {
      if (!ctx.has(i) || !ctx.value(i)->isTensor() || ctx.input(i).dtype() != half) continue;
      const Tensor& x = ctx.input(i);
      if (ctx.invariantInput(i)) {
        Kept& k = kept_[i];
        if (!k.valid || k.tensor.dims() != x.dims()) {
          k.tensor = Tensor::zeros(ir::DataType::kFloat, x.dims());
          widenToFloat(x, k.tensor, ctx.threads());
          k.valid = true;
        }
        wide[i] = Value(k.tensor);
        continue;
      }
      kept_[i].valid = false;
      PASSLAB_ASSIGN_OR_RETURN(Tensor t, ctx.scratch(ir::DataType::kFloat, x.dims()));
      widenToFloat(x, t, ctx.threads());
      wide[i] = Value(std::move(t));
    }
    return wide;
  }

  static Status narrowOutputs(KernelContext& ctx, std::vector<Value>& outputs, ir::DataType half) {
    for (size_t i = 0; i < outputs.size(); ++i) {
      Value& v = outputs[i];
      if (v.isNone()) continue;
      if (!v.isTensor() || v.tensor().dtype() != ir::DataType::kFloat) {
        ctx.setOutput(i, std::move(v));
        continue;
      }
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(i, half, v.tensor().dims()));
      narrowFromFloat(v.tensor(), *y, ctx.threads());
    }
    return Status::ok();
  }

  struct Kept {
    Tensor tensor;
    bool valid = false;
  };
  std::unique_ptr<Kernel> inner_;
  std::vector<Kept> kept_;  // per input: the float32 copy of an invariant input
};

}  // namespace

std::unique_ptr<Kernel> makeHalfAsFloat(std::unique_ptr<Kernel> inner) {
  return std::make_unique<HalfAsFloat>(std::move(inner));
}

void widenToFloat(const Tensor& half, Tensor& wide, int threads) {
  float* out = wide.mutableData<float>();
  const bool f16 = half.dtype() == ir::DataType::kFloat16;
  const auto* in = static_cast<const uint16_t*>(half.raw());
  parallelFor(half.numel(), threads, kElementwiseGrain, [&](int64_t b, int64_t e) {
    if (f16) return halfToFloatN(in + b, out + b, e - b);
    for (int64_t i = b; i < e; ++i) {
      const uint32_t bits = static_cast<uint32_t>(in[i]) << 16;  // bfloat16: the top half
      std::memcpy(out + i, &bits, sizeof bits);
    }
  });
}

void narrowFromFloat(const Tensor& wide, Tensor& half, int threads) {
  const float* in = wide.data<float>();
  const bool f16 = half.dtype() == ir::DataType::kFloat16;
  auto* out = static_cast<uint16_t*>(half.mutableRaw());
  parallelFor(wide.numel(), threads, kElementwiseGrain, [&](int64_t b, int64_t e) {
    if (f16) return floatToHalfN(in + b, out + b, e - b);
    for (int64_t i = b; i < e; ++i) out[i] = store<BFloat16>(in[i]).bits;
  });
}

}  // namespace passlab::exec::cpu
