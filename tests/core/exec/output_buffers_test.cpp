// Graph outputs written in place (output_buffers.h): a step that writes a
// graph output (or the value a graph output views) writes the buffer the
// caller gets, which is handed over without a copy. Outputs are byte-identical with it off
// (PASSLAB_DIRECT_OUTPUTS=0) and without a memory plan; values the caller does not own the step's
// buffer of (inputs, views, subgraph values, constants, a value listed twice) are copied; results
// the caller holds survive later runs.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <set>

#include "core/analysis/shape_inference.h"
#include "core/exec/executor.h"
#include "core/io/model_io.h"
#include "tests/core/exec/exec_test_util.h"
#include "tests/core/exec/random_inputs.h"
#include "tests/support/test_support.h"

namespace passlab::exec {
namespace {

// Turns direct outputs off while alive.
class DirectOutputsOff {
 public:
  DirectOutputsOff() { setenv("PASSLAB_DIRECT_OUTPUTS", "0", 1); }
  ~DirectOutputsOff() { unsetenv("PASSLAB_DIRECT_OUTPUTS"); }
};

std::unique_ptr<Executor> executorFor(const ir::Model& model, bool memoryPlan = true) {
  ExecutorOptions o;
  o.memoryPlan = memoryPlan;
  auto ex = Executor::create(model, o);
  EXPECT_TRUE(ex) << (ex ? "" : ex.error().message());
  return ex ? std::move(ex).value() : nullptr;
}

std::unique_ptr<Executor> executorFor(const std::string& text, bool memoryPlan = true) {
  ir::Model model = testutil::parseModel(text);
  analysis::inferShapes(model);
  return executorFor(model, memoryPlan);
}

std::vector<std::byte> bytesOf(const ir::Tensor& t) {
  return {t.bytes().begin(), t.bytes().end()};
}

ir::Tensor ramp(std::vector<int64_t> dims, float start = -3.0f) {
  ir::Tensor t(ir::DataType::kFloat, std::move(dims));
  std::vector<float> v(static_cast<size_t>(t.numel()));
  for (size_t i = 0; i < v.size(); ++i) v[i] = start + 0.37f * static_cast<float>(i % 23);
  return ir::Tensor::fromVector<float>(ir::DataType::kFloat, t.dims(), v);
}

RunResult runOk(Executor& ex, const NamedInputs& inputs, RunOptions options = {}) {
  auto r = ex.run(inputs, options);
  EXPECT_TRUE(r) << (r ? "" : r.error().message());
  return r ? std::move(r).value() : RunResult{};
}

// Runs `text` with direct outputs, with them off, and without a memory plan,
// twice each; expects the same bytes everywhere. Returns the outputs handed
// over on the second run with them on.
int expectSameOutputs(const std::string& text, const NamedInputs& inputs) {
  auto on = executorFor(text);
  auto noPlan = executorFor(text, false);
  std::unique_ptr<Executor> off = executorFor(text);
  if (!on || !noPlan || !off) return -1;
  int handed = -1;
  for (int run = 0; run < 2; ++run) {
    RunResult a = runOk(*on, inputs);
    RunResult c = runOk(*noPlan, inputs);
    RunResult b;
    {
      DirectOutputsOff offNow;
      b = runOk(*off, inputs);
    }
    EXPECT_EQ(b.memory.outputsHandedOver, 0);
    EXPECT_EQ(a.outputs.size(), b.outputs.size());
    EXPECT_EQ(a.outputs.size(), c.outputs.size());
    for (size_t i = 0; i < a.outputs.size() && i < b.outputs.size() && i < c.outputs.size(); ++i) {
      EXPECT_EQ(a.outputs[i].dims(), b.outputs[i].dims()) << a.outputNames[i];
      EXPECT_EQ(bytesOf(a.outputs[i]), bytesOf(b.outputs[i])) << a.outputNames[i];
      EXPECT_EQ(bytesOf(a.outputs[i]), bytesOf(c.outputs[i])) << a.outputNames[i];
    }
    handed = a.memory.outputsHandedOver;
  }
  return handed;
}

// ---- handed over -------------------------------------------------------------

TEST(DirectOutputs, AStepsFreshOutputIsHandedOver) {
  EXPECT_EQ(expectSameOutputs(R"(
    main (float[4,64] x) => (float[4,64] y) {
      a = Sigmoid(x)
      y = LogSoftmax <axis = 1> (a)
    })",
                              {{"x", ramp({4, 64})}}),
            1);
}

TEST(DirectOutputs, OutputsOfOneStepAndOfSeveralSteps) {
  EXPECT_EQ(expectSameOutputs(R"(
    main (float[6,8] x) => (float[3,8] a, float[3,8] b, float[6,8] c) {
      a, b = Split <axis = 0> (x)
      c = Relu(x)
    })",
                              {{"x", ramp({6, 8})}}),
            3);
}

