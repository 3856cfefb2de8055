// The check per node unit (core/pipeline/unit_check.h): the correct
// fuse_qdq_into_qlinear rewrite passes on every corpus QDQ model (ONNX
// Runtime's, and PassLab's quantize_static output of deep CNNs), while bugs
// planted in the rewritten model fail in the unit they are in: a weight scale
// x1.01, an input or output zero point + 1, one output channel of any (inner) QLinearConv's
// weights x1.2, a miswired input.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/analysis/shape_inference.h"
#include "core/io/model_io.h"
#include "core/ir/graph.h"
#include "core/ir/node.h"
#include "core/pipeline/calibration.h"
#include "core/pipeline/input_synthesis.h"
#include "core/pipeline/node_extract.h"
#include "core/pipeline/numeric_check.h"
#include "core/pipeline/pass_manager.h"
#include "core/pipeline/unit_check.h"
#include "core/rewrite/match_utils.h"
#include "tests/core/pipeline/qdq_corpus_test_util.h"
#include "tests/support/pass_harness.h"
#include "tests/support/test_support.h"

namespace passlab::pipeline {
namespace {

using testing::PassOutcome;

std::vector<exec::NamedInputs> inputSets(const ir::Model& m, int count = 3) {
  std::vector<exec::NamedInputs> sets;
  for (int i = 0; i < count; ++i) {
    InputSpec spec;
    spec.seed += static_cast<uint64_t>(i);
    auto in = makeInputs(m, spec);
    EXPECT_TRUE(in) << in.error().message();
    if (in) sets.push_back(std::move(*in));
  }
  return sets;
}

std::vector<ir::Node*> nodesOf(ir::Model& m, const std::string& op) {
  std::vector<ir::Node*> v;
  for (const auto& n : m.graph().nodes())
    if (n->opType() == op) v.push_back(n.get());
  return v;
}

// ---- small graphs ----

// Two QDQ Conv units (per-tensor weights), the second fed by the first.
const char* kTwoUnits = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,8,8] x) => (uint8[1,2,8,8] y)
<float xs = {0.02}, uint8 xz = {128}, int8[2,2,3,3] w1 = {12, -40, 7, 99, -3, 55, 21, -8, 64,
   -70, 33, 5, -17, 88, 41, -2, 19, 60, 127, -90, 4, 36, -51, 8, 72, -14, 29, 3, -6, 45, 110,
   -33, 18, 9, -77, 52}, float ws = {0.004}, int8 wz = {0},
 float ys = {0.03}, uint8 yz = {120},
 int8[2,2,3,3] w2 = {-5, 44, 17, -99, 3, 25, 61, -8, 14, 70, -33, 15, 27, -88, 41, 12, -19, 6,
   -27, 90, 4, -36, 51, 8, -72, 14, 29, 3, 66, -45, 10, 33, -18, 9, 77, -52},
 float zs = {0.05}, uint8 zz = {125}>
{
  xq = QuantizeLinear(x, xs, xz)
  xd = DequantizeLinear(xq, xs, xz)
  w1d = DequantizeLinear(w1, ws, wz)
  c1 = Conv <pads = [1, 1, 1, 1]> (xd, w1d)
  q1 = QuantizeLinear(c1, ys, yz)
  d1 = DequantizeLinear(q1, ys, yz)
  w2d = DequantizeLinear(w2, ws, wz)
  c2 = Conv <pads = [1, 1, 1, 1]> (d1, w2d)
  y = QuantizeLinear(c2, zs, zz)
})";

ir::Model parsed(const char* text) {
  ir::Model m = testing::parse(text);
  analysis::inferShapes(m);
  return m;
}

TEST(UnitCheck, JudgesEachReplacedValueByItsOriginalUnit) {
  ir::Model m = parsed(kTwoUnits);
  PassOutcome out = testing::runPass("fuse_qdq_into_qlinear", m.clone());
  ASSERT_EQ(nodesOf(out.model, "QLinearConv").size(), 2u);
  UnitCheck c = checkRewrittenUnits(m, out.model, out.step.log, inputSets(m));
  EXPECT_TRUE(c.ran) << c.detail;
  EXPECT_TRUE(c.passed) << c.detail;
  EXPECT_EQ(c.units, 2u);  // q1 and y
  EXPECT_EQ(c.compared, 3 * 2 * 128);
  EXPECT_LE(c.mostSteps, 1);
}

