// softmaxRow and softmaxColumns (core/exec/cpu/softmax_rows.h) against
// Softmax and LogSoftmax in double: rows of many lengths (vector tails),
// masked rows (-inf entries, as attention masks make), large and small
// logits, NaN and all -inf rows (NaN, as the reference), in place, the
// column form equal to the row form on the transposed block, and each
// instruction set's row equal bit for bit to its exp with a scalar maximum
// and final pass.
#include "core/exec/cpu/softmax_rows.h"

#include <gtest/gtest.h>

#include "core/exec/cpu/sigmoid_rows.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string_view>
#include <vector>

namespace passlab::exec::cpu {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

std::vector<double> reference(const std::vector<float>& x, bool log) {
  double mx = -std::numeric_limits<double>::infinity();
  for (float v : x) mx = std::max(mx, static_cast<double>(v));
  double sum = 0;
  for (float v : x) sum += std::exp(v - mx);
  std::vector<double> y;
  for (float v : x) y.push_back(log ? v - mx - std::log(sum) : std::exp(v - mx) / sum);
  return y;
}

// Softmax: relative 1e-5 of the value plus 1e-7 absolute (exp within 4 ulp
// and a float32 sum); LogSoftmax: 1e-5 of max(1, |y|).
void expectClose(const std::vector<float>& got, const std::vector<double>& want, bool log,
                 const char* what) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    const double tol =
        log ? 1e-5 * std::max(1.0, std::fabs(want[i])) : 1e-5 * std::fabs(want[i]) + 1e-7;
    EXPECT_NEAR(got[i], want[i], tol) << what << " element " << i;
  }
}

std::vector<float> randomRow(int64_t n, float spread, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-spread, spread);
  std::vector<float> x(static_cast<size_t>(n));
  for (float& v : x) v = u(rng);
  return x;
}

TEST(SoftmaxRows, RowsMatchDoubleForManyLengthsAndSpreads) {
  std::mt19937 rng(7);
  for (bool log : {false, true})
    for (int64_t n : {1, 2, 7, 8, 9, 15, 16, 17, 31, 128, 1000, 4099})
      for (float spread : {0.5f, 10.0f, 80.0f}) {
        const std::vector<float> x = randomRow(n, spread, rng);
        std::vector<float> y(x.size()), scratch(static_cast<size_t>(softmaxRowScratch(n)));
        softmaxRow(x.data(), y.data(), n, log, scratch.data());
        expectClose(y, reference(x, log), log, log ? "log row" : "row");
      }
}

TEST(SoftmaxRows, MaskedEntriesGetZeroAndLargeLogitsDoNotOverflow) {
  std::vector<float> x = {1e30f, -kInf, 1e30f - 1e24f, 3.0f, -kInf, 88.0f, 200.0f, -1e30f, 1e30f};
  std::vector<float> y(x.size()), scratch(x.size());
  softmaxRow(x.data(), y.data(), static_cast<int64_t>(x.size()), false, scratch.data());
  expectClose(y, reference(x, false), false, "large");
  EXPECT_EQ(y[1], 0.0f);
  EXPECT_EQ(y[4], 0.0f);
  softmaxRow(x.data(), y.data(), static_cast<int64_t>(x.size()), true, scratch.data());
  EXPECT_EQ(y[1], -kInf);
}

TEST(SoftmaxRows, NanAndAllMinusInfinityRowsAreNanAsInTheReference) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (bool log : {false, true}) {
    for (std::vector<float> x :
         {std::vector<float>{1, 2, nan, 4, 5, 6, 7, 8, 9, 10}, std::vector<float>(11, -kInf)}) {
      std::vector<float> y(x.size()), scratch(x.size());
      softmaxRow(x.data(), y.data(), static_cast<int64_t>(x.size()), log, scratch.data());
      for (float v : y) EXPECT_TRUE(std::isnan(v)) << (log ? "log" : "softmax");
    }
  }
}

TEST(SoftmaxRows, InPlaceEqualsOutOfPlace) {
  std::mt19937 rng(3);
  for (bool log : {false, true}) {
    const std::vector<float> x = randomRow(37, 5.0f, rng);
    std::vector<float> y(x.size()), scratch(x.size()), z = x;
    softmaxRow(x.data(), y.data(), 37, log, scratch.data());
    softmaxRow(z.data(), z.data(), 37, log, scratch.data());
    EXPECT_EQ(y, z);
  }
}

