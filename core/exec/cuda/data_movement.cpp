// Data movement on the GPU, mirroring the CPU kernels (core/exec/cpu/
// shape_ops.cpp, transpose.cpp, indexing.cpp, block_copy.cpp, expand.cpp,
// pad.cpp; Resize in resize.cpp, the views Reshape, Flatten, Squeeze and
// Unsqueeze in shape_views.cpp): copies that move elements by their size (every
// whole-byte type): Transpose, DepthToSpace / SpaceToDepth, Concat, Split,
// Slice, Gather, Expand, Tile, Pad. Shape arguments (Reshape's shape, Slice's
// starts, pads, repeats) are read on the host; Gather's indices on the device.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "core/exec/broadcast.h"
#include "core/exec/cpu/copy_rules.h"
#include "core/exec/cpu/data_util.h"
#include "core/exec/cuda/cuda_check.h"
#include "core/exec/cuda/cuda_families.h"
#include "core/exec/cuda/data_movement_kernels.h"
#include "core/exec/cuda/data_movement_launch.h"
#include "core/exec/cuda/data_movement_plan.h"

namespace passlab::exec::cuda {

Expected<std::vector<int64_t>> hostInts(CudaContext& ctx, size_t i, const char* what) {
  PASSLAB_ASSIGN_OR_RETURN(Tensor t, ctx.hostInput(i));
  return cpu::readInts(t, what);
}

Status launchStatus(int code, const char* what) {
  if (code != 0) return fromCuda(code, what);
  return Status::ok();
}

Expected<int> moveSize(ir::DataType t, const char* op) {
  size_t es = cpu::elementSize(t);
  if (es != 1 && es != 2 && es != 4 && es != 8)
    return unsupported(std::string(op) + " of " + std::string(ir::dtypeName(t)) + " elements");
  return static_cast<int>(es);
}

Expected<uint64_t> valueBits(ir::DataType t, double v, bool roundInts) {
  uint64_t bits = 0;
  bool done = false;
  Status st = dispatch<types::kNumeric | types::kBool>(t, [&](auto tag) -> Status {
    using S = typename decltype(tag)::type;
    S s;
    if constexpr (std::is_integral_v<S> && !std::is_same_v<S, bool>) {
      if (roundInts) {
        double r = std::nearbyint(v);
        r = std::clamp(r, static_cast<double>(std::numeric_limits<S>::min()),
                       static_cast<double>(std::numeric_limits<S>::max()));
        s = static_cast<S>(r);
      } else {
        s = store<S>(static_cast<ComputeT<S>>(v));
      }
    } else {
      s = store<S>(static_cast<ComputeT<S>>(v));
    }
    std::memcpy(&bits, &s, sizeof(S));
    done = true;
    return Status::ok();
  });
  if (!done) {  // a type without a numeric conversion here (float8): zero only
    if (v == 0) return uint64_t{0};
    return unsupported("a fill value for " + std::string(ir::dtypeName(t)) + " elements");
  }
  if (!st) return st.error();
  return bits;
}

namespace {

// Whole-byte element types the copies take (no strings).
constexpr TypeSet kMovable =
    types::kNumeric | types::kBool |
    TypeSet{ir::DataType::kFloat8E4M3FN, ir::DataType::kFloat8E4M3FNUZ, ir::DataType::kFloat8E5M2,
            ir::DataType::kFloat8E5M2FNUZ, ir::DataType::kFloat8E8M0};

// Runs a strided plan from x into a new output 0 of `dims`.
Status stridedInto(CudaContext& ctx, const DeviceTensor& x, const StridedPlan& plan, Dims dims,
                   const char* op) {
  PASSLAB_ASSIGN_OR_RETURN(int es, moveSize(x.dtype(), op));
  PASSLAB_ASSIGN_OR_RETURN(MoveStrides s, toMoveStrides(plan));
  PASSLAB_ASSIGN_OR_RETURN(DeviceTensor y, ctx.allocate(0, x.dtype(), std::move(dims)));
  if (y.numel() == 0) return Status::ok();
  return launchStatus(launchStridedCopy(x.raw(), y.mutableRaw(), es, s, y.numel(),
                                        !plan.mods.empty(), ctx.stream()),
                      op);
}

// ---- copies ----

class Transpose final : public CudaKernel {
 public:
  static Expected<std::unique_ptr<CudaKernel>> create(const CudaBuild& b) {
    std::vector<int64_t> perm = b.node().attrInts("perm");
    if (perm.size() > static_cast<size_t>(kMaxMoveRank))
      return unsupported("Transpose of rank " + std::to_string(perm.size()) + " (at most " +
                         std::to_string(kMaxMoveRank) + ")");
    return std::unique_ptr<CudaKernel>(new Transpose(std::move(perm)));
  }

