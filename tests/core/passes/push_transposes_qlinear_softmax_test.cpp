// push_transposes through ONNX Runtime's com.microsoft QLinearSoftmax (like
// Softmax of the opset its opset attribute names: from 13 its axis mapped;
// before, unchanged when the perm keeps the axes before it before it) and
// com.microsoft QuantizeLinear / DequantizeLinear (like the ONNX ops: the
// axis mapped when per axis). The rewrites exactly, outputs kept (the
// executor runs these ops), convergence, and where they must not fire (with
// the reason).
#include <gtest/gtest.h>

#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

const char* kPass = "push_transposes";
const std::string kHeader = R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>)";

// x[2,3,4] -> t = Transpose(x, perm) -> op -> the inverse Transpose.
std::string sandwich(const std::string& in, const std::string& out, const std::string& perm,
                     const std::string& inverse, const std::string& constants,
                     const std::string& op) {
  return kHeader + "\nmain (" + in + " x) => (" + out + " y) " + constants + " {\n" +
         "  t = Transpose <perm = " + perm + "> (x)\n" + "  o = " + op + "\n" +
         "  y = Transpose <perm = " + inverse + "> (o) }";
}
std::string swapLastTwo(const std::string& type, const std::string& constants,
                        const std::string& op) {
  return sandwich(type, type, "[0, 2, 1]", "[0, 2, 1]", constants, op);
}
// The expected model: x -> `op` -> y, no Transpose.
std::string direct(const std::string& type, const std::string& constants, const std::string& op) {
  return kHeader + "\nmain (" + type + " x) => (" + type + " y) " + constants + " {\n  y = " + op +
         " }";
}
const char* kScales = "<float sx = {0.05}, uint8 zx = {128}, float sy = {0.004}, uint8 zy = {0}>";

// ---- QLinearSoftmax ----

TEST(PushTransposesQLinearSoftmax, FromOpset13TheAxisIsMapped) {
  const std::string in =
      swapLastTwo("uint8[2,3,4]", kScales,
                  "com.microsoft.QLinearSoftmax <opset = 13, axis = 1> (t, sx, zx, sy, zy)");
  expectRewrite(kPass, in,
                direct("uint8[2,3,4]", kScales,
                       "com.microsoft.QLinearSoftmax <opset = 13, axis = 2> (x, sx, zx, sy, zy)"));
  expectSameOutputs(kPass, in);
  expectConverges(kPass, in);
  // The default axis (-1, the last of t) is axis 1 of x.
  const std::string byDefault = swapLastTwo(
      "uint8[2,3,4]", kScales, "com.microsoft.QLinearSoftmax <opset = 13> (t, sx, zx, sy, zy)");
  expectRewrite(kPass, byDefault,
                direct("uint8[2,3,4]", kScales,
                       "com.microsoft.QLinearSoftmax <opset = 13, axis = 1> (x, sx, zx, sy, zy)"));
  expectSameOutputs(kPass, byDefault);
}

TEST(PushTransposesQLinearSoftmax, BeforeOpset13APermThatKeepsTheRowsPasses) {
  // Flattened at axis 1: rows x[n] of 12; [0, 2, 1] permutes within each row.
  const std::string in =
      swapLastTwo("uint8[2,3,4]", kScales,
                  "com.microsoft.QLinearSoftmax <opset = 12, axis = 1> (t, sx, zx, sy, zy)");
  expectRewrite(kPass, in,
                direct("uint8[2,3,4]", kScales,
                       "com.microsoft.QLinearSoftmax <opset = 12, axis = 1> (x, sx, zx, sy, zy)"));
  expectSameOutputs(kPass, in);
  expectConverges(kPass, in);
}

TEST(PushTransposesQLinearSoftmax, BeforeOpset13AMissingAxisIsTheLast) {
  // Axis -1 (2 here), not 1: [1, 0, 2] keeps axes 0 and 1 before it.
  const std::string in = sandwich("uint8[2,3,4]", "uint8[2,3,4]", "[1, 0, 2]", "[1, 0, 2]", kScales,
                                  "com.microsoft.QLinearSoftmax <opset = 11> (t, sx, zx, sy, zy)");
  expectRewrite(kPass, in,
                direct("uint8[2,3,4]", kScales,
                       "com.microsoft.QLinearSoftmax <opset = 11> (x, sx, zx, sy, zy)"));
  expectSameOutputs(kPass, in);
}

