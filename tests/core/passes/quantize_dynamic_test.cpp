// quantize_dynamic: MatMul and Gemm weights to int8 with activations
// quantized at run time: the rewrite and its weights exactly, outputs within
// the accuracy budget, convergence, and where it must not fire.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/io/text_format.h"
#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

const char* kPass = "quantize_dynamic";

// The full int8 range whatever the CPU: reduce_range's default, auto, chooses
// 7 bits on a CPU without AVX-512 VNNI or AVX-VNNI (reduce_range_option_test).
const passes::Options kFullRange = {{"reduce_range", "false"}};

std::string opsOf(const ir::Model& m) {
  std::string out;
  for (const auto& n : m.graph().nodes()) out += (out.empty() ? "" : ", ") + n->opType();
  return out;
}

const ir::Value* initializer(const ir::Model& m, const std::string& suffix) {
  for (const ir::Value* v : m.graph().initializers())
    if (v->name().size() >= suffix.size() &&
        v->name().compare(v->name().size() - suffix.size(), suffix.size(), suffix) == 0)
      return v;
  return nullptr;
}

const char* kMatMul = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2,4] x) => (float[2,2] y)
    <float[4,2] w = {127, -127, 63.5, 64, -127, 0, 0, -254}> {
    y = MatMul(x, w) })";

TEST(QuantizeDynamic, MatMulWeightsBecomeInt8PerColumn) {
  PassOutcome out = runPass(kPass, kMatMul, kFullRange);
  ASSERT_TRUE(out.step.changed);
  EXPECT_EQ(opsOf(out.model), "DynamicQuantizeLinear, MatMulInteger, Cast, Mul, Mul")
      << io::printModelText(out.model);
  // Column 0: max |w| 127 -> scale 1: {127, 64 (63.5 to even), -127, 0}.
  // Column 1: max |w| 254 -> scale 2: {-64 (-63.5 to even), 32, 0, -127}.
  const ir::Value* wq = initializer(out.model, "_wq");
  ASSERT_NE(wq, nullptr) << io::printModelText(out.model);
  ASSERT_EQ(wq->initializer()->dtype(), ir::DataType::kInt8);
  std::vector<double> got;
  for (int64_t i = 0; i < wq->initializer()->numel(); ++i)
    got.push_back(wq->initializer()->valueAsDouble(i));
  EXPECT_EQ(got, (std::vector<double>{127, -64, 64, 32, -127, 0, 0, -127}));
  const ir::Value* ws = initializer(out.model, "_ws");
  ASSERT_NE(ws, nullptr);
  ASSERT_EQ(ws->initializer()->numel(), 2);
  EXPECT_EQ(ws->initializer()->valueAsDouble(0), 1);
  EXPECT_EQ(ws->initializer()->valueAsDouble(1), 2);
  EXPECT_TRUE(out.step.check.passed) << out.step.check.detail.str();
}

TEST(QuantizeDynamic, ReduceRangeQuantizesTheWeightsInSevenBits) {
  PassOutcome out = runPass(kPass, kMatMul, {{"reduce_range", "true"}});
  ASSERT_TRUE(out.step.changed);
  // Column 0: max |w| 127 -> scale 127/64: {64, 32, -64, 0}.
  // Column 1: max |w| 254 -> scale 254/64: {-32, 16 (16.125), 0, -64}.
  const ir::Value* wq = initializer(out.model, "_wq");
  ASSERT_NE(wq, nullptr) << io::printModelText(out.model);
  std::vector<double> got;
  for (int64_t i = 0; i < wq->initializer()->numel(); ++i)
    got.push_back(wq->initializer()->valueAsDouble(i));
  EXPECT_EQ(got, (std::vector<double>{64, -32, 32, 16, -64, 0, 0, -64}));
  const ir::Value* ws = initializer(out.model, "_ws");
  ASSERT_NE(ws, nullptr);
  EXPECT_FLOAT_EQ(static_cast<float>(ws->initializer()->valueAsDouble(0)), 127.0f / 64.0f);
  EXPECT_FLOAT_EQ(static_cast<float>(ws->initializer()->valueAsDouble(1)), 254.0f / 64.0f);
  EXPECT_TRUE(out.step.check.passed) << out.step.check.detail.str();
  EXPECT_NE(out.step.note.str().find("7 bits"), std::string::npos) << out.step.note.str();
}

