// The weight of the low-rank search tests (low_rank_search_test.cpp,
// low_rank_latency_test.cpp): a fixture with low-rank structure, which the
// corpus's full-rank weights lack.
#pragma once

#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace passlab::pipeline {

inline constexpr int kLowRankSize = 32, kLowRankRank = 4;

// A 32 x 32 weight a b / 4 (a [32, 4], b [4, 32], standard normal from
// `seed`) + 1e-4 noise, row-major, as the comma-separated values of a text
// model's initializer.
inline std::string lowRankValues(unsigned seed) {
  constexpr int kSize = kLowRankSize, kRank = kLowRankRank;
  std::mt19937 gen(seed);
  std::normal_distribution<double> normal;
  std::vector<double> a(kSize * kRank), b(kRank * kSize);
  for (double& v : a) v = normal(gen);
  for (double& v : b) v = normal(gen);
  std::ostringstream w;
  for (int i = 0; i < kSize; ++i)
    for (int j = 0; j < kSize; ++j) {
      double v = 1e-4 * normal(gen);
      for (int r = 0; r < kRank; ++r) v += a[i * kRank + r] * b[r * kSize + j] / kRank;
      w << (i || j ? ", " : "") << v;
    }
  return w.str();
}

}  // namespace passlab::pipeline