// A bug in the second unit's weight scale fails in that unit; the first is
// still judged on the model's own values.
TEST(UnitCheck, APlantedScaleFailsInItsUnit) {
  ir::Model m = parsed(kTwoUnits);
  PassOutcome out = testing::runPass("fuse_qdq_into_qlinear", m.clone());
  ir::Node* second = nodesOf(out.model, "QLinearConv").back();
  second->setInput(4, out.model.graph().addInitializer(
                          "planted_scale", ir::Tensor::fromVector<float>(ir::DataType::kFloat, {},
                                                                         {0.004f * 1.2f})));
  UnitCheck c = checkRewrittenUnits(m, out.model, out.step.log, inputSets(m));
  EXPECT_TRUE(c.ran);
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.failedUnit, "y") << c.detail;
}

// Negative: a step that changes attributes in place is not judged by units.
TEST(UnitCheck, InPlaceEditsAreNotJudged) {
  ir::Model m = parsed(kTwoUnits);
  PassOutcome out = testing::runPass("fuse_qdq_into_qlinear", m.clone());
  rewrite::EditLog log = out.step.log;
  const ir::NodeId conv = nodesOf(m, "Conv").front()->id();  // a node of the model before
  log.record({rewrite::EditKind::kAttributeChanged, conv, 0, -1, "", "", "pads"});
  UnitCheck c = checkRewrittenUnits(m, out.model, log, inputSets(m));
  EXPECT_FALSE(c.ran);
  EXPECT_FALSE(c.detail.empty());
}

// Negative: an original unit larger than the rule allows fails, it is not
// waved through.
TEST(UnitCheck, AnOversizedUnitFails) {
  ir::Model m = parsed(kTwoUnits);
  PassOutcome out = testing::runPass("fuse_qdq_into_qlinear", m.clone());
  UnitRule rule;
  rule.maxUnitNodes = 2;
  UnitCheck c = checkRewrittenUnits(m, out.model, out.step.log, inputSets(m), rule);
  EXPECT_FALSE(c.passed);
  EXPECT_NE(c.detail.str().find("more than 2 nodes"), std::string::npos) << c.detail;
}

// Convergence: the pass on its own output changes nothing, and a step
// without replaced values judges no unit and passes.
TEST(UnitCheck, ASecondRunHasNoUnits) {
  ir::Model m = parsed(kTwoUnits);
  PassOutcome once = testing::runPass("fuse_qdq_into_qlinear", m.clone());
  PassOutcome twice = testing::runPass("fuse_qdq_into_qlinear", once.model.clone());
  EXPECT_FALSE(twice.step.changed);
  UnitCheck c = checkRewrittenUnits(once.model, twice.model, twice.step.log, inputSets(m));
  EXPECT_TRUE(c.passed) << c.detail;
  EXPECT_EQ(c.units, 0u);
}

// ---- the corpus QDQ models ----

using qdqcorpus::loadCorpus;
using qdqcorpus::qdqModel;

struct Rewritten {
  ir::Model before, after;
  rewrite::EditLog log;
  std::vector<exec::NamedInputs> sets;
  std::map<std::string, ir::Tensor> values;  // every value of `after` on the first set
};

std::map<std::string, ir::Tensor> everyValue(const ir::Model& m, const exec::NamedInputs& in) {
  std::map<std::string, ir::Tensor> out;
  auto ex = exec::Executor::create(exposeAllValues(m));
  EXPECT_TRUE(ex) << ex.error().message();
  if (!ex) return out;
  auto r = (*ex)->run(in);
  EXPECT_TRUE(r) << r.error().message();
  if (r)
    for (size_t i = 0; i < r->outputNames.size(); ++i) out[r->outputNames[i]] = r->outputs[i];
  return out;
}

Rewritten rewrite(const std::string& name) {
  Rewritten r{qdqModel(name), {}, {}, {}, {}};
  PassOutcome out = testing::runPass("fuse_qdq_into_qlinear", r.before.clone());
  EXPECT_TRUE(out.step.changed);
  r.after = std::move(out.model);
  r.log = out.step.log;
  r.sets = inputSets(r.before);
  r.values = everyValue(r.after, r.sets.front());
  return r;
}

