// The executor on small graphs: kernels chosen and run, values flow, outputs
// come back in graph-output order, profiles and arena peaks are reported.
#include <gtest/gtest.h>

#include "tests/core/exec/exec_test_util.h"

namespace passlab::exec {
namespace {

using testutil::floats;
using testutil::runText;
using testutil::toFloats;

TEST(Executor, RunsReluAndBroadcastAdd) {
  const char* text = R"(
    main (float[2,3] x, float[3] b) => (float[2,3] y, float[2,3] z) {
      t = Add(x, b)
      y = Relu(t)
      z = Sub(t, x)
    })";
  auto r = runText(
      text, {{"x", floats({2, 3}, {-1, 2, -3, 4, -5, 6})}, {"b", floats({3}, {0.5f, 0.5f, 10})}});
  ASSERT_EQ(r.outputs.size(), 2u);
  EXPECT_EQ(r.outputNames[0], "y");
  testutil::expectNear(toFloats(r.outputs[0]), {0, 2.5f, 7, 4.5f, 0, 16});
  testutil::expectNear(toFloats(r.outputs[1]), {0.5f, 0.5f, 10, 0.5f, 0.5f, 10});
  EXPECT_EQ(r.outputs[0].dims(), (std::vector<int64_t>{2, 3}));
}

TEST(Executor, BroadcastsBothWays) {
  const char* text = R"(
    main (float[2,1] a, float[1,3] b) => (float[2,3] y) { y = Mul(a, b) })";
  auto r = runText(text, {{"a", floats({2, 1}, {1, 2})}, {"b", floats({1, 3}, {1, 2, 3})}});
  testutil::expectNear(toFloats(r.outputs[0]), {1, 2, 3, 2, 4, 6});
}

TEST(Executor, MatMulWithBatchBroadcast) {
  const char* text = R"(
    main (float[2,2,3] a, float[3,2] b) => (float[2,2,2] y) { y = MatMul(a, b) })";
  std::vector<float> av = {1, 2, 3, 4, 5, 6, 1, 0, 0, 0, 1, 0};
  auto r = runText(text, {{"a", floats({2, 2, 3}, av)}, {"b", floats({3, 2}, {1, 2, 3, 4, 5, 6})}});
  testutil::expectNear(toFloats(r.outputs[0]), {22, 28, 49, 64, 1, 2, 3, 4});
}

TEST(Executor, ReportsProfileAndPeak) {
  const char* text = R"(
    main (float[64,64] x) => (float[64,64] y) {
      a = Relu(x)
      b = Neg(a)
      y = Relu(b)
    })";
  RunOptions run;
  run.profile = true;
  ExecutorOptions arenaOnly;
  arenaOnly.memoryPlan = false;
  auto r = runText(text, {{"x", ir::Tensor(ir::DataType::kFloat, {64, 64})}}, arenaOnly, run);
  ASSERT_EQ(r.profile.size(), 3u);
  EXPECT_EQ(r.profile[0].op, "Relu");
  EXPECT_EQ(r.profile[0].kernel, "cpu.Relu");
  EXPECT_EQ(r.profile[1].bytesRead, 64u * 64 * 4);
  EXPECT_EQ(r.profile[1].bytesWritten, 64u * 64 * 4);
  // a is released after b is computed, so at most two 16 KiB tensors are live.
  EXPECT_GE(r.peakArenaBytes, 2u * 64 * 64 * 4);
  EXPECT_LE(r.peakArenaBytes, 2u * 64 * 64 * 4 + 256);
  EXPECT_GT(r.totalMicros, 0.0);
  // On the memory plan (the default) b and y run in place: one 16 KiB block.
  auto planned = runText(text, {{"x", ir::Tensor(ir::DataType::kFloat, {64, 64})}}, {}, run);
  EXPECT_EQ(planned.peakArenaBytes, 64u * 64 * 4);
}

