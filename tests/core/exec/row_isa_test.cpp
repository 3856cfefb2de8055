// The row kernels' one dispatch contract (core/exec/cpu/row_isa.h): the path
// a row takes by itself follows the CPU and PASSLAB_MAX_ISA, and each *On
// entry point takes "avx512", "avx2" or its own base name ("scalar" for
// erf/trig/gemv, "sse2" for sigmoid/softmax) up to that path, nothing else.
// Also run under the caps (the isa_avx2 / isa_sse2 ctests).
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "core/exec/cpu/erf_rows.h"
#include "core/exec/cpu/gemv_rows.h"
#include "core/exec/cpu/row_isa.h"
#include "core/exec/cpu/sigmoid_rows.h"
#include "core/exec/cpu/softmax_rows.h"
#include "core/exec/cpu/trig_rows.h"
#include "core/support/cpu_isa.h"

namespace passlab::exec::cpu {
namespace {

RowIsa expectedIsa() {
  if (cpu_isa::hasAvx512f()) return RowIsa::kAvx512;
  if (cpu_isa::hasAvx2Fma()) return RowIsa::kAvx2;
  return RowIsa::kBase;
}

TEST(RowIsa, DetectedFollowsTheCpuAndTheCap) {
  EXPECT_EQ(detectedRowIsa(), expectedIsa());
  if (cpu_isa::maxIsa() < cpu_isa::IsaLevel::kAvx512Core) {
    EXPECT_NE(detectedRowIsa(), RowIsa::kAvx512);
  }
  if (cpu_isa::maxIsa() < cpu_isa::IsaLevel::kAvx2) {
    EXPECT_EQ(detectedRowIsa(), RowIsa::kBase);
  }
}

TEST(RowIsa, ParseTakesThePathsUpToTheDetectedOneAndTheBaseName) {
  const RowIsa have = detectedRowIsa();
  RowIsa got = RowIsa::kAvx2;
  EXPECT_EQ(parseRowIsa("avx512", "scalar", &got), have == RowIsa::kAvx512);
  if (have == RowIsa::kAvx512) {
    EXPECT_EQ(got, RowIsa::kAvx512);
  }
  got = RowIsa::kBase;
  EXPECT_EQ(parseRowIsa("avx2", "scalar", &got), have != RowIsa::kBase);
  if (have != RowIsa::kBase) {
    EXPECT_EQ(got, RowIsa::kAvx2);
  }
  got = RowIsa::kAvx512;
  EXPECT_TRUE(parseRowIsa("scalar", "scalar", &got));
  EXPECT_EQ(got, RowIsa::kBase);
  got = RowIsa::kAvx512;
  EXPECT_TRUE(parseRowIsa("sse2", "sse2", &got));
  EXPECT_EQ(got, RowIsa::kBase);
  // Another file's base name, unknown names and case: refused, *isa untouched.
  for (const char* bad : {"sse2", "", "AVX512", "avx", "lanes", "avx512f"}) {
    got = RowIsa::kAvx2;
    EXPECT_FALSE(parseRowIsa(bad, "scalar", &got)) << bad;
    EXPECT_EQ(got, RowIsa::kAvx2) << bad;
  }
  EXPECT_STREQ(rowIsaName(RowIsa::kAvx512, "sse2"), "avx512");
  EXPECT_STREQ(rowIsaName(RowIsa::kAvx2, "sse2"), "avx2");
  EXPECT_STREQ(rowIsaName(RowIsa::kBase, "sse2"), "sse2");
  EXPECT_STREQ(rowIsaName(RowIsa::kBase, "scalar"), "scalar");
}

// Each kernel file keeps the names it had: the *Isa() reports and the *On
// entry points of every row agree with the contract.
TEST(RowIsa, EveryRowFileKeepsItsNames) {
  const RowIsa have = detectedRowIsa();
  EXPECT_EQ(std::string(sigmoidRowsIsa()), rowIsaName(have, "sse2"));
  EXPECT_EQ(std::string(gemvRowsIsa()), rowIsaName(have, "scalar"));
  std::vector<float> x(37), y(37), w(37 * 3), scratch(3 * 37);
  for (size_t i = 0; i < x.size(); ++i) x[i] = 0.01f * static_cast<float>(i) - 0.2f;
  for (size_t i = 0; i < w.size(); ++i) w[i] = 0.001f * static_cast<float>(i);
  const int64_t n = static_cast<int64_t>(x.size());
  float sum = 0;
  struct Row {
    const char* what;
    const char* base;
    std::function<bool(const char*)> on;
  };
  const std::vector<Row> rows = {
      {"erf", "scalar", [&](const char* i) { return erfRowOn(i, x.data(), y.data(), n); }},
      {"gelu", "scalar", [&](const char* i) { return geluErfRowOn(i, x.data(), y.data(), n); }},
      {"sin", "scalar", [&](const char* i) { return sinRowOn(i, x.data(), y.data(), n); }},
      {"cos", "scalar", [&](const char* i) { return cosRowOn(i, x.data(), y.data(), n); }},
      {"gemv", "scalar",
       [&](const char* i) { return gemvRowsOn(i, x.data(), w.data(), 3, n, y.data()); }},
      {"sigmoid", "sse2", [&](const char* i) { return sigmoidRowOn(i, x.data(), y.data(), n); }},
      {"tanh", "sse2", [&](const char* i) { return tanhRowOn(i, x.data(), y.data(), n); }},
      {"exp", "sse2", [&](const char* i) { return expRowOn(i, x.data(), y.data(), n); }},
      {"expsum", "sse2",
       [&](const char* i) { return expShiftedSumRowOn(i, x.data(), 0.5f, y.data(), n, &sum); }},
      {"softmax", "sse2",
       [&](const char* i) {
         return softmaxRowOn(i, x.data(), y.data(), n, false, scratch.data());
       }},
  };
  for (const Row& r : rows) {
    const std::string other = std::string(r.base) == "sse2" ? "scalar" : "sse2";
    EXPECT_TRUE(r.on(r.base)) << r.what;
    EXPECT_FALSE(r.on(other.c_str())) << r.what << " took " << other;
    EXPECT_FALSE(r.on("avx")) << r.what;
    EXPECT_EQ(r.on("avx2"), have != RowIsa::kBase) << r.what;
    EXPECT_EQ(r.on("avx512"), have == RowIsa::kAvx512) << r.what;
  }
}

}  // namespace
}  // namespace passlab::exec::cpu
