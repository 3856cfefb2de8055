// Elementwise CUDA kernels: unary float math and activations, Clip, Identity,
// binary arithmetic with broadcasting (Add, Sub, Mul, Div, Pow, PRelu), the
// variadic Sum, Mean, Max, Min, comparisons, And/Or/Xor/Not, Where and Cast.
// Semantics, attributes and messages follow the CPU kernels
// (core/exec/cpu/elementwise.h and the files of each op); the device code is
// in elementwise.cu and elementwise_binary.cu, the broadcast index in
// elementwise_plan.cpp.
#include <cctype>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/exec/broadcast.h"
#include "core/exec/cpu/cast_rules.h"
#include "core/exec/cuda/cuda_check.h"
#include "core/exec/cuda/cuda_families.h"
#include "core/exec/cuda/elementwise_launch.h"
#include "core/exec/cuda/elementwise_plan.h"
#include "core/exec/dtype_traits.h"

namespace passlab::exec::cuda {

namespace {

using ew::BinaryOp;
using ew::ElemType;
using ew::UnaryOp;
using ir::DataType;

// The element types the elementwise device code stores.
std::optional<ElemType> elemType(DataType t) {
  switch (t) {
    case DataType::kFloat:
      return ElemType::kFloat32;
    case DataType::kFloat16:
      return ElemType::kFloat16;
    case DataType::kBFloat16:
      return ElemType::kBFloat16;
    case DataType::kInt32:
      return ElemType::kInt32;
    case DataType::kInt64:
      return ElemType::kInt64;
    case DataType::kInt8:
      return ElemType::kInt8;
    case DataType::kUInt8:
      return ElemType::kUInt8;
    case DataType::kBool:
      return ElemType::kBool;
    default:
      return std::nullopt;
  }
}

constexpr TypeSet kIntegers{DataType::kInt32, DataType::kInt64};
constexpr TypeSet kArithTypes = kCudaFloats | kIntegers;
constexpr TypeSet kCompareTypes = kArithTypes | TypeSet{DataType::kInt8, DataType::kUInt8};
constexpr TypeSet kBoolType{DataType::kBool};
constexpr TypeSet kElemTypes = kCompareTypes | kBoolType;

std::string typeName(DataType t) {
  return std::string(ir::dtypeName(t));
}

// The element type of the node's input i known when the kernel is built
// (a constant's, else the declared one; kUndefined when not known).
DataType declaredType(const CudaBuild& b, size_t i) {
  if (const ir::Tensor* c = b.constantInput(i)) return c->dtype();
  const ir::Value* v = b.node().input(i);
  if (!v || !v->type().isTensor()) return DataType::kUndefined;
  return v->type().elemType();
}

// One element of a float-typed host scalar as float.
float hostFloat(DataType t, const void* p) {
  switch (t) {
    case DataType::kFloat16:
      return load(*static_cast<const Half*>(p));
    case DataType::kBFloat16:
      return load(*static_cast<const BFloat16*>(p));
    default:
      return *static_cast<const float*>(p);
  }
}

// ---- unary ----

class UnaryKernel final : public CudaKernel {
 public:
  UnaryKernel(UnaryOp op, float alpha, float beta) : op_(op), alpha_(alpha), beta_(beta) {}

  Status run(CudaContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor x, ctx.input(0));
    auto t = elemType(x.dtype());
    if (!t || !kCudaFloats.contains(x.dtype()))
      return invalidArgument("the CUDA kernel takes float, float16 or bfloat16, got " +
                             x.describe());
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor y, ctx.allocate(0, x.dtype(), x.dims()));
    PASSLAB_CUDA_TRY(
        ew::launchUnary(op_, *t, x.raw(), y.mutableRaw(), x.numel(), alpha_, beta_, ctx.stream()));
    return Status::ok();
  }

 private:
  UnaryOp op_;
  float alpha_, beta_;
};

