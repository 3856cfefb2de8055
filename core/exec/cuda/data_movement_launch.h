// Launch functions of the data-movement kernels (data_movement.cu). Plain
// signatures, no PassLab headers: element sizes in bytes (1, 2, 4 or 8; the
// kernels move bytes and never look at values, except Resize linear), dims and
// strides in elements, int64 throughout. Each returns a cudaError_t as int
// (0 = success) from the launch; everything goes on `stream`.
#pragma once

#include <cstdint>

typedef struct CUstream_st* cudaStream_t;

namespace passlab::exec::cuda {

inline constexpr int kMaxMoveRank = 8;

// dst[i] = src[base + sum_d c_d * strides[d]] for every index (c_0..c_{r-1})
// of `dims` (row-major, i = 0..numel-1). With `mods[d] > 0` the coordinate is
// taken modulo mods[d] first (Tile). Strides may be 0 (Expand) or negative
// (Slice with negative steps).
struct MoveStrides {
  int rank = 0;
  int64_t dims[kMaxMoveRank] = {};
  int64_t strides[kMaxMoveRank] = {};
  int64_t mods[kMaxMoveRank] = {};
  int64_t base = 0;
};
int launchStridedCopy(const void* src, void* dst, int elemSize, const MoveStrides& s, int64_t total,
                      bool useMods, cudaStream_t stream);

// `rows` rows of `rowElems` elements: dst[r * dstPitch + c] = src[r * srcPitch + c]
// (pitches in elements). Concat (one call per input) and Split (one per output).
int launchCopyRows(const void* src, int64_t srcPitch, void* dst, int64_t dstPitch, int64_t rows,
                   int64_t rowElems, int elemSize, cudaStream_t stream);

// Pad: output index o on dim d reads input index o - padBegin[d], mapped by
// mode when outside [0, inDims[d]) (0 constant: `fill`, 1 reflect, 2 edge, 3 wrap).
struct PadArgs {
  int rank = 0;
  int mode = 0;
  int64_t inDims[kMaxMoveRank] = {};
  int64_t outDims[kMaxMoveRank] = {};
  int64_t padBegin[kMaxMoveRank] = {};
};
// `fill` holds the element's bytes (the low elemSize bytes, little-endian).
int launchPad(const void* src, void* dst, int elemSize, const PadArgs& a, uint64_t fill,
              int64_t total, cudaStream_t stream);

// Gather along an axis: data viewed as [outer, n, inner], indices (int32 when
// !indices64, else int64) of `count` values; dst is [outer, count, inner].
// Negative indices count from the end; an index still outside [0, n) writes
// zeros (the factory checks constant indices on the host) and, with
// `outOfRange` (2 zeroed words, device_checks.h), sets word 0 to 1 and word 1
// to such an index.
int launchGather(const void* data, const void* indices, bool indices64, void* dst, int elemSize,
                 int64_t outer, int64_t n, int64_t count, int64_t inner, cudaStream_t stream,
                 int64_t* outOfRange = nullptr);

// Resize nearest on a 4-D tensor: `maps` (device) holds out[0] + out[1] +
// out[2] + out[3] entries, axis after axis: the input offset (index * the
// input's stride on that axis) or -1 for the extrapolation value `fill`.
int launchResizeNearest(const void* src, void* dst, int elemSize, const int64_t* maps,
                        const int64_t out[4], uint64_t fill, cudaStream_t stream);

// One output position of one axis of Resize linear: two input indices and
// their weights, or the extrapolation value (tf_crop_and_resize outside).
struct LinearTap {
  int64_t i0 = 0, i1 = 0;
  float w0 = 1, w1 = 0;
  int32_t extrapolate = 0;
  int32_t unused = 0;
};
// Resize linear on a 4-D float tensor (floatType: 0 float32, 1 float16,
// 2 bfloat16; computed in float): `taps` (device) holds out[0] + ... + out[3]
// entries, axis after axis.
int launchResizeLinear(const void* src, void* dst, int floatType, const LinearTap* taps,
                       const int64_t in[4], const int64_t out[4], float extrapolation,
                       cudaStream_t stream);

}  // namespace passlab::exec::cuda