// The maximum and the final pass are exact, so on every instruction set the
// row is its exp (expShiftedSumRowOn) with a scalar maximum and a scalar
// scale or subtraction, bit for bit: lengths around the 16- and 64-lane
// blocks, a -0 / +0 maximum, in place.
TEST(SoftmaxRows, EachIsaRowIsItsExpWithScalarMaxAndFinalPass) {
  std::mt19937 rng(5);
  int paths = 0;
  for (const char* isa : {"avx512", "avx2", "sse2"}) {
    std::vector<float> probe(1), probeOut(1), probeScratch(1);
    if (!softmaxRowOn(isa, probe.data(), probeOut.data(), 1, false, probeScratch.data())) continue;
    ++paths;
    for (bool log : {false, true})
      for (int64_t n : {1, 3, 15, 16, 17, 63, 64, 65, 100, 257, 1000}) {
        std::vector<float> x = randomRow(n, 30.0f, rng);
        if (n > 2) x[static_cast<size_t>(n / 2)] = 0.0f;
        std::vector<float> y(x.size()), scratch(x.size()), e(x.size());
        ASSERT_TRUE(softmaxRowOn(isa, x.data(), y.data(), n, log, scratch.data()));
        float mx = -kInf;
        for (float v : x) mx = mx > v ? mx : v;
        float sum = 0;
        ASSERT_TRUE(expShiftedSumRowOn(isa, x.data(), mx, e.data(), n, &sum));
        std::vector<float> want(x.size());
        const float c = log ? std::log(sum) + mx : 1.0f / sum;
        for (size_t i = 0; i < x.size(); ++i) want[i] = log ? x[i] - c : e[i] * c;
        EXPECT_EQ(y, want) << isa << (log ? " log" : "") << " n=" << n;
        std::vector<float> z = x;
        ASSERT_TRUE(softmaxRowOn(isa, z.data(), z.data(), n, log, scratch.data()));
        EXPECT_EQ(z, want) << isa << " in place n=" << n;
      }
    // All values 0 or -0: the maximum is either zero, the row the same.
    std::vector<float> zeros = {-0.0f, 0.0f, -0.0f, 0.0f, 0.0f, -0.0f, 0.0f, 0.0f,  -0.0f,
                                0.0f,  0.0f, 0.0f,  0.0f, 0.0f, 0.0f,  0.0f, -0.0f, 0.0f};
    std::vector<float> y(zeros.size()), scratch(zeros.size());
    ASSERT_TRUE(softmaxRowOn(isa, zeros.data(), y.data(), 18, false, scratch.data()));
    for (float v : y) EXPECT_EQ(v, 1.0f / 18.0f) << isa;
  }
  EXPECT_GE(paths, 1);
  std::vector<float> x(4), y(4), scratch(4);
  EXPECT_FALSE(softmaxRowOn("avx1024", x.data(), y.data(), 4, false, scratch.data()));
}

// Short rows as a block: each row close to the double reference, and on
// AVX2 (this project's usual CPU) bit for bit the row form's; in place; a NaN
// row and an all -inf row NaN without touching their neighbours.
TEST(SoftmaxRows, ShortRowsEqualTheRowFormRowByRow) {
  std::mt19937 rng(13);
  const bool avx2 = std::string_view(sigmoidRowsIsa()) == "avx2";
  for (bool log : {false, true})
    for (int64_t n = 1; n <= kSoftmaxShortRowMax; ++n)
      for (int64_t rows : {1, 3, 37}) {
        const std::vector<float> x = randomRow(rows * n, 25.0f, rng);
        std::vector<float> y(x.size(), -7.0f), rowForm(x.size(), -7.0f);
        std::vector<float> scratch(static_cast<size_t>(softmaxShortRowsScratch(rows, n)));
        softmaxShortRows(x.data(), y.data(), rows, n, log, scratch.data());
        for (int64_t r = 0; r < rows; ++r) {
          const std::vector<float> row(x.begin() + r * n, x.begin() + (r + 1) * n);
          const std::vector<float> got(y.begin() + r * n, y.begin() + (r + 1) * n);
          expectClose(got, reference(row, log), log, "short row");
          softmaxRow(x.data() + r * n, rowForm.data() + r * n, n, log, nullptr);
        }
        if (avx2) {
          EXPECT_EQ(y, rowForm) << (log ? "log " : "") << "n=" << n << " rows=" << rows;
        }
        std::vector<float> z = x;
        softmaxShortRows(z.data(), z.data(), rows, n, log, scratch.data());
        EXPECT_EQ(z, y) << "in place n=" << n;
      }
  std::vector<float> x = {1.0f, 2.0f, std::nanf(""), 0.0f, -kInf, -kInf, 3.0f, 3.0f};
  std::vector<float> y(x.size()), scratch(x.size());
  softmaxShortRows(x.data(), y.data(), 4, 2, false, scratch.data());
  EXPECT_NEAR(y[0], 1.0 / (1.0 + std::exp(1.0)), 1e-7);
  EXPECT_TRUE(std::isnan(y[2]) && std::isnan(y[3]));
  EXPECT_TRUE(std::isnan(y[4]) && std::isnan(y[5]));
  EXPECT_EQ(y[6], 0.5f);
  EXPECT_EQ(y[7], 0.5f);
}

TEST(SoftmaxRows, ColumnsEqualRowsOfTheTransposedBlock) {
  std::mt19937 rng(11);
  for (bool log : {false, true})
    for (int64_t len : {1, 3, 80})
      for (int64_t inner : {1, 5, 16, 19, 300}) {
        const std::vector<float> x = randomRow(len * inner, 20.0f, rng);
        std::vector<float> y(x.size(), -7.0f);
        // Two ranges of columns, as two tasks would split them.
        const int64_t mid = inner / 2;
        std::vector<float> scratch(static_cast<size_t>(softmaxColumnsScratch(inner)));
        softmaxColumns(x.data(), y.data(), len, inner, 0, mid, log, scratch.data());
        softmaxColumns(x.data(), y.data(), len, inner, mid, inner, log, scratch.data());
        for (int64_t c = 0; c < inner; ++c) {
          std::vector<float> col, got;
          for (int64_t i = 0; i < len; ++i) {
            col.push_back(x[static_cast<size_t>(i * inner + c)]);
            got.push_back(y[static_cast<size_t>(i * inner + c)]);
          }
          expectClose(got, reference(col, log), log, "column");
        }
        std::vector<float> z = x;  // in place
        softmaxColumns(z.data(), z.data(), len, inner, 0, inner, log, scratch.data());
        std::vector<float> w(x.size());
        softmaxColumns(x.data(), w.data(), len, inner, 0, inner, log, scratch.data());
        EXPECT_EQ(z, w);
      }
}

}  // namespace
}  // namespace passlab::exec::cpu
