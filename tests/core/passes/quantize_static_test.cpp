// quantize_static: INT8 static quantization in QDQ form. The placement (one
// Q/DQ pair per activation, int8 weights per output channel, int32 biases,
// the output after a Relu that alone reads it), the numbers (weights and the
// calibrated ranges by hand), outputs within the accuracy budget,
// convergence, and where it must not fire or must refuse.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>

#include "core/analysis/shape_inference.h"
#include "core/io/text_format.h"
#include "core/pipeline/calibration.h"
#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

const char* kPass = "quantize_static";

// The full int8 range whatever the CPU: reduce_range's default, auto, chooses
// 7 bits on a CPU without AVX-512 VNNI or AVX-VNNI (reduce_range_option_test).
const passes::Options kFullRange = {{"reduce_range", "false"}};

std::string opsOf(const ir::Model& m) {
  std::string out;
  for (const auto& n : m.graph().nodes()) out += (out.empty() ? "" : ", ") + n->opType();
  return out;
}

// `n` seeded values in [-1, 1], written for the text format.
std::string values(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-1, 1);
  std::ostringstream os;
  for (size_t i = 0; i < n; ++i) os << (i ? ", " : "") << d(rng);
  return os.str();
}

// Two 3x3 convolutions with a Relu between them.
std::string convNet(int opset = 13) {
  return "<ir_version: 8, opset_import: [\"\" : " + std::to_string(opset) +
         "]>\n"
         "main (float[1,2,6,6] x) => (float[1,2,6,6] y)\n"
         "    <float[3,2,3,3] w1 = {" +
         values(54, 1) + "}, float[3] b1 = {0.1, -0.2, 0.3}, float[2,3,3,3] w2 = {" +
         values(54, 2) +
         "}> {\n"
         "    c = Conv <pads = [1, 1, 1, 1]> (x, w1, b1)\n"
         "    r = Relu(c)\n"
         "    y = Conv <pads = [1, 1, 1, 1]> (r, w2) }";
}

pipeline::CalibratingEvaluator synthesized(int sets = 8) {
  return pipeline::CalibratingEvaluator(
      [sets](const ir::Model& m) {
        return pipeline::synthesizedCalibrationSets(m, pipeline::InputSpec{}, sets);
      },
      static_cast<size_t>(sets));
}

// Whether some node's explanation contains `text`.
bool explains(const pipeline::Step& step, const std::string& text) {
  for (const auto& [node, reasons] : step.explain.all())
    for (const auto& [pattern, reason] : *reasons)
      if (reason.str().find(text) != std::string::npos) return true;
  return false;
}

const ir::Node* nodeWithOutput(const ir::Model&, const ir::Value* v) {
  return v ? v->producer() : nullptr;
}

const ir::Tensor* constantInput(const ir::Node& n, size_t i) {
  const ir::Value* v = n.input(i);
  return v && v->initializer() ? v->initializer() : nullptr;
}

TEST(QuantizeStatic, ConvolutionsBecomeQdqNodeUnits) {
  auto eval = synthesized();
  PassOutcome out = runPass(kPass, convNet(), kFullRange, &eval);
  ASSERT_TRUE(out.step.changed) << out.step.error.str();
  EXPECT_EQ(opsOf(out.model),
            "QuantizeLinear, DequantizeLinear, DequantizeLinear, DequantizeLinear, Conv, Relu, "
            "QuantizeLinear, DequantizeLinear, DequantizeLinear, Conv")
      << io::printModelText(out.model);
  const ir::Node* conv1 = nullptr;
  const ir::Node* conv2 = nullptr;
  for (const auto& n : out.model.graph().nodes())
    if (n->opType() == "Conv") (conv1 ? conv2 : conv1) = n.get();
  ASSERT_TRUE(conv1 && conv2);
  // Every input of the first Conv is dequantized: x (uint8), w1 (int8, per
  // output channel on axis 0), b1 (int32, scale x_scale * w_scale).
  for (size_t i = 0; i < 3; ++i)
    EXPECT_EQ(nodeWithOutput(out.model, conv1->input(i))->opType(), "DequantizeLinear") << i;
  const ir::Node* wdq = conv1->input(1)->producer();
  EXPECT_EQ(constantInput(*wdq, 0)->dtype(), ir::DataType::kInt8);
  EXPECT_EQ(constantInput(*wdq, 1)->numel(), 3);
  EXPECT_EQ(wdq->attrInt("axis", -1), 0);
  const ir::Node* xdq = conv1->input(0)->producer();
  const ir::Node* bdq = conv1->input(2)->producer();
  EXPECT_EQ(constantInput(*bdq, 0)->dtype(), ir::DataType::kInt32);
  const double xs = constantInput(*xdq, 1)->valueAsDouble(0);
  for (int64_t c = 0; c < 3; ++c)
    EXPECT_FLOAT_EQ(static_cast<float>(constantInput(*bdq, 1)->valueAsDouble(c)),
                    static_cast<float>(xs * constantInput(*wdq, 1)->valueAsDouble(c)));
  // The weights round to the nearest step of max|w_c| / 127.
  const ir::Tensor& w = *constantInput(*wdq, 0);
  int64_t extremes = 0;
  for (int64_t i = 0; i < w.numel(); ++i) extremes += std::fabs(w.valueAsDouble(i)) == 127;
  EXPECT_GE(extremes, 3) << "each channel's largest weight is +-127";
  // The second Conv reads the Relu's output through one Q/DQ pair with zero
  // point 0: the Relu's clamp is carried by the range.
  const ir::Node* rdq = conv2->input(0)->producer();
  ASSERT_EQ(rdq->opType(), "DequantizeLinear");
  EXPECT_EQ(rdq->input(0)->producer()->input(0)->producer()->opType(), "Relu");
  EXPECT_EQ(constantInput(*rdq, 2)->dtype(), ir::DataType::kUInt8);
  EXPECT_EQ(constantInput(*rdq, 2)->valueAsDouble(0), 0);
  EXPECT_TRUE(out.step.check.passed) << out.step.check.detail.str();
  EXPECT_NE(out.step.note.str().find("2 ops quantized to int8"), std::string::npos)
      << out.step.note.str();
}