// The weight held by a Constant node (paddle2onnx writes every weight so):
// quantized as an initializer would be, the float Constant node gone.
const char* kMatMulConstantNode = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2,4] x) => (float[2,2] y) {
    w = Constant <value = float[4,2] {127, -127, 63.5, 64, -127, 0, 0, -254}> ()
    y = MatMul(x, w) })";

TEST(QuantizeDynamic, AConstantNodeWeightIsQuantizedAsAnInitializerIs) {
  PassOutcome out = runPass(kPass, kMatMulConstantNode, kFullRange);
  ASSERT_TRUE(out.step.changed) << out.step.note.str();
  EXPECT_EQ(opsOf(out.model), "DynamicQuantizeLinear, MatMulInteger, Cast, Mul, Mul")
      << io::printModelText(out.model);
  const ir::Value* wq = initializer(out.model, "_wq");
  ASSERT_NE(wq, nullptr) << io::printModelText(out.model);
  std::vector<double> got;
  for (int64_t i = 0; i < wq->initializer()->numel(); ++i)
    got.push_back(wq->initializer()->valueAsDouble(i));
  EXPECT_EQ(got, (std::vector<double>{127, -64, 64, 32, -127, 0, 0, -127}));
  EXPECT_TRUE(out.step.check.passed) << out.step.check.detail.str();
  expectSameOutputs(kPass, kMatMulConstantNode);
  expectConverges(kPass, kMatMulConstantNode);
  // min_weights and a weight that is not a matrix are judged on the node's tensor.
  expectUnchanged(kPass, kMatMulConstantNode, "fewer than min_weights", {{"min_weights", "100"}});
  expectUnchanged(kPass, R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2,2,4] x) => (float[2,2,2] y) {
    w = Constant <value = float[2,4,2] {1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8}> ()
    y = MatMul(x, w) })",
                  "not a float32 matrix");
}

TEST(QuantizeDynamic, PerTensorHasOneScale) {
  PassOutcome out = runPass(kPass, kMatMul, {{"per_channel", "false"}, {"reduce_range", "false"}});
  ASSERT_TRUE(out.step.changed);
  const ir::Value* ws = initializer(out.model, "_ws");
  ASSERT_NE(ws, nullptr);
  ASSERT_EQ(ws->initializer()->numel(), 1);
  EXPECT_EQ(ws->initializer()->valueAsDouble(0), 2);
}

const char* kMlp = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[3,8] x) => (float[3,4] y)
    <float[8,6] w1 = {0.3, -0.2, 0.1, 0.5, -0.4, 0.2, 0.3, -0.1, 0.2, 0.1, -0.3, 0.4,
                      0.1, 0.5, -0.2, 0.3, -0.1, 0.3, 0.2, -0.5, 0.4, -0.3, 0.1, 0.2,
                      0.2, 0.1, 0.4, -0.2, -0.3, 0.2, -0.1, 0.1, 0.3, 0.2, -0.2, 0.1,
                      0.4, -0.3, 0.2, 0.1, 0.1, -0.2, -0.2, 0.3, 0.1, -0.4, 0.2, 0.3},
     float[4,6] w2 = {0.2, -0.1, 0.3, 0.1, -0.2, 0.4, -0.3, 0.2, 0.1, 0.4, 0.1, -0.1,
                      0.1, 0.3, -0.2, 0.2, 0.3, 0.1, 0.4, -0.2, 0.2, -0.1, 0.1, 0.2},
     float[4] c = {0.1, -0.2, 0.3, 0.05}> {
    h = MatMul(x, w1)
    r = Relu(h)
    y = Gemm <transB = 1, alpha = 0.5, beta = 2.0> (r, w2, c) })";

