// Expand, Range, CumSum/CumProd, TopK, EyeLike and Det (expand.cpp,
// range.cpp, cumulative.cpp, topk.cpp, eye_like.cpp, det.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "tests/core/exec/op_test_util.h"

namespace passlab::exec {
namespace {

using namespace optest;

TEST(Expand, BroadcastsBothWays) {
  ir::Tensor x = f32({3, 1}, {1, 2, 3});
  expectTensor(run1({"Expand", {x, i64({3}, {2, 1, 4})}}), DataType::kFloat, {2, 3, 4},
               {1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3});
  // A shape smaller than the input keeps the input's dims.
  expectTensor(run1({"Expand", {x, i64({1}, {1})}}), DataType::kFloat, {3, 1}, {1, 2, 3});
  ir::Tensor s = run1({"Expand", {ir::Tensor::fromStrings({2}, {"a", "b"}), i64({2}, {2, 1})}});
  EXPECT_EQ(s.strings(), (std::vector<std::string>{"a", "b", "a", "b"}));
  expectTensor(run1({"Expand", {boolean({1}, {true}), i64({1}, {3})}}), DataType::kBool, {3},
               {1, 1, 1});
  // A zero dim broadcasts from 1 (not from 3).
  EXPECT_EQ(run1({"Expand", {f32({1, 3}, {1, 2, 3}), i64({2}, {0, 3})}}).dims(),
            (std::vector<int64_t>{0, 3}));
  EXPECT_EQ(run1({"Expand", {f32({1}, {5}), i64({2}, {3, 0})}}).dims(),
            (std::vector<int64_t>{3, 0}));
  std::string err = errorOf({"Expand", {x, i64({2}, {2, 3})}});
  EXPECT_FALSE(err.empty());
  err = errorOf({"Expand", {x, i64({2}, {0, 1})}});
  EXPECT_NE(err.find("broadcast"), std::string::npos) << err;
  err = errorOf({"Expand", {x, i64({1}, {-1})}});
  EXPECT_NE(err.find("negative"), std::string::npos) << err;
}

TEST(Range, IntegersAndFloats) {
  expectTensor(run1({"Range", {i32({}, {10}), i32({}, {4}), i32({}, {-3})}}), DataType::kInt32, {2},
               {10, 7});
  expectTensor(run1({"Range", {i64({}, {1}), i64({}, {5}), i64({}, {2})}}), DataType::kInt64, {2},
               {1, 3});
  expectTensor(run1({"Range", {f32({}, {1}), f32({}, {2}), f32({}, {0.3f})}}), DataType::kFloat,
               {4}, {1, 1.3, 1.6, 1.9}, 1e-6);
  expectTensor(run1({"Range", {f32({}, {5}), f32({}, {1}), f32({}, {1})}}), DataType::kFloat, {0},
               {});
  expectTensor(run1({"Range", {f16({}, {0}), f16({}, {2}), f16({}, {0.5f})}, {}, 27}),
               DataType::kFloat16, {4}, {0, 0.5, 1, 1.5});
  std::string err = errorOf({"Range", {i32({}, {0}), i32({}, {4}), i32({}, {0})}});
  EXPECT_NE(err.find("delta"), std::string::npos) << err;
  err = errorOf({"Range", {i32({}, {0}), i64({}, {4}), i32({}, {1})}});
  EXPECT_NE(err.find("different types"), std::string::npos) << err;
}

TEST(Cumulative, SumAndProductWithAttributes) {
  ir::Tensor x = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  expectTensor(run1({"CumSum", {x, i32({}, {1})}}), DataType::kFloat, {2, 3}, {1, 3, 6, 4, 9, 15});
  expectTensor(run1({"CumSum", {x, i64({1}, {0})}}), DataType::kFloat, {2, 3}, {1, 2, 3, 5, 7, 9});
  expectTensor(run1({"CumSum", {x, i32({}, {-1})}, {attrI("exclusive", 1)}}), DataType::kFloat,
               {2, 3}, {0, 1, 3, 0, 4, 9});
  expectTensor(run1({"CumSum", {x, i32({}, {1})}, {attrI("reverse", 1)}}), DataType::kFloat, {2, 3},
               {6, 5, 3, 15, 11, 6});
  expectTensor(run1({"CumSum", {x, i32({}, {1})}, {attrI("reverse", 1), attrI("exclusive", 1)}}),
               DataType::kFloat, {2, 3}, {5, 3, 0, 11, 6, 0});
  expectTensor(run1({"CumProd", {i64({4}, {1, 2, 3, 4}), i32({}, {0})}, {}, 26}), DataType::kInt64,
               {4}, {1, 2, 6, 24});
  expectTensor(run1({"CumProd", {f32({3}, {2, 3, 4}), i32({}, {0})}, {attrI("exclusive", 1)}, 26}),
               DataType::kFloat, {3}, {1, 2, 6});
  std::string err = errorOf({"CumSum", {x, i32({}, {2})}});
  EXPECT_NE(err.find("axis"), std::string::npos) << err;
}

// Lines accumulated in float one after another, as the reference order; a
// sum from -0 (the first output is the first input, as onnxruntime's), an
// exclusive one from +0.
std::vector<float> cumulativeLines(const std::vector<float>& x, int64_t outer, int64_t len,
                                   int64_t inner, bool exclusive, bool reverse) {
  std::vector<float> y(x.size());
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      float acc = exclusive ? 0.0f : -0.0f;
      for (int64_t k = 0; k < len; ++k) {
        const size_t at = static_cast<size_t>((o * len + (reverse ? len - 1 - k : k)) * inner + i);
        if (exclusive) y[at] = acc;
        acc += x[at];
        if (!exclusive) y[at] = acc;
      }
    }
  return y;
}

TEST(Cumulative, WideRowsEqualLineByLineSums) {
  // inner = 1100 spans two blocks of lines; axis 0, 1 and the last axis.
  const std::vector<int64_t> dims = {3, 7, 1100};
  const std::vector<double> r = ramp(3 * 7 * 1100, -3, 3, 7);
  const std::vector<float> x(r.begin(), r.end());
  for (int axis = 0; axis < 3; ++axis)
    for (int exclusive = 0; exclusive < 2; ++exclusive)
      for (int reverse = 0; reverse < 2; ++reverse) {
        int64_t outer = 1, inner = 1;
        for (int d = 0; d < axis; ++d) outer *= dims[static_cast<size_t>(d)];
        for (int d = axis + 1; d < 3; ++d) inner *= dims[static_cast<size_t>(d)];
        const std::vector<float> want = cumulativeLines(x, outer, dims[static_cast<size_t>(axis)],
                                                        inner, exclusive != 0, reverse != 0);
        ir::Tensor y = run1({"CumSum",
                             {f32(dims, x), i64({}, {axis})},
                             {attrI("exclusive", exclusive), attrI("reverse", reverse)}});
        ASSERT_EQ(y.dims(), dims);
        const auto got = y.data<float>();
        ASSERT_EQ(got.size(), want.size());
        size_t mismatches = 0;
        for (size_t i = 0; i < want.size(); ++i) mismatches += got[i] != want[i];
        EXPECT_EQ(mismatches, 0u) << "axis " << axis << " exclusive " << exclusive << " reverse "
                                  << reverse;
      }
  // float16 accumulates in float and rounds each output once.
  ir::Tensor h = run1({"CumSum", {f16({2, 3}, {1, 2048, 1, 1, 1, 1}), i32({}, {1})}});
  expectTensor(h, DataType::kFloat16, {2, 3}, {1, 2048, 2050, 1, 2, 3});
}

// Widths around the 16-line vectors (AVX-512 where present), -0 in the first
// step (kept: -0 + -0 is -0) and in later ones: the same bits as line by line.
TEST(Cumulative, VectorWidthsAndSignedZerosEqualLineByLineSums) {
  for (int64_t inner : {16, 17, 33, 40})
    for (int exclusive = 0; exclusive < 2; ++exclusive)
      for (int reverse = 0; reverse < 2; ++reverse) {
        const int64_t len = 5;
        const std::vector<double> r = ramp(static_cast<size_t>(len * inner), -2, 2, 9);
        std::vector<float> x(r.begin(), r.end());
        for (int64_t i = 0; i < inner; i += 3) {
          x[static_cast<size_t>(i)] = -0.0f;                      // the first row
          x[static_cast<size_t>((len - 1) * inner + i)] = -0.0f;  // the last row
        }
        const std::vector<float> want =
            cumulativeLines(x, 1, len, inner, exclusive != 0, reverse != 0);
        ir::Tensor y = run1({"CumSum",
                             {f32({len, inner}, x), i64({}, {0})},
                             {attrI("exclusive", exclusive), attrI("reverse", reverse)}});
        const auto got = y.data<float>();
        ASSERT_EQ(got.size(), want.size());
        for (size_t i = 0; i < want.size(); ++i)
          ASSERT_EQ(std::signbit(got[i]), std::signbit(want[i]))
              << "inner " << inner << " exclusive " << exclusive << " reverse " << reverse << " at "
              << i;
        EXPECT_EQ(std::vector<float>(got.begin(), got.end()), want);
      }
}

// Along the last axis (lines alone): line counts around the 16 lines summed
// together and the scalar loop's few, lengths around the 16-position tiles,
// -0 first and later; the same bits as line by line.
TEST(Cumulative, LastAxisEqualsLineByLineSums) {
  for (int64_t outer : {1, 3, 4, 15, 16, 17, 35})
    for (int64_t len : {1, 5, 16, 17, 40})
      for (int exclusive = 0; exclusive < 2; ++exclusive)
        for (int reverse = 0; reverse < 2; ++reverse) {
          const std::vector<double> r = ramp(static_cast<size_t>(outer * len), -2, 2, 11);
          std::vector<float> x(r.begin(), r.end());
          for (int64_t o = 0; o < outer; o += 2) {
            x[static_cast<size_t>(o * len)] = -0.0f;
            x[static_cast<size_t>(o * len + len - 1)] = -0.0f;
          }
          const std::vector<float> want =
              cumulativeLines(x, outer, len, 1, exclusive != 0, reverse != 0);
          ir::Tensor y = run1({"CumSum",
                               {f32({outer, len}, x), i64({}, {-1})},
                               {attrI("exclusive", exclusive), attrI("reverse", reverse)}});
          const auto got = y.data<float>();
          ASSERT_EQ(got.size(), want.size());
          for (size_t i = 0; i < want.size(); ++i)
            ASSERT_EQ(std::signbit(got[i]), std::signbit(want[i]))
                << "outer " << outer << " len " << len << " exclusive " << exclusive << " reverse "
                << reverse << " at " << i;
          EXPECT_EQ(std::vector<float>(got.begin(), got.end()), want)
              << "outer " << outer << " len " << len << " exclusive " << exclusive << " reverse "
              << reverse;
        }
}

// int32 and int64 along the last axis (AVX-512: a register of positions at a
// time, scanned in the register): lengths around the 16 and 8 lanes, sums
// that wrap; the same bits as each line's loop in unsigned arithmetic.
template <class T>
void expectIntegerLastAxisSums(DataType dtype) {
  using U = std::make_unsigned_t<T>;
  for (int64_t outer : {1, 3})
    for (int64_t len : {1, 5, 7, 8, 9, 15, 16, 17, 40, 1001})
      for (int exclusive = 0; exclusive < 2; ++exclusive)
        for (int reverse = 0; reverse < 2; ++reverse) {
          std::vector<T> x(static_cast<size_t>(outer * len));
          uint64_t s = 12345u + static_cast<uint64_t>(len);
          for (T& v : x) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            v = static_cast<T>(s >> 13);  // the whole range: sums wrap
          }
          x[0] = std::numeric_limits<T>::max();
          std::vector<T> want(x.size());
          for (int64_t o = 0; o < outer; ++o) {
            U acc = 0;
            for (int64_t k = 0; k < len; ++k) {
              const size_t at = static_cast<size_t>(o * len + (reverse ? len - 1 - k : k));
              if (exclusive) want[at] = static_cast<T>(acc);
              acc = static_cast<U>(acc + static_cast<U>(x[at]));
              if (!exclusive) want[at] = static_cast<T>(acc);
            }
          }
          ir::Tensor in = std::is_same_v<T, int32_t>
                              ? i32({outer, len}, std::vector<int32_t>(x.begin(), x.end()))
                              : i64({outer, len}, std::vector<int64_t>(x.begin(), x.end()));
          ir::Tensor y = run1({"CumSum",
                               {in, i64({}, {1})},
                               {attrI("exclusive", exclusive), attrI("reverse", reverse)}});
          ASSERT_EQ(y.dtype(), dtype);
          const auto got = y.data<T>();
          EXPECT_EQ(std::vector<T>(got.begin(), got.end()), want)
              << "outer " << outer << " len " << len << " exclusive " << exclusive << " reverse "
              << reverse;
        }
}