template <UnaryOp Op>
Expected<std::unique_ptr<CudaKernel>> makeUnary(const CudaBuild& b) {
  const ir::Node& n = b.node();
  float alpha = 0, beta = 0;
  UnaryOp op = Op;
  switch (Op) {
    case UnaryOp::kHardSigmoid:
      alpha = n.attrFloat("alpha", 0.2f);
      beta = n.attrFloat("beta", 0.5f);
      break;
    case UnaryOp::kLeakyRelu:
      alpha = n.attrFloat("alpha", 0.01f);
      break;
    case UnaryOp::kElu:
    case UnaryOp::kCelu:
    case UnaryOp::kThresholdedRelu:
      alpha = n.attrFloat("alpha", 1.0f);
      break;
    case UnaryOp::kSelu:
      alpha = n.attrFloat("alpha", 1.67326319217681884765625f);
      beta = n.attrFloat("gamma", 1.05070102214813232421875f);
      break;
    case UnaryOp::kGeluErf: {
      std::string mode = n.attrString("approximate", "none");
      if (mode != "none" && mode != "tanh")
        return invalidArgument("approximate must be \"none\" or \"tanh\", got \"" + mode + "\"");
      if (mode == "tanh") op = UnaryOp::kGeluTanh;
      break;
    }
    default:
      break;
  }
  return std::unique_ptr<CudaKernel>(std::make_unique<UnaryKernel>(op, alpha, beta));
}

// y = x, the same device tensor.
class IdentityKernel final : public CudaKernel {
 public:
  Status run(CudaContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor x, ctx.input(0));
    ctx.setOutput(0, std::move(x));
    return Status::ok();
  }
};

// Clip: bounds from attributes before opset 11, from the optional scalar
// inputs 1 and 2 after (read once when constant, else on the host each run).
class ClipKernel final : public CudaKernel {
 public:
  static Expected<std::unique_ptr<CudaKernel>> create(const CudaBuild& b) {
    auto k = std::unique_ptr<ClipKernel>(new ClipKernel());
    k->legacy_ = b.opset() < 11;
    if (k->legacy_) {
      k->lo_ = b.node().attrFloat("min", std::numeric_limits<float>::lowest());
      k->hi_ = b.node().attrFloat("max", std::numeric_limits<float>::max());
    } else {
      for (size_t i : {size_t{1}, size_t{2}}) {
        const ir::Tensor* c = b.constantInput(i);
        if (!c) continue;
        if (b.dtype() != DataType::kUndefined && (c->dtype() != b.dtype() || c->numel() != 1))
          return invalidArgument("min and max must be scalars of the input's type");
        if (!kCudaFloats.contains(c->dtype()) || c->numel() != 1) continue;
        (i == 1 ? k->constLo_ : k->constHi_) = hostFloat(c->dtype(), c->bytes().data());
      }
    }
    return std::unique_ptr<CudaKernel>(std::move(k));
  }

  Status run(CudaContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor x, ctx.input(0));
    auto t = elemType(x.dtype());
    if (!t || !kCudaFloats.contains(x.dtype()))
      return invalidArgument("the CUDA kernel takes float, float16 or bfloat16, got " +
                             x.describe());
    float lo = lo_, hi = hi_;
    if (!legacy_) {
      lo = std::numeric_limits<float>::lowest();
      hi = std::numeric_limits<float>::max();
      for (size_t i : {size_t{1}, size_t{2}}) {
        if (i >= ctx.inputCount() || !ctx.has(i)) continue;
        if (ctx.inputType(i) != x.dtype() || numelOf(ctx.inputDims(i)) != 1)
          return invalidArgument("min and max must be scalars of the input's type");
        std::optional<float> known = i == 1 ? constLo_ : constHi_;
        float v;
        if (known) {
          v = *known;
        } else {
          PASSLAB_ASSIGN_OR_RETURN(Tensor h, ctx.hostInput(i));
          v = hostFloat(h.dtype(), h.raw());
        }
        (i == 1 ? lo : hi) = v;
      }
    }
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor y, ctx.allocate(0, x.dtype(), x.dims()));
    PASSLAB_CUDA_TRY(ew::launchUnary(UnaryOp::kClip, *t, x.raw(), y.mutableRaw(), x.numel(), lo, hi,
                                     ctx.stream()));
    return Status::ok();
  }

 private:
  ClipKernel() = default;
  bool legacy_ = false;
  float lo_ = 0, hi_ = 0;
  std::optional<float> constLo_, constHi_;
};

