// The rounding floor (core/pipeline/rounding_floor.h): a QDQ model's own
// tie-rounding noise, which excuses a step exact per node unit whose
// cumulative figures are over the accuracy budget only on a network that
// amplifies one-step flips (picodet_s_320's QDQ file, docs/numeric-check.md).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "core/analysis/shape_inference.h"
#include "core/ir/graph.h"
#include "core/pipeline/input_synthesis.h"
#include "core/pipeline/rounding_floor.h"
#include "core/pipeline/timeline.h"
#include "tests/support/test_support.h"

namespace passlab::pipeline {
namespace {

// Two QDQ Conv units; `b` is a float weight no Q/DQ reads.
const char* kUnits = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,6,6] x) => (float[1,2,6,6] out)
<float xs = {0.02}, uint8 xz = {128}, int8[2,2,3,3] w1 = {12, -40, 7, 99, -3, 55, 21, -8, 64,
   -70, 33, 5, -17, 88, 41, -2, 19, 60, 127, -90, 4, 36, -51, 8, 72, -14, 29, 3, -6, 45, 110,
   -33, 18, 9, -77, 52}, float[2] ws = {0.004, 0.0035}, int8[2] wz = {0, 0},
 float ys = {0.03}, uint8 yz = {120}, float b = {0.25}>
{
  xq = QuantizeLinear(x, xs, xz)
  xd = DequantizeLinear(xq, xs, xz)
  w1d = DequantizeLinear <axis = 0> (w1, ws, wz)
  c1 = Conv <pads = [1, 1, 1, 1]> (xd, w1d)
  q1 = QuantizeLinear(c1, ys, yz)
  d1 = DequantizeLinear(q1, ys, yz)
  out = Add(d1, b)
})";

ir::Model parsed(const char* text) {
  ir::Model m = testing::parse(text);
  analysis::inferShapes(m);
  return m;
}

std::vector<float> floats(const ir::Model& m, const char* name) {
  const ir::Value* v = m.graph().findValue(name);
  EXPECT_TRUE(v && v->initializer()) << name;
  if (!v || !v->initializer()) return {};
  auto d = v->initializer()->data<float>();
  return {d.begin(), d.end()};
}

TEST(RoundingFloor, MovesEveryQdqScaleByOneUlpAndNothingElse) {
  ir::Model m = parsed(kUnits);
  size_t moved = 0;
  ir::Model p = perturbQuantScales(m, 7, &moved);
  EXPECT_EQ(moved, 3u);  // xs, ws, ys (each once, however many Q/DQ read it)
  for (const char* name : {"xs", "ws", "ys"}) {
    std::vector<float> a = floats(m, name), b = floats(p, name);
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
      EXPECT_NE(a[i], b[i]) << name << "[" << i << "]";
      const bool oneUlp = b[i] == std::nextafter(a[i], 1.0f) || b[i] == std::nextafter(a[i], 0.0f);
      EXPECT_TRUE(oneUlp) << name << "[" << i << "]: " << a[i] << " -> " << b[i];
    }
  }
  EXPECT_EQ(floats(m, "b"), floats(p, "b"));  // a float weight, not a scale
  const ir::Tensor* w = p.graph().findValue("w1")->initializer();
  const ir::Tensor* w0 = m.graph().findValue("w1")->initializer();
  EXPECT_TRUE(
      std::equal(w->data<int8_t>().begin(), w->data<int8_t>().end(), w0->data<int8_t>().begin()));
}

TEST(RoundingFloor, AFloatModelHasNone) {
  ir::Model m = parsed(R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[4] x) => (float[4] y) <float w = {0.5}> { y = Mul(x, w) })");
  size_t moved = 1;
  perturbQuantScales(m, 1, &moved);
  EXPECT_EQ(moved, 0u);
  auto in = makeInputs(m, InputSpec{});
  ASSERT_TRUE(in);
  std::map<std::string, ir::Tensor> ref;
  EXPECT_TRUE(measureRoundingFloor(m, {*in}, {ref}, {}, 2, 1, 5).empty());
}

TEST(RoundingFloor, IsMeasuredPerOutputOnAQdqModel) {
  ir::Model m = parsed(kUnits);
  InputSpec spec;
  auto in = makeInputs(m, spec);
  ASSERT_TRUE(in);
  // The reference: the model itself, as the checker keeps it.
  auto ex = exec::Executor::create(m);
  ASSERT_TRUE(ex);
  auto r = (*ex)->run(*in);
  ASSERT_TRUE(r);
  std::map<std::string, ir::Tensor> ref{{"out", r->outputs[0]}};
  auto floor = measureRoundingFloor(m, {*in}, {ref}, {}, 2, 1, 5);
  ASSERT_EQ(floor.count("out"), 1u);
  EXPECT_TRUE(floor["out"].compared);
  EXPECT_GT(floor["out"].cosine, 0.999);  // a shallow model: a flip or none
  EXPECT_TRUE(measureRoundingFloor(m, {*in}, {ref}, {"out"}, 2, 1, 5).empty());
}