TEST(Cumulative, IntegerLastAxisEqualsLineByLineSums) {
  expectIntegerLastAxisSums<int32_t>(DataType::kInt32);
  expectIntegerLastAxisSums<int64_t>(DataType::kInt64);
}

// onnxruntime's signs of zero: a sum of -0s is -0, an exclusive one +0 (its
// first output and every +0 + -0 after it); float16 too; integers unchanged.
TEST(Cumulative, SignedZerosAsOnnxRuntime) {
  for (int64_t lines : {1, 16})  // the scalar loop and the last-axis lanes
    for (int reverse = 0; reverse < 2; ++reverse) {
      const std::vector<float> zeros(static_cast<size_t>(lines * 4), -0.0f);
      ir::Tensor y =
          run1({"CumSum", {f32({lines, 4}, zeros), i64({}, {1})}, {attrI("reverse", reverse)}});
      for (float v : y.data<float>()) EXPECT_TRUE(std::signbit(v) && v == 0) << v;
      ir::Tensor e = run1({"CumSum",
                           {f32({lines, 4}, zeros), i64({}, {1})},
                           {attrI("exclusive", 1), attrI("reverse", reverse)}});
      for (float v : e.data<float>()) EXPECT_TRUE(!std::signbit(v) && v == 0) << v;
    }
  // Along a leading axis (rows of lines; AVX-512 or the scalar rows).
  ir::Tensor rows = run1({"CumSum", {f32({3, 20}, std::vector<float>(60, -0.0f)), i64({}, {0})}});
  for (float v : rows.data<float>()) EXPECT_TRUE(std::signbit(v)) << v;
  ir::Tensor h = run1({"CumSum", {f16({3}, {-0.0f, -0.0f, 1}), i32({}, {0})}});
  expectTensor(h, DataType::kFloat16, {3}, {0, 0, 1});
  EXPECT_EQ(h.data<uint16_t>()[0], 0x8000u);  // -0 in float16
  EXPECT_EQ(h.data<uint16_t>()[1], 0x8000u);
  expectTensor(run1({"CumSum", {i64({3}, {0, -2, 5}), i32({}, {0})}}), DataType::kInt64, {3},
               {0, -2, 3});
}

