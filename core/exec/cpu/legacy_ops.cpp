// Experimental ONNX operators removed from the standard that ONNX Runtime's CPU
// provider still runs, so old models (opset <= 9 era) execute and can be
// checked. Semantics from onnx/defs/experiments and ONNX's Changelog.md:
//   Affine              y = alpha * x + beta                (alpha 1, beta 0)
//   Scale               y = scale * x                       (scale 1)
//   ScaledTanh          y = alpha * tanh(beta * x)          (both required)
//   ParametricSoftplus  y = alpha * ln(exp(beta * x) + 1)   (both required)
//   ThresholdedRelu-1   y = x > alpha ? x : 0               (activations.cpp runs 10+)
//   Crop                NCHW crop: border = [left, top, right, bottom]; with
//                       scale = [h, w] the window is h x w from (top, left)
//   MeanVarianceNormalization-1  per NCHW sample, over H, W (and C when
//                       across_channels=1): y = x - mean, divided by
//                       (sqrt(var) + 1e-9) when normalize_variance=1 (the
//                       epsilon of the opset-9 kernel, feature_norm.cpp)
//   GivenTensorFill     float tensor of `shape` (or of input 0's values when
//                       input_as_shape=1, then extra_shape) holding `values`
// ImageScaler lives in clip.cpp. Schemas: core/ir/op_schemas_extra.txt.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/exec/cpu/data_util.h"
#include "core/exec/cpu/elementwise.h"
#include "core/exec/cpu/families.h"
#include "core/exec/cpu/reduce_plan.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

// A float attribute the op cannot run without.
Expected<float> requiredFloat(const KernelBuild& b, std::string_view name) {
  if (!b.node().hasAttr(name))
    return invalidArgument("attribute '" + std::string(name) + "' is required by " +
                           b.node().opType());
  return b.node().attrFloat(name, 0.0f);
}

struct AffineOp {
  static constexpr TypeSet kTypes = types::kFloats;
  explicit AffineOp(const KernelBuild& b)
      : alpha(b.node().attrFloat("alpha", 1.0f)), beta(b.node().attrFloat("beta", 0.0f)) {}
  template <class C>
  C operator()(C x) const {
    return C(alpha) * x + C(beta);
  }
  float alpha, beta;
};

struct ScaleOp {
  static constexpr TypeSet kTypes = types::kFloats;
  explicit ScaleOp(const KernelBuild& b) : scale(b.node().attrFloat("scale", 1.0f)) {}
  template <class C>
  C operator()(C x) const {
    return C(scale) * x;
  }
  float scale;
};

struct ScaledTanhOp {
  static constexpr TypeSet kTypes = types::kFloats;
  static Expected<ScaledTanhOp> make(const KernelBuild& b) {
    PASSLAB_ASSIGN_OR_RETURN(float alpha, requiredFloat(b, "alpha"));
    PASSLAB_ASSIGN_OR_RETURN(float beta, requiredFloat(b, "beta"));
    return ScaledTanhOp{alpha, beta};
  }
  template <class C>
  C operator()(C x) const {
    return C(alpha) * std::tanh(C(beta) * x);
  }
  float alpha, beta;
};

struct ParametricSoftplusOp {
  static constexpr TypeSet kTypes = types::kFloats;
  static Expected<ParametricSoftplusOp> make(const KernelBuild& b) {
    PASSLAB_ASSIGN_OR_RETURN(float alpha, requiredFloat(b, "alpha"));
    PASSLAB_ASSIGN_OR_RETURN(float beta, requiredFloat(b, "beta"));
    return ParametricSoftplusOp{alpha, beta};
  }
  // ln(exp(z) + 1) without overflow: max(z, 0) + log1p(exp(-|z|)).
  template <class C>
  C operator()(C x) const {
    C z = C(beta) * x;
    C az = z < C(0) ? -z : z;
    return C(alpha) * ((z > C(0) ? z : C(0)) + std::log1p(std::exp(-az)));
  }
  float alpha, beta;
};

