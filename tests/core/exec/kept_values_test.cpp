// Constant-only steps of the main graph (outputs Invariance::kAlways, or
// kUnlessOverridden on runs that override no initializer) run once per
// executor; later runs reuse their outputs (kept_values.h). These tests check
// which steps are kept, that a kept step does not run again (its profile row
// names kKeptKernel), that a run overriding an initializer recomputes what
// depends on it (mirroring weight_cache_test.cpp), that random ops are never
// kept, that the memory plan leaves kept values out, and that outputs are
// byte-identical with and without keeping.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <string>
#include <vector>

#include "core/exec/compiled_graph.h"
#include "core/exec/input_fill.h"
#include "core/exec/kept_values.h"
#include "core/exec/memory/memory_plan.h"
#include "core/io/model_io.h"
#include "tests/core/exec/exec_test_util.h"
#include "tests/core/exec/profile_test_util.h"
#include "tests/support/test_support.h"

namespace passlab::exec {
namespace {

using testutil::floats;
using testutil::kernelOf;
using testutil::profiled;
using testutil::toFloats;

std::unique_ptr<Executor> make(const std::string& text, bool keep = true) {
  ExecutorOptions opts;
  opts.keepConstantSteps = keep;
  auto ex = Executor::create(testutil::parseModel(text), opts);
  EXPECT_TRUE(ex) << (ex ? "" : ex.error().message());
  return ex ? std::move(ex).value() : nullptr;
}

Invariance outputsOf(const Executor& ex, const std::string& out) {
  for (const Step& s : ex.compiled().steps)
    if (s.node->output(0)->name() == out) return s.outputsInvariance;
  ADD_FAILURE() << "no node makes " << out;
  return Invariance::kNo;
}

// w = ConstantOfShape(s) * m, y = x + w: the onnx_light_* pattern.
const char* const kWeights = R"(
    main (float[4] x) => (float[4] y) <int64[1] s = {4}, float[4] m = {1, 2, 3, 4}> {
      z = ConstantOfShape <value = float[1] {0.5}> (s)
      w = Mul(z, m)
      y = Add(x, w)
    })";

TEST(KeptValues, WhichStepsAreKept) {
  auto ex = make(R"(
    main (float[4] x, float[4] wo = {1, 2, 3, 4}) => (float[4] y)
    <float[4] w = {1, 2, 3, 4}, int64[1] s = {4}> {
      c = Constant <value = float[4] {1, 1, 1, 1}> ()
      z = ConstantOfShape <value = float[1] {0.5}> (s)
      d = Mul(w, z)
      e = Add(d, c)
      r = RandomUniformLike(w)
      f = Add(e, r)
      k = Neg(wo)
      y1 = Add(x, e)
      y2 = Add(y1, f)
      y = Add(y2, k)
    })");
  ASSERT_TRUE(ex);
  EXPECT_EQ(outputsOf(*ex, "c"), Invariance::kAlways);
  EXPECT_EQ(outputsOf(*ex, "z"), Invariance::kAlways);
  EXPECT_EQ(outputsOf(*ex, "e"), Invariance::kAlways);
  EXPECT_EQ(outputsOf(*ex, "r"), Invariance::kNo);  // random
  EXPECT_EQ(outputsOf(*ex, "f"), Invariance::kNo);  // from a random value
  EXPECT_EQ(outputsOf(*ex, "k"), Invariance::kUnlessOverridden);
  EXPECT_EQ(outputsOf(*ex, "y1"), Invariance::kNo);
}

TEST(KeptValues, ComputedOnceThenReused) {
  auto ex = make(kWeights);
  ASSERT_TRUE(ex);
  auto first = profiled(*ex, {{"x", floats({4}, {1, 1, 1, 1})}});
  EXPECT_EQ(kernelOf(first, *ex, "z").find("kept"), std::string::npos);
  EXPECT_EQ(kernelOf(first, *ex, "w").find("kept"), std::string::npos);
  testutil::expectNear(toFloats(first.outputs[0]), {1.5f, 2, 2.5f, 3});
  for (float x : {0.0f, -1.0f}) {
    auto later = profiled(*ex, {{"x", floats({4}, {x, x, x, x})}});
    EXPECT_EQ(kernelOf(later, *ex, "z"), kKeptKernel);
    EXPECT_EQ(kernelOf(later, *ex, "w"), kKeptKernel);
    EXPECT_EQ(kernelOf(later, *ex, "y").find("kept"), std::string::npos);
    testutil::expectNear(toFloats(later.outputs[0]), {x + 0.5f, x + 1, x + 1.5f, x + 2});
    for (const NodeProfile& p : later.profile)
      EXPECT_TRUE(p.kernel != kKeptKernel || p.micros == 0.0) << p.name;
  }
}

TEST(KeptValues, OffRunsEveryStep) {
  auto ex = make(kWeights, false);
  ASSERT_TRUE(ex);
  EXPECT_EQ(outputsOf(*ex, "w"), Invariance::kNo);
  for (int round = 0; round < 2; ++round) {
    auto r = profiled(*ex, {{"x", floats({4}, {1, 1, 1, 1})}});
    EXPECT_EQ(kernelOf(r, *ex, "w").find("kept"), std::string::npos);
    testutil::expectNear(toFloats(r.outputs[0]), {1.5f, 2, 2.5f, 3});
  }
}

// An initializer listed as a graph input (IR version 3): a run that overrides
// it computes the steps that depend on it afresh and keeps nothing from them;
// the runs around it still see the initializer's values. Steps that depend
// on no overridable initializer stay kept on such a run.
TEST(KeptValues, OverriddenInitializerRecomputes) {
  auto ex = make(R"(
    main (float[4] x, float[4] m = {1, 2, 3, 4}) => (float[4] y) <int64[1] s = {4}> {
      z = ConstantOfShape <value = float[1] {0.5}> (s)
      w = Mul(z, m)
      y = Add(x, w)
    })");
  ASSERT_TRUE(ex);
  EXPECT_EQ(outputsOf(*ex, "w"), Invariance::kUnlessOverridden);
  auto x = floats({4}, {0, 0, 0, 0});
  for (int round = 0; round < 2; ++round) {
    auto plain = profiled(*ex, {{"x", x}});
    testutil::expectNear(toFloats(plain.outputs[0]), {0.5f, 1, 1.5f, 2});
    auto over = profiled(*ex, {{"x", x}, {"m", floats({4}, {-2, -4, 6, 8})}});
    testutil::expectNear(toFloats(over.outputs[0]), {-1, -2, 3, 4});
    EXPECT_EQ(kernelOf(over, *ex, "w").find("kept"), std::string::npos);
    if (round > 0) {
      EXPECT_EQ(kernelOf(over, *ex, "z"), kKeptKernel);  // kAlways: kept even here
      EXPECT_EQ(kernelOf(plain, *ex, "w"), kKeptKernel);
    }
  }
}

// Overridden on the first run: nothing is kept from it, and the next run
// (not overriding) computes the initializer's values.
TEST(KeptValues, OverriddenOnTheFirstRun) {
  auto ex = make(R"(
    main (float[4] x, float[4] m = {1, 2, 3, 4}) => (float[4] y) {
      w = Neg(m)
      y = Add(x, w)
    })");
  ASSERT_TRUE(ex);
  auto x = floats({4}, {0, 0, 0, 0});
  auto over = profiled(*ex, {{"x", x}, {"m", floats({4}, {5, 5, 5, 5})}});
  testutil::expectNear(toFloats(over.outputs[0]), {-5, -5, -5, -5});
  auto plain = profiled(*ex, {{"x", x}});
  testutil::expectNear(toFloats(plain.outputs[0]), {-1, -2, -3, -4});
  EXPECT_EQ(kernelOf(plain, *ex, "w").find("kept"), std::string::npos);
  auto again = profiled(*ex, {{"x", x}});
  testutil::expectNear(toFloats(again.outputs[0]), {-1, -2, -3, -4});
  EXPECT_EQ(kernelOf(again, *ex, "w"), kKeptKernel);
}

// Random ops and what is computed from them run every time.
TEST(KeptValues, RandomOpsNeverKept) {
  auto ex = make(R"(
    main (float[64] x) => (float[64] y) <int64[1] s = {64}> {
      w = ConstantOfShape(s)
      r = RandomUniformLike(w)
      d = Mul(r, r)
      y = Add(x, d)
    })");
  ASSERT_TRUE(ex);
  auto x = floats({64}, std::vector<float>(64, 0.0f));
  std::vector<std::vector<float>> outs;
  for (int round = 0; round < 3; ++round) {
    auto r = profiled(*ex, {{"x", x}});
    EXPECT_EQ(kernelOf(r, *ex, "r").find("kept"), std::string::npos);
    EXPECT_EQ(kernelOf(r, *ex, "d").find("kept"), std::string::npos);
    outs.push_back(toFloats(r.outputs[0]));
  }
  EXPECT_TRUE(outs[0] != outs[1] || outs[1] != outs[2]) << "random values repeat every run";
}

// The memory plan reserves no block space for kept values (like initializers).
TEST(KeptValues, MemoryPlanLeavesKeptValuesOut) {
  auto names = [](const Executor& ex) {
    std::vector<uint64_t> sizes(ex.compiled().slotCount, 16);  // float[4] each
    auto plan = memory::planMemory(ex.compiled(), &sizes, memory::PlanOptions::forExecution());
    EXPECT_TRUE(plan) << (plan ? "" : plan.error().message());
    std::vector<std::string> out;
    if (plan)
      for (const memory::PlannedTensor& t : plan->tensors) out.push_back(t.name);
    return out;
  };
  auto kept = make(kWeights), every = make(kWeights, false);
  ASSERT_TRUE(kept && every);
  EXPECT_EQ(names(*kept), (std::vector<std::string>{"y"}));
  EXPECT_EQ(names(*every), (std::vector<std::string>{"z", "w", "y"}));
  // Two weights live at once: the block holds both when they are not kept.
  const char* two = R"(
    main (float[4] x) => (float[4] y) <int64[1] s = {4}> {
      w1 = ConstantOfShape <value = float[1] {0.5}> (s)
      w2 = ConstantOfShape <value = float[1] {2.0}> (s)
      t = Add(x, w1)
      y = Mul(t, w2)
    })";
  kept = make(two);
  every = make(two, false);
  ASSERT_TRUE(kept && every);
  NamedInputs in = {{"x", floats({4}, {1, 1, 1, 1})}};
  for (int round = 0; round < 2; ++round) {
    auto a = kept->run(in), b = every->run(in);
    ASSERT_TRUE(a && b);
    testutil::expectNear(toFloats(a->outputs[0]), {3, 3, 3, 3});
    testutil::expectNear(toFloats(b->outputs[0]), {3, 3, 3, 3});
    EXPECT_LT(a->memory.blockBytes, b->memory.blockBytes);
    EXPECT_EQ(a->memory.counts.fellBack, 0);
  }
}

