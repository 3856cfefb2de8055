// fuse_ort_skip_layer_norm: a residual Add (with a bias Add before it) and the
// layer norm after it (a LayerNormalization node or the decomposed subgraph)
// become com.microsoft SkipLayerNormalization, with the sum as output 3 when
// something else reads it; the reasons it stays; numerics.
#include <gtest/gtest.h>

#include "tests/core/passes/fusion_test_util.h"
#include "tests/core/passes/ort_fusion_test_util.h"

namespace passlab::testing {
namespace {

const char* kPass = "fuse_ort_skip_layer_norm";
const std::string kH17 = R"(<ir_version: 8, opset_import: ["" : 17]>)";
const std::string kH17ms = R"(<ir_version: 8, opset_import: ["" : 17, "com.microsoft" : 1]>)";
const std::string kH13 = R"(<ir_version: 8, opset_import: ["" : 13]>)";
const std::string kH13ms = R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>)";
const std::string kGB = R"(float[4] g = {1, 2, 3, 4}, float[4] be = {0.5, 0, -0.5, 1})";

const std::string& kDecomposed = kDecomposedLayerNorm;

TEST(FuseOrtSkipLayerNorm, AddAndLayerNormalization) {
  expectRewrite(
      kPass, kH17 + R"(main (float[2,3,4] a, float[2,3,4] b) => (float[2,3,4] y) <)" + kGB + R"(> {
      s = Add(a, b)
      y = LayerNormalization <axis = -1, epsilon = 1e-5> (s, g, be) })",
      kH17ms + R"(main (float[2,3,4] a, float[2,3,4] b) => (float[2,3,4] y) <)" + kGB +
          R"(> {
      y = com.microsoft.SkipLayerNormalization <epsilon = 1e-5> (a, b, g, be) })");
}

TEST(FuseOrtSkipLayerNorm, BiasAndDecomposedLayerNormWithTheSumReadElsewhere) {
  // s feeds the next residual: it comes out as output 3.
  expectRewrite(
      kPass,
      kH13 + R"(main (float[2,3,4] m, float[2,3,4] r) => (float[2,3,4] z) <)" + kGB +
          R"(, float two = {2}, float eps = {1e-5}, float[4] bias = {0.1, 0.2, 0.3, 0.4}> {
      a = Add(m, bias)
      s = Add(r, a))" +
          kDecomposed + R"(
      z = Add(s, y) })",
      kH13ms + R"(main (float[2,3,4] m, float[2,3,4] r) => (float[2,3,4] z) <)" + kGB +
          R"(, float[4] bias = {0.1, 0.2, 0.3, 0.4}> {
      y, mean, inv, s = com.microsoft.SkipLayerNormalization <epsilon = 1e-5> (m, r, g, be, bias)
      z = Add(s, y) })");
}

TEST(FuseOrtSkipLayerNorm, SkippedInStandardOnlyMode) {
  expectSkippedWhenStandardOnly(
      kPass, kH17 + R"(main (float[2,3,4] a, float[2,3,4] b) => (float[2,3,4] y) <)" + kGB + R"(> {
      s = Add(a, b)
      y = LayerNormalization(s, g, be) })");
}

TEST(FuseOrtSkipLayerNorm, KeepsEmbeddingLookups) {
  expectUnchanged(kPass,
                  kH17 + R"(main (int64[2,3] ids, float[2,3,4] b) => (float[2,3,4] y) <)" + kGB +
                      R"(, float[5,4] table = )" + someValues(20, 1) + R"(> {
      a = Gather(table, ids)
      s = Add(a, b)
      y = LayerNormalization(s, g, be) })",
                  "an operand is an embedding lookup");
}

TEST(FuseOrtSkipLayerNorm, KeepsANormOverTwoAxes) {
  expectUnchanged(kPass,
                  kH17 + R"(main (float[2,3,4] a, float[2,3,4] b) => (float[2,3,4] y)
      <float[3,4] g2 = )" +
                      someValues(12, 2) +
                      R"(> {
      s = Add(a, b)
      y = LayerNormalization <axis = -2> (s, g2) })",
                  "the layer norm normalizes 2 axes");
}

TEST(FuseOrtSkipLayerNorm, KeepsABroadcastingAdd) {
  expectUnchanged(kPass,
                  kH17 + R"(main (float[2,3,4] a, float[1,3,4] b) => (float[2,3,4] y) <)" + kGB +
                      R"(> {
      s = Add(a, b)
      y = LayerNormalization(s, g, be) })",
                  "the Add broadcasts");
}

TEST(FuseOrtSkipLayerNorm, KeepsANonResidualInput) {
  expectUnchanged(kPass, kH17 + R"(main (float[2,3,4] a) => (float[2,3,4] y) <)" + kGB + R"(> {
      s = Relu(a)
      y = LayerNormalization(s, g, be) })",
                  "the layer norm input is not an Add");
}

TEST(FuseOrtSkipLayerNorm, Converges) {
  expectConverges(
      kPass, kH13 + R"(main (float[2,3,4] m, float[2,3,4] r) => (float[2,3,4] z) <)" + kGB +
                 R"(, float two = {2}, float eps = {1e-5}, float[4] bias = {0.1, 0.2, 0.3, 0.4}> {
      a = Add(m, bias)
      s = Add(r, a))" +
                 kDecomposed + R"(
      z = Add(s, y) })");
}

TEST(FuseOrtSkipLayerNorm, OutputsStayTheSame) {
  expectSameOutputs(
      kPass, kH13 + R"(main (float[2,3,4] m, float[2,3,4] r) => (float[2,3,4] z) <)" + kGB +
                 R"(, float two = {2}, float eps = {1e-5}, float[4] bias = {0.1, 0.2, 0.3, 0.4}> {
      a = Add(m, bias)
      s = Add(a, r))" +
                 kDecomposed + R"(
      z = Add(s, y) })");
}

}  // namespace
}  // namespace passlab::testing