OutputAccuracy figures(const char* name, double cosine, double snrDb, double maxRel) {
  OutputAccuracy a;
  a.output = name;
  a.compared = true;
  a.cosine = cosine;
  a.snrDb = snrDb;
  a.maxRelError = maxRel;
  return a;
}

TEST(RoundingFloor, AStepWithinFourTimesTheFloorsLossIsWithinIt) {
  AccuracyBudget budget;                                     // cosine and SNR only
  const OutputAccuracy floor = figures("y", 0.99, 20, 0.1);  // loss 0.01, noise power 0.01
  EXPECT_TRUE(
      withinRoundingFloor(figures("y", 0.9601, 20.001 - 10 * std::log10(4.0), 0.9), floor, budget));
  EXPECT_FALSE(withinRoundingFloor(figures("y", 0.9599, 20, 0.1), floor, budget));  // cosine
  EXPECT_FALSE(withinRoundingFloor(figures("y", 0.99, 13.9, 0.1), floor, budget));  // SNR
  AccuracyBudget maxRel = budget;
  maxRel.maxRelError = 0.2;  // a limited figure is judged against the floor too
  EXPECT_TRUE(withinRoundingFloor(figures("y", 0.99, 20, 0.4), floor, maxRel));
  EXPECT_FALSE(withinRoundingFloor(figures("y", 0.99, 20, 0.41), floor, maxRel));
  OutputAccuracy nonFinite = figures("y", 0.99, 20, 0.1);
  nonFinite.nonFinite = 1;
  EXPECT_FALSE(withinRoundingFloor(nonFinite, floor, budget));
  OutputAccuracy notCompared = figures("y", 1, 100, 0);
  notCompared.compared = false;
  EXPECT_FALSE(withinRoundingFloor(notCompared, floor, budget));
  // A model whose scales move nothing excuses no loss at all.
  const OutputAccuracy exact = figures("y", 1, std::numeric_limits<double>::infinity(), 0);
  EXPECT_FALSE(withinRoundingFloor(figures("y", 0.99999, 60, 1e-4), exact, budget));
  OutputAccuracy top1 = figures("y", 0.99, 20, 0.1);
  top1.top1 = 0.5;
  OutputAccuracy floorTop1 = floor;
  floorTop1.top1 = 0.9;
  AccuracyBudget topBudget = budget;
  topBudget.minTop1 = 0.95;
  EXPECT_FALSE(withinRoundingFloor(top1, floorTop1, topBudget));  // 0.5 lost against 4 x 0.1
  EXPECT_TRUE(withinRoundingFloor(top1, floorTop1, budget));      // top-1 not limited
}

TEST(RoundingFloor, ExcusesAStepOnlyWhenEveryOutputOverTheBudgetIsWithinIt) {
  AccuracyBudget budget;  // cosine 0.99, SNR 20 dB
  std::map<std::string, OutputAccuracy> floor{{"a", figures("a", 0.97, 13, 0.3)},
                                              {"b", figures("b", 0.999, 30, 0.01)}};
  NumericCheck c;
  c.ran = true;
  c.passed = false;
  c.detail = Text("over");
  c.accuracy = {figures("a", 0.975, 12.5, 0.4), figures("b", 0.9995, 32, 0.01)};
  NumericCheck excused = c;
  excuseByRoundingFloor(excused, budget, floor);
  EXPECT_TRUE(excused.passed);
  EXPECT_NE(excused.detail.str().find("tie-rounding"), std::string::npos) << excused.detail.str();
  EXPECT_NE(excused.detail.str().find("'a'"), std::string::npos) << excused.detail.str();

  NumericCheck beyond = c;  // b over the budget and 10x its floor's noise power
  beyond.accuracy[1] = figures("b", 0.98, 15, 0.01);
  excuseByRoundingFloor(beyond, budget, floor);
  EXPECT_FALSE(beyond.passed);
  EXPECT_EQ(beyond.detail.str(), "over");

  NumericCheck noFloor = c;
  excuseByRoundingFloor(noFloor, budget, {});
  EXPECT_FALSE(noFloor.passed);
  NumericCheck missing = c;  // an output the floor did not measure
  excuseByRoundingFloor(missing, budget, {{"b", floor["b"]}});
  EXPECT_FALSE(missing.passed);
}

}  // namespace
}  // namespace passlab::pipeline
