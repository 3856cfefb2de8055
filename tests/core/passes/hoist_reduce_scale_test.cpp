// hoist_reduce_scale: a scalar Mul (or left BitShift) applied after
// ReduceSum/ReduceMean instead of before: exact cases (powers of two,
// integer sums, left shifts), option allow_rounding, reasons, numerics.
#include <gtest/gtest.h>

#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

const char* kPass = "hoist_reduce_scale";

TEST(HoistReduceScale, PowerOfTwoScaleAfterReduceSum) {
  expectRewrite(kPass, R"(main (float[2,3] x) => (float[2] y) <float c = {2}, int64[1] ax = {1}> {
      t = Mul(x, c)
      y = ReduceSum <keepdims = 0> (t, ax) })",
                R"(main (float[2,3] x) => (float[2] y) <float c = {2}, int64[1] ax = {1}> {
      r = ReduceSum <keepdims = 0> (x, ax)
      y = Mul(r, c) })");
}

TEST(HoistReduceScale, ReduceMeanWithTheScaleFirst) {
  expectRewrite(kPass, R"(main (float[2,3] x) => (float[1,1] y) <float[1] h = {0.5}> {
      t = Mul(h, x)
      y = ReduceMean <axes = [0, 1]> (t) })",
                R"(main (float[2,3] x) => (float[1,1] y) <float h = {0.5}> {
      r = ReduceMean <axes = [0, 1]> (x)
      y = Mul(r, h) })");
}

TEST(HoistReduceScale, IntegerSumWithAnyScale) {
  expectRewrite(kPass, R"(main (int32[2,3] x) => (int32[2] y) <int32 c = {3}, int64[1] ax = {1}> {
      t = Mul(x, c)
      y = ReduceSum <keepdims = 0> (t, ax) })",
                R"(main (int32[2,3] x) => (int32[2] y) <int32 c = {3}, int64[1] ax = {1}> {
      r = ReduceSum <keepdims = 0> (x, ax)
      y = Mul(r, c) })");
}

TEST(HoistReduceScale, LeftShiftAfterTheSum) {
  expectRewrite(kPass,
                R"(main (uint32[2,3] x) => (uint32[2,1] y) <uint32 s = {2}, int64[1] ax = {-1}> {
      t = BitShift <direction = "LEFT"> (x, s)
      y = ReduceSum(t, ax) })",
                R"(main (uint32[2,3] x) => (uint32[2,1] y) <uint32 s = {2}, int64[1] ax = {-1}> {
      r = ReduceSum(x, ax)
      y = BitShift <direction = "LEFT"> (r, s) })");
}

TEST(HoistReduceScale, AnyFloatScaleWithAllowRounding) {
  expectRewrite(kPass, R"(main (float[2,3] x) => (float[2] y) <float c = {3}, int64[1] ax = {1}> {
      t = Mul(x, c)
      y = ReduceSum <keepdims = 0> (t, ax) })",
                R"(main (float[2,3] x) => (float[2] y) <float c = {3}, int64[1] ax = {1}> {
      r = ReduceSum <keepdims = 0> (x, ax)
      y = Mul(r, c) })",
                {{"allow_rounding", "true"}});
}

TEST(HoistReduceScale, KeepsAFloatScaleThatIsNotAPowerOfTwo) {
  expectUnchanged(kPass, R"(main (float[2,3] x) => (float[2] y) <float c = {3}, int64[1] ax = {1}> {
      t = Mul(x, c)
      y = ReduceSum <keepdims = 0> (t, ax) })",
                  "is not a power of two, so the sum would round differently");
}

TEST(HoistReduceScale, KeepsAnIntegerMean) {
  expectUnchanged(kPass, R"(main (int32[2,3] x) => (int32[2,1] y) <int32 c = {2}> {
      t = Mul(x, c)
      y = ReduceMean <axes = [1]> (t) })",
                  "ReduceMean of integers truncates");
}

TEST(HoistReduceScale, KeepsARightShift) {
  expectUnchanged(kPass,
                  R"(main (uint32[2,3] x) => (uint32[2,1] y) <uint32 s = {1}, int64[1] ax = {-1}> {
      t = BitShift <direction = "RIGHT"> (x, s)
      y = ReduceSum(t, ax) })",
                  "a RIGHT shift floors each element");
}

TEST(HoistReduceScale, KeepsAPerElementScale) {
  expectUnchanged(
      kPass, R"(main (float[2,3] x) => (float[2] y) <float[3] c = {2, 4, 8}, int64[1] ax = {1}> {
      t = Mul(x, c)
      y = ReduceSum <keepdims = 0> (t, ax) })",
      "the Mul is not by a constant scalar");
}

TEST(HoistReduceScale, KeepsAScalarThatWidensX) {
  expectUnchanged(kPass,
                  R"(main (float[3] x) => (float[1] y) <float[1,1] c = {2}, int64[1] ax = {1}> {
      t = Mul(x, c)
      y = ReduceSum <keepdims = 0> (t, ax) })",
                  "the scalar's broadcast widens x");
}

TEST(HoistReduceScale, KeepsAScaledTensorWithASecondConsumer) {
  expectUnchanged(
      kPass,
      R"(main (float[2,3] x) => (float[2] y, float[2,3] z) <float c = {2}, int64[1] ax = {1}> {
      t = Mul(x, c)
      y = ReduceSum <keepdims = 0> (t, ax)
      z = Neg(t) })",
      "Mul output 't' has 2 consumers");
}

TEST(HoistReduceScale, Converges) {
  expectConverges(
      kPass,
      R"(main (float[2,3] x) => (float[2] y) <float c = {2}, float d = {-0.25}, int64[1] ax = {1}> {
      t = Mul(x, c)
      u = Mul(d, t)
      y = ReduceSum <keepdims = 0> (u, ax) })");
}

TEST(HoistReduceScale, OutputsStayTheSame) {
  expectSameOutputs(
      kPass,
      R"(main (float[4,5] x, int64[3,4] n) => (float[4] y, float[1,5] z, int64[3] w, uint64[3] v)
      <float c = {-0.125}, float d = {3}, int64 k = {-7}, uint64 s = {3}, int64[1] ax = {1}> {
      t = Mul(x, c)
      y = ReduceSum <keepdims = 0> (t, ax)
      p = Mul(d, x)
      z = ReduceMean <axes = [0]> (p)
      m = Mul(n, k)
      w = ReduceSum <keepdims = 0> (m, ax)
      u = Cast <to = 13> (n)
      b = BitShift <direction = "LEFT"> (u, s)
      v = ReduceSum <keepdims = 0> (b, ax) })",
      {{"allow_rounding", "true"}});
}

}  // namespace
}  // namespace passlab::testing
