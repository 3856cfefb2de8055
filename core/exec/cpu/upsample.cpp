// Upsample (opsets 7 to 9; deprecated by Resize): output dims floor(in *
// scale); "nearest" takes floor(out / scale), "linear" interpolates each
// scaled dim from in = out / scale (asymmetric coordinates, as ONNX Runtime).
#include <algorithm>
#include <cmath>

#include "core/exec/cpu/families.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

class Upsample final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    std::string mode = b.node().attrString("mode", "nearest");
    if (mode != "nearest" && mode != "linear" && mode != "bilinear")
      return invalidArgument("unknown mode '" + mode + "'");
    return std::unique_ptr<Kernel>(new Upsample(b, mode != "nearest"));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    std::vector<float> scales = attrScales_;
    if (fromInput_) {
      const Tensor& s = ctx.input(1);
      if (s.dtype() != ir::DataType::kFloat) return invalidArgument("scales must be float");
      scales.assign(s.data<float>(), s.data<float>() + s.numel());
    }
    if (scales.size() != x.rank())
      return invalidArgument("scales has " + std::to_string(scales.size()) + " values for " +
                             x.describe());
    Dims out(x.rank());
    size_t scaled = 0;
    for (size_t d = 0; d < x.rank(); ++d) {
      if (scales[d] <= 0) return invalidArgument("scales must be positive");
      out[d] = static_cast<int64_t>(std::floor(static_cast<double>(x.dim(d)) * scales[d]));
      if (scales[d] != 1.0f) ++scaled;
    }
    if (linear_ && scaled > 3) return unsupported("linear upsampling of more than 3 dims");
    return dispatch<types::kNumeric>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      using C = ComputeT<S>;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), out));
      const size_t rank = x.rank();
      std::vector<int64_t> inStrides(rank, 1);
      for (size_t d = rank; d-- > 1;) inStrides[d - 1] = inStrides[d] * x.dim(d);
      // Per dim and output index: the two source indices and the weight of the second.
      std::vector<std::vector<int64_t>> lo(rank), hi(rank);
      std::vector<std::vector<float>> w(rank);
      for (size_t d = 0; d < rank; ++d) {
        for (int64_t o = 0; o < out[d]; ++o) {
          float in = static_cast<float>(o) / scales[d];
          int64_t i0 = std::min<int64_t>(static_cast<int64_t>(std::floor(in)), x.dim(d) - 1);
          int64_t i1 = std::min<int64_t>(i0 + 1, x.dim(d) - 1);
          lo[d].push_back(i0);
          hi[d].push_back(i1);
          w[d].push_back(linear_ ? in - static_cast<float>(i0) : 0.0f);
        }
      }
      const S* X = x.data<S>();
      S* Y = y->mutableData<S>();
      if (!linear_ && rank > 0 && y->numel() > 0) {
        // Nearest: per output row (the last dim), one source row and a gather.
        const int64_t W = out[rank - 1];
        const int64_t rows = y->numel() / W;
        const int64_t* cols = lo[rank - 1].data();
        parallelFor(rows, ctx.threads(), std::max<int64_t>(1, kElementwiseGrain / W),
                    [&](int64_t r0, int64_t r1) {
                      for (int64_t r = r0; r < r1; ++r) {
                        int64_t rest = r, src = 0;
                        for (size_t d = rank - 1; d-- > 0;) {
                          src += lo[d][static_cast<size_t>(rest % out[d])] * inStrides[d];
                          rest /= out[d];
                        }
                        const S* xs = X + src;
                        S* yr = Y + r * W;
                        for (int64_t j = 0; j < W; ++j) yr[j] = xs[cols[j]];
                      }
                    });
        return Status::ok();
      }
      parallelFor(y->numel(), ctx.threads(), kElementwiseGrain, [&](int64_t b, int64_t e) {
        std::vector<int64_t> idx(rank);
        for (int64_t i = b; i < e; ++i) {
          int64_t rest = i;
          for (size_t d = rank; d-- > 0;) {
            idx[d] = rest % out[d];
            rest /= out[d];
          }
          if (!linear_) {
            int64_t src = 0;
            for (size_t d = 0; d < rank; ++d)
              src += lo[d][static_cast<size_t>(idx[d])] * inStrides[d];
            Y[i] = X[src];
            continue;
          }
          // Sum over the corners of the scaled dims.
          C acc = 0;
          for (int corner = 0; corner < (1 << rank) && corner < 256; ++corner) {
            float weight = 1;
            int64_t src = 0;
            bool skip = false;
            for (size_t d = 0; d < rank && !skip; ++d) {
              bool up = (corner >> d) & 1;
              float wd = w[d][static_cast<size_t>(idx[d])];
              if (up && scales[d] == 1.0f) skip = true;
              weight *= up ? wd : 1 - wd;
              src += (up ? hi[d] : lo[d])[static_cast<size_t>(idx[d])] * inStrides[d];
            }
            if (!skip && weight != 0)
              acc += static_cast<C>(weight * static_cast<float>(load(X[src])));
          }
          Y[i] = store<S>(acc);
        }
      });
      return Status::ok();
    });
  }

 private:
  Upsample(const KernelBuild& b, bool linear)
      : linear_(linear), fromInput_(b.opset() >= 9), attrScales_(b.node().attrFloats("scales")) {}
  bool linear_, fromInput_;
  std::vector<float> attrScales_;
};

const KernelDef kRows[] = {
    {"", "Upsample", 7, kOpsetMax, types::kNumeric, 0, Tier::kReference, "cpu.Upsample",
     makeKernel<Upsample>},
};

}  // namespace

std::span<const KernelDef> upsampleKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
