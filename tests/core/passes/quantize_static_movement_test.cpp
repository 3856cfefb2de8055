// quantize_static around data-movement ops (#25): a channel shuffle (Split,
// Concat, Reshape, Transpose, Reshape) between quantized convolutions, after
// a float chain (a written-out HardSwish) that no op quantizes. The Q/DQ
// pairs go above the shuffle, one range for the tensors it joins, so that
// the chain ends in a QuantizeLinear of its own and the shuffle runs on the
// 8-bit values (fuse_qdq_into_qlinear; the chain becomes a lookup). Not
// above an op whose output a float op reads, or that is a graph output.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <sstream>

#include "core/io/text_format.h"
#include "core/pipeline/calibration.h"
#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

const char* kPass = "quantize_static";

std::string values(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-1, 1);
  std::ostringstream os;
  for (size_t i = 0; i < n; ++i) os << (i ? ", " : "") << d(rng);
  return os.str();
}

pipeline::CalibratingEvaluator synthesized(int sets = 8) {
  return pipeline::CalibratingEvaluator(
      [sets](const ir::Model& m) {
        return pipeline::synthesizedCalibrationSets(m, pipeline::InputSpec{}, sets);
      },
      static_cast<size_t>(sets));
}

// x -> Conv -> h = c * Clip(c + 3, 0, 6) / 6 -> Split -> (s1; s2 -> Conv ->
// c2) -> Concat(s1, c2) -> Reshape -> Transpose -> Reshape -> Conv -> y.
// `tail` is added to the body (more readers of the values above).
std::string shuffleNet(const std::string& tail = "", const std::string& outputs = "") {
  return "<ir_version: 8, opset_import: [\"\" : 13]>\n"
         "main (float[1,4,4,4] x) => (float[1,4,4,4] y" +
         outputs +
         ")\n"
         "    <float[4,4,1,1] w1 = {" +
         values(16, 21) + "}, float[2,2,1,1] w2 = {" + values(4, 22) + "}, float[4,4,1,1] w3 = {" +
         values(16, 23) +
         "}, float three = {3.0}, float zero = {0.0}, float six = {6.0}, int64[2] halves = {2, "
         "2}, int64[5] groups = {1, 2, 2, 4, 4}, int64[4] flat = {1, 4, 4, 4}> {\n"
         "    c = Conv(x, w1)\n"
         "    a = Add(c, three)\n"
         "    k = Clip(a, zero, six)\n"
         "    m = Mul(c, k)\n"
         "    h = Div(m, six)\n"
         "    s1, s2 = Split <axis = 1> (h, halves)\n"
         "    c2 = Conv(s2, w2)\n"
         "    cat = Concat <axis = 1> (s1, c2)\n"
         "    g = Reshape(cat, groups)\n"
         "    t = Transpose <perm = [0, 2, 1, 3, 4]> (g)\n"
         "    r = Reshape(t, flat)\n" +
         tail + "    y = Conv(r, w3) }";
}

const ir::Node* producerOf(const ir::Model& m, const std::string& op) {
  for (const auto& n : m.graph().nodes())
    if (n->opType() == op) return n.get();
  return nullptr;
}

// The scale and zero point of a DequantizeLinear or QuantizeLinear.
std::pair<double, double> params(const ir::Node& n) {
  return {n.input(1)->initializer()->valueAsDouble(0), n.input(2)->initializer()->valueAsDouble(0)};
}

int countOps(const ir::Model& m, const std::string& op) {
  int k = 0;
  for (const auto& n : m.graph().nodes()) k += n->opType() == op;
  return k;
}

