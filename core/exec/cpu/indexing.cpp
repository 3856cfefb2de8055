// Concat, Gather and Slice: copies of blocks chosen by index.
#include <algorithm>
#include <cstring>

#include "core/exec/cpu/copy_rules.h"
#include "core/exec/cpu/data_util.h"
#include "core/exec/cpu/families.h"
#include "core/exec/cpu/strided_copy.h"
#include "core/exec/cpu/transpose.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

class Concat final : public Kernel {
 public:
  explicit Concat(const KernelBuild& b) : axis_(b.node().attrInt("axis", 1)) {}

  Status run(KernelContext& ctx) override {
    std::vector<const Tensor*> xs;
    for (size_t i = 0; i < ctx.inputCount(); ++i)
      if (ctx.has(i)) xs.push_back(&ctx.input(i));
    if (xs.empty()) return invalidArgument("no inputs");
    const Tensor& first = *xs[0];
    if (!movable(first.dtype())) return unsupported("Concat of " + first.describe());
    auto rank = static_cast<int64_t>(first.rank());
    PASSLAB_ASSIGN_OR_RETURN(ConcatShape shape, concatShape(xs, axis_));
    const int64_t axis = shape.axis;
    const Dims& out = shape.out;
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, first.dtype(), out));
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < axis; ++d) outer *= out[static_cast<size_t>(d)];
    for (int64_t d = axis + 1; d < rank; ++d) inner *= out[static_cast<size_t>(d)];
    const int64_t outBlock = out[static_cast<size_t>(axis)] * inner;
    std::vector<int64_t> offsets;
    int64_t acc = 0;
    for (const Tensor* x : xs) {
      offsets.push_back(acc);
      acc += x->dim(static_cast<size_t>(axis)) * inner;
    }
    if (outer == 1) dropPartsInPlace(xs, offsets, *y);
    if (xs.empty()) return Status::ok();
    std::vector<Tensor> copies;
    readOverlapsFromCopies(xs, copies, *y);
    const size_t es = elementSize(y->dtype());
    if (es > 0) {
      // Rows [b, e) of every input: one strided copy per input (strided_copy.h).
      auto* out = static_cast<std::byte*>(y->mutableRaw());
      parallelFor(outer, ctx.threads(), std::max<int64_t>(1, kElementwiseGrain / (outBlock + 1)),
                  [&](int64_t b, int64_t e) {
                    for (size_t i = 0; i < xs.size(); ++i) {
                      const int64_t block = xs[i]->dim(static_cast<size_t>(axis)) * inner;
                      if (block == 0) continue;
                      const auto* in = static_cast<const std::byte*>(xs[i]->raw());
                      copyRows(in + static_cast<size_t>(b * block) * es,
                               static_cast<int64_t>(static_cast<size_t>(block) * es),
                               out + static_cast<size_t>(b * outBlock + offsets[i]) * es,
                               static_cast<int64_t>(static_cast<size_t>(outBlock) * es),
                               static_cast<size_t>(block) * es, e - b);
                    }
                  });
      return Status::ok();
    }
    const auto jobs = static_cast<int64_t>(outer * static_cast<int64_t>(xs.size()));
    parallelFor(jobs, ctx.threads(), std::max<int64_t>(1, kElementwiseGrain / (outBlock + 1)),
                [&](int64_t b, int64_t e) {
                  for (int64_t j = b; j < e; ++j) {
                    int64_t o = j / static_cast<int64_t>(xs.size());
                    size_t i = static_cast<size_t>(j % static_cast<int64_t>(xs.size()));
                    int64_t block = xs[i]->dim(static_cast<size_t>(axis)) * inner;
                    copyElements(*xs[i], o * block, *y, o * outBlock + offsets[i], block);
                  }
                });
    return Status::ok();
  }

 private:
  // Drops the inputs (and their offsets) whose data already is their range of
  // `y`: the memory plan had them written there (a Concat part, memory_plan.h).
  static void dropPartsInPlace(std::vector<const Tensor*>& xs, std::vector<int64_t>& offsets,
                               const Tensor& y) {
    const auto* out = static_cast<const std::byte*>(y.raw());
    size_t kept = 0;
    for (size_t i = 0; i < xs.size(); ++i) {
      const auto at = static_cast<uint64_t>(offsets[i]);
      bool inPlace = xs[i]->dtype() == y.dtype() && ir::dtypeBits(y.dtype()) % 8 == 0 &&
                     xs[i]->raw() == out + ir::dtypeStorageBytes(y.dtype(), at);
      if (inPlace) continue;
      xs[kept] = xs[i];
      offsets[kept] = offsets[i];
      ++kept;
    }
    xs.resize(kept);
    offsets.resize(kept);
  }

  // Inputs that lie inside `y`'s memory but not at their place (a plan that
  // did not know the run's dims) are read from copies: writing `y` would
  // overwrite them.
  static void readOverlapsFromCopies(std::vector<const Tensor*>& xs, std::vector<Tensor>& copies,
                                     const Tensor& y) {
    const auto* begin = static_cast<const std::byte*>(y.raw());
    const auto* end = begin + y.byteSize();
    copies.reserve(xs.size());
    for (const Tensor*& x : xs) {
      const auto* at = static_cast<const std::byte*>(x->raw());
      if (x->byteSize() == 0 || at + x->byteSize() <= begin || at >= end) continue;
      copies.push_back(Tensor::zeros(x->dtype(), x->dims()));
      std::memcpy(copies.back().mutableRaw(), x->raw(), x->byteSize());
      x = &copies.back();
    }
  }

 private:
  int64_t axis_;
};