class NotKernel final : public CudaKernel {
 public:
  Status run(CudaContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor x, ctx.input(0));
    if (x.dtype() != DataType::kBool) return invalidArgument("Not takes bool, got " + x.describe());
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor y, ctx.allocate(0, DataType::kBool, x.dims()));
    PASSLAB_CUDA_TRY(ew::launchNot(x.raw(), y.mutableRaw(), x.numel(), ctx.stream()));
    return Status::ok();
  }
};

// ---- binary ----

constexpr bool isCompare(BinaryOp op) {
  return op == BinaryOp::kEqual || op == BinaryOp::kLess || op == BinaryOp::kLessOrEqual ||
         op == BinaryOp::kGreater || op == BinaryOp::kGreaterOrEqual;
}

// y = op(a, b) with multidirectional broadcasting. A node carrying the
// pre-opset-7 attributes broadcast=1 and axis gets that rule when numpy's
// fails (as the CPU's BinaryKernel). Pow's exponent may have another type.
class BinaryKernel final : public CudaKernel {
 public:
  BinaryKernel(BinaryOp op, TypeSet types, TypeSet typesB, std::optional<int64_t> legacyAxis)
      : op_(op), types_(types), typesB_(typesB), legacyAxis_(legacyAxis) {}

  Status run(CudaContext& ctx) override {
    const DataType ta = ctx.inputType(0), tb = ctx.inputType(1);
    if (op_ != BinaryOp::kPow && ta != tb)
      return invalidArgument("inputs have different element types (" + typeName(ta) + " and " +
                             typeName(tb) + ")");
    if (!types_.contains(ta) || !typesB_.contains(tb))
      return invalidArgument("the CUDA kernel does not take " + typeName(ta) + " and " +
                             typeName(tb));
    const Dims& da = ctx.inputDims(0);
    Dims db = ctx.inputDims(1);
    auto shape = broadcastShapes(da, db);
    if (!shape && legacyAxis_ && *legacyAxis_ >= 0 &&
        *legacyAxis_ + static_cast<int64_t>(db.size()) <= static_cast<int64_t>(da.size())) {
      db.resize(da.size() - static_cast<size_t>(*legacyAxis_), 1);
      shape = broadcastShapes(da, db);
    }
    if (!shape) return shape.error();
    const Dims* ins[] = {&da, &db};
    PASSLAB_ASSIGN_OR_RETURN(BroadcastPlan plan, planBroadcastTo(*shape, ins));
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor a, ctx.input(0));
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor b, ctx.input(1));
    const DataType out = isCompare(op_) ? DataType::kBool : ta;
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor y, ctx.allocate(0, out, plan.out));
    PASSLAB_CUDA_TRY(ew::launchBinary(op_, *elemType(ta), *elemType(tb), a.raw(), b.raw(),
                                      y.mutableRaw(), plan.index, plan.numel, 1, ctx.stream()));
    return Status::ok();
  }

 private:
  BinaryOp op_;
  TypeSet types_, typesB_;
  std::optional<int64_t> legacyAxis_;
};

template <BinaryOp Op>
Expected<std::unique_ptr<CudaKernel>> makeBinary(const CudaBuild& b) {
  std::optional<int64_t> legacyAxis;
  if (b.node().attrInt("broadcast", 0) != 0) legacyAxis = b.node().attrInt("axis", -1);
  TypeSet types = kArithTypes, typesB = kArithTypes;
  if constexpr (Op == BinaryOp::kPow) {
    types = kCudaFloats;
    typesB = kCompareTypes;  // float types and int8/uint8/int32/int64 exponents
    DataType e = declaredType(b, 1);
    if (e != DataType::kUndefined && !typesB.contains(e))
      return unsupported("Pow with a " + typeName(e) + " exponent");
  } else if constexpr (isCompare(Op)) {
    types = typesB = Op == BinaryOp::kEqual ? kElemTypes : kCompareTypes;
  } else if constexpr (Op == BinaryOp::kAnd || Op == BinaryOp::kOr || Op == BinaryOp::kXor) {
    types = typesB = kBoolType;
  }
  return std::unique_ptr<CudaKernel>(std::make_unique<BinaryKernel>(Op, types, typesB, legacyAxis));
}

