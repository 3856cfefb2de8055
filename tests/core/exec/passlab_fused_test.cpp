// PassLab's fused kernels (ai.passlab FusedConv, FusedGemm, FusedElementwise)
// against the unfused chains they replace, run on the reference kernels:
// several shapes, broadcasting, every activation, residuals; the optimized
// (oneDNN) and the reference fused kernels both. Also the program checks of
// FusedElementwise.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <random>

#include "tests/core/exec/kernel_test_util.h"

namespace passlab::exec {
namespace {

const char* kHeader = R"(<ir_version: 8, opset_import: ["" : 20, "ai.passlab" : 1]>)";

ir::Tensor rnd(kt::Dims dims, unsigned seed) {
  return kt::uniformF32(std::move(dims), seed, 2.0f);
}

ir::Tensor run(const std::string& body, const NamedInputs& inputs, bool reference) {
  return kt::runOneOutput(std::string(kHeader) + body, inputs, reference);
}

// The unfused chain for a fused op: the fused node's body and the chain's,
// compared on the optimized and the reference fused kernels.
void compare(const std::string& fused, const std::string& chain, const NamedInputs& inputs,
             float tol, const std::string& what) {
  ir::Tensor want = run(chain, inputs, true);
  kt::expectClose(run(fused, inputs, false), want, what + " (optimized)", tol);
  kt::expectClose(run(fused, inputs, true), want, what + " (reference)", tol);
}

struct Act {
  const char* fusedAttrs;  // activation attributes of the fused node
  const char* chainNode;   // the activation node, reading u, writing y
};

const Act kActs[] = {
    {R"(, activation = "Relu")", "y = Relu(u)"},
    {R"(, activation = "LeakyRelu", activation_params = [0.1])", "y = LeakyRelu <alpha = 0.1> (u)"},
    {R"(, activation = "Clip", activation_params = [-0.5, 0.75])", "y = Clip(u, lo, hi)"},
    {R"(, activation = "Sigmoid")", "y = Sigmoid(u)"},
    {R"(, activation = "Tanh")", "y = Tanh(u)"},
    {R"(, activation = "HardSigmoid", activation_params = [0.3, 0.4])",
     "y = HardSigmoid <alpha = 0.3, beta = 0.4> (u)"},
    {R"(, activation = "HardSwish")", "y = HardSwish(u)"},
    {R"(, activation = "Gelu")", "y = Gelu(u)"},
    {R"(, activation = "Gelu", activation_params = [1.0])",
     R"(y = Gelu <approximate = "tanh"> (u))"},
    {"", "y = Identity(u)"},
};

const char* kClipBounds =
    "lo = Constant <value = float {-0.5}> ()\n hi = Constant <value = float {0.75}> ()\n";

struct ConvCase {
  const char* name;
  kt::Dims x, w, y;
  const char* attrs;  // Conv attributes, without brackets
};

const ConvCase kConvs[] = {
    {"3x3", {1, 8, 10, 10}, {16, 8, 3, 3}, {1, 16, 10, 10}, "pads = [1, 1, 1, 1]"},
    {"grouped_strided", {2, 6, 9, 7}, {6, 2, 3, 3}, {2, 6, 4, 3}, "group = 3, strides = [2, 2]"},
    {"1x1", {1, 32, 5, 5}, {24, 32, 1, 1}, {1, 24, 5, 5}, "kernel_shape = [1, 1]"},
    // 1x1 with >= 64 positions: the matmul form (batch 2).
    {"1x1_matmul", {2, 16, 9, 9}, {24, 16, 1, 1}, {2, 24, 9, 9}, "kernel_shape = [1, 1]"},
    {"1d", {2, 3, 20}, {5, 3, 4}, {2, 5, 17}, "dilations = [1]"},
    // Grouped 1x1 with >= 144 positions: oneDNN's convolution on plain NCHW
    // (conv_layout_choice.h), 4 and 3 groups, channels not multiples of 16.
    {"1x1_grouped4_plain", {1, 24, 12, 12}, {36, 6, 1, 1}, {1, 36, 12, 12}, "group = 4"},
    {"1x1_grouped3_plain", {1, 30, 12, 13}, {45, 10, 1, 1}, {1, 45, 12, 13}, "group = 3"},
    {"1x1_grouped2_small", {1, 18, 5, 5}, {10, 9, 1, 1}, {1, 10, 5, 5}, "group = 2"},
    // Strided 1x1 with >= 144 positions (resnet50's downsampling): plain NCHW too.
    {"1x1_strided_plain", {1, 24, 26, 24}, {20, 24, 1, 1}, {1, 20, 13, 12}, "strides = [2, 2]"},
    // 1x1 on 1x1 (squeeze-excite): GEMVs (conv_gemv.h); grouped, batch 3, strided;
    // a batch of 5 is past kGemvMaxBatch (oneDNN).
    {"1x1_on_1x1_gemv", {1, 40, 1, 1}, {10, 40, 1, 1}, {1, 10, 1, 1}, "kernel_shape = [1, 1]"},
    {"1x1_on_1x1_gemv_grouped", {3, 39, 1, 1}, {21, 13, 1, 1}, {3, 21, 1, 1}, "group = 3"},
    {"1x1_on_1x1_gemv_strided", {1, 22, 1, 1}, {88, 22, 1, 1}, {1, 88, 1, 1}, "strides = [2, 2]"},
    {"1x1_on_1x1_batch5", {5, 20, 1, 1}, {7, 20, 1, 1}, {5, 7, 1, 1}, "kernel_shape = [1, 1]"},
};

std::string dimsText(const kt::Dims& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + std::to_string(d[i]);
  return s + "]";
}

TEST(PassLabFusedConv, MatchesConvAddActivationForEveryActivationAndShape) {
  for (const ConvCase& cc : kConvs)
    for (bool residual : {false, true})
      for (bool bias : {false, true})
        for (const Act& act : kActs) {
          std::string sig = "main (float" + dimsText(cc.x) + " x, float" + dimsText(cc.w) +
                            " w, float[" + std::to_string(cc.w[0]) + "] b, float" + dimsText(cc.y) +
                            " z) => (float" + dimsText(cc.y) + " y) {\n";
          std::string in = std::string("x, w, ") + (bias ? "b" : "") + (residual ? ", z" : "");
          std::string fused =
              sig + "y = ai.passlab.FusedConv <" + cc.attrs + act.fusedAttrs + "> (" + in + ") }";
          std::string chain =
              sig + kClipBounds + "t = Conv <" + cc.attrs + "> (x, w" + (bias ? ", b" : "") +
              ")\n" + (residual ? "u = Add(t, z)\n" : "u = Identity(t)\n") + act.chainNode + " }";
          NamedInputs inputs = {{"x", rnd(cc.x, 1)},
                                {"w", rnd(cc.w, 2)},
                                {"b", rnd({cc.w[0]}, 3)},
                                {"z", rnd(cc.y, 4)}};
          compare(fused, chain, inputs, 2e-4f,
                  std::string(cc.name) + (residual ? " residual" : "") + (bias ? " bias " : " ") +
                      act.chainNode);
        }
}

TEST(PassLabFusedConv, WeightsAsConstantsArePackedOnce) {
  const char* body = R"(main (float[1,4,6,6] x) => (float[1,4,6,6] y)
      <float[4,4,1,1] w = {1, 0, 0, 0, 0, 2, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0.5}> {
      y = ai.passlab.FusedConv <activation = "Relu"> (x, w) })";
  const char* chain = R"(main (float[1,4,6,6] x) => (float[1,4,6,6] y)
      <float[4,4,1,1] w = {1, 0, 0, 0, 0, 2, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0.5}> {
      t = Conv(x, w)
      y = Relu(t) })";
  for (unsigned seed : {5u, 6u})  // a second run reuses the packed weights
    compare(body, chain, {{"x", rnd({1, 4, 6, 6}, seed)}}, 1e-5f, "constant weights");
}

