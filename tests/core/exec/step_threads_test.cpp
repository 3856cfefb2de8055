// Threads per step (issue #26): small nodes run on the calling thread only,
// big ones on all; results do not depend on it.
#include "core/exec/step_threads.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>

#include "core/exec/compiler.h"
#include "core/exec/cpu/cpu_backend.h"
#include "exec_test_util.h"

namespace passlab::exec {
namespace {

using testutil::floats;
using testutil::parseModel;
using testutil::toFloats;

TEST(StepThreads, SmallWorkRunsOnOneThreadBigOnAll) {
  // Microseconds of analysis::workMicros (its own tests: work_micros_test.cpp).
  EXPECT_EQ(threadsForWork(0.5, 2), 1);
  EXPECT_EQ(threadsForWork(kSingleThreadMicros - 1, 2), 1);
  EXPECT_EQ(threadsForWork(kSingleThreadMicros, 2), 2);
  EXPECT_EQ(threadsForWork(5000.0, 8), 8);
  EXPECT_EQ(threadsForWork(-1.0, 2), 2);                      // not known: every thread, as before
  EXPECT_EQ(threadsForWork(0.5, 4, /*limitMicros=*/0.0), 4);  // no limit: every thread
}

// The step of `plan` whose node produces `name`.
size_t stepProducing(const CompiledGraph& plan, const std::string& name) {
  for (size_t i = 0; i < plan.steps.size(); ++i)
    for (const ir::Value* v : plan.steps[i].node->outputs())
      if (v != nullptr && v->name() == name) return i;
  ADD_FAILURE() << "no step produces " << name;
  return 0;
}

constexpr const char* kMixed = R"(
    main (float[N,256] a, float[256,256] b, float[3] c) => (float[N,256] y, float[3] z) {
      y = MatMul(a, b)
      z = Relu(c)
    })";

struct Compiled {
  ir::Model model;
  std::unique_ptr<Compiler> compiler;
  std::unique_ptr<CompiledGraph> plan;
};

Compiled compile(const char* text) {
  Compiled c{parseModel(text), nullptr, nullptr};
  c.compiler =
      std::make_unique<Compiler>(c.model, cpu::kernelRegistry(), /*referenceKernels=*/false);
  auto plan = c.compiler->compile(c.model.graph(), nullptr);
  EXPECT_TRUE(plan) << (plan ? "" : plan.error().message());
  if (plan) c.plan = std::move(plan).value();
  return c;
}

StepThreads::Inputs mixedInputs(int64_t n) {
  std::vector<float> a(static_cast<size_t>(n * 256)), b(256 * 256);
  for (size_t i = 0; i < a.size(); ++i) a[i] = std::sin(0.37f * static_cast<float>(i));
  for (size_t i = 0; i < b.size(); ++i) b[i] = std::cos(0.11f * static_cast<float>(i)) / 16;
  return {{"a", Value(Tensor::fromIr(floats({n, 256}, a)))},
          {"b", Value(Tensor::fromIr(floats({256, 256}, b)))},
          {"c", Value(Tensor::fromIr(floats({3}, {-1, 0.5f, 2})))}};
}

TEST(StepThreads, DecidesPerStepFromTheRunsInputShapes) {
  Compiled c = compile(kMixed);
  ASSERT_TRUE(c.plan);
  size_t matmul = stepProducing(*c.plan, "y"), relu = stepProducing(*c.plan, "z");
  StepThreads threads;
  // 512 rows: 67 MFLOP, worth two threads; the Relu of 3 elements is not.
  std::vector<bool> big = threads.prepare(c.model, *c.plan, mixedInputs(512));
  ASSERT_EQ(big.size(), c.plan->steps.size());
  EXPECT_FALSE(big[matmul]);
  EXPECT_TRUE(big[relu]);
  // One row (131 kFLOP, 258 KiB, 15 us): small, decided again for the new shape.
  std::vector<bool> small = threads.prepare(c.model, *c.plan, mixedInputs(1));
  EXPECT_TRUE(small[matmul]);
  EXPECT_TRUE(small[relu]);
}

TEST(StepThreads, UnknownShapesKeepEveryThread) {
  Compiled c = compile(kMixed);
  ASSERT_TRUE(c.plan);
  StepThreads threads;
  // Only c is given a shape: the MatMul's cost is not known.
  StepThreads::Inputs inputs = mixedInputs(1);
  inputs.erase(inputs.begin());
  std::vector<bool> single = threads.prepare(c.model, *c.plan, inputs);
  EXPECT_FALSE(single[stepProducing(*c.plan, "y")]);
  EXPECT_TRUE(single[stepProducing(*c.plan, "z")]);
}

TEST(StepThreads, TheEnvironmentSetsTheLimit) {
  Compiled c = compile(kMixed);
  ASSERT_TRUE(c.plan);
  size_t relu = stepProducing(*c.plan, "z"), matmul = stepProducing(*c.plan, "y");
  ::setenv("PASSLAB_SMALL_STEP_MICROS", "0", 1);  // every step on every thread
  std::vector<bool> off = StepThreads().prepare(c.model, *c.plan, mixedInputs(512));
  ::setenv("PASSLAB_SMALL_STEP_MICROS", "1e9", 1);  // every step with a known cost on one
  std::vector<bool> all = StepThreads().prepare(c.model, *c.plan, mixedInputs(512));
  ::unsetenv("PASSLAB_SMALL_STEP_MICROS");
  EXPECT_FALSE(off[relu]);
  EXPECT_FALSE(off[matmul]);
  EXPECT_TRUE(all[relu]);
  EXPECT_TRUE(all[matmul]);
}

TEST(StepThreads, ResultsDoNotDependOnTheDecision) {
  // Two threads (big MatMul split, small steps on one) against one thread,
  // and both against a double reference.
  const int64_t n = 512;
  StepThreads::Inputs inputs = mixedInputs(n);
  ir::Model m = parseModel(kMixed);
  auto ex = Executor::create(m, {});
  ASSERT_TRUE(ex) << ex.error().message();
  RunOptions one, two;
  one.threads = 1;
  two.threads = 2;
  auto r1 = (*ex)->run(inputs, one);
  auto r2 = (*ex)->run(inputs, two);
  auto r3 = (*ex)->run(mixedInputs(1), two);  // every step small now
  ASSERT_TRUE(r1 && r2 && r3);
  std::vector<float> y1 = toFloats(r1->outputs[0]), y2 = toFloats(r2->outputs[0]);
  const float* a = inputs[0].second.tensor().data<float>();
  const float* b = inputs[1].second.tensor().data<float>();
  for (int64_t i = 0; i < n; i += 37)
    for (int64_t j = 0; j < 256; j += 5) {
      double want = 0;
      for (int64_t k = 0; k < 256; ++k) want += double(a[i * 256 + k]) * b[k * 256 + j];
      EXPECT_NEAR(y1[size_t(i * 256 + j)], want, 1e-3) << i << "," << j;
      EXPECT_NEAR(y2[size_t(i * 256 + j)], want, 1e-3) << i << "," << j;
    }
  testutil::expectNear(toFloats(r2->outputs[1]), {0, 0.5f, 2});
  std::vector<float> y3 = toFloats(r3->outputs[0]);
  for (int64_t j = 0; j < 256; ++j) EXPECT_NEAR(y3[size_t(j)], y1[size_t(j)], 1e-4) << j;
}

// A Scan over two rows of cs whose body multiplies the state by b (big when
// a has many rows) and applies Relu to a row of 3 (always small).
constexpr const char* kScanBody = R"(
    main (float[N,256] a, float[256,256] b, float[2,3] cs) => (float[N,256] y, float[2,3] zs) {
      y, zs = Scan <num_scan_inputs = 1, body = body (float[?,256] s, float[?] c) => (float[?,256] so, float[?] z) {
        so = MatMul(s, b)
        z = Relu(c)
      }> (a, cs)
    })";