  Status run(CudaContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor x, ctx.input(0));
    PASSLAB_ASSIGN_OR_RETURN(cpu::TransposeShape t,
                             cpu::transposeShape(x.dims(), perm_, [&] { return x.describe(); }));
    return stridedInto(ctx, x, transposePlan(x.dims(), t.perm), std::move(t.out), "Transpose");
  }

 private:
  explicit Transpose(std::vector<int64_t> perm) : perm_(std::move(perm)) {}
  std::vector<int64_t> perm_;
};

// DepthToSpace (DCR or CRD) and SpaceToDepth on [N, C, H, W].
template <bool kToSpace>
class SpaceDepth final : public CudaKernel {
 public:
  explicit SpaceDepth(const CudaBuild& b)
      : block_(b.node().attrInt("blocksize", 0)),
        crd_(b.node().attrString("mode", "DCR") == "CRD") {}

  Status run(CudaContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor x, ctx.input(0));
    if (x.rank() != 4) return invalidArgument("input must be 4-D, got " + x.describe());
    if (block_ < 1) return invalidArgument("blocksize must be positive");
    const int64_t N = x.dim(0), C = x.dim(1), H = x.dim(2), W = x.dim(3), b = block_;
    PASSLAB_ASSIGN_OR_RETURN(cpu::SpaceDepthShape s,
                             cpu::spaceDepthShape(kToSpace, crd_, N, C, H, W, b));
    return stridedInto(ctx, x, transposePlan(s.view, s.perm), std::move(s.out),
                       kToSpace ? "DepthToSpace" : "SpaceToDepth");
  }

 private:
  int64_t block_;
  bool crd_;
};

class Concat final : public CudaKernel {
 public:
  explicit Concat(const CudaBuild& b) : axis_(b.node().attrInt("axis", 1)) {}

  Status run(CudaContext& ctx) override {
    std::vector<DeviceTensor> xs;
    for (size_t i = 0; i < ctx.inputCount(); ++i) {
      if (!ctx.has(i)) continue;
      PASSLAB_ASSIGN_OR_RETURN(DeviceTensor x, ctx.input(i));
      xs.push_back(std::move(x));
    }
    if (xs.empty()) return invalidArgument("no inputs");
    const DeviceTensor& first = xs[0];
    PASSLAB_ASSIGN_OR_RETURN(int es, moveSize(first.dtype(), "Concat"));
    auto rank = static_cast<int64_t>(first.rank());
    std::vector<const DeviceTensor*> ptrs;
    for (const DeviceTensor& x : xs) ptrs.push_back(&x);
    PASSLAB_ASSIGN_OR_RETURN(cpu::ConcatShape shape, cpu::concatShape(ptrs, axis_));
    const int64_t axis = shape.axis;
    const Dims& out = shape.out;
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor y, ctx.allocate(0, first.dtype(), out));
    if (y.numel() == 0) return Status::ok();
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < axis; ++d) outer *= out[static_cast<size_t>(d)];
    for (int64_t d = axis + 1; d < rank; ++d) inner *= out[static_cast<size_t>(d)];
    const int64_t outBlock = out[static_cast<size_t>(axis)] * inner;
    int64_t at = 0;
    for (const DeviceTensor& x : xs) {
      const int64_t block = x.dim(static_cast<size_t>(axis)) * inner;
      auto* dst = static_cast<std::byte*>(y.mutableRaw()) + at * es;
      PASSLAB_RETURN_IF_ERROR(launchStatus(
          launchCopyRows(x.raw(), block, dst, outBlock, outer, block, es, ctx.stream()), "Concat"));
      at += block;
    }
    return Status::ok();
  }

 private:
  int64_t axis_;
};

class Split final : public CudaKernel {
 public:
  explicit Split(const CudaBuild& b)
      : opset_(b.opset()),
        axis_(b.node().attrInt("axis", 0)),
        attrSplit_(b.node().attrInts("split")),
        numOutputs_(b.node().attrInt("num_outputs", 0)) {}

