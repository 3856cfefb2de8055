// Counting NaN and infinite values of a tensor for the messages that name an
// input holding them, in every floating type; other types hold none.
#include "core/pipeline/non_finite_count.h"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <vector>

namespace passlab::pipeline {
namespace {

constexpr float kNan = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

TEST(NonFiniteCount, Float32AndFloat64CountNanAndInfinityApart) {
  auto f =
      ir::Tensor::fromVector<float>(ir::DataType::kFloat, {2, 3}, {1, kNan, -kInf, kInf, 0, -kNan});
  NonFiniteCount c = countNonFinite(f);
  EXPECT_EQ(c.nan, 2u);
  EXPECT_EQ(c.infinite, 2u);
  EXPECT_EQ(c.values, 6u);
  EXPECT_TRUE(c.any());
  auto d = ir::Tensor::fromVector<double>(ir::DataType::kDouble, {3},
                                          {1e308, std::numeric_limits<double>::quiet_NaN(), 2});
  c = countNonFinite(d);
  EXPECT_EQ(c.nan, 1u);
  EXPECT_EQ(c.infinite, 0u);
  // The largest float and the smallest subnormal are finite.
  auto edges = ir::Tensor::fromVector<float>(
      ir::DataType::kFloat, {3},
      {std::numeric_limits<float>::max(), std::numeric_limits<float>::denorm_min(),
       std::numeric_limits<float>::lowest()});
  EXPECT_FALSE(countNonFinite(edges).any());
}

TEST(NonFiniteCount, HalfTypesByTheirBits) {
  // float16: 0x7c00 +inf, 0xfc00 -inf, 0x7e00 NaN, 0x7bff the largest finite.
  std::vector<uint16_t> half = {0x7c00, 0xfc00, 0x7e00, 0x7bff, 0x3c00, 0x7c01};
  NonFiniteCount c = countNonFinite(ir::DataType::kFloat16, half.data(), half.size());
  EXPECT_EQ(c.infinite, 2u);
  EXPECT_EQ(c.nan, 2u);
  EXPECT_EQ(c.values, 6u);
  // bfloat16: 0x7f80 +inf, 0xff80 -inf, 0x7fc0 NaN, 0x7f7f the largest finite.
  std::vector<uint16_t> bf = {0x7f80, 0xff80, 0x7fc0, 0x7f7f, 0x3f80};
  c = countNonFinite(ir::DataType::kBFloat16, bf.data(), bf.size());
  EXPECT_EQ(c.infinite, 2u);
  EXPECT_EQ(c.nan, 1u);
}

TEST(NonFiniteCount, IntegersHoldNone) {
  auto i = ir::Tensor::fromVector<int32_t>(ir::DataType::kInt32, {2}, {0x7fc00000, -1});
  NonFiniteCount c = countNonFinite(i);
  EXPECT_FALSE(c.any());
  EXPECT_EQ(c.values, 2u);
  EXPECT_FALSE(countNonFinite(ir::DataType::kFloat, nullptr, 4).any());
}

TEST(NonFiniteCount, Text) {
  EXPECT_EQ(nonFiniteText({1, 2, 784}), "1 NaN and 2 infinite of its 784 values");
  EXPECT_EQ(nonFiniteText({3, 0, 784}), "3 NaN of its 784 values");
  EXPECT_EQ(nonFiniteText({0, 1, 2}), "1 infinite of its 2 values");
  EXPECT_EQ(nonFiniteText({0, 0, 2}), "");
}

}  // namespace
}  // namespace passlab::pipeline