// y = x for x >= 0, slope * x otherwise; slope broadcasts to x's shape. Before
// opset 7 a 1-D slope of x's channel count runs along axis 1.
class PReluKernel final : public CudaKernel {
 public:
  explicit PReluKernel(const CudaBuild& b) : legacy_(b.opset() < 7) {}

  Status run(CudaContext& ctx) override {
    const DataType tx = ctx.inputType(0);
    const Dims& dx = ctx.inputDims(0);
    Dims ds = ctx.inputDims(1);
    if (ctx.inputType(1) != tx)
      return invalidArgument("slope " + typeName(ctx.inputType(1)) + dimsToString(ds) +
                             " must have the type of X " + typeName(tx) + dimsToString(dx));
    if (!kCudaFloats.contains(tx))
      return invalidArgument("the CUDA kernel takes float, float16 or bfloat16, got " +
                             typeName(tx));
    if (legacy_ && ds.size() == 1 && dx.size() >= 2 && ds[0] == dx[1] && ds[0] != 1) {
      Dims d(dx.size() - 1, 1);
      d[0] = ds[0];
      ds = d;
    }
    auto dims = broadcastShapes(dx, ds);
    if (!dims || dims.value() != dx)
      return invalidArgument("slope " + dimsToString(ds) + " does not broadcast to X " +
                             dimsToString(dx));
    const Dims* ins[] = {&dx, &ds};
    PASSLAB_ASSIGN_OR_RETURN(BroadcastPlan plan, planBroadcastTo(dx, ins));
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor x, ctx.input(0));
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor s, ctx.input(1));
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor y, ctx.allocate(0, tx, dx));
    const ElemType t = *elemType(tx);
    PASSLAB_CUDA_TRY(ew::launchBinary(BinaryOp::kPRelu, t, t, x.raw(), s.raw(), y.mutableRaw(),
                                      plan.index, plan.numel, 1, ctx.stream()));
    return Status::ok();
  }

 private:
  bool legacy_;
};

// y = op(...op(op(x0, x1), x2)..., xn) with broadcasting (Sum, Max, Min,
// Mean). The accumulator is the output itself: each step reads and writes
// element i in the same thread. Mean divides in its last step.
class VariadicKernel final : public CudaKernel {
 public:
  VariadicKernel(BinaryOp op, TypeSet types) : op_(op), types_(types) {}

