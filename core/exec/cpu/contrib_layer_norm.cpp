// com.microsoft fused layer normalizations of transformer models:
// SkipLayerNormalization (LayerNorm(input + skip + bias) over the last dim,
// with the sum as an optional output) and EmbedLayerNormalization (word +
// position (+ segment) embeddings, then LayerNorm; the mask's per-row count as
// mask_index). Embedding ids outside their table are errors naming the id.
#include <cmath>
#include <string>

#include "core/exec/cpu/families.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

// y = (x - mean) / sqrt(var + eps) * gamma + beta over one row of h values.
// Returns mean and 1/sqrt(var + eps).
std::pair<float, float> normalizeRow(const float* x, int64_t h, float eps, const float* gamma,
                                     const float* beta, float* y) {
  double mean = 0;
  for (int64_t j = 0; j < h; ++j) mean += x[j];
  mean /= static_cast<double>(h);
  double var = 0;
  for (int64_t j = 0; j < h; ++j) var += (x[j] - mean) * (x[j] - mean);
  var /= static_cast<double>(h);
  const float inv = static_cast<float>(1.0 / std::sqrt(var + eps));
  for (int64_t j = 0; j < h; ++j)
    y[j] = (x[j] - static_cast<float>(mean)) * inv * gamma[j] + (beta ? beta[j] : 0.0f);
  return {static_cast<float>(mean), inv};
}

template <class S>
std::vector<float> floatsOf(const Tensor& t) {
  std::vector<float> v(static_cast<size_t>(t.numel()));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(load(t.data<S>()[i]));
  return v;
}

Status checkVector(const Tensor& t, int64_t h, ir::DataType dt, const char* what) {
  if (t.dtype() != dt || t.numel() != h)
    return invalidArgument(std::string(what) + " " + t.describe() + " must be " +
                           std::string(ir::dtypeName(dt)) + " with " + std::to_string(h) +
                           " values");
  return Status::ok();
}

class SkipLayerNorm final : public Kernel {
 public:
  explicit SkipLayerNorm(const KernelBuild& b) : eps_(b.node().attrFloat("epsilon", 1e-12f)) {}

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    const Tensor& skip = ctx.input(1);
    if (x.rank() < 2) return invalidArgument("input must have rank 2 or more, got " + x.describe());
    const int64_t h = x.dim(x.rank() - 1);
    const int64_t rows = h == 0 ? 0 : x.numel() / h;
    // skip is input's shape, or broadcasts over the leading batch dims.
    if (skip.dtype() != x.dtype() || skip.numel() == 0 || x.numel() % skip.numel() != 0 ||
        skip.dim(skip.rank() - 1) != h)
      return invalidArgument("skip " + skip.describe() + " does not match input " + x.describe());
    PASSLAB_RETURN_IF_ERROR(checkVector(ctx.input(2), h, x.dtype(), "gamma"));
    if (ctx.has(3)) PASSLAB_RETURN_IF_ERROR(checkVector(ctx.input(3), h, x.dtype(), "beta"));
    if (ctx.has(4)) PASSLAB_RETURN_IF_ERROR(checkVector(ctx.input(4), h, x.dtype(), "bias"));
    return dispatch<types::kFloats>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      std::vector<float> gamma = floatsOf<S>(ctx.input(2));
      std::vector<float> beta = ctx.has(3) ? floatsOf<S>(ctx.input(3)) : std::vector<float>();
      std::vector<float> bias = ctx.has(4) ? floatsOf<S>(ctx.input(4)) : std::vector<float>();
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), x.dims()));
      Dims statDims = x.dims();
      statDims.back() = 1;
      Tensor* mean = nullptr;
      Tensor* inv = nullptr;
      Tensor* sum = nullptr;
      if (ctx.outputCount() > 1 && ctx.wantsOutput(1)) {
        PASSLAB_ASSIGN_OR_RETURN(mean, ctx.allocate(1, ir::DataType::kFloat, statDims));
      }
      if (ctx.outputCount() > 2 && ctx.wantsOutput(2)) {
        PASSLAB_ASSIGN_OR_RETURN(inv, ctx.allocate(2, ir::DataType::kFloat, statDims));
      }
      if (ctx.outputCount() > 3 && ctx.wantsOutput(3)) {
        PASSLAB_ASSIGN_OR_RETURN(sum, ctx.allocate(3, x.dtype(), x.dims()));
      }
      const S* X = x.data<S>();
      const S* K = skip.data<S>();
      const int64_t skipN = skip.numel();
      parallelFor(rows, ctx.threads(), std::max<int64_t>(1, 4096 / (h + 1)),
                  [&](int64_t b, int64_t e) {
                    std::vector<float> row(static_cast<size_t>(h)), out(static_cast<size_t>(h));
                    for (int64_t r = b; r < e; ++r) {
                      for (int64_t j = 0; j < h; ++j) {
                        float v = static_cast<float>(load(X[r * h + j])) +
                                  static_cast<float>(load(K[(r * h + j) % skipN]));
                        if (!bias.empty()) v += bias[static_cast<size_t>(j)];
                        row[static_cast<size_t>(j)] = v;
                        if (sum) sum->mutableData<S>()[r * h + j] = store<S>(v);
                      }
                      auto [m, is] = normalizeRow(row.data(), h, eps_, gamma.data(),
                                                  beta.empty() ? nullptr : beta.data(), out.data());
                      if (mean) mean->mutableData<float>()[r] = m;
                      if (inv) inv->mutableData<float>()[r] = is;
                      for (int64_t j = 0; j < h; ++j)
                        y->mutableData<S>()[r * h + j] = store<S>(out[static_cast<size_t>(j)]);
                    }
                  });
      return Status::ok();
    });
  }

 private:
  float eps_;
};

