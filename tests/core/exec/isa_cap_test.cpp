// PASSLAB_MAX_ISA (core/support/cpu_isa.h) reaches the kernels' dispatch and
// oneDNN: the paths chosen are at or below the cap. Meaningful in the
// isa_avx2 / isa_sse2 ctests, which run the kernel tests under a cap.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "core/exec/cpu/gemv_rows.h"
#include "core/exec/cpu/onednn_util.h"
#include "core/exec/cpu/sigmoid_rows.h"
#include "core/support/cpu_isa.h"

namespace passlab::exec::cpu {
namespace {

using cpu_isa::IsaLevel;

TEST(IsaCap, KernelPathsAtOrBelowTheCap) {
  const IsaLevel cap = cpu_isa::maxIsa();
  const std::string sigmoid = sigmoidRowsIsa(), gemv = gemvRowsIsa();
  if (cap < IsaLevel::kAvx512) {
    EXPECT_NE(sigmoid, "avx512");
    EXPECT_NE(gemv, "avx512");
  }
  if (cap < IsaLevel::kAvx2) {
    EXPECT_EQ(sigmoid, "sse2");
    EXPECT_EQ(gemv, "scalar");
  }
  if (cap == IsaLevel::kAvx2 && cpu_isa::hasAvx2Fma()) {
    EXPECT_EQ(sigmoid, "avx2");
    EXPECT_EQ(gemv, "avx2");
  }
}

TEST(IsaCap, OneDnnCappedToMatch) {
  if (std::getenv("ONEDNN_MAX_CPU_ISA") != nullptr) GTEST_SKIP() << "ONEDNN_MAX_CPU_ISA is set";
  onednn::engine();
  const dnnl::cpu_isa effective = dnnl::get_effective_cpu_isa();
  const auto bits = static_cast<unsigned>(effective);
  switch (cpu_isa::maxIsa()) {
    case IsaLevel::kAvx2:
      EXPECT_EQ(bits & ~static_cast<unsigned>(dnnl::cpu_isa::avx2), 0u)
          << "oneDNN above AVX2: " << bits;
      break;
    case IsaLevel::kSse2:
      EXPECT_EQ(bits & ~static_cast<unsigned>(dnnl::cpu_isa::sse41), 0u)
          << "oneDNN above SSE4.1: " << bits;
      break;
    case IsaLevel::kAvx512:
      break;
  }
}

}  // namespace
}  // namespace passlab::exec::cpu
