// remove_dead_channels: zero output channels removed with the entries of the
// per-channel ops they pass and the next layer's input channels (a constant
// folded into its bias), the outputs equal on random inputs, convergence, and
// where it must stop (padding with a nonzero constant, graph outputs, Concat,
// Reshape, grouped producers, a MatMul without a bias); residual Adds (dead
// on both inputs) and where they stop (one input, broadcast, graph output).
#include <gtest/gtest.h>

#include "core/io/text_format.h"
#include "tests/support/pass_harness.h"
#include "tests/support/test_support.h"

namespace passlab::testing {
namespace {

const char* kPass = "remove_dead_channels";

// The dims of the initializer read as input `index` of the node whose
// output is `output`.
std::vector<int64_t> inputDims(const ir::Model& m, const std::string& output, size_t index) {
  for (const auto& n : m.graph().nodes())
    if (n->output(0)->name() == output && n->inputs().size() > index && n->input(index) &&
        n->input(index)->initializer())
      return n->input(index)->initializer()->dims();
  return {};
}

void expectEqualOutputs(const std::string& text, const PassOutcome& out) {
  NumericResult num = compareOutputs(parse(text), out.model, 3);
  ASSERT_TRUE(num.ran) << num.detail;
  EXPECT_TRUE(num.equal) << num.detail << "\n" << io::printModelText(out.model);
}

// Channels 1 (bias 0) and 3 (bias 0.5) of h are dead; after the Relu they
// hold 0 and 0.5, and the 1x1 Conv without padding takes 0.5 * sum(w2[:, 3])
// into its bias: {1 + 0.5 * 4, -1 + 0.5 * 8}.
const char* kConvReluConv = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,3,4,4] x) => (float[1,2,4,4] y)
    <float[4,3,1,1] w = {1, 2, 3,  0, 0, 0,  -1, 0.5, 2,  0, 0, 0},
     float[4] b = {0.25, 0, 0.75, 0.5},
     float[2,4,1,1] w2 = {1, 2, 3, 4,  5, 6, 7, 8},
     float[2] b2 = {1, -1}> {
    h = Conv(x, w, b)
    r = Relu(h)
    y = Conv(r, w2, b2) })";

TEST(RemoveDeadChannels, ZeroChannelsGoAndTheirConstantMovesIntoTheNextBias) {
  expectRewrite(kPass, kConvReluConv, R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,3,4,4] x) => (float[1,2,4,4] y)
    <float[2,3,1,1] w = {1, 2, 3,  -1, 0.5, 2},
     float[2] b = {0.25, 0.75},
     float[2,2,1,1] w2 = {1, 3,  5, 7},
     float[2] b2 = {3, 3}> {
    h = Conv(x, w, b)
    r = Relu(h)
    y = Conv(r, w2, b2) })");
  PassOutcome out = runPass(kPass, kConvReluConv);
  EXPECT_NE(out.step.note.str().find("2 channels removed from 1 layers, 12 weights fewer"),
            std::string::npos)
      << out.step.note.str();
  expectEqualOutputs(kConvReluConv, out);
  expectConverges(kPass, kConvReluConv);
}