TEST(TopK, LargestSmallestAndTies) {
  ir::Tensor x = f32({2, 4}, {1, 3, 3, 2, 5, 4, 7, 7});
  auto r = runAll({"TopK", {x, i64({1}, {2})}, {}, 11, 2});
  ASSERT_EQ(r.size(), 2u);
  expectTensor(r[0], DataType::kFloat, {2, 2}, {3, 3, 7, 7});
  expectTensor(r[1], DataType::kInt64, {2, 2}, {1, 2, 2, 3});
  r = runAll({"TopK", {x, i64({1}, {3})}, {attrI("largest", 0)}, 11, 2});
  expectTensor(r[0], DataType::kFloat, {2, 3}, {1, 2, 3, 4, 5, 7});
  expectTensor(r[1], DataType::kInt64, {2, 3}, {0, 3, 1, 1, 0, 2});
  // Along axis 0, k as the opset-1 attribute.
  r = runAll({"TopK", {x}, {attrI("k", 1), attrI("axis", 0)}, 1, 2});
  expectTensor(r[0], DataType::kFloat, {1, 4}, {5, 4, 7, 7});
  expectTensor(r[1], DataType::kInt64, {1, 4}, {1, 1, 1, 1});
  // NaN is the largest.
  r = runAll({"TopK", {f32({3}, {1, std::nanf(""), 2}), i64({1}, {2})}, {}, 11, 2});
  expectTensor(r[1], DataType::kInt64, {2}, {1, 2});
  std::string err = errorOf({"TopK", {x, i64({1}, {5})}, {}, 11, 2});
  EXPECT_NE(err.find("k = 5"), std::string::npos) << err;
}

