// <immintrin.h> for PassLab's x86 kernels, without the false
// -Wuninitialized / -Wmaybe-uninitialized warnings GCC 12 gives for the
// intrinsics' own _mm512_undefined_* placeholders (`__m512 __Y = __Y;`) once
// inlined (GCC bug 105593, fixed in GCC 13): a build printed hundreds about
// lines of avx512fintrin.h, which hid the kernels' own warnings. Only the
// diagnostics of the header's lines change; the code is the same.
#pragma once

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#else
#include <immintrin.h>
#endif