std::string summary(const UnitCheck& c) {
  char line[256];
  std::snprintf(line, sizeof line,
                "%zu units, %lld of %lld elements moved, worst share %.3f%% (%s), worst channel "
                "%.2f%%, at most %.0f steps, %zu kept values, %.0f ms",
                c.units, static_cast<long long>(c.moved), static_cast<long long>(c.compared),
                100 * c.worstShare, c.worstUnit.c_str(), 100 * c.worstChannelShare, c.mostSteps,
                c.keptValues, c.milliseconds);
  return line;
}

// Sets the initializer read as input `i` of `n` to `t` under a name of its own.
void plant(ir::Model& m, ir::Node* n, size_t i, ir::Tensor t) {
  n->setInput(i, m.graph().addInitializer(m.graph().freshName("planted"), std::move(t)));
}

// The constant read as input `i` of `n` (an initializer or a Constant's value).
ir::Tensor constantInput(const ir::Node* n, size_t i) {
  std::optional<ir::Tensor> t = rewrite::constantValue(n->input(i));
  EXPECT_TRUE(t) << "input " << i << " of " << n->name() << " is not a constant";
  return t ? std::move(*t) : ir::Tensor();
}

// Input `i` of `n` (a float constant) with every element multiplied by `f`.
void scaleConstant(ir::Model& m, ir::Node* n, size_t i, double f) {
  const ir::Tensor t = constantInput(n, i);
  ASSERT_EQ(t.dtype(), ir::DataType::kFloat);
  std::vector<float> v(static_cast<size_t>(t.numel()));
  for (size_t k = 0; k < v.size(); ++k)
    v[k] = static_cast<float>(t.valueAsDouble(static_cast<int64_t>(k)) * f);
  plant(m, n, i, ir::Tensor::fromVector<float>(ir::DataType::kFloat, t.dims(), v));
}

// The 8-bit constant input `i` of `n` with element k -> f(k, value); the
// number of elements that changed.
int editEightBit(ir::Model& m, ir::Node* n, size_t i,
                 const std::function<int64_t(int64_t, int64_t)>& f) {
  const ir::Tensor t = constantInput(n, i);
  const bool u8 = t.dtype() == ir::DataType::kUInt8;
  EXPECT_TRUE(u8 || t.dtype() == ir::DataType::kInt8);
  std::vector<uint8_t> bytes(static_cast<size_t>(t.numel()));
  int changed = 0;
  for (int64_t k = 0; k < t.numel(); ++k) {
    const int64_t v = std::clamp<int64_t>(f(k, t.valueAsInt64(k)), u8 ? 0 : -128, u8 ? 255 : 127);
    changed += v != t.valueAsInt64(k);
    bytes[static_cast<size_t>(k)] = static_cast<uint8_t>(v);
  }
  if (u8)
    plant(m, n, i, ir::Tensor::fromVector<uint8_t>(t.dtype(), t.dims(), bytes));
  else
    plant(m, n, i,
          ir::Tensor::fromVector<int8_t>(t.dtype(), t.dims(),
                                         std::vector<int8_t>(bytes.begin(), bytes.end())));
  return changed;
}

// The share of each output channel's elements off the zero point `zero` in
// `y` (a dead channel, all at the zero point after a fused Relu, hides any
// change to its weights).
std::vector<double> liveShares(const ir::Tensor& y, int64_t zero) {
  const int64_t channels = y.dims()[1], per = y.numel() / (y.dims()[0] * channels);
  std::vector<double> live(static_cast<size_t>(channels), 0);
  for (int64_t k = 0; k < y.numel(); ++k)
    if (y.valueAsInt64(k) != zero) live[static_cast<size_t>((k / per) % channels)] += 1;
  for (double& v : live) v /= static_cast<double>(y.numel() / channels);
  return live;
}