TEST(PassLabFusedConv, RejectsABadActivationAndAResidualOfAnotherShape) {
  std::string h = kHeader;
  EXPECT_TRUE(kt::contains(
      testutil::errorOf(h + R"(main (float[1,1,3,3] x, float[1,1,1,1] w) => (float[1,1,3,3] y) {
      y = ai.passlab.FusedConv <activation = "Swish"> (x, w) })",
                        {{"x", rnd({1, 1, 3, 3}, 1)}, {"w", rnd({1, 1, 1, 1}, 2)}}),
      "unknown activation 'Swish'"));
  EXPECT_TRUE(kt::contains(
      testutil::errorOf(
          h + R"(main (float[1,1,3,3] x, float[1,1,1,1] w, float[1,1,3,1] z) => (float[1,1,3,3] y) {
      y = ai.passlab.FusedConv (x, w, , z) })",
          {{"x", rnd({1, 1, 3, 3}, 1)}, {"w", rnd({1, 1, 1, 1}, 2)}, {"z", rnd({1, 1, 3, 1}, 3)}}),
      "does not have the output's shape"));
}

struct GemmCase {
  const char* name;
  kt::Dims a, b, c, y;
  const char* gemmAttrs;  // for the fused node and, when `gemm`, the chain's Gemm
  bool gemm;              // chain: Gemm(a, b, c) (else MatMul(a, b) + c)
};

