// fuse_passlab_layer_norm: the decomposed layer norm (opset 11/13, PyTorch and
// TensorFlow forms) or a LayerNormalization node, with the residual Add before
// it (the sum as output 1 when the residual stream reads it) -> one ai.passlab
// FusedLayerNorm; numerics, convergence and the near misses.
#include <gtest/gtest.h>

#include "tests/core/passes/fusion_test_util.h"
#include "tests/core/passes/ort_fusion_test_util.h"

namespace passlab::testing {
namespace {

const char* kPass = "fuse_passlab_layer_norm";
const std::string kH11 = R"(<ir_version: 8, opset_import: ["" : 11]>)";
const std::string kH11p = R"(<ir_version: 8, opset_import: ["" : 11, "ai.passlab" : 1]>)";
const std::string kH17 = R"(<ir_version: 8, opset_import: ["" : 17]>)";
const std::string kH17p = R"(<ir_version: 8, opset_import: ["" : 17, "ai.passlab" : 1]>)";
const std::string kGB = R"(float[4] g = {1, 2, 3, 4}, float[4] be = {0.5, 0, -0.5, 1})";
const std::string kConsts = kGB + R"(, float two = {2}, float eps = {1e-5})";

const std::string& kDecomposed = kDecomposedLayerNorm;

TEST(FusePasslabLayerNorm, DecomposedAtOpset11) {
  expectRewrite(kPass,
                kH11 + R"(main (float[2,3,4] s) => (float[2,3,4] y) <)" + kConsts + R"(> {)" +
                    kDecomposed + " }",
                kH11p + R"(main (float[2,3,4] s) => (float[2,3,4] y) <)" + kGB + R"(> {
      y = ai.passlab.FusedLayerNorm <axis = -1, epsilon = 1e-5> (s, g, be) })");
}

TEST(FusePasslabLayerNorm, ResidualAddWithTheSumReadByTheNextResidual) {
  // GPT-2's residual stream: s = a + r feeds the layer norm and the next Add.
  expectRewrite(kPass,
                kH11 + R"(main (float[2,3,4] a, float[2,3,4] r) => (float[2,3,4] z) <)" + kConsts +
                    R"(> {
      s = Add(a, r))" +
                    kDecomposed +
                    R"(
      z = Add(s, y) })",
                kH11p + R"(main (float[2,3,4] a, float[2,3,4] r) => (float[2,3,4] z) <)" + kGB +
                    R"(> {
      y, s = ai.passlab.FusedLayerNorm <axis = -1, epsilon = 1e-5> (a, g, be, r)
      z = Add(s, y) })");
}

TEST(FusePasslabLayerNorm, LayerNormalizationNodeAndResidual) {
  expectRewrite(
      kPass, kH17 + R"(main (float[2,3,4] a, float[2,3,4] b) => (float[2,3,4] y) <)" + kGB + R"(> {
      s = Add(a, b)
      y = LayerNormalization <axis = -1, epsilon = 1e-5> (s, g) })",
      kH17p + R"(main (float[2,3,4] a, float[2,3,4] b) => (float[2,3,4] y) <)" + kGB + R"(> {
      y = ai.passlab.FusedLayerNorm <axis = -1, epsilon = 1e-5> (a, g, , b) })");
}

TEST(FusePasslabLayerNorm, ABroadcastingAddStaysOut) {
  // b [1,3,4] widens nothing but is not of the sum's shape: not a residual.
  expectRewrite(
      kPass, kH17 + R"(main (float[2,3,4] a, float[1,3,4] b) => (float[2,3,4] y) <)" + kGB + R"(> {
      s = Add(a, b)
      y = LayerNormalization <axis = -1, epsilon = 1e-5> (s, g, be) })",
      kH17p + R"(main (float[2,3,4] a, float[1,3,4] b) => (float[2,3,4] y) <)" + kGB + R"(> {
      s = Add(a, b)
      y = ai.passlab.FusedLayerNorm <axis = -1, epsilon = 1e-5> (s, g, be) })");
}

