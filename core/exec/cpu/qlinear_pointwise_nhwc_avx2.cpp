#include "core/exec/cpu/qlinear_pointwise_nhwc_avx2.h"

#include <algorithm>
#include <cstring>

#if defined(__x86_64__)
#include "core/support/x86_intrinsics.h"
#endif

namespace passlab::exec::cpu::pointwise256 {

#if defined(__x86_64__)
namespace vnni {
#define PASSLAB_PW256_TARGET __attribute__((target("avx2,fma,avxvnni")))
#define PASSLAB_PW256_VNNI 1
#include "core/exec/cpu/qlinear_pointwise_nhwc_avx2_body.h"  // IWYU pragma: keep
#undef PASSLAB_PW256_VNNI
#undef PASSLAB_PW256_TARGET
}  // namespace vnni

namespace maddubs {
#define PASSLAB_PW256_TARGET __attribute__((target("avx2,fma")))
#define PASSLAB_PW256_VNNI 0
#include "core/exec/cpu/qlinear_pointwise_nhwc_avx2_body.h"  // IWYU pragma: keep
#undef PASSLAB_PW256_VNNI
#undef PASSLAB_PW256_TARGET
}  // namespace maddubs

namespace pairs16 {
#define PASSLAB_PW256_TARGET __attribute__((target("avx2,fma")))
#define PASSLAB_PW256_VNNI 0
#define PASSLAB_PW256_INT16 1
#include "core/exec/cpu/qlinear_pointwise_nhwc_avx2_body.h"  // IWYU pragma: keep
#undef PASSLAB_PW256_INT16
#undef PASSLAB_PW256_VNNI
#undef PASSLAB_PW256_TARGET
}  // namespace pairs16

void computePixels(Dot dot, const Layer& l, const uint8_t* x, uint8_t* y, int64_t first,
                   int64_t last) {
  if (dot == Dot::kAvxVnni)
    l.xSigned ? vnni::pixelRange<true>(x, l, y, first, last)
              : vnni::pixelRange<false>(x, l, y, first, last);
  else if (dot == Dot::kAvx2Int16)
    l.xSigned ? pairs16::pixelRange<true>(x, l, y, first, last)
              : pairs16::pixelRange<false>(x, l, y, first, last);
  else
    l.xSigned ? maddubs::pixelRange<true>(x, l, y, first, last)
              : maddubs::pixelRange<false>(x, l, y, first, last);
}
#else
void computePixels(Dot, const Layer&, const uint8_t*, uint8_t*, int64_t, int64_t) {}
#endif

}  // namespace passlab::exec::cpu::pointwise256
