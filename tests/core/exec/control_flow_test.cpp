// If, Loop and Scan: subgraphs read outer-scope values; a loop that never
// exits stops with an error naming the node; a cancel flag stops a run.
#include <gtest/gtest.h>

#include <thread>

#include "tests/core/exec/exec_test_util.h"

namespace passlab::exec {
namespace {

using testutil::floats;
using testutil::runText;
using testutil::toFloats;

ir::Tensor boolScalar(bool v) {
  return ir::Tensor::fromVector<uint8_t>(ir::DataType::kBool, {}, {static_cast<uint8_t>(v)});
}

const char* kIf = R"(
  main (bool c, float[2] x) => (float[2] y) {
    y = If <then_branch = g1 () => (float[2] a) { a = Relu(x) },
            else_branch = g2 () => (float[2] b) { b = Neg(x) }> (c)
  })";

TEST(ControlFlow, IfRunsTheChosenBranchOnOuterValues) {
  auto r = runText(kIf, {{"c", boolScalar(true)}, {"x", floats({2}, {-1, 2})}});
  testutil::expectNear(toFloats(r.outputs[0]), {0, 2});
  r = runText(kIf, {{"c", boolScalar(false)}, {"x", floats({2}, {-1, 2})}});
  testutil::expectNear(toFloats(r.outputs[0]), {1, -2});
}

// acc += x five times; the scan output collects every partial sum.
const char* kLoop = R"(
  main (float[1] x) => (float[1] total, float[5,1] partial)
  <int64 M = {5}, bool yes = {1}, float[1] zero = {0}>
  {
    total, partial = Loop <body = body (int64 i, bool c, float[1] acc) => (bool co, float[1] ao, float[1] so) {
      co = Identity(c)
      ao = Add(acc, x)
      so = Identity(ao)
    }> (M, yes, zero)
  })";

TEST(ControlFlow, LoopCarriesValuesAndStacksScanOutputs) {
  auto r = runText(kLoop, {{"x", floats({1}, {2})}});
  testutil::expectNear(toFloats(r.outputs[0]), {10});
  EXPECT_EQ(r.outputs[1].dims(), (std::vector<int64_t>{5, 1}));
  testutil::expectNear(toFloats(r.outputs[1]), {2, 4, 6, 8, 10});
}

const char* kEndless = R"(
  main (float[1] x) => (float[1] total)
  <bool yes = {1}>
  {
    [forever] total = Loop <body = body (int64 i, bool c, float[1] acc) => (bool co, float[1] ao) {
      co = Identity(c)
      ao = Add(acc, acc)
    }> (, yes, x)
  })";

TEST(ControlFlow, LoopWithoutExitStopsAtTheIterationCap) {
  RunOptions run;
  run.maxLoopIterations = 1000;
  std::string e = testutil::errorOf(kEndless, {{"x", floats({1}, {1})}}, run);
  EXPECT_NE(e.find("'forever'"), std::string::npos) << e;
  EXPECT_NE(e.find("1000 iterations"), std::string::npos) << e;
}

TEST(ControlFlow, CancelStopsALongRun) {
  ir::Model m = testutil::parseModel(kEndless);
  auto ex = Executor::create(m, {});
  ASSERT_TRUE(ex) << ex.error().message();
  std::atomic<bool> cancel{false};
  RunOptions run;
  run.cancel = &cancel;
  run.maxLoopIterations = INT64_MAX;
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    cancel = true;
  });
  auto r = (*ex)->run({{"x", floats({1}, {1})}}, run);
  stopper.join();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), ErrorCode::kCancelled) << r.error().message();
  // Still usable afterwards.
  cancel = false;
  run.maxLoopIterations = 10;
  auto again = (*ex)->run({{"x", floats({1}, {1})}}, run);
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code(), ErrorCode::kLimit) << again.error().message();
}

// Running sum over the rows of x, reversed output direction not used.
const char* kScan = R"(
  main (float[2] init, float[3,2] xs) => (float[2] last, float[3,2] sums) {
    last, sums = Scan <num_scan_inputs = 1, body = body (float[2] s, float[2] row) => (float[2] so, float[2] out) {
      so = Add(s, row)
      out = Identity(so)
    }> (init, xs)
  })";

TEST(ControlFlow, ScanCarriesStateAndStacksOutputs) {
  auto r =
      runText(kScan, {{"init", floats({2}, {0, 0})}, {"xs", floats({3, 2}, {1, 2, 3, 4, 5, 6})}});
  testutil::expectNear(toFloats(r.outputs[0]), {9, 12});
  testutil::expectNear(toFloats(r.outputs[1]), {1, 2, 4, 6, 9, 12});
}

}  // namespace
}  // namespace passlab::exec
