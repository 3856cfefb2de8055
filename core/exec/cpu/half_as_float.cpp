// Half-type nodes on float32 kernels (see half_as_float.h).
#include "core/exec/cpu/half_as_float.h"

#include <cstring>
#include <utility>
#include <vector>

#include "core/exec/cpu/cpu_backend.h"
#include "core/exec/cpu/half_convert.h"
#include "core/exec/cpu/scratch_output_context.h"
#include "core/exec/dtype_traits.h"
#include "core/exec/kernel_registry.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

bool isHalf(ir::DataType t) {
  return t == ir::DataType::kFloat16 || t == ir::DataType::kBFloat16;
}

// What the float32 kernel sees: the half-type inputs as float32 tensors, its
// outputs in scratch memory until they are narrowed.
class WidenedContext final : public ScratchOutputContext {
 public:
  WidenedContext(KernelContext& outer, std::vector<Value> wide)
      : ScratchOutputContext(outer, outer.outputCount()), wide_(std::move(wide)) {}

  const Value* value(size_t i) const override {
    return i < wide_.size() && wide_[i].isTensor() ? &wide_[i] : inner_.value(i);
  }
  // holdsOwnCopy is not passed on: the outer input is the half-type original,
  // which the float32 copy is made from.

 private:
  std::vector<Value> wide_;
};

class HalfAsFloat final : public Kernel {
 public:
  HalfAsFloat(std::unique_ptr<Kernel> inner, std::vector<bool> narrowed)
      : inner_(std::move(inner)), narrowed_(std::move(narrowed)) {}