TEST(DirectOutputs, AnOutputIsPlannedInPlaceOnlyWhenItIsCopied) {
  const char* text = R"(
    main (float[64,64] x) => (float[64,64] y) {
      a = Relu(x)
      y = Neg(a)
    })";
  // Copied out (direct outputs off), y is planned over a in the block;
  // written directly, y is outside the block and nothing runs in place. The
  // executor plans again when a run switches (the same executor both ways).
  auto ex = executorFor(text);
  ASSERT_TRUE(ex);
  for (int round = 0; round < 2; ++round) {
    RunResult off;
    {
      DirectOutputsOff offNow;
      off = runOk(*ex, {{"x", ramp({64, 64})}});
    }
    EXPECT_EQ(off.memory.inPlace, 1);
    EXPECT_EQ(off.memory.blockBytes, 16384u);
    EXPECT_EQ(off.memory.outputsHandedOver, 0);
    RunResult on = runOk(*ex, {{"x", ramp({64, 64})}});
    EXPECT_EQ(on.memory.inPlace, 0);
    EXPECT_EQ(on.memory.blockBytes, 16384u);  // a alone
    EXPECT_EQ(on.memory.outputsHandedOver, 1);
    EXPECT_EQ(bytesOf(on.outputs[0]), bytesOf(off.outputs[0]));
  }
  EXPECT_EQ(expectSameOutputs(text, {{"x", ramp({64, 64})}}), 1);
}

TEST(DirectOutputs, AConcatWhosePartsTheBlockHoldsCopiesThemIntoTheResult) {
  // a and b are Concat parts (memory_plan.h) inside y's place in the block; y
  // itself goes to the caller's buffer, where the Concat copies them.
  EXPECT_EQ(expectSameOutputs(R"(
    main (float[1,16,4] x) => (float[1,32,4] y) {
      a = Relu(x)
      b = Sigmoid(x)
      y = Concat <axis = 1> (a, b)
    })",
                              {{"x", ramp({1, 16, 4})}}),
            1);
}

TEST(DirectOutputs, AGraphOutputAnotherStepReadsToo) {
  EXPECT_EQ(expectSameOutputs(R"(
    main (float[8,8] x) => (float[8,8] a, float[8,8] y) {
      a = Relu(x)
      y = Neg(a)
    })",
                              {{"x", ramp({8, 8})}}),
            2);
}

// ---- copied ------------------------------------------------------------------

TEST(DirectOutputs, NotForInputsViewsConstantsOrSubgraphValues) {
  EXPECT_EQ(expectSameOutputs(R"(
    main (float[4,8] x) => (float[4,8] y) { y = Identity(x) })",
                              {{"x", ramp({4, 8})}}),
            0);
  EXPECT_EQ(expectSameOutputs(R"(
    main (float[4,8] x) => (float[32] y)
    <int64[1] s = {32}, float[4,8] w = {1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8,
                                        1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8}>
    { y = Reshape(w, s) })",
                              {{"x", ramp({4, 8})}}),
            0);  // a view of an initializer
  EXPECT_EQ(expectSameOutputs(R"(
    main (float[3] x) => (float[3] y, float[3] w)
    <float[3] w = {1, 2, 3}>
    { y = Add(x, w) })",
                              {{"x", ramp({3})}}),
            1);  // y; w is an initializer
  EXPECT_EQ(expectSameOutputs(R"(
    main (float[3] x) => (float[3] y, float[3] c) {
      c = Constant <value = float[3] {1, 2, 3}> ()
      y = Add(x, c)
    })",
                              {{"x", ramp({3})}}),
            1);  // y; c is kept across runs
  EXPECT_EQ(expectSameOutputs(R"(
    main (bool k, float[1,16,4] x) => (float[1,16,4] y) {
      y = If <then_branch = g1 () => (float[1,16,4] t) { t = Neg(x) },
              else_branch = g2 () => (float[1,16,4] e) { e = Relu(x) }> (k)
    })",
                              {{"k", ir::Tensor::fromVector<uint8_t>(ir::DataType::kBool, {}, {1})},
                               {"x", ramp({1, 16, 4})}}),
            0);
}

