#include "core/exec/cpu/qlinear_depthwise_nhwc_256.h"

#include <algorithm>
#include <cstring>

#include "core/exec/cpu/qlinear_requant8.h"

#if defined(__x86_64__)
#include "core/support/x86_intrinsics.h"
#endif

namespace passlab::exec::cpu::dw256 {

#if defined(__x86_64__)
namespace vnni {
#define PASSLAB_DW256_TARGET __attribute__((target("avx2,fma,avxvnni")))
#define PASSLAB_DW256_VNNI 1
#include "core/exec/cpu/qlinear_depthwise_nhwc_256_body.h"  // IWYU pragma: keep
#undef PASSLAB_DW256_VNNI
#undef PASSLAB_DW256_TARGET
}  // namespace vnni

namespace pairs {
#define PASSLAB_DW256_TARGET __attribute__((target("avx2,fma")))
#define PASSLAB_DW256_VNNI 0
#include "core/exec/cpu/qlinear_depthwise_nhwc_256_body.h"  // IWYU pragma: keep
#undef PASSLAB_DW256_VNNI
#undef PASSLAB_DW256_TARGET
}  // namespace pairs

void fillRowAvxVnni(const FillArgs& a) {
  vnni::fillRow(a);
}
void computeRowAvxVnni(const ComputeArgs& a) {
  vnni::computeRow(a);
}
void fillRowAvx2(const FillArgs& a) {
  pairs::fillRow(a);
}
void computeRowAvx2(const ComputeArgs& a) {
  pairs::computeRow(a);
}
#else
void fillRowAvxVnni(const FillArgs&) {}
void computeRowAvxVnni(const ComputeArgs&) {}
void fillRowAvx2(const FillArgs&) {}
void computeRowAvx2(const ComputeArgs&) {}
#endif

}  // namespace passlab::exec::cpu::dw256
