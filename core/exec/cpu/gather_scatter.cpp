// Element-wise and N-d indexing: GatherElements, GatherND, ScatterElements,
// ScatterND and the old Scatter. Indices may be negative (counted from the
// end); an index outside the axis is an error naming it and the range.
// Scatters combine with the `reduction` attribute (none, add, mul, max, min).
#include <algorithm>
#include <string>

#include "core/exec/cpu/data_util.h"
#include "core/exec/cpu/families.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

namespace {

std::vector<int64_t> stridesOf(const Dims& dims) {
  std::vector<int64_t> s(dims.size(), 1);
  for (size_t d = dims.size(); d-- > 1;) s[d - 1] = s[d] * dims[d];
  return s;
}

Error indexError(int64_t index, int64_t n, const std::string& where) {
  return invalidArgument("index " + std::to_string(index) + " is out of range [" +
                         std::to_string(-n) + ", " + std::to_string(n) + ") " + where);
}

// Indices with negative values resolved against `n`, checked.
Expected<int64_t> resolve(int64_t i, int64_t n, int64_t axis) {
  if (i < -n || i >= n) return indexError(i, n, "for axis " + std::to_string(axis));
  return i < 0 ? i + n : i;
}

// For GatherElements / ScatterElements: the data offset of every element of
// `indices` (same rank as data; each index replaces the coordinate on `axis`).
Expected<std::vector<int64_t>> elementOffsets(const Dims& data, const Dims& idxDims,
                                              const std::vector<int64_t>& idx, int64_t axis,
                                              const char* what) {
  if (idxDims.size() != data.size())
    return invalidArgument(std::string(what) + " has rank " + std::to_string(idxDims.size()) +
                           ", data " + dimsToString(data) + " has rank " +
                           std::to_string(data.size()));
  for (size_t d = 0; d < data.size(); ++d)
    if (static_cast<int64_t>(d) != axis && idxDims[d] > data[d])
      return invalidArgument(std::string(what) + " " + dimsToString(idxDims) +
                             " is larger than data " + dimsToString(data) + " on axis " +
                             std::to_string(d));
  const auto ds = stridesOf(data);
  const size_t rank = data.size();
  const int64_t n = data[static_cast<size_t>(axis)];
  std::vector<int64_t> out(idx.size());
  std::vector<int64_t> pos(rank, 0);
  for (size_t e = 0; e < idx.size(); ++e) {
    PASSLAB_ASSIGN_OR_RETURN(int64_t i, resolve(idx[e], n, axis));
    int64_t off = 0;
    for (size_t d = 0; d < rank; ++d)
      off += (static_cast<int64_t>(d) == axis ? i : pos[d]) * ds[d];
    out[e] = off;
    for (size_t d = rank; d-- > 0;) {
      if (++pos[d] < idxDims[d]) break;
      pos[d] = 0;
    }
  }
  return out;
}

class GatherElements final : public Kernel {
 public:
  explicit GatherElements(const KernelBuild& b) : axis_(b.node().attrInt("axis", 0)) {}

  Status run(KernelContext& ctx) override {
    const Tensor& data = ctx.input(0);
    const Tensor& indices = ctx.input(1);
    if (!movable(data.dtype())) return unsupported("GatherElements of " + data.describe());
    PASSLAB_ASSIGN_OR_RETURN(int64_t axis,
                             normalizeAxis(axis_, static_cast<int64_t>(data.rank())));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int64_t> idx, readInts(indices, "indices"));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int64_t> offs,
                             elementOffsets(data.dims(), indices.dims(), idx, axis, "indices"));
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, data.dtype(), indices.dims()));
    for (size_t e = 0; e < offs.size(); ++e)
      copyElements(data, offs[e], *y, static_cast<int64_t>(e), 1);
    return Status::ok();
  }

 private:
  int64_t axis_;
};

// Index tuples of GatherND / ScatterND: for each tuple, the offset of the
// addressed slice in data (per batch when batch_dims > 0).
struct NdPlan {
  int64_t batches = 1;     // product of the batch dims
  int64_t tuples = 0;      // index tuples per batch
  int64_t slice = 1;       // elements per addressed slice
  int64_t dataBatch = 0;   // elements of data per batch
  std::vector<int64_t> offsets;  // per (batch, tuple), relative to the batch start
  Dims outDims;                  // GatherND's output
};