  Status run(CudaContext& ctx) override {
    std::vector<size_t> xs;
    std::vector<const Dims*> shapes;
    for (size_t i = 0; i < ctx.inputCount(); ++i) {
      if (!ctx.has(i)) continue;
      xs.push_back(i);
      shapes.push_back(&ctx.inputDims(i));
    }
    if (xs.empty()) return invalidArgument("no inputs");
    const DataType t = ctx.inputType(xs[0]);
    for (size_t i : xs)
      if (ctx.inputType(i) != t)
        return invalidArgument("inputs have different element types (" + typeName(t) + " and " +
                               typeName(ctx.inputType(i)) + ")");
    if (!types_.contains(t)) return invalidArgument("the CUDA kernel does not take " + typeName(t));
    PASSLAB_ASSIGN_OR_RETURN(Dims dims, broadcastShapes(shapes));
    if (xs.size() == 1) {  // op of one input (and Mean's x / 1) is the input
      PASSLAB_ASSIGN_OR_RETURN(DeviceTensor x, ctx.input(xs[0]));
      ctx.setOutput(0, std::move(x));
      return Status::ok();
    }
    const ElemType et = *elemType(t);
    const int count = static_cast<int>(xs.size());
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor y, ctx.allocate(0, t, dims));
    // x0 is held until the last launch is queued: an uploaded copy is freed
    // in stream order when released.
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor x0, ctx.input(xs[0]));
    for (size_t step = 1; step < xs.size(); ++step) {
      const bool first = step == 1, last = step + 1 == xs.size();
      const Dims* ins[] = {first ? shapes[0] : &dims, shapes[step]};
      PASSLAB_ASSIGN_OR_RETURN(BroadcastPlan plan, planBroadcastTo(dims, ins));
      const void* a = first ? x0.raw() : y.raw();
      PASSLAB_ASSIGN_OR_RETURN(DeviceTensor b, ctx.input(xs[step]));
      const BinaryOp op = last && op_ == BinaryOp::kAdd && mean_ ? BinaryOp::kMeanFinish : op_;
      PASSLAB_CUDA_TRY(ew::launchBinary(op, et, et, a, b.raw(), y.mutableRaw(), plan.index,
                                        plan.numel, count, ctx.stream()));
    }
    return Status::ok();
  }

  bool mean_ = false;

 private:
  BinaryOp op_;
  TypeSet types_;
};

template <BinaryOp Op, bool kMean = false>
Expected<std::unique_ptr<CudaKernel>> makeVariadic(const CudaBuild&) {
  auto k = std::make_unique<VariadicKernel>(Op, kMean ? kCudaFloats : kArithTypes);
  k->mean_ = kMean;
  return std::unique_ptr<CudaKernel>(std::move(k));
}

// out = condition ? x : y, the three broadcast together; copies elements by size.
class WhereKernel final : public CudaKernel {
 public:
  Status run(CudaContext& ctx) override {
    if (ctx.inputType(0) != DataType::kBool)
      return invalidArgument("condition must be bool, got " + typeName(ctx.inputType(0)) +
                             dimsToString(ctx.inputDims(0)));
    const DataType t = ctx.inputType(1);
    if (t != ctx.inputType(2))
      return invalidArgument("X and Y have different element types (" + typeName(t) + " and " +
                             typeName(ctx.inputType(2)) + ")");
    if (!kElemTypes.contains(t))
      return invalidArgument("the CUDA kernel does not take " + typeName(t));
    const Dims* ins[] = {&ctx.inputDims(0), &ctx.inputDims(1), &ctx.inputDims(2)};
    PASSLAB_ASSIGN_OR_RETURN(BroadcastPlan plan, planBroadcast(ins));
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor c, ctx.input(0));
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor x, ctx.input(1));
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor y, ctx.input(2));
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor out, ctx.allocate(0, t, plan.out));
    PASSLAB_CUDA_TRY(ew::launchWhere(ir::dtypeBits(t) / 8, c.raw(), x.raw(), y.raw(),
                                     out.mutableRaw(), plan.index, plan.numel, ctx.stream()));
    return Status::ok();
  }
};

// Cast / CastLike between the element types of kElemTypes (cast.cpp's
// rules); other targets run on the CPU.
class CastKernel final : public CudaKernel {
 public:
  static Expected<std::unique_ptr<CudaKernel>> create(const CudaBuild& b, bool likeInput) {
    auto k = std::unique_ptr<CastKernel>(new CastKernel());
    k->likeInput_ = likeInput;
    const ir::Node& n = b.node();
    if (likeInput) {
      DataType to = declaredType(b, 1);
      if (to != DataType::kUndefined && !kElemTypes.contains(to))
        return unsupported("casting to " + typeName(to));
    } else {
      PASSLAB_ASSIGN_OR_RETURN(k->to_, cpu::castTargetType(n));
      if (!kElemTypes.contains(k->to_)) return unsupported("casting to " + typeName(k->to_));
    }
    return std::unique_ptr<CudaKernel>(std::move(k));
  }

