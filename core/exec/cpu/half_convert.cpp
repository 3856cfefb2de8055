#include "core/exec/cpu/half_convert.h"

#include "core/exec/dtype_traits.h"
#include "core/support/cpu_isa.h"

#if defined(__x86_64__) || defined(__i386__)
#include "core/support/x86_intrinsics.h"
#define PASSLAB_HAVE_F16C_PATH 1
#endif

namespace passlab::exec::cpu {

namespace {

#ifdef PASSLAB_HAVE_F16C_PATH
__attribute__((target("avx,f16c"))) void halfToFloatF16c(const uint16_t* in, float* out,
                                                         int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(out + i,
                     _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i))));
  for (; i < n; ++i) out[i] = halfToFloatFast(in[i]);
}

__attribute__((target("avx,f16c"))) void floatToHalfF16c(const float* in, uint16_t* out,
                                                         int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i),
                     _mm256_cvtps_ph(_mm256_loadu_ps(in + i), _MM_FROUND_TO_NEAREST_INT));
  for (; i < n; ++i) out[i] = floatToHalfFast(in[i]);
}

bool hasF16c() {
  return cpu_isa::hasF16c();
}
#endif

}  // namespace

void halfToFloatN(const uint16_t* in, float* out, int64_t n) {
#ifdef PASSLAB_HAVE_F16C_PATH
  if (hasF16c()) return halfToFloatF16c(in, out, n);
#endif
  for (int64_t i = 0; i < n; ++i) out[i] = halfToFloatFast(in[i]);
}

void floatToHalfN(const float* in, uint16_t* out, int64_t n) {
#ifdef PASSLAB_HAVE_F16C_PATH
  if (hasF16c()) return floatToHalfF16c(in, out, n);
#endif
  for (int64_t i = 0; i < n; ++i) out[i] = floatToHalfFast(in[i]);
}

}  // namespace passlab::exec::cpu