TEST(DirectOutputs, AnIdentityOfAnOutputIsACopy) {
  auto ex = executorFor(R"(
    main (float[4,8] x) => (float[4,8] y, float[4,8] z) {
      y = Relu(x)
      z = Identity(y)
    })");
  ASSERT_TRUE(ex);
  RunResult r = runOk(*ex, {{"x", ramp({4, 8})}});
  ASSERT_EQ(r.outputs.size(), 2u);
  EXPECT_EQ(r.memory.outputsHandedOver, 1);  // y; z (the same bytes) is a copy
  EXPECT_EQ(bytesOf(r.outputs[0]), bytesOf(r.outputs[1]));
  EXPECT_NE(r.outputs[0].bytes().data(), r.outputs[1].bytes().data());
}

TEST(DirectOutputs, NotForAValueListedTwiceAmongTheOutputs) {
  auto ex = executorFor(R"(
    main (float[4,8] x) => (float[4,8] y, float[4,8] y) { y = Relu(x) })");
  ASSERT_TRUE(ex);
  RunResult r = runOk(*ex, {{"x", ramp({4, 8})}});
  ASSERT_EQ(r.outputs.size(), 2u);
  EXPECT_EQ(r.memory.outputsHandedOver, 0);
  EXPECT_EQ(bytesOf(r.outputs[0]), bytesOf(r.outputs[1]));
  EXPECT_NE(r.outputs[0].bytes().data(), r.outputs[1].bytes().data());
  EXPECT_EQ(expectSameOutputs(R"(
    main (float[4,8] x) => (float[4,8] y, float[4,8] y) { y = Relu(x) })",
                              {{"x", ramp({4, 8})}}),
            0);
}

TEST(DirectOutputs, NotOnRunsWithAMemoryLimit) {
  auto ex = executorFor(R"(
    main (float[4,8] x) => (float[4,8] y) { y = Relu(x) })");
  ASSERT_TRUE(ex);
  RunOptions limited;
  limited.memoryLimitBytes = 1 << 20;
  EXPECT_EQ(runOk(*ex, {{"x", ramp({4, 8})}}, limited).memory.outputsHandedOver, 0);
  EXPECT_EQ(runOk(*ex, {{"x", ramp({4, 8})}}).memory.outputsHandedOver, 1);
}

// ---- outputs that are views of computed values ---------------------------------

// Whether `r`'s output `i` holds `bytes` bytes at an address no other output
// of `r` uses.
bool ownBuffer(const RunResult& r, size_t i) {
  for (size_t k = 0; k < r.outputs.size(); ++k)
    if (k != i && r.outputs[k].bytes().data() == r.outputs[i].bytes().data()) return false;
  return true;
}

TEST(DirectOutputs, AViewOfAComputedValueIsHandedOverInItsBase) {
  // y (a Squeeze of a Reshape of a) is handed over in the buffer Relu wrote.
  const char* text = R"(
    main (float[4,8] x) => (float[32] y)
    <int64[2] s = {1, 32}, int64[1] axes = {0}>
    {
      a = Relu(x)
      r = Reshape(a, s)
      y = Squeeze(r, axes)
    })";
  EXPECT_EQ(expectSameOutputs(text, {{"x", ramp({4, 8})}}), 1);
  auto on = executorFor(text);
  auto off = executorFor(text);
  ASSERT_TRUE(on && off);
  RunResult a = runOk(*on, {{"x", ramp({4, 8})}});
  RunResult b;
  {
    DirectOutputsOff offNow;
    b = runOk(*off, {{"x", ramp({4, 8})}});
  }
  EXPECT_EQ(a.memory.blockBytes, 0u);    // a is out of the block
  EXPECT_EQ(b.memory.blockBytes, 128u);  // a, to the end of the run
  EXPECT_EQ(a.outputs[0].dims(), (std::vector<int64_t>{32}));
  EXPECT_EQ(a.values[0].tensor().raw(), a.outputs[0].bytes().data());
}