// Through BatchNormalization, LeakyRelu, an Add of a per-channel constant,
// MaxPool and a depthwise Conv into a 3x3 Conv without padding.
const char* kChain = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,8,8] x) => (float[1,3,1,1] y)
    <float[4,2,1,1] w = {0.5, -1,  0, 0,  1, 1,  0, 0},
     float[4] b = {0.1, 0.3, -0.2, 0},
     float[4] s = {1, 2, 0.5, 1.5}, float[4] bb = {0, 0.5, 1, -1},
     float[4] mu = {0.1, 0.2, 0.3, 0.4}, float[4] var = {1, 2, 3, 4},
     float[1,4,1,1] k = {1, -2, 3, 4},
     float[4,1,2,2] dw = {1, 2, 3, 4,  -1, 1, -1, 2,  0.5, 0.5, 0.5, 0.5,  1, 0, 0, 1},
     float[4] db = {0.1, 0.2, 0.3, 0.4},
     float[3,4,3,3] w2 = {1, 2, 3, 4, 5, 6, 7, 8, 9,  -1, 0, 1, 2, 3, 4, 5, 6, 7,
                          2, 2, 2, 2, 2, 2, 2, 2, 2,  1, -1, 1, -1, 1, -1, 1, -1, 1,
                          0, 1, 0, 1, 0, 1, 0, 1, 0,  3, 2, 1, 0, -1, -2, -3, -4, -5,
                          1, 1, 1, 1, 1, 1, 1, 1, 1,  -2, -1, 0, 1, 2, 1, 0, -1, -2,
                          0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5,  1, 2, 1, 2, 1, 2, 1, 2, 1,
                          -1, -1, -1, 0, 0, 0, 1, 1, 1,  4, 3, 2, 1, 0, 1, 2, 3, 4},
     float[3] b2 = {0.5, -0.5, 1}> {
    h = Conv(x, w, b)
    n = BatchNormalization(h, s, bb, mu, var)
    l = LeakyRelu <alpha = 0.1> (n)
    a = Add(l, k)
    p = MaxPool <kernel_shape = [2, 2], strides = [2, 2]> (a)
    d = Conv <group = 4> (p, dw, db)
    y = Conv(d, w2, b2) })";

TEST(RemoveDeadChannels, FollowsPerChannelOpsAndADepthwiseConv) {
  PassOutcome out = runPass(kPass, kChain);
  ASSERT_TRUE(out.step.changed) << io::printModelText(out.model);
  EXPECT_EQ(inputDims(out.model, "h", 1), (std::vector<int64_t>{2, 2, 1, 1}));
  EXPECT_EQ(inputDims(out.model, "n", 1), (std::vector<int64_t>{2}));
  EXPECT_EQ(inputDims(out.model, "a", 1), (std::vector<int64_t>{1, 2, 1, 1}));
  EXPECT_EQ(inputDims(out.model, "d", 1), (std::vector<int64_t>{2, 1, 2, 2}));
  EXPECT_EQ(inputDims(out.model, "y", 1), (std::vector<int64_t>{3, 2, 3, 3}));
  for (const auto& n : out.model.graph().nodes()) {
    if (n->output(0)->name() == "d") {
      EXPECT_EQ(n->attrInt("group", 0), 2);
    }
  }
  expectEqualOutputs(kChain, out);
  expectConverges(kPass, kChain);
}

// Gemm -> Sigmoid (dead column 2 holds sigmoid(beta * C[2])) -> Gemm with
// transB takes it into its C; MatMul -> Relu -> MatMul takes a zero.
const char* kMatrices = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2,3] x, float[2,3] z) => (float[2,2] y, float[2,2] y2)
    <float[3,4] w = {1, 2, 0, 4,  -1, 0.5, 0, 2,  3, 1, 0, -2},
     float[4] c = {0.1, 0.2, 0.3, 0.4},
     float[2,4] v = {1, 2, 3, 4,  -1, -2, -3, -4},
     float[2] cv = {0.5, 0.25},
     float[3,3] m = {1, 0, 2,  3, 0, 4,  5, 0, 6},
     float[3,2] m2 = {1, 2,  3, 4,  5, 6}> {
    g = Gemm <beta = 2.0> (x, w, c)
    s = Sigmoid(g)
    y = Gemm <transB = 1, alpha = 0.5> (s, v, cv)
    q = MatMul(z, m)
    r = Relu(q)
    y2 = MatMul(r, m2) })";

TEST(RemoveDeadChannels, GemmAndMatMulLayers) {
  PassOutcome out = runPass(kPass, kMatrices);
  ASSERT_TRUE(out.step.changed);
  EXPECT_EQ(inputDims(out.model, "g", 1), (std::vector<int64_t>{3, 3}));
  EXPECT_EQ(inputDims(out.model, "g", 2), (std::vector<int64_t>{3}));
  EXPECT_EQ(inputDims(out.model, "y", 1), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(inputDims(out.model, "q", 1), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(inputDims(out.model, "y2", 1), (std::vector<int64_t>{2, 2}));
  expectEqualOutputs(kMatrices, out);
  expectConverges(kPass, kMatrices);
}

const char* kPadded = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,3,4,4] x) => (float[1,2,6,6] y)
    <float[4,3,1,1] w = {1, 2, 3,  0, 0, 0,  -1, 0.5, 2,  0, 0, 0},
     float[4] b = {0.25, 0, 0.75, 0.5},
     float[2,4,1,1] w2 = {1, 2, 3, 4,  5, 6, 7, 8},
     float[2] b2 = {1, -1}> {
    h = Conv(x, w, b)
    r = Relu(h)
    y = Conv <pads = [1, 1, 1, 1]> (r, w2, b2) })";