TEST(QuantizeStatic, AMaxPoolsOutputSharesItsInputsScaleAndZeroPoint) {
  // Conv -> Relu -> MaxPool -> Conv: the pooled tensor is quantized with the
  // Relu output's scale and zero point, so that the MaxPool can run on the
  // 8-bit values (fuse_qdq_into_qlinear); the tensor Pad writes between
  // them, which no Conv reads, gets the pair too.
  for (const bool pad : {false, true}) {
    const std::string model =
        "<ir_version: 8, opset_import: [\"\" : 13]>\n"
        "main (float[1,2,6,6] x) => (float[1,2,3,3] y)\n"
        "    <float[3,2,3,3] w1 = {" +
        values(54, 1) + "}, float[2,3,1,1] w2 = {" + values(6, 2) +
        "}, int64[8] pads = {0, 0, 0, 0, 0, 0, 1, 1}> {\n"
        "    c = Conv <pads = [1, 1, 1, 1]> (x, w1)\n"
        "    r = Relu(c)\n" +
        (pad ? "    p = Pad(r, pads)\n    m = MaxPool <kernel_shape = [3, 3], strides = [2, 2]> "
               "(p)\n"
             : "    m = MaxPool <kernel_shape = [2, 2], strides = [2, 2]> (r)\n") +
        "    y = Conv(m, w2) }";
    auto eval = synthesized();
    PassOutcome out = runPass(kPass, model, {}, &eval);
    ASSERT_TRUE(out.step.changed) << out.step.error.str();
    const ir::Node* pool = nullptr;
    for (const auto& n : out.model.graph().nodes())
      if (n->opType() == "MaxPool") pool = n.get();
    ASSERT_NE(pool, nullptr);
    // The DQ -> [Pad -> Q -> DQ ->] MaxPool -> Q chain: every pair has the
    // Relu output's parameters.
    const ir::Node* outQ = pool->output(0)->uses()[0].node;
    ASSERT_EQ(outQ->opType(), "QuantizeLinear") << io::printModelText(out.model);
    std::vector<const ir::Node*> pairs{outQ};
    const ir::Node* inDq = pool->input(0)->producer();
    ASSERT_EQ(inDq->opType(), "DequantizeLinear") << io::printModelText(out.model);
    if (pad) {
      const ir::Node* padNode = inDq->input(0)->producer()->input(0)->producer();
      ASSERT_EQ(padNode->opType(), "Pad") << io::printModelText(out.model);
      pairs.push_back(inDq);
      inDq = padNode->input(0)->producer();
      ASSERT_EQ(inDq->opType(), "DequantizeLinear") << io::printModelText(out.model);
    }
    EXPECT_EQ(inDq->input(0)->producer()->input(0)->producer()->opType(), "Relu");
    for (const ir::Node* n : pairs) {
      EXPECT_EQ(constantInput(*n, 1)->valueAsDouble(0), constantInput(*inDq, 1)->valueAsDouble(0))
          << n->name();
      EXPECT_EQ(constantInput(*n, 2)->valueAsDouble(0), constantInput(*inDq, 2)->valueAsDouble(0))
          << n->name();
    }
    EXPECT_TRUE(out.step.check.passed) << out.step.check.detail.str();
  }
}

TEST(QuantizeStatic, TheCalibratedRangeIsTheObservedOne) {
  // y = MatMul(x, w) with x from a fixed input: MinMax gives x's range exactly.
  const char* model = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2,2] x) => (float[2,2] y) <float[2,2] w = {1, -2, 0.5, 4}> {
    y = MatMul(x, w) })";
  ir::Tensor x = ir::Tensor::fromVector<float>(ir::DataType::kFloat, {2, 2}, {-1, 0.5, 2, 3});
  pipeline::CalibratingEvaluator eval(std::vector<exec::NamedInputs>{{{"x", exec::Value(x)}}});
  PassOutcome out = runPass(kPass, model, kFullRange, &eval);
  ASSERT_TRUE(out.step.changed) << out.step.error.str();
  const ir::Node* mm = nullptr;
  for (const auto& n : out.model.graph().nodes())
    if (n->opType() == "MatMul") mm = n.get();
  ASSERT_NE(mm, nullptr);
  const ir::Node* xdq = mm->input(0)->producer();
  // [-1, 3] -> scale 4/255, zero point 64.
  EXPECT_FLOAT_EQ(static_cast<float>(constantInput(*xdq, 1)->valueAsDouble(0)), 4.0f / 255);
  EXPECT_EQ(constantInput(*xdq, 2)->valueAsDouble(0), 64);
  // MatMul weights per output column (axis 1): max |w| 1 and 4.
  const ir::Node* wdq = mm->input(1)->producer();
  EXPECT_EQ(wdq->attrInt("axis", -1), 1);
  EXPECT_FLOAT_EQ(static_cast<float>(constantInput(*wdq, 1)->valueAsDouble(0)), 1.0f / 127);
  EXPECT_FLOAT_EQ(static_cast<float>(constantInput(*wdq, 1)->valueAsDouble(1)), 4.0f / 127);
}

// Issue #25: ONNX Runtime's ActivationSymmetric and WeightSymmetric=False.
// The model of TheCalibratedRangeIsTheObservedOne: x in [-1, 3], weight
// columns {1, 0.5} and {-2, 4}; the numbers by hand.
TEST(QuantizeStatic, SymmetricActivationsAndAsymmetricWeights) {
  const char* model = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2,2] x) => (float[2,2] y) <float[2,2] w = {1, -2, 0.5, 4}> {
    y = MatMul(x, w) })";
  ir::Tensor x = ir::Tensor::fromVector<float>(ir::DataType::kFloat, {2, 2}, {-1, 0.5, 2, 3});
  auto run = [&](const passes::Options& options) {
    pipeline::CalibratingEvaluator eval(std::vector<exec::NamedInputs>{{{"x", exec::Value(x)}}});
    PassOutcome out = runPass(kPass, model, options, &eval);
    EXPECT_TRUE(out.step.changed) << out.step.error.str();
    const ir::Node* mm = nullptr;
    for (const auto& n : out.model.graph().nodes())
      if (n->opType() == "MatMul") mm = n.get();
    EXPECT_NE(mm, nullptr);
    return std::make_pair(std::move(out), mm);
  };
  {
    // uint8: [-3, 3] onto [0, 255], zero point 128 (asymmetric: 4/255 and 64).
    auto [out, mm] = run({{"activation_symmetric", "true"}});
    ASSERT_NE(mm, nullptr);
    const ir::Node* xdq = mm->input(0)->producer();
    EXPECT_FLOAT_EQ(static_cast<float>(constantInput(*xdq, 1)->valueAsDouble(0)), 6.0f / 255);
    EXPECT_EQ(constantInput(*xdq, 2)->valueAsDouble(0), 128);
    // The weights stay symmetric.
    EXPECT_EQ(constantInput(*mm->input(1)->producer(), 2)->valueAsDouble(1), 0);
  }
  {
    // int8: [-3, 3] onto [-127, 127], zero point 0.
    auto [out, mm] = run({{"activation_symmetric", "true"}, {"activation_type", "int8"}});
    ASSERT_NE(mm, nullptr);
    const ir::Node* xdq = mm->input(0)->producer();
    EXPECT_FLOAT_EQ(static_cast<float>(constantInput(*xdq, 1)->valueAsDouble(0)), 3.0f / 127);
    EXPECT_EQ(constantInput(*xdq, 2)->valueAsDouble(0), 0);
    EXPECT_EQ(constantInput(*xdq, 2)->dtype(), ir::DataType::kInt8);
  }
  {
    // Column 0 in [0, 1]: scale 1/255, zero point -128; column 1 in [-2, 4]:
    // scale 6/255, zero point round(-128 + 2 / (6/255)) = -43. The activation
    // keeps its asymmetric 4/255 and 64.
    auto [out, mm] = run({{"weight_symmetric", "false"}, {"reduce_range", "false"}});
    ASSERT_NE(mm, nullptr);
    const ir::Node* wdq = mm->input(1)->producer();
    EXPECT_EQ(wdq->attrInt("axis", -1), 1);
    const ir::Tensor& q = *constantInput(*wdq, 0);
    const ir::Tensor& scale = *constantInput(*wdq, 1);
    const ir::Tensor& zero = *constantInput(*wdq, 2);
    ASSERT_EQ(zero.dtype(), ir::DataType::kInt8);
    EXPECT_FLOAT_EQ(static_cast<float>(scale.valueAsDouble(0)), 1.0f / 255);
    EXPECT_FLOAT_EQ(static_cast<float>(scale.valueAsDouble(1)), 6.0f / 255);
    EXPECT_EQ(zero.valueAsDouble(0), -128);
    EXPECT_EQ(zero.valueAsDouble(1), -43);
    // Dequantized, each weight is within half a step of its value.
    const float w[4] = {1, -2, 0.5, 4};
    for (int64_t i = 0; i < 4; ++i) {
      const double s = scale.valueAsDouble(i % 2);
      EXPECT_NEAR((q.valueAsDouble(i) - zero.valueAsDouble(i % 2)) * s, w[i], s / 2 + 1e-7) << i;
    }
    const ir::Node* xdq = mm->input(0)->producer();
    EXPECT_FLOAT_EQ(static_cast<float>(constantInput(*xdq, 1)->valueAsDouble(0)), 4.0f / 255);
  }
}

