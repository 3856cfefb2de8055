// The numeric check's step rule (core/pipeline/quant_steps.h): which outputs
// lie on a quantization grid, how an output is counted in steps, and on the
// corpus QDQ models that the rewrites which re-round once (fuse_qdq_into_qlinear,
// fuse_qdq_conv_integer) pass while planted bugs (a weight scale off by 20% or
// 1%, a wrong zero point, a miswired residual Add) fail.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "core/analysis/shape_inference.h"
#include "core/io/model_io.h"
#include "core/ir/graph.h"
#include "core/ir/node.h"
#include "core/pipeline/numeric_check.h"
#include "core/pipeline/quant_steps.h"
#include "tests/core/pipeline/qdq_corpus_test_util.h"
#include "tests/support/pass_harness.h"
#include "tests/support/test_support.h"

namespace passlab::pipeline {
namespace {

using testing::parse;

ir::Tensor floats(const std::vector<float>& v) {
  return ir::Tensor::fromVector<float>(ir::DataType::kFloat, {static_cast<int64_t>(v.size())}, v);
}

TEST(QuantSteps, OutputsOnAGridAndOutputsOffIt) {
  ir::Model m =
      parse(R"(main (uint8[1,4] q, uint8[1,4] r) => (float[4] a, float[1,4] s, float[1,4] t,
                                                        float[1,4] p, uint8[1,4] u,
                                                        uint8[1,4] v, uint8[1,4] w) 
<float s1 = {0.5}, uint8 z1 = {128}, float s2 = {0.25}, float[4] sc = {1, 2, 3, 4},
 int64[1] shape = {4}>
{
  d1 = DequantizeLinear(q, s1, z1)
  d2 = DequantizeLinear(r, s2, z1)
  a = Reshape(d1, shape)
  s = Add(d1, d2)
  t = Softmax(d1)
  p = DequantizeLinear <axis = 1> (q, sc, z1)
  u = Identity(q)
  v = QuantizeLinear(d1, s1, z1)
  w = Reshape(v, shape)
})");
  std::map<std::string, double> steps = outputSteps(m);
  EXPECT_EQ(steps.at("a"), 0.5);    // through a Reshape
  EXPECT_EQ(steps.at("s"), 0.75);   // a step of each addend
  EXPECT_EQ(steps.count("t"), 0u);  // a float tail: no grid
  EXPECT_EQ(steps.count("p"), 0u);  // per-axis scales: not judged in steps
  EXPECT_EQ(steps.count("u"), 0u);  // 8-bit data, not a quantization: exact
  EXPECT_EQ(steps.at("v"), 1.0);    // a quantized output
  EXPECT_EQ(steps.at("w"), 1.0);    // through a Reshape
}

TEST(QuantSteps, OneChannelMovedFailsWhereTheWholeOutputWouldPass) {
  const StepRule rule;  // at most 1% of the elements, 5% of a channel of 64 or more
  const std::vector<int64_t> dims{1, 16, 100};
  std::vector<float> want(1600, 0.5f);
  const auto tensor = [&](const std::vector<float>& v) {
    return ir::Tensor::fromVector<float>(ir::DataType::kFloat, dims, v);
  };
  std::vector<float> got = want;
  for (int i = 0; i < 10; ++i) got[3 * 100 + 7 * i] += 0.5f;  // 10% of channel 3
  StepCount c = countSteps(tensor(got), tensor(want), 0.5, 0, rule);
  EXPECT_EQ(c.moved, 10);  // 0.6% of the output
  EXPECT_EQ(c.worstChannel, 3);
  EXPECT_DOUBLE_EQ(c.worstChannelShare, 0.1);
  EXPECT_FALSE(withinSteps(c, rule));
  got = want;
  for (int i = 0; i < 10; ++i) got[i * 100 + 7 * i] += 0.5f;  // one in each of 10 channels
  c = countSteps(tensor(got), tensor(want), 0.5, 0, rule);
  EXPECT_DOUBLE_EQ(c.worstChannelShare, 0.01);
  EXPECT_TRUE(withinSteps(c, rule));
  // Channels of fewer than 64 elements are not judged alone.
  const std::vector<int64_t> wide{1, 400, 4};
  got = want;
  for (int i = 0; i < 10; ++i) got[static_cast<size_t>(4 * i)] += 0.5f;
  c = countSteps(ir::Tensor::fromVector<float>(ir::DataType::kFloat, wide, got),
                 ir::Tensor::fromVector<float>(ir::DataType::kFloat, wide, want), 0.5, 0, rule);
  EXPECT_EQ(c.worstChannel, -1);
  EXPECT_TRUE(withinSteps(c, rule));
}

TEST(QuantSteps, CountsElementsInSteps) {
  const StepRule rule;  // at most 2 steps, at most 1% of the elements
  std::vector<float> want(400), got;
  for (size_t i = 0; i < want.size(); ++i) want[i] = 0.5f * static_cast<float>(i % 7);
  got = want;
  got[3] += 0.5f;  // one step
  got[9] -= 1.0f;  // two steps
  StepCount c = countSteps(floats(got), floats(want), 0.5, 0, rule);
  EXPECT_EQ(c.moved, 2);
  EXPECT_EQ(c.compared, 400);
  EXPECT_EQ(c.beyond, 0);
  EXPECT_DOUBLE_EQ(c.maxSteps, 2);
  EXPECT_TRUE(withinSteps(c, rule));  // 0.5% moved
  got[17] += 0.5f, got[30] += 0.5f, got[31] -= 0.5f;
  c = countSteps(floats(got), floats(want), 0.5, 0, rule);
  EXPECT_EQ(c.moved, 5);
  EXPECT_FALSE(withinSteps(c, rule));  // 1.25% moved
  got = want;
  got[5] += 1.5f;  // three steps
  c = countSteps(floats(got), floats(want), 0.5, 0, rule);
  EXPECT_EQ(c.beyond, 1);
  EXPECT_EQ(c.firstBeyond, 5);
  EXPECT_FALSE(withinSteps(c, rule));
  // Float rounding below the fixed tolerance is no step.
  got = want;
  got[1] += 1e-6f;
  c = countSteps(floats(got), floats(want), 0.5, 0, rule);
  EXPECT_EQ(c.moved, 0);
}

// ---- on the corpus QDQ models ----

using qdqcorpus::loadCorpus;

// A checker of `m` on 3 input sets, with the step rule on (`steps`) or as by
// default (off: quantized outputs held to the fixed tolerance).
std::unique_ptr<ExecOutputChecker> checkerOf(const ir::Model& m, bool steps = true) {
  NoiseOptions noise;
  noise.steps.enabled = steps;
  auto checker = ExecOutputChecker::create(m, 3, {}, noise);
  EXPECT_TRUE(checker) << checker.error().message();
  return checker ? std::move(*checker) : nullptr;
}

std::vector<ir::Node*> nodesOf(ir::Model& m, const std::string& op) {
  std::vector<ir::Node*> v;
  for (const auto& n : m.graph().nodes())
    if (n->opType() == op) v.push_back(n.get());
  return v;
}

// The DequantizeLinear feeding input `i` of `n`.
ir::Node* dequantizeOf(ir::Node* n, size_t i) {
  ir::Node* p = n->input(i) ? n->input(i)->producer() : nullptr;
  return p && p->opType() == "DequantizeLinear" ? p : nullptr;
}

// Multiplies every element of the float initializer `v` by `f`.
void scaleInitializer(ir::Model& m, ir::Value* v, float f) {
  const ir::Tensor* t = v->initializer();
  ASSERT_TRUE(t);
  std::vector<float> values(static_cast<size_t>(t->numel()));
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = static_cast<float>(t->valueAsDouble(static_cast<int64_t>(i))) * f;
  m.graph().setInitializer(v,
                           ir::Tensor::fromVector<float>(ir::DataType::kFloat, t->dims(), values));
}

// Multiplies the last output channel of `conv`'s 8-bit weights (less their
// zero point) by `f`, rounded and clamped, on a copy of its own.
void scaleLastChannel(ir::Model& m, ir::Node* conv, double f) {
  ir::Node* dq = dequantizeOf(conv, 1);
  ASSERT_TRUE(dq && dq->input(0)->initializer());
  const ir::Tensor* w = dq->input(0)->initializer();
  const bool u8 = w->dtype() == ir::DataType::kUInt8;
  ASSERT_TRUE(u8 || w->dtype() == ir::DataType::kInt8);
  const ir::Tensor* z =
      dq->inputs().size() > 2 && dq->input(2) ? dq->input(2)->initializer() : nullptr;
  const double zp = z ? static_cast<double>(z->valueAsInt64(0)) : 0;
  const int64_t perChannel = w->numel() / w->dims()[0];
  std::vector<int64_t> values(static_cast<size_t>(w->numel()));
  int changed = 0;
  for (int64_t i = 0; i < w->numel(); ++i) {
    values[static_cast<size_t>(i)] = w->valueAsInt64(i);
    if (i < w->numel() - perChannel) continue;
    const double v = std::round((static_cast<double>(w->valueAsInt64(i)) - zp) * f + zp);
    const auto q = static_cast<int64_t>(std::clamp(v, u8 ? 0.0 : -128.0, u8 ? 255.0 : 127.0));
    changed += q != values[static_cast<size_t>(i)];
    values[static_cast<size_t>(i)] = q;
  }
  ASSERT_GT(changed, 0);
  ir::Tensor planted =
      u8 ? ir::Tensor::fromVector<uint8_t>(w->dtype(), w->dims(),
                                           std::vector<uint8_t>(values.begin(), values.end()))
         : ir::Tensor::fromVector<int8_t>(w->dtype(), w->dims(),
                                          std::vector<int8_t>(values.begin(), values.end()));
  dq->setInput(0, m.graph().addInitializer("planted_weights_" + conv->name(), std::move(planted)));
}

struct PlantedBug {
  std::string what;
  std::function<void(ir::Model&)> plant;
};

std::vector<PlantedBug> plantedBugs(ir::Model& m) {
  std::vector<PlantedBug> bugs;
  const size_t convs = nodesOf(m, "Conv").size();
  for (size_t k = 0; k < convs; ++k)
    for (float f : {1.2f, 1.01f})
      bugs.push_back({"Conv " + std::to_string(k) + " weight scale x" + std::to_string(f),
                      [k, f](ir::Model& b) {
                        ir::Node* dq = dequantizeOf(nodesOf(b, "Conv")[k], 1);
                        ASSERT_TRUE(dq);
                        scaleInitializer(b, dq->input(1), f);
                      }});
  bugs.push_back({"zero point + 1 of the first Conv's input", [](ir::Model& b) {
                    ir::Node* dq = dequantizeOf(nodesOf(b, "Conv")[0], 0);
                    ASSERT_TRUE(dq && dq->inputs().size() > 2 && dq->input(2)->initializer());
                    const ir::Tensor* z = dq->input(2)->initializer();
                    ASSERT_EQ(z->dtype(), ir::DataType::kUInt8);
                    const auto v = static_cast<uint8_t>(z->valueAsInt64(0) + 1);
                    // A zero point of its own: the QuantizeLinear before it
                    // shares the original one (moving both would cancel).
                    dq->setInput(
                        2, b.graph().addInitializer("planted_zero_point",
                                                    ir::Tensor::fromVector<uint8_t>(
                                                        ir::DataType::kUInt8, z->dims(), {v})));
                  }});
  bugs.push_back({"the last residual Add wired to the first Conv's input", [](ir::Model& b) {
                    ir::Node* add = nodesOf(b, "Add").back();
                    ir::Value* first = nodesOf(b, "Conv")[0]->input(0);
                    ASSERT_NE(add->input(1), first);
                    add->setInput(1, first);
                  }});
  return bugs;
}

class QdqCorpus : public ::testing::TestWithParam<const char*> {};

TEST_P(QdqCorpus, CorrectRewritesPassInSteps) {
  PASSLAB_REQUIRE_CORPUS();
  ir::Model m = loadCorpus(GetParam());
  auto checker = checkerOf(m);
  ASSERT_TRUE(checker);
  EXPECT_EQ(checker->outputSteps().size(), m.graph().outputs().size());
  for (const char* pass : {"fuse_qdq_into_qlinear", "fuse_qdq_conv_integer"}) {
    SCOPED_TRACE(pass);
    ir::Model rewritten = testing::runPass(pass, m.clone()).model;
    NumericCheck c = checker->check(rewritten);
    EXPECT_TRUE(c.passed) << c.detail;
    // The rewrite does move a few elements (else the rule is not exercised).
    EXPECT_GT(c.stepMoved, 0);
    EXPECT_LE(c.stepWorstShare, 0.01);
    std::printf("%s %s: %lld of %lld elements moved, worst share %.3f%%, at most %.2f steps\n",
                GetParam(), pass, static_cast<long long>(c.stepMoved),
                static_cast<long long>(c.stepCompared), 100 * c.stepWorstShare, c.stepMostSteps);
  }
}

TEST_P(QdqCorpus, PlantedBugsFail) {
  PASSLAB_REQUIRE_CORPUS();
  ir::Model m = loadCorpus(GetParam());
  auto checker = checkerOf(m);
  ASSERT_TRUE(checker);
  for (const PlantedBug& bug : plantedBugs(m)) {
    SCOPED_TRACE(bug.what);
    ir::Model bugged = m.clone();
    bug.plant(bugged);
    NumericCheck c = checker->check(bugged);
    EXPECT_FALSE(c.passed);
    std::printf("%s %s: %s\n", GetParam(), bug.what.c_str(), c.detail.str().c_str());
  }
}

// Whether `conv`'s output reaches a graph output without passing another Conv.
bool feedsAnOutputDirectly(const ir::Model& m, const ir::Node* conv) {
  std::vector<const ir::Value*> todo{conv->output(0)};
  std::set<const ir::Value*> seen;
  while (!todo.empty()) {
    const ir::Value* v = todo.back();
    todo.pop_back();
    if (!v || !seen.insert(v).second) continue;
    for (const ir::Value* out : m.graph().outputs())
      if (out == v) return true;
    for (const ir::Use& use : v->uses())
      if (use.node->opType() != "Conv")
        for (const ir::Value* o : use.node->outputs()) todo.push_back(o);
  }
  return false;
}

// A bug confined to one output channel of one layer: the default (exact) rule
// fails it wherever it is; the step rule fails it in a layer that feeds an
// output directly (a large share of that output's channel moves), but not
// always deeper, where the next layer spreads it over all its channels: the
// reason the step rule is off by default.
TEST_P(QdqCorpus, OneChannelBugs) {
  PASSLAB_REQUIRE_CORPUS();
  ir::Model m = loadCorpus(GetParam());
  auto exact = checkerOf(m, false);
  auto steps = checkerOf(m, true);
  ASSERT_TRUE(exact && steps);
  const size_t convs = nodesOf(m, "Conv").size();
  int direct = 0;
  for (size_t k = 0; k < convs; ++k) {
    SCOPED_TRACE("Conv " + std::to_string(k));
    ir::Model bugged = m.clone();
    scaleLastChannel(bugged, nodesOf(bugged, "Conv")[k], 1.2);
    EXPECT_FALSE(exact->check(bugged).passed);
    NumericCheck c = steps->check(bugged);
    const bool lastLayer = feedsAnOutputDirectly(bugged, nodesOf(bugged, "Conv")[k]);
    if (lastLayer) EXPECT_FALSE(c.passed) << "worst channel share not judged";
    direct += lastLayer;
    std::printf("%s Conv %zu (%s) last channel x1.2, step rule: %s %s\n", GetParam(), k,
                lastLayer ? "feeds an output" : "inner", c.passed ? "passes" : "fails",
                c.detail.str().c_str());
  }
  EXPECT_GT(direct, 0);
}

// By default a QDQ model's outputs are held to the fixed tolerance: the
// correct re-rounding rewrites are not exact, so the exact check rejects them
// (they are lossy by name and judged against the budget).
TEST_P(QdqCorpus, DefaultCheckStaysExact) {
  PASSLAB_REQUIRE_CORPUS();
  ir::Model m = loadCorpus(GetParam());
  auto checker = checkerOf(m, false);
  ASSERT_TRUE(checker);
  ir::Model rewritten = testing::runPass("fuse_qdq_into_qlinear", m.clone()).model;
  NumericCheck c = checker->check(rewritten);
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.stepCompared, 0);
}

INSTANTIATE_TEST_SUITE_P(Models, QdqCorpus,
                         ::testing::Values("ort_qdq_multi_consumer_dq",
                                           "ort_qdq_multi_consumer_dq_fixed"));

}  // namespace
}  // namespace passlab::pipeline