TEST(RemoveDeadChannels, PaddingTakesOnlyZeroChannels) {
  // Channel 1 holds 0 (goes), channel 3 holds 0.5 (stays: the padded border
  // sees 0, the inside 0.5).
  PassOutcome out = runPass(kPass, kPadded);
  ASSERT_TRUE(out.step.changed);
  EXPECT_EQ(inputDims(out.model, "h", 1), (std::vector<int64_t>{3, 3, 1, 1}));
  EXPECT_EQ(inputDims(out.model, "y", 1), (std::vector<int64_t>{2, 3, 1, 1}));
  std::string notes;
  for (const auto& [node, reasons] : out.step.explain.all())
    for (const auto& [pattern, why] : *reasons) notes += why.str() + "\n";
  EXPECT_NE(notes.find("1 of 2 dead channels removed; the others stay"), std::string::npos)
      << notes;
  EXPECT_NE(notes.find("pads its input: channel 3 holds 0.5"), std::string::npos) << notes;
  expectEqualOutputs(kPadded, out);
  expectConverges(kPass, kPadded);
  // Only the nonzero channel dead: nothing goes.
  std::string onlyHalf = kPadded;
  onlyHalf.replace(onlyHalf.find("{1, 2, 3,  0, 0, 0,"), 19, "{1, 2, 3,  1, 1, 1,");
  expectUnchanged(kPass, onlyHalf, "folding 0.5 * sum(w) into the bias would be wrong");
}

// Dead channels through a Concat: channel 1 of h (bias 0.5, after the Relu
// 0.5) sits at offset 2 of c = Concat(x, r) (channels 0-1 are x), so the 1x1
// Conv after it loses input channel 3 and takes 0.5 * sum(w2[:, 3]) into its
// bias: {1 + 0.5 * 4, -1 + 0.5 * 9}. The Concat's output shrinks to 4.
const char* kConcat = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,4,4] x) => (float[1,2,4,4] y)
    <float[3,2,1,1] w = {1, 2,  0, 0,  -1, 1}, float[3] b = {0.25, 0.5, 0},
     float[2,5,1,1] w2 = {1, 2, 3, 4, 5,  6, 7, 8, 9, 10},
     float[2] b2 = {1, -1}> {
    h = Conv(x, w, b)
    r = Relu(h)
    c = Concat <axis = 1> (x, r)
    y = Conv(c, w2, b2) })";

TEST(RemoveDeadChannels, FollowsThemThroughAConcatAtTheirOffset) {
  expectRewrite(kPass, kConcat, R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,4,4] x) => (float[1,2,4,4] y)
    <float[2,2,1,1] w = {1, 2,  -1, 1}, float[2] b = {0.25, 0},
     float[2,4,1,1] w2 = {1, 2, 3, 5,  6, 7, 8, 10},
     float[2] b2 = {3, 3.5}> {
    h = Conv(x, w, b)
    r = Relu(h)
    c = Concat <axis = 1> (x, r)
    y = Conv(c, w2, b2) })");
  PassOutcome out = runPass(kPass, kConcat);
  ASSERT_TRUE(out.step.changed);
  for (const auto& n : out.model.graph().nodes())
    if (n->opType() == "Concat") {
      ASSERT_TRUE(n->output(0)->type().shape());
      EXPECT_EQ((*n->output(0)->type().shape())[1].value(), 4);
    }
  expectEqualOutputs(kConcat, out);
  expectConverges(kPass, kConcat);
}

// A Concat of Concats: offsets add up (h's dead channel 2 is channel 4 of a, 6 of c's 9).
const char* kNestedConcat = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,4,4] x) => (float[1,1,4,4] y)
    <float[3,2,1,1] w = {1, 2,  -1, 1,  0, 0}, float[3] b = {0.25, 0.5, 0},
     float[1,9,1,1] w2 = {1, 2, 3, 4, 5, 6, 7, 8, 9}> {
    h = Conv(x, w, b)
    a = Concat <axis = 1> (x, h)
    c = Concat <axis = -3> (x, a, x)
    y = Conv(c, w2) })";

