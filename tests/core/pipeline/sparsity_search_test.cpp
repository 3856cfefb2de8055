// The pruning ratio of each layer chosen by the budget (core/pipeline/
// sparsity_search.h) on two MatMul layers: fc1 has half its weights tiny (its
// ratio is 0.5: the tiny ones go, the next one costs far more than the
// budget), fc2 has weights of graded size. Structural (the zeros of the
// result), numeric (each ratio holds alone, the next step does not; the layers
// together hold the budget), convergence (the ratios applied again change
// nothing) and negative (a budget nothing meets leaves every layer dense;
// bad steps and patterns are refused).
#include "core/pipeline/sparsity_search.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/analysis/shape_inference.h"
#include "core/analysis/sparsity.h"
#include "core/io/text_format.h"
#include "core/pipeline/pass_manager.h"
#include "tests/core/pipeline/checked_model_test.h"

namespace passlab::pipeline {
namespace {

// x [4, 8] -> fc1 (w1 [8, 8]: 32 weights near +-1, 32 of 1e-4) -> Relu -> fc2 (w2 [8, 4]) -> y.
std::string net() {
  std::ostringstream w1, w2;
  for (int i = 0; i < 64; ++i) {
    const double big = (i % 3 ? 1.0 : -1.0) * (0.8 + 0.01 * i);
    w1 << (i ? ", " : "") << (i % 2 ? big : 1e-4 * ((i % 4) - 1.5));
  }
  for (int i = 0; i < 32; ++i) w2 << (i ? ", " : "") << (i % 2 ? 1 : -1) * 0.05 * (i + 1);
  return R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[4,8] x) => (float[4,4] y) <float[8,8] w1 = {)" +
         w1.str() + R"(}, float[8,4] w2 = {)" + w2.str() + R"(}> {
    [fc1] h = MatMul(x, w1)
    r = Relu(h)
    [fc2] y = MatMul(r, w2) })";
}

class SparsitySearch : public CheckedModelTest {
 protected:
  void SetUp() override { ASSERT_NO_FATAL_FAILURE(load(net())); }
  // `layer` alone at `ratio` on a copy: does it hold `budget`?
  bool holdsAlone(const SparsityLayer& layer, double ratio, const AccuracyBudget& budget) {
    ir::Model copy = model_.clone();
    PipelineOptions po;
    po.keepSnapshots = false;
    po.budget = budget;
    PassManager pm(copy, po);
    pm.setChecker(checker_.get());
    rewrite::NodeFilter only;
    only.only.insert(layer.node);
    auto step = pm.run({"prune_magnitude", pruneOptions({}, ratio), only});
    EXPECT_TRUE(step);
    return step && !(*step)->rolledBack;
  }
  const SparsityLayer* find(const std::vector<SparsityLayer>& layers, const std::string& name) {
    for (const auto& l : layers)
      if (l.describe.find("'" + name + "'") != std::string::npos) return &l;
    return nullptr;
  }
};

TEST_F(SparsitySearch, ChoosesTheLargestRatioEachLayerHoldsAlone) {
  auto layers = searchSparsity(model_, *checker_, snr(30), {});
  ASSERT_TRUE(layers) << layers.error().message();
  ASSERT_EQ(layers->size(), 2u);
  const SparsityLayer* fc1 = find(*layers, "fc1");
  const SparsityLayer* fc2 = find(*layers, "fc2");
  ASSERT_TRUE(fc1 && fc2);
  EXPECT_EQ(fc1->weights, 64);
  EXPECT_DOUBLE_EQ(fc1->ratio, 0.5);  // the 32 tiny weights, not one more
  EXPECT_GE(fc1->snrDb, 30);
  for (const SparsityLayer* l : {fc1, fc2}) {
    EXPECT_LE(l->trials, 6) << l->describe;  // 0.95, then a bisection of 20 steps
    if (l->ratio > 0) EXPECT_TRUE(holdsAlone(*l, l->ratio, snr(30))) << l->describe;
    if (l->ratio < 0.95) EXPECT_FALSE(holdsAlone(*l, l->ratio + 0.05, snr(30))) << l->describe;
  }
}

TEST_F(SparsitySearch, TheLayersPrunedTogetherHoldTheBudget) {
  auto layers = searchSparsity(model_, *checker_, snr(30), {});
  ASSERT_TRUE(layers);
  ir::Model result = model_.clone();
  auto check = applySparsity(result, *checker_, *layers, snr(30), {});
  ASSERT_TRUE(check) << check.error().message();
  ASSERT_TRUE(check->ran);
  EXPECT_TRUE(check->passed) << check->detail.str();
  const SparsityLayer* fc1 = find(*layers, "fc1");
  ASSERT_TRUE(fc1);
  EXPECT_TRUE(fc1->applied);
  EXPECT_EQ(fc1->zerosBefore, 0);
  EXPECT_EQ(fc1->zerosAfter, 32);
  // The result's weights hold those zeros.
  int64_t zeros = 0;
  for (const auto& l : analysis::sparsityReport(result))
    if (l.node == fc1->node) zeros = l.zeros;
  EXPECT_EQ(zeros, 32);
  // Applying the same ratios again changes nothing.
  ir::Model again = result.clone();
  std::vector<SparsityLayer> copy = *layers;
  auto second = applySparsity(again, *checker_, copy, snr(30), {});
  ASSERT_TRUE(second);
  for (const auto& l : copy) EXPECT_FALSE(l.applied) << l.describe;
}