// Both options on the two convolutions: within the budget, with weight zero
// points other than 0.
TEST(QuantizeStatic, SymmetricActivationsAndAsymmetricWeightsStayWithinTheBudget) {
  for (const char* type : {"uint8", "int8"}) {
    auto eval = synthesized();
    PassOutcome out = runPass(kPass, convNet(),
                              {{"activation_symmetric", "true"},
                               {"weight_symmetric", "false"},
                               {"activation_type", type}},
                              &eval);
    ASSERT_TRUE(out.step.changed) << type << ": " << out.step.error.str();
    EXPECT_TRUE(out.step.check.passed) << type << ": " << out.step.check.detail.str();
    ASSERT_FALSE(out.step.check.accuracy.empty());
    EXPECT_GT(out.step.check.accuracy[0].snrDb, 20) << type;
    int nonzero = 0;
    for (const auto& n : out.model.graph().nodes())
      if (n->opType() == "DequantizeLinear" && constantInput(*n, 0) &&
          constantInput(*n, 0)->dtype() == ir::DataType::kInt8 && constantInput(*n, 2))
        for (int64_t i = 0; i < constantInput(*n, 2)->numel(); ++i)
          nonzero += constantInput(*n, 2)->valueAsDouble(i) != 0;
    EXPECT_GT(nonzero, 0) << "no weight zero point other than 0: " << type;
  }
}

TEST(QuantizeStatic, EveryMethodStaysWithinTheBudget) {
  for (const char* method : {"minmax", "percentile", "entropy"}) {
    auto eval = synthesized();
    PassOutcome out = runPass(kPass, convNet(), {{"method", method}}, &eval);
    ASSERT_TRUE(out.step.changed) << method << ": " << out.step.error.str();
    EXPECT_TRUE(out.step.check.passed) << method << ": " << out.step.check.detail.str();
    ASSERT_FALSE(out.step.check.accuracy.empty());
    EXPECT_GT(out.step.check.accuracy[0].snrDb, 20) << method;
  }
}

TEST(QuantizeStatic, PerTensorAndInt8Activations) {
  auto eval = synthesized();
  PassOutcome out =
      runPass(kPass, convNet(), {{"per_channel", "false"}, {"activation_type", "int8"}}, &eval);
  ASSERT_TRUE(out.step.changed) << out.step.error.str();
  for (const auto& n : out.model.graph().nodes()) {
    if (n->opType() != "DequantizeLinear") continue;
    EXPECT_EQ(constantInput(*n, 1)->numel(), 1) << "one scale per tensor";
    EXPECT_FALSE(n->hasAttr("axis"));
    const ir::DataType t = constantInput(*n, 2)->dtype();
    EXPECT_TRUE(t == ir::DataType::kInt8 || t == ir::DataType::kInt32);
  }
  EXPECT_TRUE(out.step.check.passed) << out.step.check.detail.str();
}

TEST(QuantizeStatic, ReduceRangeQuantizesTheWeightsInSevenBits) {
  // ONNX Runtime's reduce_range: weights in [-64, 64], scale max|w_c| / 64,
  // so that a CPU without VNNI cannot saturate its 16-bit u8 x s8 pair sums.
  auto eval = synthesized();
  PassOutcome out = runPass(kPass, convNet(), {{"reduce_range", "true"}}, &eval);
  ASSERT_TRUE(out.step.changed) << out.step.error.str();
  int weights = 0;
  for (const auto& n : out.model.graph().nodes()) {
    if (n->opType() != "DequantizeLinear" || constantInput(*n, 0) == nullptr ||
        constantInput(*n, 0)->dtype() != ir::DataType::kInt8)
      continue;
    ++weights;
    const ir::Tensor& w = *constantInput(*n, 0);
    double maxAbs = 0;
    for (int64_t i = 0; i < w.numel(); ++i)
      maxAbs = std::max(maxAbs, std::fabs(w.valueAsDouble(i)));
    EXPECT_EQ(maxAbs, 64) << n->name();
  }
  EXPECT_EQ(weights, 2) << io::printModelText(out.model);
  EXPECT_TRUE(out.step.check.passed) << out.step.check.detail.str();
  EXPECT_NE(out.step.note.str().find("7 bits"), std::string::npos) << out.step.note.str();
  // The same weights' scales are twice (127 / 64) those of the full range.
  auto eval2 = synthesized();
  PassOutcome full = runPass(kPass, convNet(), kFullRange, &eval2);
  auto firstWeightScale = [](const ir::Model& m) {
    for (const auto& n : m.graph().nodes())
      if (n->opType() == "DequantizeLinear" && constantInput(*n, 0) &&
          constantInput(*n, 0)->dtype() == ir::DataType::kInt8)
        return constantInput(*n, 1)->valueAsDouble(0);
    return 0.0;
  };
  EXPECT_NEAR(firstWeightScale(out.model) / firstWeightScale(full.model), 127.0 / 64.0, 1e-5);
}

TEST(QuantizeStatic, BelowOpset13TheWeightsArePerTensor) {
  // DequantizeLinear has no axis before opset 13.
  auto eval = synthesized();
  PassOutcome out = runPass(kPass, convNet(11), {}, &eval);
  ASSERT_TRUE(out.step.changed) << out.step.error.str();
  for (const auto& n : out.model.graph().nodes())
    if (n->opType() == "DequantizeLinear") EXPECT_FALSE(n->hasAttr("axis"));
}

TEST(QuantizeStatic, Converges) {
  auto eval = synthesized();
  PassOutcome once = runPass(kPass, convNet(), {}, &eval);
  ASSERT_TRUE(once.step.changed);
  auto eval2 = synthesized();
  PassOutcome twice = runPass(kPass, once.model.clone(), {}, &eval2);
  EXPECT_FALSE(twice.step.changed) << io::printModelText(twice.model);
}

TEST(QuantizeStatic, WithoutCalibrationDataItRefusesAndChangesNothing) {
  PassOutcome out = runPassMayFail(kPass, convNet());  // the plain evaluator: no input sets
  EXPECT_FALSE(out.step.changed);
  EXPECT_TRUE(out.step.rolledBack);
  EXPECT_NE(out.step.error.str().find("no calibration data"), std::string::npos)
      << out.step.error.str();
}