TEST(RemoveDeadChannels, OffsetsAddUpThroughNestedConcats) {
  PassOutcome out = runPass(kPass, kNestedConcat);
  ASSERT_TRUE(out.step.changed) << out.step.note.str();
  // Channel 6 of c: w2 loses its 7.
  const ir::Value* w2 = nullptr;
  for (const auto& n : out.model.graph().nodes())
    if (n->output(0)->name() == "y") w2 = n->input(1);
  ASSERT_TRUE(w2 && w2->initializer());
  EXPECT_EQ(w2->initializer()->toDoubleVector(), (std::vector<double>{1, 2, 3, 4, 5, 6, 8, 9}));
  expectEqualOutputs(kNestedConcat, out);
  expectConverges(kPass, kNestedConcat);
}

// A layer whose dead channel `h` meets `stop` before any layer.
std::string deadChannelInto(const std::string& body, const std::string& outType) {
  return std::string(R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,4,4] x) => ()") +
         outType + R"( y)
    <float[3,2,1,1] w = {1, 2,  0, 0,  -1, 1}, float[3] b = {0.5, 0, 0.25},
     int64[2] shape = {1, 48}> {
    h = Conv(x, w, b)
    )" + body +
         " }";
}

TEST(RemoveDeadChannels, StopsWhereTheChannelCannotBeFollowed) {
  expectUnchanged(kPass, deadChannelInto("y = Relu(h)", "float[1,3,4,4]"),
                  "they reach the graph output 'y'");
  expectUnchanged(kPass, deadChannelInto("y = Concat <axis = 1> (h, x)", "float[1,5,4,4]"),
                  "they reach the graph output 'y'");  // through the Concat
  expectUnchanged(kPass,
                  deadChannelInto("c = Concat <axis = 2> (h, h)\n y = Relu(c)", "float[1,3,8,4]"),
                  "joins them along another axis");
  expectUnchanged(kPass,
                  deadChannelInto("c = Concat <axis = 1> (h, h)\n y = Relu(c)", "float[1,6,4,4]"),
                  "reads them twice");
  expectUnchanged(kPass, deadChannelInto("r = Reshape(h, shape)\n y = Relu(r)", "float[1,48]"),
                  "only a Gemm or MatMul reading it as A is followed there");
  expectUnchanged(kPass, deadChannelInto("t = Mul(h, h)\n y = ReduceSum(t)", "float[1,1,1,1]"),
                  "Mul reads them with an operand that is not a per-channel constant");
}

// A classifier head: channel 1 (bias 0.5) is dead; after Relu and global
// pooling it holds 0.5, and Flatten hands it to the Gemm as column 1 of A:
// row 1 of B^T goes, C += 0.5 * B[:, 1] = {1 + 1, -1 + 2.5}.
const char* kClassifierHead = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,4,4] x) => (float[1,2] y)
    <float[3,2,1,1] w = {1, 2,  0, 0,  -1, 1}, float[3] b = {0.5, 0.5, 0.25},
     float[2,3] B = {1, 2, 3,  4, 5, 6}, float[2] C = {1, -1}> {
    h = Conv(x, w, b)
    r = Relu(h)
    g = GlobalAveragePool(r)
    f = Flatten(g)
    y = Gemm <transB = 1> (f, B, C) })";

TEST(RemoveDeadChannels, ThroughFlattenIntoAClassifierGemm) {
  expectRewrite(kPass, kClassifierHead, R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,4,4] x) => (float[1,2] y)
    <float[2,2,1,1] w = {1, 2,  -1, 1}, float[2] b = {0.5, 0.25},
     float[2,2] B = {1, 3,  4, 6}, float[2] C = {2, 1.5}> {
    h = Conv(x, w, b)
    r = Relu(h)
    g = GlobalAveragePool(r)
    f = Flatten(g)
    y = Gemm <transB = 1> (f, B, C) })");
  PassOutcome out = runPass(kPass, kClassifierHead);
  expectEqualOutputs(kClassifierHead, out);
  expectConverges(kPass, kClassifierHead);
}