// A run cancelled before the kept steps leaves nothing kept; the next run
// computes them.
TEST(KeptValues, CancelledRunKeepsNothing) {
  auto ex = make(kWeights);
  ASSERT_TRUE(ex);
  std::atomic<bool> cancel{true};
  RunOptions ro;
  ro.cancel = &cancel;
  auto r = ex->run({{"x", floats({4}, {1, 1, 1, 1})}}, ro);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), ErrorCode::kCancelled);
  auto next = profiled(*ex, {{"x", floats({4}, {1, 1, 1, 1})}});
  EXPECT_EQ(kernelOf(next, *ex, "w").find("kept"), std::string::npos);
  testutil::expectNear(toFloats(next.outputs[0]), {1.5f, 2, 2.5f, 3});
}

// A corpus model whose weights are all built by ConstantOfShape on every run:
// its outputs are byte-identical with and without keeping, on the first and
// the later runs, and the later runs' block is smaller.
TEST(KeptValues, CorpusOutputsByteIdentical) {
  PASSLAB_REQUIRE_CORPUS();
  auto loaded =
      io::loadModel(*passlab::testing::corpusDir() + "/models/onnx_light_squeezenet.onnx");
  ASSERT_TRUE(loaded) << loaded.error().message();
  ExecutorOptions off;
  off.keepConstantSteps = false;
  auto kept = Executor::create(loaded->model, {});
  auto every = Executor::create(loaded->model, off);
  ASSERT_TRUE(kept && every);
  NamedInputs inputs;
  FillOptions fo;
  fo.seed = 7;
  for (const InputInfo& in : (*kept)->inputs()) {
    if (in.optional) continue;
    auto t = makeInput(in, fo);
    ASSERT_TRUE(t) << t.error().message();
    inputs.emplace_back(in.name, *t);
  }
  for (int round = 0; round < 3; ++round) {
    auto a = (*kept)->run(inputs), b = (*every)->run(inputs);
    ASSERT_TRUE(a && b);
    ASSERT_EQ(a->outputs.size(), b->outputs.size());
    for (size_t i = 0; i < a->outputs.size(); ++i) {
      auto x = a->outputs[i].bytes(), y = b->outputs[i].bytes();
      ASSERT_EQ(x.size(), y.size());
      EXPECT_EQ(std::memcmp(x.data(), y.data(), x.size()), 0)
          << "output " << i << ", run " << round;
    }
    // Kept outputs are outside the block. Without keeping, the weights are
    // in it but each made just before its reader (constant_steps_order.h),
    // so they no longer double it (3.7 MiB either way; all up front: > 2x).
    EXPECT_LE(a->memory.blockBytes, b->memory.blockBytes);
  }
}

}  // namespace
}  // namespace passlab::exec