const GemmCase kGemms[] = {
    {"2d_row_bias", {4, 16}, {16, 8}, {8}, {4, 8}, "", false},
    {"3d_batch_rows", {2, 5, 16}, {16, 12}, {12}, {2, 5, 12}, "", false},
    {"3d_full_c", {2, 3, 4}, {4, 6}, {2, 3, 6}, {2, 3, 6}, "", false},
    {"trans_alpha_beta_column_c",
     {7, 4},
     {9, 7},
     {4, 1},
     {4, 9},
     "transA = 1, transB = 1, alpha = 0.5, beta = 2.0",
     true},
    {"transB_matrix_c", {3, 5}, {6, 5}, {3, 6}, {3, 6}, "transB = 1", true},
    {"gpt2_like", {8, 96}, {96, 384}, {384}, {8, 384}, "", true},
};

TEST(PassLabFusedGemm, MatchesGemmAddActivationForEveryActivationAndShape) {
  for (const GemmCase& gc : kGemms)
    for (bool residual : {false, true})
      for (bool withC : {true, false})
        for (const Act& act : kActs) {
          std::string sig = "main (float" + dimsText(gc.a) + " a, float" + dimsText(gc.b) +
                            " b, float" + dimsText(gc.c) + " c, float" + dimsText(gc.y) +
                            " z) => (float" + dimsText(gc.y) + " y) {\n";
          std::string in = std::string("a, b, ") + (withC ? "c" : "") + (residual ? ", z" : "");
          std::string attrs = std::string(gc.gemmAttrs) + act.fusedAttrs;
          if (!attrs.empty() && attrs[0] == ',') attrs = attrs.substr(1);
          std::string fused = sig + "y = ai.passlab.FusedGemm " +
                              (attrs.empty() ? "" : "<" + attrs + "> ") + "(" + in + ") }";
          std::string chain = sig + kClipBounds;
          if (gc.gemm) {
            std::string ga = gc.gemmAttrs[0] ? std::string("<") + gc.gemmAttrs + "> " : "";
            chain += "t = Gemm " + ga + "(a, b" + (withC ? ", c" : "") + ")\n";
          } else {
            chain += withC ? "p = MatMul(a, b)\n t = Add(p, c)\n" : "t = MatMul(a, b)\n";
          }
          chain += (residual ? "u = Add(t, z)\n" : "u = Identity(t)\n") +
                   std::string(act.chainNode) + " }";
          NamedInputs inputs = {{"a", rnd(gc.a, 11)},
                                {"b", rnd(gc.b, 12)},
                                {"c", rnd(gc.c, 13)},
                                {"z", rnd(gc.y, 14)}};
          compare(fused, chain, inputs, 2e-4f,
                  std::string(gc.name) + (residual ? " residual" : "") + (withC ? " C " : " ") +
                      act.chainNode);
        }
}