Expected<NdPlan> ndPlan(const Tensor& data, const Tensor& indices, int64_t batchDims) {
  const auto r = static_cast<int64_t>(data.rank());
  const auto q = static_cast<int64_t>(indices.rank());
  if (q < 1) return invalidArgument("indices must have rank 1 or more, got " + indices.describe());
  if (batchDims < 0 || batchDims >= std::min(r, q))
    return invalidArgument("batch_dims " + std::to_string(batchDims) +
                           " must be less than the ranks of data and indices");
  const int64_t k = indices.dim(static_cast<size_t>(q - 1));
  if (k < 1 || k > r - batchDims)
    return invalidArgument("the last dim of indices " + indices.describe() + " must be in [1, " +
                           std::to_string(r - batchDims) + "] for data " + data.describe());
  NdPlan p;
  for (int64_t d = 0; d < batchDims; ++d) {
    if (data.dim(static_cast<size_t>(d)) != indices.dim(static_cast<size_t>(d)))
      return invalidArgument("batch dim " + std::to_string(d) + " differs between data " +
                             data.describe() + " and indices " + indices.describe());
    p.batches *= data.dim(static_cast<size_t>(d));
    p.outDims.push_back(data.dim(static_cast<size_t>(d)));
  }
  p.tuples = 1;
  for (int64_t d = batchDims; d < q - 1; ++d) {
    p.tuples *= indices.dim(static_cast<size_t>(d));
    p.outDims.push_back(indices.dim(static_cast<size_t>(d)));
  }
  for (int64_t d = batchDims + k; d < r; ++d) {
    p.slice *= data.dim(static_cast<size_t>(d));
    p.outDims.push_back(data.dim(static_cast<size_t>(d)));
  }
  p.dataBatch = p.slice;
  for (int64_t d = batchDims; d < batchDims + k; ++d) p.dataBatch *= data.dim(static_cast<size_t>(d));
  PASSLAB_ASSIGN_OR_RETURN(std::vector<int64_t> idx, readInts(indices, "indices"));
  p.offsets.resize(static_cast<size_t>(p.batches * p.tuples));
  for (int64_t t = 0; t < p.batches * p.tuples; ++t) {
    int64_t off = 0;
    for (int64_t j = 0; j < k; ++j) {
      const int64_t n = data.dim(static_cast<size_t>(batchDims + j));
      PASSLAB_ASSIGN_OR_RETURN(int64_t i,
                               resolve(idx[static_cast<size_t>(t * k + j)], n, batchDims + j));
      off = off * n + i;
    }
    p.offsets[static_cast<size_t>(t)] = off * p.slice;
  }
  return p;
}

class GatherND final : public Kernel {
 public:
  explicit GatherND(const KernelBuild& b) : batchDims_(b.node().attrInt("batch_dims", 0)) {}

  Status run(KernelContext& ctx) override {
    const Tensor& data = ctx.input(0);
    if (!movable(data.dtype())) return unsupported("GatherND of " + data.describe());
    PASSLAB_ASSIGN_OR_RETURN(NdPlan p, ndPlan(data, ctx.input(1), batchDims_));
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, data.dtype(), p.outDims));
    for (int64_t b = 0; b < p.batches; ++b)
      for (int64_t t = 0; t < p.tuples; ++t) {
        int64_t j = b * p.tuples + t;
        copyElements(data, b * p.dataBatch + p.offsets[static_cast<size_t>(j)], *y, j * p.slice,
                     p.slice);
      }
    return Status::ok();
  }

 private:
  int64_t batchDims_;
};

enum class Reduction { kNone, kAdd, kMul, kMax, kMin };

Expected<Reduction> parseReduction(const ir::Node& n) {
  std::string r = n.attrString("reduction", "none");
  if (r == "none") return Reduction::kNone;
  if (r == "add") return Reduction::kAdd;
  if (r == "mul") return Reduction::kMul;
  if (r == "max") return Reduction::kMax;
  if (r == "min") return Reduction::kMin;
  return invalidModel("unknown reduction '" + r + "'");
}

// dst[dstOff + i] = combine(dst[dstOff + i], src[srcOff + i]) for i < count.
Status combine(Reduction red, const Tensor& src, int64_t srcOff, Tensor& dst, int64_t dstOff,
               int64_t count) {
  if (red == Reduction::kNone) {
    copyElements(src, srcOff, dst, dstOff, count);
    return Status::ok();
  }
  return dispatch<types::kNumeric | types::kBool>(dst.dtype(), [&](auto tag) -> Status {
    using S = typename decltype(tag)::type;
    const S* s = src.data<S>() + srcOff;
    S* d = dst.mutableData<S>() + dstOff;
    for (int64_t i = 0; i < count; ++i) {
      if constexpr (std::is_same_v<S, bool>) {
        switch (red) {
          case Reduction::kAdd:
          case Reduction::kMax:
            d[i] = d[i] || s[i];
            break;
          default:
            d[i] = d[i] && s[i];
            break;
        }
      } else {
        auto a = load(d[i]), b = load(s[i]);
        decltype(a) v = b;
        switch (red) {
          case Reduction::kAdd:
            v = a + b;
            break;
          case Reduction::kMul:
            v = a * b;
            break;
          case Reduction::kMax:
            v = std::max(a, b);
            break;
          case Reduction::kMin:
            v = std::min(a, b);
            break;
          case Reduction::kNone:
            break;
        }
        d[i] = store<S>(v);
      }
    }
    return Status::ok();
  });
}

