// Cast from float and double to every integer type (cast.cpp's 32-bit
// truncation inside int32's range, its general path outside) against the
// rule it keeps: truncate toward zero into 64 bits (NaN and values beyond 64
// bits give 0), then wrap to the target's width.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "tests/core/exec/op_test_util.h"

namespace passlab::exec {
namespace {

using namespace optest;

uint64_t truncateThenWrap(double v) {
  if (!(std::fabs(v) < 18446744073709551616.0)) return 0;
  const double t = std::trunc(v);
  if (t >= 9223372036854775808.0) return static_cast<uint64_t>(t);
  return static_cast<uint64_t>(static_cast<int64_t>(t));
}

std::vector<double> edgeValues() {
  std::vector<double> v = {0.0,
                           -0.0,
                           0.5,
                           -0.5,
                           1.9,
                           -1.9,
                           127.5,
                           128.0,
                           -129.7,
                           255.9,
                           256.0,
                           32767.9,
                           -32768.9,
                           65535.5,
                           65536.0,
                           2147483520.0,
                           -2147483648.0,
                           2147483648.0,
                           -2147483904.0,
                           4294967296.0,
                           -4294967296.5e3,
                           1e18,
                           -9.2e18,
                           9.3e18,
                           1.8e19,
                           2e19,
                           -2e19,
                           1e30,
                           std::numeric_limits<double>::infinity(),
                           -std::numeric_limits<double>::infinity(),
                           std::nan("")};
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-3e9, 3e9);
  for (int i = 0; i < 2000; ++i) v.push_back(u(rng));
  return v;
}

template <class S, class D>
void expectCast(DataType from, DataType to) {
  std::vector<S> x;
  for (double v : edgeValues()) x.push_back(static_cast<S>(v));
  ir::Tensor in = ir::Tensor::fromVector<S>(from, {static_cast<int64_t>(x.size())}, x);
  ir::Tensor y = run1({"Cast", {in}, {attrI("to", static_cast<int64_t>(to))}, 19});
  auto got = y.data<D>();
  ASSERT_EQ(got.size(), x.size());
  for (size_t i = 0; i < x.size(); ++i)
    ASSERT_EQ(got[i], static_cast<D>(truncateThenWrap(static_cast<double>(x[i]))))
        << "value " << x[i] << " to " << ir::dtypeName(to);
}

template <class S>
void expectEveryInteger(DataType from) {
  expectCast<S, int8_t>(from, DataType::kInt8);
  expectCast<S, uint8_t>(from, DataType::kUInt8);
  expectCast<S, int16_t>(from, DataType::kInt16);
  expectCast<S, uint16_t>(from, DataType::kUInt16);
  expectCast<S, int32_t>(from, DataType::kInt32);
  expectCast<S, uint32_t>(from, DataType::kUInt32);
  expectCast<S, int64_t>(from, DataType::kInt64);
  expectCast<S, uint64_t>(from, DataType::kUInt64);
}

TEST(Cast, FloatAndDoubleToIntegersTruncateThenWrap) {
  expectEveryInteger<float>(DataType::kFloat);
  expectEveryInteger<double>(DataType::kDouble);
}

}  // namespace
}  // namespace passlab::exec