  Status run(CudaContext& ctx) override {
    const DataType from = ctx.inputType(0);
    const DataType to = likeInput_ ? ctx.inputType(1) : to_;
    if (!kElemTypes.contains(from))
      return invalidArgument("the CUDA kernel does not cast from " + typeName(from));
    if (!kElemTypes.contains(to))
      return invalidArgument("the CUDA kernel does not cast to " + typeName(to));
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor x, ctx.input(0));
    if (from == to) {
      ctx.setOutput(0, std::move(x));
      return Status::ok();
    }
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor y, ctx.allocate(0, to, x.dims()));
    PASSLAB_CUDA_TRY(ew::launchCast(*elemType(from), *elemType(to), x.raw(), y.mutableRaw(),
                                    x.numel(), ctx.stream()));
    return Status::ok();
  }

 private:
  CastKernel() = default;
  bool likeInput_ = false;
  DataType to_ = DataType::kUndefined;
};

Expected<std::unique_ptr<CudaKernel>> makeCast(const CudaBuild& b) {
  return CastKernel::create(b, false);
}
Expected<std::unique_ptr<CudaKernel>> makeCastLike(const CudaBuild& b) {
  return CastKernel::create(b, true);
}

// Identity takes every type the device stores as plain bytes (not strings).
constexpr TypeSet kIdentityTypes = types::kNumeric | types::kBool;

#define PASSLAB_UNARY_ROW(Op, since, Kind) \
  { "", Op, since, kOpsetMax, kCudaFloats, 0, "cuda." Op, makeUnary<UnaryOp::Kind> }