TEST_F(SparsitySearch, ABudgetNothingMeetsLeavesEveryLayerDense) {
  auto layers = searchSparsity(model_, *checker_, snr(400), {});
  ASSERT_TRUE(layers) << layers.error().message();
  EXPECT_EQ(layers->size(), 2u);  // both candidates, neither pruned
  ir::Model result = model_.clone();
  auto check = applySparsity(result, *checker_, *layers, snr(400), {});
  ASSERT_TRUE(check);
  for (const auto& l : *layers) {
    EXPECT_EQ(l.ratio, 0) << l.describe;
    EXPECT_FALSE(l.applied);
    EXPECT_EQ(l.zerosAfter, 0);
  }
}

TEST_F(SparsitySearch, RefusesBadStepsAndPatterns) {
  SparsityOptions o;
  o.steps = 1;
  auto bad = searchSparsity(model_, *checker_, snr(30), o);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message().find("sparsity steps 1 is not between 2 and 1000"),
            std::string::npos);
  o.steps = 20;
  o.pattern = "2:4";
  auto pattern = searchSparsity(model_, *checker_, snr(30), o);
  ASSERT_FALSE(pattern);
  EXPECT_NE(pattern.error().message().find("pattern '2:4' has no ratio to choose"),
            std::string::npos);
}

// A residual stream: h and b (which reads h) are added by s, so the channel
// pattern searches them as one unit (one ratio, the same channels zero in
// both); y is a layer of its own. Channels 2 and 3 are tiny in h and b.
const char* kStream = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,4,4] x) => (float[1,2,4,4] y)
    <float[4,2,1,1] w0 = {1, -1,  0.5, 1,  0.001, 0.002,  -0.001, 0.001},
     float[4] b0 = {0.1, -0.2, 0.001, 0.002},
     float[4,4,1,1] wb = {1, 0.5, 0.2, 0.1,  -0.5, 1, 0.1, 0.2,  0.001, 0.002, 0.001, 0.001,
                          0.002, -0.001, 0.001, 0.002},
     float[4] bb = {0.2, 0.1, 0.001, -0.001},
     float[2,4,1,1] wy = {1, 2, 3, 4,  4, 3, 2, 1}> {
    [h] h = Conv(x, w0, b0)
    [b] b = Conv(h, wb, bb)
    [s] s = Add(b, h)
    [y] y = Conv(s, wy) })";

class SparsitySearchStream : public CheckedModelTest {
 protected:
  void SetUp() override { ASSERT_NO_FATAL_FAILURE(load(kStream)); }
};

// The output channels of the weight of the node named `name` that are all zero.
std::vector<int64_t> zeroChannels(const ir::Model& m, const std::string& name) {
  for (const auto& n : m.graph().nodes()) {
    if (n->name() != name || !n->input(1)->initializer()) continue;
    const ir::Tensor& w = *n->input(1)->initializer();
    const std::vector<double> v = w.toDoubleVector();
    const size_t per = v.size() / static_cast<size_t>(w.dims()[0]);
    std::vector<int64_t> out;
    for (size_t c = 0; c < static_cast<size_t>(w.dims()[0]); ++c)
      if (std::all_of(v.begin() + c * per, v.begin() + (c + 1) * per,
                      [](double x) { return x == 0; }))
        out.push_back(static_cast<int64_t>(c));
    return out;
  }
  return {};
}

TEST_F(SparsitySearchStream, AResidualStreamIsOneUnit) {
  SparsityOptions o;
  o.pattern = "channel";
  auto layers = searchSparsity(model_, *checker_, snr(30), o);
  ASSERT_TRUE(layers) << layers.error().message();
  const SparsityLayer* unit = nullptr;
  for (const auto& l : *layers)
    if (l.describe.find("'h'") != std::string::npos) unit = &l;
  ASSERT_TRUE(unit);
  EXPECT_EQ(unit->stream.size(), 1u);
  EXPECT_EQ(unit->weights, 8 + 16);
  EXPECT_NE(unit->describe.find("+ 1 stream layers"), std::string::npos) << unit->describe;
  for (const auto& l : *layers) EXPECT_EQ(l.describe.find("'b'"), std::string::npos);
  // Two channels of four at most: the third would cost far more.
  EXPECT_GE(unit->ratio, 0.5);
  EXPECT_LT(unit->ratio, 0.75);
  ir::Model result = model_.clone();
  auto check = applySparsity(result, *checker_, *layers, snr(30), o);
  ASSERT_TRUE(check) << check.error().message();
  EXPECT_TRUE(check->passed) << check->detail.str();
  EXPECT_EQ(zeroChannels(result, "h"), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(zeroChannels(result, "b"), (std::vector<int64_t>{2, 3}));
  // Its zeros after count both layers' (4 + 8 weights).
  for (const auto& l : *layers) {
    if (l.describe.find("'h'") != std::string::npos) {
      EXPECT_EQ(l.zerosAfter, 12);
    }
  }
  // Unstructured: each layer on its own, no units.
  auto plain = searchSparsity(model_, *checker_, snr(30), {});
  ASSERT_TRUE(plain);
  for (const auto& l : *plain) EXPECT_TRUE(l.stream.empty()) << l.describe;
}

}  // namespace
}  // namespace passlab::pipeline
