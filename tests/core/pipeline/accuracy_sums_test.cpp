// The accuracy figures' sums (core/pipeline/accuracy_sums.h): the vector path
// (AVX2, four pairs at a time) gives the one-pair-at-a-time loop's sums to the
// last bit, on data where the order of the additions shows in the result,
// with NaN and infinities anywhere, at every length (the tail after the last
// group of four), and from sums already started.
#include "core/pipeline/accuracy_sums.h"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "core/support/cpu_isa.h"

namespace passlab::pipeline {
namespace {

const std::byte* bytesOf(const std::vector<float>& v) {
  return reinterpret_cast<const std::byte*>(v.data());
}

// Every field, the doubles by their bits.
void expectSame(const AccuracySums& a, const AccuracySums& b, const std::string& what) {
  auto bits = [](double d) {
    uint64_t u;
    std::memcpy(&u, &d, sizeof d);
    return u;
  };
  EXPECT_EQ(bits(a.dot), bits(b.dot)) << what;
  EXPECT_EQ(bits(a.gotSq), bits(b.gotSq)) << what;
  EXPECT_EQ(bits(a.wantSq), bits(b.wantSq)) << what;
  EXPECT_EQ(bits(a.errSq), bits(b.errSq)) << what;
  EXPECT_EQ(bits(a.maxErr), bits(b.maxErr)) << what;
  EXPECT_EQ(bits(a.maxRef), bits(b.maxRef)) << what;
  EXPECT_EQ(a.nonFinite, b.nonFinite) << what;
  EXPECT_EQ(a.nonFiniteDiffer, b.nonFiniteDiffer) << what;
  EXPECT_EQ(a.sameNonFinite, b.sameNonFinite) << what;
  EXPECT_EQ(a.finiteCompared, b.finiteCompared) << what;
}

// Values of magnitudes 2^-range..2^range, got near want as a lossy
// conversion leaves it. With a small range every addition rounds and no
// term is lost beside the others, so the order shows in the sums.
void fill(std::vector<float>& got, std::vector<float>& want, size_t n, std::mt19937& rng,
          int range = 3) {
  std::uniform_real_distribution<float> unit(-1, 1);
  std::uniform_int_distribution<int> exp(-range, range);
  got.resize(n);
  want.resize(n);
  for (size_t i = 0; i < n; ++i) {
    want[i] = std::ldexp(unit(rng), exp(rng));
    got[i] = want[i] * (1 + 0.01f * unit(rng));
  }
}

TEST(AccuracySums, FourAtATimeAddsInTheOrderOfTheScalarLoop) {
  if (!cpu_isa::hasAvx2Fma()) GTEST_SKIP() << "no AVX2 here (or PASSLAB_MAX_ISA caps it)";
  std::mt19937 rng(7);
  std::vector<float> got, want;
  for (size_t n : {0, 1, 3, 4, 5, 7, 8, 9, 31, 64, 1001, 100003, 100001}) {
    fill(got, want, n, rng, n % 2 ? 3 : 30);
    AccuracySums vec, scalar;
    addFloatPairs(bytesOf(got), bytesOf(want), static_cast<int64_t>(n), vec);
    addFloatPairsScalar(bytesOf(got), bytesOf(want), static_cast<int64_t>(n), scalar);
    expectSame(vec, scalar, "n " + std::to_string(n));
    // Started sums, as for the second input set of a check.
    addFloatPairs(bytesOf(want), bytesOf(got), static_cast<int64_t>(n), vec);
    addFloatPairsScalar(bytesOf(want), bytesOf(got), static_cast<int64_t>(n), scalar);
    expectSame(vec, scalar, "twice, n " + std::to_string(n));
  }
}

TEST(AccuracySums, TheDataShowsTheOrderOfTheAdditions) {
  // The test above can fail: on its data a sum in another order (pairs 1
  // and 2 of each four swapped, or four partial sums) is not the same bits.
  std::mt19937 rng(7);
  std::vector<float> got, want;
  fill(got, want, 100003, rng);
  AccuracySums inOrder;
  addFloatPairsScalar(bytesOf(got), bytesOf(want), static_cast<int64_t>(got.size()), inOrder);
  std::vector<float> g2 = got, w2 = want;
  for (size_t i = 0; i + 4 <= g2.size(); i += 4) {
    std::swap(g2[i + 1], g2[i + 2]);
    std::swap(w2[i + 1], w2[i + 2]);
  }
  AccuracySums swapped;
  addFloatPairsScalar(bytesOf(g2), bytesOf(w2), static_cast<int64_t>(g2.size()), swapped);
  EXPECT_NE(inOrder.errSq, swapped.errSq);
  EXPECT_NE(inOrder.dot, swapped.dot);
  double partial[4] = {0, 0, 0, 0};
  for (size_t i = 0; i < got.size(); ++i)
    partial[i % 4] += static_cast<double>(got[i]) * static_cast<double>(want[i]);
  EXPECT_NE(inOrder.dot, (partial[0] + partial[1]) + (partial[2] + partial[3]));
  // The maxima and the count do not depend on the order.
  EXPECT_EQ(inOrder.maxErr, swapped.maxErr);
  EXPECT_EQ(inOrder.finiteCompared, got.size());
}

TEST(AccuracySums, NanAndInfinityAnywhereAsTheScalarLoop) {
  if (!cpu_isa::hasAvx2Fma()) GTEST_SKIP() << "no AVX2 here (or PASSLAB_MAX_ISA caps it)";
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  std::mt19937 rng(11);
  std::vector<float> got, want;
  for (int round = 0; round < 50; ++round) {
    const size_t n = 5 + static_cast<size_t>(round) * 7;
    fill(got, want, n, rng);
    std::uniform_int_distribution<size_t> at(0, n - 1);
    const float specials[] = {nan,
                              inf,
                              -inf,
                              -0.0f,
                              std::numeric_limits<float>::max(),
                              std::numeric_limits<float>::denorm_min()};
    for (int k = 0; k < 1 + round % 4; ++k) {
      const float v = specials[(round + k) % 6];
      (k % 2 ? got : want)[at(rng)] = v;
      if (k == 2) got[at(rng)] = want[at(rng)] = v;
    }
    if (round % 5 == 0) got[0] = want[0] = nan;  // the same NaN in both
    if (round % 7 == 0) got[n - 1] = inf, want[n - 1] = -inf;
    AccuracySums vec, scalar;
    addFloatPairs(bytesOf(got), bytesOf(want), static_cast<int64_t>(n), vec);
    addFloatPairsScalar(bytesOf(got), bytesOf(want), static_cast<int64_t>(n), scalar);
    expectSame(vec, scalar, "round " + std::to_string(round));
    EXPECT_EQ(vec.finiteCompared + vec.nonFinite + vec.nonFiniteDiffer + vec.sameNonFinite, n);
  }
}

TEST(AccuracySums, UnalignedBytes) {
  if (!cpu_isa::hasAvx2Fma()) GTEST_SKIP() << "no AVX2 here (or PASSLAB_MAX_ISA caps it)";
  std::mt19937 rng(3);
  std::vector<float> got, want;
  fill(got, want, 257, rng);
  std::vector<std::byte> g(got.size() * 4 + 3), w(want.size() * 4 + 1);
  std::memcpy(g.data() + 3, got.data(), got.size() * 4);
  std::memcpy(w.data() + 1, want.data(), want.size() * 4);
  AccuracySums vec, scalar;
  addFloatPairs(g.data() + 3, w.data() + 1, 257, vec);
  addFloatPairsScalar(bytesOf(got), bytesOf(want), 257, scalar);
  expectSame(vec, scalar, "unaligned");
}

}  // namespace
}  // namespace passlab::pipeline