// ---- FusedElementwise ----

std::string fe(const std::string& sig, const std::string& ins, const std::string& attrs) {
  return sig + "y = ai.passlab.FusedElementwise <" + attrs + "> (" + ins + ") }";
}

TEST(PassLabFusedElementwise, ScaleShiftReluWithPerChannelBroadcast) {
  const std::string sig =
      "main (float[2,3,4,5] x, float[3,1,1] s, float[1,3,1,1] b) => (float[2,3,4,5] y) {\n";
  // y = Relu(x * s + b) - 0.25
  compare(
      fe(sig, "x, s, b",
         R"(ops = ["Mul", "Add", "Relu", "Sub"], operands = [0, 1, -1, 3, 2, -1, 4, -1, -1, 5, -2, -1], constants = [0.25])"),
      sig +
          "q = Constant <value = float {0.25}> ()\n m = Mul(x, s)\n a = Add(m, b)\n r = Relu(a)\n "
          "y = Sub(r, q) }",
      {{"x", rnd({2, 3, 4, 5}, 1)}, {"s", rnd({3, 1, 1}, 2)}, {"b", rnd({1, 3, 1, 1}, 3)}}, 0,
      "scale shift relu");
}

TEST(PassLabFusedElementwise, BlockedPerChannelScaleShiftRelu) {
  // A BatchNormalization as Mul/Add on a blocked [N, C/16, H, W, 16] tensor:
  // s and b are [1, C/16, 1, 1, 16], one row of 16 repeated along H*W (the
  // periodic path), over two batches and super-rows of 63 x 16 elements.
  const std::string sig =
      "main (float[2,5,7,9,16] x, float[1,5,1,1,16] s, float[1,5,1,1,16] b) => "
      "(float[2,5,7,9,16] y) {\n";
  compare(fe(sig, "x, s, b",
             R"(ops = ["Mul", "Add", "Relu"], operands = [0, 1, -1, 3, 2, -1, 4, -1, -1])"),
          sig + "m = Mul(x, s)\n a = Add(m, b)\n y = Relu(a) }",
          {{"x", rnd({2, 5, 7, 9, 16}, 1)},
           {"s", rnd({1, 5, 1, 1, 16}, 2)},
           {"b", rnd({1, 5, 1, 1, 16}, 3)}},
          0, "blocked per-channel affine");
}

TEST(PassLabFusedElementwise, BlockedScaleShiftRunsInOnePassWithTheChainsResults) {
  // x * s + b alone (a blocked BatchNormalization; the one-pass path), the
  // operands in both orders, s per channel block and b per batch and block:
  // exactly the Mul and Add ops' results.
  const std::string sig =
      "main (float[2,5,7,9,16] x, float[1,5,1,1,16] s, float[2,5,1,1,16] b) => "
      "(float[2,5,7,9,16] y) {\n";
  const NamedInputs in = {{"x", rnd({2, 5, 7, 9, 16}, 4)},
                          {"s", rnd({1, 5, 1, 1, 16}, 5)},
                          {"b", rnd({2, 5, 1, 1, 16}, 6)}};
  compare(fe(sig, "x, s, b", R"(ops = ["Mul", "Add"], operands = [0, 1, -1, 3, 2, -1])"),
          sig + "m = Mul(x, s)\n y = Add(m, b) }", in, 0, "scale shift x * s + b");
  compare(fe(sig, "x, s, b", R"(ops = ["Mul", "Add"], operands = [1, 0, -1, 2, 3, -1])"),
          sig + "m = Mul(s, x)\n y = Add(b, m) }", in, 0, "scale shift b + s * x");
}

