// What the rounding floor (core/pipeline/rounding_floor.h) excuses once a step
// exact per node unit has re-based the check: the outputs' roundings such
// steps leave, never a lossy step's own loss, which the budget holds against
// the model the last such step left (#25). And where a rolled-back lossy
// step's blame goes: to a node the step changed, with the node where the loss
// grew when that is another one.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/analysis/shape_inference.h"
#include "core/ir/graph.h"
#include "core/pipeline/input_synthesis.h"
#include "core/pipeline/numeric_check.h"
#include "core/pipeline/pass_manager.h"
#include "core/pipeline/rounding_floor.h"
#include "tests/support/test_support.h"

namespace passlab::pipeline {
namespace {

// A requantization to twice the scale: every odd code of xq lands on a tie
// of the second QuantizeLinear, which a scale one ulp off breaks one way or
// the other: a model with a large rounding floor. `b` is a float weight.
const char* kTies = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,4,8,8] x) => (float[1,4,8,8] out)
<float xs = {0.02}, uint8 xz = {128}, float ys = {0.04}, uint8 yz = {128}, float b = {0.25}>
{
  xq = QuantizeLinear(x, xs, xz)
  xd = DequantizeLinear(xq, xs, xz)
  yq = QuantizeLinear(xd, ys, yz)
  yd = DequantizeLinear(yq, ys, yz)
  [bias] out = Add(yd, b)
})";

constexpr int kSets = 4;

ir::Model parsed(const char* text) {
  ir::Model m = testing::parse(text);
  analysis::inferShapes(m);
  return m;
}

std::vector<exec::NamedInputs> inputSets(const ir::Model& m) {
  std::vector<exec::NamedInputs> sets;
  for (int i = 0; i < kSets; ++i) {
    InputSpec spec;
    spec.seed += static_cast<uint64_t>(i);
    auto in = makeInputs(m, spec);
    EXPECT_TRUE(in) << in.error().message();
    if (in) sets.push_back(std::move(in.value()));
  }
  return sets;
}

std::vector<std::map<std::string, ir::Tensor>> outputsOf(
    const ir::Model& m, const std::vector<exec::NamedInputs>& sets) {
  std::vector<std::map<std::string, ir::Tensor>> out;
  auto ex = exec::Executor::create(m);
  EXPECT_TRUE(ex) << ex.error().message();
  if (!ex) return out;
  for (const auto& in : sets) {
    auto r = (*ex)->run(in);
    EXPECT_TRUE(r) << r.error().message();
    if (r) out.push_back({{"out", r->outputs[0]}});
  }
  return out;
}

OutputAccuracy figures(const std::vector<std::map<std::string, ir::Tensor>>& got,
                       const std::vector<std::map<std::string, ir::Tensor>>& want) {
  AccuracyMeter meter("out");
  for (size_t s = 0; s < got.size() && s < want.size(); ++s)
    meter.add(got[s].at("out"), want[s].at("out"));
  return meter.result();
}

// `m` with the bias moved by `delta` (a lossy step's own loss).
ir::Model withBias(const ir::Model& m, float delta) {
  ir::Model copy = m.clone();
  ir::Value* b = copy.graph().findValue("b");
  copy.graph().setInitializer(
      b, ir::Tensor::fromVector<float>(ir::DataType::kFloat, {}, {0.25f + delta}));
  return copy;
}

// A lossy pass of the test's own: moves the bias by `delta` through the
// rewriter (a new initializer the Add reads).
class MoveBias : public passes::Pass {
 public:
  explicit MoveBias(float delta) : delta_(delta) {
    info_.id = "test_move_bias";
    info_.kind = "test";
    info_.summaryEn = info_.summaryZh = "test";
    info_.lossy = true;
  }
  const passes::PassInfo& info() const override { return info_; }
  Status run(passes::PassContext& ctx) const override {
    ir::Graph& g = ctx.model().graph();
    ir::Value* moved = ctx.rewriter.addInitializer(
        g, "b_moved", ir::Tensor::fromVector<float>(ir::DataType::kFloat, {}, {0.25f + delta_}));
    for (const auto& n : g.nodes())
      if (n->name() == "bias") ctx.rewriter.setInput(n.get(), 1, moved);
    return Status::ok();
  }