TEST(DirectOutputs, AViewedBaseOtherStepsReadLater) {
  // b's buffer is handed over as y; Neg reads b after the Reshape (and would
  // write c over b, which dies there, were b not the output's buffer).
  EXPECT_EQ(expectSameOutputs(R"(
    main (float[8,8] x) => (float[64] y, float[8,8] z)
    <int64[1] s = {64}>
    {
      b = Sigmoid(x)
      y = Reshape(b, s)
      c = Neg(b)
      z = Relu(c)
    })",
                              {{"x", ramp({8, 8})}}),
            2);
}

TEST(DirectOutputs, TwoOutputsViewingOneBase) {
  const char* text = R"(
    main (float[4,8] x) => (float[32] y1, float[1,32] y2, float[4,8] y3)
    <int64[1] s = {32}>
    {
      b = Relu(x)
      y1 = Reshape(b, s)
      y2 = Flatten <axis = 0> (b)
      y3 = Identity(b)
    })";
  EXPECT_EQ(expectSameOutputs(text, {{"x", ramp({4, 8})}}), 1);
  auto ex = executorFor(text);
  ASSERT_TRUE(ex);
  RunResult r = runOk(*ex, {{"x", ramp({4, 8})}});
  ASSERT_EQ(r.outputs.size(), 3u);
  EXPECT_EQ(r.memory.outputsHandedOver, 1);  // y1; y2 and y3 are copies of it
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(bytesOf(r.outputs[i]), bytesOf(r.outputs[0])) << i;
    EXPECT_TRUE(ownBuffer(r, i)) << i;
  }
}

TEST(DirectOutputs, ViewsOfInputsAndOfBodyValuesAreCopied) {
  // An If's output viewed: the If returns its branch's value, not a result
  // buffer, so y is a copy; inside the branch the view is the body's own.
  NamedInputs in = {{"k", ir::Tensor::fromVector<uint8_t>(ir::DataType::kBool, {}, {1})},
                    {"x", ramp({4, 8})}};
  EXPECT_EQ(expectSameOutputs(R"(
    main (bool k, float[4,8] x) => (float[32] y)
    <int64[1] s = {32}>
    {
      i = If <then_branch = g1 () => (float[32] t) {
                n = Neg(x)
                t = Reshape(n, s)
              },
              else_branch = g2 () => (float[32] e) {
                m = Relu(x)
                e = Reshape(m, s)
              }> (k)
      y = Identity(i)
    })",
                              in),
            0);
  EXPECT_EQ(expectSameOutputs(R"(
    main (float[4,8] x) => (float[32] y, float[4,8] z)
    <int64[1] s = {32}>
    {
      y = Reshape(x, s)
      z = Neg(x)
    })",
                              {{"x", ramp({4, 8})}}),
            1);  // z; y views the input
}

TEST(DirectOutputs, AHeldViewOutputSurvivesLaterRuns) {
  auto ex = executorFor(R"(
    main (float[16,16] x) => (float[256] y)
    <int64[1] s = {256}>
    {
      a = Sigmoid(x)
      y = Reshape(a, s)
    })");
  ASSERT_TRUE(ex);
  std::vector<RunResult> held;
  std::vector<std::vector<std::byte>> expected;
  for (int run = 0; run < 3; ++run) {
    held.push_back(runOk(*ex, {{"x", ramp({16, 16}, -3.0f + static_cast<float>(run))}}));
    ASSERT_EQ(held.back().memory.outputsHandedOver, 1);
    expected.push_back(bytesOf(held.back().outputs[0]));
  }
  for (size_t run = 1; run < expected.size(); ++run) EXPECT_NE(expected[run], expected[0]);
  for (size_t run = 0; run < held.size(); ++run)
    EXPECT_EQ(bytesOf(held[run].outputs[0]), expected[run]) << run;
}

// ---- the block without the outputs -------------------------------------------------

// z's 4 KiB are written while a and b are live: in the block they would raise
// its peak from 8 to 12 KiB.
constexpr const char* kOutputAtThePeak = R"(
    main (float[32,32] x) => (float[32,32] z, float[32,32] w) {
      a = Relu(x)
      b = Sigmoid(a)
      z = Exp(b)
      w = Add(a, b)
    })";

