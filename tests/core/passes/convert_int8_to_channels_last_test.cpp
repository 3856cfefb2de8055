// convert_int8_to_channels_last: int8 convolution chains channels-last
// (com.microsoft QLinearConv <channels_last = 1>) with Transposes only at the
// ends. Structural (two convolutions, a DQ -> HardSwish -> Q, a residual
// QLinearAdd, a squeeze-excitation GlobalAveragePool -> ReduceMean and a
// Concat between them: one Transpose in, one out), numeric (outputs equal),
// convergence, and what it must leave (a lone convolution, a per-channel
// quantization, an operand of another rank). An 8-bit MaxPool in a chain
// becomes com.microsoft NhwcMaxPool (no Transposes around it); one whose
// Indices are read, or a float one, stays. An ai.passlab QLinearSqueezeExcite
// in a chain takes channels_last = 1. The dynamic INT8 form (DynamicQuantizeLinear
// -> ai.passlab FusedConvInteger, fuse_conv_integer_epilogue) runs
// channels-last the same way, with a same-shape FusedElementwise between; a
// broadcasting FusedElementwise ends the chain.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/analysis/shape_inference.h"
#include "core/passes/registry.h"
#include "core/pipeline/pass_manager.h"
#include "tests/support/pass_harness.h"
#include "tests/support/test_support.h"

namespace passlab::testing {
namespace {

const char* kPass = "convert_int8_to_channels_last";

// x (uint8 [1,4,5,5]) -> 1x1 QLinearConv -> DQ -> HardSwish -> Q -> depthwise 3x3
// QLinearConv -> QLinearAdd with the first conv's output -> `tail` -> y.
std::string chain(const std::string& tail = "y = DequantizeLinear(a, s, z)",
                  const std::string& out = "float[1,4,5,5] y", const std::string& extra = "") {
  return R"(<ir_version: 8, opset_import: ["" : 14, "com.microsoft" : 1]>
main (uint8[1,4,5,5] x) => ()" +
         out + R"()
    <float s = {0.05}, uint8 z = {128}, int8[4,4,1,1] w1 = {10, -20, 30, 5, -7, 9, 11, -13, 2, 4, 6, 8, -1, -3, -5, -7},
     float ws = {0.01}, int8 wz = {0}, int8[4,1,3,3] w2 = {1, 2, 3, 4, 5, 6, 7, 8, 9, -1, -2, -3, -4, -5, -6, -7, -8, -9,
     3, 1, 4, 1, 5, 9, 2, 6, 5, -3, 5, -8, 9, -7, 9, -3, 2, -3}, float s2 = {0.02}, uint8 z2 = {100})" +
         extra + R"(> {
    c1 = QLinearConv(x, s, z, w1, ws, wz, s, z)
    d = DequantizeLinear(c1, s, z)
    h = HardSwish(d)
    q = QuantizeLinear(h, s2, z2)
    c2 = QLinearConv <group = 4, pads = [1, 1, 1, 1]> (q, s2, z2, w2, ws, wz, s, z)
    a = com.microsoft.QLinearAdd(c2, s, z, c1, s, z, s, z)
    )" + tail +
         " }";
}

TEST(ConvertInt8ToChannelsLast, AChainRunsChannelsLastBetweenOneTransposeEachWay) {
  PassOutcome out = runPass(kPass, chain());
  EXPECT_EQ(countOps(out.model, "Transpose"), 2);
  int channelsLast = 0;
  for (const auto& n : out.model.graph().nodes())
    if (n->opType() == "QLinearConv") {
      EXPECT_EQ(n->domain(), "com.microsoft");
      channelsLast += n->attrInt("channels_last", 0) == 1;
    }
  EXPECT_EQ(channelsLast, 2);
  EXPECT_EQ(countOps(out.model, "HardSwish"), 1);
  EXPECT_EQ(countOps(out.model, "QLinearAdd"), 1);
  expectSameOutputs(kPass, chain());
}