// The k first of each line by the spec's order (NaN the largest, ties by
// index), from a stable sort of the whole line.
std::vector<int64_t> topKReference(const std::vector<double>& x, int64_t rows, int64_t len,
                                   int64_t k, bool largest) {
  std::vector<int64_t> out;
  for (int64_t r = 0; r < rows; ++r) {
    std::vector<int64_t> idx(static_cast<size_t>(len));
    for (int64_t i = 0; i < len; ++i) idx[static_cast<size_t>(i)] = i;
    auto key = [&](int64_t i) { return x[static_cast<size_t>(r * len + i)]; };
    std::stable_sort(idx.begin(), idx.end(), [&](int64_t p, int64_t q) {
      const double a = key(p), c = key(q);
      if (std::isnan(a) || std::isnan(c))
        return largest ? std::isnan(a) && !std::isnan(c) : std::isnan(c) && !std::isnan(a);
      return largest ? a > c : a < c;
    });
    out.insert(out.end(), idx.begin(), idx.begin() + k);
  }
  return out;
}

// Contiguous lines (the heap with a threshold test, 16 at a time) and the
// same lines strided (axis 0 of the transposed block: the sort) against a
// stable sort: many ties, NaNs, largest and smallest, k from 0 to len, lines
// around the 16-element blocks, float and int32.
TEST(TopK, ContiguousAndStridedLinesMatchAStableSort) {
  uint32_t seed = 1;
  auto next = [&] {
    seed = seed * 1664525u + 1013904223u;
    return seed >> 8;
  };
  for (DataType dt : {DataType::kFloat, DataType::kInt32})
    for (int64_t len : {1, 15, 16, 17, 40, 300})
      for (int64_t k : {int64_t{0}, int64_t{1}, int64_t{5}, len})
        for (int largest : {1, 0}) {
          if (k > len) continue;
          const int64_t rows = 3;
          std::vector<double> x(static_cast<size_t>(rows * len));
          for (double& v : x) {
            const uint32_t u = next();
            v = static_cast<double>(u % 23) - 11;  // many ties
            if (dt == DataType::kFloat && u % 17 == 0) v = std::nan("");
          }
          std::vector<double> xt(x.size());  // [len, rows]
          for (int64_t r = 0; r < rows; ++r)
            for (int64_t i = 0; i < len; ++i)
              xt[static_cast<size_t>(i * rows + r)] = x[static_cast<size_t>(r * len + i)];
          const std::vector<int64_t> want = topKReference(x, rows, len, k, largest != 0);
          auto r = runAll({"TopK",
                           {typed(dt, {rows, len}, x), i64({1}, {k})},
                           {attrI("largest", largest)},
                           11,
                           2});
          auto t = runAll({"TopK",
                           {typed(dt, {len, rows}, xt), i64({1}, {k})},
                           {attrI("largest", largest), attrI("axis", 0)},
                           11,
                           2});
          ASSERT_EQ(r.size(), 2u);
          ASSERT_EQ(t.size(), 2u);
          const std::vector<double> rv = values(r[0]), ri = values(r[1]), tv = values(t[0]),
                                    ti = values(t[1]);
          ASSERT_EQ(ri.size(), want.size());
          ASSERT_EQ(ti.size(), want.size());
          for (int64_t row = 0; row < rows; ++row)
            for (int64_t j = 0; j < k; ++j) {
              const auto at = static_cast<size_t>(row * k + j),
                         tat = static_cast<size_t>(j * rows + row);
              const int64_t src = want[at];
              const double v = x[static_cast<size_t>(row * len + src)];
              EXPECT_EQ(ri[at], static_cast<double>(src)) << len << " " << k << " " << largest;
              EXPECT_EQ(ti[tat], static_cast<double>(src)) << len << " " << k << " " << largest;
              if (std::isnan(v)) {
                EXPECT_TRUE(std::isnan(rv[at]) && std::isnan(tv[tat]));
              } else {
                EXPECT_EQ(rv[at], v);
                EXPECT_EQ(tv[tat], v);
              }
            }
        }
}

