// The numeric check's step rule (core/pipeline/quant_steps.h): which outputs
// lie on a quantization grid, how an output is counted in steps, and on the
// corpus QDQ models that the rewrites which re-round once (fuse_qdq_into_qlinear,
// fuse_qdq_conv_integer) pass while planted bugs (a weight scale off by 20% or
// 1%, a wrong zero point, a miswired residual Add) fail.
#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "core/analysis/shape_inference.h"
#include "core/io/model_io.h"
#include "core/ir/graph.h"
#include "core/ir/node.h"
#include "core/pipeline/numeric_check.h"
#include "core/pipeline/quant_steps.h"
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
                                                        float[1,4] p, uint8[1,4] u) 
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
})");
  std::map<std::string, double> steps = outputSteps(m);
  EXPECT_EQ(steps.at("a"), 0.5);    // through a Reshape
  EXPECT_EQ(steps.at("s"), 0.75);   // a step of each addend
  EXPECT_EQ(steps.count("t"), 0u);  // a float tail: no grid
  EXPECT_EQ(steps.count("p"), 0u);  // per-axis scales: not judged in steps
  EXPECT_EQ(steps.at("u"), 1.0);    // an 8-bit output
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

ir::Model loadCorpus(const std::string& name) {
  auto loaded = io::loadModel(*testing::corpusDir() + "/models/" + name + ".onnx");
  EXPECT_TRUE(loaded) << name;
  ir::Model m = std::move(loaded->model);
  analysis::inferShapes(m);
  return m;
}

std::unique_ptr<ExecOutputChecker> checkerOf(const ir::Model& m) {
  auto checker = ExecOutputChecker::create(m, 3, {});
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

INSTANTIATE_TEST_SUITE_P(Models, QdqCorpus,
                         ::testing::Values("ort_qdq_multi_consumer_dq",
                                           "ort_qdq_multi_consumer_dq_fixed"));

}  // namespace
}  // namespace passlab::pipeline
