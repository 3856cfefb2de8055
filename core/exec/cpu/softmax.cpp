// Softmax, LogSoftmax and Hardmax. Before opset 13 the input is seen as 2-D
// [prod(dims[:axis]), prod(dims[axis:])]; from 13 the op runs along one axis.
// float32 Softmax and LogSoftmax run on vector rows (softmax_rows.h); the
// loop here is the reference for the other types and for Hardmax.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/exec/cpu/families.h"
#include "core/exec/cpu/softmax.h"
#include "core/exec/cpu/softmax_rows.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

enum class Kind { kSoftmax, kLogSoftmax, kHardmax };

template <Kind kKind>
class SoftmaxKernel final : public Kernel {
 public:
  explicit SoftmaxKernel(const KernelBuild& b)
      : SoftmaxKernel(b.node().attrInt("axis", b.opset() >= 13 ? -1 : 1), b.opset() < 13) {}
  SoftmaxKernel(int64_t axis, bool legacy) : axis_(axis), legacy_(legacy) {}

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    const int64_t rank = static_cast<int64_t>(x.rank());
    int64_t axis = axis_ < 0 ? axis_ + rank : axis_;
    if (rank == 0 || axis < 0 || axis >= rank)
      return invalidArgument("axis " + std::to_string(axis_) + " is out of range for " +
                             x.describe());
    int64_t outer = 1, len = 1, inner = 1;
    for (int64_t i = 0; i < axis; ++i) outer *= x.dim(static_cast<size_t>(i));
    if (legacy_) {
      for (int64_t i = axis; i < rank; ++i) len *= x.dim(static_cast<size_t>(i));
    } else {
      len = x.dim(static_cast<size_t>(axis));
      for (int64_t i = axis + 1; i < rank; ++i) inner *= x.dim(static_cast<size_t>(i));
    }
    if constexpr (kKind != Kind::kHardmax)
      if (x.dtype() == ir::DataType::kFloat) return runFloat32(ctx, x, outer, len, inner);
    return dispatch<types::kFloats>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      using C = ComputeT<S>;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), x.dims()));
      const S* X = x.data<S>();
      S* Y = y->mutableData<S>();
      parallelFor(outer * inner, ctx.threads(), std::max<int64_t>(1, 8192 / (len + 1)),
                  [&](int64_t b0, int64_t e0) {
                    std::vector<C> buf(static_cast<size_t>(len));
                    for (int64_t r = b0; r < e0; ++r) {
                      const int64_t base = (r / inner) * len * inner + r % inner;
                      C mx = -std::numeric_limits<C>::infinity();
                      int64_t arg = 0;
                      for (int64_t i = 0; i < len; ++i) {
                        C v = load(X[base + i * inner]);
                        buf[static_cast<size_t>(i)] = v;
                        if (v > mx) {
                          mx = v;
                          arg = i;
                        }
                      }
                      if constexpr (kKind == Kind::kHardmax) {
                        for (int64_t i = 0; i < len; ++i)
                          Y[base + i * inner] = store<S>(i == arg ? C(1) : C(0));
                        continue;
                      }
                      C sum = 0;
                      for (int64_t i = 0; i < len; ++i) {
                        C e = std::exp(buf[static_cast<size_t>(i)] - mx);
                        if constexpr (kKind == Kind::kSoftmax) buf[static_cast<size_t>(i)] = e;
                        sum += e;
                      }
                      if constexpr (kKind == Kind::kSoftmax) {
                        C invSum = C(1) / sum;
                        for (int64_t i = 0; i < len; ++i)
                          Y[base + i * inner] = store<S>(buf[static_cast<size_t>(i)] * invSum);
                      } else {
                        C logSum = std::log(sum) + mx;
                        for (int64_t i = 0; i < len; ++i)
                          Y[base + i * inner] = store<S>(buf[static_cast<size_t>(i)] - logSum);
                      }
                    }
                  });
      return Status::ok();
    });
  }

 private:
  static constexpr bool kLog = kKind == Kind::kLogSoftmax;
  static constexpr int64_t kColumns = 256;    // columns of one task when the axis is not the last
  static constexpr int64_t kShortRows = 512;  // rows of one task when they are short

  Status runFloat32(KernelContext& ctx, const Tensor& x, int64_t outer, int64_t len,
                    int64_t inner) const {
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), x.dims()));
    const float* X = x.data<float>();
    float* Y = y->mutableData<float>();
    if (inner == 1 && len <= kSoftmaxShortRowMax) {
      // Short rows: blocks of kShortRows rows, exp over each block at once.
      const int64_t blocks = (outer + kShortRows - 1) / kShortRows;
      parallelFor(blocks, ctx.threads(), 1, [&](int64_t b, int64_t e) {
        std::vector<float> scratch(static_cast<size_t>(softmaxShortRowsScratch(kShortRows, len)));
        for (int64_t t = b; t < e; ++t) {
          const int64_t r0 = t * kShortRows;
          softmaxShortRows(X + r0 * len, Y + r0 * len, std::min(kShortRows, outer - r0), len, kLog,
                           scratch.data());
        }
      });
      return Status::ok();
    }
    if (inner == 1) {
      parallelFor(outer, ctx.threads(), std::max<int64_t>(1, 8192 / (len + 1)),
                  [&](int64_t b, int64_t e) {
                    std::vector<float> scratch(static_cast<size_t>(softmaxRowScratch(len)));
                    for (int64_t r = b; r < e; ++r)
                      softmaxRow(X + r * len, Y + r * len, len, kLog, scratch.data());
                  });
      return Status::ok();
    }
    const int64_t chunks = (inner + kColumns - 1) / kColumns;
    parallelFor(outer * chunks, ctx.threads(), std::max<int64_t>(1, 8192 / (len * kColumns + 1)),
                [&](int64_t b, int64_t e) {
                  std::vector<float> scratch(static_cast<size_t>(softmaxColumnsScratch(kColumns)));
                  for (int64_t t = b; t < e; ++t) {
                    const int64_t block = (t / chunks) * len * inner;
                    const int64_t c0 = (t % chunks) * kColumns;
                    softmaxColumns(X + block, Y + block, len, inner, c0,
                                   std::min(inner, c0 + kColumns), kLog, scratch.data());
                  }
                });
    return Status::ok();
  }

  int64_t axis_;
  bool legacy_;
};

const KernelDef kRows[] = {
    {"", "Softmax", 1, kOpsetMax, types::kFloats, 0, Tier::kReference, "cpu.Softmax",
     makeKernel<SoftmaxKernel<Kind::kSoftmax>>},
    {"", "LogSoftmax", 1, kOpsetMax, types::kFloats, 0, Tier::kReference, "cpu.LogSoftmax",
     makeKernel<SoftmaxKernel<Kind::kLogSoftmax>>},
    {"", "Hardmax", 1, kOpsetMax, types::kFloats, 0, Tier::kReference, "cpu.Hardmax",
     makeKernel<SoftmaxKernel<Kind::kHardmax>>},
};

}  // namespace

std::unique_ptr<Kernel> makeFloatSoftmax(int64_t axis, bool flattened) {
  return std::make_unique<SoftmaxKernel<Kind::kSoftmax>>(axis, flattened);
}

std::span<const KernelDef> softmaxKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
