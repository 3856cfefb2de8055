// Device code of the unary elementwise kernels, Not and Cast (see
// elementwise_launch.h). Float types are read as float, computed in float and
// rounded once on store, as the CPU kernels do; the formulas are the CPU
// kernels' (core/exec/cpu/unary_ops.cpp, unary_math.cpp, activations.cpp,
// clip.cpp, cast.cpp), including how NaN passes through the ?: selections.
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
using device::fromFloat;
using device::kThreads;
using device::toFloat;

__device__ __forceinline__ float clamp01(float v) {
  return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
}

__device__ __forceinline__ float softplusf(float x) {
  return x > 0.0f ? x + log1pf(expf(-x)) : log1pf(expf(x));
}

template <UnaryOp Op>
__device__ __forceinline__ float unaryOp(float x, float alpha, float beta) {
  if constexpr (Op == UnaryOp::kRelu) return x < 0.0f ? 0.0f : x;  // std::max(x, 0): NaN stays
  if constexpr (Op == UnaryOp::kSigmoid)
    return x >= 0.0f ? 1.0f / (1.0f + expf(-x)) : expf(x) / (1.0f + expf(x));
  if constexpr (Op == UnaryOp::kTanh) return tanhf(x);
  if constexpr (Op == UnaryOp::kExp) return expf(x);
  if constexpr (Op == UnaryOp::kLog) return logf(x);
  if constexpr (Op == UnaryOp::kSqrt) return sqrtf(x);
  if constexpr (Op == UnaryOp::kNeg) return -x;
  if constexpr (Op == UnaryOp::kAbs) return fabsf(x);
  if constexpr (Op == UnaryOp::kReciprocal) return 1.0f / x;
  if constexpr (Op == UnaryOp::kErf) return erff(x);
  if constexpr (Op == UnaryOp::kFloor) return floorf(x);
  if constexpr (Op == UnaryOp::kCeil) return ceilf(x);
  if constexpr (Op == UnaryOp::kRound) return rintf(x);  // halves to even
  if constexpr (Op == UnaryOp::kSign) {
    if (x != x) return x;
    return x > 0.0f ? 1.0f : (x < 0.0f ? -1.0f : 0.0f);
  }
  if constexpr (Op == UnaryOp::kSin) return sinf(x);
  if constexpr (Op == UnaryOp::kCos) return cosf(x);
  if constexpr (Op == UnaryOp::kTan) return tanf(x);
  if constexpr (Op == UnaryOp::kAsin) return asinf(x);
  if constexpr (Op == UnaryOp::kAcos) return acosf(x);
  if constexpr (Op == UnaryOp::kAtan) return atanf(x);
  if constexpr (Op == UnaryOp::kSinh) return sinhf(x);
  if constexpr (Op == UnaryOp::kCosh) return coshf(x);
  if constexpr (Op == UnaryOp::kAsinh) return asinhf(x);
  if constexpr (Op == UnaryOp::kAcosh) return acoshf(x);
  if constexpr (Op == UnaryOp::kAtanh) return atanhf(x);
  if constexpr (Op == UnaryOp::kSoftplus) return softplusf(x);
  if constexpr (Op == UnaryOp::kSoftsign) return x / (1.0f + fabsf(x));
  if constexpr (Op == UnaryOp::kHardSigmoid) return clamp01(alpha * x + beta);
  if constexpr (Op == UnaryOp::kHardSwish) return x * clamp01(x / 6.0f + 0.5f);
  if constexpr (Op == UnaryOp::kLeakyRelu) return x < 0.0f ? alpha * x : x;
  if constexpr (Op == UnaryOp::kElu) return x < 0.0f ? alpha * expm1f(x) : x;
  if constexpr (Op == UnaryOp::kSelu)  // beta = gamma
    return x > 0.0f ? beta * x : beta * (alpha * expf(x) - alpha);
  if constexpr (Op == UnaryOp::kCelu) return x > 0.0f ? x : alpha * expm1f(x / alpha);
  if constexpr (Op == UnaryOp::kThresholdedRelu) return x > alpha ? x : 0.0f;
  if constexpr (Op == UnaryOp::kMish) return x * tanhf(softplusf(x));
  if constexpr (Op == UnaryOp::kGeluErf) return 0.5f * x * (1.0f + erff(x * 0.70710678118654752f));
  if constexpr (Op == UnaryOp::kGeluTanh) {
    const float k = 0.79788456080286536f;  // sqrt(2 / pi)
    return 0.5f * x * (1.0f + tanhf(k * (x + 0.044715f * x * x * x)));
  }
  if constexpr (Op == UnaryOp::kClip) {  // as clip.cpp: v < lo ? lo : v, then v > hi ? hi : v
    float v = x < alpha ? alpha : x;
    return v > beta ? beta : v;
  }
  return x;
}