class Gather final : public Kernel {
 public:
  explicit Gather(const KernelBuild& b) : axis_(b.node().attrInt("axis", 0)) {}

  Status run(KernelContext& ctx) override {
    const Tensor& data = ctx.input(0);
    const Tensor& idx = ctx.input(1);
    if (!movable(data.dtype())) return unsupported("Gather of " + data.describe());
    auto rank = static_cast<int64_t>(data.rank());
    PASSLAB_ASSIGN_OR_RETURN(int64_t axis, normalizeAxis(axis_, rank));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int64_t> indices, readInts(idx, "indices"));
    const int64_t n = data.dim(static_cast<size_t>(axis));
    for (int64_t& i : indices) {
      if (i < -n || i >= n)
        return invalidArgument("index " + std::to_string(i) + " is out of range for axis " +
                               std::to_string(axis) + " of size " + std::to_string(n) + " (data " +
                               data.describe() + ")");
      if (i < 0) i += n;
    }
    Dims out(data.dims().begin(), data.dims().begin() + axis);
    out.insert(out.end(), idx.dims().begin(), idx.dims().end());
    out.insert(out.end(), data.dims().begin() + axis + 1, data.dims().end());
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, data.dtype(), out));
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < axis; ++d) outer *= data.dim(static_cast<size_t>(d));
    for (int64_t d = axis + 1; d < rank; ++d) inner *= data.dim(static_cast<size_t>(d));
    const auto count = static_cast<int64_t>(indices.size());
    parallelFor(outer * count, ctx.threads(), std::max<int64_t>(1, kElementwiseGrain / (inner + 1)),
                [&](int64_t b, int64_t e) {
                  for (int64_t j = b; j < e; ++j) {
                    int64_t o = j / count, k = j % count;
                    copyElements(data, (o * n + indices[static_cast<size_t>(k)]) * inner, *y,
                                 j * inner, inner);
                  }
                });
    return Status::ok();
  }

 private:
  int64_t axis_;
};

class Slice final : public Kernel {
 public:
  explicit Slice(const KernelBuild& b)
      : legacy_(b.opset() < 10 && b.node().opType() != "DynamicSlice"),
        starts_(b.node().attrInts("starts")),
        ends_(b.node().attrInts("ends")),
        axes_(b.node().attrInts("axes")) {}

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    if (!movable(x.dtype())) return unsupported("Slice of " + x.describe());
    std::vector<int64_t> starts = starts_, ends = ends_, axes = axes_, steps;
    if (!legacy_) {
      PASSLAB_ASSIGN_OR_RETURN(starts, readInts(ctx.input(1), "starts"));
      PASSLAB_ASSIGN_OR_RETURN(ends, readInts(ctx.input(2), "ends"));
      if (ctx.has(3)) {
        PASSLAB_ASSIGN_OR_RETURN(axes, readInts(ctx.input(3), "axes"));
      } else {
        axes.clear();
      }
      if (ctx.has(4)) {
        PASSLAB_ASSIGN_OR_RETURN(steps, readInts(ctx.input(4), "steps"));
      }
    }
    PASSLAB_ASSIGN_OR_RETURN(
        SliceWindow w, sliceWindow(x.dims(), starts, ends, std::move(axes), std::move(steps)));
    const Dims &begin = w.begin, &step = w.step, &out = w.out;
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), out));
    if (y->numel() == 0) return Status::ok();
    std::vector<int64_t> inStrides(x.rank(), 1), srcStrides(x.rank());
    for (size_t i = x.rank(); i-- > 1;) inStrides[i - 1] = inStrides[i] * x.dim(i);
    int64_t base = 0;
    for (size_t i = 0; i < x.rank(); ++i) {
      base += begin[i] * inStrides[i];
      srcStrides[i] = step[i] * inStrides[i];
    }
    stridedCopy(x, base, srcStrides, *y, ctx.threads());
    return Status::ok();
  }

 private:
  bool legacy_;
  std::vector<int64_t> starts_, ends_, axes_;
};

const KernelDef kRows[] = {
    {"", "Concat", 1, kOpsetMax, types::kAll, 0, Tier::kReference, "cpu.Concat",
     makeKernel<Concat>},
    {"", "Gather", 1, kOpsetMax, types::kAll, 0, Tier::kReference, "cpu.Gather",
     makeKernel<Gather>},
    {"", "Slice", 1, kOpsetMax, types::kAll, 0, Tier::kReference, "cpu.Slice", makeKernel<Slice>},
    // The removed experimental DynamicSlice: Slice-10's inputs without steps, any opset.
    {"", "DynamicSlice", 1, kOpsetMax, types::kAll, 0, Tier::kReference, "cpu.DynamicSlice",
     makeKernel<Slice>},
};

}  // namespace

std::span<const KernelDef> indexingKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