// Channel 1 of h (bias 0) is dead: 16 positions each, so rows 16..31 of the
// MatMul's B go and the Reshape's spelled-out 48 becomes 32.
// "0, 1, 2, ..." (n values, in [-3, 3]).
std::string sequence(int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += (i ? ", " : "") + std::to_string(i % 7 - 3);
  return s;
}

std::string reshapeIntoMatMul(const std::string& shape, const std::string& shapeDims) {
  return R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,4,4] x) => (float[1,2] y)
    <float[3,2,1,1] w = {1, 2,  0, 0,  -1, 1}, float[3] b = {0.5, 0, 0.25},
     int64[)" +
         shapeDims + "] shape = {" + shape + "}, float[48,2] m = {" + sequence(96) + R"(}> {
    h = Conv(x, w, b)
    r = Reshape(h, shape)
    y = MatMul(r, m) })";
}

TEST(RemoveDeadChannels, ThroughAReshapeToRowsIntoAMatMul) {
  for (const char* shape : {"1, 48", "0, -1", "-1, 48", "1, -1"}) {
    SCOPED_TRACE(shape);
    const std::string text = reshapeIntoMatMul(shape, "2");
    PassOutcome out = runPass(kPass, text);
    ASSERT_TRUE(out.step.changed) << out.step.note.str();
    EXPECT_EQ(inputDims(out.model, "h", 1), (std::vector<int64_t>{2, 2, 1, 1}));
    EXPECT_EQ(inputDims(out.model, "y", 1), (std::vector<int64_t>{32, 2}));
    expectEqualOutputs(text, out);
    expectConverges(kPass, text);
  }
}

TEST(RemoveDeadChannels, StopsAtFlattensItCannotFollow) {
  expectUnchanged(kPass, reshapeIntoMatMul("3, 16", "2"),
                  "reshapes them to another shape than [N, channels x positions]");
  expectUnchanged(kPass, reshapeIntoMatMul("1, 3, 16", "3"),
                  "reshapes them to another shape than [N, channels x positions]");
  expectUnchanged(kPass, deadChannelInto("f = Flatten <axis = 2> (h)\n y = Relu(f)", "float[3,16]"),
                  "flattens at another axis than 1");
  expectUnchanged(kPass, deadChannelInto("y = Flatten(h)", "float[1,48]"),
                  "they reach the graph output 'y'");
  // The flattened value read by a MatMul as B, not A.
  expectUnchanged(kPass, R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,4,4] x, float[5,1] a) => (float[5,48] y)
    <float[3,2,1,1] w = {1, 2,  0, 0,  -1, 1}, float[3] b = {0.5, 0, 0.25}> {
    h = Conv(x, w, b)
    f = Flatten(h)
    y = MatMul(a, f) })",
                  "only a Gemm or MatMul reading it as A is followed there");
  // Channel 1 holds 0.5 after the Relu: a MatMul has no bias to take it.
  expectUnchanged(kPass, R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,4,4] x) => (float[1,2] y)
    <float[3,2,1,1] w = {1, 2,  0, 0,  -1, 1}, float[3] b = {0.5, 0.5, 0.25},
     float[3,2] m = {1, 2, 3, 4, 5, 6}> {
    h = Conv(x, w, b)
    g = GlobalAveragePool(h)
    f = Flatten(g)
    y = MatMul(f, m) })",
                  "has no bias to take channel 1's constant 0.5");
}

TEST(RemoveDeadChannels, RefusesGroupedLayersAndAMatMulWithoutBias) {
  expectUnchanged(kPass, R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,4,4] x) => (float[1,2,4,4] y)
    <float[2,1,1,1] w = {1, 0}, float[2,2,1,1] w2 = {1, 2, 3, 4}> {
    h = Conv <group = 2> (x, w)
    y = Conv(h, w2) })",
                  "a depthwise Conv loses an output channel only with its input channel");
  // Column 1 of q is 0, but c adds 1 to it before the MatMul.
  expectUnchanged(kPass, R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2,2] x) => (float[2,2] y)
    <float[2,2] m = {1, 0, 2, 0}, float[2] c = {0, 1}, float[2,2] m2 = {1, 2, 3, 4}> {
    q = MatMul(x, m)
    a = Add(q, c)
    y = MatMul(a, m2) })",
                  "has no bias to take channel 1's constant 1");
  // Every channel dead: the layer is a constant.
  expectUnchanged(kPass, R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2,2] x) => (float[2,2] y)
    <float[2,2] m = {0, 0, 0, 0}, float[2,2] m2 = {1, 2, 3, 4}> {
    q = MatMul(x, m)
    y = MatMul(q, m2) })",
                  "all 2 output channels are zero");
}