TEST(DirectOutputs, TheBlockLeavesOutTheOutputsWrittenDirectly) {
  auto on = executorFor(kOutputAtThePeak);
  auto off = executorFor(kOutputAtThePeak);
  ASSERT_TRUE(on && off);
  NamedInputs in = {{"x", ramp({32, 32})}};
  RunResult a = runOk(*on, in);
  RunResult b;
  {
    DirectOutputsOff offNow;  // off's plan is made on its first run
    b = runOk(*off, in);
  }
  EXPECT_EQ(a.memory.outputsHandedOver, 2);
  EXPECT_EQ(b.memory.outputsHandedOver, 0);
  EXPECT_EQ(a.memory.blockBytes, 8192u);   // a and b
  EXPECT_EQ(b.memory.blockBytes, 12288u);  // a, b and z (w written over a in place)
  EXPECT_EQ(a.memory.counts.fellBack, 0);
  for (size_t i = 0; i < 2; ++i) EXPECT_EQ(bytesOf(a.outputs[i]), bytesOf(b.outputs[i]));
}

TEST(DirectOutputs, RunsThatCopyTheOutputsHaveThemInTheBlock) {
  auto ex = executorFor(kOutputAtThePeak);
  auto noPlan = executorFor(kOutputAtThePeak, false);
  ASSERT_TRUE(ex && noPlan);
  NamedInputs in = {{"x", ramp({32, 32})}};
  RunResult reference = runOk(*noPlan, in);
  RunOptions limited;  // the block with z in it (w over a): 12 KiB
  limited.memoryLimitBytes = 12288;
  for (int round = 0; round < 2; ++round) {
    RunResult direct = runOk(*ex, in);
    RunResult copied;
    {
      DirectOutputsOff offNow;
      copied = runOk(*ex, in);
    }
    RunResult underLimit = runOk(*ex, in, limited);
    EXPECT_EQ(direct.memory.blockBytes, 8192u);
    EXPECT_EQ(direct.memory.outputsHandedOver, 2);
    for (const RunResult* r : {&copied, &underLimit}) {
      EXPECT_EQ(r->memory.blockBytes, 12288u);
      EXPECT_EQ(r->memory.outputsHandedOver, 0);
    }
    EXPECT_LE(underLimit.peakArenaBytes, 12288u);
    for (const RunResult* r : {&direct, &copied, &underLimit}) {
      EXPECT_EQ(r->memory.source, memory::PlanSource::kAhead);
      ASSERT_EQ(r->outputs.size(), 2u);
      for (size_t i = 0; i < 2; ++i)
        EXPECT_EQ(bytesOf(r->outputs[i]), bytesOf(reference.outputs[i]));
    }
  }
}

// ---- block tensors inside an output's buffer ----------------------------------------

// Turns the tensors in the outputs' buffers off while alive (memory_plan.h).
class TensorsInOutputsOff {
 public:
  TensorsInOutputsOff() { setenv("PASSLAB_TENSORS_IN_OUTPUTS", "0", 1); }
  ~TensorsInOutputsOff() { unsetenv("PASSLAB_TENSORS_IN_OUTPUTS"); }
};

// 16 KiB each; b dies before y's step, so the plan puts it in y's buffer.
constexpr const char* kMatMulChain = R"(
    main (float[64,64] x) => (float[64,64] y) {
      a = MatMul(x, x)
      b = MatMul(a, a)
      c = MatMul(b, b)
      y = MatMul(c, c)
    })";

TEST(DirectOutputs, ATensorThatDiesBeforeTheOutputsStepIsWrittenInItsBuffer) {
  auto on = executorFor(kMatMulChain);
  auto off = executorFor(kMatMulChain);
  auto noPlan = executorFor(kMatMulChain, false);
  ASSERT_TRUE(on && off && noPlan);
  std::vector<RunResult> held;
  for (int run = 0; run < 3; ++run) {
    NamedInputs in = {{"x", ramp({64, 64}, -0.1f * static_cast<float>(run + 1))}};
    RunResult a = runOk(*on, in);
    RunResult b;
    {
      TensorsInOutputsOff offNow;  // off's plan is made on its first run
      b = runOk(*off, in);
    }
    RunResult c = runOk(*noPlan, in);
    EXPECT_EQ(a.memory.blockBytes, 16384u);  // a and c; b in y's buffer
    EXPECT_EQ(b.memory.blockBytes, 32768u);  // b and c
    EXPECT_EQ(a.memory.counts.placed, 3);    // a, b, c: none fell back to the Arena
    EXPECT_EQ(a.memory.counts.fellBack, 0);
    EXPECT_EQ(a.memory.counts.copiedOut, 0);
    EXPECT_EQ(a.memory.outputsHandedOver, 1);  // y, in the buffer b was in
    ASSERT_EQ(a.outputs.size(), 1u);
    EXPECT_EQ(bytesOf(a.outputs[0]), bytesOf(b.outputs[0]));
    EXPECT_EQ(bytesOf(a.outputs[0]), bytesOf(c.outputs[0]));
    held.push_back(std::move(a));
  }
  // Each run took a buffer of its own for y (and b): the held results are
  // unchanged by the later runs.
  for (int run = 0; run < 3; ++run) {
    RunResult again = runOk(*noPlan, {{"x", ramp({64, 64}, -0.1f * static_cast<float>(run + 1))}});
    EXPECT_EQ(bytesOf(held[static_cast<size_t>(run)].outputs[0]), bytesOf(again.outputs[0])) << run;
  }
  EXPECT_NE(held[0].outputs[0].bytes().data(), held[1].outputs[0].bytes().data());
}

