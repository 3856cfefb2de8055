// ONNX Runtime's com.microsoft quantized averages: QLinearAveragePool,
// QLinearGlobalAveragePool (X, x_scale, x_zero_point, y_scale, y_zero_point;
// channels_last = 1: X and Y are [N, spatial..., C]) and QLinearReduceMean
// (data, data_scale, data_zero_point, reduced_scale, reduced_zero_point;
// attributes axes and keepdims, both required). Each dequantizes its input
// with its per-tensor scale and zero point, averages with the float ops' code
// (the reference AveragePool kernel, run as qlinear_float_run.h says; a
// ReducePlan for the global pool and the reduction, summing the integers
// exactly), and quantizes with the output's: round half to even, saturated.
#include "core/exec/cpu/contrib_qlinear_pool.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "core/exec/cpu/pool_ref.h"
#include "core/exec/cpu/qlinear_float_run.h"
#include "core/exec/cpu/reduce_plan.h"
#include "core/exec/cpu/transpose.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

using ir::DataType;

constexpr int64_t kGrain = 1 << 14;

// The 8-bit input and the quantization of it and of the output.
struct Operands {
  const Tensor* x = nullptr;
  Quantization qx, qy;
};

Expected<Operands> operands(const KernelContext& ctx, const char* x, const char* y) {
  Operands o;
  o.x = &ctx.input(0);
  const DataType t = o.x->dtype();
  if (t != DataType::kInt8 && t != DataType::kUInt8)
    return invalidArgument(std::string(x) + " " + o.x->describe() + " must be int8 or uint8");
  PASSLAB_ASSIGN_OR_RETURN(o.qx, quantization(ctx, 1, 2, t, x));
  PASSLAB_ASSIGN_OR_RETURN(o.qy, quantization(ctx, 3, 4, t, y));
  return o;
}

// channels_last: the perm from [N, spatial..., C] to [N, C, spatial...], and back.
std::vector<int64_t> toChannelsFirst(size_t rank) {
  std::vector<int64_t> p{0, static_cast<int64_t>(rank) - 1};
  for (size_t i = 1; i + 1 < rank; ++i) p.push_back(static_cast<int64_t>(i));
  return p;
}
std::vector<int64_t> toChannelsLast(size_t rank) {
  std::vector<int64_t> p{0};
  for (size_t i = 2; i < rank; ++i) p.push_back(static_cast<int64_t>(i));
  p.push_back(1);
  return p;
}
Dims permuted(const Dims& d, const std::vector<int64_t>& perm) {
  Dims out;
  for (int64_t i : perm) out.push_back(d[static_cast<size_t>(i)]);
  return out;
}

// The mean of the elements `plan` reduces into each output element, quantized.
template <class T>
void quantizedMeans(const KernelContext& ctx, const Tensor& x, const ReducePlan& plan,
                    const Operands& o, Tensor& y) {
  const T* px = x.data<T>();
  T* py = y.mutableData<T>();
  const double scale = static_cast<double>(o.qx.scale) / static_cast<double>(plan.reducedCount);
  parallelFor(plan.outCount, ctx.threads(), std::max<int64_t>(1, kGrain / (plan.reducedCount + 1)),
              [&](int64_t b, int64_t e) {
                for (int64_t out = b; out < e; ++out) {
                  int64_t sum = 0;
                  plan.forEach(out, [&](int64_t i) { sum += int64_t{px[i]} - o.qx.zeroPoint; });
                  py[out] = quantize<T>(static_cast<float>(static_cast<double>(sum) * scale), o.qy);
                }
              });
}

Status meansOver(KernelContext& ctx, const Operands& o, const std::vector<bool>& reduced,
                 bool keepDims) {
  const Tensor& x = *o.x;
  const ReducePlan plan = planReduction(x.dims(), reduced, keepDims);
  if (plan.reducedCount == 0) return invalidArgument("it averages over an empty axis");
  PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), plan.outDims));
  if (x.dtype() == DataType::kInt8) {
    quantizedMeans<int8_t>(ctx, x, plan, o, *y);
  } else {
    quantizedMeans<uint8_t>(ctx, x, plan, o, *y);
  }
  return Status::ok();
}

class QLinearGlobalAveragePool final : public Kernel {
 public:
  explicit QLinearGlobalAveragePool(const KernelBuild& b)
      : channelsLast_(b.node().attrInt("channels_last", 0) != 0) {}

