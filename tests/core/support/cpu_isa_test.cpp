// cpu_isa (core/support/cpu_isa.h): PASSLAB_MAX_ISA caps every feature query
// at its level. The isa_avx512core / isa_avx2vnni / isa_avx2 / isa_sse2 ctests run this binary's
// CpuIsa tests with the variable set; without it, nothing is capped.
#include "core/support/cpu_isa.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace passlab::cpu_isa {
namespace {

std::string capFromEnvironment() {
  const char* v = std::getenv("PASSLAB_MAX_ISA");
  return v ? std::string(v) : std::string();
}

TEST(CpuIsa, CapIsTheEnvironmentVariable) {
  const std::string env = capFromEnvironment();
  const IsaLevel expected = env == "avx512core" ? IsaLevel::kAvx512Core
                            : env == "avx2vnni" ? IsaLevel::kAvx2Vnni
                            : env == "avx2"     ? IsaLevel::kAvx2
                            : env == "sse2"     ? IsaLevel::kSse2
                                                : IsaLevel::kAvx512;
  EXPECT_EQ(maxIsa(), expected) << "PASSLAB_MAX_ISA='" << env << "'";
  const bool named = env == "avx512core" || env == "avx2vnni" || env == "avx2" || env == "sse2";
  EXPECT_STREQ(isaName(maxIsa()), named ? env.c_str() : "avx512");
}

TEST(CpuIsa, NoFeatureAboveTheCap) {
  if (maxIsa() < IsaLevel::kAvx512) {
    EXPECT_FALSE(hasAvx512Vbmi());
    EXPECT_FALSE(hasAvx512Vnni());
  }
  if (maxIsa() < IsaLevel::kAvx512Core) {
    EXPECT_FALSE(hasAvx512f());
    EXPECT_FALSE(hasAvx512BwVl());
  }
  if (maxIsa() < IsaLevel::kAvx2Vnni || maxIsa() == IsaLevel::kAvx512Core) {
    EXPECT_FALSE(hasAvxVnni());
  }
  if (maxIsa() < IsaLevel::kAvx2) {
    EXPECT_FALSE(hasAvx2Fma());
    EXPECT_FALSE(hasF16c());
  }
}

TEST(CpuIsa, WiderFeatureSetsImplyTheirBase) {
  EXPECT_TRUE(!hasAvx512BwVl() || hasAvx512f());
  EXPECT_TRUE(!hasAvx512Vbmi() || hasAvx512f());
  EXPECT_TRUE(!hasAvx512Vnni() || hasAvx512BwVl());
  EXPECT_TRUE(!hasAvxVnni() || hasAvx2Fma());
}

// The avx2vnni cap (Alder Lake's set) keeps AVX2 and AVX-VNNI where the CPU
// has them and drops every AVX-512 feature.
TEST(CpuIsa, Avx2VnniKeepsAvxVnniAndDropsAvx512) {
#if defined(__x86_64__) || defined(__i386__)
  if (maxIsa() != IsaLevel::kAvx2Vnni) GTEST_SKIP() << "capped at " << isaName(maxIsa());
  EXPECT_FALSE(hasAvx512f());
  EXPECT_FALSE(hasAvx512BwVl());
  EXPECT_FALSE(hasAvx512Vbmi());
  EXPECT_FALSE(hasAvx512Vnni());
  const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  EXPECT_EQ(hasAvx2Fma(), avx2);
  EXPECT_EQ(hasAvxVnni(), avx2 && __builtin_cpu_supports("avxvnni"));
#else
  GTEST_SKIP() << "not x86";
#endif
}

// The avx512core cap keeps AVX-512 F/BW/VL (what a Skylake-SP has) and drops
// only VBMI and VNNI, so the kernels' plain AVX-512 paths run here.
TEST(CpuIsa, Avx512CoreKeepsTheBaseAndDropsVbmiAndVnni) {
#if defined(__x86_64__) || defined(__i386__)
  if (maxIsa() != IsaLevel::kAvx512Core) GTEST_SKIP() << "capped at " << isaName(maxIsa());
  EXPECT_EQ(hasAvx512f(), __builtin_cpu_supports("avx512f") != 0);
  EXPECT_EQ(hasAvx512BwVl(), __builtin_cpu_supports("avx512f") &&
                                 __builtin_cpu_supports("avx512bw") &&
                                 __builtin_cpu_supports("avx512vl"));
  EXPECT_FALSE(hasAvx512Vbmi());
  EXPECT_FALSE(hasAvx512Vnni());
  EXPECT_EQ(hasAvx2Fma(), __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"));
#else
  GTEST_SKIP() << "not x86";
#endif
}

TEST(CpuIsa, UncappedFollowsTheCpu) {
#if defined(__x86_64__) || defined(__i386__)
  if (maxIsa() != IsaLevel::kAvx512) GTEST_SKIP() << "capped at " << isaName(maxIsa());
  EXPECT_EQ(hasAvx512f(), __builtin_cpu_supports("avx512f") != 0);
  EXPECT_EQ(hasAvx2Fma(), __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"));
  EXPECT_EQ(hasAvxVnni(), hasAvx2Fma() && __builtin_cpu_supports("avxvnni"));
#else
  GTEST_SKIP() << "not x86";
#endif
}

}  // namespace
}  // namespace passlab::cpu_isa
