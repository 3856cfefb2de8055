// TopK: the k largest (or smallest) elements along an axis with their
// indices, in order; equal values keep their index order, NaN counts as the
// largest value. k is an attribute in opset 1 and an input from opset 10.
//
// "Comes before" (the order above, with ties by index) is a strict total
// order, so the k first elements and their order are unique. A line whose
// elements are contiguous and of a type read as is (float, double,
// integers) keeps the k best seen so far in a heap whose top is the worst of
// them, and compares each next element with that top's value first, 16 at a
// time (a test the compiler vectorizes, exact: it lets through a superset of
// the elements that come before the top, NaNs included); only those go
// through the full order. Other lines (strided ones, half types) sort
// indices with std::partial_sort.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <type_traits>
#include <vector>

#include "core/exec/cpu/data_util.h"
#include "core/exec/cpu/families.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

template <class C>
bool isNan(C v) {
  if constexpr (std::is_floating_point_v<C>) {
    return std::isnan(v);
  } else {
    return false;
  }
}

// Whether p comes before q: NaN first when largest (last otherwise), then by
// value, then by index.
template <class C>
bool comesBefore(C a, int64_t p, C c, int64_t q, bool largest) {
  const bool na = isNan(a), nc = isNan(c);
  if (na || nc) {
    if (na && nc) return p < q;
    return largest ? na : nc;
  }
  if (a != c) return largest ? a > c : a < c;
  return p < q;
}

// Whether v may come before a top of value t (when it does, this is true;
// NaN on either side lets v through).
template <class C>
bool mayPass(C v, C t, bool largest) {
  return largest ? !(v <= t) : !(v >= t);
}

// The k first of the contiguous line x[0, len) in order, into order[0, k).
template <class C>
void topOfLine(const C* x, int64_t len, int64_t k, bool largest, int64_t* order) {
  if (k == 0) return;
  auto before = [&](int64_t p, int64_t q) { return comesBefore(x[p], p, x[q], q, largest); };
  std::iota(order, order + k, int64_t{0});
  std::make_heap(order, order + k, before);  // top: the worst of the k
  C top = x[order[0]];
  auto offer = [&](int64_t i) {
    if (!before(i, order[0])) return;
    std::pop_heap(order, order + k, before);
    order[k - 1] = i;
    std::push_heap(order, order + k, before);
    top = x[order[0]];
  };
  int64_t i = k;
  constexpr int64_t kBlock = 16;
  for (; i + kBlock <= len; i += kBlock) {
    bool any = false;
    for (int64_t j = 0; j < kBlock; ++j) any |= mayPass(x[i + j], top, largest);
    if (!any) continue;
    for (int64_t j = 0; j < kBlock; ++j)
      if (mayPass(x[i + j], top, largest)) offer(i + j);
  }
  for (; i < len; ++i) offer(i);
  std::sort_heap(order, order + k, before);
}

class TopK final : public Kernel {
 public:
  explicit TopK(const KernelBuild& b)
      : kFromInput_(b.opset() >= 10),
        attrK_(b.node().attrInt("k", -1)),
        axis_(b.node().attrInt("axis", -1)),
        largest_(b.node().attrInt("largest", 1) != 0) {}

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    int64_t k = attrK_;
    if (kFromInput_) {
      const Tensor& kt = ctx.input(1);
      if (kt.numel() != 1) return invalidArgument("K must hold one value, got " + kt.describe());
      PASSLAB_ASSIGN_OR_RETURN(std::vector<int64_t> kv, readInts(kt, "K"));
      k = kv[0];
    }
    const auto rank = static_cast<int64_t>(x.rank());
    if (rank == 0) return invalidArgument("the input must have at least one dim");
    PASSLAB_ASSIGN_OR_RETURN(int64_t axis, normalizeAxis(axis_, rank));
    const int64_t len = x.dim(static_cast<size_t>(axis));
    if (k < 0 || k > len)
      return invalidArgument("k = " + std::to_string(k) + " is outside [0, " + std::to_string(len) +
                             "] for axis " + std::to_string(axis) + " of " + x.describe());
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < axis; ++d) outer *= x.dim(static_cast<size_t>(d));
    for (int64_t d = axis + 1; d < rank; ++d) inner *= x.dim(static_cast<size_t>(d));
    Dims outDims = x.dims();
    outDims[static_cast<size_t>(axis)] = k;
    return dispatch<types::kNumeric>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      using C = ComputeT<S>;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * values, ctx.allocate(0, x.dtype(), outDims));
      PASSLAB_ASSIGN_OR_RETURN(Tensor * indices, ctx.allocate(1, ir::DataType::kInt64, outDims));
      const S* in = x.data<S>();
      S* vo = values->mutableData<S>();
      int64_t* io = indices->mutableData<int64_t>();
      const bool largest = largest_;
      parallelFor(outer * inner, ctx.threads(), std::max<int64_t>(1, 4096 / (len + 1)),
                  [&](int64_t b, int64_t e) {
                    if constexpr (std::is_same_v<S, C>) {
                      if (inner == 1) {
                        std::vector<int64_t> order(static_cast<size_t>(k));
                        for (int64_t line = b; line < e; ++line) {
                          const S* xr = in + line * len;
                          topOfLine(xr, len, k, largest, order.data());
                          for (int64_t j = 0; j < k; ++j) {
                            vo[line * k + j] = xr[order[static_cast<size_t>(j)]];
                            io[line * k + j] = order[static_cast<size_t>(j)];
                          }
                        }
                        return;
                      }
                    }
                    std::vector<C> vals(static_cast<size_t>(len));
                    std::vector<int64_t> order(static_cast<size_t>(len));
                    for (int64_t line = b; line < e; ++line) {
                      const int64_t base = (line / inner) * len * inner + line % inner;
                      for (int64_t j = 0; j < len; ++j)
                        vals[static_cast<size_t>(j)] = load(in[base + j * inner]);
                      std::iota(order.begin(), order.end(), int64_t{0});
                      auto before = [&](int64_t p, int64_t q) {
                        return comesBefore(vals[static_cast<size_t>(p)], p,
                                           vals[static_cast<size_t>(q)], q, largest);
                      };
                      std::partial_sort(order.begin(), order.begin() + k, order.end(), before);
                      const int64_t outBase = (line / inner) * k * inner + line % inner;
                      for (int64_t j = 0; j < k; ++j) {
                        const int64_t src = order[static_cast<size_t>(j)];
                        vo[outBase + j * inner] = in[base + src * inner];
                        io[outBase + j * inner] = src;
                      }
                    }
                  });
      return Status::ok();
    });
  }

 private:
  bool kFromInput_;
  int64_t attrK_;
  int64_t axis_;
  bool largest_;
};

const KernelDef kRows[] = {
    {"", "TopK", 1, kOpsetMax, types::kNumeric, 0, Tier::kReference, "cpu.TopK", makeKernel<TopK>},
};

}  // namespace

std::span<const KernelDef> topKKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