TEST(PassLabFusedElementwise, BlockedScaleShiftReluOnlyOfTheSum) {
  // The one-pass path takes Mul, Add, Relu only when the Relu reads the sum
  // (a blocked BatchNormalization and its Relu): a Relu of the product, or of
  // an input, is another program, run as written.
  const std::string sig =
      "main (float[2,5,7,9,16] x, float[1,5,1,1,16] s, float[2,5,1,1,16] b) => "
      "(float[2,5,7,9,16] y) {\n";
  const NamedInputs in = {{"x", rnd({2, 5, 7, 9, 16}, 7)},
                          {"s", rnd({1, 5, 1, 1, 16}, 8)},
                          {"b", rnd({2, 5, 1, 1, 16}, 9)}};
  compare(fe(sig, "x, s, b",
             R"(ops = ["Mul", "Add", "Relu"], operands = [1, 0, -1, 2, 3, -1, 4, -1, -1])"),
          sig + "m = Mul(s, x)\n a = Add(b, m)\n y = Relu(a) }", in, 0, "relu of b + s * x");
  compare(fe(sig, "x, s, b",
             R"(ops = ["Mul", "Add", "Relu"], operands = [0, 1, -1, 3, 2, -1, 3, -1, -1])"),
          sig + "m = Mul(x, s)\n y = Relu(m) }", in, 0, "relu of the product");
  compare(fe(sig, "x, s, b",
             R"(ops = ["Mul", "Add", "Relu"], operands = [0, 1, -1, 3, 2, -1, 0, -1, -1])"),
          sig + "y = Relu(x) }", in, 0, "relu of x");
}

TEST(PassLabFusedElementwise, PeriodicRowsLongerThanATileWithAnOddPeriod) {
  // Rows of 7 repeated along 37 x 41 (super-rows of 10619 elements, several
  // pieces each); s varies with the outer dim, g not at all outside its row;
  // z is all of Y, c a scalar input: every kind of input of the periodic path.
  const std::string sig =
      "main (float[3,37,41,7] x, float[3,1,1,7] s, float[7] g, float[3,37,41,7] z, float[1] c) "
      "=> (float[3,37,41,7] y) {\n";
  compare(
      fe(sig, "x, s, g, z, c",
         R"(ops = ["Mul", "Add", "Sub", "Mul"], operands = [0, 1, -1, 5, 2, -1, 6, 3, -1, 7, 4, -1])"),
      sig + "m = Mul(x, s)\n a = Add(m, g)\n d = Sub(a, z)\n y = Mul(d, c) }",
      {{"x", rnd({3, 37, 41, 7}, 1)},
       {"s", rnd({3, 1, 1, 7}, 2)},
       {"g", rnd({7}, 3)},
       {"z", rnd({3, 37, 41, 7}, 4)},
       {"c", rnd({1}, 5)}},
      0, "periodic rows");
}

TEST(PassLabFusedElementwise, TreeOverManyTilesWithRowAndColumnBroadcasts) {
  // y = (x - m) / Sqrt(v + 1e-5) * g, x [3,1000,7], m [3,1000,1], v [1000,1], g [7]:
  // 21000 elements (11 tiles, the last partial), three kinds of broadcast.
  const std::string sig =
      "main (float[3,1000,7] x, float[3,1000,1] m, float[1000,1] v, float[7] g) => "
      "(float[3,1000,7] y) {\n";
  ir::Tensor v = rnd({1000, 1}, 3);
  for (float& e : v.mutableData<float>()) e = std::fabs(e);
  compare(
      fe(sig, "x, m, v, g",
         R"(ops = ["Sub", "Add", "Sqrt", "Div", "Mul"], operands = [0, 1, -1, 2, -2, -1, 5, -1, -1, 4, 6, -1, 7, 3, -1], constants = [1e-5])"),
      sig +
          "e = Constant <value = float {1e-5}> ()\n d = Sub(x, m)\n a = Add(v, e)\n "
          "s = Sqrt(a)\n q = Div(d, s)\n y = Mul(q, g) }",
      {{"x", rnd({3, 1000, 7}, 1)}, {"m", rnd({3, 1000, 1}, 2)}, {"v", v}, {"g", rnd({7}, 4)}}, 0,
      "normalization tree");
}