// ---- com.microsoft QuantizeLinear / DequantizeLinear ----

TEST(PushTransposesMsQuantizeLinear, PerAxisTakesTheMappedAxis) {
  const std::string q =
      swapLastTwo("float[2,3,4]", "<float[4] s = {0.5, 0.25, 2, 1}, uint8[4] z = {1, 2, 3, 4}>",
                  "com.microsoft.QuantizeLinear <axis = 1> (t, s, z)");
  expectRewrite(kPass, q, kHeader + R"(
main (float[2,3,4] x) => (float[2,3,4] y) <float[4] s = {0.5, 0.25, 2, 1}, uint8[4] z = {1, 2, 3, 4}> {
    y = com.microsoft.QuantizeLinear <axis = 2> (x, s, z) })");
  const std::string dq =
      swapLastTwo("int8[2,3,4]", "<float[3] s = {0.5, 0.25, 2}, int8[3] z = {1, -2, 3}>",
                  "com.microsoft.DequantizeLinear <axis = 2> (t, s, z)");
  expectRewrite(kPass, dq, kHeader + R"(
main (int8[2,3,4] x) => (int8[2,3,4] y) <float[3] s = {0.5, 0.25, 2}, int8[3] z = {1, -2, 3}> {
    y = com.microsoft.DequantizeLinear <axis = 1> (x, s, z) })");
}

// A QDQ island in NHWC between layout Transposes: DequantizeLinear per
// channel, Softmax over the channels, QuantizeLinear per tensor. The chain
// runs on x as it is.
const std::string kIsland = kHeader + R"(
main (uint8[1,2,2,3] x) => (uint8[1,2,2,3] y)
    <float[3] s = {0.05, 0.1, 0.02}, uint8[3] z = {128, 120, 130}, float so = {0.004}, uint8 zo = {0}> {
    t = Transpose <perm = [0, 3, 1, 2]> (x)
    d = com.microsoft.DequantizeLinear <axis = 1> (t, s, z)
    m = Softmax <axis = 1> (d)
    q = com.microsoft.QuantizeLinear(m, so, zo)
    y = Transpose <perm = [0, 2, 3, 1]> (q) })";

TEST(PushTransposesMsQuantizeLinear, QdqIslandLosesBothTransposes) {
  expectRewrite(kPass, kIsland, kHeader + R"(
main (uint8[1,2,2,3] x) => (uint8[1,2,2,3] y)
    <float[3] s = {0.05, 0.1, 0.02}, uint8[3] z = {128, 120, 130}, float so = {0.004}, uint8 zo = {0}> {
    d = com.microsoft.DequantizeLinear <axis = 3> (x, s, z)
    m = Softmax <axis = 3> (d)
    y = com.microsoft.QuantizeLinear(m, so, zo) })");
  expectSameOutputs(kPass, kIsland);
  expectConverges(kPass, kIsland);
}

// ---- where it must not fire ----

TEST(PushTransposesQLinearSoftmax, KeepsAPermThatCrossesTheFlatteningPoint) {
  expectUnchanged(
      kPass,
      sandwich("uint8[2,3,4]", "uint8[2,3,4]", "[0, 2, 1]", "[0, 2, 1]", kScales,
               "com.microsoft.QLinearSoftmax <opset = 12, axis = 2> (t, sx, zx, sy, zy)"),
      "before opset 13 it works on the input flattened to 2-D at axis 2, and the perm "
      "[0, 2, 1] moves an axis across it");
}

TEST(PushTransposesQLinearSoftmax, KeepsOneWithoutAnOpsetAttribute) {
  expectUnchanged(kPass,
                  swapLastTwo("uint8[2,3,4]", kScales,
                              "com.microsoft.QLinearSoftmax <axis = 1> (t, sx, zx, sy, zy)"),
                  "it has no opset attribute");
}

TEST(PushTransposesMsQuantizeLinear, KeepsAScaleOfUnknownRank) {
  expectUnchanged(kPass, kHeader + R"(
main (float[2,3,4] x, float s) => (uint8[2,3,4] y) {
    t = Transpose <perm = [0, 2, 1]> (x)
    q = com.microsoft.QuantizeLinear <axis = 1> (t, s)
    y = Transpose <perm = [0, 2, 1]> (q) })",
                  "the scale's rank is unknown");
}

}  // namespace
}  // namespace passlab::testing
