// Device code of the broadcasting elementwise kernels: binary arithmetic,
// comparisons, logic, Pow, PRelu and Where (see elementwise_launch.h). The
// operators mirror the CPU functors (core/exec/cpu/arith_ops.h,
// compare_ops.cpp, logical_ops.cpp, pow_mod.cpp, activations.cpp): float types
// computed in float, integers wrap, integer division truncates and a zero
// divisor gives 0, Max/Min propagate NaN.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "core/exec/cuda/device_math.cuh"
#include "core/exec/cuda/elementwise_launch.h"
#include "core/exec/cuda/elementwise_types.cuh"

namespace passlab::exec::cuda::ew {

namespace {

using device::blocksFor;
using device::kThreads;

// Broadcasts of fewer elements index in 32 bits (the grid-stride step, at
// most 2^31 threads, cannot wrap past 2^32 from below 2^31).
constexpr int64_t kMax32 = (int64_t{1} << 31) - 1;

template <class T>
inline constexpr bool kIsFloat =
    std::is_same_v<T, float> || std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>;

// The type arithmetic on storage type T is done in.
template <class T>
using ComputeT = std::conditional_t<kIsFloat<T>, float, T>;

template <class T>
__device__ __forceinline__ ComputeT<T> load(T v) {
  if constexpr (kIsFloat<T>)
    return device::toFloat(v);
  else
    return v;
}
template <class T, class C>
__device__ __forceinline__ T store(C v) {
  if constexpr (kIsFloat<T>)
    return device::fromFloat<T>(static_cast<float>(v));
  else
    return static_cast<T>(v);
}

// Integer arithmetic on the two's complement bits (no signed overflow).
template <class C>
__device__ __forceinline__ C wrapAdd(C a, C b) {
  using U = std::make_unsigned_t<C>;
  return static_cast<C>(static_cast<U>(a) + static_cast<U>(b));
}
template <class C>
__device__ __forceinline__ C wrapSub(C a, C b) {
  using U = std::make_unsigned_t<C>;
  return static_cast<C>(static_cast<U>(a) - static_cast<U>(b));
}
template <class C>
__device__ __forceinline__ C wrapMul(C a, C b) {
  using U = std::make_unsigned_t<C>;
  return static_cast<C>(static_cast<U>(a) * static_cast<U>(b));
}

template <BinaryOp Op>
struct BinaryFn {
  int count = 1;  // kMeanFinish

