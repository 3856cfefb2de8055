// The QONNX quantizers (fastmachinelearning/qonnx, docs/qonnx-custom-ops), in
// the domains qonnx.custom_op.general and onnx.brevitas (Brevitas' exports):
//   Quant         q = round(clip(x / scale + zeropt, min, max)); y = (q - zeropt) * scale
//                 min, max: signed: -2^(b-1) (+1 when narrow) .. 2^(b-1) - 1;
//                 unsigned: 0 .. 2^b - 1 (- 1 when narrow)
//   BipolarQuant  y = (x >= 0 ? 1 : -1) * scale
//   Trunc-1       q = round_half_even(x / scale + zeropt) / 2^(in_bits - out_bits);
//                 y = (rounding(q) - zeropt) * scale
//   Trunc-2       t = 2^round(log2(out_scale / scale));
//                 q = clip(round_half_even(x / scale + zeropt) / t, min, max) with
//                 min, max of out_bits, signed, narrow;
//                 y = (rounding(q) - zeropt / t) * out_scale
// scale, zeropt and the bit widths are scalars or tensors that broadcast to x
// (per-channel quantization); X is float. rounding_mode (any case): ROUND
// (= HALF_EVEN), CEIL, FLOOR, UP (away from zero), DOWN (= ROUND_TO_ZERO),
// HALF_UP, HALF_DOWN. Schemas: core/ir/op_schemas_extra.txt.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>
#include <vector>

#include "core/exec/cpu/families.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

namespace {

enum class Rounding { kHalfEven, kCeil, kFloor, kUp, kDown, kHalfUp, kHalfDown };

Expected<Rounding> roundingMode(const KernelBuild& b, const char* fallback) {
  std::string m = b.node().attrString("rounding_mode", fallback);
  std::string u = m;
  for (char& c : u) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (u == "ROUND" || u == "HALF_EVEN") return Rounding::kHalfEven;
  if (u == "CEIL") return Rounding::kCeil;
  if (u == "FLOOR") return Rounding::kFloor;
  if (u == "UP") return Rounding::kUp;
  if (u == "DOWN" || u == "ROUND_TO_ZERO") return Rounding::kDown;
  if (u == "HALF_UP") return Rounding::kHalfUp;
  if (u == "HALF_DOWN") return Rounding::kHalfDown;
  return invalidArgument("attribute 'rounding_mode' is \"" + m +
                         "\"; expected ROUND, CEIL, FLOOR, UP, DOWN, ROUND_TO_ZERO, HALF_UP, "
                         "HALF_DOWN or HALF_EVEN");
}

double roundBy(Rounding r, double v) {
  switch (r) {
    case Rounding::kHalfEven: {
      double f = std::floor(v), d = v - f;
      if (d > 0.5) return f + 1;
      if (d < 0.5) return f;
      return std::fmod(f, 2.0) == 0 ? f : f + 1;
    }
    case Rounding::kCeil:
      return std::ceil(v);
    case Rounding::kFloor:
      return std::floor(v);
    case Rounding::kUp:
      return v < 0 ? std::floor(v) : std::ceil(v);
    case Rounding::kDown:
      return std::trunc(v);
    case Rounding::kHalfUp:
      return std::round(v);  // halves away from zero
    case Rounding::kHalfDown: {
      double t = std::trunc(v);
      return std::fabs(v - t) > 0.5 ? t + (v < 0 ? -1 : 1) : t;
    }
  }
  return v;
}

Expected<bool> flagAttr(const KernelBuild& b, const char* name, int64_t fallback) {
  int64_t v = b.node().attrInt(name, fallback);
  if (v != 0 && v != 1)
    return invalidArgument("attribute '" + std::string(name) + "' must be 0 or 1, got " +
                           std::to_string(v));
  return v == 1;
}

// A parameter input broadcast over x: value(i) for x's flat index i.
class Param {
 public:
  static Expected<Param> make(const Tensor& t, const Tensor& x, const char* name) {
    if (t.rank() > x.rank())
      return invalidArgument("input '" + std::string(name) + "' " + t.describe() +
                             " has more dims than X " + x.describe());
    Param p;
    const size_t off = x.rank() - t.rank();
    p.strides_.assign(x.rank(), 0);
    int64_t stride = 1;
    for (size_t k = t.rank(); k-- > 0;) {
      const int64_t d = t.dim(k), xd = x.dim(k + off);
      if (d != 1 && d != xd)
        return invalidArgument("input '" + std::string(name) + "' " + t.describe() +
                               " does not broadcast to X " + x.describe());
      if (d != 1) p.strides_[k + off] = stride;
      stride *= d;
    }
    p.dims_ = x.dims();
    PASSLAB_RETURN_IF_ERROR(dispatch<types::kNumeric>(t.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      const S* d = t.data<S>();
      for (int64_t i = 0; i < t.numel(); ++i) p.values_.push_back(static_cast<double>(load(d[i])));
      return Status::ok();
    }));
    return p;
  }
  double at(int64_t i) const {
    if (values_.size() == 1) return values_[0];
    int64_t o = 0;
    for (size_t k = dims_.size(); k-- > 0;) {
      o += (i % dims_[k]) * strides_[k];
      i /= dims_[k];
    }
    return values_[static_cast<size_t>(o)];
  }
  const std::vector<double>& values() const { return values_; }

