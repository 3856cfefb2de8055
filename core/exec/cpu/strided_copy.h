// Rows of bytes copied between strided places: Concat and Split of small
// blocks (a [1, 4420, 2] + [1, 4420, 2] Concat on its last axis: 4420 rows of
// 8 bytes per input), where a copyElements call per row (its dtype checks,
// the tensors' pointers fetched again) cost more than the copy.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace passlab::exec::cpu {

namespace detail {
template <size_t kBytes>
inline void copyFixedRows(const std::byte* src, int64_t srcStride, std::byte* dst,
                          int64_t dstStride, int64_t rows) {
  for (int64_t r = 0; r < rows; ++r) std::memcpy(dst + r * dstStride, src + r * srcStride, kBytes);
}
}  // namespace detail

// Copies `rows` blocks of `bytes` bytes, block r from src + r * srcStride to
// dst + r * dstStride (strides in bytes; the blocks do not overlap).
inline void copyRows(const std::byte* src, int64_t srcStride, std::byte* dst, int64_t dstStride,
                     size_t bytes, int64_t rows) {
  switch (bytes) {
    case 1:
      return detail::copyFixedRows<1>(src, srcStride, dst, dstStride, rows);
    case 2:
      return detail::copyFixedRows<2>(src, srcStride, dst, dstStride, rows);
    case 4:
      return detail::copyFixedRows<4>(src, srcStride, dst, dstStride, rows);
    case 8:
      return detail::copyFixedRows<8>(src, srcStride, dst, dstStride, rows);
    case 16:
      return detail::copyFixedRows<16>(src, srcStride, dst, dstStride, rows);
    case 32:
      return detail::copyFixedRows<32>(src, srcStride, dst, dstStride, rows);
    case 64:
      return detail::copyFixedRows<64>(src, srcStride, dst, dstStride, rows);
    default:
      for (int64_t r = 0; r < rows; ++r)
        std::memcpy(dst + r * dstStride, src + r * srcStride, bytes);
  }
}

}  // namespace passlab::exec::cpu
