// Helpers for data-movement kernels (Concat, Gather, Slice, Transpose, ...):
// element copies for any dtype (strings included), shape-tensor reading, axis
// normalization.
#pragma once

#include <cstring>
#include <string>
#include <vector>

#include "core/exec/tensor.h"
#include "core/support/error.h"

namespace passlab::exec::cpu {

// Bytes per element; 0 for strings and sub-byte types.
inline size_t elementSize(ir::DataType t) {
  if (t == ir::DataType::kString) return 0;
  int bits = ir::dtypeBits(t);
  return bits % 8 == 0 ? static_cast<size_t>(bits / 8) : 0;
}

// Copies `count` elements from src[srcOff..] to dst[dstOff..] (same dtype).
inline void copyElements(const Tensor& src, int64_t srcOff, Tensor& dst, int64_t dstOff,
                         int64_t count) {
  if (count <= 0) return;
  if (src.dtype() == ir::DataType::kString) {
    const std::string* s = src.data<std::string>() + srcOff;
    std::string* d = dst.mutableData<std::string>() + dstOff;
    for (int64_t i = 0; i < count; ++i) d[i] = s[i];
    return;
  }
  size_t es = elementSize(src.dtype());
  std::memcpy(static_cast<std::byte*>(dst.mutableRaw()) + dstOff * es,
              static_cast<const std::byte*>(src.raw()) + srcOff * es,
              static_cast<size_t>(count) * es);
}

// Element types the data-movement kernels handle (every whole-byte type and strings).
inline bool movable(ir::DataType t) {
  return t == ir::DataType::kString || elementSize(t) > 0;
}

// An integer tensor (int32/int64) as int64 values.
Expected<std::vector<int64_t>> readInts(const Tensor& t, const char* what);

// Normalizes a possibly negative axis for `rank`; an error names it.
Expected<int64_t> normalizeAxis(int64_t axis, int64_t rank);

}  // namespace passlab::exec::cpu