struct ThresholdedRelu1Op {
  static constexpr TypeSet kTypes = types::kFloats;
  explicit ThresholdedRelu1Op(const KernelBuild& b) : alpha(b.node().attrFloat("alpha", 1.0f)) {}
  template <class C>
  C operator()(C x) const {
    return x > C(alpha) ? x : C(0);
  }
  float alpha;
};

std::string intsText(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

class Crop final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    std::vector<int64_t> border = b.node().attrInts("border");
    std::vector<int64_t> scale = b.node().attrInts("scale");
    if (border.size() != 4)
      return invalidArgument("attribute 'border' needs 4 values [left, top, right, bottom], got " +
                             intsText(border));
    for (int64_t v : border)
      if (v < 0)
        return invalidArgument("attribute 'border' has a negative value: " + intsText(border));
    if (!scale.empty() && (scale.size() != 2 || scale[0] < 0 || scale[1] < 0))
      return invalidArgument("attribute 'scale' needs 2 values [height, width] >= 0, got " +
                             intsText(scale));
    return std::unique_ptr<Kernel>(new Crop(std::move(border), std::move(scale)));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    if (x.rank() != 4) return invalidArgument("input must be 4-D (NCHW), got " + x.describe());
    const int64_t H = x.dim(2), W = x.dim(3);
    const int64_t left = border_[0], top = border_[1];
    int64_t bottom = H - border_[3], right = W - border_[2];  // exclusive limits
    if (!scale_.empty()) {
      bottom = top + scale_[0];
      right = left + scale_[1];
    }
    if (top > bottom || left > right || bottom > H || right > W)
      return invalidArgument("attribute 'border' " + intsText(border_) +
                             (scale_.empty() ? "" : " with 'scale' " + intsText(scale_)) +
                             " does not fit a " + std::to_string(H) + "x" + std::to_string(W) +
                             " image");
    const int64_t oh = bottom - top, ow = right - left;
    return dispatch<types::kFloats>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y,
                               ctx.allocate(0, x.dtype(), {x.dim(0), x.dim(1), oh, ow}));
      const S* in = x.data<S>();
      S* out = y->mutableData<S>();
      const int64_t planes = x.dim(0) * x.dim(1);
      for (int64_t p = 0; p < planes; ++p)
        for (int64_t r = 0; r < oh; ++r)
          for (int64_t c = 0; c < ow; ++c)
            out[(p * oh + r) * ow + c] = in[(p * H + top + r) * W + left + c];
      return Status::ok();
    });
  }

 private:
  Crop(std::vector<int64_t> border, std::vector<int64_t> scale)
      : border_(std::move(border)), scale_(std::move(scale)) {}
  std::vector<int64_t> border_, scale_;
};

class MeanVarianceNorm1 final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    const int64_t across = b.node().attrInt("across_channels", 0);
    const int64_t normalize = b.node().attrInt("normalize_variance", 1);
    if (across != 0 && across != 1)
      return invalidArgument("attribute 'across_channels' must be 0 or 1, got " +
                             std::to_string(across));
    if (normalize != 0 && normalize != 1)
      return invalidArgument("attribute 'normalize_variance' must be 0 or 1, got " +
                             std::to_string(normalize));
    return std::unique_ptr<Kernel>(new MeanVarianceNorm1(across == 1, normalize == 1));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    if (x.rank() != 4) return invalidArgument("input must be 4-D (NCHW), got " + x.describe());
    const std::vector<bool> flags = {false, across_, true, true};
    const ReducePlan plan = planReduction(x.dims(), flags, true);
    return dispatch<types::kFloats>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), x.dims()));
      const S* in = x.data<S>();
      S* out = y->mutableData<S>();
      const double n = static_cast<double>(plan.reducedCount);
      for (int64_t o = 0; o < plan.outCount; ++o) {
        double sum = 0, sq = 0;
        plan.forEach(o, [&](int64_t at) {
          double v = static_cast<double>(load(in[at]));
          sum += v;
          sq += v * v;
        });
        const double mean = n > 0 ? sum / n : 0.0;
        const double var = n > 0 ? std::max(0.0, sq / n - mean * mean) : 0.0;
        const double inv = normalize_ ? 1.0 / (std::sqrt(var) + 1e-9) : 1.0;
        plan.forEach(o, [&](int64_t at) {
          out[at] =
              store<S>(static_cast<ComputeT<S>>((static_cast<double>(load(in[at])) - mean) * inv));
        });
      }
      return Status::ok();
    });
  }

 private:
  MeanVarianceNorm1(bool across, bool normalize) : across_(across), normalize_(normalize) {}
  bool across_, normalize_;
};