TEST(QuantizeStatic, BadOptionsAreRefusedNamingThem) {
  struct Case {
    passes::Options options;
    const char* says;
  };
  for (const Case& c :
       {Case{{{"method", "kl"}}, "method 'kl'"}, Case{{{"percentile", "20"}}, "percentile 20"},
        Case{{{"activation_type", "int4"}}, "activation_type 'int4'"},
        Case{{{"op_types", "Conv,Relu"}}, "'Relu'"}}) {
    auto eval = synthesized();
    PassOutcome out = runPassMayFail(kPass, convNet(), c.options, &eval);
    EXPECT_FALSE(out.step.changed) << c.says;
    EXPECT_TRUE(out.step.rolledBack) << c.says;
    EXPECT_NE(out.step.error.str().find(c.says), std::string::npos) << out.step.error.str();
  }
}

// One attention head: projections with weights, then the two MatMuls of two
// activations (scores = q * k^T, then softmax(scores) * v) and an output
// projection.
std::string attention() {
  return "<ir_version: 8, opset_import: [\"\" : 13]>\n"
         "main (float[2,6,8] x) => (float[2,6,8] y)\n"
         "    <float[8,8] wq = {" +
         values(64, 3) + "}, float[8,8] wk = {" + values(64, 4) + "}, float[8,8] wv = {" +
         values(64, 5) + "}, float[8,8] wo = {" + values(64, 6) +
         "}, float scale = {0.35}> {\n"
         "    q = MatMul(x, wq)\n"
         "    k = MatMul(x, wk)\n"
         "    v = MatMul(x, wv)\n"
         "    kt = Transpose <perm = [0, 2, 1]> (k)\n"
         "    s = MatMul(q, kt)\n"
         "    t = Mul(s, scale)\n"
         "    p = Softmax <axis = -1> (t)\n"
         "    o = MatMul(p, v)\n"
         "    y = MatMul(o, wo) }";
}

// The MatMul whose output is named `out` in `m`, found through the value it
// feeds (the pass renames nothing it keeps).
const ir::Node* matMulWritingTo(const ir::Model& m, const std::string& out) {
  for (const auto& n : m.graph().nodes())
    if (n->opType() == "MatMul" && n->output(0)->name() == out) return n.get();
  return nullptr;
}

bool readsDequantized(const ir::Node& n, size_t i) {
  const ir::Node* p = n.input(i)->producer();
  return p && p->opType() == "DequantizeLinear";
}

TEST(QuantizeStatic, AttentionMatMulsOfTwoActivationsBecomeNodeUnits) {
  auto eval = synthesized();
  PassOutcome out = runPass(kPass, attention(), {}, &eval);
  ASSERT_TRUE(out.step.changed) << out.step.error.str();
  for (const char* name : {"s", "o"}) {
    const ir::Node* mm = matMulWritingTo(out.model, name);
    ASSERT_NE(mm, nullptr) << name;
    EXPECT_TRUE(readsDequantized(*mm, 0)) << name << ": A through Q/DQ";
    EXPECT_TRUE(readsDequantized(*mm, 1)) << name << ": B through Q/DQ";
    const ir::Node* bq = mm->input(1)->producer()->input(0)->producer();
    ASSERT_TRUE(bq && bq->opType() == "QuantizeLinear");
    EXPECT_EQ(bq->input(0)->producer()->opType(), name == std::string("s") ? "Transpose" : "MatMul")
        << "B's pair quantizes the activation itself";
    EXPECT_EQ(constantInput(*mm->input(1)->producer(), 1)->numel(), 1) << "B per tensor";
    ASSERT_EQ(mm->output(0)->uses().size(), 1u);
    EXPECT_EQ(mm->output(0)->uses()[0].node->opType(), "QuantizeLinear") << name << "'s output";
  }
  EXPECT_NE(out.step.note.str().find("6 ops quantized to int8"), std::string::npos)
      << out.step.note.str();
}

TEST(QuantizeStatic, AttentionStaysWithinTheBudgetAndFusesIntoQLinearMatMuls) {
  auto eval = synthesized();
  PassOutcome q = runPass(kPass, attention(), {}, &eval);
  ASSERT_TRUE(q.step.changed);
  EXPECT_TRUE(q.step.check.passed) << q.step.check.detail.str();
  ASSERT_FALSE(q.step.check.accuracy.empty());
  EXPECT_GT(q.step.check.accuracy[0].snrDb, 20);
  PassOutcome f = runPass("fuse_qdq_into_qlinear", q.model.clone());
  ASSERT_TRUE(f.step.changed) << f.step.error.str();
  int qlinear = 0, matmul = 0;
  for (const auto& n : f.model.graph().nodes()) {
    qlinear += n->opType() == "QLinearMatMul";
    matmul += n->opType() == "MatMul";
  }
  // All but the output projection, whose output is the graph's (not quantized).
  EXPECT_EQ(qlinear, 5) << opsOf(f.model);
  EXPECT_EQ(matmul, 1) << opsOf(f.model);
  EXPECT_NE(matMulWritingTo(f.model, "y"), nullptr);
  EXPECT_EQ(matMulWritingTo(f.model, "s"), nullptr) << "the scores are a QLinearMatMul";
  auto before = io::parseModelText(attention());
  ASSERT_TRUE(before);
  const NumericResult r = compareWithinBudget(*before, f.model);
  EXPECT_TRUE(r.ran) << r.detail;
  EXPECT_TRUE(r.equal) << r.detail;
}

TEST(QuantizeStatic, ConvergesOnAttention) {
  auto eval = synthesized();
  PassOutcome once = runPass(kPass, attention(), {}, &eval);
  ASSERT_TRUE(once.step.changed);
  auto eval2 = synthesized();
  PassOutcome twice = runPass(kPass, once.model.clone(), {}, &eval2);
  EXPECT_FALSE(twice.step.changed) << io::printModelText(twice.model);
}

TEST(QuantizeStatic, MatMulConstBOnlyLeavesTheAttentionMatMulsFloat) {
  auto eval = synthesized();
  PassOutcome out = runPass(kPass, attention(), {{"matmul_const_b_only", "true"}}, &eval);
  ASSERT_TRUE(out.step.changed);
  EXPECT_TRUE(explains(out.step, "matmul_const_b_only is set"));
  // scores = q * k^T: q is a projection's quantized output, but k^T is read
  // float and the scores are not quantized.
  const ir::Node* s = matMulWritingTo(out.model, "s");
  ASSERT_NE(s, nullptr);
  EXPECT_FALSE(readsDequantized(*s, 1));
  EXPECT_EQ(s->output(0)->uses()[0].node->opType(), "Mul");
  // softmax * v: the softmax is read float.
  const ir::Node* o = matMulWritingTo(out.model, "o");
  ASSERT_NE(o, nullptr);
  EXPECT_FALSE(readsDequantized(*o, 0));
  EXPECT_NE(out.step.note.str().find("4 ops quantized to int8"), std::string::npos)
      << out.step.note.str();
}

