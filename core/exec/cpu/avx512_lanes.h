// The lanes of a 512-bit register as PassLab's AVX-512 kernels in
// core/exec/cpu count them: 16 lanes of 32 bits (float or int32), the mask
// of a row's first `left` lanes (the last, partial vector of a row), and a
// count rounded up to whole vectors (the padded channels of packed
// weights). Whether a kernel may run AVX-512 at all is asked of
// core/support/cpu_isa.h; this header only names the lanes.
#pragma once

#include <cstdint>

#if defined(__x86_64__) || defined(__i386__)
#include "core/support/x86_intrinsics.h"
#endif

namespace passlab::exec::cpu::avx512 {

// 32-bit lanes in one 512-bit register.
inline constexpr int64_t kLanes = 16;

// v rounded up to a multiple of m (v >= 0, m > 0).
constexpr int64_t roundUp(int64_t v, int64_t m) {
  return (v + m - 1) / m * m;
}

#if defined(__x86_64__) || defined(__i386__)
// The first `left` of the 16 lanes; all 16 when left >= 16 (left >= 0).
inline __mmask16 lanes(int64_t left) {
  return left >= kLanes ? static_cast<__mmask16>(0xffff) : static_cast<__mmask16>((1u << left) - 1);
}
#endif

}  // namespace passlab::exec::cpu::avx512