class GivenTensorFill final : public Kernel {
 public:
  explicit GivenTensorFill(const KernelBuild& b)
      : values_(b.node().attrFloats("values")),
        shape_(b.node().attrInts("shape")),
        extra_(b.node().attrInts("extra_shape")),
        inputAsShape_(b.node().attrInt("input_as_shape", 0) != 0) {}

  Status run(KernelContext& ctx) override {
    Dims dims;
    if (inputAsShape_) {
      if (!ctx.has(0))
        return invalidArgument("attribute 'input_as_shape' is 1 but input 'shape' is missing");
      const Tensor& s = ctx.input(0);
      if (s.rank() != 1)
        return invalidArgument("input 'shape' must be 1-D with input_as_shape=1, got " +
                               s.describe());
      PASSLAB_ASSIGN_OR_RETURN(std::vector<double> v, readDoubles(s));
      for (double d : v) {
        if (d < 0 || d != std::floor(d))
          return invalidArgument("input 'shape' holds " + std::to_string(d) + ", not a dimension");
        dims.push_back(static_cast<int64_t>(d));
      }
      for (int64_t d : extra_) dims.push_back(d);
    } else {
      for (int64_t d : shape_) dims.push_back(d);
    }
    int64_t count = 1;
    for (int64_t d : dims) {
      if (d < 0) return invalidArgument("attribute 'shape' has a negative dimension");
      count *= d;
    }
    if (count != static_cast<int64_t>(values_.size()))
      return invalidArgument("attribute 'values' has " + std::to_string(values_.size()) +
                             " values for a shape of " + std::to_string(count) + " elements");
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, ir::DataType::kFloat, dims));
    float* out = y->mutableData<float>();
    for (int64_t i = 0; i < count; ++i) out[i] = values_[static_cast<size_t>(i)];
    return Status::ok();
  }

 private:
  static Expected<std::vector<double>> readDoubles(const Tensor& t) {
    std::vector<double> v;
    PASSLAB_RETURN_IF_ERROR(dispatch<types::kNumeric>(t.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      const S* p = t.data<S>();
      for (int64_t i = 0; i < t.numel(); ++i) v.push_back(static_cast<double>(load(p[i])));
      return Status::ok();
    }));
    return v;
  }
  std::vector<float> values_;
  std::vector<int64_t> shape_, extra_;
  bool inputAsShape_;
};

template <class Op>
constexpr KernelDef checkedRow(std::string_view op, std::string_view name) {
  return {
      "", op, 1, kOpsetMax, Op::kTypes, 0, Tier::kReference, name, makeKernel<CheckedUnary<Op>>};
}

const KernelDef kRows[] = {
    unaryRow<AffineOp>("Affine", 1, kOpsetMax, "cpu.Affine"),
    unaryRow<ScaleOp>("Scale", 1, kOpsetMax, "cpu.Scale"),
    checkedRow<ScaledTanhOp>("ScaledTanh", "cpu.ScaledTanh"),
    checkedRow<ParametricSoftplusOp>("ParametricSoftplus", "cpu.ParametricSoftplus"),
    unaryRow<ThresholdedRelu1Op>("ThresholdedRelu", 1, 9, "cpu.ThresholdedRelu"),
    {"", "Crop", 1, kOpsetMax, types::kFloats, 0, Tier::kReference, "cpu.Crop", makeKernel<Crop>},
    {"", "MeanVarianceNormalization", 1, 8, types::kFloats, 0, Tier::kReference,
     "cpu.MeanVarianceNormalization", makeKernel<MeanVarianceNorm1>},
    {"", "GivenTensorFill", 1, kOpsetMax, types::kAll, kAnyType, Tier::kReference,
     "cpu.GivenTensorFill", makeKernel<GivenTensorFill>},
};

}  // namespace

std::span<const KernelDef> legacyOpKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