  Status run(KernelContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(Operands o, operands(ctx, "X", "Y"));
    const size_t rank = o.x->rank();
    if (rank < 3)
      return invalidArgument("X " + o.x->describe() + " must have rank 3 or more (N, C, spatial)");
    // The spatial axes: 2.. (channels first) or 1..rank-2 (channels last).
    std::vector<bool> spatial(rank, true);
    spatial[0] = false;
    spatial[channelsLast_ ? rank - 1 : 1] = false;
    return meansOver(ctx, o, spatial, true);
  }

 private:
  bool channelsLast_;
};

class QLinearReduceMean final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    for (const char* name : {"axes", "keepdims"})
      if (!b.node().hasAttr(name))
        return invalidArgument(std::string("QLinearReduceMean has no ") + name + " attribute");
    return std::unique_ptr<Kernel>(std::make_unique<QLinearReduceMean>(
        b.node().attrInts("axes"), b.node().attrInt("keepdims", 1) != 0));
  }
  QLinearReduceMean(std::vector<int64_t> axes, bool keepDims)
      : axes_(std::move(axes)), keepDims_(keepDims) {}

  Status run(KernelContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(Operands o, operands(ctx, "data", "reduced"));
    if (axes_.empty()) return invalidArgument("QLinearReduceMean has an empty axes attribute");
    PASSLAB_ASSIGN_OR_RETURN(std::vector<bool> reduced,
                             reducedAxes(axes_, static_cast<int64_t>(o.x->rank())));
    return meansOver(ctx, o, reduced, keepDims_);
  }

 private:
  std::vector<int64_t> axes_;
  bool keepDims_;
};

class QLinearAveragePool final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    PASSLAB_ASSIGN_OR_RETURN(std::unique_ptr<Kernel> pool, makeAveragePoolRef(b));
    return std::unique_ptr<Kernel>(std::make_unique<QLinearAveragePool>(
        std::move(pool), b.node().attrInt("channels_last", 0) != 0));
  }
  QLinearAveragePool(std::unique_ptr<Kernel> pool, bool channelsLast)
      : pool_(std::move(pool)), channelsLast_(channelsLast) {}

  Status run(KernelContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(Operands o, operands(ctx, "X", "Y"));
    const Tensor& x = *o.x;
    if (x.rank() < 3)
      return invalidArgument("X " + x.describe() + " must have rank 3 or more (N, C, spatial)");
    PASSLAB_ASSIGN_OR_RETURN(Tensor f, dequantized(ctx, o));
    FloatRun run(ctx, std::move(f));
    PASSLAB_RETURN_IF_ERROR(pool_->run(run));
    Tensor pooled = run.output();
    if (channelsLast_) {
      PASSLAB_ASSIGN_OR_RETURN(
          Tensor last,
          ctx.scratch(DataType::kFloat, permuted(pooled.dims(), toChannelsLast(x.rank()))));
      transposeInto(pooled, toChannelsLast(x.rank()), last, ctx.threads());
      pooled = std::move(last);
    }
    return quantizedOutput(ctx, pooled, x.dtype(), o.qy);
  }

 private:
  // X dequantized, channels first.
  Expected<Tensor> dequantized(KernelContext& ctx, const Operands& o) const {
    const Tensor& x = *o.x;
    PASSLAB_ASSIGN_OR_RETURN(Tensor f, dequantizedToFloat(ctx, x, o.qx));
    if (!channelsLast_) return f;
    const std::vector<int64_t> perm = toChannelsFirst(x.rank());
    PASSLAB_ASSIGN_OR_RETURN(Tensor first, ctx.scratch(DataType::kFloat, permuted(x.dims(), perm)));
    transposeInto(f, perm, first, ctx.threads());
    return first;
  }

  std::unique_ptr<Kernel> pool_;
  bool channelsLast_;
};

}  // namespace

Expected<std::unique_ptr<Kernel>> makeQLinearAveragePool(const KernelBuild& b) {
  return QLinearAveragePool::create(b);
}
Expected<std::unique_ptr<Kernel>> makeQLinearGlobalAveragePool(const KernelBuild& b) {
  return std::unique_ptr<Kernel>(std::make_unique<QLinearGlobalAveragePool>(b));
}
Expected<std::unique_ptr<Kernel>> makeQLinearReduceMean(const KernelBuild& b) {
  return QLinearReduceMean::create(b);
}

}  // namespace passlab::exec::cpu