class EmbedLayerNorm final : public Kernel {
 public:
  explicit EmbedLayerNorm(const KernelBuild& b) : eps_(b.node().attrFloat("epsilon", 1e-12f)) {}

  Status run(KernelContext& ctx) override {
    const Tensor& ids = ctx.input(0);
    const Tensor& word = ctx.input(2);
    const Tensor& pos = ctx.input(3);
    if (ids.rank() != 2 || ids.dtype() != ir::DataType::kInt32)
      return invalidArgument("input_ids must be int32 [batch, sequence], got " + ids.describe());
    if (word.rank() != 2 || pos.rank() != 2 || pos.dtype() != word.dtype() ||
        pos.dim(1) != word.dim(1))
      return invalidArgument("word_embedding " + word.describe() + " and position_embedding " +
                             pos.describe() + " must be [*, hidden] tables of one type");
    const int64_t B = ids.dim(0), S = ids.dim(1), H = word.dim(1);
    const Tensor* seg = ctx.has(1) ? &ctx.input(1) : nullptr;
    const Tensor* segTable = ctx.has(4) ? &ctx.input(4) : nullptr;
    if (seg && (seg->dims() != ids.dims() || seg->dtype() != ir::DataType::kInt32 || !segTable))
      return invalidArgument("segment_ids " + seg->describe() +
                             " must be int32 like input_ids, with a segment_embedding");
    if (segTable && (segTable->rank() != 2 || segTable->dim(1) != H))
      return invalidArgument("segment_embedding " + segTable->describe() + " must be [*, " +
                             std::to_string(H) + "]");
    PASSLAB_RETURN_IF_ERROR(checkVector(ctx.input(5), H, word.dtype(), "gamma"));
    PASSLAB_RETURN_IF_ERROR(checkVector(ctx.input(6), H, word.dtype(), "beta"));
    const Tensor* mask = ctx.has(7) ? &ctx.input(7) : nullptr;
    if (mask && (mask->dims() != ids.dims() || mask->dtype() != ir::DataType::kInt32))
      return invalidArgument("mask " + mask->describe() + " must be int32 like input_ids");
    const Tensor* posIds = ctx.has(8) ? &ctx.input(8) : nullptr;
    if (posIds && (posIds->dtype() != ir::DataType::kInt32 || posIds->rank() != 2 ||
                   posIds->dim(1) != S || (posIds->dim(0) != B && posIds->dim(0) != 1)))
      return invalidArgument("position_ids " + posIds->describe() + " must be int32 [" +
                             std::to_string(B) + " or 1, " + std::to_string(S) + "]");
    auto lookup = [](int32_t id, int64_t n, const char* what) -> Status {
      if (id < 0 || id >= n)
        return invalidArgument(std::string(what) + " " + std::to_string(id) +
                               " is out of range [0, " + std::to_string(n) + ")");
      return Status::ok();
    };
    for (int64_t i = 0; i < B * S; ++i) {
      PASSLAB_RETURN_IF_ERROR(lookup(ids.data<int32_t>()[i], word.dim(0), "input id"));
      if (seg)
        PASSLAB_RETURN_IF_ERROR(lookup(seg->data<int32_t>()[i], segTable->dim(0), "segment id"));
      int32_t p = posIds ? posIds->data<int32_t>()[posIds->dim(0) == 1 ? i % S : i]
                         : static_cast<int32_t>(i % S);
      PASSLAB_RETURN_IF_ERROR(lookup(p, pos.dim(0), "position id"));
    }
    return dispatch<types::kFloats>(word.dtype(), [&](auto tag) -> Status {
      using T = typename decltype(tag)::type;
      std::vector<float> gamma = floatsOf<T>(ctx.input(5)), beta = floatsOf<T>(ctx.input(6));
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, word.dtype(), {B, S, H}));
      Tensor* sum = nullptr;
      if (ctx.outputCount() > 2 && ctx.wantsOutput(2)) {
        PASSLAB_ASSIGN_OR_RETURN(sum, ctx.allocate(2, word.dtype(), {B, S, H}));
      }
      std::vector<float> row(static_cast<size_t>(H)), out(static_cast<size_t>(H));
      for (int64_t i = 0; i < B * S; ++i) {
        const int64_t id = ids.data<int32_t>()[i];
        const int64_t p = posIds ? posIds->data<int32_t>()[posIds->dim(0) == 1 ? i % S : i] : i % S;
        for (int64_t j = 0; j < H; ++j) {
          float v = static_cast<float>(load(word.data<T>()[id * H + j])) +
                    static_cast<float>(load(pos.data<T>()[p * H + j]));
          if (seg)
            v += static_cast<float>(load(segTable->data<T>()[seg->data<int32_t>()[i] * H + j]));
          row[static_cast<size_t>(j)] = v;
          if (sum) sum->mutableData<T>()[i * H + j] = store<T>(v);
        }
        normalizeRow(row.data(), H, eps_, gamma.data(), beta.data(), out.data());
        for (int64_t j = 0; j < H; ++j)
          y->mutableData<T>()[i * H + j] = store<T>(out[static_cast<size_t>(j)]);
      }
      if (ctx.outputCount() > 1 && ctx.wantsOutput(1)) {
        // The number of ones in each row of the mask (0 without a mask).
        PASSLAB_ASSIGN_OR_RETURN(Tensor * mi, ctx.allocate(1, ir::DataType::kInt32, {B}));
        for (int64_t b = 0; b < B; ++b) {
          int32_t count = 0;
          for (int64_t s = 0; mask && s < S; ++s) count += mask->data<int32_t>()[b * S + s] == 1;
          mi->mutableData<int32_t>()[b] = count;
        }
      }
      return Status::ok();
    });
  }

 private:
  float eps_;
};

constexpr TypeSet kHalfAndFloat{ir::DataType::kFloat, ir::DataType::kFloat16};

const KernelDef kRows[] = {
    {"com.microsoft", "SkipLayerNormalization", 1, kOpsetMax, types::kFloats, 0, Tier::kReference,
     "cpu.ms.SkipLayerNormalization", makeKernel<SkipLayerNorm>},
    {"com.microsoft", "EmbedLayerNormalization", 1, kOpsetMax, kHalfAndFloat, 2, Tier::kReference,
     "cpu.ms.EmbedLayerNormalization", makeKernel<EmbedLayerNorm>},
};

}  // namespace

std::span<const KernelDef> contribLayerNormKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