// The node of `model`'s first subgraph body that produces `name`.
const ir::Node* bodyNodeProducing(const ir::Model& model, const std::string& name) {
  for (const auto& n : model.graph().nodes())
    for (const ir::Graph* body : n->subgraphs())
      for (const auto& b : body->nodes())
        for (const ir::Value* v : b->outputs())
          if (v != nullptr && v->name() == name) return &*b;
  ADD_FAILURE() << "no body node produces " << name;
  return nullptr;
}

StepThreads::Inputs scanInputs(int64_t n) {
  StepThreads::Inputs inputs = mixedInputs(n);
  inputs[2] = {"cs", Value(Tensor::fromIr(floats({2, 3}, {-1, 0.5f, 2, 3, -4, 0})))};
  return inputs;
}

TEST(StepThreads, DecidesForTheNodesOfSubgraphBodies) {
  Compiled c = compile(kScanBody);
  ASSERT_TRUE(c.plan);
  const ir::Node* matmul = bodyNodeProducing(c.model, "so");
  const ir::Node* relu = bodyNodeProducing(c.model, "z");
  StepThreads threads;
  std::vector<bool> main = threads.prepare(c.model, *c.plan, scanInputs(512));
  ASSERT_EQ(main.size(), 1u);
  EXPECT_FALSE(main[0]);  // the Scan itself: its body's nodes decide
  EXPECT_EQ(threads.singleBodyNodes().count(matmul), 0u);  // 67 MFLOP per iteration
  EXPECT_EQ(threads.singleBodyNodes().count(relu), 1u);
  threads.prepare(c.model, *c.plan, scanInputs(1));
  EXPECT_EQ(threads.singleBodyNodes().count(matmul), 1u);  // one row: small now
  EXPECT_EQ(threads.singleBodyNodes().count(relu), 1u);
  ::setenv("PASSLAB_SMALL_STEP_MICROS", "0", 1);
  threads.prepare(c.model, *c.plan, scanInputs(2));
  ::unsetenv("PASSLAB_SMALL_STEP_MICROS");
  EXPECT_TRUE(threads.singleBodyNodes().empty());
}

