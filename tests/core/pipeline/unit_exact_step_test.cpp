// The pipeline's check of a pass exact per node unit (PassInfo::exactPerUnit,
// fuse_qdq_into_qlinear): the PassManager judges the step unit by unit
// (unit_check.h), with the values it did not rewire held to the model before
// it, and the whole model against the accuracy budget; a step whose units
// cannot be judged must leave the outputs equal; a failing step is rolled
// back; after an accepted step later exact passes are compared with the
// checked model's outputs (the re-based reference).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/analysis/shape_inference.h"
#include "core/io/model_io.h"
#include "core/passes/registry.h"
#include "core/pipeline/calibration.h"
#include "core/pipeline/input_synthesis.h"
#include "core/pipeline/numeric_check.h"
#include "core/pipeline/pass_manager.h"
#include "core/rewrite/match_utils.h"
#include "tests/core/pipeline/qdq_corpus_test_util.h"
#include "tests/support/pass_harness.h"
#include "tests/support/test_support.h"

namespace passlab::pipeline {
namespace {

const passes::Pass& fuseQdq() {
  const passes::Pass* p = passes::findPass("fuse_qdq_into_qlinear");
  EXPECT_TRUE(p);
  return *p;
}

// fuse_qdq_into_qlinear followed by `after` (a bug planted in what the pass
// left), under the real pass's flags.
class FuseThen : public passes::Pass {
 public:
  using After = std::function<void(ir::Model&, passes::PassContext&)>;
  explicit FuseThen(After after) : info_(fuseQdq().info()), after_(std::move(after)) {
    info_.id = "fuse_qdq_into_qlinear_planted";
  }
  const passes::PassInfo& info() const override { return info_; }
  Status run(passes::PassContext& ctx) const override {
    PASSLAB_RETURN_IF_ERROR(fuseQdq().run(ctx));
    after_(ctx.model(), ctx);
    return Status::ok();
  }

 private:
  passes::PassInfo info_;
  After after_;
};

// An exact pass of the test's own (not in the registry).
class ExactPass : public passes::Pass {
 public:
  using Body = std::function<void(ir::Model&, passes::PassContext&)>;
  explicit ExactPass(Body body) : body_(std::move(body)) {
    info_.id = "test_exact_pass";
    info_.kind = "test";
    info_.summaryEn = info_.summaryZh = "test";
  }
  const passes::PassInfo& info() const override { return info_; }
  Status run(passes::PassContext& ctx) const override {
    body_(ctx.model(), ctx);
    return Status::ok();
  }

