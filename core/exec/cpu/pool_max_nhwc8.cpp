// com.microsoft NhwcMaxPool on 8-bit channels-last tensors (pool_max_nhwc8.h).
// Each output position is the running max of its window's taps inside the
// image, each tap a contiguous row of C channels: the loop over channels is
// what vectorizes (16 or more bytes per instruction), so the work is
// taps x C / vector width per output position, with no gathers.
#include "core/exec/cpu/pool_max_nhwc8.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "core/exec/cpu/window3.h"
#include "core/exec/dtype_traits.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

// dst[c] = max(dst[c], src[c]) over c in [0, n). Locals and __restrict: stores
// through a char type may alias anything, which would stop vectorization.
template <class T>
inline void maxInto(T* __restrict dst, const T* __restrict src, int64_t n) {
  for (int64_t c = 0; c < n; ++c) dst[c] = std::max(dst[c], src[c]);
}

// The taps of axis `a` for output `o` that lie inside the image: the first
// input index and the count (dilated by d).
struct Taps {
  int64_t first = 0, count = 0;
};
Taps tapsOf(const Window3& q, size_t a, int64_t o) {
  const int64_t start = o * q.s[a] - q.pb[a];
  int64_t k0 = 0;
  while (k0 < q.k[a] && start + k0 * q.d[a] < 0) ++k0;
  int64_t k1 = q.k[a];
  while (k1 > k0 && start + (k1 - 1) * q.d[a] >= q.in[a]) --k1;
  return {start + k0 * q.d[a], k1 - k0};
}

}  // namespace

template <class T>
void maxPoolNhwc(const PoolGeometry& g, const T* x, T* y, int threads) {
  const Window3 q(g);
  const int64_t C = g.C;
  const int64_t outPerImage = q.outSize();
  const int64_t rows = g.N * outPerImage;  // output positions, each C channels
  parallelFor(rows, threads, std::max<int64_t>(1, 4096 / (C * q.kSize() + 1)),
              [&](int64_t b, int64_t e) {
                for (int64_t r = b; r < e; ++r) {
                  const int64_t n = r / outPerImage;
                  int64_t rest = r % outPerImage;
                  const int64_t o2 = rest % q.out[2];
                  rest /= q.out[2];
                  const int64_t o1 = rest % q.out[1];
                  const int64_t o0 = rest / q.out[1];
                  const Taps t0 = tapsOf(q, 0, o0), t1 = tapsOf(q, 1, o1), t2 = tapsOf(q, 2, o2);
                  T* out = y + r * C;
                  const T* image = x + n * q.inSize() * C;
                  bool first = true;
                  for (int64_t i0 = 0; i0 < t0.count; ++i0)
                    for (int64_t i1 = 0; i1 < t1.count; ++i1) {
                      const int64_t p0 = t0.first + i0 * q.d[0], p1 = t1.first + i1 * q.d[1];
                      const T* row = image + ((p0 * q.in[1] + p1) * q.in[2]) * C;
                      for (int64_t i2 = 0; i2 < t2.count; ++i2) {
                        const T* src = row + (t2.first + i2 * q.d[2]) * C;
                        if (first) {
                          std::memcpy(out, src, static_cast<size_t>(C));
                          first = false;
                        } else {
                          maxInto(out, src, C);
                        }
                      }
                    }
                  if (first) std::fill(out, out + C, std::numeric_limits<T>::lowest());
                }
              });
}

template void maxPoolNhwc<uint8_t>(const PoolGeometry&, const uint8_t*, uint8_t*, int);
template void maxPoolNhwc<int8_t>(const PoolGeometry&, const int8_t*, int8_t*, int);

namespace {

class NhwcMaxPool final : public Kernel {
 public:
  explicit NhwcMaxPool(PoolAttrs a) : attrs_(std::move(a)) {}

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    if (x.rank() < 3 || x.rank() > 5)
      return invalidArgument("x " + x.describe() +
                             " must be [N, spatial..., C] with 1 to 3 spatial dims");
    // The channels-first dims the geometry is computed for.
    Dims first{x.dim(0), x.dim(x.rank() - 1)};
    for (size_t i = 1; i + 1 < x.rank(); ++i) first.push_back(x.dim(i));
    PASSLAB_ASSIGN_OR_RETURN(PoolGeometry g, poolGeometry(attrs_, first));
    Dims out{g.N};
    out.insert(out.end(), g.out.begin(), g.out.end());
    out.push_back(g.C);
    constexpr TypeSet kTypes{ir::DataType::kInt8, ir::DataType::kUInt8};
    return dispatch<kTypes>(x.dtype(), [&](auto tag) -> Status {
      using T = typename decltype(tag)::type;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), out));
      if (y->numel() > 0) maxPoolNhwc<T>(g, x.data<T>(), y->mutableData<T>(), ctx.threads());
      return Status::ok();
    });
  }

 private:
  PoolAttrs attrs_;
};

}  // namespace

Expected<std::unique_ptr<Kernel>> makeNhwcMaxPool(const KernelBuild& b) {
  PASSLAB_ASSIGN_OR_RETURN(PoolAttrs a, parsePoolAttrs(b.node()));
  return std::unique_ptr<Kernel>(std::make_unique<NhwcMaxPool>(std::move(a)));
}

}  // namespace passlab::exec::cpu