// A residual Add: channel 1 is dead in both h1 (bias 0.5) and h2 (bias 0.25),
// so s holds 0.75 there, and the 1x1 Conv after the Relu takes 0.75 *
// sum(w3[:, 1]) into its bias: {1 + 0.75 * 2, -1 + 0.75 * 5}. Channel 2 is
// dead in h1 only: it stays.
const char* kResidualAdd = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,4,4] x) => (float[1,2,4,4] y)
    <float[3,2,1,1] w1 = {1, 2,  0, 0,  0, 0}, float[3] b1 = {0.25, 0.5, 0},
     float[3,2,1,1] w2 = {-1, 1,  0, 0,  2, 1}, float[3] b2 = {0, 0.25, 0.5},
     float[2,3,1,1] w3 = {1, 2, 3,  4, 5, 6}, float[2] b3 = {1, -1}> {
    h1 = Conv(x, w1, b1)
    h2 = Conv(x, w2, b2)
    s = Add(h1, h2)
    r = Relu(s)
    y = Conv(r, w3, b3) })";

TEST(RemoveDeadChannels, ThroughAResidualAddWhenDeadOnBothInputs) {
  expectRewrite(kPass, kResidualAdd, R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,4,4] x) => (float[1,2,4,4] y)
    <float[2,2,1,1] w1 = {1, 2,  0, 0}, float[2] b1 = {0.25, 0},
     float[2,2,1,1] w2 = {-1, 1,  2, 1}, float[2] b2 = {0, 0.5},
     float[2,2,1,1] w3 = {1, 3,  4, 6}, float[2] b3 = {2.5, 2.75}> {
    h1 = Conv(x, w1, b1)
    h2 = Conv(x, w2, b2)
    s = Add(h1, h2)
    r = Relu(s)
    y = Conv(r, w3, b3) })");
  PassOutcome out = runPass(kPass, kResidualAdd);
  EXPECT_NE(out.step.note.str().find("2 channels removed from 2 layers"), std::string::npos)
      << out.step.note.str();
  std::string notes;
  for (const auto& [node, reasons] : out.step.explain.all())
    for (const auto& [pattern, why] : *reasons) notes += why.str() + "\n";
  EXPECT_NE(notes.find("1 of 2 dead channels removed; the others stay: channel 2 is not zero in "
                       "Conv, which the other input of Add adds"),
            std::string::npos)
      << notes;
  expectEqualOutputs(kResidualAdd, out);
  expectConverges(kPass, kResidualAdd);
  // The same through a Sum (older ResNets), and a Sum of three where the
  // third input has channel 1 live: nothing goes.
  std::string sum = kResidualAdd;
  sum.replace(sum.find("s = Add(h1, h2)"), 15, "s = Sum(h1, h2)");
  PassOutcome viaSum = runPass(kPass, sum);
  EXPECT_NE(viaSum.step.note.str().find("2 channels removed from 2 layers"), std::string::npos)
      << viaSum.step.note.str();
  expectEqualOutputs(sum, viaSum);
  std::string three = kResidualAdd;
  three.replace(three.find("s = Add(h1, h2)"), 15, "s = Sum(h1, h2, x1)\n    x1 = Conv(x, w1x)");
  three.replace(three.find("float[3] b1"), 11,
                "float[3,2,1,1] w1x = {1, 1, 1, 1, 1, 1}, float[3] b1");
  expectUnchanged(kPass, three, "channel 1 is not zero in Conv, which the other input of Sum adds");
}