TEST(DirectOutputs, AnIfsOutputHoldsTensorsBeforeItsStepAndIsCopied) {
  // y is the If's output (the branch's value, copied out); its buffer, taken
  // at the start, holds b until the If: same bytes, one branch and the other.
  const char* text = R"(
    main (bool c, float[64,64] x) => (float[64,64] y) {
      a = MatMul(x, x)
      b = MatMul(a, a)
      d = MatMul(b, a)
      y = If <then_branch = g1 () => (float[64,64] t) { t = Neg(d) },
              else_branch = g2 () => (float[64,64] e) { e = Relu(a) }> (c)
    })";
  for (uint8_t cond : {1, 0}) {
    NamedInputs in = {{"c", ir::Tensor::fromVector<uint8_t>(ir::DataType::kBool, {}, {cond})},
                      {"x", ramp({64, 64}, -0.2f)}};
    EXPECT_EQ(expectSameOutputs(text, in), 0);
    auto ex = executorFor(text);
    ASSERT_TRUE(ex);
    RunResult r = runOk(*ex, in);
    EXPECT_EQ(r.memory.blockBytes, 32768u);  // a and d; b in y's buffer
  }
}

TEST(DirectOutputs, AValueLeftInAnOutputsBufferUnderAnotherSlotIsCopiedOut) {
  // Cast to the same type returns its input: z's value is b's tensor. b can
  // live in y's buffer (it dies before y's step), so z would point into
  // bytes y's step writes; settle copies it out before that step.
  const char* text = R"(
    main (float[64,64] x) => (float[64,64] y, float[64,64] z) {
      a = MatMul(x, x)
      b = MatMul(a, a)
      z = Cast <to = 1> (b)
      c = MatMul(b, b)
      y = MatMul(c, c)
    })";
  NamedInputs in = {{"x", ramp({64, 64}, -0.15f)}};
  EXPECT_GE(expectSameOutputs(text, in), 1);
  auto on = executorFor(text);
  auto off = executorFor(text);
  ASSERT_TRUE(on && off);
  RunResult a = runOk(*on, in);
  RunResult b;
  {
    TensorsInOutputsOff offNow;
    b = runOk(*off, in);
  }
  EXPECT_LT(a.memory.blockBytes, b.memory.blockBytes);  // tensors went into the outputs
  for (size_t i = 0; i < 2; ++i) EXPECT_EQ(bytesOf(a.outputs[i]), bytesOf(b.outputs[i]));
}

// ---- results the caller holds ---------------------------------------------------