TEST(QuantizeDynamic, AnMlpStaysWithinTheBudget) {
  PassOutcome out = runPass(kPass, kMlp);
  ASSERT_TRUE(out.step.changed);
  EXPECT_EQ(opsOf(out.model),
            "DynamicQuantizeLinear, MatMulInteger, Cast, Mul, Mul, Relu, DynamicQuantizeLinear, "
            "MatMulInteger, Cast, Mul, Mul, Mul, Add")
      << io::printModelText(out.model);
  ASSERT_TRUE(out.step.check.ran);
  EXPECT_TRUE(out.step.check.passed) << out.step.check.detail.str();
  ASSERT_EQ(out.step.check.accuracy.size(), 1u);
  EXPECT_GT(out.step.check.accuracy[0].snrDb, 25);
  expectSameOutputs(kPass, kMlp);  // within the default budget
  expectConverges(kPass, kMlp);
}

TEST(QuantizeDynamic, KeepsWhatItCannotQuantize) {
  expectUnchanged(kPass, R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2,4] x, float[4,2] w) => (float[2,2] y) { y = MatMul(x, w) })",
                  "the weight is not a constant initializer");
  expectUnchanged(kPass, R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2,2,4] x) => (float[2,2,2] y) <float[2,4,2] w = {1, 2, 3, 4, 5, 6, 7, 8,
                                                            1, 2, 3, 4, 5, 6, 7, 8}> {
    y = MatMul(x, w) })",
                  "not a float32 matrix");
  expectUnchanged(kPass, kMatMul, "fewer than min_weights", {{"min_weights", "100"}});
  expectUnchanged(kPass, R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[4,2] x) => (float[2,2] y) <float[4,2] w = {1, 2, 3, 4, 5, 6, 7, 8}> {
    y = Gemm <transA = 1> (x, w) })",
                  "Gemm transposes A");
  expectUnchanged(kPass, R"(<ir_version: 8, opset_import: ["" : 13]>
main (int32[2,4] x) => (int32[2,2] y) <int32[4,2] w = {1, 2, 3, 4, 5, 6, 7, 8}> {
    y = MatMul(x, w) })",
                  "A is not float32");
}

// A Conv (3x3, pads, stride 2, a bias) then a grouped Conv without a bias;
// weights from sin() so that every channel has its own range.
// With `constantNodes`, the first Conv's weight and bias are Constant nodes.
std::string convModel(bool constantNodes = false) {
  auto values = [](int n, double phase) {
    std::string out;
    for (int i = 0; i < n; ++i)
      out += (i ? ", " : "") + std::to_string(0.5 * std::sin(0.7 * i + phase) * (1 + i % 5));
    return out;
  };
  const std::string w = values(108, 0.1), b = "0.1, -0.2, 0.3, 0.05";
  return R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,3,9,9] x) => (float[1,4,5,5] y)
    <)" +
         (constantNodes ? "" : "float[4,3,3,3] w = {" + w + "}, float[4] b = {" + b + "},\n     ") +
         "float[4,2,1,1] w2 = {" + values(8, 0.4) + "}> {\n" +
         (constantNodes ? "    w = Constant <value = float[4,3,3,3] {" + w +
                              "}> ()\n    b = Constant <value = float[4] {" + b + "}> ()\n"
                        : "") +
         R"(    h = Conv <pads = [1, 1, 1, 1], strides = [2, 2]> (x, w, b)
    r = Relu(h)
    y = Conv <group = 2> (r, w2) })";
}