TEST(QuantizeStatic, AWeightComputedFromConstantsIsNotTakenForAnActivation) {
  // B = Reshape(w): a weight not stored yet (fold_constants stores it), not
  // an activation to calibrate.
  const char* model = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2,2] a) => (float[2,2] y) <float[4] w = {0.5, -1, 0.25, 2}, int64[2] s = {2, 2}> {
    b = Reshape(w, s)
    c = MatMul(a, b)
    y = Relu(c) })";
  auto eval = synthesized();
  PassOutcome out = runPass(kPass, model, {}, &eval);
  EXPECT_FALSE(out.step.changed) << io::printModelText(out.model);
  EXPECT_TRUE(explains(out.step, "not a constant initializer"));
}

TEST(QuantizeStatic, LeavesAMatMulOfTwoActivationsWithoutMatMulInOpTypes) {
  const char* model = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2,3] a, float[3,2] b) => (float[2,2] y) {
    y = MatMul(a, b) })";
  auto eval = synthesized();
  PassOutcome both = runPass(kPass, model, {}, &eval);
  EXPECT_TRUE(both.step.changed) << "two graph inputs: quantized";
  auto eval2 = synthesized();
  PassOutcome out = runPass(kPass, model, {{"op_types", "Conv,Gemm"}}, &eval2);
  EXPECT_FALSE(out.step.changed);
}

TEST(QuantizeStatic, AWeightStoredAsAConstantNodeIsQuantizedAndTheFloatCopyGoes) {
  const char* model = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2,2] x) => (float[2,2] y) {
    w = Constant <value = float[2,2] {1, -2, 0.5, 4}> ()
    y = MatMul(x, w) })";
  auto eval = synthesized();
  PassOutcome out = runPass(kPass, model, {}, &eval);
  ASSERT_TRUE(out.step.changed) << out.step.error.str();
  EXPECT_EQ(opsOf(out.model), "QuantizeLinear, DequantizeLinear, DequantizeLinear, MatMul")
      << io::printModelText(out.model);
  EXPECT_TRUE(out.step.check.passed) << out.step.check.detail.str();
}

TEST(QuantizeStatic, LeavesAGemmWhoseCIsNotOneValuePerColumn) {
  const char* model = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2,2] x) => (float[2,2] y) <float[2,2] w = {1, 2, 3, 4}, float[1] c = {0.5}> {
    y = Gemm(x, w, c) })";
  auto eval = synthesized();
  PassOutcome out = runPass(kPass, model, {}, &eval);
  EXPECT_FALSE(out.step.changed);
  EXPECT_TRUE(explains(out.step, "one value per column"));
}

TEST(QuantizeStatic, LeavesAGemmWithAlpha) {
  const char* model = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2,2] x) => (float[2,2] y) <float[2,2] w = {1, 2, 3, 4}> {
    y = Gemm <alpha = 0.5> (x, w) })";
  auto eval = synthesized();
  PassOutcome out = runPass(kPass, model, {}, &eval);
  EXPECT_FALSE(out.step.changed);
  EXPECT_TRUE(explains(out.step, "alpha"));
}

TEST(QuantizeStatic, AConcatsInputsAndOutputShareOneRange) {
  // Two 1x1 convolutions with Relus, concatenated, read by a third.
  const std::string model =
      "<ir_version: 8, opset_import: [\"\" : 13]>\n"
      "main (float[1,2,4,4] x) => (float[1,2,4,4] y)\n"
      "    <float[2,2,1,1] w1 = {" +
      values(4, 5) + "}, float[2,2,1,1] w2 = {" + values(4, 6) + "}, float[2,4,1,1] w3 = {" +
      values(8, 7) +
      "}> {\n"
      "    c1 = Conv(x, w1)\n    r1 = Relu(c1)\n"
      "    c2 = Conv(x, w2)\n    r2 = Mul(c2, c2)\n"
      "    r2b = Relu(r2)\n"
      "    k = Concat <axis = 1> (r1, c2)\n"
      "    y = Conv(k, w3) }";
  auto eval = synthesized();
  PassOutcome out = runPass(kPass, model, {}, &eval);
  ASSERT_TRUE(out.step.changed) << out.step.error.str();
  const ir::Node* cat = nullptr;
  for (const auto& n : out.model.graph().nodes())
    if (n->opType() == "Concat") cat = n.get();
  ASSERT_NE(cat, nullptr);
  // Every Concat input is a DequantizeLinear with the scale of the one after the Concat.
  const ir::Value* outScale = nullptr;
  for (const ir::Use& u : cat->output(0)->uses())
    if (u.node->opType() == "QuantizeLinear") outScale = u.node->input(1);
  ASSERT_NE(outScale, nullptr) << io::printModelText(out.model);
  for (const ir::Value* in : cat->inputs()) {
    const ir::Node* dq = in->producer();
    ASSERT_EQ(dq->opType(), "DequantizeLinear") << io::printModelText(out.model);
    EXPECT_EQ(constantInput(*dq, 1)->valueAsDouble(0), outScale->initializer()->valueAsDouble(0));
  }
  EXPECT_TRUE(out.step.check.passed) << out.step.check.detail.str();
}

// A residual block: x -> Conv -> Relu (r) -> Conv (c) -> Add(c, r) -> Relu
// -> Conv; `extra` replaces the Add's second input (e.g. with a constant).
std::string residualNet(const std::string& second = "r") {
  return "<ir_version: 8, opset_import: [\"\" : 13]>\n"
         "main (float[1,2,5,5] x) => (float[1,2,5,5] y)\n"
         "    <float[2,2,3,3] w1 = {" +
         values(36, 11) + "}, float[2,2,3,3] w2 = {" + values(36, 12) + "}, float[2,2,1,1] w3 = {" +
         values(4, 13) +
         "}, float[1,2,1,1] k = {0.5, -0.25}> {\n"
         "    c1 = Conv <pads = [1, 1, 1, 1]> (x, w1)\n"
         "    r = Relu(c1)\n"
         "    c = Conv <pads = [1, 1, 1, 1]> (r, w2)\n"
         "    a = Add(c, " +
         second +
         ")\n"
         "    ra = Relu(a)\n"
         "    y = Conv(ra, w3) }";
}

TEST(QuantizeStatic, AnAddOfTwoQuantizedActivationsBecomesANodeUnit) {
  auto eval = synthesized();
  PassOutcome out = runPass(kPass, residualNet(), {}, &eval);
  ASSERT_TRUE(out.step.changed) << out.step.error.str();
  const ir::Node* add = nullptr;
  for (const auto& n : out.model.graph().nodes())
    if (n->opType() == "Add") add = n.get();
  ASSERT_NE(add, nullptr);
  // Both inputs dequantized; the Relu after it alone reads it and its output
  // is quantized with zero point 0 (the clamp carried by the range).
  for (size_t i = 0; i < 2; ++i)
    EXPECT_EQ(add->input(i)->producer()->opType(), "DequantizeLinear")
        << i << io::printModelText(out.model);
  const ir::Node* relu = add->output(0)->uses()[0].node;
  ASSERT_EQ(relu->opType(), "Relu");
  ASSERT_EQ(relu->output(0)->uses().size(), 1u);
  const ir::Node* q = relu->output(0)->uses()[0].node;
  ASSERT_EQ(q->opType(), "QuantizeLinear") << io::printModelText(out.model);
  EXPECT_EQ(constantInput(*q, 2)->valueAsDouble(0), 0);
  EXPECT_TRUE(out.step.check.passed) << out.step.check.detail.str();
  EXPECT_NE(out.step.note.str().find("4 ops quantized to int8"), std::string::npos)
      << out.step.note.str();
}

