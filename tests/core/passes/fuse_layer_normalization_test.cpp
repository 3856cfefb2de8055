// fuse_layer_normalization: the PyTorch and TensorFlow decompositions (Pow or
// Mul square, Div or Reciprocal, with or without gamma/beta, one or two
// trailing axes, axes as attribute or input), the reasons it stays, numerics.
#include <gtest/gtest.h>

#include "tests/core/passes/fusion_test_util.h"

namespace passlab::testing {
namespace {

const char* kPass = "fuse_layer_normalization";

// The PyTorch decomposition over the last axis of x: float[2,4]; `tail` says
// what follows n = (x - mean) / std, ending in y.
std::string pytorch(const std::string& tail, const std::string& inits = "",
                    const std::string& outputs = "float[2,4] y") {
  return R"(main (float[2,4] x) => ()" + outputs +
         R"() <float two = {2}, float eps = {1e-5}, float[4] g = {1, 2, 3, 4}, float[4] b = {0.5, 0, -0.5, 1})" +
         inits + R"(> {
      m = ReduceMean <axes = [-1]> (x)
      d = Sub(x, m)
      sq = Pow(d, two)
      v = ReduceMean <axes = [-1]> (sq)
      ve = Add(v, eps)
      s = Sqrt(ve)
      n = Div(d, s)
      )" +
         tail + " }";
}

TEST(FuseLayerNormalization, PyTorchFormWithGammaAndBeta) {
  expectRewrite(
      kPass, pytorch("gm = Mul(n, g)\n y = Add(gm, b)"),
      R"(main (float[2,4] x) => (float[2,4] y) <float[4] g = {1, 2, 3, 4}, float[4] b = {0.5, 0, -0.5, 1}> {
      y = LayerNormalization <axis = -1, epsilon = 1e-5> (x, g, b) })");
}

TEST(FuseLayerNormalization, WithoutAffineTheScaleIsOnes) {
  expectRewrite(
      kPass, pytorch("y = Identity(n)"),
      R"(main (float[2,4] x) => (float[2,4] y) <float[4] ones = {1, 1, 1, 1}, float[4] g = {1, 2, 3, 4}, float[4] b = {0.5, 0, -0.5, 1}> {
      n = LayerNormalization <axis = -1, epsilon = 1e-5> (x, ones)
      y = Identity(n) })");
}

TEST(FuseLayerNormalization, MulByReciprocalAndMulSquare) {
  expectRewrite(
      kPass,
      R"(main (float[2,4] x) => (float[2,4] y) <float eps = {1e-5}, float[4] g = {1, 2, 3, 4}> {
      m = ReduceMean <axes = [1]> (x)
      d = Sub(x, m)
      sq = Mul(d, d)
      v = ReduceMean <axes = [1]> (sq)
      ve = Add(eps, v)
      s = Sqrt(ve)
      r = Reciprocal(s)
      n = Mul(r, d)
      y = Mul(g, n) })",
      R"(main (float[2,4] x) => (float[2,4] y) <float[4] g = {1, 2, 3, 4}> {
      y = LayerNormalization <axis = -1, epsilon = 1e-5> (x, g) })");
}

TEST(FuseLayerNormalization, AxesAsAnInputFromOpset18) {
  const std::string h = R"(<ir_version: 8, opset_import: ["" : 18]>)";
  expectRewrite(
      kPass,
      h + R"(main (float[2,4] x) => (float[2,4] y) <float two = {2}, float eps = {1e-5}, int64[1] ax = {-1}, float[4] b = {0.5, 0, -0.5, 1}> {
      m = ReduceMean(x, ax)
      d = Sub(x, m)
      sq = Pow(d, two)
      v = ReduceMean(sq, ax)
      ve = Add(v, eps)
      s = Sqrt(ve)
      n = Div(d, s)
      y = Add(n, b) })",
      h + R"(main (float[2,4] x) => (float[2,4] y) <float[4] ones = {1, 1, 1, 1}, float[4] b = {0.5, 0, -0.5, 1}> {
      y = LayerNormalization <axis = -1, epsilon = 1e-5> (x, ones, b) })");
}