  template <class C, class E>
  __device__ __forceinline__ auto operator()(C a, E b) const {
    if constexpr (Op == BinaryOp::kAdd) {
      if constexpr (std::is_integral_v<C>)
        return wrapAdd(a, b);
      else
        return a + b;
    } else if constexpr (Op == BinaryOp::kSub) {
      if constexpr (std::is_integral_v<C>)
        return wrapSub(a, b);
      else
        return a - b;
    } else if constexpr (Op == BinaryOp::kMul) {
      if constexpr (std::is_integral_v<C>)
        return wrapMul(a, b);
      else
        return a * b;
    } else if constexpr (Op == BinaryOp::kDiv) {
      if constexpr (std::is_integral_v<C>) {
        if (b == 0) return C(0);
        if (b == C(-1)) return wrapSub(C(0), a);
        return static_cast<C>(a / b);
      } else {
        return a / b;
      }
    } else if constexpr (Op == BinaryOp::kMax || Op == BinaryOp::kMin) {
      if constexpr (!std::is_integral_v<C>) {
        if (a != a) return a;
        if (b != b) return b;
      }
      if constexpr (Op == BinaryOp::kMax)
        return a < b ? b : a;
      else
        return b < a ? b : a;
    } else if constexpr (Op == BinaryOp::kMeanFinish) {
      return (a + b) / static_cast<C>(count);
    } else if constexpr (Op == BinaryOp::kPow) {
      // pow_mod.cpp: the constant exponents of float models exactly, pow otherwise.
      const float x = a;
      const float e = static_cast<float>(b);
      if (e == 2.0f) return x * x;
      if (e == 3.0f) return x * x * x;
      if (e == 1.0f) return x;
      if (e == 0.5f) return isinf(x) ? fabsf(x) : sqrtf(x);
      return powf(x, e);
    } else if constexpr (Op == BinaryOp::kPRelu) {
      return a < C(0) ? static_cast<C>(b * a) : a;
    } else if constexpr (Op == BinaryOp::kEqual) {
      return a == b;
    } else if constexpr (Op == BinaryOp::kLess) {
      return a < b;
    } else if constexpr (Op == BinaryOp::kLessOrEqual) {
      return a <= b;
    } else if constexpr (Op == BinaryOp::kGreater) {
      return a > b;
    } else if constexpr (Op == BinaryOp::kGreaterOrEqual) {
      return a >= b;
    } else if constexpr (Op == BinaryOp::kAnd) {
      return a && b;
    } else if constexpr (Op == BinaryOp::kOr) {
      return a || b;
    } else {  // kXor
      return a != b;
    }
  }
};

template <BinaryOp Op>
inline constexpr bool kCompare =
    Op == BinaryOp::kEqual || Op == BinaryOp::kLess || Op == BinaryOp::kLessOrEqual ||
    Op == BinaryOp::kGreater || Op == BinaryOp::kGreaterOrEqual;
template <BinaryOp Op>
inline constexpr bool kLogic = Op == BinaryOp::kAnd || Op == BinaryOp::kOr || Op == BinaryOp::kXor;

// The (a, b) type pairs each operator takes.
template <BinaryOp Op, class TA, class TB>
constexpr bool takes() {
  constexpr bool wideInt = std::is_same_v<TA, int32_t> || std::is_same_v<TA, int64_t>;
  constexpr bool smallInt = std::is_same_v<TA, int8_t> || std::is_same_v<TA, uint8_t>;
  if constexpr (Op == BinaryOp::kPow) {
    return kIsFloat<TA> && !std::is_same_v<TB, bool>;
  } else {
    if constexpr (!std::is_same_v<TA, TB>) return false;
    if constexpr (Op == BinaryOp::kPRelu) return kIsFloat<TA>;
    if constexpr (Op == BinaryOp::kMeanFinish) return kIsFloat<TA>;
    if constexpr (kLogic<Op>) return std::is_same_v<TA, bool>;
    if constexpr (Op == BinaryOp::kEqual)
      return kIsFloat<TA> || wideInt || smallInt || std::is_same_v<TA, bool>;
    if constexpr (kCompare<Op>) return kIsFloat<TA> || wideInt || smallInt;
    return kIsFloat<TA> || wideInt;  // arithmetic, Max, Min
  }
}

// Operand k's offset for output element i, in index type I (uint32_t when
// every offset fits: inputs broadcast to the output, so none exceeds n).
template <bool kFlat, class I, int K>
__device__ __forceinline__ void offsets(const BroadcastIndex& idx, I i, I (&off)[K]) {
  if constexpr (kFlat) {
#pragma unroll
    for (int k = 0; k < K; ++k) off[k] = i * static_cast<I>(idx.strides[k][0]);
  } else {
#pragma unroll
    for (int k = 0; k < K; ++k) off[k] = 0;
    I rest = i;
    for (int d = idx.rank - 1; d >= 0; --d) {
      const I dim = static_cast<I>(idx.dims[d]);
      const I q = rest / dim;
      const I r = rest - q * dim;
#pragma unroll
      for (int k = 0; k < K; ++k) off[k] += r * static_cast<I>(idx.strides[k][d]);
      rest = q;
    }
  }
}

// Grid-stride loop over n elements with index type I.
#define PASSLAB_GRID_STRIDE_LOOP_T(I, i, n)                                  \
  for (I i = static_cast<I>(blockIdx.x) * blockDim.x + threadIdx.x; i < (n); \
       i += static_cast<I>(blockDim.x) * gridDim.x)

// No __restrict__: Sum/Max/Min/Mean accumulate in place (a == y, element i
// read and written by the same thread).
template <class TA, class TB, class TO, class Fn, bool kFlat, class I>
__global__ void binaryKernel(const TA* a, const TB* b, TO* y,
                             const __grid_constant__ BroadcastIndex idx, I n, Fn fn) {
  PASSLAB_GRID_STRIDE_LOOP_T(I, i, n) {
    I off[2];
    offsets<kFlat>(idx, i, off);
    y[i] = store<TO>(fn(load(a[off[0]]), load(b[off[1]])));
  }
}

template <BinaryOp Op>
int binaryFor(ElemType ta, ElemType tb, const void* a, const void* b, void* y,
              const BroadcastIndex& idx, int64_t n, int count, cudaStream_t s) {
  int rc = static_cast<int>(cudaErrorInvalidValue);
  BinaryFn<Op> fn;
  fn.count = count;
  const bool flat = idx.rank == 1;
  const unsigned blocks = blocksFor(n);
  withElemType(ta, [&]<class TA>() {
    withElemType(tb, [&]<class TB>() {
      if constexpr (takes<Op, TA, TB>()) {
        using TO = std::conditional_t<kCompare<Op>, bool, TA>;
        const auto* pa = static_cast<const TA*>(a);
        const auto* pb = static_cast<const TB*>(b);
        auto* py = static_cast<TO*>(y);
        if (flat)
          binaryKernel<TA, TB, TO, BinaryFn<Op>, true, int64_t>
              <<<blocks, kThreads, 0, s>>>(pa, pb, py, idx, n, fn);
        else if (n <= kMax32)
          binaryKernel<TA, TB, TO, BinaryFn<Op>, false, uint32_t>
              <<<blocks, kThreads, 0, s>>>(pa, pb, py, idx, static_cast<uint32_t>(n), fn);
        else
          binaryKernel<TA, TB, TO, BinaryFn<Op>, false, int64_t>
              <<<blocks, kThreads, 0, s>>>(pa, pb, py, idx, n, fn);
        rc = static_cast<int>(cudaGetLastError());
      }
    });
  });
  return rc;
}

template <class T, bool kFlat, class I>
__global__ void whereKernel(const bool* __restrict__ c, const T* __restrict__ x,
                            const T* __restrict__ y, T* __restrict__ out,
                            const __grid_constant__ BroadcastIndex idx, I n) {
  PASSLAB_GRID_STRIDE_LOOP_T(I, i, n) {
    I off[3];
    offsets<kFlat>(idx, i, off);
    out[i] = c[off[0]] ? x[off[1]] : y[off[2]];
  }
}

template <class T>
int whereFor(const void* c, const void* x, const void* y, void* out, const BroadcastIndex& idx,
             int64_t n, cudaStream_t s) {
  const auto* pc = static_cast<const bool*>(c);
  const auto* px = static_cast<const T*>(x);
  const auto* py = static_cast<const T*>(y);
  auto* po = static_cast<T*>(out);
  if (idx.rank == 1)
    whereKernel<T, true, int64_t><<<blocksFor(n), kThreads, 0, s>>>(pc, px, py, po, idx, n);
  else if (n <= kMax32)
    whereKernel<T, false, uint32_t>
        <<<blocksFor(n), kThreads, 0, s>>>(pc, px, py, po, idx, static_cast<uint32_t>(n));
  else
    whereKernel<T, false, int64_t><<<blocksFor(n), kThreads, 0, s>>>(pc, px, py, po, idx, n);
  return static_cast<int>(cudaGetLastError());
}

}  // namespace

int launchBinary(BinaryOp op, ElemType typeA, ElemType typeB, const void* a, const void* b, void* y,
                 const BroadcastIndex& index, int64_t n, int count, cudaStream_t stream) {
  if (n <= 0) return 0;
  if (index.rank < 1 || index.rank > kMaxRank) return static_cast<int>(cudaErrorInvalidValue);
  switch (op) {
#define PASSLAB_BINARY_CASE(Name) \
  case BinaryOp::Name:            \
    return binaryFor<BinaryOp::Name>(typeA, typeB, a, b, y, index, n, count, stream);
    PASSLAB_BINARY_CASE(kAdd)
    PASSLAB_BINARY_CASE(kSub)
    PASSLAB_BINARY_CASE(kMul)
    PASSLAB_BINARY_CASE(kDiv)
    PASSLAB_BINARY_CASE(kMax)
    PASSLAB_BINARY_CASE(kMin)
    PASSLAB_BINARY_CASE(kPow)
    PASSLAB_BINARY_CASE(kPRelu)
    PASSLAB_BINARY_CASE(kEqual)
    PASSLAB_BINARY_CASE(kLess)
    PASSLAB_BINARY_CASE(kLessOrEqual)
    PASSLAB_BINARY_CASE(kGreater)
    PASSLAB_BINARY_CASE(kGreaterOrEqual)
    PASSLAB_BINARY_CASE(kAnd)
    PASSLAB_BINARY_CASE(kOr)
    PASSLAB_BINARY_CASE(kXor)
    PASSLAB_BINARY_CASE(kMeanFinish)
#undef PASSLAB_BINARY_CASE
  }
  return static_cast<int>(cudaErrorInvalidValue);
}

int launchWhere(int elemBytes, const void* cond, const void* x, const void* y, void* out,
                const BroadcastIndex& index, int64_t n, cudaStream_t stream) {
  if (n <= 0) return 0;
  if (index.rank < 1 || index.rank > kMaxRank) return static_cast<int>(cudaErrorInvalidValue);
  switch (elemBytes) {
    case 1:
      return whereFor<uint8_t>(cond, x, y, out, index, n, stream);
    case 2:
      return whereFor<uint16_t>(cond, x, y, out, index, n, stream);
    case 4:
      return whereFor<uint32_t>(cond, x, y, out, index, n, stream);
    case 8:
      return whereFor<uint64_t>(cond, x, y, out, index, n, stream);
    default:
      return static_cast<int>(cudaErrorInvalidValue);
  }
}

}  // namespace passlab::exec::cuda::ew
