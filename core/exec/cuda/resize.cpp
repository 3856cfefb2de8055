// Resize on the GPU (row in data_movement.cpp), every tensor seen as 4-D
// (fewer dims padded with leading 1s; above 4-D the leading kept axes
// merged): nearest (every nearest_mode and coordinate_transformation_mode the
// CPU kernel takes; any numeric type, values copied exactly) and linear
// (float32/float16/bfloat16, computed in float: the CPU interpolates in
// double). Cubic and antialias are declined (the CPU runs them). The per-axis
// index maps / taps are computed on the host (data_movement_plan.cpp, as
// core/exec/cpu/resize_rules.h) and uploaded once per input shape and scales.
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "core/exec/cpu/data_util.h"
#include "core/exec/cuda/cuda_check.h"
#include "core/exec/cuda/data_movement_kernels.h"
#include "core/exec/cuda/data_movement_launch.h"
#include "core/exec/cuda/data_movement_plan.h"
#include "core/exec/cuda/float_type.h"

namespace passlab::exec::cuda {

namespace {

// Merges leading axes that stay (same size, scale 1, the whole roi) while
// there are more than 4.
Status mergeLeadingKept(std::vector<ResizeAxis>& axes) {
  auto kept = [](const ResizeAxis& p) {
    return p.in == p.out && p.scale == 1.0 && p.roiStart == 0 && p.roiEnd == 1;
  };
  while (axes.size() > 4 && kept(axes[0]) && kept(axes[1])) {
    axes[1].in *= axes[0].in;
    axes[1].out = axes[1].in;
    axes.erase(axes.begin());
  }
  return Status::ok();
}

// Upsample's axes (opsets 7 to 9, as core/exec/cpu/upsample.cpp): output
// dims floor(in * scale), scales from the attribute (7, 8) or input 1 (9).
Expected<std::vector<ResizeAxis>> upsampleAxes(CudaContext& ctx, const Dims& in,
                                               const std::vector<float>& attrScales,
                                               bool fromInput) {
  std::vector<float> scales = attrScales;
  if (fromInput) {
    PASSLAB_ASSIGN_OR_RETURN(Tensor s, ctx.hostInput(1));
    if (s.dtype() != ir::DataType::kFloat) return invalidArgument("scales must be float");
    scales.assign(s.data<float>(), s.data<float>() + s.numel());
  }
  if (scales.size() != in.size())
    return invalidArgument("scales has " + std::to_string(scales.size()) + " values for " +
                           dimsToString(in));
  std::vector<ResizeAxis> axes;
  for (size_t d = 0; d < in.size(); ++d) {
    if (scales[d] <= 0) return invalidArgument("scales must be positive");
    const auto out = static_cast<int64_t>(std::floor(static_cast<double>(in[d]) * scales[d]));
    axes.push_back({in[d], out, static_cast<double>(scales[d]), 0.0, 1.0});
  }
  return axes;
}

class Resize final : public CudaKernel {
 public:
  Resize(ResizeAttrs a, int64_t opset) : a_(std::move(a)), opset_(opset) {}
  // Upsample.
  Resize(bool linear, std::vector<float> scales, bool fromInput)
      : opset_(10), upsample_(true), upsampleScales_(std::move(scales)), fromInput_(fromInput) {
    a_.mode = linear ? ResizeMode::kLinear : ResizeMode::kNearest;
  }

  Status run(CudaContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor x, ctx.input(0));
    if (x.rank() < 1) return invalidArgument("cannot resize a scalar " + x.describe());
    std::vector<ResizeAxis> axes;
    if (upsample_) {
      PASSLAB_ASSIGN_OR_RETURN(axes, upsampleAxes(ctx, x.dims(), upsampleScales_, fromInput_));
    } else {
      PASSLAB_ASSIGN_OR_RETURN(axes, resizeAxes(ctx, x));
    }
    return resize(ctx, x, std::move(axes));
  }

 private:
  Expected<std::vector<ResizeAxis>> resizeAxes(CudaContext& ctx, const DeviceTensor& x) {
    const size_t scalesIn = opset_ < 11 ? 1 : 2;
    auto present = [&](size_t i) { return ctx.has(i) && numelOf(ctx.inputDims(i)) > 0; };
    std::vector<double> scales, roi;
    std::vector<int64_t> sizes;
    if (present(scalesIn)) {
      PASSLAB_ASSIGN_OR_RETURN(Tensor t, ctx.hostInput(scalesIn));
      PASSLAB_ASSIGN_OR_RETURN(scales, cpu::readFloats(t, "scales"));
    }
    if (opset_ >= 11 && present(3)) {
      PASSLAB_ASSIGN_OR_RETURN(sizes, hostInts(ctx, 3, "sizes"));
    }
    if (opset_ >= 11 && present(1) && a_.coord == ResizeCoord::kTfCropAndResize) {
      PASSLAB_ASSIGN_OR_RETURN(Tensor t, ctx.hostInput(1));
      PASSLAB_ASSIGN_OR_RETURN(roi, cpu::readFloats(t, "roi"));
    }
    return cuda::resizeAxes(a_, x.dims(), scales, sizes, roi);
  }

