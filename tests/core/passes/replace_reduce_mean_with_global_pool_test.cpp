// replace_reduce_mean_with_global_pool: a mean over every spatial axis becomes
// GlobalAveragePool (keepdims 1, or 0 before a Flatten/Reshape), axes as
// attribute or input, the reasons it stays, numerics.
#include <gtest/gtest.h>

#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

const char* kPass = "replace_reduce_mean_with_global_pool";

TEST(ReplaceReduceMeanWithGlobalPool, KeepdimsMeanOverSpatialAxes) {
  expectRewrite(kPass, R"(main (float[1,2,3,4] x) => (float[1,2,1,1] y) {
      y = ReduceMean <axes = [2, 3]> (x) })",
                R"(main (float[1,2,3,4] x) => (float[1,2,1,1] y) { y = GlobalAveragePool(x) })");
}

TEST(ReplaceReduceMeanWithGlobalPool, NegativeAxesInAnyOrderAnd3D) {
  expectRewrite(
      kPass, R"(main (float[1,2,3,4,5] x) => (float[1,2,1,1,1] y) {
      y = ReduceMean <axes = [-1, 2, -2]> (x) })",
      R"(main (float[1,2,3,4,5] x) => (float[1,2,1,1,1] y) { y = GlobalAveragePool(x) })");
}

TEST(ReplaceReduceMeanWithGlobalPool, AxesAsAnInputFromOpset18) {
  const std::string h = R"(<ir_version: 8, opset_import: ["" : 18]>)";
  expectRewrite(
      kPass, h + R"(main (float[1,2,3,4] x) => (float[1,2,1,1] y) <int64[2] a = {2, 3}> {
      y = ReduceMean(x, a) })",
      h + R"(main (float[1,2,3,4] x) => (float[1,2,1,1] y) { y = GlobalAveragePool(x) })");
}

TEST(ReplaceReduceMeanWithGlobalPool, NoKeepdimsBeforeFlattenAndReshape) {
  expectRewrite(
      kPass,
      R"(main (float[2,3,4,4] x) => (float[2,3] y, float[6] z) <int64[2] s = {0, -1}, int64[1] f = {-1}> {
      t = ReduceMean <axes = [2, 3], keepdims = 0> (x)
      y = Flatten(t)
      r = Reshape(t, s)
      z = Reshape(r, f) })",
      R"(main (float[2,3,4,4] x) => (float[2,3] y, float[6] z) <int64[2] s = {0, -1}, int64[1] f = {-1}> {
      t = GlobalAveragePool(x)
      y = Flatten(t)
      r = Reshape(t, s)
      z = Reshape(r, f) })");
}

TEST(ReplaceReduceMeanWithGlobalPool, KeepsAMeanThatIncludesTheChannels) {
  expectUnchanged(kPass, R"(main (float[1,2,3,4] x) => (float[1,1,1,1] y) {
      y = ReduceMean <axes = [1, 2, 3]> (x) })",
                  "ReduceMean reduces [1, 2, 3], not every spatial axis [2, 3]");
}

TEST(ReplaceReduceMeanWithGlobalPool, KeepsARankTwoResultThatIsAGraphOutput) {
  expectUnchanged(kPass, R"(main (float[1,2,3,4] x) => (float[1,2] y) {
      y = ReduceMean <axes = [2, 3], keepdims = 0> (x) })",
                  "the [N, C] result is a graph output");
}

TEST(ReplaceReduceMeanWithGlobalPool, KeepsARankTwoResultReadByAnotherOp) {
  expectUnchanged(kPass, R"(main (float[1,2,3,4] x) => (float[1,2] y) {
      t = ReduceMean <axes = [2, 3], keepdims = 0> (x)
      y = Relu(t) })",
                  "only Flatten/Reshape consumers are kept unchanged");
}

TEST(ReplaceReduceMeanWithGlobalPool, KeepsAReshapeThatCopiesATrailingDim) {
  expectUnchanged(kPass, R"(main (float[1,2,3,4] x) => (float[1,2,1] y) <int64[3] s = {1, 2, 0}> {
      t = ReduceMean <axes = [2, 3], keepdims = 0> (x)
      y = Reshape(t, s) })",
                  "copies a dim past index 1");
}

TEST(ReplaceReduceMeanWithGlobalPool, KeepsAnIntegerMean) {
  expectUnchanged(kPass, R"(main (int32[1,2,3,4] x) => (int32[1,2,1,1] y) {
      y = ReduceMean <axes = [2, 3]> (x) })",
                  "x is not a float tensor");
}

TEST(ReplaceReduceMeanWithGlobalPool, KeepsARankTwoInput) {
  expectUnchanged(kPass,
                  R"(main (float[2,3] x) => (float[2,1] y) { y = ReduceMean <axes = [1]> (x) })",
                  "x is not known to have rank >= 3");
}

TEST(ReplaceReduceMeanWithGlobalPool, Converges) {
  expectConverges(kPass, R"(main (float[1,2,3,4] x) => (float[1,2,1,1] y) {
      y = ReduceMean <axes = [2, 3]> (x) })");
}

TEST(ReplaceReduceMeanWithGlobalPool, OutputsStayTheSame) {
  expectSameOutputs(kPass, R"(main (float[2,3,5,7] x) => (float[2,3,1,1] y, float[2,3] z) {
      y = ReduceMean <axes = [3, 2]> (x)
      t = ReduceMean <axes = [2, 3], keepdims = 0> (x)
      z = Flatten(t) })");
}

}  // namespace
}  // namespace passlab::testing