TEST(QuantizeStatic, AResidualBlockWithItsAddStaysWithinTheBudgetAndFuses) {
  // quantize_static, then fuse_qdq_into_qlinear: the Add becomes QLinearAdd
  // (and its Relu goes); the outputs stay within the accuracy budget.
  auto eval = synthesized();
  PassOutcome q = runPass(kPass, residualNet(), {}, &eval);
  ASSERT_TRUE(q.step.changed);
  EXPECT_TRUE(q.step.check.passed) << q.step.check.detail.str();
  PassOutcome f = runPass("fuse_qdq_into_qlinear", q.model.clone());
  ASSERT_TRUE(f.step.changed) << f.step.error.str();
  EXPECT_NE(opsOf(f.model).find("QLinearAdd"), std::string::npos) << opsOf(f.model);
  EXPECT_EQ(opsOf(f.model).find("Relu"), std::string::npos) << opsOf(f.model);
  auto before = io::parseModelText(residualNet());
  ASSERT_TRUE(before);
  const NumericResult r = compareWithinBudget(*before, f.model);
  EXPECT_TRUE(r.equal) << r.detail;
}

TEST(QuantizeStatic, ConvergesOnAResidualBlock) {
  auto eval = synthesized();
  PassOutcome once = runPass(kPass, residualNet(), {}, &eval);
  ASSERT_TRUE(once.step.changed);
  auto eval2 = synthesized();
  PassOutcome twice = runPass(kPass, once.model.clone(), {}, &eval2);
  EXPECT_FALSE(twice.step.changed) << io::printModelText(twice.model);
}

TEST(QuantizeStatic, LeavesAnAddOfAConstantOrWithoutAddInOpTypes) {
  // A constant second input, bias Adds off: the Add stays float, with the reason.
  auto eval = synthesized();
  PassOutcome out = runPass(kPass, residualNet("k"), {{"quantize_bias_adds", "false"}}, &eval);
  ASSERT_TRUE(out.step.changed);
  EXPECT_TRUE(explains(out.step, "not an activation quantized")) << io::printModelText(out.model);
  for (const auto& n : out.model.graph().nodes()) {
    if (n->opType() != "Add") continue;
    EXPECT_NE(n->input(1)->producer() ? n->input(1)->producer()->opType() : "", "DequantizeLinear")
        << "the constant stays float";
  }
  // op_types without Add: the Add's output is quantized only for the Conv
  // after its Relu, and the note counts the three convolutions.
  auto eval2 = synthesized();
  PassOutcome convs = runPass(kPass, residualNet(), {{"op_types", "Conv"}}, &eval2);
  ASSERT_TRUE(convs.step.changed);
  EXPECT_NE(convs.step.note.str().find("3 ops quantized to int8"), std::string::npos)
      << convs.step.note.str();
}

// A transformer layer's bias Adds: a projection (MatMul + bias Add) into a
// residual Add and LayerNormalization, and a fused two-way projection split
// into two biased halves (as --level default writes Q, K and V).
// `reader` (e.g. "Tanh") is put between the first bias Add and the residual Add.
std::string biasBlock(const std::string& reader = "") {
  return "<ir_version: 8, opset_import: [\"\" : 17]>\n"
         "main (float[2,6,8] x) => (float[2,6,8] y)\n"
         "    <float[8,8] w1 = {" +
         values(64, 21) + "}, float[8] b1 = {" + values(8, 22) + "}, float[8,16] w2 = {" +
         values(128, 23) + "}, float[8] b2 = {" + values(8, 24) + "}, float[8] b3 = {" +
         values(8, 25) + "}, float[8,8] w3 = {" + values(64, 26) +
         "}, int64[2] sp = {8, 8}, float[8] g = {1, 1, 1, 1, 1, 1, 1, 1}, float[8] be = {0, 0, 0, "
         "0, 0, 0, 0, 0}> {\n"
         "    h = MatMul(x, w1)\n"
         "    hb = Add(h, b1)\n" +
         (reader.empty() ? std::string("    r = Add(hb, x)\n")
                         : "    ht = " + reader + "(hb)\n    r = Add(ht, x)\n") +
         "    n = LayerNormalization <axis = -1> (r, g, be)\n"
         "    s = MatMul(n, w2)\n"
         "    s1, s2 = Split <axis = -1> (s, sp)\n"
         "    a1 = Add(s1, b2)\n"
         "    a2 = Add(b3, s2)\n"
         "    m = Add(a1, a2)\n"
         "    y = MatMul(m, w3) }";
}

const ir::Node* addWritingTo(const ir::Model& m, const std::string& out) {
  for (const auto& n : m.graph().nodes())
    if (n->opType() == "Add" && n->output(0)->name() == out) return n.get();
  return nullptr;
}

// The QuantizeLinear reading `v`, or nullptr.
const ir::Node* quantizerOf(const ir::Value* v) {
  for (const ir::Use& u : v->uses())
    if (u.node->opType() == "QuantizeLinear") return u.node;
  return nullptr;
}

TEST(QuantizeStatic, BiasAddsAfterQuantizedProductsBecomeNodeUnits) {
  auto eval = synthesized();
  PassOutcome out = runPass(kPass, biasBlock(), {}, &eval);
  ASSERT_TRUE(out.step.changed) << out.step.error.str();
  const std::string text = io::printModelText(out.model);
  // Each bias Add reads two DequantizeLinears (the constant's one uint8 per
  // tensor) and its output is quantized; so is the residual Add after it.
  for (const char* name : {"hb", "a1", "a2", "r", "m"}) {
    const ir::Node* add = addWritingTo(out.model, name);
    ASSERT_NE(add, nullptr) << name;
    EXPECT_TRUE(readsDequantized(*add, 0) && readsDequantized(*add, 1)) << name << "\n" << text;
    EXPECT_NE(quantizerOf(add->output(0)), nullptr) << name << "\n" << text;
  }
  // The constant: 8-bit, per tensor, within half a step of the float bias,
  // its range holding the values and 0.
  const ir::Node* hb = addWritingTo(out.model, "hb");
  const ir::Node* dq = hb->input(1)->producer();
  const ir::Tensor* q = constantInput(*dq, 0);
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(q->dtype(), ir::DataType::kUInt8);
  EXPECT_EQ(constantInput(*dq, 1)->numel(), 1);
  const double scale = constantInput(*dq, 1)->valueAsDouble(0);
  const double zero = constantInput(*dq, 2)->valueAsDouble(0);
  auto model = io::parseModelText(biasBlock());
  ASSERT_TRUE(model);
  const ir::Value* b1v = model->graph().findValue("b1");
  ASSERT_TRUE(b1v && b1v->initializer());
  const ir::Tensor* b1 = b1v->initializer();
  float lo = 0, hi = 0;
  for (int64_t i = 0; i < b1->numel(); ++i) {
    const double b = b1->valueAsDouble(i);
    lo = std::min<float>(lo, b), hi = std::max<float>(hi, b);
    EXPECT_NEAR((q->valueAsDouble(i) - zero) * scale, b, scale / 2 + 1e-7) << i;
  }
  EXPECT_NEAR(scale, (hi - lo) / 255.0, 1e-6);
  // The Split's outputs take the scale of the product they split.
  const ir::Node* sq = quantizerOf(matMulWritingTo(out.model, "s")->output(0));
  ASSERT_NE(sq, nullptr) << text;
  for (const char* name : {"a1", "a2"}) {
    const ir::Node* add = addWritingTo(out.model, name);
    const ir::Node* half = add->input(name == std::string("a1") ? 0 : 1)->producer();
    EXPECT_EQ(constantInput(*half, 1)->valueAsDouble(0), constantInput(*sq, 1)->valueAsDouble(0))
        << name;
  }
  EXPECT_TRUE(out.step.check.passed) << out.step.check.detail.str();
}