const CudaKernelDef kRows[] = {
    PASSLAB_UNARY_ROW("Relu", 6, kRelu),
    PASSLAB_UNARY_ROW("Neg", 6, kNeg),
    PASSLAB_UNARY_ROW("Exp", 6, kExp),
    PASSLAB_UNARY_ROW("Sigmoid", 6, kSigmoid),
    PASSLAB_UNARY_ROW("Abs", 1, kAbs),
    PASSLAB_UNARY_ROW("Ceil", 1, kCeil),
    PASSLAB_UNARY_ROW("Floor", 1, kFloor),
    PASSLAB_UNARY_ROW("Round", 11, kRound),
    PASSLAB_UNARY_ROW("Sqrt", 1, kSqrt),
    PASSLAB_UNARY_ROW("Reciprocal", 1, kReciprocal),
    PASSLAB_UNARY_ROW("Log", 1, kLog),
    PASSLAB_UNARY_ROW("Sign", 9, kSign),
    PASSLAB_UNARY_ROW("Erf", 9, kErf),
    PASSLAB_UNARY_ROW("Sin", 7, kSin),
    PASSLAB_UNARY_ROW("Cos", 7, kCos),
    PASSLAB_UNARY_ROW("Tan", 7, kTan),
    PASSLAB_UNARY_ROW("Asin", 7, kAsin),
    PASSLAB_UNARY_ROW("Acos", 7, kAcos),
    PASSLAB_UNARY_ROW("Atan", 7, kAtan),
    PASSLAB_UNARY_ROW("Sinh", 9, kSinh),
    PASSLAB_UNARY_ROW("Cosh", 9, kCosh),
    PASSLAB_UNARY_ROW("Asinh", 9, kAsinh),
    PASSLAB_UNARY_ROW("Acosh", 9, kAcosh),
    PASSLAB_UNARY_ROW("Atanh", 9, kAtanh),
    PASSLAB_UNARY_ROW("Tanh", 1, kTanh),
    PASSLAB_UNARY_ROW("HardSigmoid", 1, kHardSigmoid),
    PASSLAB_UNARY_ROW("HardSwish", 14, kHardSwish),
    PASSLAB_UNARY_ROW("Softplus", 1, kSoftplus),
    PASSLAB_UNARY_ROW("Softsign", 1, kSoftsign),
    PASSLAB_UNARY_ROW("Elu", 1, kElu),
    PASSLAB_UNARY_ROW("Selu", 1, kSelu),
    PASSLAB_UNARY_ROW("Celu", 12, kCelu),
    PASSLAB_UNARY_ROW("LeakyRelu", 1, kLeakyRelu),
    PASSLAB_UNARY_ROW("ThresholdedRelu", 10, kThresholdedRelu),
    PASSLAB_UNARY_ROW("Mish", 18, kMish),
    PASSLAB_UNARY_ROW("Gelu", 20, kGeluErf),
    {"", "Identity", 1, kOpsetMax, kIdentityTypes, 0, "cuda.Identity",
     makeCudaKernel<IdentityKernel>},
    {"", "Clip", 6, kOpsetMax, kCudaFloats, 0, "cuda.Clip", makeCudaKernel<ClipKernel>},
    {"", "Add", 7, kOpsetMax, kArithTypes, 0, "cuda.Add", makeBinary<BinaryOp::kAdd>},
    {"", "Sub", 7, kOpsetMax, kArithTypes, 0, "cuda.Sub", makeBinary<BinaryOp::kSub>},
    {"", "Mul", 7, kOpsetMax, kArithTypes, 0, "cuda.Mul", makeBinary<BinaryOp::kMul>},
    {"", "Div", 7, kOpsetMax, kArithTypes, 0, "cuda.Div", makeBinary<BinaryOp::kDiv>},
    {"", "Pow", 7, kOpsetMax, kCudaFloats, 0, "cuda.Pow", makeBinary<BinaryOp::kPow>},
    {"", "PRelu", 1, kOpsetMax, kCudaFloats, 0, "cuda.PRelu", makeCudaKernel<PReluKernel>},
    {"", "Sum", 6, kOpsetMax, kArithTypes, 0, "cuda.Sum", makeVariadic<BinaryOp::kAdd>},
    {"", "Mean", 6, kOpsetMax, kCudaFloats, 0, "cuda.Mean", makeVariadic<BinaryOp::kAdd, true>},
    {"", "Max", 6, kOpsetMax, kArithTypes, 0, "cuda.Max", makeVariadic<BinaryOp::kMax>},
    {"", "Min", 6, kOpsetMax, kArithTypes, 0, "cuda.Min", makeVariadic<BinaryOp::kMin>},
    {"", "Equal", 7, kOpsetMax, kElemTypes, 0, "cuda.Equal", makeBinary<BinaryOp::kEqual>},
    {"", "Less", 7, kOpsetMax, kCompareTypes, 0, "cuda.Less", makeBinary<BinaryOp::kLess>},
    {"", "LessOrEqual", 12, kOpsetMax, kCompareTypes, 0, "cuda.LessOrEqual",
     makeBinary<BinaryOp::kLessOrEqual>},
    {"", "Greater", 7, kOpsetMax, kCompareTypes, 0, "cuda.Greater", makeBinary<BinaryOp::kGreater>},
    {"", "GreaterOrEqual", 12, kOpsetMax, kCompareTypes, 0, "cuda.GreaterOrEqual",
     makeBinary<BinaryOp::kGreaterOrEqual>},
    {"", "And", 7, kOpsetMax, kBoolType, 0, "cuda.And", makeBinary<BinaryOp::kAnd>},
    {"", "Or", 7, kOpsetMax, kBoolType, 0, "cuda.Or", makeBinary<BinaryOp::kOr>},
    {"", "Xor", 7, kOpsetMax, kBoolType, 0, "cuda.Xor", makeBinary<BinaryOp::kXor>},
    {"", "Not", 1, kOpsetMax, kBoolType, 0, "cuda.Not", makeCudaKernel<NotKernel>},
    // Dispatch on X (input 1): the condition is always bool.
    {"", "Where", 9, kOpsetMax, kElemTypes, 1, "cuda.Where", makeCudaKernel<WhereKernel>},
    {"", "Cast", 1, kOpsetMax, kElemTypes, 0, "cuda.Cast", makeCast},
    {"", "CastLike", 15, kOpsetMax, kElemTypes, 0, "cuda.CastLike", makeCastLike},
};

#undef PASSLAB_UNARY_ROW

}  // namespace

std::span<const CudaKernelDef> elementwiseKernels() {
  return kRows;
}

}  // namespace passlab::exec::cuda