TEST(PassLabFusedElementwise, LongRowsReadInPlaceWithPerRowAndPerColumnOperands) {
  // Rows of 2500 (> one tile): s varies per row (a scalar along it), g per column.
  const std::string sig =
      "main (float[2,3,2500] x, float[3,1] s, float[2500] g) => (float[2,3,2500] y) {\n";
  compare(
      fe(sig, "x, s, g",
         R"(ops = ["Mul", "Add", "Max"], operands = [0, 1, -1, 3, 2, -1, 4, -2, -1], constants = [0.5])"),
      sig +
          "h = Constant <value = float {0.5}> ()\n m = Mul(x, s)\n a = Add(m, g)\n "
          "y = Max(a, h) }",
      {{"x", rnd({2, 3, 2500}, 1)}, {"s", rnd({3, 1}, 2)}, {"g", rnd({2500}, 3)}}, 0, "long rows");
}

TEST(PassLabFusedElementwise, TanhGeluSubgraphReadingItsInputFourTimes) {
  // x * 0.5 * (1 + Tanh(0.7978846 * (x + 0.044715 * x^3))), as GPT-2 writes it.
  const std::string sig = "main (float[4,3000] x) => (float[4,3000] y) {\n";
  compare(
      fe(sig, "x",
         R"(ops = ["Mul", "Pow", "Mul", "Add", "Mul", "Tanh", "Add", "Mul"], operands = [0, -2, -1, 0, -3, -1, 2, -4, -1, 0, 3, -1, 4, -5, -1, 5, -1, -1, 6, -6, -1, 1, 7, -1], constants = [0.5, 3, 0.044715, 0.7978846, 1])"),
      sig + R"(h = Constant <value = float {0.5}> ()
         three = Constant <value = float {3}> ()
         k = Constant <value = float {0.044715}> ()
         c = Constant <value = float {0.7978846}> ()
         one = Constant <value = float {1}> ()
         xh = Mul(x, h)
         p = Pow(x, three)
         pk = Mul(p, k)
         i = Add(x, pk)
         ic = Mul(i, c)
         th = Tanh(ic)
         t1 = Add(th, one)
         y = Mul(xh, t1) })",
      {{"x", rnd({4, 3000}, 7)}}, 0, "tanh gelu");
}