TEST(Executor, ReusesBuffersAlongAChain) {
  // Ten tensors in a chain, each dead after the next is made: the arena needs two.
  std::string body;
  std::string prev = "x";
  for (int i = 0; i < 10; ++i) {
    std::string next = i == 9 ? "y" : "t" + std::to_string(i);
    body += next + " = Neg(" + prev + ")\n";
    prev = next;
  }
  std::string text = "main (float[256] x) => (float[256] y) {\n" + body + "}";
  auto r = runText(text, {{"x", ir::Tensor(ir::DataType::kFloat, {256})}});
  EXPECT_LE(r.peakArenaBytes, 2u * 1024);
}

TEST(Executor, UsesWeightsInPlace) {
  const char* text = R"(
    main (float[3] x) => (float[3] y)
    <float[3] w = {1, 2, 3}>
    { y = Add(x, w) })";
  auto r = runText(text, {{"x", floats({3}, {1, 1, 1})}});
  testutil::expectNear(toFloats(r.outputs[0]), {2, 3, 4});
}

TEST(Executor, ReferenceKernelsOnlyOption) {
  const char* text = R"(main (float[2,2] a) => (float[2,2] y) { y = MatMul(a, a) })";
  ExecutorOptions opts;
  opts.referenceKernels = true;
  RunOptions run;
  run.profile = true;
  auto r = runText(text, {{"a", floats({2, 2}, {1, 2, 3, 4})}}, opts, run);
  testutil::expectNear(toFloats(r.outputs[0]), {7, 10, 15, 22});
  ASSERT_EQ(r.profile.size(), 1u);
  EXPECT_EQ(r.profile[0].kernel, "cpu.ref.MatMul");
}

// Outputs are copied out of the run's memory: a second run on the same
// executor (same arena, same memory plan) leaves the first result as it was,
// and a result's ir::Tensor and runtime value hold the same elements.
TEST(Executor, OutputsOutliveTheNextRun) {
  const char* text = R"(
    main (float[64,64] x, float[64] b) => (float[64,64] y, float[64,64] z) {
      t = Add(x, b)
      y = Relu(t)
      z = Neg(t)
    })";
  std::vector<float> x(64 * 64), b(64);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 97) - 48.0f;
  for (size_t i = 0; i < b.size(); ++i) b[i] = 0.25f * static_cast<float>(i);
  auto expected = [&](float sign) {
    std::vector<float> y(x.size()), z(x.size());
    for (size_t i = 0; i < x.size(); ++i) {
      float t = sign * x[i] + b[i % 64];
      y[i] = t > 0 ? t : 0;
      z[i] = -t;
    }
    return std::pair{y, z};
  };
  std::vector<float> negX(x.size());
  for (size_t i = 0; i < x.size(); ++i) negX[i] = -x[i];
  for (bool plan : {true, false}) {
    SCOPED_TRACE(plan ? "memory plan" : "arena");
    ExecutorOptions opts;
    opts.memoryPlan = plan;
    auto ex = Executor::create(testutil::parseModel(text), opts);
    ASSERT_TRUE(ex) << ex.error().message();
    auto first = (*ex)->run({{"x", floats({64, 64}, x)}, {"b", floats({64}, b)}});
    ASSERT_TRUE(first) << first.error().message();
    auto second = (*ex)->run({{"x", floats({64, 64}, negX)}, {"b", floats({64}, b)}});
    ASSERT_TRUE(second) << second.error().message();
    auto [y1, z1] = expected(1.0f);
    auto [y2, z2] = expected(-1.0f);
    testutil::expectNear(toFloats(first->outputs[0]), y1, 0);
    testutil::expectNear(toFloats(first->outputs[1]), z1, 0);
    testutil::expectNear(toFloats(second->outputs[0]), y2, 0);
    testutil::expectNear(toFloats(second->outputs[1]), z2, 0);
    for (const RunResult* r : {&*first, &*second})
      for (size_t i = 0; i < 2; ++i) {
        ASSERT_TRUE(r->values[i].isTensor());
        const Tensor& v = r->values[i].tensor();
        ASSERT_EQ(v.numel(), 64 * 64);
        std::vector<float> got(v.data<float>(), v.data<float>() + v.numel());
        testutil::expectNear(got, toFloats(r->outputs[i]), 0);
      }
  }
}

}  // namespace
}  // namespace passlab::exec