// One output channel of a QLinearConv's weights x1.2: of the channels whose
// output (`y`, the rewritten model's) is off the zero point in half its
// elements or more, the one whose largest weight (less the zero point) is
// largest, so that the change is more than rounding.
void scaleOneChannel(ir::Model& m, ir::Node* conv, const ir::Tensor& y, double f) {
  const ir::Tensor w = constantInput(conv, 3);
  const ir::Tensor z = constantInput(conv, 5);
  const std::vector<double> live = liveShares(y, constantInput(conv, 7).valueAsInt64(0));
  const int64_t per = w.numel() / w.dims()[0];
  const auto zeroOf = [&](int64_t k) { return z.valueAsInt64(z.numel() == 1 ? 0 : k / per); };
  int64_t channel = -1, largest = -1;
  for (int64_t k = 0; k < w.numel(); ++k)
    if (live[static_cast<size_t>(k / per)] >= 0.5 &&
        std::abs(w.valueAsInt64(k) - zeroOf(k)) > largest) {
      largest = std::abs(w.valueAsInt64(k) - zeroOf(k));
      channel = k / per;
    }
  ASSERT_GE(channel, 0) << "no live channel";
  const int changed = editEightBit(m, conv, 3, [&](int64_t k, int64_t v) {
    if (k / per != channel) return v;
    return static_cast<int64_t>(std::lround(static_cast<double>(v - zeroOf(k)) * f)) + zeroOf(k);
  });
  EXPECT_GT(changed, 0);
}

// ---- the values the step did not rewire ----

// One QDQ Conv unit, then a float tail the step keeps: the unit's output
// dequantized (d1) plus a bias (y).
const char* kUnitThenFloatTail = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,8,8] x) => (float[1,2,8,8] y)
<float xs = {0.02}, uint8 xz = {128}, int8[2,2,3,3] w1 = {12, -40, 7, 99, -3, 55, 21, -8, 64,
   -70, 33, 5, -17, 88, 41, -2, 19, 60, 127, -90, 4, 36, -51, 8, 72, -14, 29, 3, -6, 45, 110,
   -33, 18, 9, -77, 52}, float ws = {0.004}, int8 wz = {0},
 float ys = {0.03}, uint8 yz = {120}, float[1,2,1,1] b = {0.25, -0.5}>
{
  xq = QuantizeLinear(x, xs, xz)
  xd = DequantizeLinear(xq, xs, xz)
  w1d = DequantizeLinear(w1, ws, wz)
  c1 = Conv <pads = [1, 1, 1, 1]> (xd, w1d)
  q1 = QuantizeLinear(c1, ys, yz)
  d1 = DequantizeLinear(q1, ys, yz)
  y = Add(d1, b)
})";

ir::Node* producerOf(ir::Model& m, const std::string& value) {
  ir::Value* v = m.graph().findValue(value);
  return v ? v->producer() : nullptr;
}

// Input `i` of `n` (a float constant) with `d` added to every element.
void offsetConstant(ir::Model& m, ir::Node* n, size_t i, double d) {
  std::optional<ir::Tensor> t = rewrite::constantValue(n->input(i));
  ASSERT_TRUE(t && t->dtype() == ir::DataType::kFloat);
  std::vector<float> v(static_cast<size_t>(t->numel()));
  for (size_t k = 0; k < v.size(); ++k)
    v[k] = static_cast<float>(t->valueAsDouble(static_cast<int64_t>(k)) + d);
  n->setInput(i, m.graph().addInitializer(m.graph().freshName("planted"),
                                          ir::Tensor::fromVector<float>(t->dtype(), t->dims(), v)));
}

// The correct rewrite: the kept tail computes from the unit's output what
// it did before, exactly.
TEST(UnitCheckKeptValues, TheKeptTailHoldsExactly) {
  ir::Model m = parsed(kUnitThenFloatTail);
  PassOutcome out = testing::runPass("fuse_qdq_into_qlinear", m.clone());
  ASSERT_EQ(nodesOf(out.model, "QLinearConv").size(), 1u);
  UnitCheck c = checkRewrittenUnits(m, out.model, out.step.log, inputSets(m));
  EXPECT_TRUE(c.passed) << c.detail;
  EXPECT_EQ(c.units, 1u);
  EXPECT_EQ(c.keptValues, 3u);  // xq before the unit, d1 and y after it
  EXPECT_TRUE(c.keptFailed.empty());
}