TEST(PassLabFusedElementwise, EveryOpAgainstItsOnnxKernel) {
  struct OneOp {
    const char* program;  // ops / operands / constants for y = op(x[, z])
    const char* chain;    // the ONNX node
  };
  const OneOp kOps[] = {
      {R"(ops = ["Add"], operands = [0, 1, -1])", "y = Add(x, z)"},
      {R"(ops = ["Sub"], operands = [0, 1, -1])", "y = Sub(x, z)"},
      {R"(ops = ["Mul"], operands = [0, 1, -1])", "y = Mul(x, z)"},
      {R"(ops = ["Div"], operands = [0, 1, -1])", "y = Div(x, z)"},
      {R"(ops = ["Abs", "Pow"], operands = [0, -1, -1, 2, 1, -1])", "a = Abs(x)\n y = Pow(a, z)"},
      {R"(ops = ["Max"], operands = [0, 1, -1])", "y = Max(x, z)"},
      {R"(ops = ["Min"], operands = [0, 1, -1])", "y = Min(x, z)"},
      {R"(ops = ["PRelu"], operands = [0, 0, -1])", "y = PRelu(x, x)"},
      {R"(ops = ["Neg"], operands = [0, -1, -1])", "y = Neg(x)"},
      {R"(ops = ["Abs"], operands = [0, -1, -1])", "y = Abs(x)"},
      {R"(ops = ["Relu"], operands = [0, -1, -1])", "y = Relu(x)"},
      {R"(ops = ["Sigmoid"], operands = [0, -1, -1])", "y = Sigmoid(x)"},
      {R"(ops = ["Tanh"], operands = [0, -1, -1])", "y = Tanh(x)"},
      {R"(ops = ["Exp"], operands = [0, -1, -1])", "y = Exp(x)"},
      {R"(ops = ["Abs", "Log"], operands = [0, -1, -1, 1, -1, -1])", "a = Abs(x)\n y = Log(a)"},
      {R"(ops = ["Abs", "Sqrt"], operands = [0, -1, -1, 1, -1, -1])", "a = Abs(x)\n y = Sqrt(a)"},
      {R"(ops = ["Reciprocal"], operands = [0, -1, -1])", "y = Reciprocal(x)"},
      {R"(ops = ["Erf"], operands = [0, -1, -1])", "y = Erf(x)"},
      {R"(ops = ["Floor"], operands = [0, -1, -1])", "y = Floor(x)"},
      {R"(ops = ["Ceil"], operands = [0, -1, -1])", "y = Ceil(x)"},
      {R"(ops = ["Sin"], operands = [0, -1, -1])", "y = Sin(x)"},
      {R"(ops = ["Cos"], operands = [0, -1, -1])", "y = Cos(x)"},
      {R"(ops = ["Softplus"], operands = [0, -1, -1])", "y = Softplus(x)"},
      {R"(ops = ["Softsign"], operands = [0, -1, -1])", "y = Softsign(x)"},
      {R"(ops = ["HardSwish"], operands = [0, -1, -1])", "y = HardSwish(x)"},
      {R"(ops = ["Gelu"], operands = [0, -1, -1])", "y = Gelu(x)"},
      {R"(ops = ["GeluTanh"], operands = [0, -1, -1])", R"(y = Gelu <approximate = "tanh"> (x))"},
      {R"(ops = ["Identity"], operands = [0, -1, -1])", "y = Identity(x)"},
      {R"(ops = ["LeakyRelu"], operands = [0, -2, -1], constants = [0.2])",
       "y = LeakyRelu <alpha = 0.2> (x)"},
      {R"(ops = ["Elu"], operands = [0, -2, -1], constants = [0.7])", "y = Elu <alpha = 0.7> (x)"},
      {R"(ops = ["HardSigmoid"], operands = [0, -2, -3], constants = [0.3, 0.4])",
       "y = HardSigmoid <alpha = 0.3, beta = 0.4> (x)"},
      {R"(ops = ["Clip"], operands = [0, -2, -3], constants = [-0.5, 0.75])",
       "lo = Constant <value = float {-0.5}> ()\n hi = Constant <value = float {0.75}> ()\n "
       "y = Clip(x, lo, hi)"},
      {R"(ops = ["Clip"], operands = [0, -1, -2], constants = [0.75])",
       "hi = Constant <value = float {0.75}> ()\n y = Clip(x, , hi)"},
  };
  // Binary ops broadcast x [5,1,6] against z [4,1]; Pow, Log and Sqrt take Abs(x) first.
  const std::string sig = "main (float[5,1,6] x, float[4,1] z) => (float[5,4,6] y) {\n";
  const std::string sigUnary = "main (float[5,1,6] x, float[4,1] z) => (float[5,1,6] y) {\n";
  for (const OneOp& o : kOps) {
    std::string chain = o.chain;
    bool bin = chain.find(", z)") != std::string::npos;
    const std::string& s = bin ? sig : sigUnary;
    std::string prog = o.program;
    std::string ins = bin ? "x, z" : "x";
    compare(fe(s, ins, prog), s + chain + " }", {{"x", rnd({5, 1, 6}, 21)}, {"z", rnd({4, 1}, 22)}},
            1e-6f, o.chain);
  }
}