TEST(EyeLike, DiagonalsAndTypes) {
  ir::Tensor x = f32({3, 4}, std::vector<float>(12, 7));
  expectTensor(run1({"EyeLike", {x}}), DataType::kFloat, {3, 4},
               {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0});
  expectTensor(run1({"EyeLike", {x}, {attrI("k", 2), attrI("dtype", 7)}}), DataType::kInt64, {3, 4},
               {0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0});
  expectTensor(run1({"EyeLike", {i32({2, 2}, {0, 0, 0, 0})}, {attrI("k", -1)}}), DataType::kInt32,
               {2, 2}, {0, 0, 1, 0});
  EXPECT_FALSE(errorOf({"EyeLike", {f32({3}, {1, 2, 3})}}).empty());
  EXPECT_FALSE(errorOf({"EyeLike", {x}, {attrI("dtype", 8)}}).empty());
}

TEST(Det, SquareMatricesInABatch) {
  ir::Tensor a = f32({2, 2, 2}, {1, 2, 3, 4, 2, 0, 0, 3});
  expectTensor(run1({"Det", {a}}), DataType::kFloat, {2}, {-2, 6});
  ir::Tensor b = f64({3, 3}, {0, 2, 1, 1, 1, 1, 2, 0, 3});
  // Needs a pivot: det = 0*(3-0) - 2*(3-2) + 1*(0-2) = -4.
  expectTensor(run1({"Det", {b}}), DataType::kDouble, {}, {-4});
  expectTensor(run1({"Det", {f32({2, 2}, {1, 2, 2, 4})}}), DataType::kFloat, {}, {0});
  EXPECT_FALSE(errorOf({"Det", {f32({2, 3}, {1, 2, 3, 4, 5, 6})}}).empty());
}

}  // namespace
}  // namespace passlab::exec