TEST(ConvertInt8ToChannelsLast, AChainEndsBeforeItsLastDequantize) {
  // y = DQ(a) is read by nothing in the chain: the DequantizeLinear stays
  // channels-first and the Transpose back moves the uint8 a, not the float y.
  PassOutcome out = runPass(kPass, chain());
  int dequantizeOfTransposedBytes = 0;
  for (const auto& n : out.model.graph().nodes()) {
    if (n->opType() == "Transpose")
      EXPECT_NE(n->output(0)->type().elemType(), ir::DataType::kFloat);
    if (n->opType() == "DequantizeLinear" && n->output(0)->name() == "y")
      dequantizeOfTransposedBytes += n->input(0)->producer()->opType() == "Transpose";
  }
  EXPECT_EQ(dequantizeOfTransposedBytes, 1);
  // A run of such ends goes back whole: DQ -> Relu at the end.
  const std::string tail = R"(d2 = DequantizeLinear(a, s, z)
    y = Relu(d2))";
  PassOutcome two = runPass(kPass, chain(tail));
  EXPECT_EQ(countOps(two.model, "Transpose"), 2);
  for (const auto& n : two.model.graph().nodes())
    if (n->opType() == "Transpose")
      EXPECT_NE(n->output(0)->type().elemType(), ir::DataType::kFloat);
  expectSameOutputs(kPass, chain(tail));
}

TEST(ConvertInt8ToChannelsLast, ADequantizeReadOnlyChannelsLastStaysChannelsLast) {
  // y = Relu(Transpose(DQ(a), [0, 2, 3, 1])) (ultraface's heads): the DQ runs
  // channels-last and both the Transpose back and that Transpose go; one
  // Transpose is left, the input's.
  const std::string tail = R"(d2 = DequantizeLinear(a, s, z)
    t = Transpose <perm = [0, 2, 3, 1]> (d2)
    y = Relu(t))";
  const std::string out = "float[1,5,5,4] y";
  PassOutcome o = runPass(kPass, chain(tail, out));
  EXPECT_EQ(countOps(o.model, "Transpose"), 1);
  for (const auto& n : o.model.graph().nodes())
    if (n->opType() == "Relu") {
      ASSERT_NE(n->input(0)->producer(), nullptr);
      EXPECT_EQ(n->input(0)->producer()->opType(), "DequantizeLinear");
    }
  expectSameOutputs(kPass, chain(tail, out));
  // The Transpose's output a graph output: it stays, and the DQ channels-first (3 Transposes).
  const std::string asOutput = R"(d2 = DequantizeLinear(a, s, z)
    y = Transpose <perm = [0, 2, 3, 1]> (d2))";
  PassOutcome kept = runPass(kPass, chain(asOutput, out));
  EXPECT_EQ(countOps(kept.model, "Transpose"), 3);
  expectSameOutputs(kPass, chain(asOutput, out));
  // Another perm: the DQ stays channels-first too.
  const std::string otherPerm = R"(d2 = DequantizeLinear(a, s, z)
    t = Transpose <perm = [0, 3, 2, 1]> (d2)
    y = Relu(t))";
  PassOutcome other = runPass(kPass, chain(otherPerm, out));
  EXPECT_EQ(countOps(other.model, "Transpose"), 3);
  expectSameOutputs(kPass, chain(otherPerm, out));
}