  Status run(CudaContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor x, ctx.input(0));
    PASSLAB_ASSIGN_OR_RETURN(int es, moveSize(x.dtype(), "Split"));
    PASSLAB_ASSIGN_OR_RETURN(int64_t axis,
                             cpu::normalizeAxis(axis_, static_cast<int64_t>(x.rank())));
    const int64_t n = x.dim(static_cast<size_t>(axis));
    const auto outputs = static_cast<int64_t>(ctx.outputCount());
    std::vector<int64_t> split = attrSplit_;
    if ((opset_ >= 13 || opset_ == 1) && ctx.has(1)) {
      PASSLAB_ASSIGN_OR_RETURN(split, hostInts(ctx, 1, "split"));
    }
    PASSLAB_ASSIGN_OR_RETURN(split, cpu::splitLengths(n, axis, outputs, std::move(split),
                                                      numOutputs_, [&] { return x.describe(); }));
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < axis; ++d) outer *= x.dim(static_cast<size_t>(d));
    for (size_t d = static_cast<size_t>(axis) + 1; d < x.rank(); ++d) inner *= x.dim(d);
    int64_t at = 0;
    for (size_t i = 0; i < split.size(); ++i) {
      const int64_t len = split[i];
      if (ctx.wantsOutput(i)) {
        Dims out = x.dims();
        out[static_cast<size_t>(axis)] = len;
        PASSLAB_ASSIGN_OR_RETURN(DeviceTensor y, ctx.allocate(i, x.dtype(), out));
        if (y.numel() > 0) {
          const auto* src = static_cast<const std::byte*>(x.raw()) + at * inner * es;
          PASSLAB_RETURN_IF_ERROR(
              launchStatus(launchCopyRows(src, n * inner, y.mutableRaw(), len * inner, outer,
                                          len * inner, es, ctx.stream()),
                           "Split"));
        }
      }
      at += len;
    }
    return Status::ok();
  }

 private:
  int64_t opset_, axis_;
  std::vector<int64_t> attrSplit_;
  int64_t numOutputs_;
};

class Slice final : public CudaKernel {
 public:
  explicit Slice(const CudaBuild& b)
      : legacy_(b.opset() < 10 && b.node().opType() != "DynamicSlice"),
        starts_(b.node().attrInts("starts")),
        ends_(b.node().attrInts("ends")),
        axes_(b.node().attrInts("axes")) {}

  Status run(CudaContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor x, ctx.input(0));
    std::vector<int64_t> starts = starts_, ends = ends_, axes = axes_, steps;
    if (!legacy_) {
      PASSLAB_ASSIGN_OR_RETURN(starts, hostInts(ctx, 1, "starts"));
      PASSLAB_ASSIGN_OR_RETURN(ends, hostInts(ctx, 2, "ends"));
      axes.clear();
      if (ctx.has(3)) {
        PASSLAB_ASSIGN_OR_RETURN(axes, hostInts(ctx, 3, "axes"));
      }
      if (ctx.has(4)) {
        PASSLAB_ASSIGN_OR_RETURN(steps, hostInts(ctx, 4, "steps"));
      }
    }
    PASSLAB_ASSIGN_OR_RETURN(SliceResult r,
                             slicePlan(x.dims(), starts, ends, std::move(axes), std::move(steps)));
    return stridedInto(ctx, x, r.plan, std::move(r.out), "Slice");
  }

 private:
  bool legacy_;
  std::vector<int64_t> starts_, ends_, axes_;
};

class Gather final : public CudaKernel {
 public:
  explicit Gather(const CudaBuild& b) : axis_(b.node().attrInt("axis", 0)) {}

  Status run(CudaContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor data, ctx.input(0));
    PASSLAB_ASSIGN_OR_RETURN(int es, moveSize(data.dtype(), "Gather"));
    const ir::DataType it = ctx.inputType(1);
    if (it != ir::DataType::kInt64 && it != ir::DataType::kInt32)
      return invalidArgument("indices must be int64 or int32, got " +
                             std::string(ir::dtypeName(it)));
    auto rank = static_cast<int64_t>(data.rank());
    PASSLAB_ASSIGN_OR_RETURN(int64_t axis, cpu::normalizeAxis(axis_, rank));
    const int64_t n = data.dim(static_cast<size_t>(axis));
    // Indices that stay the same are checked once on the host, with the CPU's
    // message; others on the device, reported after the step (device_checks.h).
    const bool invariant = ctx.invariantInput(1);
    if (invariant && checkedAxisSize_ != n) {
      PASSLAB_ASSIGN_OR_RETURN(std::vector<int64_t> indices, hostInts(ctx, 1, "indices"));
      for (int64_t i : indices)
        if (i < -n || i >= n)
          return invalidArgument("index " + std::to_string(i) + " is out of range for axis " +
                                 std::to_string(axis) + " of size " + std::to_string(n) +
                                 " (data " + data.describe() + ")");
      checkedAxisSize_ = n;
    }
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor idx, ctx.input(1));
    Dims out(data.dims().begin(), data.dims().begin() + axis);
    out.insert(out.end(), idx.dims().begin(), idx.dims().end());
    out.insert(out.end(), data.dims().begin() + axis + 1, data.dims().end());
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor y, ctx.allocate(0, data.dtype(), out));
    if (y.numel() == 0) return Status::ok();
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < axis; ++d) outer *= data.dim(static_cast<size_t>(d));
    for (int64_t d = axis + 1; d < rank; ++d) inner *= data.dim(static_cast<size_t>(d));
    int64_t* outOfRange = nullptr;
    if (!invariant) {
      PASSLAB_ASSIGN_OR_RETURN(outOfRange, ctx.rangeCheck(axis, n, data));
    }
    return launchStatus(
        launchGather(data.raw(), idx.raw(), it == ir::DataType::kInt64, y.mutableRaw(), es, outer,
                     n, idx.numel(), inner, ctx.stream(), outOfRange),
        "Gather");
  }

 private:
  int64_t axis_;
  int64_t checkedAxisSize_ = -1;
};