// A copy of `data` as output 0.
Expected<Tensor*> copyOfData(KernelContext& ctx, const Tensor& data) {
  PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, data.dtype(), data.dims()));
  copyElements(data, 0, *y, 0, data.numel());
  return y;
}

class ScatterElements final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    PASSLAB_ASSIGN_OR_RETURN(Reduction red, parseReduction(b.node()));
    return std::unique_ptr<Kernel>(new ScatterElements(b.node().attrInt("axis", 0), red));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& data = ctx.input(0);
    const Tensor& indices = ctx.input(1);
    const Tensor& updates = ctx.input(2);
    if (!movable(data.dtype())) return unsupported("scattering into " + data.describe());
    if (updates.dtype() != data.dtype() || updates.dims() != indices.dims())
      return invalidArgument("updates " + updates.describe() + " must have data's type and the " +
                             "dims of indices " + indices.describe());
    if (data.isString() && red_ != Reduction::kNone)
      return unsupported("a reduction over strings");
    PASSLAB_ASSIGN_OR_RETURN(int64_t axis,
                             normalizeAxis(axis_, static_cast<int64_t>(data.rank())));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int64_t> idx, readInts(indices, "indices"));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int64_t> offs,
                             elementOffsets(data.dims(), indices.dims(), idx, axis, "indices"));
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, copyOfData(ctx, data));
    for (size_t e = 0; e < offs.size(); ++e)
      PASSLAB_RETURN_IF_ERROR(combine(red_, updates, static_cast<int64_t>(e), *y, offs[e], 1));
    return Status::ok();
  }

 private:
  ScatterElements(int64_t axis, Reduction red) : axis_(axis), red_(red) {}
  int64_t axis_;
  Reduction red_;
};

class ScatterND final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    PASSLAB_ASSIGN_OR_RETURN(Reduction red, parseReduction(b.node()));
    return std::unique_ptr<Kernel>(new ScatterND(red));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& data = ctx.input(0);
    const Tensor& indices = ctx.input(1);
    const Tensor& updates = ctx.input(2);
    if (!movable(data.dtype())) return unsupported("scattering into " + data.describe());
    if (data.isString() && red_ != Reduction::kNone)
      return unsupported("a reduction over strings");
    PASSLAB_ASSIGN_OR_RETURN(NdPlan p, ndPlan(data, indices, 0));
    if (updates.dtype() != data.dtype() || updates.dims() != p.outDims)
      return invalidArgument("updates " + updates.describe() + " must be " +
                             std::string(ir::dtypeName(data.dtype())) + dimsToString(p.outDims) +
                             " (indices.shape[:-1] + data.shape[k:])");
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, copyOfData(ctx, data));
    for (int64_t t = 0; t < p.tuples; ++t)
      PASSLAB_RETURN_IF_ERROR(combine(red_, updates, t * p.slice, *y,
                                      p.offsets[static_cast<size_t>(t)], p.slice));
    return Status::ok();
  }

 private:
  explicit ScatterND(Reduction red) : red_(red) {}
  Reduction red_;
};

const KernelDef kRows[] = {
    {"", "GatherElements", 11, kOpsetMax, types::kAll, 0, Tier::kReference, "cpu.GatherElements",
     makeKernel<GatherElements>},
    {"", "GatherND", 11, kOpsetMax, types::kAll, 0, Tier::kReference, "cpu.GatherND",
     makeKernel<GatherND>},
    {"", "ScatterElements", 11, kOpsetMax, types::kAll, 0, Tier::kReference,
     "cpu.ScatterElements", makeKernel<ScatterElements>},
    {"", "ScatterND", 11, kOpsetMax, types::kAll, 0, Tier::kReference, "cpu.ScatterND",
     makeKernel<ScatterND>},
    // Scatter (deprecated at 11) is ScatterElements without a reduction.
    {"", "Scatter", 9, kOpsetMax, types::kAll, 0, Tier::kReference, "cpu.Scatter",
     makeKernel<ScatterElements>},
};

}  // namespace

std::span<const KernelDef> gatherScatterKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