// The transcendental instructions on long rows (read in place, several tiles
// and a tail), with +-0, +-inf, NaN, subnormals and large |x| among the
// values: bit for bit the optimized ONNX kernels' results (both run the
// vectorized rows: sigmoid_rows.h, erf_rows.h, activation_rows.h), and close
// to the reference kernels (std:: per element) wherever those are finite.
TEST(PassLabFusedElementwise, TranscendentalRowsAreTheOnnxKernelsResults) {
  struct OneOp {
    const char* program;
    const char* chain;
  };
  const OneOp kOps[] = {
      {R"(ops = ["Exp"], operands = [0, -1, -1])", "y = Exp(x)"},
      {R"(ops = ["Log"], operands = [0, -1, -1])", "y = Log(x)"},
      {R"(ops = ["Erf"], operands = [0, -1, -1])", "y = Erf(x)"},
      {R"(ops = ["Tanh"], operands = [0, -1, -1])", "y = Tanh(x)"},
      {R"(ops = ["Sigmoid"], operands = [0, -1, -1])", "y = Sigmoid(x)"},
      {R"(ops = ["Softplus"], operands = [0, -1, -1])", "y = Softplus(x)"},
      {R"(ops = ["Gelu"], operands = [0, -1, -1])", "y = Gelu(x)"},
      {R"(ops = ["GeluTanh"], operands = [0, -1, -1])", R"(y = Gelu <approximate = "tanh"> (x))"},
      {R"(ops = ["Elu"], operands = [0, -2, -1], constants = [0.7])", "y = Elu <alpha = 0.7> (x)"},
  };
  constexpr float kInf = std::numeric_limits<float>::infinity();
  ir::Tensor x = kt::uniformF32({3, 1100}, 31, 12.0f);
  {
    std::vector<float> v = kt::values<float>(x);
    const float specials[] = {
        0.0f,   -0.0f,   kInf,   -kInf,   std::numeric_limits<float>::quiet_NaN(),
        1e-40f, -1e-40f, 100.0f, -100.0f, 3e38f,
        -3e38f, 1e-3f};
    for (size_t k = 0; k < std::size(specials); ++k) {
      v[17 * k + 3] = specials[k];        // in the first tile
      v[v.size() - 1 - k] = specials[k];  // in the last tile's tail
    }
    x = kt::f32({3, 1100}, v);
  }
  const std::string sig = "main (float[3,1100] x) => (float[3,1100] y) {\n";
  for (const OneOp& o : kOps) {
    const std::vector<float> got =
        kt::values<float>(run(fe(sig, "x", o.program), {{"x", x}}, false));
    const std::vector<float> ops = kt::values<float>(run(sig + o.chain + " }", {{"x", x}}, false));
    const std::vector<float> ref = kt::values<float>(run(sig + o.chain + " }", {{"x", x}}, true));
    ASSERT_EQ(got.size(), ops.size());
    int bad = 0;
    for (size_t i = 0; i < got.size() && bad < 5; ++i) {
      const bool same = std::isnan(got[i]) ? std::isnan(ops[i])
                                           : std::memcmp(&got[i], &ops[i], sizeof(float)) == 0;
      const bool close = !std::isfinite(ref[i]) ||
                         std::fabs(got[i] - ref[i]) <= 2e-6f * (1.0f + std::fabs(ref[i]));
      if (!same || !close) {
        ADD_FAILURE() << o.chain << ": element " << i << " (x = " << kt::values<float>(x)[i]
                      << ") is " << got[i] << ", the op gives " << ops[i] << ", std:: " << ref[i];
        ++bad;
      }
    }
  }
}

TEST(PassLabFusedElementwise, RejectsBadPrograms) {
  std::string h = kHeader;
  auto err = [&](const std::string& attrs) {
    return testutil::errorOf(
        h + "main (float[2] x) => (float[2] y) {\n y = ai.passlab.FusedElementwise <" + attrs +
            "> (x) }",
        {{"x", rnd({2}, 1)}});
  };
  EXPECT_TRUE(kt::contains(err(R"(ops = ["Frobnicate"], operands = [0, -1, -1])"),
                           "does not know op 'Frobnicate'"));
  EXPECT_TRUE(kt::contains(err(R"(ops = ["Relu"], operands = [1, -1, -1])"), "not yet defined"));
  EXPECT_TRUE(kt::contains(err(R"(ops = ["Add"], operands = [0, -1, -1])"), "takes two operands"));
  EXPECT_TRUE(
      kt::contains(err(R"(ops = ["Relu"], operands = [0, -2, -1])"), "reads constant 0 of 0"));
  EXPECT_TRUE(
      kt::contains(err(R"(ops = ["Relu", "Relu"], operands = [0, -1, -1])"), "3 per op expected"));
}

}  // namespace
}  // namespace passlab::exec