template <UnaryOp Op, class T>
__global__ void unaryKernel(const T* __restrict__ x, T* __restrict__ y, int64_t n, float alpha,
                            float beta) {
  PASSLAB_GRID_STRIDE_LOOP(i, n) {
    y[i] = fromFloat<T>(unaryOp<Op>(toFloat(x[i]), alpha, beta));
  }
}

template <UnaryOp Op>
int unaryFor(ElemType type, const void* x, void* y, int64_t n, float alpha, float beta,
             cudaStream_t s) {
  const unsigned blocks = blocksFor(n);
  switch (type) {
    case ElemType::kFloat32:
      unaryKernel<Op, float><<<blocks, kThreads, 0, s>>>(static_cast<const float*>(x),
                                                         static_cast<float*>(y), n, alpha, beta);
      break;
    case ElemType::kFloat16:
      unaryKernel<Op, __half><<<blocks, kThreads, 0, s>>>(static_cast<const __half*>(x),
                                                          static_cast<__half*>(y), n, alpha, beta);
      break;
    case ElemType::kBFloat16:
      unaryKernel<Op, __nv_bfloat16><<<blocks, kThreads, 0, s>>>(
          static_cast<const __nv_bfloat16*>(x), static_cast<__nv_bfloat16*>(y), n, alpha, beta);
      break;
    default:
      return static_cast<int>(cudaErrorInvalidValue);
  }
  return static_cast<int>(cudaGetLastError());
}

__global__ void notKernel(const bool* __restrict__ x, bool* __restrict__ y, int64_t n) {
  PASSLAB_GRID_STRIDE_LOOP(i, n) {
    y[i] = !x[i];
  }
}

// ---- Cast ----

// A value in flight: float types as float, integers as int64 (exact), bool.
template <class T>
struct CastIo;
template <>
struct CastIo<float> {
  static constexpr bool kFloat = true;
};
template <>
struct CastIo<__half> {
  static constexpr bool kFloat = true;
};
template <>
struct CastIo<__nv_bfloat16> {
  static constexpr bool kFloat = true;
};
template <>
struct CastIo<int32_t> {
  static constexpr bool kFloat = false;
};
template <>
struct CastIo<int64_t> {
  static constexpr bool kFloat = false;
};
template <>
struct CastIo<int8_t> {
  static constexpr bool kFloat = false;
};
template <>
struct CastIo<uint8_t> {
  static constexpr bool kFloat = false;
};
template <>
struct CastIo<bool> {
  static constexpr bool kFloat = false;
};

// cast.cpp's truncBits: toward zero into 64 bits; NaN and |v| >= 2^64 give 0.
__device__ __forceinline__ uint64_t truncBits(double v) {
  if (!(fabs(v) < 18446744073709551616.0)) return 0;
  double t = trunc(v);
  if (t >= 9223372036854775808.0) return static_cast<uint64_t>(t);
  return static_cast<uint64_t>(static_cast<int64_t>(t));
}

template <class S, class D>
__device__ __forceinline__ D castOne(S v) {
  if constexpr (CastIo<S>::kFloat) {
    const float f = toFloat(v);
    if constexpr (std::is_same_v<D, bool>) {
      return f != 0.0f;
    } else if constexpr (CastIo<D>::kFloat) {
      return fromFloat<D>(f);
    } else {
      return static_cast<D>(truncBits(static_cast<double>(f)));
    }
  } else {
    if constexpr (std::is_same_v<D, bool>) {
      return v != 0;
    } else if constexpr (CastIo<D>::kFloat) {
      // Integer -> float (round to nearest), then rounded to the 16-bit
      // type, as the CPU does (static_cast<float>, then store).
      float f;
      if constexpr (std::is_same_v<S, bool>)
        f = v ? 1.0f : 0.0f;
      else
        f = static_cast<float>(v);
      return fromFloat<D>(f);
    } else {
      return static_cast<D>(v);  // integers wrap to the target width
    }
  }
}

