// Expand: the input broadcast (numpy-style, both ways) with a shape given as
// an int64 tensor; any element type.
#include <array>
#include <cstring>

#include "core/exec/broadcast.h"
#include "core/exec/cpu/copy_rules.h"
#include "core/exec/cpu/data_util.h"
#include "core/exec/cpu/families.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

// y = x broadcast to y's dims, copying elements of type T.
template <class T>
void broadcastCopy(const Tensor& x, Tensor& y, int threads) {
  const T* in = x.data<T>();
  T* out = y.mutableData<T>();
  BroadcastWalker<1> walker(y.dims(), {&x.dims()});
  parallelFor(walker.total(), threads, kElementwiseGrain, [&](int64_t b, int64_t e) {
    walker.walk(b, e,
                [&](int64_t o, const std::array<int64_t, 1>& off, int64_t n,
                    const std::array<int64_t, 1>& st) {
                  const T* src = in + off[0];
                  T* dst = out + o;
                  if (st[0] == 0) {
                    for (int64_t i = 0; i < n; ++i) dst[i] = src[0];
                  } else if constexpr (std::is_trivially_copyable_v<T>) {
                    std::memcpy(dst, src, static_cast<size_t>(n) * sizeof(T));
                  } else {
                    for (int64_t i = 0; i < n; ++i) dst[i] = src[i];
                  }
                });
  });
}

class Expand final : public Kernel {
 public:
  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    PASSLAB_ASSIGN_OR_RETURN(Dims dims, expandDims(x.dims(), ctx.input(1)));
    if (!movable(x.dtype()))
      return unsupported("Expand of " + std::string(ir::dtypeName(x.dtype())) + " elements");
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), dims));
    switch (x.isString() ? 0 : elementSize(x.dtype())) {
      case 0:
        broadcastCopy<std::string>(x, *y, ctx.threads());
        break;
      case 1:
        broadcastCopy<uint8_t>(x, *y, ctx.threads());
        break;
      case 2:
        broadcastCopy<uint16_t>(x, *y, ctx.threads());
        break;
      case 4:
        broadcastCopy<uint32_t>(x, *y, ctx.threads());
        break;
      case 8:
        broadcastCopy<uint64_t>(x, *y, ctx.threads());
        break;
      default:
        return unsupported("Expand of " + std::string(ir::dtypeName(x.dtype())) + " elements");
    }
    return Status::ok();
  }
};

// Every whole-byte element type (strings too).
constexpr TypeSet kExpandTypes =
    types::kAll | TypeSet{ir::DataType::kFloat8E4M3FN, ir::DataType::kFloat8E4M3FNUZ,
                          ir::DataType::kFloat8E5M2, ir::DataType::kFloat8E5M2FNUZ,
                          ir::DataType::kFloat8E8M0};

const KernelDef kRows[] = {
    {"", "Expand", 8, kOpsetMax, kExpandTypes, 0, Tier::kReference, "cpu.Expand",
     makeKernel<Expand>},
};

}  // namespace

std::span<const KernelDef> expandKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