TEST(QuantizeDynamic, ConvBecomesConvIntegerWithItsAttributes) {
  PassOutcome out = runPass(kPass, convModel(), kFullRange);
  ASSERT_TRUE(out.step.changed);
  EXPECT_EQ(opsOf(out.model),
            "DynamicQuantizeLinear, ConvInteger, Cast, Mul, Mul, Add, Relu, "
            "DynamicQuantizeLinear, ConvInteger, Cast, Mul, Mul")
      << io::printModelText(out.model);
  int convs = 0;
  for (const auto& n : out.model.graph().nodes()) {
    if (n->opType() != "ConvInteger") continue;
    ++convs;
    if (convs == 1) {
      EXPECT_EQ(n->attrInts("pads"), (std::vector<int64_t>{1, 1, 1, 1}));
      EXPECT_EQ(n->attrInts("strides"), (std::vector<int64_t>{2, 2}));
    } else {
      EXPECT_EQ(n->attrInt("group", 1), 2);
    }
  }
  EXPECT_EQ(convs, 2);
  // One scale per output channel, shaped to broadcast over [N, M, H, W].
  const ir::Value* ws = initializer(out.model, "h_ws");
  ASSERT_NE(ws, nullptr) << io::printModelText(out.model);
  EXPECT_EQ(ws->initializer()->dims(), (std::vector<int64_t>{4, 1, 1}));
  const ir::Value* wq = initializer(out.model, "h_wq");
  ASSERT_NE(wq, nullptr);
  EXPECT_EQ(wq->initializer()->dtype(), ir::DataType::kInt8);
  EXPECT_EQ(wq->initializer()->dims(), (std::vector<int64_t>{4, 3, 3, 3}));
  // Each channel's largest |w| is +-127.
  for (int64_t m = 0; m < 4; ++m) {
    double maxAbs = 0;
    for (int64_t i = 0; i < 27; ++i)
      maxAbs = std::max(maxAbs, std::fabs(wq->initializer()->valueAsDouble(m * 27 + i)));
    EXPECT_EQ(maxAbs, 127) << "channel " << m;
  }
  ASSERT_TRUE(out.step.check.ran);
  EXPECT_TRUE(out.step.check.passed) << out.step.check.detail.str();
  ASSERT_EQ(out.step.check.accuracy.size(), 1u);
  EXPECT_GT(out.step.check.accuracy[0].snrDb, 25);
  expectSameOutputs(kPass, convModel());
  expectConverges(kPass, convModel());
}

TEST(QuantizeDynamic, ConvWeightsInConstantNodesAreQuantized) {
  const std::string model = convModel(true);
  PassOutcome out = runPass(kPass, model);
  ASSERT_TRUE(out.step.changed) << out.step.note.str();
  // The Constant nodes are gone with the float Conv that read them.
  EXPECT_EQ(opsOf(out.model),
            "DynamicQuantizeLinear, ConvInteger, Cast, Mul, Mul, Add, Relu, "
            "DynamicQuantizeLinear, ConvInteger, Cast, Mul, Mul")
      << io::printModelText(out.model);
  const ir::Value* bias = initializer(out.model, "h_bias");
  ASSERT_NE(bias, nullptr) << io::printModelText(out.model);
  EXPECT_EQ(bias->initializer()->dims(), (std::vector<int64_t>{4, 1, 1}));
  EXPECT_FLOAT_EQ(static_cast<float>(bias->initializer()->valueAsDouble(1)), -0.2f);
  ASSERT_TRUE(out.step.check.ran);
  EXPECT_TRUE(out.step.check.passed) << out.step.check.detail.str();
  ASSERT_EQ(out.step.check.accuracy.size(), 1u);
  EXPECT_GT(out.step.check.accuracy[0].snrDb, 25);
  expectSameOutputs(kPass, model);
  expectConverges(kPass, model);
}

TEST(QuantizeDynamic, ReduceRangeConvWeightsReachSixtyFour) {
  PassOutcome out = runPass(kPass, convModel(), {{"reduce_range", "true"}});
  ASSERT_TRUE(out.step.changed);
  const ir::Value* wq = initializer(out.model, "h_wq");
  ASSERT_NE(wq, nullptr) << io::printModelText(out.model);
  for (int64_t m = 0; m < 4; ++m) {
    double maxAbs = 0;
    for (int64_t i = 0; i < 27; ++i)
      maxAbs = std::max(maxAbs, std::fabs(wq->initializer()->valueAsDouble(m * 27 + i)));
    EXPECT_EQ(maxAbs, 64) << "channel " << m;
  }
  EXPECT_TRUE(out.step.check.passed) << out.step.check.detail.str();
}