  Status run(KernelContext& ctx) override {
    const ir::DataType half = ctx.input(0).dtype();
    if (!isHalf(half)) return inner_->run(ctx);
    PASSLAB_ASSIGN_OR_RETURN(std::vector<Value> wide, widenedInputs(ctx, half));
    WidenedContext run(ctx, std::move(wide));
    PASSLAB_RETURN_IF_ERROR(inner_->run(run));
    std::vector<Value> outputs = run.takeOutputs();
    return narrowOutputs(ctx, outputs, half, narrowed_);
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

  static Status narrowOutputs(KernelContext& ctx, std::vector<Value>& outputs, ir::DataType half,
                              const std::vector<bool>& narrowed) {
    for (size_t i = 0; i < outputs.size(); ++i) {
      Value& v = outputs[i];
      if (v.isNone()) continue;
      const bool narrow = narrowed.empty() || (i < narrowed.size() && narrowed[i]);
      if (!narrow || !v.isTensor() || v.tensor().dtype() != ir::DataType::kFloat) {
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
  std::vector<bool> narrowed_;
  std::vector<Kept> kept_;  // per input: the float32 copy of an invariant input
};

// What the float32 row's factory is given: the node and its opset, float32,
// and no constant inputs (they hold half-type data; the float32 kernel reads
// the widened ones at run time).
class Float32Build final : public KernelBuild {
 public:
  explicit Float32Build(const KernelBuild& b)
      : KernelBuild(b.node(), b.opset(), ir::DataType::kFloat) {}
};

Expected<std::unique_ptr<Kernel>> makeOnFloat32Row(const KernelBuild& b) {
  const ir::Node& n = b.node();
  const std::vector<const KernelDef*> rows = KernelRegistry::forType(
      kernelRegistry().find(n.domain(), n.opType(), b.opset()), ir::DataType::kFloat, false);
  for (const KernelDef* row : rows) {
    Float32Build fb(b);
    auto k = row->create(fb);
    if (k) return makeHalfAsFloat(std::move(k).value(), halfOutputs(b));
    if (k.error().code() != ErrorCode::kUnsupported) return k.error();
  }
  return unsupported("no float32 kernel for " + n.opType());
}

constexpr TypeSet kHalfTypes{ir::DataType::kFloat16, ir::DataType::kBFloat16};

// The rows whose float32 rows run in place (kInPlace) do too: every half-type
// input is widened before any output is allocated, and the other inputs are
// read before the outputs are narrowed (the memory plan decides in place for
// a step only when all its candidate rows allow it).
const KernelDef kRows[] = {
    {"", "Sigmoid", 6, kOpsetMax, kHalfTypes, 0, Tier::kOptimized, "cpu.Sigmoid.widened",
     makeOnFloat32Row, kInPlace},
    {"", "Tanh", 6, kOpsetMax, kHalfTypes, 0, Tier::kOptimized, "cpu.Tanh.widened",
     makeOnFloat32Row, kInPlace},
    {"", "Erf", 9, kOpsetMax, kHalfTypes, 0, Tier::kOptimized, "cpu.Erf.widened", makeOnFloat32Row,
     kInPlace},
    {"", "Exp", 6, kOpsetMax, kHalfTypes, 0, Tier::kOptimized, "cpu.Exp.widened", makeOnFloat32Row,
     kInPlace},
    {"", "Softmax", 1, kOpsetMax, kHalfTypes, 0, Tier::kOptimized, "cpu.Softmax.widened",
     makeOnFloat32Row},
    {"", "LogSoftmax", 1, kOpsetMax, kHalfTypes, 0, Tier::kOptimized, "cpu.LogSoftmax.widened",
     makeOnFloat32Row},
    {"", "LayerNormalization", 1, kOpsetMax, kHalfTypes, 0, Tier::kOptimized,
     "cpu.LayerNormalization.widened", makeOnFloat32Row},
    {"", "BatchNormalization", 6, kOpsetMax, kHalfTypes, 0, Tier::kOptimized,
     "cpu.BatchNormalization.widened", makeOnFloat32Row, kInPlace},
    {"", "MaxPool", 1, kOpsetMax, kHalfTypes, 0, Tier::kOptimized, "cpu.MaxPool.widened",
     makeOnFloat32Row},
    {"", "AveragePool", 1, kOpsetMax, kHalfTypes, 0, Tier::kOptimized, "cpu.AveragePool.widened",
     makeOnFloat32Row},
    {"", "GlobalAveragePool", 1, kOpsetMax, kHalfTypes, 0, Tier::kOptimized,
     "cpu.GlobalAveragePool.widened", makeOnFloat32Row},
    {"", "ReduceMean", 1, kOpsetMax, kHalfTypes, 0, Tier::kOptimized, "cpu.ReduceMean.widened",
     makeOnFloat32Row},
    {"", "ReduceSum", 1, kOpsetMax, kHalfTypes, 0, Tier::kOptimized, "cpu.ReduceSum.widened",
     makeOnFloat32Row},
    {"", "ReduceMax", 1, kOpsetMax, kHalfTypes, 0, Tier::kOptimized, "cpu.ReduceMax.widened",
     makeOnFloat32Row},
};

}  // namespace

std::unique_ptr<Kernel> makeHalfAsFloat(std::unique_ptr<Kernel> inner, std::vector<bool> narrowed) {
  return std::make_unique<HalfAsFloat>(std::move(inner), std::move(narrowed));
}

std::vector<bool> halfOutputs(const KernelBuild& b) {
  const std::vector<ir::Value*>& outs = b.node().outputs();
  std::vector<bool> narrowed(outs.size(), false);
  for (size_t i = 0; i < outs.size(); ++i) {
    if (!outs[i]) continue;
    const ir::Type& type = outs[i]->type();
    const ir::DataType t = type.isTensor() ? type.elemType() : ir::DataType::kUndefined;
    // Undeclared: output 0 (Y, of the input's type in every op here) is
    // narrowed whatever the other outputs declare; the others stay float32.
    narrowed[i] = t == ir::DataType::kUndefined ? i == 0 : t == b.dtype();
  }
  return narrowed;
}

std::span<const KernelDef> halfOnFloat32Kernels() {
  return kRows;
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