 private:
  Dims dims_;
  std::vector<int64_t> strides_;
  std::vector<double> values_;
};

Status checkScales(const Param& p, const char* name) {
  for (double v : p.values())
    if (!(v != 0) || !std::isfinite(v))
      return invalidArgument("input '" + std::string(name) + "' holds " + std::to_string(v) +
                             "; a scale must be finite and nonzero");
  return Status::ok();
}

Status checkBitWidths(const Param& p, const char* name) {
  for (double v : p.values())
    if (!(v >= 1 && v <= 64) || v != std::floor(v))
      return invalidArgument("input '" + std::string(name) + "' holds " + std::to_string(v) +
                             "; a bit width must be a whole number from 1 to 64");
  return Status::ok();
}

double minInt(bool isSigned, bool narrow, double bits) {
  if (!isSigned) return 0;
  return -std::exp2(bits - 1) + (narrow ? 1 : 0);
}
double maxInt(bool isSigned, bool narrow, double bits) {
  if (isSigned) return std::exp2(bits - 1) - 1;
  return std::exp2(bits) - 1 - (narrow ? 1 : 0);
}

Status checkX(const Tensor& x) {
  if (x.dtype() != ir::DataType::kFloat)
    return invalidArgument("input 'X' must be float, got " + x.describe());
  return Status::ok();
}

class Quant final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    PASSLAB_ASSIGN_OR_RETURN(bool isSigned, flagAttr(b, "signed", 1));
    PASSLAB_ASSIGN_OR_RETURN(bool narrow, flagAttr(b, "narrow", 0));
    PASSLAB_ASSIGN_OR_RETURN(Rounding r, roundingMode(b, "ROUND"));
    return std::unique_ptr<Kernel>(new Quant(isSigned, narrow, r));
  }
  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    PASSLAB_RETURN_IF_ERROR(checkX(x));
    PASSLAB_ASSIGN_OR_RETURN(Param scale, Param::make(ctx.input(1), x, "scale"));
    PASSLAB_ASSIGN_OR_RETURN(Param zero, Param::make(ctx.input(2), x, "zeropt"));
    PASSLAB_ASSIGN_OR_RETURN(Param bits, Param::make(ctx.input(3), x, "bitwidth"));
    PASSLAB_RETURN_IF_ERROR(checkScales(scale, "scale"));
    PASSLAB_RETURN_IF_ERROR(checkBitWidths(bits, "bitwidth"));
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), x.dims()));
    const float* in = x.data<float>();
    float* out = y->mutableData<float>();
    for (int64_t i = 0; i < x.numel(); ++i) {
      const double s = scale.at(i), z = zero.at(i), b = bits.at(i);
      double q = static_cast<double>(in[i]) / s + z;
      q = std::clamp(q, minInt(signed_, narrow_, b), maxInt(signed_, narrow_, b));
      out[i] = static_cast<float>((roundBy(rounding_, q) - z) * s);
    }
    return Status::ok();
  }

 private:
  Quant(bool isSigned, bool narrow, Rounding r)
      : signed_(isSigned), narrow_(narrow), rounding_(r) {}
  bool signed_, narrow_;
  Rounding rounding_;
};

class BipolarQuant final : public Kernel {
 public:
  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    PASSLAB_RETURN_IF_ERROR(checkX(x));
    PASSLAB_ASSIGN_OR_RETURN(Param scale, Param::make(ctx.input(1), x, "scale"));
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), x.dims()));
    const float* in = x.data<float>();
    float* out = y->mutableData<float>();
    for (int64_t i = 0; i < x.numel(); ++i)
      out[i] = static_cast<float>((in[i] >= 0.0f ? 1.0 : -1.0) * scale.at(i));
    return Status::ok();
  }
};

