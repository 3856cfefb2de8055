// Operators of recent opsets, as the ONNX reference computes them:
// RotaryEmbedding (23), TensorScatter (24), BitCast (26), SwiGLU (28); and
// ai.onnx.ml Binarizer.
//
// RotaryEmbedding rotates the first rotary_embedding_dim values of each head
// (all by default) by the angles whose cos and sin the caches hold: halves
// (x1, x2) = (x[:r/2], x[r/2:]), or even and odd elements when interleaved,
// become (cos x1 - sin x2, sin x1 + cos x2). Input is [B, H, S, D], or
// [B, S, H * D] with num_heads; caches are [max position, r/2] indexed by
// position_ids [B, S], or [B, S, r/2] without them.
// TensorScatter writes `update` into a copy of `past_cache` along `axis` from
// write_indices[b] (per batch, default 0) on; "circular" wraps around.
// BitCast reinterprets the bytes as another type of the same width.
// SwiGLU: a * sigmoid(alpha * a) * b (equal shapes).
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "core/exec/cpu/data_util.h"
#include "core/exec/cpu/families.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

namespace {

class RotaryEmbedding final : public Kernel {
 public:
  explicit RotaryEmbedding(const KernelBuild& b)
      : interleaved_(b.node().attrInt("interleaved", 0) != 0),
        rotaryDim_(b.node().attrInt("rotary_embedding_dim", 0)),
        heads_(b.node().attrInt("num_heads", 0)) {}

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    const Tensor& cosT = ctx.input(1);
    const Tensor& sinT = ctx.input(2);
    int64_t B, S, H, D;
    const bool threeD = x.rank() == 3;
    if (x.rank() == 4) {
      B = x.dim(0), H = x.dim(1), S = x.dim(2), D = x.dim(3);
    } else if (threeD) {
      if (heads_ <= 0 || x.dim(2) % heads_ != 0)
        return invalidArgument("a 3-D input " + x.describe() +
                               " needs num_heads dividing its hidden size");
      B = x.dim(0), S = x.dim(1), H = heads_, D = x.dim(2) / heads_;
    } else {
      return invalidArgument("the input must be 3-D or 4-D, got " + x.describe());
    }
    const int64_t r = rotaryDim_ > 0 ? rotaryDim_ : D;
    if (r > D || r % 2 != 0)
      return invalidArgument("rotary_embedding_dim " + std::to_string(r) +
                             " must be even and at most the head size " + std::to_string(D));
    const int64_t half = r / 2;
    if (cosT.dims() != sinT.dims() || cosT.rank() < 2 || cosT.dims().back() != half)
      return invalidArgument("cos_cache " + cosT.describe() + " and sin_cache " + sinT.describe() +
                             " must end in rotary_embedding_dim / 2 = " + std::to_string(half));
    std::vector<int64_t> pos;
    if (ctx.has(3)) {
      PASSLAB_ASSIGN_OR_RETURN(pos, readInts(ctx.input(3), "position_ids"));
      if (static_cast<int64_t>(pos.size()) != B * S || cosT.rank() != 2)
        return invalidArgument("position_ids " + ctx.input(3).describe() + " must be [" +
                               std::to_string(B) + ", " + std::to_string(S) + "] with 2-D caches");
      for (int64_t p : pos)
        if (p < 0 || p >= cosT.dim(0))
          return invalidArgument("position id " + std::to_string(p) + " is out of range [0, " +
                                 std::to_string(cosT.dim(0)) + ")");
    } else if (cosT.rank() != 3 || cosT.dim(0) != B || cosT.dim(1) != S) {
      return invalidArgument("without position_ids the caches must be [" + std::to_string(B) +
                             ", " + std::to_string(S) + ", " + std::to_string(half) + "], got " +
                             cosT.describe());
    }
    if (cosT.dtype() != x.dtype() || sinT.dtype() != x.dtype())
      return invalidArgument("the caches must have the input's element type");
    return dispatch<types::kFloats>(x.dtype(), [&](auto tag) -> Status {
      using T = typename decltype(tag)::type;
      using C = ComputeT<T>;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), x.dims()));
      const T* X = x.data<T>();
      T* Y = y->mutableData<T>();
      std::memcpy(y->mutableRaw(), x.raw(), x.byteSize());
      for (int64_t b = 0; b < B; ++b)
        for (int64_t s = 0; s < S; ++s) {
          const int64_t row = pos.empty() ? b * S + s : pos[static_cast<size_t>(b * S + s)];
          const T* cs = cosT.data<T>() + row * half;
          const T* sn = sinT.data<T>() + row * half;
          for (int64_t h = 0; h < H; ++h) {
            const int64_t base = threeD ? ((b * S + s) * H + h) * D : ((b * H + h) * S + s) * D;
            for (int64_t i = 0; i < half; ++i) {
              const int64_t i1 = interleaved_ ? 2 * i : i;
              const int64_t i2 = interleaved_ ? 2 * i + 1 : i + half;
              const C x1 = load(X[base + i1]), x2 = load(X[base + i2]);
              const C c = load(cs[i]), sv = load(sn[i]);
              Y[base + i1] = store<T>(static_cast<C>(c * x1 - sv * x2));
              Y[base + i2] = store<T>(static_cast<C>(sv * x1 + c * x2));
            }
          }
        }
      return Status::ok();
    });
  }

 private:
  bool interleaved_;
  int64_t rotaryDim_, heads_;
};