 private:
  passes::PassInfo info_;
  Body body_;
};

using qdqcorpus::loadCorpus;
using qdqcorpus::qdqModel;

std::unique_ptr<ExecOutputChecker> checkerFor(const ir::Model& m) {
  auto c = ExecOutputChecker::create(m, 3, InputSpec{});
  EXPECT_TRUE(c) << c.error().message();
  return c ? std::move(c.value()) : nullptr;
}

size_t count(const ir::Model& m, const std::string& op) {
  size_t n = 0;
  for (const auto& node : m.graph().nodes()) n += node->opType() == op;
  return n;
}

ir::Node* lastOf(ir::Model& m, const std::string& op) {
  ir::Node* last = nullptr;
  for (const auto& node : m.graph().nodes())
    if (node->opType() == op) last = node.get();
  return last;
}

// Input `i` of `n` (a float constant) times `f`, under a new initializer.
// Set outside the rewriter: no edit of the log names it.
void scaleInput(ir::Model& m, ir::Node* n, size_t i, float f) {
  std::optional<ir::Tensor> t = rewrite::constantValue(n->input(i));
  ASSERT_TRUE(t && t->dtype() == ir::DataType::kFloat);
  std::vector<float> v(static_cast<size_t>(t->numel()));
  for (size_t k = 0; k < v.size(); ++k)
    v[k] = static_cast<float>(t->valueAsDouble(static_cast<int64_t>(k))) * f;
  n->setInput(i, m.graph().addInitializer(m.graph().freshName("planted"),
                                          ir::Tensor::fromVector<float>(t->dtype(), t->dims(), v)));
}

class QdqCorpusPipeline : public ::testing::TestWithParam<const char*> {};

// The correct rewrite is accepted through the wired check: its units are
// judged, the whole model is within the budget (the cumulative figures
// against the original are reported), and the checker is re-based. A second
// run changes nothing.
TEST_P(QdqCorpusPipeline, AcceptsTheCorrectRewrite) {
  PASSLAB_REQUIRE_CORPUS();
  ir::Model m = qdqModel(GetParam());
  auto checker = checkerFor(m);
  ASSERT_TRUE(checker);
  PassManager pm(m);
  pm.setChecker(checker.get());
  auto step = pm.run({"fuse_qdq_into_qlinear", {}, {}});
  ASSERT_TRUE(step) << step.error().message();
  const Step& s = **step;
  EXPECT_FALSE(s.rolledBack) << s.error;
  EXPECT_TRUE(s.changed);
  EXPECT_TRUE(s.check.passed) << s.check.detail;
  EXPECT_TRUE(s.check.unitsJudged) << s.check.detail;
  EXPECT_GT(s.check.units, 0u);
  EXPECT_LE(s.check.unitMoved * 100, s.check.unitCompared);  // under 1% moved
  EXPECT_TRUE(s.check.lossy);                                // the budget's figures
  EXPECT_FALSE(s.check.accuracy.empty());
  EXPECT_TRUE(pm.rebased());
  EXPECT_GT(count(m, "QLinearConv"), 0u);
  std::printf("%s: %zu units, %lld of %lld elements a step apart, %.0f ms\n", GetParam(),
              s.check.units, static_cast<long long>(s.check.unitMoved),
              static_cast<long long>(s.check.unitCompared), s.milliseconds);
  auto again = pm.run({"fuse_qdq_into_qlinear", {}, {}});
  ASSERT_TRUE(again);
  EXPECT_FALSE((*again)->changed);
  EXPECT_FALSE((*again)->rolledBack);
}

INSTANTIATE_TEST_SUITE_P(Models, QdqCorpusPipeline,
                         ::testing::Values("ort_qdq_multi_consumer_dq",
                                           "ort_qdq_multi_consumer_dq_fixed", "mnist8_cntk",
                                           "winml_squeezenet", "ultraface_rfb_320"));

const char* kModel = "ort_qdq_multi_consumer_dq";

// A bug inside a unit (the last QLinearConv's weight scale x1.2) fails the
// unit check: the step is rolled back and the unit named.
TEST(UnitExactStep, ABugInAUnitIsRolledBackAndNamed) {
  PASSLAB_REQUIRE_CORPUS();
  ir::Model m = loadCorpus(kModel);
  std::string plantedUnit;
  FuseThen pass([&](ir::Model& model, passes::PassContext&) {
    ir::Node* conv = lastOf(model, "QLinearConv");
    ASSERT_TRUE(conv);
    plantedUnit = conv->output(0)->name();
    scaleInput(model, conv, 4, 1.2f);
  });
  auto checker = checkerFor(m);
  ASSERT_TRUE(checker);
  PassManager pm(m);
  pm.setChecker(checker.get());
  auto step = pm.run(pass, {pass.info().id, {}, {}});
  ASSERT_TRUE(step);
  const Step& s = **step;
  EXPECT_TRUE(s.rolledBack);
  EXPECT_TRUE(s.check.unitsJudged);
  EXPECT_FALSE(s.check.passed);
  EXPECT_FALSE(s.check.worstUnit.empty());
  EXPECT_NE(s.error.str().find("unit '" + s.check.worstUnit + "'"), std::string::npos) << s.error;
  std::printf("planted in '%s': %s\n", plantedUnit.c_str(), s.error.str().c_str());
  EXPECT_EQ(count(m, "QLinearConv"), 0u);  // the QDQ form is back
  EXPECT_FALSE(pm.rebased());
}

// A bug outside the step's rewires (the scale of the kept DequantizeLinear
// that feeds the float Add before an output, x1.02) is not the units' to see
// (no original unit reads it), and it keeps the outputs within the budget;
// the kept values, held to what the model before the step computes from the
// units' outputs, fail at that DequantizeLinear's output: the step is rolled
// back and the value named. (The planted scale is set outside the rewriter,
// so the rollback leaves it: the model is not used after.)
TEST(UnitExactStep, ABugOutsideTheRewiresFailsTheKeptValues) {
  PASSLAB_REQUIRE_CORPUS();
  ir::Model m = loadCorpus(kModel);
  std::string planted;
  std::optional<ir::Model> bugged;
  FuseThen pass([&](ir::Model& model, passes::PassContext&) {
    ir::Node* dq = nullptr;
    for (const auto& n : model.graph().nodes())
      if (n->opType() == "DequantizeLinear" && !n->output(0)->isGraphOutput()) dq = n.get();
    ASSERT_TRUE(dq);
    ASSERT_EQ(dq->output(0)->uses().size(), 1u);
    ASSERT_EQ(dq->output(0)->uses()[0].node->opType(), "Add");
    planted = dq->output(0)->name();
    scaleInput(model, dq, 1, 1.02f);
    bugged = model.clone();
  });
  auto checker = checkerFor(m);
  ASSERT_TRUE(checker);
  PassManager pm(m);
  pm.setChecker(checker.get());
  auto step = pm.run(pass, {pass.info().id, {}, {}});
  ASSERT_TRUE(step);
  const Step& s = **step;
  EXPECT_TRUE(s.rolledBack);
  EXPECT_TRUE(s.check.unitsJudged) << s.error;
  EXPECT_EQ(s.check.firstDivergingTensor, planted) << s.check.detail;
  EXPECT_NE(s.check.detail.str().find("its units pass"), std::string::npos) << s.check.detail;
  EXPECT_NE(s.check.detail.str().find("'" + planted + "'"), std::string::npos) << s.check.detail;
  std::printf("%s\n", s.check.detail.str().c_str());
  // The bugged model is within the budget against the original: the budget
  // alone (the backup before the kept values) let it through.
  ASSERT_TRUE(bugged);
  EXPECT_TRUE(checker->checkWithinBudget(*bugged, AccuracyBudget{}).passed);
  EXPECT_FALSE(pm.rebased());
}

// A change in a float node after a unit (the bias of the Add behind the
// first quantized Conv of PassLab's quantize_static mnist8, + 1e-3) fails
// at that Add's output, though the outputs stay within the budget.
TEST(UnitExactStep, AChangedFloatNodeAfterAUnitIsRolledBackAndNamed) {
  PASSLAB_REQUIRE_CORPUS();
  ir::Model m = qdqModel("mnist8_cntk");
  std::string planted;
  std::optional<ir::Model> bugged;
  FuseThen pass([&](ir::Model& model, passes::PassContext&) {
    // The bias: an initializer (listed as a graph input by this IR version 4
    // file).
    ir::Node* add = nullptr;
    for (const auto& n : model.graph().nodes())
      if (!add && n->opType() == "Add" && n->input(0)->producer() &&
          n->input(0)->producer()->opType() == "DequantizeLinear" && n->input(1)->isInitializer())
        add = n.get();
    ASSERT_TRUE(add);
    planted = add->output(0)->name();
    const ir::Tensor& b = *add->input(1)->initializer();
    ASSERT_EQ(b.dtype(), ir::DataType::kFloat);
    std::vector<float> v(static_cast<size_t>(b.numel()));
    for (size_t k = 0; k < v.size(); ++k)
      v[k] = static_cast<float>(b.valueAsDouble(static_cast<int64_t>(k))) + 1e-3f;
    add->setInput(
        1, model.graph().addInitializer(model.graph().freshName("planted"),
                                        ir::Tensor::fromVector<float>(b.dtype(), b.dims(), v)));
    bugged = model.clone();
  });
  auto checker = checkerFor(m);
  ASSERT_TRUE(checker);
  PassManager pm(m);
  pm.setChecker(checker.get());
  auto step = pm.run(pass, {pass.info().id, {}, {}});
  ASSERT_TRUE(step);
  const Step& s = **step;
  EXPECT_TRUE(s.rolledBack);
  EXPECT_TRUE(s.check.unitsJudged) << s.error;
  EXPECT_EQ(s.check.firstDivergingTensor, planted) << s.check.detail;
  EXPECT_NE(s.check.detail.str().find("its units pass"), std::string::npos) << s.check.detail;
  std::printf("%s\n", s.check.detail.str().c_str());
  // The bugged model is within the budget against the original: the budget
  // alone (the backup before the kept values) let it through.
  ASSERT_TRUE(bugged);
  EXPECT_TRUE(checker->checkWithinBudget(*bugged, AccuracyBudget{}).passed);
  EXPECT_FALSE(pm.rebased());
}

// A step the units cannot judge (it also edits a node in place: an
// attribute of a kept DequantizeLinear, set to its own value) is held to
// equal outputs: the correct rewrite's roundings move this model's outputs,
// so it is rolled back.
TEST(UnitExactStep, AStepTheUnitsCannotJudgeMustLeaveOutputsEqual) {
  PASSLAB_REQUIRE_CORPUS();
  ir::Model m = loadCorpus(kModel);
  FuseThen pass([](ir::Model& model, passes::PassContext& ctx) {
    ir::Node* dq = lastOf(model, "DequantizeLinear");
    ASSERT_TRUE(dq);
    ctx.rewriter.setAttr(dq, ir::Attribute::makeInt("axis", 1));
  });
  auto checker = checkerFor(m);
  ASSERT_TRUE(checker);
  PassManager pm(m);
  pm.setChecker(checker.get());
  auto step = pm.run(pass, {pass.info().id, {}, {}});
  ASSERT_TRUE(step);
  const Step& s = **step;
  EXPECT_TRUE(s.rolledBack);
  EXPECT_FALSE(s.check.unitsJudged);
  EXPECT_FALSE(s.check.lossy);  // the exact check, not the budget
  EXPECT_NE(s.check.detail.str().find("not judged"), std::string::npos) << s.check.detail;
  EXPECT_EQ(count(m, "QLinearConv"), 0u);
}

// After the accepted rewrite, an exact pass is compared with the rewritten
// model's outputs: an exact edit passes (against the original's outputs it
// would fail by the rewrite's roundings), a planted bug still fails.
TEST(UnitExactStep, LaterExactPassesAreJudgedAgainstTheRebasedReference) {
  PASSLAB_REQUIRE_CORPUS();
  ir::Model m = loadCorpus(kModel);
  const ir::Model original = m.clone();
  auto checker = checkerFor(m);
  ASSERT_TRUE(checker);
  PassManager pm(m);
  pm.setChecker(checker.get());
  auto fused = pm.run({"fuse_qdq_into_qlinear", {}, {}});
  ASSERT_TRUE(fused && !(*fused)->rolledBack && (*fused)->changed);
  ASSERT_TRUE(pm.rebased());
  // An Identity in front of the float Add: exact.
  ExactPass exact([](ir::Model& model, passes::PassContext& ctx) {
    ir::Node* add = lastOf(model, "Add");
    ASSERT_TRUE(add);
    ir::Node* id = ctx.rewriter.addNode(model.graph(), "Identity", "", {add->input(0)}, 1, add,
                                        "planted_identity", {add});
    ctx.rewriter.setType(id->output(0), add->input(0)->type());
    ctx.rewriter.setInput(add, 0, id->output(0));
  });
  auto later = pm.run(exact, {exact.info().id, {}, {}});
  ASSERT_TRUE(later);
  EXPECT_TRUE((*later)->changed);
  EXPECT_TRUE((*later)->check.ran);
  EXPECT_FALSE((*later)->check.lossy);
  EXPECT_TRUE((*later)->check.passed) << (*later)->check.detail;
  // The same model against the original's outputs: moved by the rewrite.
  auto fresh = checkerFor(original);
  ASSERT_TRUE(fresh);
  EXPECT_FALSE(fresh->check(m).passed);
  // A bug in a later exact pass: the Add's other operand x1.001.
  ExactPass buggy([](ir::Model& model, passes::PassContext& ctx) {
    ir::Node* add = lastOf(model, "Add");
    ir::Value* k = ctx.rewriter.addInitializer(
        model.graph(), "planted_k",
        ir::Tensor::fromVector<float>(ir::DataType::kFloat, {}, {1.001f}));
    ir::Node* mul = ctx.rewriter.addNode(model.graph(), "Mul", "", {add->input(1), k}, 1, add,
                                         "planted_mul", {add});
    ctx.rewriter.setType(mul->output(0), add->input(1)->type());
    ctx.rewriter.setInput(add, 1, mul->output(0));
  });
  auto bad = pm.run(buggy, {buggy.info().id, {}, {}});
  ASSERT_TRUE(bad);
  EXPECT_TRUE((*bad)->changed);
  EXPECT_FALSE((*bad)->check.passed);
  EXPECT_FALSE((*bad)->check.lossy);
  EXPECT_TRUE(pm.stopped());
}

// The level: fuse_qdq_into_qlinear is in "fused", before the Conv fusions,
// and changes nothing on a float model (the fused level's output is as
// checked).
TEST(UnitExactStep, TheFusedLevelLeavesFloatModelsAlone) {
  auto fused = passes::passesForLevel("fused");
  ASSERT_TRUE(fused);
  auto at = [&](const char* id) {
    return std::find(fused->begin(), fused->end(), id) - fused->begin();
  };
  EXPECT_LT(at("fuse_qdq_into_qlinear"), at("fuse_conv_activation"));
  EXPECT_LT(at("fuse_qdq_into_qlinear"), static_cast<std::ptrdiff_t>(fused->size()));
  ir::Model m = testing::parse(R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,6,6] x) => (float[1,2,6,6] y)
<float[2,2,3,3] w = {0.1, -0.2, 0.3, 0.05, 0.4, -0.1, 0.2, 0.1, -0.3, 0.25, -0.15, 0.05, 0.3,
   -0.2, 0.1, 0.15, -0.05, 0.2, -0.1, 0.3, 0.2, -0.25, 0.1, 0.05, 0.15, -0.3, 0.2, 0.1, 0.05,
   -0.1, 0.2, 0.3, -0.2, 0.1, 0.25, -0.15}>
{
  c = Conv <pads = [1, 1, 1, 1]> (x, w)
  y = Relu(c)
})");
  analysis::inferShapes(m);
  auto checker = checkerFor(m);
  ASSERT_TRUE(checker);
  PipelineOptions po;
  po.standardOnly = false;
  PassManager pm(m, po);
  pm.setChecker(checker.get());
  std::vector<PassSpec> specs;
  for (const std::string& id : *fused) specs.push_back({id, {}, {}});
  ASSERT_TRUE(pm.runAll(specs).isOk());
  bool seen = false;
  for (const Step& s : pm.timeline().steps()) {
    EXPECT_TRUE(!s.check.ran || s.check.passed) << s.passId << ": " << s.check.detail;
    if (s.passId != "fuse_qdq_into_qlinear") continue;
    seen = true;
    EXPECT_FALSE(s.changed);
    EXPECT_FALSE(s.skipped) << s.note;
  }
  EXPECT_TRUE(seen);
  EXPECT_FALSE(pm.rebased());
}

}  // namespace
}  // namespace passlab::pipeline