// Two residual blocks with identity shortcuts (as in a ResNet stage): the
// stream h -> r1 -> r2 has channel 1 dead only if it is dead in h, b and d,
// the layers whose outputs the Adds sum; each block's first Conv (which
// reads the stream) and the last Conv lose that input channel, the stream's
// constants (0.5, relu(0.5 - 1.5) = 0, relu(0 + 0.75)) folded into their
// biases. Channel 2 is dead in h only and stays.
const char* kResidualBlocks = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,4,4] x) => (float[1,2,4,4] y)
    <float[3,2,1,1] w0 = {1, 2,  0, 0,  0, 0}, float[3] b0 = {0.25, 0.5, -0.5},
     float[3,3,1,1] wa = {1, 0.5, -1,  2, 1, 0,  -1, 1, 1}, float[3] ba = {0.1, 0.2, 0.3},
     float[3,3,1,1] wb = {1, -1, 2,  0, 0, 0,  0.5, 1, 1}, float[3] bb = {0, -1.5, 0.25},
     float[3,3,3,3] wc = {1, 0, 1, 0, 1, 0, 1, 0, 1,  2, 1, 2, 1, 2, 1, 2, 1, 2,
                          -1, 0, 1, -1, 0, 1, -1, 0, 1,  0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5,
                          1, 2, 3, 4, 5, 6, 7, 8, 9,  -1, -1, -1, 1, 1, 1, 0, 0, 0,
                          0, 1, 0, 1, 0, 1, 0, 1, 0,  3, 2, 1, 0, 1, 2, 3, 2, 1,
                          1, -2, 1, -2, 1, -2, 1, -2, 1},
     float[3,3,1,1] wd = {2, 1, 1,  0, 0, 0,  1, -1, 0.5}, float[3] bd = {0.5, 0.75, 0},
     float[2,3,1,1] wy = {1, 2, 3,  4, 5, 6}, float[2] by = {1, -1}> {
    h = Conv(x, w0, b0)
    ca = Conv(h, wa, ba)
    a = Relu(ca)
    b = Conv(a, wb, bb)
    s1 = Add(b, h)
    r1 = Relu(s1)
    cc = Conv <pads = [1, 1, 1, 1]> (r1, wc)
    c = Relu(cc)
    d = Conv(c, wd, bd)
    s2 = Add(r1, d)
    r2 = Relu(s2)
    y = Conv(r2, wy, by) })";

TEST(RemoveDeadChannels, ThroughAChainOfResidualBlocks) {
  PassOutcome out = runPass(kPass, kResidualBlocks);
  ASSERT_TRUE(out.step.changed) << io::printModelText(out.model);
  EXPECT_NE(out.step.note.str().find("3 channels removed from 3 layers"), std::string::npos)
      << out.step.note.str();
  for (const char* layer : {"h", "b", "d"})
    EXPECT_EQ(inputDims(out.model, layer, 1).at(0), 2) << layer;
  EXPECT_EQ(inputDims(out.model, "h", 1), (std::vector<int64_t>{2, 2, 1, 1}));
  EXPECT_EQ(inputDims(out.model, "ca", 1), (std::vector<int64_t>{3, 2, 1, 1}));
  // The padded 3x3 Conv reads channel 1 of r1, which holds 0: it goes too.
  EXPECT_EQ(inputDims(out.model, "cc", 1), (std::vector<int64_t>{3, 2, 3, 3}));
  EXPECT_EQ(inputDims(out.model, "y", 1), (std::vector<int64_t>{2, 2, 1, 1}));
  expectEqualOutputs(kResidualBlocks, out);
  expectConverges(kPass, kResidualBlocks);
  // With the padded Conv reading a nonzero constant (bb[1] = 0.5: r1 holds 1)
  // the channel stays everywhere, with the padding note.
  std::string nonzero = kResidualBlocks;
  nonzero.replace(nonzero.find("bb = {0, -1.5, 0.25}"), 20, "bb = {0, 0.5, 0.25}");
  expectUnchanged(kPass, nonzero, "folding 1 * sum(w) into the bias would be wrong");
}