 private:
  passes::PassInfo info_;
  float delta_;
};

// The setting every test below starts from: the original M, the model P a
// floor-accepted step left (M with its Q/DQ scales moved one ulp: the
// floor's first draw, so within it), a budget P is over, and two bias moves:
// `small` within the budget against P, `large` over it against P while the
// cumulative figures stay within the floor (what the floor used to excuse).
class FloorScope : public ::testing::Test {
 protected:
  void SetUp() override {
    original_ = parsed(kTies);
    sets_ = inputSets(original_);
    ASSERT_EQ(sets_.size(), static_cast<size_t>(kSets));
    reference_ = outputsOf(original_, sets_);
    floor_ = measureRoundingFloor(original_, sets_, reference_, {}, noise_.draws, noise_.seed,
                                  budget_.topK);
    ASSERT_EQ(floor_.count("out"), 1u);
    ASSERT_LT(floor_["out"].snrDb, 60) << "the model has no rounding floor to speak of";
    rebased_ = perturbQuantScales(original_, noise_.seed);
    const auto afterStep = outputsOf(rebased_, sets_);
    const OutputAccuracy step = figures(afterStep, reference_);
    ASSERT_LT(step.snrDb, 60) << "the scales moved by one ulp flip no tie";
    // The budget: half the step's noise power and cosine loss.
    budget_.minSnrDb = step.snrDb + 3;
    budget_.minCosine = 1 - (1 - step.cosine) / 2;
    ASSERT_FALSE(whyOverBudget(step, budget_).empty());
    ASSERT_TRUE(withinRoundingFloor(step, floor_["out"], budget_));
    // The bias moves: the first (of a geometric series) over the budget on
    // its own whose cumulative figures are within the floor.
    for (float delta = 1e-5f; delta < 1 && large_ == 0; delta *= 1.25f) {
      const auto moved = outputsOf(withBias(rebased_, delta), sets_);
      if (whyOverBudget(figures(moved, afterStep), budget_).empty()) {
        small_ = delta;
        continue;
      }
      if (withinRoundingFloor(figures(moved, reference_), floor_["out"], budget_)) large_ = delta;
    }
    ASSERT_GT(small_, 0);
    ASSERT_GT(large_, 0) << "no bias move over the budget on its own is within the floor";
  }

  std::unique_ptr<ExecOutputChecker> checker() {
    auto c = ExecOutputChecker::create(original_, sets_, noise_);
    EXPECT_TRUE(c) << c.error().message();
    return c ? std::move(c.value()) : nullptr;
  }

  // A PassManager on P that goes on after a step exact per node unit (the
  // checker re-based on P), running MoveBias(delta).
  const Step* runMove(ExecOutputChecker& checker, float delta) {
    model_ = rebased_.clone();
    pm_ = std::make_unique<PassManager>(model_, options());
    pm_->setChecker(&checker);
    CheckHistory history;
    history.unitExact = true;
    pm_->continueAfter(history);
    EXPECT_TRUE(checker.rebased());
    move_ = std::make_unique<MoveBias>(delta);
    auto step = pm_->run(*move_, {move_->info().id, {}, {}});
    EXPECT_TRUE(step) << step.error().message();
    return step ? *step : nullptr;
  }

  PipelineOptions options() const {
    PipelineOptions o;
    o.budget = budget_;
    return o;
  }

  NoiseOptions noise_;
  AccuracyBudget budget_;
  ir::Model original_, rebased_, model_;
  std::vector<exec::NamedInputs> sets_;
  std::vector<std::map<std::string, ir::Tensor>> reference_;
  std::map<std::string, OutputAccuracy> floor_;
  float small_ = 0, large_ = 0;
  std::unique_ptr<PassManager> pm_;
  std::unique_ptr<MoveBias> move_;
};