TEST(FuseLayerNormalization, TensorFlowForm) {
  expectRewrite(
      kPass,
      R"(main (float[2,4] x) => (float[2,4] y) <float eps = {1e-3}, float[4] g = {1, 2, 3, 4}, float[4] b = {0.5, 0, -0.5, 1}> {
      m = ReduceMean <axes = [-1]> (x)
      d = Sub(x, m)
      sq = Mul(d, d)
      v = ReduceMean <axes = [-1]> (sq)
      ve = Add(v, eps)
      s = Sqrt(ve)
      r = Reciprocal(s)
      a = Mul(r, g)
      xa = Mul(x, a)
      ma = Mul(m, a)
      sb = Sub(b, ma)
      y = Add(xa, sb) })",
      R"(main (float[2,4] x) => (float[2,4] y) <float[4] g = {1, 2, 3, 4}, float[4] b = {0.5, 0, -0.5, 1}> {
      y = LayerNormalization <axis = -1, epsilon = 1e-3> (x, g, b) })");
}

TEST(FuseLayerNormalization, TwoTrailingAxesExpandGamma) {
  expectSameOutputs(
      kPass,
      R"(main (float[2,3,4] x) => (float[2,3,4] y) <float two = {2}, float eps = {1e-5}, float[4] g = {1, 2, 3, 4}, float[3,1] b = {0.5, 0, -0.5}> {
      m = ReduceMean <axes = [1, 2]> (x)
      d = Sub(x, m)
      sq = Pow(d, two)
      v = ReduceMean <axes = [-2, -1]> (sq)
      ve = Add(v, eps)
      s = Sqrt(ve)
      n = Div(d, s)
      gm = Mul(n, g)
      y = Add(gm, b) })");
}

TEST(FuseLayerNormalization, KeepsAnIntermediateThatIsAGraphOutput) {
  expectUnchanged(kPass, pytorch("y = Mul(n, g)", "", "float[2,4] y, float[2,4] d"),
                  "'d' is a graph output");
}

TEST(FuseLayerNormalization, KeepsAMeanOverLeadingAxes) {
  expectUnchanged(
      kPass, R"(main (float[2,3,4] x) => (float[2,3,4] y) <float two = {2}, float eps = {1e-5}> {
      m = ReduceMean <axes = [1]> (x)
      d = Sub(x, m)
      sq = Pow(d, two)
      v = ReduceMean <axes = [1]> (sq)
      ve = Add(v, eps)
      s = Sqrt(ve)
      y = Div(d, s) })",
      "are not the trailing axes");
}

TEST(FuseLayerNormalization, KeepsANonConstantEpsilon) {
  expectUnchanged(kPass, R"(main (float[2,4] x, float eps) => (float[2,4] y) <float two = {2}> {
      m = ReduceMean <axes = [-1]> (x)
      d = Sub(x, m)
      sq = Pow(d, two)
      v = ReduceMean <axes = [-1]> (sq)
      ve = Add(v, eps)
      s = Sqrt(ve)
      y = Div(d, s) })",
                  "the Sqrt input is not ReduceMean + a constant epsilon");
}

TEST(FuseLayerNormalization, KeepsAGammaVaryingAlongARow) {
  expectUnchanged(kPass, pytorch("y = Mul(n, g2)", R"(, float[2,1] g2 = {1, 2})"),
                  "gamma does not broadcast to the normalized shape");
}

TEST(FuseLayerNormalization, KeepsAGammaThatWidensTheResult) {
  expectUnchanged(
      kPass, pytorch("y = Mul(n, g3)", R"(, float[1,1,4] g3 = {1, 2, 3, 4})", "float[1,2,4] y"),
      "the result does not have x's type and shape");
}

TEST(FuseLayerNormalization, SkippedBeforeOpset17) {
  expectSkippedForOpset(kPass,
                        R"(<ir_version: 8, opset_import: ["" : 16]>)" + pytorch("y = Mul(n, g)"));
}

TEST(FuseLayerNormalization, Converges) {
  expectConverges(kPass, pytorch("gm = Mul(n, g)\n y = Add(gm, b)"));
}

TEST(FuseLayerNormalization, OutputsStayTheSame) {
  expectSameOutputs(kPass, pytorch("gm = Mul(n, g)\n y = Add(gm, b)"));
  expectSameOutputs(
      kPass,
      R"(main (float[3,5] x) => (float[3,5] y) <float eps = {1e-5}, float[5] g = {1, 2, 3, 4, 5}, float[5] b = {0.5, 0, -0.5, 1, 2}> {
      m = ReduceMean <axes = [-1]> (x)
      d = Sub(x, m)
      sq = Mul(d, d)
      v = ReduceMean <axes = [-1]> (sq)
      ve = Add(v, eps)
      s = Sqrt(ve)
      r = Reciprocal(s)
      a = Mul(r, g)
      xa = Mul(x, a)
      ma = Mul(m, a)
      sb = Sub(b, ma)
      y = Add(xa, sb) })");
}

}  // namespace
}  // namespace passlab::testing