// A change outside the unit, within any accuracy budget, fails at the
// first kept value it moves: the kept DequantizeLinear's scale x1.02 at d1,
// the bias + 1e-3 at y.
TEST(UnitCheckKeptValues, AChangeOutsideTheUnitsFailsWhereItIs) {
  ir::Model m = parsed(kUnitThenFloatTail);
  const struct {
    const char* value;
    std::function<void(ir::Model&)> plant;
  } bugs[] = {
      {"d1", [](ir::Model& a) { scaleConstant(a, producerOf(a, "d1"), 1, 1.02); }},
      {"y", [](ir::Model& a) { offsetConstant(a, producerOf(a, "y"), 1, 1e-3); }},
  };
  for (const auto& bug : bugs) {
    PassOutcome out = testing::runPass("fuse_qdq_into_qlinear", m.clone());
    bug.plant(out.model);
    UnitCheck c = checkRewrittenUnits(m, out.model, out.step.log, inputSets(m));
    EXPECT_TRUE(c.ran);
    EXPECT_FALSE(c.passed) << bug.value;
    EXPECT_TRUE(c.failedUnit.empty()) << c.failedUnit;  // the unit itself passes
    EXPECT_EQ(c.keptFailed, bug.value) << c.detail;
    EXPECT_NE(c.detail.str().find("did not rewire"), std::string::npos) << c.detail;
  }
}

// Negative: a bug in the unit fails in the unit; the kept values are not
// compared (the step is judged by its first failure).
TEST(UnitCheckKeptValues, ABugInTheUnitFailsInTheUnit) {
  ir::Model m = parsed(kUnitThenFloatTail);
  PassOutcome out = testing::runPass("fuse_qdq_into_qlinear", m.clone());
  ir::Node* conv = nodesOf(out.model, "QLinearConv").front();
  scaleConstant(out.model, conv, 4, 1.2);
  UnitCheck c = checkRewrittenUnits(m, out.model, out.step.log, inputSets(m));
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.failedUnit, "q1") << c.detail;
  EXPECT_TRUE(c.keptFailed.empty());
}

class QdqUnits : public ::testing::TestWithParam<const char*> {};

