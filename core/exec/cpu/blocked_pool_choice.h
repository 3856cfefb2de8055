// Which kernel runs a 2-D MaxPool on the blocked layout (BlockedPool): the
// separable blocked kernel (blocked_pool_float.h) or oneDNN's pooling. A rule
// measured per instruction set; a pure function so it is tested as such.
#pragma once

#include "core/exec/cpu/pool_geometry.h"

namespace passlab::exec::cpu {

// The instruction sets the choice depends on (as PASSLAB_MAX_ISA caps them).
struct PoolIsaFlags {
  bool avx2Fma = false, avx512f = false;
};

// Whether the separable kernel is the faster for MaxPool `g` (2 spatial dims).
// - Below AVX2: no (oneDNN's jit:sse41 took 0.14 ms for the 64 x 112 x 112
//   3x3/2 stem, the separable kernel 0.22; session 31).
// - AVX2 without AVX-512: yes (oneDNN's jit:avx2 0.71 ms for the stem, the
//   separable kernel 0.11; AMD Zen 3, session 31).
// - AVX-512: where windows overlap along the row (kernel > stride) or a row
//   has fewer than 16 outputs. Blocks of 16, hot caches, medians, AVX-512
//   VNNI (Zen 5) 2 cores, load 4.8-5.6, 2026-12-07, separable / oneDNN
//   jit:avx512_core, 1 thread: 3x3 pools 0.63-1.0 (480 x 13 x 13 3x3/1
//   0.011 / 0.014 ms), the 64 x 112 x 112 stems 0.84-1.12 (0.046 / 0.045;
//   0.083 / 0.142 in inception_v2's profile); at 2 threads 3x3/2 up to 1.11
//   (squeezenet's 128 x 55 x 55, a small loss accepted). 2x2/2 on 512 x 14
//   x 14 0.72, 512 x 28 x 28 0.90-0.97, but 256 x 56 x 56 1.04-1.17, 128 x
//   112 x 112 1.13-1.16, 64 x 224 x 224 1.04-1.6 (vgg19's), where windows
//   share no input and oneDNN streams the rows once.
inline bool separableMaxPoolIsFaster(const PoolGeometry& g, PoolIsaFlags isa) {
  if (!isa.avx2Fma || g.spatial() != 2) return false;
  if (!isa.avx512f) return true;
  return g.kernel[1] > g.stride[1] || g.out[1] < 16;
}

}  // namespace passlab::exec::cpu
