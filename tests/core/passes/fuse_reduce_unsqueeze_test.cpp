// fuse_reduce_unsqueeze: reduction with keepdims = 0 then the Unsqueeze of the
// same axes -> keepdims = 1 (attribute and input forms, ArgMax, all axes),
// the reasons it stays, numerics.
#include <gtest/gtest.h>

#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

const char* kPass = "fuse_reduce_unsqueeze";

TEST(FuseReduceUnsqueeze, ReduceMeanWithAxesAttribute) {
  expectRewrite(kPass, R"(main (float[2,3,4] x) => (float[2,1,4] y) <int64[1] u = {1}> {
      t = ReduceMean <axes = [1], keepdims = 0> (x)
      y = Unsqueeze(t, u) })",
                R"(main (float[2,3,4] x) => (float[2,1,4] y) {
      y = ReduceMean <axes = [1], keepdims = 1> (x) })");
}

TEST(FuseReduceUnsqueeze, ReduceSumWithAxesInputAndNegativeAxes) {
  expectRewrite(kPass,
                R"(main (float[2,3,4] x) => (float[2,3,1] y) <int64[1] a = {-1}, int64[1] u = {2}> {
      t = ReduceSum <keepdims = 0> (x, a)
      y = Unsqueeze(t, u) })",
                R"(main (float[2,3,4] x) => (float[2,3,1] y) <int64[1] a = {-1}> {
      y = ReduceSum <keepdims = 1> (x, a) })");
}

TEST(FuseReduceUnsqueeze, ArgMax) {
  expectRewrite(kPass, R"(main (float[2,3,4] x) => (int64[2,3,1] y) <int64[1] u = {-1}> {
      t = ArgMax <axis = 2, keepdims = 0> (x)
      y = Unsqueeze(t, u) })",
                R"(main (float[2,3,4] x) => (int64[2,3,1] y) {
      y = ArgMax <axis = 2, keepdims = 1> (x) })");
}

TEST(FuseReduceUnsqueeze, EveryAxisWhenAxesAreOmitted) {
  expectRewrite(kPass, R"(main (float[2,3,4] x) => (float[1,1,1] y) <int64[3] u = {0, 1, 2}> {
      t = ReduceSum <keepdims = 0> (x)
      y = Unsqueeze(t, u) })",
                R"(main (float[2,3,4] x) => (float[1,1,1] y) {
      y = ReduceSum <keepdims = 1> (x) })");
}

TEST(FuseReduceUnsqueeze, AttributesBeforeOpset13InAnyOrder) {
  const std::string h = R"(<ir_version: 6, opset_import: ["" : 11]>)";
  expectRewrite(kPass, h + R"(main (float[2,3,4] x) => (float[1,3,1] y) {
      t = ReduceMax <axes = [2, 0], keepdims = 0> (x)
      y = Unsqueeze <axes = [0, -1]> (t) })",
                h + R"(main (float[2,3,4] x) => (float[1,3,1] y) {
      y = ReduceMax <axes = [2, 0], keepdims = 1> (x) })");
}

TEST(FuseReduceUnsqueeze, KeepsAnUnsqueezeOfOtherAxes) {
  expectUnchanged(kPass, R"(main (float[2,3,4] x) => (float[2,4,1] y) <int64[1] u = {2}> {
      t = ReduceMean <axes = [1], keepdims = 0> (x)
      y = Unsqueeze(t, u) })",
                  "Unsqueeze inserts [2], not the reduced [1]");
}

TEST(FuseReduceUnsqueeze, KeepsAReductionThatKeepsItsDims) {
  expectUnchanged(kPass, R"(main (float[2,3,4] x) => (float[2,1,1,4] y) <int64[1] u = {1}> {
      t = ReduceMean <axes = [1]> (x)
      y = Unsqueeze(t, u) })",
                  "ReduceMean already keeps the reduced dims");
}

TEST(FuseReduceUnsqueeze, KeepsAReductionWithASecondConsumer) {
  expectUnchanged(kPass,
                  R"(main (float[2,3,4] x) => (float[2,1,4] y, float[2,4] z) <int64[1] u = {1}> {
      t = ReduceMean <axes = [1], keepdims = 0> (x)
      y = Unsqueeze(t, u)
      z = Neg(t) })",
                  "ReduceMean output 't' has 2 consumers");
}

TEST(FuseReduceUnsqueeze, KeepsANoopReduction) {
  expectUnchanged(kPass, R"(main (float[2,3,4] x) => (float[1,2,3,4] y) <int64[1] u = {0}> {
      t = ReduceSum <keepdims = 0, noop_with_empty_axes = 1> (x)
      y = Unsqueeze(t, u) })",
                  "reduces nothing");
}

TEST(FuseReduceUnsqueeze, Converges) {
  expectConverges(kPass, R"(main (float[2,3,4] x) => (float[2,1,4] y) <int64[1] u = {1}> {
      t = ReduceMean <axes = [1], keepdims = 0> (x)
      y = Unsqueeze(t, u) })");
}

TEST(FuseReduceUnsqueeze, OutputsStayTheSame) {
  expectSameOutputs(kPass,
                    R"(main (float[2,3,4] x) => (float[2,1,4] y, float[1,3,1] z, int64[2,1,4] w)
      <int64[1] u = {1}, int64[2] a = {0, 2}, int64[2] v = {2, 0}> {
      t = ReduceMean <axes = [1], keepdims = 0> (x)
      y = Unsqueeze(t, u)
      s = ReduceSum <keepdims = 0> (x, a)
      z = Unsqueeze(s, v)
      m = ArgMin <axis = -2, keepdims = 0> (x)
      w = Unsqueeze(m, u) })");
}

}  // namespace
}  // namespace passlab::testing