// kScanBody with the body's state declared [R,256] with its own R, which the
// outer shapes do not replace: the body MatMul's cost is not known before
// running.
std::string symbolicScanBody() {
  std::string text = kScanBody;
  text.replace(text.find("float[?,256] s"), 14, "float[R,256] s");
  return text;
}

TEST(StepThreads, BodyNodesOfUnknownCostAreDecidedAtRunTime) {
  std::string text = symbolicScanBody();
  Compiled c = compile(text.c_str());
  ASSERT_TRUE(c.plan);
  const ir::Node* matmul = bodyNodeProducing(c.model, "so");
  const ir::Node* relu = bodyNodeProducing(c.model, "z");
  StepThreads threads;
  threads.prepare(c.model, *c.plan, scanInputs(1));
  EXPECT_EQ(threads.singleBodyNodes().count(matmul), 0u);
  EXPECT_EQ(threads.runTimeBodyNodes().count(matmul), 1u);
  EXPECT_EQ(threads.singleBodyNodes().count(relu), 1u);
  EXPECT_EQ(threads.runTimeBodyNodes().count(relu), 0u);

  using Choice = RunShapeThreads::Choice;
  StepThreads::Inputs small = scanInputs(1), big = scanInputs(512);
  Value smallOut(Tensor::zeros(ir::DataType::kFloat, {1, 256}));
  Value bigOut(Tensor::zeros(ir::DataType::kFloat, {512, 256}));
  std::vector<const Value*> smallIns{&small[0].second, &small[1].second};
  std::vector<const Value*> bigIns{&big[0].second, &big[1].second};
  EXPECT_EQ(threads.bodyStep(*relu, smallIns), Choice::kOne);
  EXPECT_EQ(threads.bodyStep(*matmul, smallIns), Choice::kLearn);  // not run yet
  threads.learnBodyStep(*matmul, smallIns, {smallOut});
  EXPECT_EQ(threads.bodyStep(*matmul, smallIns), Choice::kOne);  // 131 kFLOP
  EXPECT_EQ(threads.bodyStep(*matmul, bigIns), Choice::kLearn);  // other dims
  threads.learnBodyStep(*matmul, bigIns, {bigOut});
  EXPECT_EQ(threads.bodyStep(*matmul, bigIns), Choice::kAll);  // 67 MFLOP
  EXPECT_EQ(threads.bodyStep(*matmul, smallIns), Choice::kOne);
}

