// Pad: constant, reflect, edge and wrap modes; negative pads crop.
#include <algorithm>
#include <cstring>
#include <string>

#include "core/exec/cpu/copy_rules.h"
#include "core/exec/cpu/data_util.h"
#include "core/exec/cpu/families.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

using Mode = PadMode;

// Source index for position i (relative to the input's start) of a dim of size n; -1: constant.
int64_t mapIndex(Mode mode, int64_t i, int64_t n) {
  if (i >= 0 && i < n) return i;
  switch (mode) {
    case Mode::kConstant:
      return -1;
    case Mode::kEdge:
      return i < 0 ? 0 : n - 1;
    case Mode::kWrap:
      return ((i % n) + n) % n;
    case Mode::kReflect: {
      if (n == 1) return 0;
      int64_t period = 2 * (n - 1);
      int64_t m = ((i % period) + period) % period;
      return m >= n ? period - m : m;
    }
  }
  return -1;
}

template <class E>
void padLoop(const E* x, E* y, const Dims& in, const Dims& out, const Dims& padBegin, Mode mode,
             const E& fill, int threads) {
  const size_t rank = in.size();
  const int64_t innerOut = out[rank - 1], innerIn = in[rank - 1];
  std::vector<int64_t> lastMap(static_cast<size_t>(innerOut));
  for (int64_t j = 0; j < innerOut; ++j)
    lastMap[static_cast<size_t>(j)] = mapIndex(mode, j - padBegin[rank - 1], innerIn);
  // Output positions [lo, hi) of the last axis read the input row contiguously
  // from lo - padBegin: one copy; the rest (the pads) through lastMap.
  const int64_t pb = padBegin[rank - 1];
  const int64_t lo = std::clamp<int64_t>(pb, 0, innerOut);
  const int64_t hi = std::clamp<int64_t>(pb + innerIn, lo, innerOut);
  int64_t rows = 1;
  for (size_t d = 0; d + 1 < rank; ++d) rows *= out[d];
  parallelFor(rows, threads, std::max<int64_t>(1, kElementwiseGrain / (innerOut + 1)),
              [&](int64_t b, int64_t e) {
                for (int64_t r = b; r < e; ++r) {
                  // Source row offset, or -1 when the row lies in constant padding.
                  int64_t rest = r, src = 0, stride = innerIn;
                  for (size_t d = rank - 1; d-- > 0;) {
                    int64_t o = rest % out[d];
                    rest /= out[d];
                    int64_t i = mapIndex(mode, o - padBegin[d], in[d]);
                    if (i < 0 || src < 0) {
                      src = -1;
                    } else {
                      src += i * stride;
                    }
                    stride *= in[d];
                  }
                  E* yr = y + r * innerOut;
                  if (src < 0 || innerIn == 0) {
                    for (int64_t j = 0; j < innerOut; ++j) yr[j] = fill;
                    continue;
                  }
                  const E* xr = x + src;
                  auto edge = [&](int64_t j0, int64_t j1) {
                    for (int64_t j = j0; j < j1; ++j) {
                      int64_t k = lastMap[static_cast<size_t>(j)];
                      yr[j] = k < 0 ? fill : xr[k];
                    }
                  };
                  edge(0, lo);
                  std::copy(xr + (lo - pb), xr + (hi - pb), yr + lo);
                  edge(hi, innerOut);
                }
              });
}

class Pad final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    PASSLAB_ASSIGN_OR_RETURN(Mode mode, parsePadMode(b.node()));
    return std::unique_ptr<Kernel>(new Pad(b, mode));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    if (!movable(x.dtype())) return unsupported("Pad of " + x.describe());
    std::vector<int64_t> pads = attrPads_;
    if (!legacy_) {
      PASSLAB_ASSIGN_OR_RETURN(pads, readInts(ctx.input(1), "pads"));
    }
    std::vector<int64_t> axes;
    if (!legacy_ && ctx.has(3)) {
      PASSLAB_ASSIGN_OR_RETURN(axes, readInts(ctx.input(3), "axes"));
    }
    PASSLAB_ASSIGN_OR_RETURN(
        PadShape shape, padShape(x.dims(), pads, !legacy_ && ctx.has(3) ? &axes : nullptr, mode_,
                                 [&] { return x.describe(); }));
    const Dims& padBegin = shape.padBegin;
    const Dims& out = shape.out;
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), out));
    if (y->numel() == 0) return Status::ok();
    if (x.rank() == 0) {
      copyElements(x, 0, *y, 0, 1);
      return Status::ok();
    }
    const Tensor* constant =
        !legacy_ && ctx.has(2) && ctx.input(2).numel() > 0 ? &ctx.input(2) : nullptr;
    if (constant && constant->dtype() != x.dtype())
      return invalidArgument("constant_value must have the input's type");
    auto run = [&](auto tag) -> Status {
      using E = typename decltype(tag)::type;
      E fill{};
      if (constant) {
        fill = constant->data<E>()[0];
      } else if constexpr (!std::is_same_v<E, std::string>) {
        // Legacy float `value`, converted to the element type.
        Status st = dispatch<types::kNumeric | types::kBool>(x.dtype(), [&](auto t2) -> Status {
          using S = typename decltype(t2)::type;
          if constexpr (sizeof(S) == sizeof(E)) {
            S v = store<S>(static_cast<ComputeT<S>>(value_));
            std::memcpy(&fill, &v, sizeof(E));
          }
          return Status::ok();
        });
        if (!st) return st;
      }
      padLoop<E>(x.data<E>(), y->mutableData<E>(), x.dims(), out, padBegin, mode_, fill,
                 ctx.threads());
      return Status::ok();
    };
    switch (x.dtype() == ir::DataType::kString ? 0 : elementSize(x.dtype())) {
      case 0:
        return run(TypeTag<std::string>{});
      case 1:
        return run(TypeTag<uint8_t>{});
      case 2:
        return run(TypeTag<uint16_t>{});
      case 4:
        return run(TypeTag<uint32_t>{});
      case 8:
        return run(TypeTag<uint64_t>{});
    }
    return unsupported("Pad of " + x.describe());
  }

 private:
  Pad(const KernelBuild& b, Mode mode)
      : mode_(mode),
        legacy_(b.opset() < 11),
        attrPads_(b.node().attrInts("pads")),
        value_(b.node().attrFloat("value", 0.0f)) {}

  Mode mode_;
  bool legacy_;
  std::vector<int64_t> attrPads_;
  float value_;
};

const KernelDef kRows[] = {
    {"", "Pad", 2, kOpsetMax, types::kAll, 0, Tier::kReference, "cpu.Pad", makeKernel<Pad>},
};

}  // namespace

std::span<const KernelDef> padKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