// The same Transpose excluded from the step (--exclude-node, a recipe's
// excluded nodes): it stays, reading the DequantizeLinear, which stays
// channels-first (3 Transposes), as with another perm.
TEST(ConvertInt8ToChannelsLast, AnExcludedTransposeToChannelsLastStays) {
  const std::string tail = R"(d2 = DequantizeLinear(a, s, z)
    t = Transpose <perm = [0, 2, 3, 1]> (d2)
    y = Relu(t))";
  ir::Model m = parse(chain(tail, "float[1,5,5,4] y"));
  analysis::inferShapes(m);
  const ir::NodeId transpose = m.graph().findValue("t")->producer()->id();
  pipeline::PassManager pm(m);
  pipeline::PassSpec spec{kPass, {}, {}};
  spec.filter.excluded.insert(transpose);
  auto step = pm.run(spec);
  ASSERT_TRUE(step) << step.error().message();
  EXPECT_TRUE((*step)->changed);
  EXPECT_EQ(countOps(pm.model(), "Transpose"), 3);
  const ir::Value* t = pm.model().graph().findValue("t");
  ASSERT_NE(t, nullptr) << "the excluded Transpose was removed";
  ASSERT_NE(t->producer(), nullptr);
  EXPECT_EQ(t->producer()->id(), transpose);
  EXPECT_EQ(t->producer()->input(0)->producer()->opType(), "DequantizeLinear");
}

TEST(ConvertInt8ToChannelsLast, SqueezeExcitationAndConcatStayChannelsLast) {
  const std::string tail = R"(d2 = DequantizeLinear(a, s, z)
    p = GlobalAveragePool(d2)
    g = HardSigmoid(p)
    m = Mul(d2, g)
    mq = QuantizeLinear(m, s, z)
    cat = Concat <axis = 1> (mq, a)
    y = DequantizeLinear(cat, s, z))";
  PassOutcome out = runPass(kPass, chain(tail, "float[1,8,5,5] y"));
  EXPECT_EQ(countOps(out.model, "Transpose"), 2);
  EXPECT_EQ(countOps(out.model, "GlobalAveragePool"), 0);
  EXPECT_EQ(countOps(out.model, "ReduceMean"), 1);
  for (const auto& n : out.model.graph().nodes())
    if (n->opType() == "Concat") EXPECT_EQ(n->attrInt("axis", 0), 3);
  expectSameOutputs(kPass, chain(tail, "float[1,8,5,5] y"));
}

TEST(ConvertInt8ToChannelsLast, AFusedSqueezeExcitationRunsChannelsLast) {
  // ai.passlab QLinearSqueezeExcite (fuse_qdq_squeeze_excite) on a: the same
  // node with channels_last = 1, no Transposes around it; table values in
  // 1/64ths so that the channel sums are exact in either order.
  std::string table = "{";
  for (int i = 0; i < 256; ++i) table += (i ? ", " : "") + std::to_string((i % 50 - 20) / 64.0);
  const std::string extra =
      ", float[256] tab = " + table +
      "}, float[2,4] sw1 = {0.5, -0.25, 0.125, 0.75, -0.5, 0.25, 0.375, 0.0}, "
      "float[2] sb1 = {0.25, -0.125}, float[4,2] sw2 = {0.5, -0.5, 0.25, 0.75, "
      "-0.625, 0.125, 1.0, -0.25}, float[4] sb2 = {0.0, 0.5, -0.5, 0.25}";
  const std::string tail =
      R"(se = ai.passlab.QLinearSqueezeExcite <clip1 = [0.0, 4.0], clip2 = [-3.0, 3.0]> (a, tab, sw1, sb1, sw2, sb2, s, z)
    y = DequantizeLinear(se, s, z))";
  std::string text = chain(tail, "float[1,4,5,5] y", extra);
  text.replace(text.find("\"com.microsoft\" : 1"), 19, "\"com.microsoft\" : 1, \"ai.passlab\" : 1");
  PassOutcome out = runPass(kPass, text);
  EXPECT_EQ(countOps(out.model, "Transpose"), 2);
  for (const auto& n : out.model.graph().nodes())
    if (n->opType() == "QLinearSqueezeExcite") {
      EXPECT_EQ(n->attrInt("channels_last", 0), 1);
    }
  EXPECT_EQ(countOps(out.model, "QLinearSqueezeExcite"), 1);
  expectSameOutputs(kPass, text);
}

TEST(ConvertInt8ToChannelsLast, Converges) {
  expectConverges(kPass, chain());
}