TEST_F(FloorScope, TheStepsOwnRoundingsAreExcusedOnceRebased) {
  auto c = checker();
  ASSERT_TRUE(c);
  NumericCheck before = c->checkWithinBudget(rebased_, budget_);
  EXPECT_FALSE(before.passed);  // not re-based: nothing excuses the figures
  EXPECT_FALSE(before.roundingFloor);
  c->rebase(rebased_);
  NumericCheck after = c->checkWithinBudget(rebased_, budget_);
  EXPECT_TRUE(after.passed) << after.detail;
  ASSERT_TRUE(after.roundingFloor);
  EXPECT_TRUE(excusedByRoundingFloor(after));
  EXPECT_EQ(after.roundingFloor->output, "out");
  EXPECT_EQ(after.roundingFloor->multiple, kRoundingFloorMultiple);
  EXPECT_LT(after.roundingFloor->figures.snrDb, budget_.minSnrDb);
  ASSERT_TRUE(after.roundingFloor->sinceRebase);
  EXPECT_TRUE(std::isinf(after.roundingFloor->sinceRebase->snrDb));  // P against itself
}

TEST_F(FloorScope, ALossyStepOverTheBudgetOnItsOwnIsRolledBack) {
  auto c = checker();
  ASSERT_TRUE(c);
  const Step* s = runMove(*c, large_);
  ASSERT_NE(s, nullptr);
  EXPECT_TRUE(s->rolledBack) << s->check.detail;
  EXPECT_FALSE(s->check.passed);
  EXPECT_FALSE(s->check.roundingFloor);
  const std::string error = s->error.str();
  EXPECT_NE(error.find("test_move_bias is over the accuracy budget"), std::string::npos) << error;
  EXPECT_NE(error.find("against the model the last step exact per node unit left"),
            std::string::npos)
      << error;
  // Rolled back: the bias the Add reads is P's.
  EXPECT_EQ(model_.graph().findValue("b_moved"), nullptr);
}

TEST_F(FloorScope, ALossyStepWithinTheBudgetOnItsOwnIsAcceptedWithinTheFloor) {
  auto c = checker();
  ASSERT_TRUE(c);
  const Step* s = runMove(*c, small_);
  ASSERT_NE(s, nullptr);
  EXPECT_FALSE(s->rolledBack) << s->error;
  EXPECT_TRUE(s->check.passed) << s->check.detail;
  ASSERT_TRUE(s->check.roundingFloor);
  ASSERT_TRUE(s->check.roundingFloor->sinceRebase);
  EXPECT_TRUE(whyOverBudget(*s->check.roundingFloor->sinceRebase, budget_).empty());
  EXPECT_FALSE(std::isinf(s->check.roundingFloor->sinceRebase->snrDb));  // it moved
}

TEST_F(FloorScope, TheSavedFilesCheckHoldsTheLossyPartToTheBudget) {
  // checkWithinBudget on a whole model, as the CLI's check of the saved
  // file against the original runs it.
  auto c = checker();
  ASSERT_TRUE(c);
  c->rebase(rebased_);
  EXPECT_TRUE(c->checkWithinBudget(withBias(rebased_, small_), budget_).passed);
  NumericCheck large = c->checkWithinBudget(withBias(rebased_, large_), budget_);
  EXPECT_FALSE(large.passed);
  EXPECT_NE(large.detail.str().find("against the model the last step exact per node unit left"),
            std::string::npos)
      << large.detail.str();
}

// ---- the blame of a rolled-back lossy step ----

// m1 and m2 nearly cancel: a relative error of 1e-6 in m1 comes out of the
// Sub as one of order 1. The Sub, which no pass changes, adds the most noise.
const char* kCancel = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,16] x) => (float[1,16] y)
<float w1 = {1000.001}, float w2 = {1000}>
{
  [m1] a = Mul(x, w1)
  [m2] c = Mul(x, w2)
  [sub] y = Sub(a, c)
})";

// A lossy pass of the test's own: m1's weight x(1 + 1e-6).
class NudgeWeight : public passes::Pass {
 public:
  NudgeWeight() {
    info_.id = "test_nudge_weight";
    info_.kind = "test";
    info_.summaryEn = info_.summaryZh = "test";
    info_.lossy = true;
  }
  const passes::PassInfo& info() const override { return info_; }
  Status run(passes::PassContext& ctx) const override {
    ir::Graph& g = ctx.model().graph();
    ir::Value* w = ctx.rewriter.addInitializer(
        g, "w1_nudged",
        ir::Tensor::fromVector<float>(ir::DataType::kFloat, {}, {1000.001f * (1 + 1e-6f)}));
    for (const auto& n : g.nodes())
      if (n->name() == "m1") ctx.rewriter.setInput(n.get(), 1, w);
    return Status::ok();
  }