TEST(QuantizeStaticMovement, TheShuffleIsInsideOneRangeAndTheChainEndsInAQuantizeLinear) {
  auto eval = synthesized();
  PassOutcome out = runPass(kPass, shuffleNet(), {}, &eval);
  ASSERT_TRUE(out.step.changed) << out.step.error.str();
  const std::string text = io::printModelText(out.model);
  // The chain's end (Div) is read by one QuantizeLinear alone.
  const ir::Node* div = producerOf(out.model, "Div");
  ASSERT_NE(div, nullptr);
  ASSERT_EQ(div->output(0)->uses().size(), 1u) << text;
  EXPECT_EQ(div->output(0)->uses()[0].node->opType(), "QuantizeLinear") << text;
  // Every data input of Split, Concat, Reshape and Transpose is dequantized,
  // every output quantized, all with one scale and zero point.
  std::set<std::pair<double, double>> seen;
  int checked = 0;
  for (const auto& owned : out.model.graph().nodes()) {
    const ir::Node& n = *owned;
    if (n.opType() != "Split" && n.opType() != "Concat" && n.opType() != "Reshape" &&
        n.opType() != "Transpose")
      continue;
    ++checked;
    const size_t data = n.opType() == "Concat" ? n.inputs().size() : 1;
    for (size_t i = 0; i < data; ++i) {
      const ir::Node* dq = n.input(i)->producer();
      ASSERT_TRUE(dq && dq->opType() == "DequantizeLinear") << n.name() << " " << i << "\n" << text;
      seen.insert(params(*dq));
    }
    for (const ir::Value* y : n.outputs()) {
      ASSERT_EQ(y->uses().size(), 1u) << n.name() << "\n" << text;
      const ir::Node* q = y->uses()[0].node;
      ASSERT_EQ(q->opType(), "QuantizeLinear") << n.name() << "\n" << text;
      seen.insert(params(*q));
    }
  }
  EXPECT_EQ(checked, 5);
  EXPECT_EQ(seen.size(), 1u) << text;
  EXPECT_TRUE(out.step.check.passed) << out.step.check.detail.str();
}

TEST(QuantizeStaticMovement, TheShuffleRunsOnEightBitsAndTheChainBecomesALookup) {
  auto eval = synthesized();
  PassOutcome q = runPass(kPass, shuffleNet(), {}, &eval);
  ASSERT_TRUE(q.step.changed) << q.step.error.str();
  PassOutcome f = runPass("fuse_qdq_into_qlinear", q.model.clone());
  ASSERT_TRUE(f.step.changed) << f.step.error.str();
  PassOutcome l = runPass("fold_qdq_unary_into_lookup", f.model.clone());
  ASSERT_TRUE(l.step.changed) << l.step.error.str();
  const std::string text = io::printModelText(l.model);
  EXPECT_EQ(countOps(l.model, "QLinearLookup"), 1) << text;
  // The last Conv writes the graph output: it stays DQ -> Conv (float).
  EXPECT_EQ(countOps(l.model, "QLinearConv"), 2) << text;
  // Only the model's input is quantized, only the last Conv's input and
  // weight dequantized: the shuffle's ops read and write 8-bit tensors.
  EXPECT_EQ(countOps(l.model, "QuantizeLinear"), 1) << text;
  EXPECT_EQ(countOps(l.model, "DequantizeLinear"), 2) << text;
  for (const char* op : {"Split", "Concat", "Reshape", "Transpose"}) {
    const ir::Node* n = producerOf(l.model, op);
    ASSERT_NE(n, nullptr) << op;
    EXPECT_EQ(n->output(0)->type().elemType(), ir::DataType::kUInt8) << op << "\n" << text;
  }
  // Exact: the 8-bit form computes what the QDQ form does.
  const NumericResult exact = compareOutputs(q.model, l.model, 3);
  EXPECT_TRUE(exact.ran && exact.equal) << exact.detail;
  auto before = io::parseModelText(shuffleNet());
  ASSERT_TRUE(before);
  const NumericResult r = compareWithinBudget(*before, l.model);
  EXPECT_TRUE(r.equal) << r.detail;
}

TEST(QuantizeStaticMovement, Converges) {
  auto eval = synthesized();
  PassOutcome once = runPass(kPass, shuffleNet(), {}, &eval);
  ASSERT_TRUE(once.step.changed);
  auto eval2 = synthesized();
  PassOutcome twice = runPass(kPass, once.model.clone(), {}, &eval2);
  EXPECT_FALSE(twice.step.changed) << io::printModelText(twice.model);
}

// Whether the chain's end `h` (the Div's output) has a QuantizeLinear reader.
bool chainEndQuantized(const ir::Model& m) {
  const ir::Node* div = producerOf(m, "Div");
  if (!div) return false;
  for (const ir::Use& u : div->output(0)->uses())
    if (u.node->opType() == "QuantizeLinear") return true;
  return false;
}