TEST(ConvertInt8ToChannelsLast, LeavesALoneConvolution) {
  const std::string lone = R"(<ir_version: 8, opset_import: ["" : 14]>
main (uint8[1,4,5,5] x) => (uint8[1,100] y)
    <float s = {0.05}, uint8 z = {128}, int8[4,4,1,1] w = {10, -20, 30, 5, -7, 9, 11, -13, 2, 4, 6, 8, -1, -3, -5, -7},
     float ws = {0.01}, int8 wz = {0}> {
    c = QLinearConv(x, s, z, w, ws, wz, s, z)
    y = Flatten(c) })";
  expectUnchanged(kPass, lone, "a lone convolution");
}

TEST(ConvertInt8ToChannelsLast, StopsAtAPerChannelDequantize) {
  // The DequantizeLinear of c2 has per-channel scales: the chain ends before it.
  const std::string tail = R"(y = DequantizeLinear <axis = 1> (a, sc, zc))";
  PassOutcome out =
      runPass(kPass, chain(tail, "float[1,4,5,5] y",
                           ", float[4] sc = {0.1, 0.2, 0.3, 0.4}, uint8[4] zc = {1, 2, 3, 4}"));
  int dequantizeFirst = 0;
  for (const auto& n : out.model.graph().nodes())
    if (n->opType() == "DequantizeLinear" && n->attrInt("axis", 1) == 1 &&
        n->input(1)->name() == "sc")
      dequantizeFirst += n->input(0)->producer()->opType() == "Transpose";
  EXPECT_EQ(dequantizeFirst, 1);
  expectSameOutputs(kPass,
                    chain(tail, "float[1,4,5,5] y",
                          ", float[4] sc = {0.1, 0.2, 0.3, 0.4}, uint8[4] zc = {1, 2, 3, 4}"));
}

// x (uint8 [1,4,7,7]) -> 1x1 QLinearConv -> `pool` -> depthwise 3x3 QLinearConv -> DQ -> y.
std::string pooled(const std::string& pool, const std::string& out = "float[1,4,4,4] y") {
  return R"(<ir_version: 8, opset_import: ["" : 14, "com.microsoft" : 1]>
main (uint8[1,4,7,7] x) => ()" +
         out + R"()
    <float s = {0.05}, uint8 z = {128}, int8[4,4,1,1] w1 = {10, -20, 30, 5, -7, 9, 11, -13, 2, 4, 6, 8, -1, -3, -5, -7},
     float ws = {0.01}, int8 wz = {0}, int8[4,1,3,3] w2 = {1, 2, 3, 4, 5, 6, 7, 8, 9, -1, -2, -3, -4, -5, -6, -7, -8, -9,
     3, 1, 4, 1, 5, 9, 2, 6, 5, -3, 5, -8, 9, -7, 9, -3, 2, -3}> {
    c1 = QLinearConv(x, s, z, w1, ws, wz, s, z)
    )" + pool +
         R"(
    c2 = QLinearConv <group = 4, pads = [1, 1, 1, 1]> (p, s, z, w2, ws, wz, s, z)
    y = DequantizeLinear(c2, s, z) })";
}

const char* kMaxPool =
    "p = MaxPool <kernel_shape = [3, 3], strides = [2, 2], pads = [1, 1, 1, 1], storage_order = "
    "0> (c1)";

TEST(ConvertInt8ToChannelsLast, An8BitMaxPoolRunsChannelsLastAsNhwcMaxPool) {
  PassOutcome out = runPass(kPass, pooled(kMaxPool));
  EXPECT_EQ(countOps(out.model, "Transpose"), 2);  // the chain's input and output only
  EXPECT_EQ(countOps(out.model, "MaxPool"), 0);
  int nhwc = 0;
  for (const auto& n : out.model.graph().nodes())
    if (n->opType() == "NhwcMaxPool") {
      ++nhwc;
      EXPECT_EQ(n->domain(), "com.microsoft");
      EXPECT_EQ(n->attrInts("kernel_shape"), (std::vector<int64_t>{3, 3}));
      EXPECT_EQ(n->attrInts("strides"), (std::vector<int64_t>{2, 2}));
      EXPECT_EQ(n->attrInts("pads"), (std::vector<int64_t>{1, 1, 1, 1}));
      EXPECT_FALSE(n->hasAttr("storage_order"));  // not in NhwcMaxPool's schema
      EXPECT_EQ(n->input(0)->producer()->opType(), "QLinearConv");
    }
  EXPECT_EQ(nhwc, 1);
  expectSameOutputs(kPass, pooled(kMaxPool));
}

