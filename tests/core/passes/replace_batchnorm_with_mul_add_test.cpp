// replace_batchnorm_with_mul_add: a standalone inference BatchNormalization
// becomes Mul + Add (exact values), rank 2 and rank 4; left to the weight
// folds after a Conv/Gemm/2-D MatMul with constant weights; reasons; numerics.
#include <gtest/gtest.h>

#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

const char* kPass = "replace_batchnorm_with_mul_add";

// s = scale / sqrt(var + 1) = {1, 0.5}, t = B - mean * s = {-0.5, -1.5}
const char* kStats =
    R"(float[2] s = {2, 0.5}, float[2] bb = {0.5, 0}, float[2] m = {1, 3}, float[2] v = {3, 0})";

TEST(ReplaceBatchnormWithMulAdd, PerChannelMulAndAdd) {
  expectRewrite(
      kPass, R"(main (float[1,2,3] x) => (float[1,2,3] y) <)" + std::string(kStats) + R"(> {
      y = BatchNormalization <epsilon = 1.0> (x, s, bb, m, v) })",
      R"(main (float[1,2,3] x) => (float[1,2,3] y) <float[2,1] sc = {1, 0.5}, float[2,1] sh = {-0.5, -1.5}> {
      p = Mul(x, sc)
      y = Add(p, sh) })");
}

TEST(ReplaceBatchnormWithMulAdd, RankTwoUsesAVector) {
  expectRewrite(
      kPass, R"(main (float[3,2] x) => (float[3,2] y) <)" + std::string(kStats) + R"(> {
      r = Relu(x)
      y = BatchNormalization <epsilon = 1.0> (r, s, bb, m, v) })",
      R"(main (float[3,2] x) => (float[3,2] y) <float[2] sc = {1, 0.5}, float[2] sh = {-0.5, -1.5}> {
      r = Relu(x)
      p = Mul(r, sc)
      y = Add(p, sh) })");
}

TEST(ReplaceBatchnormWithMulAdd, AfterAConvWithNonConstantWeights) {
  expectRewrite(
      kPass,
      R"(main (float[1,2,3,3] x, float[2,2,1,1] w) => (float[1,2,3,3] y) <)" + std::string(kStats) +
          R"(> {
      t = Conv(x, w)
      y = BatchNormalization <epsilon = 1.0> (t, s, bb, m, v) })",
      R"(main (float[1,2,3,3] x, float[2,2,1,1] w) => (float[1,2,3,3] y) <float[2,1,1] sc = {1, 0.5}, float[2,1,1] sh = {-0.5, -1.5}> {
      t = Conv(x, w)
      p = Mul(t, sc)
      y = Add(p, sh) })");
}

TEST(ReplaceBatchnormWithMulAdd, AfterABatchedMatMul) {
  // The channel axis 1 of a [B, M, N] product is a row axis: no weight absorbs it.
  expectSameOutputs(
      kPass, R"(main (float[4,2,3] x) => (float[4,2,2] y) <float[3,2] w = {1, 2, 3, 4, 5, 6}, )" +
                 std::string(kStats) + R"(> {
      t = MatMul(x, w)
      y = BatchNormalization <epsilon = 1.0> (t, s, bb, m, v) })");
}

TEST(ReplaceBatchnormWithMulAdd, LeavesABatchNormAfterAConvToTheWeightFold) {
  expectUnchanged(
      kPass,
      R"(main (float[1,2,3,3] x) => (float[1,2,3,3] y) <float[2,2,1,1] w = {1, 2, 3, 4}, )" +
          std::string(kStats) + R"(> {
      t = Conv(x, w)
      y = BatchNormalization <epsilon = 1.0> (t, s, bb, m, v) })",
      "it follows a Conv whose weights can absorb it");
}

TEST(ReplaceBatchnormWithMulAdd, KeepsNonConstantStatistics) {
  expectUnchanged(
      kPass,
      R"(main (float[1,2,3] x, float[2] v) => (float[1,2,3] y) <float[2] s = {2, 0.5}, float[2] bb = {0.5, 0}, float[2] m = {1, 3}> {
      y = BatchNormalization(x, s, bb, m, v) })",
      "BatchNormalization var is not constant");
}

TEST(ReplaceBatchnormWithMulAdd, KeepsTrainingMode) {
  expectUnchanged(kPass,
                  R"(main (float[1,2,3] x) => (float[1,2,3] y) <)" + std::string(kStats) + R"(> {
      y = BatchNormalization <training_mode = 1> (x, s, bb, m, v) })",
                  "BatchNormalization is in training mode");
}

TEST(ReplaceBatchnormWithMulAdd, KeepsALegacyTrainingBatchNorm) {
  expectUnchanged(kPass, R"(<ir_version: 3, opset_import: ["" : 6]>
      main (float[1,2,3] x) => (float[1,2,3] y) {
      s = Constant <value = float[2] {2, 0.5}> ()
      bb = Constant <value = float[2] {0.5, 0}> ()
      m = Constant <value = float[2] {1, 3}> ()
      v = Constant <value = float[2] {3, 0}> ()
      y = BatchNormalization(x, s, bb, m, v) })",
                  "is_test = 0");
}

TEST(ReplaceBatchnormWithMulAdd, Converges) {
  expectConverges(kPass,
                  R"(main (float[1,2,3] x) => (float[1,2,3] y) <)" + std::string(kStats) + R"(> {
      y = BatchNormalization <epsilon = 1.0> (x, s, bb, m, v) })");
}

TEST(ReplaceBatchnormWithMulAdd, OutputsStayTheSame) {
  expectSameOutputs(kPass, R"(main (float[2,3,4,5] x) => (float[2,3,4,5] y)
      <float[3] s = {1.3, -0.7, 0.4}, float[3] bb = {0.2, -0.1, 0.05}, float[3] m = {0.3, -0.6, 0.9}, float[3] v = {0.8, 1.7, 0.05}> {
      y = BatchNormalization <epsilon = 0.001> (x, s, bb, m, v) })");
}

}  // namespace
}  // namespace passlab::testing
