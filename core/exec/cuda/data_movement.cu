// Device code of the data-movement kernels (launch functions in
// data_movement_launch.h): grid-stride loops with int64 indexing; elements
// are moved as unsigned integers of their size.
#include <cstdint>

#include "core/exec/cuda/data_movement_launch.h"
#include "core/exec/cuda/device_math.cuh"

namespace passlab::exec::cuda {

namespace {

using device::blocksFor;
using device::kThreads;

// Calls f.template operator()<E>() with E the unsigned type of `size` bytes.
template <class F>
bool withElementSize(int size, F&& f) {
  switch (size) {
    case 1:
      f.template operator()<uint8_t>();
      return true;
    case 2:
      f.template operator()<uint16_t>();
      return true;
    case 4:
      f.template operator()<uint32_t>();
      return true;
    case 8:
      f.template operator()<uint64_t>();
      return true;
    default:
      return false;
  }
}

template <class E, bool kMod>
__global__ void stridedCopyKernel(const E* __restrict__ src, E* __restrict__ dst, MoveStrides s,
                                  int64_t total) {
  PASSLAB_GRID_STRIDE_LOOP(i, total) {
    int64_t rest = i, off = s.base;
    for (int d = s.rank - 1; d >= 0; --d) {
      const int64_t q = rest / s.dims[d];
      int64_t c = rest - q * s.dims[d];
      rest = q;
      if (kMod) c %= s.mods[d];
      off += c * s.strides[d];
    }
    dst[i] = src[off];
  }
}

// The same with 32-bit index arithmetic (64-bit division is several times
// slower): every index, offset and stride fits in int32.
struct MoveStrides32 {
  int rank;
  int32_t dims[kMaxMoveRank], strides[kMaxMoveRank], mods[kMaxMoveRank];
  int32_t base;
};

template <class E, bool kMod>
__global__ void stridedCopyKernel32(const E* __restrict__ src, E* __restrict__ dst, MoveStrides32 s,
                                    int32_t total) {
  for (int32_t i = static_cast<int32_t>(blockIdx.x * blockDim.x + threadIdx.x); i < total;
       i += static_cast<int32_t>(blockDim.x * gridDim.x)) {
    uint32_t rest = static_cast<uint32_t>(i);
    int32_t off = s.base;
    for (int d = s.rank - 1; d >= 0; --d) {
      const uint32_t q = rest / static_cast<uint32_t>(s.dims[d]);
      uint32_t c = rest - q * static_cast<uint32_t>(s.dims[d]);
      rest = q;
      if (kMod) c %= static_cast<uint32_t>(s.mods[d]);
      off += static_cast<int32_t>(c) * s.strides[d];
    }
    dst[i] = src[off];
  }
}

// `s` with 32-bit fields when the output count and every source offset it
// can reach fit in int32.
bool fits32(const MoveStrides& s, int64_t total, MoveStrides32* out) {
  constexpr int64_t kMax = 0x7fffffffLL;
  // At most 2^30 outputs, so that i + the grid's thread count stays in int32.
  if (total > (1LL << 30) || s.base < 0 || s.base > kMax) return false;
  int64_t lo = s.base, hi = s.base;
  out->rank = s.rank;
  out->base = static_cast<int32_t>(s.base);
  for (int d = 0; d < s.rank; ++d) {
    if (s.dims[d] <= 0 || s.dims[d] > kMax) return false;
    const int64_t reach = (s.dims[d] - 1) * s.strides[d];
    if (s.strides[d] > kMax || s.strides[d] < -kMax || reach > kMax || reach < -kMax) return false;
    (reach < 0 ? lo : hi) += reach;
    if (lo < 0 || hi > kMax) return false;
    out->dims[d] = static_cast<int32_t>(s.dims[d]);
    out->strides[d] = static_cast<int32_t>(s.strides[d]);
    out->mods[d] = static_cast<int32_t>(s.mods[d]);
  }
  return true;
}

// Batched 2-D transpose through shared memory: src [batch][R][C] ->
// dst [batch][C][R], 32 x 32 tiles, blocks of 32 x 8 threads, coalesced reads
// and writes.
constexpr int kTile = 32;
constexpr int kTileRows = 8;

template <class E>
__global__ void transpose2dKernel(const E* __restrict__ src, E* __restrict__ dst, int64_t R,
                                  int64_t C, int64_t tilesR, int64_t tilesC, int64_t totalTiles) {
  __shared__ E tile[kTile][kTile + 1];
  const int64_t perBatch = tilesR * tilesC;
  for (int64_t t = blockIdx.x; t < totalTiles; t += gridDim.x) {
    const int64_t b = t / perBatch, rem = t - b * perBatch;
    const int64_t tr = rem / tilesC, tc = rem - tr * tilesC;
    const E* s = src + b * R * C;
    E* d = dst + b * R * C;
    const int64_t r0 = tr * kTile, c0 = tc * kTile;
    for (int j = threadIdx.y; j < kTile; j += kTileRows) {
      const int64_t r = r0 + j, c = c0 + threadIdx.x;
      if (r < R && c < C) tile[j][threadIdx.x] = s[r * C + c];
    }
    __syncthreads();
    for (int j = threadIdx.y; j < kTile; j += kTileRows) {
      const int64_t c = c0 + j, r = r0 + threadIdx.x;
      if (r < R && c < C) d[c * R + r] = tile[threadIdx.x][j];
    }
    __syncthreads();
  }
}

// The plan is a batched swap of the last two dims of a contiguous source:
// dims [C, R] strides [1, C], or [B, C, R] strides [R * C, 1, C].
bool isSwap2d(const MoveStrides& s, int64_t* batch, int64_t* R, int64_t* C) {
  if (s.base != 0) return false;
  if (s.rank == 2 && s.strides[0] == 1 && s.strides[1] == s.dims[0]) {
    *batch = 1;
    *C = s.dims[0];
    *R = s.dims[1];
    return true;
  }
  if (s.rank == 3 && s.strides[1] == 1 && s.strides[2] == s.dims[1] &&
      s.strides[0] == s.dims[1] * s.dims[2]) {
    *batch = s.dims[0];
    *C = s.dims[1];
    *R = s.dims[2];
    return true;
  }
  return false;
}

template <class E>
__global__ void copyRowsKernel(const E* __restrict__ src, int64_t srcPitch, E* __restrict__ dst,
                               int64_t dstPitch, int64_t rowElems, int64_t total) {
  PASSLAB_GRID_STRIDE_LOOP(i, total) {
    const int64_t r = i / rowElems, c = i - r * rowElems;
    dst[r * dstPitch + c] = src[r * srcPitch + c];
  }
}

// Source index for position i (relative to the input's start) of a dim of
// size n; -1: the constant. As core/exec/cpu/pad.cpp's mapIndex.
__device__ __forceinline__ int64_t padIndex(int mode, int64_t i, int64_t n) {
  if (i >= 0 && i < n) return i;
  if (n <= 0) return -1;
  switch (mode) {
    case 2:
      return i < 0 ? 0 : n - 1;
    case 3:
      return ((i % n) + n) % n;
    case 1: {
      if (n == 1) return 0;
      const int64_t period = 2 * (n - 1);
      const int64_t m = ((i % period) + period) % period;
      return m >= n ? period - m : m;
    }
    default:
      return -1;
  }
}

template <class E>
__global__ void padKernel(const E* __restrict__ src, E* __restrict__ dst, PadArgs a, E fill,
                          int64_t total) {
  PASSLAB_GRID_STRIDE_LOOP(i, total) {
    int64_t rest = i, off = 0, stride = 1;
    bool constant = false;
    for (int d = a.rank - 1; d >= 0; --d) {
      const int64_t q = rest / a.outDims[d];
      const int64_t o = rest - q * a.outDims[d];
      rest = q;
      const int64_t k = padIndex(a.mode, o - a.padBegin[d], a.inDims[d]);
      if (k < 0)
        constant = true;
      else
        off += k * stride;
      stride *= a.inDims[d];
    }
    dst[i] = constant ? fill : src[off];
  }
}

template <class E, class I>
__global__ void gatherKernel(const E* __restrict__ data, const I* __restrict__ indices,
                             E* __restrict__ dst, int64_t n, int64_t count, int64_t inner,
                             int64_t total, int64_t* outOfRange) {
  PASSLAB_GRID_STRIDE_LOOP(i, total) {
    const int64_t j = i / inner, e = i - j * inner;
    const int64_t o = j / count, k = j - o * count;
    const int64_t given = static_cast<int64_t>(indices[k]);
    const int64_t ix = given < 0 ? given + n : given;
    if (ix < 0 || ix >= n) {
      dst[i] = E(0);
      if (outOfRange != nullptr &&
          atomicCAS(reinterpret_cast<unsigned long long*>(outOfRange), 0ull, 1ull) == 0ull)
        outOfRange[1] = given;
      continue;
    }
    dst[i] = data[(o * n + ix) * inner + e];
  }
}

template <class E>
__global__ void resizeNearestKernel(const E* __restrict__ src, E* __restrict__ dst,
                                    const int64_t* __restrict__ maps, int64_t o0, int64_t o1,
                                    int64_t o2, int64_t o3, E fill, int64_t total) {
  PASSLAB_GRID_STRIDE_LOOP(i, total) {
    int64_t r = i;
    const int64_t w = r % o3;
    r /= o3;
    const int64_t h = r % o2;
    r /= o2;
    const int64_t c = r % o1;
    const int64_t n = r / o1;
    const int64_t m0 = maps[n], m1 = maps[o0 + c], m2 = maps[o0 + o1 + h],
                  m3 = maps[o0 + o1 + o2 + w];
    dst[i] = (m0 < 0 || m1 < 0 || m2 < 0 || m3 < 0) ? fill : src[m0 + m1 + m2 + m3];
  }
}

template <class T>
__global__ void resizeLinearKernel(const T* __restrict__ src, T* __restrict__ dst,
                                   const LinearTap* __restrict__ taps, int64_t i1, int64_t i2,
                                   int64_t i3, int64_t o0, int64_t o1, int64_t o2, int64_t o3,
                                   float extrapolation, int64_t total) {
  PASSLAB_GRID_STRIDE_LOOP(i, total) {
    int64_t r = i;
    const int64_t p3 = r % o3;
    r /= o3;
    const int64_t p2 = r % o2;
    r /= o2;
    const int64_t p1 = r % o1;
    const int64_t p0 = r / o1;
    const LinearTap t[4] = {taps[p0], taps[o0 + p1], taps[o0 + o1 + p2], taps[o0 + o1 + o2 + p3]};
    if (t[0].extrapolate || t[1].extrapolate || t[2].extrapolate || t[3].extrapolate) {
      dst[i] = device::fromFloat<T>(extrapolation);
      continue;
    }
    const int64_t strides[4] = {i1 * i2 * i3, i2 * i3, i3, 1};
    float acc = 0.f;
    for (int k = 0; k < 16; ++k) {
      float w = 1.f;
      int64_t off = 0;
      for (int a = 0; a < 4; ++a) {
        const bool second = (k >> (3 - a)) & 1;
        w *= second ? t[a].w1 : t[a].w0;
        off += (second ? t[a].i1 : t[a].i0) * strides[a];
      }
      if (w != 0.f) acc += w * device::toFloat(src[off]);
    }
    dst[i] = device::fromFloat<T>(acc);
  }
}

// The low `sizeof(E)` bytes of `bits` as an E.
template <class E>
E fromBits(uint64_t bits) {
  return static_cast<E>(bits);
}

}  // namespace

int launchStridedCopy(const void* src, void* dst, int elemSize, const MoveStrides& s, int64_t total,
                      bool useMods, cudaStream_t stream) {
  if (total <= 0) return 0;
  if (s.rank < 0 || s.rank > kMaxMoveRank) return static_cast<int>(cudaErrorInvalidValue);
  int64_t batch = 0, R = 0, C = 0;
  if (!useMods && isSwap2d(s, &batch, &R, &C)) {
    const int64_t tilesR = (R + kTile - 1) / kTile, tilesC = (C + kTile - 1) / kTile;
    const int64_t tiles = batch * tilesR * tilesC;
    const auto blocks = static_cast<unsigned int>(tiles < (1 << 20) ? tiles : (1 << 20));
    bool ok = withElementSize(elemSize, [&]<class E>() {
      transpose2dKernel<E><<<blocks, dim3(kTile, kTileRows), 0, stream>>>(
          static_cast<const E*>(src), static_cast<E*>(dst), R, C, tilesR, tilesC, tiles);
    });
    if (!ok) return static_cast<int>(cudaErrorInvalidValue);
    return static_cast<int>(cudaGetLastError());
  }
  MoveStrides32 s32;
  if (fits32(s, total, &s32)) {
    const auto n32 = static_cast<int32_t>(total);
    bool ok = withElementSize(elemSize, [&]<class E>() {
      if (useMods)
        stridedCopyKernel32<E, true><<<blocksFor(total), kThreads, 0, stream>>>(
            static_cast<const E*>(src), static_cast<E*>(dst), s32, n32);
      else
        stridedCopyKernel32<E, false><<<blocksFor(total), kThreads, 0, stream>>>(
            static_cast<const E*>(src), static_cast<E*>(dst), s32, n32);
    });
    if (!ok) return static_cast<int>(cudaErrorInvalidValue);
    return static_cast<int>(cudaGetLastError());
  }
  bool ok = withElementSize(elemSize, [&]<class E>() {
    if (useMods)
      stridedCopyKernel<E, true><<<blocksFor(total), kThreads, 0, stream>>>(
          static_cast<const E*>(src), static_cast<E*>(dst), s, total);
    else
      stridedCopyKernel<E, false><<<blocksFor(total), kThreads, 0, stream>>>(
          static_cast<const E*>(src), static_cast<E*>(dst), s, total);
  });
  if (!ok) return static_cast<int>(cudaErrorInvalidValue);
  return static_cast<int>(cudaGetLastError());
}

int launchCopyRows(const void* src, int64_t srcPitch, void* dst, int64_t dstPitch, int64_t rows,
                   int64_t rowElems, int elemSize, cudaStream_t stream) {
  if (rows <= 0 || rowElems <= 0) return 0;
  // Move in the widest unit (up to 8 bytes) that divides every byte count and address.
  const auto rowBytes = static_cast<uint64_t>(rowElems) * static_cast<uint64_t>(elemSize);
  const auto sp = static_cast<uint64_t>(srcPitch) * static_cast<uint64_t>(elemSize);
  const auto dp = static_cast<uint64_t>(dstPitch) * static_cast<uint64_t>(elemSize);
  const uint64_t all =
      rowBytes | sp | dp | reinterpret_cast<uintptr_t>(src) | reinterpret_cast<uintptr_t>(dst);
  int unit = 8;
  while (unit > 1 && (all % static_cast<uint64_t>(unit)) != 0) unit /= 2;
  const auto re = static_cast<int64_t>(rowBytes / static_cast<uint64_t>(unit));
  const auto spu = static_cast<int64_t>(sp / static_cast<uint64_t>(unit));
  const auto dpu = static_cast<int64_t>(dp / static_cast<uint64_t>(unit));
  const int64_t total = rows * re;
  bool ok = withElementSize(unit, [&]<class E>() {
    copyRowsKernel<E><<<blocksFor(total), kThreads, 0, stream>>>(
        static_cast<const E*>(src), spu, static_cast<E*>(dst), dpu, re, total);
  });
  if (!ok) return static_cast<int>(cudaErrorInvalidValue);
  return static_cast<int>(cudaGetLastError());
}

int launchPad(const void* src, void* dst, int elemSize, const PadArgs& a, uint64_t fill,
              int64_t total, cudaStream_t stream) {
  if (total <= 0) return 0;
  if (a.rank < 1 || a.rank > kMaxMoveRank) return static_cast<int>(cudaErrorInvalidValue);
  bool ok = withElementSize(elemSize, [&]<class E>() {
    padKernel<E><<<blocksFor(total), kThreads, 0, stream>>>(
        static_cast<const E*>(src), static_cast<E*>(dst), a, fromBits<E>(fill), total);
  });
  if (!ok) return static_cast<int>(cudaErrorInvalidValue);
  return static_cast<int>(cudaGetLastError());
}

int launchGather(const void* data, const void* indices, bool indices64, void* dst, int elemSize,
                 int64_t outer, int64_t n, int64_t count, int64_t inner, cudaStream_t stream,
                 int64_t* outOfRange) {
  const int64_t total = outer * count * inner;
  if (total <= 0) return 0;
  bool ok = withElementSize(elemSize, [&]<class E>() {
    if (indices64)
      gatherKernel<E, int64_t><<<blocksFor(total), kThreads, 0, stream>>>(
          static_cast<const E*>(data), static_cast<const int64_t*>(indices), static_cast<E*>(dst),
          n, count, inner, total, outOfRange);
    else
      gatherKernel<E, int32_t><<<blocksFor(total), kThreads, 0, stream>>>(
          static_cast<const E*>(data), static_cast<const int32_t*>(indices), static_cast<E*>(dst),
          n, count, inner, total, outOfRange);
  });
  if (!ok) return static_cast<int>(cudaErrorInvalidValue);
  return static_cast<int>(cudaGetLastError());
}

int launchResizeNearest(const void* src, void* dst, int elemSize, const int64_t* maps,
                        const int64_t out[4], uint64_t fill, cudaStream_t stream) {
  const int64_t total = out[0] * out[1] * out[2] * out[3];
  if (total <= 0) return 0;
  bool ok = withElementSize(elemSize, [&]<class E>() {
    resizeNearestKernel<E><<<blocksFor(total), kThreads, 0, stream>>>(
        static_cast<const E*>(src), static_cast<E*>(dst), maps, out[0], out[1], out[2], out[3],
        fromBits<E>(fill), total);
  });
  if (!ok) return static_cast<int>(cudaErrorInvalidValue);
  return static_cast<int>(cudaGetLastError());
}

int launchResizeLinear(const void* src, void* dst, int floatType, const LinearTap* taps,
                       const int64_t in[4], const int64_t out[4], float extrapolation,
                       cudaStream_t stream) {
  const int64_t total = out[0] * out[1] * out[2] * out[3];
  if (total <= 0) return 0;
  if (floatType < 0 || floatType > 2) return static_cast<int>(cudaErrorInvalidValue);
  device::withFloatType(static_cast<device::FloatType>(floatType), [&]<class T>() {
    resizeLinearKernel<T><<<blocksFor(total), kThreads, 0, stream>>>(
        static_cast<const T*>(src), static_cast<T*>(dst), taps, in[1], in[2], in[3], out[0], out[1],
        out[2], out[3], extrapolation, total);
  });
  return static_cast<int>(cudaGetLastError());
}

}  // namespace passlab::exec::cuda