TEST(QuantizeStatic, BiasAddsStayWithinTheBudgetAndFuseIntoQLinearAdds) {
  auto eval = synthesized();
  PassOutcome q = runPass(kPass, biasBlock(), {}, &eval);
  ASSERT_TRUE(q.step.changed);
  EXPECT_TRUE(q.step.check.passed) << q.step.check.detail.str();
  ASSERT_FALSE(q.step.check.accuracy.empty());
  EXPECT_GT(q.step.check.accuracy[0].snrDb, 20);
  PassOutcome f = runPass("fuse_qdq_into_qlinear", q.model.clone());
  ASSERT_TRUE(f.step.changed) << f.step.error.str();
  int qlinearAdd = 0, add = 0;
  for (const auto& n : f.model.graph().nodes()) {
    qlinearAdd += n->opType() == "QLinearAdd";
    add += n->opType() == "Add";
  }
  EXPECT_EQ(qlinearAdd, 5) << opsOf(f.model);
  EXPECT_EQ(add, 0) << opsOf(f.model);
  auto before = io::parseModelText(biasBlock());
  ASSERT_TRUE(before);
  const NumericResult r = compareWithinBudget(*before, f.model);
  EXPECT_TRUE(r.ran) << r.detail;
  EXPECT_TRUE(r.equal) << r.detail;
}

TEST(QuantizeStatic, ConvergesOnBiasAdds) {
  auto eval = synthesized();
  PassOutcome once = runPass(kPass, biasBlock(), {}, &eval);
  ASSERT_TRUE(once.step.changed);
  auto eval2 = synthesized();
  PassOutcome twice = runPass(kPass, once.model.clone(), {}, &eval2);
  EXPECT_FALSE(twice.step.changed) << io::printModelText(twice.model);
}

TEST(QuantizeStatic, LeavesABiasAddThatAFloatOpReadsOrWithTheOptionOff) {
  // A Tanh reads the bias Add's output: it stays float, with the reason, and
  // so does the residual Add after the Tanh (one input not quantized).
  auto eval = synthesized();
  PassOutcome out = runPass(kPass, biasBlock("Tanh"), {}, &eval);
  ASSERT_TRUE(out.step.changed) << out.step.error.str();
  EXPECT_TRUE(explains(out.step, "an op that is not quantized reads the output"));
  const ir::Node* hb = addWritingTo(out.model, "hb");
  ASSERT_NE(hb, nullptr);
  EXPECT_FALSE(readsDequantized(*hb, 1)) << "the bias stays float";
  EXPECT_EQ(quantizerOf(hb->output(0)), nullptr);
  EXPECT_EQ(quantizerOf(addWritingTo(out.model, "r")->output(0)), nullptr);
  // quantize_bias_adds=false: no bias Add is quantized (its constant stays
  // float), nor the residual Add, nor the Split's halves; the MatMuls still
  // are (and `m`, the last one's input).
  auto eval2 = synthesized();
  PassOutcome off = runPass(kPass, biasBlock(), {{"quantize_bias_adds", "false"}}, &eval2);
  ASSERT_TRUE(off.step.changed);
  for (const char* name : {"hb", "a1", "a2", "r"}) {
    const ir::Node* add = addWritingTo(off.model, name);
    ASSERT_NE(add, nullptr) << name;
    EXPECT_EQ(quantizerOf(add->output(0)), nullptr) << name << io::printModelText(off.model);
    const std::string n = name;
    EXPECT_FALSE(readsDequantized(*add, n == "a2" || n == "r" ? 0 : 1)) << name << ": float input";
  }
  EXPECT_FALSE(readsDequantized(*addWritingTo(off.model, "a1"), 0)) << "the Split's half";
  EXPECT_NE(off.step.note.str().find("3 ops quantized to int8"), std::string::npos)
      << off.step.note.str();
}

TEST(QuantizeStatic, LeavesABiasThatBroadcastsTheActivation) {
  // The constant [2,6,8] is larger than the product [6,8] it is added to.
  const std::string model =
      "<ir_version: 8, opset_import: [\"\" : 17]>\n"
      "main (float[6,8] x) => (float[2,6,8] y)\n"
      "    <float[8,8] w1 = {" +
      values(64, 31) + "}, float[2,6,8] b = {" + values(96, 32) + "}, float[8,8] w2 = {" +
      values(64, 33) +
      "}> {\n"
      "    h = MatMul(x, w1)\n"
      "    hb = Add(h, b)\n"
      "    y = MatMul(hb, w2) }";
  auto eval = synthesized();
  PassOutcome out = runPass(kPass, model, {}, &eval);
  ASSERT_TRUE(out.step.changed) << out.step.error.str();
  EXPECT_TRUE(explains(out.step, "the constant broadcasts the activation"));
  EXPECT_FALSE(readsDequantized(*addWritingTo(out.model, "hb"), 1));
}

// `n` seeded values in [-f, f], written for the text format.
std::string scaledValues(size_t n, unsigned seed, float f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-f, f);
  std::ostringstream os;
  for (size_t i = 0; i < n; ++i) os << (i ? ", " : "") << d(rng);
  return os.str();
}

// A depthwise Conv whose two channels differ 1000x in range, and an inference
// BatchNormalization that scales the small one up 100x and the large one down
// 100x (ppocr_cls_mobile_v2's depthwise Conv -> BatchNormalization pairs, in
// the extreme), then a quantized 1x1 depthwise Conv. `extraReader`: the first
// Conv's output is also a graph output.
std::string convBatchNormNet(bool extraReader = false, int opset = 13) {
  return "<ir_version: 8, opset_import: [\"\" : " + std::to_string(opset) +
         "]>\n"
         "main (float[1,2,6,6] x) => (float[1,2,6,6] y" +
         std::string(extraReader ? ", float[1,2,6,6] c" : "") +
         ")\n"
         "    <float[2,1,3,3] w = {" +
         scaledValues(9, 3, 10.0f) + ", " + scaledValues(9, 4, 0.01f) +
         "}, float[2] b = {0.5, 0.001}, float[2] s = {0.01, 100}, float[2] bb = {0.2, -0.1}, "
         "float[2] mean = {0.3, 0.0005}, float[2] var = {1.5, 0.8}, float[2,1,1,1] w2 = {0.7, "
         "-1.3}> {\n"
         "    c = Conv <group = 2, pads = [1, 1, 1, 1]> (x, w, b)\n"
         "    n = BatchNormalization <epsilon = 0.001> (c, s, bb, mean, var)\n"
         "    y = Conv <group = 2> (n, w2) }";
}

