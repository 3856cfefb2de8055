// PASSLAB_MAX_ISA (core/support/cpu_isa.h) reaches the kernels' dispatch and
// oneDNN: the paths chosen are at or below the cap. Meaningful in the
// isa_avx512core / isa_avx2 / isa_sse2 ctests, which run the kernel tests
// under a cap.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "core/exec/cpu/gemv_rows.h"
#include "core/exec/cpu/onednn_util.h"
#include "core/exec/cpu/sigmoid_rows.h"
#include "core/support/cpu_isa.h"
#include "tests/core/exec/exec_test_util.h"

namespace passlab::exec::cpu {
namespace {

using cpu_isa::IsaLevel;

TEST(IsaCap, KernelPathsAtOrBelowTheCap) {
  const IsaLevel cap = cpu_isa::maxIsa();
  const std::string sigmoid = sigmoidRowsIsa(), gemv = gemvRowsIsa();
  if (cap < IsaLevel::kAvx512Core) {
    EXPECT_NE(sigmoid, "avx512");
    EXPECT_NE(gemv, "avx512");
  }
  if (cap < IsaLevel::kAvx2) {
    EXPECT_EQ(sigmoid, "sse2");
    EXPECT_EQ(gemv, "scalar");
  }
  if ((cap == IsaLevel::kAvx2 || cap == IsaLevel::kAvx2Vnni) && cpu_isa::hasAvx2Fma()) {
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
    case IsaLevel::kAvx512Core:
      EXPECT_EQ(bits & ~static_cast<unsigned>(dnnl::cpu_isa::avx512_core), 0u)
          << "oneDNN above AVX512_CORE (VNNI): " << bits;
      break;
    case IsaLevel::kAvx2Vnni:
      EXPECT_EQ(bits & ~static_cast<unsigned>(dnnl::cpu_isa::avx2_vnni), 0u)
          << "oneDNN above AVX2_VNNI: " << bits;
      break;
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

// oneDNN fixes its ISA at its first look at the CPU; an LSTM (dnnl_sgemm) that
// ran before any oneDNN primitive left it uncapped, so a later int8 Conv ran
// avx512_core_vnni under PASSLAB_MAX_ISA=avx2 (and rounded one step off the
// reference: QLinearDepthwiseNhwcTest after LstmFloatNode). In a fresh
// process (threadsafe death-test style): an LSTM first, then the check.
TEST(IsaCap, OneDnnCappedWhenAnLstmUsesItFirst) {
  if (std::getenv("ONEDNN_MAX_CPU_ISA") != nullptr) GTEST_SKIP() << "ONEDNN_MAX_CPU_ISA is set";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  (void)cpu_isa::maxIsa();  // this process keeps the cap it read; the child reads avx2
  const char* was = std::getenv("PASSLAB_MAX_ISA");
  const std::string before = was ? was : "";
  ::setenv("PASSLAB_MAX_ISA", "avx2", 1);
  const std::string lstm = R"(<ir_version: 8, opset_import: ["" : 14]>
main (float[2,1,3] X, float[1,8,3] W, float[1,8,2] R) => (float[2,1,1,2] Y) {
  Y = LSTM <hidden_size = 2> (X, W, R)
})";
  using testutil::floats, testutil::pattern;
  const std::vector<float> w = pattern(24, 2), r = pattern(16, 3);
  EXPECT_EXIT(
      {
        RunResult ran = testutil::runText(lstm, {{"X", floats({2, 1, 3}, pattern(6, 1))},
                                                 {"W", floats({1, 8, 3}, w)},
                                                 {"R", floats({1, 8, 2}, r)}});
        const auto bits = static_cast<unsigned>(dnnl::get_effective_cpu_isa());
        std::exit(!ran.outputs.empty() && (bits & ~static_cast<unsigned>(dnnl::cpu_isa::avx2)) == 0
                      ? 0
                      : 1);
      },
      ::testing::ExitedWithCode(0), "");
  if (was)
    ::setenv("PASSLAB_MAX_ISA", before.c_str(), 1);
  else
    ::unsetenv("PASSLAB_MAX_ISA");
}

}  // namespace
}  // namespace passlab::exec::cpu