 private:
  passes::PassInfo info_;
};

TEST(LossyBlame, NamesTheChangedNodeAndWhereTheLossGrew) {
  ir::Model m = parsed(kCancel);
  NoiseOptions quiet;
  quiet.draws = 0;
  auto checker = ExecOutputChecker::create(m, 2, {}, quiet);
  ASSERT_TRUE(checker) << checker.error().message();
  PassManager pm(m);
  pm.setChecker(checker->get());
  NudgeWeight pass;
  auto step = pm.run(pass, {pass.info().id, {}, {}});
  ASSERT_TRUE(step) << step.error().message();
  ASSERT_TRUE((*step)->rolledBack);
  const std::string error = (*step)->error.str();
  EXPECT_NE(error.find("the changed node that lost the most: Mul 'm1'"), std::string::npos)
      << error;
  EXPECT_NE(error.find("the loss grew most at Sub 'sub'"), std::string::npos) << error;
}

TEST(LossyBlame, WithoutTheStepsEditsTheWorstLayerIsNamed) {
  // The check of a whole model (no step's edits): the Sub, as before.
  ir::Model m = parsed(kCancel);
  NoiseOptions quiet;
  quiet.draws = 0;
  auto checker = ExecOutputChecker::create(m, 2, {}, quiet);
  ASSERT_TRUE(checker) << checker.error().message();
  ir::Model nudged = m.clone();
  nudged.graph().setInitializer(
      nudged.graph().findValue("w1"),
      ir::Tensor::fromVector<float>(ir::DataType::kFloat, {}, {1000.001f * (1 + 1e-6f)}));
  NumericCheck c = (*checker)->checkWithinBudget(nudged, AccuracyBudget{});
  EXPECT_FALSE(c.passed);
  EXPECT_NE(c.detail.str().find("the layer that lost the most: Sub 'sub'"), std::string::npos)
      << c.detail.str();
}

// Below IR version 4 quantize_static writes its scales and zero points as
// Constant nodes (mnist8_cntk), which feed the QuantizeLinears as their second
// and third inputs. Only the first input is what a QuantizeLinear quantizes:
// taking the quantized copy's SNR as a scale Constant's output blamed that
// Constant (no input, so "150 dB in") for the Relu's output quantization.
const char* kRelu = R"(<ir_version: 3, opset_import: ["" : 13]>
main (float[1,64] x) => (float[1,64] y)
<float w = {3}>
{
  [scale] m = Mul(x, w)
  [relu] r = Relu(m)
  [out] y = Identity(r)
})";

const char* kReluQuantized = R"(<ir_version: 3, opset_import: ["" : 13]>
main (float[1,64] x) => (float[1,64] y)
<float w = {3}, float xs = {0.05}, uint8 xz = {128}>
{
  xq = QuantizeLinear(x, xs, xz)
  xd = DequantizeLinear(xq, xs, xz)
  [scale] m = Mul(xd, w)
  [relu] r = Relu(m)
  [r_scale] rs = Constant <value = float {0.25}> ()
  [r_zero_point] rz = Constant <value = uint8 {0}> ()
  rq = QuantizeLinear(r, rs, rz)
  rd = DequantizeLinear(rq, rs, rz)
  [out] y = Identity(rd)
})";

TEST(LossyBlame, AQuantizationScaleConstantIsNotALayer) {
  ir::Model m = parsed(kRelu);
  NoiseOptions quiet;
  quiet.draws = 0;
  auto checker = ExecOutputChecker::create(m, 2, {}, quiet);
  ASSERT_TRUE(checker) << checker.error().message();
  AccuracyBudget tight;
  tight.minSnrDb = 300;  // over budget, so the check names a layer
  NumericCheck c = (*checker)->checkWithinBudget(parsed(kReluQuantized), tight);
  EXPECT_FALSE(c.passed);
  const std::string detail = c.detail.str();
  EXPECT_EQ(detail.find("Constant"), std::string::npos) << detail;
  EXPECT_NE(detail.find("the layer that lost the most: Relu 'relu'"), std::string::npos) << detail;
}

}  // namespace
}  // namespace passlab::pipeline