TEST(QuantizeStaticMovement, NotAboveAnOpAFloatOpReads) {
  // h is also read by a Transpose whose output a Sigmoid reads: that
  // Transpose stays float, and reads h as it was.
  auto eval = synthesized();
  const std::string model = shuffleNet(
      "    ht = Transpose <perm = [0, 1, 3, 2]> (h)\n    z = Sigmoid(ht)\n", ", float[1,4,4,4] z");
  PassOutcome out = runPass(kPass, model, {}, &eval);
  ASSERT_TRUE(out.step.changed) << out.step.error.str();
  const std::string text = io::printModelText(out.model);
  const ir::Node* sig = producerOf(out.model, "Sigmoid");
  ASSERT_NE(sig, nullptr);
  const ir::Node* ht = sig->input(0)->producer();
  ASSERT_EQ(ht->opType(), "Transpose") << text;
  // The shuffle's Split still gets h through its pair; the float Transpose
  // reads the same dequantized h (one pair per tensor, as for a Conv output
  // read by a float op), but its own output has no pair.
  EXPECT_TRUE(chainEndQuantized(out.model)) << text;
  for (const ir::Use& u : ht->output(0)->uses()) EXPECT_NE(u.node->opType(), "QuantizeLinear");
  EXPECT_TRUE(out.step.check.passed) << out.step.check.detail.str();

  // With only the float reader (the shuffle's output read by a float op and
  // the Conv after it gone), nothing is quantized above the Transpose.
  const std::string alone =
      "<ir_version: 8, opset_import: [\"\" : 13]>\n"
      "main (float[1,4,4,4] x) => (float[1,4,4,4] z)\n"
      "    <float[4,4,1,1] w1 = {" +
      values(16, 21) +
      "}, float three = {3.0}, float zero = {0.0}, float six = {6.0}> {\n"
      "    c = Conv(x, w1)\n    a = Add(c, three)\n    k = Clip(a, zero, six)\n"
      "    m = Mul(c, k)\n    h = Div(m, six)\n"
      "    ht = Transpose <perm = [0, 1, 3, 2]> (h)\n    z = Sigmoid(ht) }";
  auto eval2 = synthesized();
  PassOutcome a = runPass(kPass, alone, {}, &eval2);
  ASSERT_TRUE(a.step.changed) << a.step.error.str();
  EXPECT_FALSE(chainEndQuantized(a.model)) << io::printModelText(a.model);
}

TEST(QuantizeStaticMovement, NotAboveAnOpWhoseOutputIsAGraphOutput) {
  // r (the shuffle's end) is also a graph output: the Conv reads it through
  // a pair, but the shuffle stays float and the graph output keeps its
  // float value (no Q/DQ above it).
  auto eval = synthesized();
  const std::string model =
      "<ir_version: 8, opset_import: [\"\" : 13]>\n"
      "main (float[1,4,4,4] x) => (float[1,4,4,4] y, float[1,4,4,4] h)\n"
      "    <float[4,4,1,1] w1 = {" +
      values(16, 21) + "}, float[4,4,1,1] w3 = {" + values(16, 23) +
      "}, float three = {3.0}, float zero = {0.0}, float six = {6.0}> {\n"
      "    c = Conv(x, w1)\n    a = Add(c, three)\n    k = Clip(a, zero, six)\n"
      "    m = Mul(c, k)\n    h0 = Div(m, six)\n"
      "    h = Transpose <perm = [0, 1, 3, 2]> (h0)\n    y = Conv(h, w3) }";
  PassOutcome out = runPass(kPass, model, {}, &eval);
  ASSERT_TRUE(out.step.changed) << out.step.error.str();
  const std::string text = io::printModelText(out.model);
  const ir::Node* t = producerOf(out.model, "Transpose");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->input(0)->producer()->opType(), "Div") << text;
  EXPECT_TRUE(t->output(0)->isGraphOutput());
  EXPECT_FALSE(chainEndQuantized(out.model)) << text;
  EXPECT_TRUE(out.step.check.passed) << out.step.check.detail.str();
}