class TensorScatter final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    std::string mode = b.node().attrString("mode", "linear");
    if (mode != "linear" && mode != "circular")
      return invalidModel("mode must be linear or circular, got '" + mode + "'");
    return std::unique_ptr<Kernel>(
        new TensorScatter(mode == "circular", b.node().attrInt("axis", -2)));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& past = ctx.input(0);
    const Tensor& update = ctx.input(1);
    const auto rank = static_cast<int64_t>(past.rank());
    PASSLAB_ASSIGN_OR_RETURN(int64_t axis, normalizeAxis(axis_, rank));
    if (axis == 0) return invalidArgument("axis must not be the batch axis");
    if (update.rank() != past.rank() || update.dtype() != past.dtype())
      return invalidArgument("update " + update.describe() + " does not fit past_cache " +
                             past.describe());
    for (int64_t d = 0; d < rank; ++d) {
      const auto k = static_cast<size_t>(d);
      if (d == axis ? update.dims()[k] > past.dims()[k] : update.dims()[k] != past.dims()[k])
        return invalidArgument("update " + update.describe() + " does not fit past_cache " +
                               past.describe() + " (axis " + std::to_string(axis) + ")");
    }
    const int64_t B = past.dim(0);
    std::vector<int64_t> write(static_cast<size_t>(B), 0);
    if (ctx.has(2)) {
      PASSLAB_ASSIGN_OR_RETURN(write, readInts(ctx.input(2), "write_indices"));
      if (static_cast<int64_t>(write.size()) != B)
        return invalidArgument("write_indices must have " + std::to_string(B) + " values");
    }
    const size_t es = elementSize(past.dtype());
    if (es == 0) return unsupported("TensorScatter of " + past.describe());
    const int64_t maxLen = past.dim(static_cast<size_t>(axis));
    const int64_t len = update.dim(static_cast<size_t>(axis));
    int64_t inner = 1, outer = 1;
    for (int64_t d = axis + 1; d < rank; ++d) inner *= past.dim(static_cast<size_t>(d));
    for (int64_t d = 0; d < axis; ++d) outer *= past.dim(static_cast<size_t>(d));
    const int64_t perBatch = outer / std::max<int64_t>(B, 1);
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, past.dtype(), past.dims()));
    std::memcpy(y->mutableRaw(), past.raw(), past.byteSize());
    auto* dst = static_cast<std::byte*>(y->mutableRaw());
    const auto* src = static_cast<const std::byte*>(update.raw());
    for (int64_t o = 0; o < outer; ++o) {
      const int64_t b = o / perBatch;
      for (int64_t s = 0; s < len; ++s) {
        int64_t at = write[static_cast<size_t>(b)] + s;
        if (circular_) at = ((at % maxLen) + maxLen) % maxLen;
        if (at < 0 || at >= maxLen)
          return invalidArgument("write index " + std::to_string(at) + " of batch " +
                                 std::to_string(b) + " is out of range [0, " +
                                 std::to_string(maxLen) + ")");
        std::memcpy(dst + static_cast<size_t>((o * maxLen + at) * inner) * es,
                    src + static_cast<size_t>((o * len + s) * inner) * es,
                    static_cast<size_t>(inner) * es);
      }
    }
    return Status::ok();
  }

 private:
  TensorScatter(bool circular, int64_t axis) : circular_(circular), axis_(axis) {}
  bool circular_;
  int64_t axis_;
};

