// Operators that compute indices or from indices: OneHot, NonZero, Unique.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "core/exec/cpu/data_util.h"
#include "core/exec/cpu/families.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

namespace {

// Any numeric tensor as int64 values (floats truncated toward zero).
Expected<std::vector<int64_t>> readAsInt64(const Tensor& t, const char* what) {
  std::vector<int64_t> out(static_cast<size_t>(t.numel()));
  Status s = dispatch<types::kNumeric>(t.dtype(), [&](auto tag) -> Status {
    using S = typename decltype(tag)::type;
    const S* p = t.data<S>();
    for (size_t i = 0; i < out.size(); ++i) {
      auto v = load(p[i]);
      if constexpr (std::is_floating_point_v<decltype(v)>) {
        if (!std::isfinite(v)) return invalidArgument(std::string(what) + " is not finite");
      }
      out[i] = static_cast<int64_t>(v);
    }
    return Status::ok();
  });
  if (!s) return s.error().withContext(what);
  return out;
}

class OneHot final : public Kernel {
 public:
  explicit OneHot(const KernelBuild& b)
      : axis_(b.node().attrInt("axis", -1)), negativeIndices_(b.opset() >= 11) {}

  Status run(KernelContext& ctx) override {
    const Tensor& indices = ctx.input(0);
    const Tensor& depthT = ctx.input(1);
    const Tensor& values = ctx.input(2);
    if (depthT.numel() != 1)
      return invalidArgument("depth must hold one value, got " + depthT.describe());
    if (values.numel() != 2 || !movable(values.dtype()))
      return invalidArgument("values must be [off_value, on_value], got " + values.describe());
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int64_t> dv, readAsInt64(depthT, "depth"));
    const int64_t depth = dv[0];
    if (depth < 1) return invalidArgument("depth must be positive, got " + std::to_string(depth));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int64_t> idx, readAsInt64(indices, "indices"));
    const auto outRank = static_cast<int64_t>(indices.rank()) + 1;
    PASSLAB_ASSIGN_OR_RETURN(int64_t axis, normalizeAxis(axis_, outRank));
    Dims out = indices.dims();
    out.insert(out.begin() + axis, depth);
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, values.dtype(), out));
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < axis; ++d) outer *= indices.dim(static_cast<size_t>(d));
    for (size_t d = static_cast<size_t>(axis); d < indices.rank(); ++d) inner *= indices.dim(d);
    // Every element off, then one on per index inside [0, depth).
    return dispatch<types::kAll>(values.dtype(), [&](auto tag) -> Status {
      using T = typename decltype(tag)::type;
      const T off = values.data<T>()[0], on = values.data<T>()[1];
      T* yp = y->mutableData<T>();
      std::fill_n(yp, y->numel(), off);
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
          int64_t v = idx[static_cast<size_t>(o * inner + i)];
          if (v < 0 && negativeIndices_) v += depth;
          if (v >= 0 && v < depth) yp[(o * depth + v) * inner + i] = on;
        }
      return Status::ok();
    });
  }

 private:
  int64_t axis_;
  bool negativeIndices_;
};

// Whether element i of t is non-zero (true; non-empty for strings).
Expected<std::vector<bool>> nonZeroMask(const Tensor& t) {
  std::vector<bool> mask(static_cast<size_t>(t.numel()));
  Status s = dispatch<types::kAll>(t.dtype(), [&](auto tag) -> Status {
    using S = typename decltype(tag)::type;
    const S* p = t.data<S>();
    for (size_t i = 0; i < mask.size(); ++i) {
      if constexpr (std::is_same_v<S, std::string>) {
        mask[i] = !p[i].empty();
      } else {
        mask[i] = load(p[i]) != 0;
      }
    }
    return Status::ok();
  });
  if (!s) return s.error();
  return mask;
}

class NonZero final : public Kernel {
 public:
  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    PASSLAB_ASSIGN_OR_RETURN(std::vector<bool> mask, nonZeroMask(x));
    const auto count = static_cast<int64_t>(std::count(mask.begin(), mask.end(), true));
    // A scalar counts as one element of a 1-D tensor (as numpy and ONNX Runtime).
    const size_t rank = std::max<size_t>(x.rank(), 1);
    Dims dims = x.rank() == 0 ? Dims{1} : x.dims();
    PASSLAB_ASSIGN_OR_RETURN(
        Tensor * y, ctx.allocate(0, ir::DataType::kInt64, {static_cast<int64_t>(rank), count}));
    int64_t* out = y->mutableData<int64_t>();
    int64_t k = 0;
    for (size_t i = 0; i < mask.size(); ++i) {
      if (!mask[i]) continue;
      auto rest = static_cast<int64_t>(i);
      for (size_t d = rank; d-- > 0;) {
        out[static_cast<int64_t>(d) * count + k] = rest % dims[d];
        rest /= dims[d];
      }
      ++k;
    }
    return Status::ok();
  }
};

class Unique final : public Kernel {
 public:
  explicit Unique(const KernelBuild& b)
      : hasAxis_(b.node().hasAttr("axis")),
        axis_(b.node().attrInt("axis", 0)),
        sorted_(b.node().attrInt("sorted", 1) != 0) {}

