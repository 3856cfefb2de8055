// gemvRows (core/exec/cpu/gemv_rows.h), Gemm's batch-1 path with B stored
// [N, K]: every instruction-set path against a double-precision dot product
// over row counts around the 4-row step and lengths around the vector widths,
// and the threaded split equal to one thread.
#include "core/exec/cpu/gemv_rows.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace passlab::exec::cpu {
namespace {

std::vector<float> pattern(size_t n, uint32_t seed) {
  std::vector<float> v(n);
  uint32_t s = seed;
  for (float& x : v) {
    s = s * 1664525u + 1013904223u;
    x = static_cast<float>((s >> 8) % 2001) / 1000.0f - 1.0f;
  }
  return v;
}

TEST(GemvRows, EveryPathMatchesDoubleDotProducts) {
  int pathsRun = 0;
  for (const char* isa : {"scalar", "avx2", "avx512"}) {
    bool available = true;
    for (int64_t N : {1, 3, 4, 5, 9, 17}) {
      for (int64_t K : {1, 7, 8, 15, 16, 17, 33, 100}) {
        auto x = pattern(static_cast<size_t>(K), 1 + static_cast<uint32_t>(K));
        auto W = pattern(static_cast<size_t>(N * K), 7 + static_cast<uint32_t>(N));
        std::vector<float> y(static_cast<size_t>(N), -99.0f);
        if (!gemvRowsOn(isa, x.data(), W.data(), N, K, y.data())) {
          available = false;
          break;
        }
        for (int64_t n = 0; n < N; ++n) {
          double want = 0;
          for (int64_t k = 0; k < K; ++k) want += double(x[k]) * double(W[n * K + k]);
          ASSERT_NEAR(y[n], want, 1e-5 * (1.0 + std::fabs(want)) * std::sqrt(double(K)))
              << isa << " N=" << N << " K=" << K << " row " << n;
        }
      }
      if (!available) break;
    }
    pathsRun += available;
  }
  EXPECT_GE(pathsRun, 1);
  EXPECT_FALSE(gemvRowsOn("sse9", nullptr, nullptr, 0, 0, nullptr));
}

TEST(GemvRows, ThreadedSplitEqualsOneThread) {
  const int64_t N = 1001, K = 2048;  // a classifier's shape; rows split unevenly
  auto x = pattern(K, 3);
  auto W = pattern(static_cast<size_t>(N * K), 5);
  std::vector<float> one(N), two(N);
  gemvRows(x.data(), W.data(), N, K, one.data(), 1);
  gemvRows(x.data(), W.data(), N, K, two.data(), 2);
  for (int64_t n = 0; n < N; ++n) ASSERT_EQ(one[n], two[n]) << "row " << n;
  std::string isa = gemvRowsIsa();
  EXPECT_TRUE(isa == "avx512" || isa == "avx2" || isa == "scalar") << isa;
}

}  // namespace
}  // namespace passlab::exec::cpu