class Trunc final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    PASSLAB_ASSIGN_OR_RETURN(bool isSigned, flagAttr(b, "signed", 1));
    PASSLAB_ASSIGN_OR_RETURN(bool narrow, flagAttr(b, "narrow", 0));
    PASSLAB_ASSIGN_OR_RETURN(Rounding r, roundingMode(b, "FLOOR"));
    return std::unique_ptr<Kernel>(new Trunc(b.opset() >= 2, isSigned, narrow, r));
  }
  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    PASSLAB_RETURN_IF_ERROR(checkX(x));
    const size_t want = v2_ ? 6 : 5;
    for (size_t i = 1; i < want; ++i)
      if (!ctx.has(i))
        return invalidArgument("Trunc-" + std::string(v2_ ? "2" : "1") + " takes " +
                               std::to_string(want) + " inputs; input " + std::to_string(i) +
                               " is missing");
    PASSLAB_ASSIGN_OR_RETURN(Param scale, Param::make(ctx.input(1), x, "scale"));
    PASSLAB_ASSIGN_OR_RETURN(Param zero, Param::make(ctx.input(2), x, "zeropt"));
    PASSLAB_ASSIGN_OR_RETURN(Param inBits, Param::make(ctx.input(3), x, "in_bitwidth"));
    PASSLAB_RETURN_IF_ERROR(checkScales(scale, "scale"));
    PASSLAB_RETURN_IF_ERROR(checkBitWidths(inBits, "in_bitwidth"));
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), x.dims()));
    const float* in = x.data<float>();
    float* out = y->mutableData<float>();
    if (!v2_) {
      PASSLAB_ASSIGN_OR_RETURN(Param outBits, Param::make(ctx.input(4), x, "out_bitwidth"));
      PASSLAB_RETURN_IF_ERROR(checkBitWidths(outBits, "out_bitwidth"));
      for (int64_t i = 0; i < x.numel(); ++i) {
        const double s = scale.at(i), z = zero.at(i);
        double q = roundBy(Rounding::kHalfEven, static_cast<double>(in[i]) / s + z);
        q /= std::exp2(inBits.at(i) - outBits.at(i));
        out[i] = static_cast<float>((roundBy(rounding_, q) - z) * s);
      }
      return Status::ok();
    }
    PASSLAB_ASSIGN_OR_RETURN(Param outScale, Param::make(ctx.input(4), x, "out_scale"));
    PASSLAB_ASSIGN_OR_RETURN(Param outBits, Param::make(ctx.input(5), x, "out_bitwidth"));
    PASSLAB_RETURN_IF_ERROR(checkScales(outScale, "out_scale"));
    PASSLAB_RETURN_IF_ERROR(checkBitWidths(outBits, "out_bitwidth"));
    for (int64_t i = 0; i < x.numel(); ++i) {
      const double s = scale.at(i), z = zero.at(i), os = outScale.at(i), b = outBits.at(i);
      const double t = std::exp2(roundBy(Rounding::kHalfEven, std::log2(os / s)));
      double q = roundBy(Rounding::kHalfEven, static_cast<double>(in[i]) / s + z) / t;
      q = std::clamp(q, minInt(signed_, narrow_, b), maxInt(signed_, narrow_, b));
      out[i] = static_cast<float>((roundBy(rounding_, q) - z / t) * os);
    }
    return Status::ok();
  }

 private:
  Trunc(bool v2, bool isSigned, bool narrow, Rounding r)
      : v2_(v2), signed_(isSigned), narrow_(narrow), rounding_(r) {}
  bool v2_, signed_, narrow_;
  Rounding rounding_;
};

constexpr std::string_view kQonnx = "qonnx.custom_op.general";
constexpr std::string_view kBrevitas = "onnx.brevitas";

const KernelDef kRows[] = {
    {kQonnx, "Quant", 1, kOpsetMax, types::kFloats, 0, Tier::kReference, "cpu.Quant",
     makeKernel<Quant>},
    {kQonnx, "BipolarQuant", 1, kOpsetMax, types::kFloats, 0, Tier::kReference, "cpu.BipolarQuant",
     makeKernel<BipolarQuant>},
    {kQonnx, "Trunc", 1, kOpsetMax, types::kFloats, 0, Tier::kReference, "cpu.Trunc",
     makeKernel<Trunc>},
    {kBrevitas, "Quant", 1, kOpsetMax, types::kFloats, 0, Tier::kReference, "cpu.Quant",
     makeKernel<Quant>},
    {kBrevitas, "BipolarQuant", 1, kOpsetMax, types::kFloats, 0, Tier::kReference,
     "cpu.BipolarQuant", makeKernel<BipolarQuant>},
    {kBrevitas, "Trunc", 1, kOpsetMax, types::kFloats, 0, Tier::kReference, "cpu.Trunc",
     makeKernel<Trunc>},
};

}  // namespace

std::span<const KernelDef> qonnxKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