  Status resize(CudaContext& ctx, const DeviceTensor& x, std::vector<ResizeAxis> axes) {
    Dims out;
    for (const ResizeAxis& p : axes) out.push_back(p.out);
    // Above 4-D, leading axes that stay are merged (an [N, C, D, H, W] with
    // N and C kept is [N * C, D, H, W]).
    PASSLAB_RETURN_IF_ERROR(mergeLeadingKept(axes));
    if (axes.size() > 4)
      return invalidArgument("Resize of " + x.describe() +
                             " on the GPU: more than 4 axes after merging the leading kept ones");
    // Seen as 4-D: leading axes of size 1 that stay.
    while (axes.size() < 4) axes.insert(axes.begin(), ResizeAxis{1, 1, 1.0, 0.0, 1.0});
    int64_t in4[4], out4[4];
    for (size_t d = 0; d < 4; ++d) {
      in4[d] = axes[d].in;
      out4[d] = axes[d].out;
    }
    const bool linear = a_.mode == ResizeMode::kLinear;
    std::optional<LaunchFloat> ft;
    int es = 0;
    if (linear) {
      ft = launchFloat(x.dtype());
      if (!ft)
        return unsupported("linear " + std::string(upsample_ ? "Upsample" : "Resize") + " of " +
                           x.describe() + " (float types only)");
    } else {
      PASSLAB_ASSIGN_OR_RETURN(es, moveSize(x.dtype(), "Resize"));
    }
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor y, ctx.allocate(0, x.dtype(), out));
    if (y.numel() == 0) return Status::ok();

    // The tables, kept while the input dims and the scales / sizes / roi stay.
    std::vector<double> key(in4, in4 + 4);
    for (const ResizeAxis& p : axes)
      key.insert(key.end(), {static_cast<double>(p.out), p.scale, p.roiStart, p.roiEnd});
    if (!table_.defined() || key != key_) {
      Tensor host;
      if (linear) {
        std::vector<LinearTap> taps;
        for (const ResizeAxis& p : axes) {
          std::vector<LinearTap> t = upsample_ ? upsampleTaps(p, true) : linearTaps(a_, p);
          taps.insert(taps.end(), t.begin(), t.end());
        }
        host = Tensor::zeros(ir::DataType::kUInt8,
                             {static_cast<int64_t>(taps.size() * sizeof(LinearTap))});
        std::memcpy(host.mutableRaw(), taps.data(), taps.size() * sizeof(LinearTap));
      } else {
        const int64_t strides[4] = {in4[1] * in4[2] * in4[3], in4[2] * in4[3], in4[3], 1};
        std::vector<int64_t> maps;
        for (size_t d = 0; d < 4; ++d) {
          std::vector<int64_t> m1;
          if (upsample_) {
            for (const LinearTap& t : upsampleTaps(axes[d], false)) m1.push_back(t.i0);
          } else {
            m1 = nearestMap(a_, axes[d]);
          }
          for (int64_t m : m1) maps.push_back(m < 0 ? -1 : m * strides[d]);
        }
        host = Tensor::fromVector(ir::DataType::kInt64, {static_cast<int64_t>(maps.size())}, maps);
      }
      PASSLAB_ASSIGN_OR_RETURN(table_, upload(host, ctx.stream()));
      key_ = std::move(key);
    }
    if (linear) {
      return launchStatus(launchResizeLinear(x.raw(), y.mutableRaw(), static_cast<int>(*ft),
                                             static_cast<const LinearTap*>(table_.raw()), in4, out4,
                                             static_cast<float>(a_.extrapolation), ctx.stream()),
                          "Resize");
    }
    PASSLAB_ASSIGN_OR_RETURN(uint64_t fill, valueBits(x.dtype(), a_.extrapolation, true));
    return launchStatus(launchResizeNearest(x.raw(), y.mutableRaw(), es, table_.data<int64_t>(),
                                            out4, fill, ctx.stream()),
                        "Resize");
  }

  ResizeAttrs a_;
  int64_t opset_;
  bool upsample_ = false;
  std::vector<float> upsampleScales_;
  bool fromInput_ = false;
  std::vector<double> key_;
  DeviceTensor table_;
};

}  // namespace

Expected<std::unique_ptr<CudaKernel>> makeResizeKernel(const CudaBuild& b) {
  PASSLAB_ASSIGN_OR_RETURN(ResizeAttrs a, parseResizeAttrs(b.node(), b.opset()));
  if (a.mode == ResizeMode::kLinear && b.dtype() != ir::DataType::kUndefined &&
      !launchFloat(b.dtype()))
    return unsupported("linear Resize of " + std::string(ir::dtypeName(b.dtype())) +
                       " (float types only)");
  return std::unique_ptr<CudaKernel>(std::make_unique<Resize>(std::move(a), b.opset()));
}

}  // namespace passlab::exec::cuda

namespace passlab::exec::cuda {

Expected<std::unique_ptr<CudaKernel>> makeUpsampleKernel(const CudaBuild& b) {
  std::string mode = b.node().attrString("mode", "nearest");
  if (mode != "nearest" && mode != "linear" && mode != "bilinear")
    return invalidArgument("unknown mode '" + mode + "'");
  const bool linear = mode != "nearest";
  if (linear && b.dtype() != ir::DataType::kUndefined && !launchFloat(b.dtype()))
    return unsupported("linear Upsample of " + std::string(ir::dtypeName(b.dtype())) +
                       " (float types only)");
  return std::unique_ptr<CudaKernel>(
      std::make_unique<Resize>(linear, b.node().attrFloats("scales"), b.opset() >= 9));
}

}  // namespace passlab::exec::cuda