// A layer both reading the stream and adding to it (s = h + Conv(h)): its
// output channel 1 goes as a source (a row of w2 and b2[1]) and its input
// channel 1 as a reader (the padded 3x3 window reads 0 there).
const char* kSourceAndReader = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,4,4] x) => (float[1,2,4,4] y)
    <float[3,2,1,1] w1 = {1, 2,  0, 0,  -1, 1}, float[3] b1 = {0.1, 0, -0.2},
     float[3,3,3,3] w2 = {1, 0, 1, 0, 1, 0, 1, 0, 1,  2, 1, 2, 1, 2, 1, 2, 1, 2,
                          -1, 0, 1, -1, 0, 1, -1, 0, 1,  0, 0, 0, 0, 0, 0, 0, 0, 0,
                          0, 0, 0, 0, 0, 0, 0, 0, 0,  0, 0, 0, 0, 0, 0, 0, 0, 0,
                          0, 1, 0, 1, 0, 1, 0, 1, 0,  3, 2, 1, 0, 1, 2, 3, 2, 1,
                          1, -2, 1, -2, 1, -2, 1, -2, 1},
     float[3] b2 = {0.2, 0, 0.1},
     float[2,3,1,1] w3 = {1, 2, 3,  4, 5, 6}> {
    h = Conv(x, w1, b1)
    g = Conv <pads = [1, 1, 1, 1]> (h, w2, b2)
    s = Add(h, g)
    r = Relu(s)
    y = Conv(r, w3) })";

TEST(RemoveDeadChannels, ALayerThatBothReadsAndAddsToTheStream) {
  PassOutcome out = runPass(kPass, kSourceAndReader);
  ASSERT_TRUE(out.step.changed) << io::printModelText(out.model);
  EXPECT_EQ(inputDims(out.model, "h", 1), (std::vector<int64_t>{2, 2, 1, 1}));
  EXPECT_EQ(inputDims(out.model, "g", 1), (std::vector<int64_t>{2, 2, 3, 3}));
  EXPECT_EQ(inputDims(out.model, "g", 2), (std::vector<int64_t>{2}));
  EXPECT_EQ(inputDims(out.model, "y", 1), (std::vector<int64_t>{2, 2, 1, 1}));
  expectEqualOutputs(kSourceAndReader, out);
  expectConverges(kPass, kSourceAndReader);
}

// Two Convs whose dead channels meet at an Add `tail`.
std::string residualInto(const std::string& w2, const std::string& tail,
                         const std::string& outType) {
  return std::string(R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,4,4] x, float[1,3,4,4] z) => ()") +
         outType + R"( y)
    <float[3,2,1,1] w1 = {1, 2,  0, 0,  -1, 1}, float[3] b1 = {0.5, 0, 0.25},
     float[3,2,1,1] w2 = )" +
         w2 + R"(, float[1,3,1,1] w3 = {1, 2, 3}> {
    h1 = Conv(x, w1, b1)
    h2 = Conv(x, w2)
    )" + tail +
         " }";
}

TEST(RemoveDeadChannels, StopsAtResidualAddsItCannotFollow) {
  const std::string dead = "{1, 1,  0, 0,  2, 1}", live = "{1, 1,  3, 0,  2, 1}";
  // Dead on one input only.
  expectUnchanged(kPass, residualInto(live, "s = Add(h1, h2)\n y = Conv(s, w3)", "float[1,1,4,4]"),
                  "channel 1 is not zero in Conv, which the other input of Add adds");
  // Dead on both, but the Add broadcasts one input.
  expectUnchanged(kPass,
                  residualInto(dead, "g = GlobalAveragePool(h2)\n s = Add(h1, g)\n y = Conv(s, w3)",
                               "float[1,1,4,4]"),
                  "adds them to a value of another or unknown shape (a broadcast)");
  // Dead on both, but the Add's output is a graph output.
  expectUnchanged(kPass, residualInto(dead, "y = Add(h1, h2)", "float[1,3,4,4]"),
                  "they reach the graph output 'y'");
  // The other input is a graph input.
  expectUnchanged(kPass, residualInto(live, "s = Add(h1, z)\n y = Conv(s, w3)", "float[1,1,4,4]"),
                  "the other input of Add is 'z', not computed by a layer");
  // The other input comes from an op the pass does not trace back.
  expectUnchanged(
      kPass,
      residualInto(dead, "t = Softmax <axis = 1> (h2)\n s = Add(h1, t)\n y = Conv(s, w3)",
                   "float[1,1,4,4]"),
      "comes from Softmax, which this pass does not trace back");
}

}  // namespace
}  // namespace passlab::testing