TEST(QuantizeDynamic, ConvLeftWhereItCannot) {
  expectUnchanged(kPass, convModel(), "Conv is not in op_types", {{"op_types", "MatMul,Gemm"}});
  expectUnchanged(kPass, R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,4,4] x, float[2,2,1,1] w) => (float[1,2,4,4] y) { y = Conv(x, w) })",
                  "the weight is not a float32 constant (an initializer or a Constant node)");
  expectUnchanged(kPass, R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,4,4] x, float[2] b) => (float[1,2,4,4] y) <float[2,2,1,1] w = {1, 2, 3, 4}> {
    y = Conv(x, w, b) })",
                  "B is not a float32 constant");
  PassOutcome bad = runPassMayFail(kPass, convModel(), {{"op_types", "Conv,Relu"}});
  EXPECT_TRUE(bad.step.rolledBack);
  EXPECT_NE(bad.step.error.str().find("op_types names 'Relu'"), std::string::npos)
      << bad.step.error.str();
}

// ---- subgraphs (#25) ----

const ir::Graph* thenBranch(const ir::Model& m) {
  for (const auto& n : m.graph().nodes())
    if (n->opType() == "If") return n->attr("then_branch")->g.get();
  return nullptr;
}

std::string bodyOps(const ir::Graph& g) {
  std::string out;
  for (const auto& n : g.nodes()) out += (out.empty() ? "" : ", ") + n->opType();
  return out;
}

// A MatMul in the then branch with a weight of the branch, one with a weight
// of the main graph.
const char* kIfMatMuls = R"(<ir_version: 8, opset_import: ["" : 13]>
main (bool[] c, float[2,4] x, float[2,2] z) => (float[2,2] y)
    <float[2,2] wo = {1, -0.5, 0.25, 2}> {
    y = If <then_branch = g1 () => (float[2,2] a)
               <float[4,2] w = {1, -2, 0.5, 0.75, -1, 0.25, 0.125, -1.5}> {
               t = MatMul(x, w)
               a = MatMul(t, wo) },
            else_branch = g2 () => (float[2,2] b) { b = Identity(z) }> (c) })";

TEST(QuantizeDynamic, MatMulsInsideAnIfBranchAreQuantized) {
  PassOutcome out = runPass(kPass, kIfMatMuls, {{"min_weights", "1"}});
  ASSERT_TRUE(out.step.changed) << io::printModelText(out.model);
  const ir::Graph* then = thenBranch(out.model);
  ASSERT_TRUE(then);
  size_t floatMatMuls = 0, integerMatMuls = 0;
  for (const auto& n : then->nodes()) {
    floatMatMuls += n->opType() == "MatMul";
    integerMatMuls += n->opType() == "MatMulInteger";
  }
  EXPECT_EQ(floatMatMuls, 0u) << bodyOps(*then);
  EXPECT_EQ(integerMatMuls, 2u) << bodyOps(*then);
  size_t int8Weights = 0;
  for (const ir::Value* v : then->initializers())
    int8Weights +=
        v->initializer()->dtype() == ir::DataType::kInt8 && v->initializer()->rank() == 2;
  EXPECT_EQ(int8Weights, 2u) << io::printModelText(out.model);  // both in the body
  EXPECT_EQ(then->outputs()[0]->type().elemType(), ir::DataType::kFloat);
  EXPECT_NE(out.step.note.str().find("2 of them inside subgraphs"), std::string::npos)
      << out.step.note.str();
  ASSERT_TRUE(out.step.check.ran) << out.step.check.detail.str();
  EXPECT_TRUE(out.step.check.passed) << out.step.check.detail.str();
  expectConverges(kPass, kIfMatMuls, {{"min_weights", "1"}});
}

TEST(QuantizeDynamic, WithoutSubgraphsTheNoteCountsTheBodyMatMulsLeft) {
  PassOutcome out = runPass(kPass, kIfMatMuls, {{"min_weights", "1"}, {"subgraphs", "false"}});
  EXPECT_FALSE(out.step.changed) << io::printModelText(out.model);
  EXPECT_EQ(bodyOps(*thenBranch(out.model)), "MatMul, MatMul");
  EXPECT_NE(out.step.note.str().find("2 MatMul, Gemm and Conv nodes inside subgraphs left float32"),
            std::string::npos)
      << out.step.note.str();
}

}  // namespace
}  // namespace passlab::testing