TEST(ConvertInt8ToChannelsLast, CeilModeMaxPoolKeepsItsOutputsAndConverges) {
  const std::string ceil =
      "p = MaxPool <kernel_shape = [2, 2], strides = [2, 2], ceil_mode = 1> (c1)";
  expectSameOutputs(kPass, pooled(ceil));
  expectConverges(kPass, pooled(ceil));
  expectConverges(kPass, pooled(kMaxPool));
}

TEST(ConvertInt8ToChannelsLast, LeavesAMaxPoolWhoseIndicesAreRead) {
  const std::string withIndices =
      "p, i = MaxPool <kernel_shape = [3, 3], strides = [2, 2], pads = [1, 1, 1, 1]> (c1)";
  PassOutcome out = runPass(kPass, pooled(withIndices, "float[1,4,4,4] y, int64[1,4,4,4] i"));
  EXPECT_EQ(countOps(out.model, "MaxPool"), 1);
  EXPECT_EQ(countOps(out.model, "NhwcMaxPool"), 0);
  expectSameOutputs(kPass, pooled(withIndices, "float[1,4,4,4] y, int64[1,4,4,4] i"));
}

TEST(ConvertInt8ToChannelsLast, LeavesAFloatMaxPool) {
  // DQ -> MaxPool -> Q: the DQ goes channels-last, the float MaxPool does not
  // (NhwcMaxPool is 8-bit only): it reads a Transpose back.
  const std::string floatPool =
      "d = DequantizeLinear(c1, s, z)\n    m = MaxPool <kernel_shape = [3, 3], strides = [2, 2], "
      "pads = [1, 1, 1, 1]> (d)\n    p = QuantizeLinear(m, s, z)";
  PassOutcome out = runPass(kPass, pooled(floatPool));
  EXPECT_EQ(countOps(out.model, "MaxPool"), 1);
  EXPECT_EQ(countOps(out.model, "NhwcMaxPool"), 0);
  expectSameOutputs(kPass, pooled(floatPool));
}

// x (float [1,4,6,6]) -> DynamicQuantizeLinear -> 1x1 FusedConvInteger (Relu) ->
// DynamicQuantizeLinear -> depthwise 3x3 FusedConvInteger -> `tail` -> y, as
// quantize_dynamic and fuse_conv_integer_epilogue leave it.
std::string dynamicChain(const std::string& tail, const std::string& extra = "") {
  return R"(<ir_version: 8, opset_import: ["" : 14, "ai.passlab" : 1]>
main (float[1,4,6,6] x) => (float[1,4,6,6] y)
    <int8[4,4,1,1] w1 = {10, -20, 30, 5, -7, 9, 11, -13, 2, 4, 6, 8, -1, -3, -5, -7}, int8 wz = {0},
     float[4,1,1] ws1 = {0.01, 0.02, 0.015, 0.03},
     int8[4,1,3,3] w2 = {1, 2, 3, 4, 5, 6, 7, 8, 9, -1, -2, -3, -4, -5, -6, -7, -8, -9,
     3, 1, 4, 1, 5, 9, 2, 6, 5, -3, 5, -8, 9, -7, 9, -3, 2, -3}, float ws2 = {0.02},
     float[4,1,1] b2 = {0.1, -0.2, 0.3, -0.4})" +
         extra + R"(> {
    q1, s1, z1 = DynamicQuantizeLinear(x)
    k1 = Mul(s1, ws1)
    c1 = ai.passlab.FusedConvInteger <activation = "Relu"> (q1, w1, z1, wz, k1)
    q2, s2, z2 = DynamicQuantizeLinear(c1)
    k2 = Mul(s2, ws2)
    c2 = ai.passlab.FusedConvInteger <group = 4, pads = [1, 1, 1, 1]> (q2, w2, z2, wz, k2, b2)
    )" + tail +
         " }";
}

