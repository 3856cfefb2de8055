// EyeLike: ones on diagonal k of a 2-D tensor, zeros elsewhere, in the
// input's type or the `dtype` attribute's.
#include <cstring>

#include "core/exec/cpu/families.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

namespace {

class EyeLike final : public Kernel {
 public:
  static constexpr TypeSet kTypes = types::kNumeric | types::kBool;

  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    auto k = std::unique_ptr<EyeLike>(new EyeLike());
    k->k_ = b.node().attrInt("k", 0);
    if (b.node().hasAttr("dtype")) {
      int64_t d = b.node().attrInt("dtype", 0);
      if (!ir::isKnownDtype(static_cast<int32_t>(d)) ||
          !kTypes.contains(static_cast<ir::DataType>(d)))
        return invalidArgument("dtype " + std::to_string(d) + " is not a numeric or bool type");
      k->dtype_ = static_cast<ir::DataType>(d);
    }
    return std::unique_ptr<Kernel>(std::move(k));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    if (x.rank() != 2) return invalidArgument("the input must be 2-D, got " + x.describe());
    const ir::DataType dt = dtype_ == ir::DataType::kUndefined ? x.dtype() : dtype_;
    const int64_t rows = x.dim(0), cols = x.dim(1);
    return dispatch<kTypes>(dt, [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, dt, x.dims()));
      S* out = y->mutableData<S>();
      std::memset(static_cast<void*>(out), 0, y->byteSize());
      S one;
      if constexpr (std::is_same_v<S, bool>) {
        one = true;
      } else {
        one = store<S>(ComputeT<S>(1));
      }
      for (int64_t i = 0; i < rows; ++i) {
        int64_t j = i + k_;
        if (j >= 0 && j < cols) out[i * cols + j] = one;
      }
      return Status::ok();
    });
  }

 private:
  EyeLike() = default;
  int64_t k_ = 0;
  ir::DataType dtype_ = ir::DataType::kUndefined;
};

const KernelDef kRows[] = {
    {"", "EyeLike", 9, kOpsetMax, EyeLike::kTypes, 0, Tier::kReference, "cpu.EyeLike",
     makeKernel<EyeLike>},
};

}  // namespace

std::span<const KernelDef> eyeLikeKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