class BitCast final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    auto to = static_cast<ir::DataType>(b.node().attrInt("to", 0));
    if (to == ir::DataType::kString || elementSize(to) == 0)
      return invalidModel("BitCast to " + std::string(ir::dtypeName(to)) + " is not supported");
    return std::unique_ptr<Kernel>(new BitCast(to));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    if (elementSize(x.dtype()) != elementSize(to_))
      return invalidArgument("BitCast needs equal widths: " + x.describe() + " to " +
                             std::string(ir::dtypeName(to_)));
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, to_, x.dims()));
    std::memcpy(y->mutableRaw(), x.raw(), x.byteSize());
    return Status::ok();
  }

 private:
  explicit BitCast(ir::DataType to) : to_(to) {}
  ir::DataType to_;
};

class SwiGlu final : public Kernel {
 public:
  explicit SwiGlu(const KernelBuild& b) : alpha_(b.node().attrFloat("alpha", 1.0f)) {}

  Status run(KernelContext& ctx) override {
    const Tensor& a = ctx.input(0);
    const Tensor& b = ctx.input(1);
    if (a.dims() != b.dims() || a.dtype() != b.dtype())
      return invalidArgument("A " + a.describe() + " and B " + b.describe() +
                             " must have one shape and type (no broadcasting)");
    return dispatch<types::kFloats>(a.dtype(), [&](auto tag) -> Status {
      using T = typename decltype(tag)::type;
      using C = ComputeT<T>;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, a.dtype(), a.dims()));
      const T* A = a.data<T>();
      const T* Bp = b.data<T>();
      T* Y = y->mutableData<T>();
      for (int64_t i = 0; i < a.numel(); ++i) {
        const C v = load(A[i]);
        const C sig =
            static_cast<C>(1) / (static_cast<C>(1) + std::exp(-static_cast<C>(alpha_) * v));
        Y[i] = store<T>(static_cast<C>(v * sig * load(Bp[i])));
      }
      return Status::ok();
    });
  }

 private:
  float alpha_;
};

class Binarizer final : public Kernel {
 public:
  explicit Binarizer(const KernelBuild& b) : threshold_(b.node().attrFloat("threshold", 0.0f)) {}

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    return dispatch<types::kNumeric>(x.dtype(), [&](auto tag) -> Status {
      using T = typename decltype(tag)::type;
      using C = ComputeT<T>;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), x.dims()));
      const T* X = x.data<T>();
      T* Y = y->mutableData<T>();
      for (int64_t i = 0; i < x.numel(); ++i)
        Y[i] = store<T>(static_cast<double>(load(X[i])) > threshold_ ? C(1) : C(0));
      return Status::ok();
    });
  }

 private:
  double threshold_;
};

const KernelDef kRows[] = {
    {"", "RotaryEmbedding", 23, kOpsetMax, types::kFloats, 0, Tier::kReference,
     "cpu.RotaryEmbedding", makeKernel<RotaryEmbedding>},
    {"", "TensorScatter", 24, kOpsetMax, types::kAll, 0, Tier::kReference, "cpu.TensorScatter",
     makeKernel<TensorScatter>},
    {"", "BitCast", 26, kOpsetMax, types::kNumeric | types::kBool, 0, Tier::kReference,
     "cpu.BitCast", makeKernel<BitCast>},
    {"", "SwiGLU", 28, kOpsetMax, types::kFloats, 0, Tier::kReference, "cpu.SwiGLU",
     makeKernel<SwiGlu>},
    {"ai.onnx.ml", "Binarizer", 1, kOpsetMax, types::kNumeric, 0, Tier::kReference,
     "cpu.ml.Binarizer", makeKernel<Binarizer>},
};

}  // namespace

std::span<const KernelDef> recentOpKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
