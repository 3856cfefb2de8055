// fuse_ort_layer_norm: below opset 17 the decomposed layer norm (PyTorch and
// TensorFlow forms) becomes ONNX Runtime's default-domain LayerNormalization;
// from 17 the pass is skipped (fuse_layer_normalization makes the standard
// op); the reasons it stays; numerics.
#include <gtest/gtest.h>

#include "tests/core/passes/fusion_test_util.h"
#include "tests/core/passes/ort_fusion_test_util.h"

namespace passlab::testing {
namespace {

const char* kPass = "fuse_ort_layer_norm";

// The PyTorch form on x [2,3,4] at `opset`, `tail` after n = d / s.
std::string pytorch(const std::string& tail, int opset = 13,
                    const std::string& outputs = "float[2,3,4] y") {
  return R"(<ir_version: 8, opset_import: ["" : )" + std::to_string(opset) +
         R"(]> main (float[2,3,4] x) => ()" + outputs +
         R"() <float two = {2}, float eps = {1e-5}, float[4] g = {1, 2, 3, 4}, float[4] b = {0.5, 0, -0.5, 1}> {
      mean = ReduceMean <axes = [-1]> (x)
      d = Sub(x, mean)
      sq = Pow(d, two)
      var = ReduceMean <axes = [-1]> (sq)
      ve = Add(var, eps)
      s = Sqrt(ve)
      n = Div(d, s)
      )" +
         tail + " }";
}

TEST(FuseOrtLayerNorm, PyTorchFormAtOpset13) {
  expectRewrite(kPass, pytorch("gm = Mul(n, g)\n y = Add(gm, b)"),
                R"(<ir_version: 8, opset_import: ["" : 13]>
      main (float[2,3,4] x) => (float[2,3,4] y) <float[4] g = {1, 2, 3, 4}, float[4] b = {0.5, 0, -0.5, 1}> {
      y = LayerNormalization <axis = -1, epsilon = 1e-5> (x, g, b) })");
}

TEST(FuseOrtLayerNorm, TensorFlowFormAtOpset11) {
  expectRewrite(kPass, R"(<ir_version: 6, opset_import: ["" : 11]>
      main (float[2,4] x) => (float[2,4] y) <float eps = {1e-3}, float[4] g = {1, 2, 3, 4}, float[4] b = {0.5, 0, -0.5, 1}> {
      mean = ReduceMean <axes = [-1]> (x)
      d = Sub(x, mean)
      sq = Mul(d, d)
      var = ReduceMean <axes = [-1]> (sq)
      ve = Add(var, eps)
      s = Sqrt(ve)
      r = Reciprocal(s)
      a = Mul(r, g)
      xa = Mul(x, a)
      ma = Mul(mean, a)
      sb = Sub(b, ma)
      y = Add(xa, sb) })",
                R"(<ir_version: 6, opset_import: ["" : 11]>
      main (float[2,4] x) => (float[2,4] y) <float[4] g = {1, 2, 3, 4}, float[4] b = {0.5, 0, -0.5, 1}> {
      y = LayerNormalization <axis = -1, epsilon = 1e-3> (x, g, b) })");
}

TEST(FuseOrtLayerNorm, SkippedFromOpset17) {
  expectSkippedForOpset(kPass, pytorch("y = Mul(n, g)", 17));
}

TEST(FuseOrtLayerNorm, SkippedInStandardOnlyMode) {
  expectSkippedWhenStandardOnly(kPass, pytorch("y = Mul(n, g)"));
}

TEST(FuseOrtLayerNorm, KeepsAnIntermediateThatIsAGraphOutput) {
  expectUnchanged(kPass, pytorch("y = Mul(n, g)", 13, "float[2,3,4] y, float[2,3,4] d"),
                  "'d' is a graph output");
}

TEST(FuseOrtLayerNorm, KeepsANonTrailingReduction) {
  expectUnchanged(kPass, R"(<ir_version: 8, opset_import: ["" : 13]>
      main (float[2,3,4] x) => (float[2,3,4] y) <float two = {2}, float eps = {1e-5}> {
      mean = ReduceMean <axes = [1]> (x)
      d = Sub(x, mean)
      sq = Pow(d, two)
      var = ReduceMean <axes = [1]> (sq)
      ve = Add(var, eps)
      s = Sqrt(ve)
      y = Div(d, s) })",
                  "are not the trailing axes");
}

TEST(FuseOrtLayerNorm, Converges) {
  expectConverges(kPass, pytorch("gm = Mul(n, g)\n y = Add(gm, b)"));
}

TEST(FuseOrtLayerNorm, OutputsStayTheSame) {
  expectSameOutputs(kPass, pytorch("gm = Mul(n, g)\n y = Add(gm, b)"));
}

}  // namespace
}  // namespace passlab::testing