class Expand final : public CudaKernel {
 public:
  Status run(CudaContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor x, ctx.input(0));
    PASSLAB_ASSIGN_OR_RETURN(Tensor s, ctx.hostInput(1));
    PASSLAB_ASSIGN_OR_RETURN(Dims dims, cpu::expandDims(x.dims(), s));
    return stridedInto(ctx, x, expandPlan(x.dims(), dims), dims, "Expand");
  }
};

class Tile final : public CudaKernel {
 public:
  explicit Tile(const CudaBuild& b) : legacy_(b.opset() < 6) {}

  Status run(CudaContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor x, ctx.input(0));
    std::vector<int64_t> repeats;
    if (legacy_) {
      PASSLAB_ASSIGN_OR_RETURN(std::vector<int64_t> tiles, hostInts(ctx, 1, "tiles"));
      PASSLAB_ASSIGN_OR_RETURN(std::vector<int64_t> axisV, hostInts(ctx, 2, "axis"));
      if (tiles.size() != 1 || axisV.size() != 1)
        return invalidArgument("tiles and axis must be scalars");
      PASSLAB_ASSIGN_OR_RETURN(int64_t axis,
                               cpu::normalizeAxis(axisV[0], static_cast<int64_t>(x.rank())));
      repeats.assign(x.rank(), 1);
      repeats[static_cast<size_t>(axis)] = tiles[0];
    } else {
      PASSLAB_ASSIGN_OR_RETURN(repeats, hostInts(ctx, 1, "repeats"));
    }
    if (repeats.size() != x.rank())
      return invalidArgument("repeats has " + std::to_string(repeats.size()) + " values for " +
                             x.describe());
    for (int64_t r : repeats)
      if (r < 0)
        return invalidArgument("repeats " + dimsToString(repeats) + " has a negative value");
    StridedPlan plan = tilePlan(x.dims(), repeats);
    Dims out = x.rank() == 0 ? Dims{} : plan.dims;
    return stridedInto(ctx, x, plan, std::move(out), "Tile");
  }

 private:
  bool legacy_;
};

class Pad final : public CudaKernel {
 public:
  static Expected<std::unique_ptr<CudaKernel>> create(const CudaBuild& b) {
    PASSLAB_ASSIGN_OR_RETURN(cpu::PadMode mode, cpu::parsePadMode(b.node()));
    return std::unique_ptr<CudaKernel>(new Pad(b, static_cast<int>(mode)));
  }