TEST_P(QdqUnits, TheCorrectRewritePasses) {
  PASSLAB_REQUIRE_CORPUS();
  Rewritten r = rewrite(GetParam());
  UnitCheck c = checkRewrittenUnits(r.before, r.after, r.log, r.sets);
  EXPECT_TRUE(c.ran) << c.detail;
  EXPECT_TRUE(c.passed) << c.detail << " " << summary(c);
  EXPECT_GT(c.units, 0u);
  EXPECT_LE(c.mostSteps, 1);
  EXPECT_GT(c.keptValues, 0u);  // every model keeps DequantizeLinears after the units
  std::printf("%s: %s\n", GetParam(), summary(c).c_str());
  // What the whole-model check costs on the same sets, for comparison.
  auto checker = ExecOutputChecker::create(r.before, r.sets);
  ASSERT_TRUE(checker);
  const auto t0 = std::chrono::steady_clock::now();
  NumericCheck whole = (*checker)->check(r.after);
  std::printf(
      "%s: whole-model check %s in %.0f ms (after creating the checker)\n", GetParam(),
      whole.passed ? "passes" : "fails",
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
}

TEST_P(QdqUnits, PlantedBugsFailInTheirUnit) {
  PASSLAB_REQUIRE_CORPUS();
  Rewritten r = rewrite(GetParam());
  const size_t convs = nodesOf(r.after, "QLinearConv").size();
  ASSERT_GT(convs, 0u);
  struct Bug {
    std::string what;
    std::function<void(ir::Model&, ir::Node*, const ir::Tensor&)> plant;
  };
  const std::vector<Bug> bugs{
      {"weight scale x1.01",
       [](ir::Model& m, ir::Node* n, const ir::Tensor&) { scaleConstant(m, n, 4, 1.01); }},
      {"input zero point + 1",
       [](ir::Model& m, ir::Node* n, const ir::Tensor&) {
         editEightBit(m, n, 2, [](int64_t, int64_t v) { return v + 1; });
       }},
      {"output zero point + 1",
       [](ir::Model& m, ir::Node* n, const ir::Tensor&) {
         editEightBit(m, n, 7, [](int64_t, int64_t v) { return v + 1; });
       }},
      {"one output channel's weights x1.2",
       [](ir::Model& m, ir::Node* n, const ir::Tensor& y) { scaleOneChannel(m, n, y, 1.2); }},
  };
  // The input zero point + 1 moves the sums of channel c by x_scale *
  // w_scale[c] * sum(w[c] - w_zero) / y_scale output steps; on winml_squeezenet's
  // first layer (raw pixels, scale about 1) that is 1.4 steps at most, and a
  // fused Relu clamps what it moves: the layer's output does not change at
  // all (the rewritten model's value with the bug equals its value without).
  // Such a bug is invisible to any check of this layer; it must fail only
  // where it changes the layer's output.
  const auto changesOutput = [&r](const ir::Model& bugged, const std::string& output) {
    const ir::Tensor& correct = r.values.at(output);
    const ir::Tensor got = everyValue(bugged, r.sets.front()).at(output);
    for (int64_t k = 0; k < correct.numel(); ++k)
      if (got.valueAsInt64(k) != correct.valueAsInt64(k)) return true;
    return false;
  };
  int failed = 0, planted = 0;
  // Deep models: every 5th layer (first, inner and last ones), to keep the
  // test short; every layer was run once (docs/numeric-check.md).
  std::vector<size_t> layers;
  const size_t stride = convs > 12 ? 5 : 1;
  for (size_t k = 0; k < convs; k += stride) layers.push_back(k);
  if (layers.back() + 1 != convs) layers.push_back(convs - 1);
  for (size_t k : layers) {
    for (const Bug& bug : bugs) {
      ir::Model bugged = r.after.clone();
      ir::Node* conv = nodesOf(bugged, "QLinearConv")[k];
      const std::string output = conv->output(0)->name();
      bug.plant(bugged, conv, r.values.at(output));
      UnitCheck c = checkRewrittenUnits(r.before, bugged, r.log, r.sets);
      ++planted;
      failed += !c.passed;
      const bool hidden = bug.what == "input zero point + 1" && !changesOutput(bugged, output);
      if (!hidden) {
        EXPECT_FALSE(c.passed) << "QLinearConv " << k << " " << bug.what << ": " << summary(c);
      }
      if (k == 0 || k + 1 == convs || c.passed)
        std::printf("%s QLinearConv %zu %s: %s%s\n", GetParam(), k, bug.what.c_str(),
                    c.passed ? summary(c).c_str() : c.detail.str().c_str(),
                    hidden ? " (the bug leaves the layer's output as it was)" : "");
    }
  }
  std::printf("%s: %d of %d planted bugs fail\n", GetParam(), failed, planted);
}

// The last QLinearConv with a twin (another 8-bit tensor of the same type and
// shape) reads the twin instead of its own input.
TEST_P(QdqUnits, AMiswiredInputFails) {
  PASSLAB_REQUIRE_CORPUS();
  Rewritten r = rewrite(GetParam());
  std::vector<ir::Node*> convs = nodesOf(r.after, "QLinearConv");
  for (auto conv = convs.rbegin(); conv != convs.rend(); ++conv) {
    ir::Value* own = (*conv)->input(0);
    for (const auto& n : r.after.graph().nodes())
      for (ir::Value* v : n->outputs())
        if (v && v != own && v->type() == own->type()) {
          (*conv)->setInput(0, v);
          UnitCheck c = checkRewrittenUnits(r.before, r.after, r.log, r.sets);
          EXPECT_FALSE(c.passed) << summary(c);
          std::printf("%s %s reads %s: %s\n", GetParam(), (*conv)->name().c_str(),
                      v->name().c_str(), c.detail.str().c_str());
          return;
        }
  }
  GTEST_SKIP() << "no QLinearConv input has a twin";
}

INSTANTIATE_TEST_SUITE_P(Models, QdqUnits,
                         ::testing::Values("ort_qdq_multi_consumer_dq",
                                           "ort_qdq_multi_consumer_dq_fixed", "mnist8_cntk",
                                           "winml_squeezenet", "ultraface_rfb_320"));

}  // namespace
}  // namespace passlab::pipeline