TEST(RunShapeThreads, CostOnTensorsIsTheStaticModelsOnThoseShapes) {
  ir::Model m = parseModel(kMixed);
  const ir::Node* matmul = nullptr;
  for (const auto& n : m.graph().nodes())
    if (n->opType() == "MatMul") matmul = &*n;
  ASSERT_NE(matmul, nullptr);
  StepThreads::Inputs in = mixedInputs(8);
  Value out(Tensor::zeros(ir::DataType::kFloat, {8, 256}));
  analysis::NodeCost cost = costOnTensors(*matmul, {&in[0].second, &in[1].second}, {out});
  ASSERT_TRUE(cost.known);
  EXPECT_DOUBLE_EQ(cost.flops, 2.0 * 8 * 256 * 256);
  EXPECT_EQ(cost.bytesRead, (8u * 256 + 256u * 256) * 4);
  EXPECT_EQ(cost.bytesWritten, 8u * 256 * 4);
  Value none;
  EXPECT_FALSE(costOnTensors(*matmul, {&in[0].second, &none}, {out}).known);  // not a tensor
}

TEST(RunShapeThreads, StopsLearningAfterItsShapeLimit) {
  ir::Model m = parseModel(kMixed);
  const ir::Node* relu = nullptr;
  for (const auto& n : m.graph().nodes())
    if (n->opType() == "Relu") relu = &*n;
  ASSERT_NE(relu, nullptr);
  RunShapeThreads threads;
  using Choice = RunShapeThreads::Choice;
  for (size_t i = 1; i <= RunShapeThreads::kMaxShapesPerNode; ++i) {
    Value x(Tensor::zeros(ir::DataType::kFloat, {static_cast<int64_t>(i)}));
    ASSERT_EQ(threads.choose(*relu, {&x}), Choice::kLearn) << i;
    threads.learn(*relu, {&x}, {x}, kSingleThreadMicros);
    EXPECT_EQ(threads.choose(*relu, {&x}), Choice::kOne) << i;
  }
  Value another(Tensor::zeros(ir::DataType::kFloat, {1000}));
  EXPECT_EQ(threads.choose(*relu, {&another}), Choice::kAll);  // no more learning
}

void expectScanResultsAtOneAndTwoThreads(const std::string& text);

TEST(StepThreads, ScanResultsDoNotDependOnTheDecision) {
  // y = a·b·b and zs = Relu(cs) at one and two threads, for a big state
  // (body MatMul split) and a one-row one (every body step on one thread),
  // against a double reference.
  for (const std::string& text : {std::string(kScanBody), symbolicScanBody()})
    expectScanResultsAtOneAndTwoThreads(text);
}

void expectScanResultsAtOneAndTwoThreads(const std::string& text) {
  ir::Model m = parseModel(text);
  auto ex = Executor::create(m, {});
  ASSERT_TRUE(ex) << ex.error().message();
  for (int64_t n : {int64_t{256}, int64_t{1}, int64_t{256}, int64_t{1}}) {  // twice: learnt
    StepThreads::Inputs inputs = scanInputs(n);
    const float* a = inputs[0].second.tensor().data<float>();
    const float* b = inputs[1].second.tensor().data<float>();
    std::vector<double> once(static_cast<size_t>(n * 256), 0.0), twice(once.size(), 0.0);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t k = 0; k < 256; ++k)
        for (int64_t j = 0; j < 256; ++j)
          once[size_t(i * 256 + j)] += double(a[i * 256 + k]) * b[k * 256 + j];
    for (int64_t i = 0; i < n; ++i)
      for (int64_t k = 0; k < 256; ++k)
        for (int64_t j = 0; j < 256; ++j)
          twice[size_t(i * 256 + j)] += once[size_t(i * 256 + k)] * b[k * 256 + j];
    for (int threads : {1, 2}) {
      RunOptions run;
      run.threads = threads;
      auto r = (*ex)->run(inputs, run);
      ASSERT_TRUE(r) << r.error().message();
      std::vector<float> y = toFloats(r->outputs[0]);
      ASSERT_EQ(y.size(), twice.size());
      for (size_t i = 0; i < y.size(); i += 13)
        EXPECT_NEAR(y[i], twice[i], 1e-3 * (1 + std::fabs(twice[i])))
            << n << " " << threads << " " << i;
      testutil::expectNear(toFloats(r->outputs[1]), {0, 0.5f, 2, 3, 0, 0});
    }
  }
}

}  // namespace
}  // namespace passlab::exec