  Status run(CudaContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor x, ctx.input(0));
    PASSLAB_ASSIGN_OR_RETURN(int es, moveSize(x.dtype(), "Pad"));
    std::vector<int64_t> pads = attrPads_;
    if (!legacy_) {
      PASSLAB_ASSIGN_OR_RETURN(pads, hostInts(ctx, 1, "pads"));
    }
    std::vector<int64_t> axes;
    if (!legacy_ && ctx.has(3)) {
      PASSLAB_ASSIGN_OR_RETURN(axes, hostInts(ctx, 3, "axes"));
    }
    PASSLAB_ASSIGN_OR_RETURN(
        cpu::PadShape shape,
        cpu::padShape(x.dims(), pads, !legacy_ && ctx.has(3) ? &axes : nullptr,
                      static_cast<cpu::PadMode>(mode_), [&] { return x.describe(); }));
    const Dims& padBegin = shape.padBegin;
    const Dims& out = shape.out;
    if (x.rank() > static_cast<size_t>(kMaxMoveRank))
      return unsupported("Pad of rank " + std::to_string(x.rank()));
    // The fill: the constant_value input (opset 11+), else the legacy `value`.
    uint64_t fill = 0;
    if (!legacy_ && ctx.has(2) && numelOf(ctx.inputDims(2)) > 0) {
      if (ctx.inputType(2) != x.dtype())
        return invalidArgument("constant_value must have the input's type");
      PASSLAB_ASSIGN_OR_RETURN(Tensor c, ctx.hostInput(2));
      std::memcpy(&fill, c.raw(), static_cast<size_t>(es));
    } else if (legacy_) {
      PASSLAB_ASSIGN_OR_RETURN(fill, valueBits(x.dtype(), value_, false));
    }
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor y, ctx.allocate(0, x.dtype(), out));
    if (y.numel() == 0) return Status::ok();
    if (x.rank() == 0) {
      MoveStrides s;
      s.rank = 1;
      s.dims[0] = 1;
      s.strides[0] = 1;
      return launchStatus(launchStridedCopy(x.raw(), y.mutableRaw(), es, s, 1, false, ctx.stream()),
                          "Pad");
    }
    PadArgs a;
    a.rank = static_cast<int>(x.rank());
    a.mode = mode_;
    for (size_t d = 0; d < x.rank(); ++d) {
      a.inDims[d] = x.dim(d);
      a.outDims[d] = out[d];
      a.padBegin[d] = padBegin[d];
    }
    return launchStatus(launchPad(x.raw(), y.mutableRaw(), es, a, fill, y.numel(), ctx.stream()),
                        "Pad");
  }

 private:
  Pad(const CudaBuild& b, int mode)
      : mode_(mode),
        legacy_(b.opset() < 11),
        attrPads_(b.node().attrInts("pads")),
        value_(b.node().attrFloat("value", 0.0f)) {}

  int mode_;
  bool legacy_;
  std::vector<int64_t> attrPads_;
  float value_;
};

const CudaKernelDef kRows[] = {
    {"", "Reshape", 5, kOpsetMax, kMovable, 0, "cuda.Reshape", makeReshapeKernel},
    {"", "Flatten", 1, kOpsetMax, kMovable, 0, "cuda.Flatten", makeFlattenKernel},
    {"", "Unsqueeze", 1, kOpsetMax, kMovable, 0, "cuda.Unsqueeze", makeUnsqueezeKernel},
    {"", "Squeeze", 1, kOpsetMax, kMovable, 0, "cuda.Squeeze", makeSqueezeKernel},
    {"", "Transpose", 1, kOpsetMax, kMovable, 0, "cuda.Transpose", makeCudaKernel<Transpose>},
    {"", "DepthToSpace", 1, kOpsetMax, kMovable, 0, "cuda.DepthToSpace",
     makeCudaKernel<SpaceDepth<true>>},
    {"", "SpaceToDepth", 1, kOpsetMax, kMovable, 0, "cuda.SpaceToDepth",
     makeCudaKernel<SpaceDepth<false>>},
    {"", "Concat", 1, kOpsetMax, kMovable, 0, "cuda.Concat", makeCudaKernel<Concat>},
    {"", "Split", 1, kOpsetMax, kMovable, 0, "cuda.Split", makeCudaKernel<Split>},
    {"", "Slice", 1, kOpsetMax, kMovable, 0, "cuda.Slice", makeCudaKernel<Slice>},
    {"", "DynamicSlice", 1, kOpsetMax, kMovable, 0, "cuda.DynamicSlice", makeCudaKernel<Slice>},
    {"", "Gather", 1, kOpsetMax, kMovable, 0, "cuda.Gather", makeCudaKernel<Gather>},
    {"", "Expand", 8, kOpsetMax, kMovable, 0, "cuda.Expand", makeCudaKernel<Expand>},
    {"", "Tile", 1, kOpsetMax, kMovable, 0, "cuda.Tile", makeCudaKernel<Tile>},
    {"", "Pad", 2, kOpsetMax, kMovable, 0, "cuda.Pad", makeCudaKernel<Pad>},
    {"", "Resize", 10, kOpsetMax, types::kNumeric, 0, "cuda.Resize", makeResizeKernel},
    {"", "Upsample", 7, kOpsetMax, types::kNumeric, 0, "cuda.Upsample", makeUpsampleKernel},
};

}  // namespace

std::span<const CudaKernelDef> dataMovementKernels() {
  return kRows;
}

}  // namespace passlab::exec::cuda