TEST(DirectOutputs, ResultsTheCallerHoldsSurviveLaterRuns) {
  auto ex = executorFor(R"(
    main (float[16,16] x) => (float[16,16] y) {
      a = Sigmoid(x)
      y = Neg(a)
    })");
  ASSERT_TRUE(ex);
  std::vector<RunResult> held;
  std::vector<std::vector<std::byte>> expected;
  std::set<const std::byte*> buffers;
  for (int run = 0; run < 4; ++run) {
    held.push_back(runOk(*ex, {{"x", ramp({16, 16}, -3.0f + static_cast<float>(run))}}));
    ASSERT_EQ(held.back().memory.outputsHandedOver, 1);
    expected.push_back(bytesOf(held.back().outputs[0]));
    buffers.insert(held.back().outputs[0].bytes().data());
  }
  EXPECT_EQ(buffers.size(), 4u);  // every held result in a buffer of its own
  for (size_t run = 1; run < expected.size(); ++run) EXPECT_NE(expected[run], expected[0]);
  for (size_t run = 0; run < held.size(); ++run) {
    EXPECT_EQ(bytesOf(held[run].outputs[0]), expected[run]) << run;
    // The runtime value shares the bytes.
    const Tensor& v = held[run].values[0].tensor();
    EXPECT_EQ(v.raw(), held[run].outputs[0].bytes().data());
  }
  // A released result's buffer is written again by a later run.
  const std::byte* released = held.back().outputs[0].bytes().data();
  held.pop_back();
  RunResult again = runOk(*ex, {{"x", ramp({16, 16})}});
  EXPECT_EQ(again.outputs[0].bytes().data(), released);
  EXPECT_EQ(bytesOf(again.outputs[0]), expected[0]);
  for (size_t run = 0; run < held.size(); ++run)
    EXPECT_EQ(bytesOf(held[run].outputs[0]), expected[run]) << run;
}

TEST(DirectOutputs, AResultOutlivesItsExecutor) {
  RunResult r;
  std::vector<std::byte> want;
  {
    auto ex = executorFor(R"(
      main (float[8,8] x) => (float[8,8] y) { y = Neg(x) })");
    ASSERT_TRUE(ex);
    r = runOk(*ex, {{"x", ramp({8, 8})}});
    ASSERT_EQ(r.memory.outputsHandedOver, 1);
    want = bytesOf(r.outputs[0]);
  }
  EXPECT_EQ(bytesOf(r.outputs[0]), want);
  EXPECT_FLOAT_EQ(r.outputs[0].data<float>()[0], 3.0f);
}

// ---- random graphs and corpus models -------------------------------------------

// Random graphs of [4,16] floats: unary ops, Adds, views and Concats, several
// outputs (inputs, views and values listed twice among them).
std::string randomGraph(std::mt19937& rng) {
  static const char* kUnary[] = {"Relu", "Sigmoid", "Neg", "Identity", "Abs"};
  std::vector<std::string> values = {"x"};
  std::string body;
  const int n = std::uniform_int_distribution<int>(2, 10)(rng);
  auto pick = [&] { return values[rng() % values.size()]; };
  for (int i = 0; i < n; ++i) {
    std::string out = "v" + std::to_string(i);
    switch (rng() % 4) {
      case 0:
        body += out + " = Add(" + pick() + ", " + pick() + ")\n";
        break;
      case 1:
        body += out + " = Concat <axis = 0> (" + pick() + ", " + pick() + ")\n";
        body += "s" + out + ", r" + out + " = Split <axis = 0> (" + out + ")\n";
        out = "r" + out;
        break;
      case 2:
        body += "f" + out + " = Flatten <axis = 0> (" + pick() + ")\n";
        body += out + " = Reshape(f" + out + ", shape)\n";
        break;
      default:
        body += out + " = " + std::string(kUnary[rng() % 5]) + "(" + pick() + ")\n";
    }
    values.push_back(out);
  }
  std::string outs;
  const int k = std::uniform_int_distribution<int>(1, 4)(rng);
  for (int i = 0; i < k; ++i) {
    std::string v = i == 0 ? values.back() : pick();
    outs += (i ? ", " : "") + std::string("float[4,16] ") + v;
  }
  return "main (float[4,16] x) => (" + outs + ")\n<int64[2] shape = {4, 16}>\n{\n" + body + "}";
}

TEST(DirectOutputs, RandomGraphsGiveTheSameBytes) {
  std::mt19937 rng(28);
  int handed = 0;
  for (int g = 0; g < 80; ++g) {
    std::string text = randomGraph(rng);
    SCOPED_TRACE(text);
    int n = expectSameOutputs(text, {{"x", ramp({4, 16})}});
    ASSERT_GE(n, 0);
    handed += n;
  }
  EXPECT_GT(handed, 0);
}

class CorpusOutputs : public ::testing::TestWithParam<const char*> {};

using testutil::randomInputs;