  Status run(KernelContext& ctx) override {
    const Tensor& x0 = ctx.input(0);
    if (!movable(x0.dtype())) return unsupported("Unique of " + x0.describe());
    const Tensor x = hasAxis_ ? x0 : x0.view({x0.numel()});
    PASSLAB_ASSIGN_OR_RETURN(int64_t axis,
                             normalizeAxis(hasAxis_ ? axis_ : 0, static_cast<int64_t>(x.rank())));
    const int64_t n = x.dim(static_cast<size_t>(axis));
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < axis; ++d) outer *= x.dim(static_cast<size_t>(d));
    for (size_t d = static_cast<size_t>(axis) + 1; d < x.rank(); ++d) inner *= x.dim(d);
    // Slices i along the axis, compared element by element.
    std::vector<int64_t> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    std::vector<int64_t> groupOf(static_cast<size_t>(n));
    std::vector<int64_t> firsts;  // first slice of each group, in output order
    Status s = dispatch<types::kAll>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      const S* p = x.data<S>();
      auto cmp = [&](int64_t a, int64_t b) -> int {
        for (int64_t o = 0; o < outer; ++o)
          for (int64_t i = 0; i < inner; ++i) {
            const S& va = p[(o * n + a) * inner + i];
            const S& vb = p[(o * n + b) * inner + i];
            if constexpr (std::is_same_v<S, std::string>) {
              if (va != vb) return va < vb ? -1 : 1;
            } else {
              auto la = load(va), lb = load(vb);
              if (la < lb) return -1;
              if (lb < la) return 1;
            }
          }
        return 0;
      };
      std::stable_sort(order.begin(), order.end(),
                       [&](int64_t a, int64_t b) { return cmp(a, b) < 0; });
      for (size_t k = 0; k < order.size(); ++k) {
        if (k == 0 || cmp(order[k - 1], order[k]) != 0) firsts.push_back(order[k]);
        groupOf[static_cast<size_t>(order[k])] = static_cast<int64_t>(firsts.size()) - 1;
      }
      return Status::ok();
    });
    if (!s) return s;
    const auto u = static_cast<int64_t>(firsts.size());
    // Unsorted output lists groups by first occurrence.
    std::vector<int64_t> rank(static_cast<size_t>(u));
    std::iota(rank.begin(), rank.end(), 0);
    if (!sorted_) {
      std::vector<int64_t> byFirst(static_cast<size_t>(u));
      std::iota(byFirst.begin(), byFirst.end(), 0);
      std::sort(byFirst.begin(), byFirst.end(), [&](int64_t a, int64_t b) {
        return firsts[static_cast<size_t>(a)] < firsts[static_cast<size_t>(b)];
      });
      std::vector<int64_t> newFirsts(static_cast<size_t>(u));
      for (int64_t k = 0; k < u; ++k) {
        rank[static_cast<size_t>(byFirst[static_cast<size_t>(k)])] = k;
        newFirsts[static_cast<size_t>(k)] =
            firsts[static_cast<size_t>(byFirst[static_cast<size_t>(k)])];
      }
      firsts = std::move(newFirsts);
    }
    Dims ydims = x.dims();
    ydims[static_cast<size_t>(axis)] = u;
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), ydims));
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t k = 0; k < u; ++k)
        copyElements(x, (o * n + firsts[static_cast<size_t>(k)]) * inner, *y, (o * u + k) * inner,
                     inner);
    if (ctx.wantsOutput(1)) {
      PASSLAB_ASSIGN_OR_RETURN(Tensor * t, ctx.allocate(1, ir::DataType::kInt64, {u}));
      for (int64_t k = 0; k < u; ++k) t->mutableData<int64_t>()[k] = firsts[static_cast<size_t>(k)];
    }
    if (ctx.wantsOutput(2)) {
      PASSLAB_ASSIGN_OR_RETURN(Tensor * t, ctx.allocate(2, ir::DataType::kInt64, {n}));
      for (int64_t i = 0; i < n; ++i)
        t->mutableData<int64_t>()[i] = rank[static_cast<size_t>(groupOf[static_cast<size_t>(i)])];
    }
    if (ctx.wantsOutput(3)) {
      PASSLAB_ASSIGN_OR_RETURN(Tensor * t, ctx.allocate(3, ir::DataType::kInt64, {u}));
      std::fill(t->mutableData<int64_t>(), t->mutableData<int64_t>() + u, 0);
      for (int64_t i = 0; i < n; ++i)
        ++t->mutableData<int64_t>()[rank[static_cast<size_t>(groupOf[static_cast<size_t>(i)])]];
    }
    return Status::ok();
  }

 private:
  bool hasAxis_;
  int64_t axis_;
  bool sorted_;
};

const KernelDef kRows[] = {
    {"", "OneHot", 9, kOpsetMax, types::kNumeric, 0, Tier::kReference, "cpu.OneHot",
     makeKernel<OneHot>},
    {"", "NonZero", 9, kOpsetMax, types::kAll, 0, Tier::kReference, "cpu.NonZero",
     makeKernel<NonZero>},
    {"", "Unique", 11, kOpsetMax, types::kAll, 0, Tier::kReference, "cpu.Unique",
     makeKernel<Unique>},
};

}  // namespace

std::span<const KernelDef> indexKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