template <class S, class D>
__global__ void castKernel(const S* __restrict__ x, D* __restrict__ y, int64_t n) {
  PASSLAB_GRID_STRIDE_LOOP(i, n) {
    y[i] = castOne<S, D>(x[i]);
  }
}

}  // namespace

int launchUnary(UnaryOp op, ElemType type, const void* x, void* y, int64_t n, float alpha,
                float beta, cudaStream_t stream) {
  if (n <= 0) return 0;
  switch (op) {
#define PASSLAB_UNARY_CASE(Name) \
  case UnaryOp::Name:            \
    return unaryFor<UnaryOp::Name>(type, x, y, n, alpha, beta, stream);
    PASSLAB_UNARY_CASE(kRelu)
    PASSLAB_UNARY_CASE(kSigmoid)
    PASSLAB_UNARY_CASE(kTanh)
    PASSLAB_UNARY_CASE(kExp)
    PASSLAB_UNARY_CASE(kLog)
    PASSLAB_UNARY_CASE(kSqrt)
    PASSLAB_UNARY_CASE(kNeg)
    PASSLAB_UNARY_CASE(kAbs)
    PASSLAB_UNARY_CASE(kReciprocal)
    PASSLAB_UNARY_CASE(kErf)
    PASSLAB_UNARY_CASE(kFloor)
    PASSLAB_UNARY_CASE(kCeil)
    PASSLAB_UNARY_CASE(kRound)
    PASSLAB_UNARY_CASE(kSign)
    PASSLAB_UNARY_CASE(kSin)
    PASSLAB_UNARY_CASE(kCos)
    PASSLAB_UNARY_CASE(kTan)
    PASSLAB_UNARY_CASE(kAsin)
    PASSLAB_UNARY_CASE(kAcos)
    PASSLAB_UNARY_CASE(kAtan)
    PASSLAB_UNARY_CASE(kSinh)
    PASSLAB_UNARY_CASE(kCosh)
    PASSLAB_UNARY_CASE(kAsinh)
    PASSLAB_UNARY_CASE(kAcosh)
    PASSLAB_UNARY_CASE(kAtanh)
    PASSLAB_UNARY_CASE(kSoftplus)
    PASSLAB_UNARY_CASE(kSoftsign)
    PASSLAB_UNARY_CASE(kHardSigmoid)
    PASSLAB_UNARY_CASE(kHardSwish)
    PASSLAB_UNARY_CASE(kLeakyRelu)
    PASSLAB_UNARY_CASE(kElu)
    PASSLAB_UNARY_CASE(kSelu)
    PASSLAB_UNARY_CASE(kCelu)
    PASSLAB_UNARY_CASE(kThresholdedRelu)
    PASSLAB_UNARY_CASE(kMish)
    PASSLAB_UNARY_CASE(kGeluErf)
    PASSLAB_UNARY_CASE(kGeluTanh)
    PASSLAB_UNARY_CASE(kClip)
#undef PASSLAB_UNARY_CASE
  }
  return static_cast<int>(cudaErrorInvalidValue);
}

int launchNot(const void* x, void* y, int64_t n, cudaStream_t stream) {
  if (n <= 0) return 0;
  notKernel<<<blocksFor(n), kThreads, 0, stream>>>(static_cast<const bool*>(x),
                                                   static_cast<bool*>(y), n);
  return static_cast<int>(cudaGetLastError());
}

int launchCast(ElemType from, ElemType to, const void* x, void* y, int64_t n, cudaStream_t stream) {
  if (n <= 0) return 0;
  int rc = static_cast<int>(cudaErrorInvalidValue);
  withElemType(from, [&]<class S>() {
    withElemType(to, [&]<class D>() {
      castKernel<S, D>
          <<<blocksFor(n), kThreads, 0, stream>>>(static_cast<const S*>(x), static_cast<D*>(y), n);
      rc = static_cast<int>(cudaGetLastError());
    });
  });
  return rc;
}

}  // namespace passlab::exec::cuda::ew