// The legacy MaxPool padding: Pad with the float32 lowest, then MaxPool,
// between quantized Convs (winml_squeezenet after raise_opset). The padded
// tensor holds -3.4e38, which no 8-bit range should cover: the MaxPool and
// its input stay float (at f483432 their pairs took a scale of 1.3e36 and
// squeezenet's output a cosine of 0.08), the Conv after it reads the
// MaxPool's output through a pair of the output's own range.
TEST(QuantizeStaticMovement, NotAboveAMaxPoolReadingALegacyMaxPadding) {
  auto eval = synthesized();
  const std::string model =
      "<ir_version: 8, opset_import: [\"\" : 13]>\n"
      "main (float[1,4,6,6] x) => (float[1,4,3,3] y)\n"
      "    <float[4,4,1,1] w1 = {" +
      values(16, 31) + "}, float[4,4,1,1] w2 = {" + values(16, 32) +
      "}, int64[8] pads = {0, 0, 0, 0, 0, 0, 1, 1}, float low = {-3.4028234e38}> {\n"
      "    c = Conv(x, w1)\n    r = Relu(c)\n    p = Pad(r, pads, low)\n"
      "    m = MaxPool <kernel_shape = [3, 3], strides = [2, 2]> (p)\n"
      "    y = Conv(m, w2) }";
  PassOutcome out = runPass(kPass, model, {}, &eval);
  ASSERT_TRUE(out.step.changed) << out.step.error.str();
  const std::string text = io::printModelText(out.model);
  const ir::Node* pool = producerOf(out.model, "MaxPool");
  ASSERT_NE(pool, nullptr) << text;
  EXPECT_EQ(pool->input(0)->producer()->opType(), "Pad") << text;
  for (const ir::Use& u : pool->input(0)->uses())
    EXPECT_NE(u.node->opType(), "QuantizeLinear") << text;
  bool outputQuantized = false;
  for (const ir::Use& u : pool->output(0)->uses()) {
    if (u.node->opType() != "QuantizeLinear") continue;
    outputQuantized = true;
    EXPECT_LT(params(*u.node).first, 1.0) << "a scale of the values, not of the padding: " << text;
  }
  EXPECT_TRUE(outputQuantized) << text;
  EXPECT_TRUE(out.step.check.passed) << out.step.check.detail.str();
}

// s -> Split -> b1 -> Split -> b2 -> Reshape -> v, s a quantized Conv
// output, each Split's other output read by a float op, v a graph output
// read by a Conv: no op above v is quantized (v is a graph output, the
// Splits have float outputs), but v takes a range through the chain, and b1
// and b2 between them too (sharedRangeSource), though neither was
// calibrated: the pass quantizes (at 51fd41f it threw map::at: b1, between
// two Splits, joined no group), and the chain shares s's scale and zero
// point.
TEST(QuantizeStaticMovement, AChainThroughSplitsWithFloatOutputsSharesOneRange) {
  auto eval = synthesized();
  const std::string model =
      "<ir_version: 8, opset_import: [\"\" : 13]>\n"
      "main (float[1,4,4,4] x) => (float[1,1,4,4] y, float[1,1,4,4] v, float[1,2,4,4] z1, "
      "float[1,1,4,4] z2)\n"
      "    <float[4,4,1,1] w1 = {" +
      values(16, 21) + "}, float[1,1,1,1] w2 = {0.75}, int64[2] halves = {2, 2}, " +
      "int64[2] ones = {1, 1}, int64[4] shape = {1, 1, 4, 4}> {\n"
      "    s = Conv(x, w1)\n    b1, f1 = Split <axis = 1> (s, halves)\n"
      "    b2, f2 = Split <axis = 1> (b1, ones)\n    v = Reshape(b2, shape)\n"
      "    y = Conv(v, w2)\n    z1 = Sigmoid(f1)\n    z2 = Sigmoid(f2) }";
  PassOutcome out = runPass(kPass, model, {}, &eval);
  ASSERT_TRUE(out.step.changed) << out.step.error.str();
  const std::string text = io::printModelText(out.model);
  const ir::Node* conv1 = producerOf(out.model, "Conv");
  ASSERT_NE(conv1, nullptr);
  // s's pair: the QuantizeLinear reading the first Conv's output.
  const ir::Node* qs = nullptr;
  for (const ir::Use& u : conv1->output(0)->uses())
    if (u.node->opType() == "QuantizeLinear") qs = u.node;
  ASSERT_NE(qs, nullptr) << text;
  // v's pair: the DequantizeLinear the second Conv reads.
  const ir::Node* conv2 = nullptr;
  for (const auto& n : out.model.graph().nodes())
    if (n->opType() == "Conv" && n.get() != conv1) conv2 = n.get();
  ASSERT_NE(conv2, nullptr) << text;
  const ir::Node* dqv = conv2->input(0)->producer();
  ASSERT_TRUE(dqv && dqv->opType() == "DequantizeLinear") << text;
  EXPECT_EQ(params(*dqv), params(*qs)) << text;
  EXPECT_TRUE(out.step.check.passed) << out.step.check.detail.str();
}

}  // namespace
}  // namespace passlab::testing