const char* kSameShapeSum =
    R"(y = ai.passlab.FusedElementwise <ops = ["Add", "Relu"], operands = [0, 1, -1, 2, -1, -1]> (c2, c1))";

TEST(ConvertInt8ToChannelsLast, ADynamicInt8ChainRunsChannelsLast) {
  PassOutcome out = runPass(kPass, dynamicChain(kSameShapeSum));
  // In: the first uint8 activation; out: y. The second DynamicQuantizeLinear
  // and the FusedElementwise read channels-last values.
  EXPECT_EQ(countOps(out.model, "Transpose"), 2);
  int convs = 0;
  for (const auto& n : out.model.graph().nodes()) {
    if (n->opType() == "FusedConvInteger") {
      EXPECT_EQ(n->attrInt("channels_last", 0), 1);
      ++convs;
    }
    if (n->opType() == "Transpose")
      EXPECT_TRUE(n->input(0)->name() == "q1" || n->output(0)->name() == "y");
  }
  EXPECT_EQ(convs, 2);
  EXPECT_EQ(countOps(out.model, "DynamicQuantizeLinear"), 2);
  expectSameOutputs(kPass, dynamicChain(kSameShapeSum));
  expectConverges(kPass, dynamicChain(kSameShapeSum));
}

TEST(ConvertInt8ToChannelsLast, ABroadcastingFusedElementwiseEndsADynamicChain) {
  // c2 + a constant of shape [4,1,1]: the FusedElementwise stays channels-first
  // and reads c2 through a Transpose back.
  const std::string tail =
      R"(y = ai.passlab.FusedElementwise <ops = ["Add"], operands = [0, 1, -1]> (c2, bb))";
  const std::string extra = ", float[4,1,1] bb = {1.0, 2.0, 3.0, 4.0}";
  PassOutcome out = runPass(kPass, dynamicChain(tail, extra));
  for (const auto& n : out.model.graph().nodes())
    if (n->opType() == "FusedElementwise")
      EXPECT_EQ(n->input(0)->producer()->opType(), "Transpose");
  EXPECT_EQ(countOps(out.model, "Transpose"), 2);
  expectSameOutputs(kPass, dynamicChain(tail, extra));
}

TEST(ConvertInt8ToChannelsLast, LeavesADynamicQuantizeWhoseScaleIsAGraphOutput) {
  std::string text = dynamicChain("y = Identity(c2)");
  text.replace(text.find("=> (float[1,4,6,6] y)"), 21, "=> (float[1,4,6,6] y, float s2)");
  // The second DynamicQuantizeLinear stays channels-first, so each convolution
  // is a lone one: nothing changes.
  expectUnchanged(kPass, text, "a lone convolution");
}

// convert_dynamic_int8_to_channels_last (in the fused level): the dynamic
// form as above, a QLinearConv chain (static INT8) left as it was.
const char* kDynamicPass = "convert_dynamic_int8_to_channels_last";

TEST(ConvertDynamicInt8ToChannelsLast, ADynamicInt8ChainRunsChannelsLast) {
  const std::string text = dynamicChain(kSameShapeSum);
  PassOutcome out = runPass(kDynamicPass, text);
  EXPECT_EQ(countOps(out.model, "Transpose"), 2);
  int convs = 0;
  for (const auto& n : out.model.graph().nodes())
    if (n->opType() == "FusedConvInteger") {
      EXPECT_EQ(n->attrInt("channels_last", 0), 1);
      ++convs;
    }
  EXPECT_EQ(convs, 2);
  EXPECT_EQ(countOps(out.model, "FusedElementwise"), 1);
  expectSameOutputs(kDynamicPass, text);
}