TEST(FusePasslabLayerNorm, OutputsStayTheSame) {
  expectSameOutputs(kPass, kH11 + R"(main (float[2,3,4] a, float[2,3,4] r) => (float[2,3,4] z) <)" +
                               kConsts + R"(> {
      s = Add(r, a))" + kDecomposed +
                               R"(
      z = Add(s, y) })");
  // Two normalized axes, the TensorFlow form: x * a + (beta - mean * a).
  expectSameOutputs(kPass, kH11 + R"(main (float[2,3,4] x) => (float[2,3,4] y)
      <float[3,4] g2 = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12},
       float[3,4] b2 = {0, 1, 0, -1, 0, 1, 0, -1, 0.5, 0.5, 0.5, 0.5},
       float two = {2}, float eps = {1e-3}> {
      m = ReduceMean <axes = [-2, -1]> (x)
      d = Sub(x, m)
      sq = Pow(d, two)
      v = ReduceMean <axes = [-2, -1]> (sq)
      ve = Add(v, eps)
      sd = Sqrt(ve)
      r = Reciprocal(sd)
      ag = Mul(r, g2)
      xa = Mul(x, ag)
      ma = Mul(m, ag)
      bm = Sub(b2, ma)
      y = Add(xa, bm) })");
}

TEST(FusePasslabLayerNorm, OutputsStayTheSameOnAGpt2Row) {
  // One row of GPT-2 small's width (768), no residual.
  std::string g = "{", be = "{";
  for (int i = 0; i < 768; ++i) {
    g += (i ? ", " : "") + std::to_string(1.0 + 0.001 * (i % 17));
    be += (i ? ", " : "") + std::to_string(0.01 * (i % 5) - 0.02);
  }
  expectSameOutputs(kPass, kH11 + R"(main (float[1,2,768] s) => (float[1,2,768] y)
      <float[768] g = )" + g + R"(}, float[768] be = )" +
                               be + R"(}, float two = {2}, float eps = {1e-5}> {)" + kDecomposed +
                               " }");
}

TEST(FusePasslabLayerNorm, Converges) {
  expectConverges(kPass, kH11 + R"(main (float[2,3,4] a, float[2,3,4] r) => (float[2,3,4] z) <)" +
                             kConsts + R"(> {
      s = Add(a, r))" + kDecomposed +
                             R"(
      z = Add(s, y) })");
}

TEST(FusePasslabLayerNorm, SkippedInStandardOnlyMode) {
  expectSkippedWhenStandardOnly(
      kPass, kH17 + R"(main (float[2,3,4] a, float[2,3,4] b) => (float[2,3,4] y) <)" + kGB + R"(> {
      s = Add(a, b)
      y = LayerNormalization(s, g, be) })");
}

TEST(FusePasslabLayerNorm, KeepsOtherDtypes) {
  expectUnchanged(kPass, kH17 + R"(main (double[2,3,4] s) => (double[2,3,4] y)
      <double[4] g = {1, 2, 3, 4}> {
      y = LayerNormalization <axis = -1, epsilon = 1e-5> (s, g) })",
                  "is not float32");
}

TEST(FusePasslabLayerNorm, KeepsAMeanOverLeadingAxes) {
  expectUnchanged(kPass, kH11 + R"(main (float[2,3,4] s) => (float[2,3,4] y) <)" + kConsts + R"(> {
      mean = ReduceMean <axes = [0]> (s)
      d = Sub(s, mean)
      sq = Pow(d, two)
      var = ReduceMean <axes = [0]> (sq)
      ve = Add(var, eps)
      sd = Sqrt(ve)
      n = Div(d, sd)
      gm = Mul(n, g)
      y = Add(gm, be) })",
                  "are not the trailing axes");
}

TEST(FusePasslabLayerNorm, KeepsAnIntermediateReadElsewhere) {
  expectUnchanged(kPass, kH11 + R"(main (float[2,3,4] s) => (float[2,3,4] y, float[2,3,1] var) <)" +
                             kConsts + R"(> {)" + kDecomposed + " }");
}

TEST(FusePasslabLayerNorm, KeepsANonConstantScale) {
  expectUnchanged(kPass, kH17 + R"(main (float[2,3,4] s, float[4] g) => (float[2,3,4] y) {
      y = LayerNormalization <axis = -1, epsilon = 1e-5> (s, g) })",
                  "scale is not constant");
}

}  // namespace
}  // namespace passlab::testing