TEST_P(CorpusOutputs, SameBytesWithDirectOutputsOff) {
  PASSLAB_REQUIRE_CORPUS();
  auto loaded = io::loadModel(*testing::corpusDir() + "/models/" + GetParam() + ".onnx");
  ASSERT_TRUE(loaded) << loaded.error().message();
  auto on = executorFor(loaded->model);
  std::unique_ptr<Executor> off = executorFor(loaded->model);
  ASSERT_TRUE(on && off);
  const NamedInputs a = randomInputs(*on, 28), b = randomInputs(*on, 29);
  RunResult first = runOk(*on, a);
  std::vector<std::vector<std::byte>> firstBytes;
  for (const ir::Tensor& t : first.outputs) firstBytes.push_back(bytesOf(t));
  RunResult second = runOk(*on, b);  // other inputs while `first` is held
  RunResult copiedA, copiedB;
  {
    DirectOutputsOff offNow;
    copiedA = runOk(*off, a);
    copiedB = runOk(*off, b);
  }
  EXPECT_GT(first.memory.outputsHandedOver, 0);
  EXPECT_EQ(copiedA.memory.outputsHandedOver, 0);
  ASSERT_EQ(first.outputs.size(), copiedA.outputs.size());
  ASSERT_EQ(second.outputs.size(), copiedB.outputs.size());
  for (size_t i = 0; i < first.outputs.size(); ++i) {
    const std::string& name = first.outputNames[i];
    EXPECT_EQ(bytesOf(first.outputs[i]), firstBytes[i]) << name << " changed by the next run";
    EXPECT_EQ(bytesOf(first.outputs[i]), bytesOf(copiedA.outputs[i])) << name;
    EXPECT_EQ(bytesOf(second.outputs[i]), bytesOf(copiedB.outputs[i])) << name;
  }
}

// A decoder's state fed back: each run's present_k (Concat outputs, handed
// over) are the next run's past_k inputs while the caller still holds them,
// and each run's sequence is one longer (a new plan per run). Same bytes as
// with direct outputs off at every step, on 1 and 2 threads, and every held
// result keeps its bytes to the end.
TEST(DirectOutputs, OutputsFedBackAsTheNextRunsInputs) {
  PASSLAB_REQUIRE_CORPUS();
  auto loaded = io::loadModel(*testing::corpusDir() + "/models/ort_gpt2_past.onnx");
  ASSERT_TRUE(loaded) << loaded.error().message();
  for (int threads : {1, 2}) {
    auto on = executorFor(loaded->model);
    std::unique_ptr<Executor> off = executorFor(loaded->model);
    ASSERT_TRUE(on && off);
    RunOptions options;
    options.threads = threads;
    NamedInputs onInputs = randomInputs(*on, 30), offInputs = onInputs;
    std::vector<RunResult> held;
    std::vector<std::vector<std::vector<std::byte>>> heldBytes;
    for (int step = 0; step < 5; ++step) {
      RunResult a = runOk(*on, onInputs, options), b;
      {
        DirectOutputsOff offNow;
        b = runOk(*off, offInputs, options);
      }
      EXPECT_GT(a.memory.outputsHandedOver, 0) << step;
      ASSERT_EQ(a.outputs.size(), b.outputs.size());
      std::vector<std::vector<std::byte>> bytes;
      for (size_t i = 0; i < a.outputs.size(); ++i) {
        EXPECT_EQ(bytesOf(a.outputs[i]), bytesOf(b.outputs[i]))
            << a.outputNames[i] << " step " << step << " threads " << threads;
        bytes.push_back(bytesOf(a.outputs[i]));
      }
      // present_k -> past_k for the next step.
      for (size_t i = 0; i < a.outputNames.size(); ++i) {
        const std::string& name = a.outputNames[i];
        if (name.rfind("present_", 0) != 0) continue;
        const std::string past = "past_" + name.substr(8);
        for (auto& [inputName, value] : onInputs)
          if (inputName == past) value = a.values[i];
        for (auto& [inputName, value] : offInputs)
          if (inputName == past) value = b.values[i];
      }
      held.push_back(std::move(a));
      heldBytes.push_back(std::move(bytes));
    }
    for (size_t step = 0; step < held.size(); ++step)
      for (size_t i = 0; i < held[step].outputs.size(); ++i)
        EXPECT_EQ(bytesOf(held[step].outputs[i]), heldBytes[step][i])
            << held[step].outputNames[i] << " of step " << step << " changed later";
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusOutputs,
                         ::testing::Values("mnist8_cntk", "super_resolution", "ultraface_rfb_320",
                                           "onnx_light_squeezenet", "ort_qdq_multi_consumer_dq"),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
}  // namespace passlab::exec