TEST(ConvertDynamicInt8ToChannelsLast, Converges) {
  expectConverges(kDynamicPass, dynamicChain(kSameShapeSum));
}

TEST(ConvertDynamicInt8ToChannelsLast, LeavesAQLinearConvChain) {
  // The chain convert_int8_to_channels_last turns channels-last (first test).
  expectUnchanged(kDynamicPass, chain());
}

TEST(ConvertDynamicInt8ToChannelsLast, LeavesAQLinearConvAfterADynamicChain) {
  // y = a QLinearConv of the second FusedConvInteger's quantized output: the
  // dynamic chain goes channels-last, the QLinearConv reads its input
  // through a Transpose back and stays channels-first.
  const std::string tail = R"(q3, s3, z3 = DynamicQuantizeLinear(c2)
    y = QLinearConv(q3, s3, z3, w3, ws2, wz, s3, z3))";
  std::string text = dynamicChain(
      tail, ", int8[4,4,1,1] w3 = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}");
  text.replace(text.find("=> (float[1,4,6,6] y)"), 21, "=> (uint8[1,4,6,6] y)");
  PassOutcome out = runPass(kDynamicPass, text);
  for (const auto& n : out.model.graph().nodes())
    if (n->opType() == "QLinearConv") {
      EXPECT_EQ(n->domain(), "");
      EXPECT_EQ(n->input(0)->producer()->opType(), "Transpose");
    }
  EXPECT_EQ(countOps(out.model, "QLinearConv"), 1);
  expectSameOutputs(kDynamicPass, text);
  // The pass that also takes QLinearConv moves it channels-last.
  PassOutcome all = runPass(kPass, text);
  for (const auto& n : all.model.graph().nodes())
    if (n->opType() == "QLinearConv") EXPECT_EQ(n->domain(), "com.microsoft");
}

TEST(ConvertDynamicInt8ToChannelsLast, LeavesAGlobalAveragePoolChannelsFirst) {
  // As a ReduceMean it could sum in another order: it reads the chain's end
  // through a Transpose back (convert_int8_to_channels_last converts it).
  std::string text = dynamicChain("y = GlobalAveragePool(c2)");
  text.replace(text.find("=> (float[1,4,6,6] y)"), 21, "=> (float[1,4,1,1] y)");
  PassOutcome out = runPass(kDynamicPass, text);
  EXPECT_EQ(countOps(out.model, "GlobalAveragePool"), 1);
  EXPECT_EQ(countOps(out.model, "ReduceMean"), 0);
  for (const auto& n : out.model.graph().nodes())
    if (n->opType() == "GlobalAveragePool")
      EXPECT_EQ(n->input(0)->producer()->opType(), "Transpose");
  expectSameOutputs(kDynamicPass, text);
  EXPECT_EQ(countOps(runPass(kPass, text).model, "ReduceMean"), 1);
}

TEST(ConvertDynamicInt8ToChannelsLast, RunsInTheFusedLevelOnlyAfterTheBlockedLayout) {
  const auto fused = passes::passesForLevel("fused");
  ASSERT_TRUE(fused);
  const auto at = std::find(fused->begin(), fused->end(), kDynamicPass);
  const auto blocked = std::find(fused->begin(), fused->end(), "convert_to_blocked_layout");
  ASSERT_NE(at, fused->end());
  EXPECT_LT(blocked, at);
  for (const char* level : {"basic", "default", "ort", "fused_gpu"}) {
    const auto ids = passes::passesForLevel(level);
    ASSERT_TRUE(ids);
    EXPECT_EQ(std::count(ids->begin(), ids->end(), kDynamicPass), 0) << level;
    EXPECT_EQ(std::count(ids->begin(), ids->end(), kPass), 0) << level;
  }
}

}  // namespace
}  // namespace passlab::testing