size_t countOps(const ir::Model& m, const std::string& op) {
  size_t k = 0;
  for (const auto& n : m.graph().nodes()) k += n->opType() == op;
  return k;
}

TEST(QuantizeStatic, FoldsTheBatchNormalizationAfterAConvBeforeQuantizing) {
  auto eval = synthesized();
  PassOutcome out = runPass(kPass, convBatchNormNet(), {}, &eval);
  ASSERT_TRUE(out.step.changed) << out.step.error.str();
  EXPECT_EQ(countOps(out.model, "BatchNormalization"), 0u) << io::printModelText(out.model);
  ASSERT_EQ(countOps(out.model, "Conv"), 2u);
  // The first Conv's output, now the normalized one, is what gets the 8-bit
  // range.
  const ir::Node* conv = nullptr;
  for (const auto& n : out.model.graph().nodes())
    if (n->opType() == "Conv" && !conv) conv = n.get();
  ASSERT_EQ(conv->output(0)->uses().size(), 1u);
  EXPECT_EQ(conv->output(0)->uses()[0].node->opType(), "QuantizeLinear");
  EXPECT_TRUE(out.step.check.passed) << out.step.check.detail.str();
  ASSERT_FALSE(out.step.check.accuracy.empty());
  EXPECT_GT(out.step.check.accuracy[0].snrDb, 30);
  EXPECT_NE(out.step.note.str().find("1 BatchNormalizations folded"), std::string::npos)
      << out.step.note.str();

  // Without the fold the Conv's output is quantized before the
  // BatchNormalization, one range for both channels: the small channel,
  // which the BatchNormalization then scales up, rounds to a few steps.
  auto eval2 = synthesized();
  PassOutcome off =
      runPassMayFail(kPass, convBatchNormNet(), {{"fold_batchnorm", "false"}}, &eval2);
  ASSERT_FALSE(off.step.check.accuracy.empty()) << off.step.error.str();
  EXPECT_LT(off.step.check.accuracy[0].snrDb + 15, out.step.check.accuracy[0].snrDb);
  if (off.step.changed) {
    EXPECT_EQ(countOps(off.model, "BatchNormalization"), 1u);
  }
}

TEST(QuantizeStatic, LeavesABatchNormalizationWhoseConvOutputIsAlsoReadElsewhere) {
  auto eval = synthesized();
  PassOutcome out = runPassMayFail(kPass, convBatchNormNet(true), {}, &eval);
  // The Conv's output is a graph output too: folding would change it.
  if (out.step.changed) {
    EXPECT_EQ(countOps(out.model, "BatchNormalization"), 1u) << io::printModelText(out.model);
  }
  EXPECT_EQ(out.step.note.str().find("folded"), std::string::npos) << out.step.note.str();
}

TEST(QuantizeStatic, ConvergesAfterFoldingABatchNormalization) {
  auto eval = synthesized();
  PassOutcome once = runPass(kPass, convBatchNormNet(), {}, &eval);
  ASSERT_TRUE(once.step.changed);
  auto eval2 = synthesized();
  PassOutcome twice = runPass(kPass, once.model.clone(), {}, &eval2);
  EXPECT_FALSE(twice.step.changed) << io::printModelText(twice.model);
}

// A BatchNormalization excluded from the pass (optimize --exclude-node, a
// recipe's exclusion) is not folded away: the Conv before it is quantized,
// the BatchNormalization stays float after it (it was folded into the Conv
// and erased). A filter of chosen nodes (precision's trial of the Conv
// alone) still folds it, as the whole pass does.
TEST(QuantizeStatic, LeavesAnExcludedBatchNormalizationUnfolded) {
  for (bool excludeBn : {true, false}) {
    SCOPED_TRACE(excludeBn ? "BatchNormalization excluded" : "only the Conv chosen");
    auto model = io::parseModelText(convBatchNormNet());
    ASSERT_TRUE(model);
    analysis::inferShapes(*model);
    auto eval = synthesized();
    pipeline::PassManager pm(*model);
    pm.setEvaluator(&eval);
    pipeline::PassSpec spec{kPass, {}, {}};
    if (excludeBn)
      spec.filter.excluded.insert(model->graph().findValue("n")->producer()->id());
    else
      spec.filter.only.insert(model->graph().findValue("c")->producer()->id());
    auto step = pm.run(spec);
    ASSERT_TRUE(step) << step.error().message();
    ASSERT_TRUE((*step)->changed) << (*step)->error;
    const ir::Model& out = pm.model();
    EXPECT_EQ(countOps(out, "BatchNormalization"), excludeBn ? 1u : 0u) << io::printModelText(out);
    EXPECT_EQ((*step)->note.str().find("1 BatchNormalizations folded") == std::string::npos,
              excludeBn)
        << (*step)->note.str();
    if (!excludeBn) continue;
    // The Conv is still quantized: the BatchNormalization reads its output
    // through Q -> DQ.
    const ir::Value* normalized = out.graph().findValue("n");
    ASSERT_TRUE(normalized && normalized->producer()) << io::printModelText(out);
    const ir::Node* bn = normalized->producer();
    const ir::Node* read = bn->input(0)->producer();
    ASSERT_TRUE(read && read->opType() == "DequantizeLinear") << io::printModelText(out);
  }
}

// The Conv a BatchNormalization is folded into keeps its name (the new Conv
// is derived from it and the BatchNormalization): `--exclude-node conv0` and
// a recipe's exclusion still name it after the pass. Before, the new Conv
// was named after its op ("Conv").
TEST(QuantizeStatic, TheConvABatchNormalizationIsFoldedIntoKeepsItsName) {
  std::string text = convBatchNormNet();
  const std::string plain = "    c = Conv <group = 2";
  ASSERT_NE(text.find(plain), std::string::npos);
  text.replace(text.find(plain), plain.size(), "    [conv0] c = Conv <group = 2");
  auto model = io::parseModelText(text);
  ASSERT_TRUE(model) << model.error().message();
  analysis::inferShapes(*model);
  const ir::NodeId original = model->graph().findValue("c")->producer()->id();
  ASSERT_EQ(model->graph().findValue("c")->producer()->name(), "conv0");
  auto eval = synthesized();
  pipeline::PassManager pm(*model);
  pm.setEvaluator(&eval);
  auto step = pm.run(pipeline::PassSpec{kPass, {}, {}});
  ASSERT_TRUE(step) << step.error().message();
  ASSERT_TRUE((*step)->changed) << (*step)->error;
  const ir::Model& out = pm.model();
  ASSERT_EQ(countOps(out, "BatchNormalization"), 0u) << io::printModelText(out);
  std::vector<const ir::Node*> named;
  for (const auto& n : out.graph().nodes())
    if (n->name() == "conv0") named.push_back(n.get());
  ASSERT_EQ(named.size(), 1u) << io::printModelText(out);
  EXPECT_EQ(named[0]->opType(), "Conv");
  EXPECT_NE(named[0]->id(), original);  // the new Conv, with the folded weight
  const std::vector<ir::NodeId> origins = pm.provenance().origins(named[0]->id());
  EXPECT_NE(std::find(origins.begin(), origins.end(), original), origins.end());
}

}  // namespace
}  // namespace passlab::testing
