// The executor on its memory plan (core/exec/memory/planned_block.h,
// execution_memory.h): tensors placed at their planned offsets; a size the
// plan did not expect falls back to the arena; a value left in memory that is
// not its own is copied out; in place only where the kernel declares it and
// never over a value read later, a graph output or a subgraph's outer read;
// symbolic shapes planned per run's input shapes, data-dependent ones from a
// run's recorded sizes; kernel scratch in the block's gaps of its step. Every run is compared with
// the same model run without the plan.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#include "core/analysis/shape_inference.h"
#include "core/exec/executor.h"
#include "core/exec/memory/planned_block.h"
#include "tests/core/exec/exec_test_util.h"

namespace passlab::exec::memory {
namespace {

// ---- the block on a hand-made plan ------------------------------------------

// Slots 0 and 1: 256 bytes each at offsets 0 and 256; slot 2: a view of slot 0.
MemoryPlan handMadePlan() {
  MemoryPlan p;
  p.stepCount = 3;
  p.tensors.push_back(
      {.name = "a", .producer = "p", .slot = 0, .bytes = 256, .size = 256, .first = 0, .last = 2});
  p.tensors.push_back({.name = "b",
                       .producer = "p",
                       .slot = 1,
                       .bytes = 256,
                       .size = 256,
                       .first = 1,
                       .last = 2,
                       .offset = 256});
  p.tensors.push_back({.name = "v",
                       .producer = "p",
                       .slot = 2,
                       .bytes = 256,
                       .size = 256,
                       .first = 1,
                       .last = 2,
                       .reuse = Reuse::kView,
                       .sharesWith = 0});
  p.peak = 512;
  return p;
}

TEST(PlannedBlock, PlacesATensorOfThePlannedBytesAtItsOffset) {
  Arena arena;
  BlockLayout layout(handMadePlan(), 4);
  PlannedBlock block(layout);
  ASSERT_TRUE(block.begin(arena));
  EXPECT_EQ(arena.liveBytes(), 512u);  // the block counts against the arena
  auto a = block.tensorFor(0, ir::DataType::kFloat, {64});
  auto b = block.tensorFor(1, ir::DataType::kInt32, {8, 8});
  ASSERT_TRUE(a && b);
  EXPECT_TRUE(block.holds(a->raw()));
  EXPECT_EQ(static_cast<const std::byte*>(b->raw()) - static_cast<const std::byte*>(a->raw()), 256);
  EXPECT_EQ(block.counts().placed, 2);
  EXPECT_EQ(block.counts().fellBack, 0);
}

TEST(PlannedBlock, FallsBackForOtherBytesAViewSlotOrAnUnplannedSlot) {
  Arena arena;
  BlockLayout layout(handMadePlan(), 4);
  PlannedBlock block(layout);
  ASSERT_TRUE(block.begin(arena));
  EXPECT_FALSE(block.tensorFor(0, ir::DataType::kFloat, {65}));   // 260 bytes, not 256
  EXPECT_FALSE(block.tensorFor(0, ir::DataType::kDouble, {64}));  // 512 bytes
  EXPECT_FALSE(block.tensorFor(2, ir::DataType::kFloat, {64}));   // a view's slot
  EXPECT_FALSE(block.tensorFor(3, ir::DataType::kFloat, {64}));   // not planned
  EXPECT_FALSE(block.tensorFor(-1, ir::DataType::kFloat, {64}));
  EXPECT_EQ(block.counts().fellBack, 3);  // the unplanned slots are not counted
  EXPECT_EQ(block.counts().placed, 0);
}

TEST(PlannedBlock, CopiesOutATensorLeftInAnotherSlotsMemory) {
  Arena arena;
  BlockLayout layout(handMadePlan(), 4);
  PlannedBlock block(layout);
  ASSERT_TRUE(block.begin(arena));
  auto a = block.tensorFor(0, ir::DataType::kFloat, {64});
  ASSERT_TRUE(a);
  for (int i = 0; i < 64; ++i) a->mutableData<float>()[i] = static_cast<float>(i);
  // Slot 1's kernel returned slot 0's tensor (as Cast to the same type does):
  // copied to slot 1's own place.
  auto b = block.settle(1, Value(*a), arena);
  ASSERT_TRUE(b);
  EXPECT_EQ(
      static_cast<const std::byte*>(b->tensor().raw()) - static_cast<const std::byte*>(a->raw()),
      256);
  EXPECT_EQ(std::memcmp(b->tensor().raw(), a->raw(), 256), 0);
  // Slot 3 (not planned) holding it: copied to the arena, outside the block.
  auto c = block.settle(3, Value(a->view({8, 8})), arena);
  ASSERT_TRUE(c);
  EXPECT_FALSE(block.holds(c->tensor().raw()));
  EXPECT_EQ(c->tensor().dims(), (Dims{8, 8}));
  EXPECT_EQ(std::memcmp(c->tensor().raw(), a->raw(), 256), 0);
  EXPECT_EQ(block.counts().copiedOut, 2);
}

TEST(PlannedBlock, KeepsATensorAtItsOwnPlaceAViewOfItAndMemoryOutsideTheBlock) {
  Arena arena;
  BlockLayout layout(handMadePlan(), 4);
  PlannedBlock block(layout);
  ASSERT_TRUE(block.begin(arena));
  auto a = block.tensorFor(0, ir::DataType::kFloat, {64});
  ASSERT_TRUE(a);
  auto same = block.settle(0, Value(*a), arena);
  auto view = block.settle(2, Value(a->view({8, 8})), arena);
  auto outside = block.settle(1, Value(Tensor::zeros(ir::DataType::kFloat, {64})), arena);
  ASSERT_TRUE(same && view && outside);
  EXPECT_EQ(same->tensor().raw(), a->raw());
  EXPECT_EQ(view->tensor().raw(), a->raw());
  EXPECT_FALSE(block.holds(outside->tensor().raw()));
  EXPECT_EQ(block.counts().copiedOut, 0);
}

TEST(PlannedBlock, CopiesOutTheBlockTensorsASequenceHolds) {
  Arena arena;
  BlockLayout layout(handMadePlan(), 4);
  PlannedBlock block(layout);
  ASSERT_TRUE(block.begin(arena));
  auto a = block.tensorFor(0, ir::DataType::kFloat, {64});
  ASSERT_TRUE(a);
  a->mutableData<float>()[5] = 7.0f;
  Tensor heap = Tensor::zeros(ir::DataType::kFloat, {2});
  Value seq = Value::sequence(Sequence{ir::Type::tensor(ir::DataType::kFloat), {*a, heap}});
  auto s = block.settle(3, seq, arena);
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->isSequence());
  const auto& items = s->sequence().items;
  ASSERT_EQ(items.size(), 2u);
  EXPECT_FALSE(block.holds(items[0].tensor().raw()));
  EXPECT_EQ(items[0].tensor().data<float>()[5], 7.0f);
  EXPECT_EQ(items[1].tensor().raw(), heap.raw());  // not in the block: kept
  EXPECT_EQ(block.counts().copiedOut, 1);
}

TEST(PlannedBlock, ScratchGoesIntoTheGapsOfItsStepOnly) {
  Arena arena;
  BlockLayout layout(handMadePlan(), 4);
  // Step 0: only a is live, [256, 512) is free; steps 1-2: nothing is free.
  ASSERT_EQ(layout.gapsAt(0), (BlockLayout::Gaps{{256, 512}}));
  EXPECT_TRUE(layout.gapsAt(1).empty());
  PlannedBlock block(layout);
  ASSERT_TRUE(block.begin(arena));
  auto a = block.tensorFor(0, ir::DataType::kFloat, {64});
  auto s1 = block.scratchFor(0, ir::DataType::kFloat, {50});  // 200 bytes, 256 aligned
  ASSERT_TRUE(a && s1);
  EXPECT_EQ(static_cast<const std::byte*>(s1->raw()) - static_cast<const std::byte*>(a->raw()),
            256);
  EXPECT_FALSE(block.scratchFor(0, ir::DataType::kUInt8, {1}));  // the gap is used up
  EXPECT_FALSE(block.scratchFor(1, ir::DataType::kUInt8, {1}));  // b is live too
  EXPECT_TRUE(block.scratchFor(3, ir::DataType::kUInt8, {1}) == std::nullopt);  // no such step
  EXPECT_EQ(block.counts().scratchInBlock, 1);
}

TEST(PlannedBlock, ScratchTakesItsStepsPlannedBufferFirstThenTheGaps) {
  // The hand-made plan with 256 bytes of scratch planned at step 1, at
  // [512, 768): step 1's other requests find no gap (a and b are live).
  MemoryPlan plan = handMadePlan();
  plan.tensors.push_back({.name = "(scratch of p)",
                          .producer = "p",
                          .bytes = 256,
                          .size = 256,
                          .first = 1,
                          .last = 1,
                          .offset = 512,
                          .scratch = true});
  plan.peak = 768;
  Arena arena;
  BlockLayout layout(plan, 4);
  EXPECT_TRUE(layout.gapsAt(1).empty());  // the scratch's bytes are not a gap
  EXPECT_EQ(layout.gapsAt(0), (BlockLayout::Gaps{{256, 768}}));
  EXPECT_TRUE(layout.scratchAt(1).planned);
  EXPECT_FALSE(layout.scratchAt(0).planned);
  PlannedBlock block(layout);
  ASSERT_TRUE(block.begin(arena));
  auto a = block.tensorFor(0, ir::DataType::kFloat, {64});
  ASSERT_TRUE(a);
  const auto at = [&](const Tensor& t) {
    return static_cast<const std::byte*>(t.raw()) - static_cast<const std::byte*>(a->raw());
  };
  auto s1 = block.scratchFor(1, ir::DataType::kFloat, {16});  // 64 bytes
  auto s2 = block.scratchFor(1, ir::DataType::kFloat, {48});  // 192 bytes: the rest
  ASSERT_TRUE(s1 && s2);
  EXPECT_EQ(at(*s1), 512);
  EXPECT_EQ(at(*s2), 576);
  EXPECT_FALSE(block.scratchFor(1, ir::DataType::kUInt8, {1}));  // used up, no gap
  // Step 0 has no planned scratch: its gap, from 256.
  auto s0 = block.scratchFor(0, ir::DataType::kUInt8, {1});
  ASSERT_TRUE(s0);
  EXPECT_EQ(at(*s0), 256);
  // A new activation of step 1 (the next step 1 after another) has it again.
  auto again = block.scratchFor(1, ir::DataType::kFloat, {64});
  ASSERT_TRUE(again);
  EXPECT_EQ(at(*again), 512);
  EXPECT_EQ(block.counts().scratchPlanned, 3);
  EXPECT_EQ(block.counts().scratchInBlock, 1);
  EXPECT_EQ(block.counts().scratchOutside, 1);
  EXPECT_EQ(block.counts().scratchOutsideBytes, 64u);
}

TEST(PlannedBlock, ABlockAboveTheMemoryLimitIsAnErrorNamingIt) {
  Arena arena;
  arena.setLimit(300);
  BlockLayout layout(handMadePlan(), 4);
  PlannedBlock block(layout);
  Status st = block.begin(arena);
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().code(), ErrorCode::kLimit);
  EXPECT_NE(st.error().message().find("memory plan"), std::string::npos) << st.error().message();
}

// ---- the executor on its plan -------------------------------------------------

std::unique_ptr<Executor> executorFor(const std::string& text, bool plan) {
  ir::Model model = testutil::parseModel(text);
  analysis::inferShapes(model);
  ExecutorOptions o;
  o.memoryPlan = plan;
  auto ex = Executor::create(model, o);
  EXPECT_TRUE(ex) << (ex ? "" : ex.error().message());
  return ex ? std::move(ex).value() : nullptr;
}

Tensor ramp(Dims dims, float start = -3.0f) {
  Tensor t = Tensor::zeros(ir::DataType::kFloat, std::move(dims));
  for (int64_t i = 0; i < t.numel(); ++i)
    t.mutableData<float>()[i] = start + 0.37f * static_cast<float>(i % 23);
  return t;
}

std::vector<std::byte> bytesOf(const ir::Tensor& t) {
  return {t.bytes().begin(), t.bytes().end()};
}

// Runs `text` on its plan and without it (twice each: a plan made at run time
// serves the second run) and expects byte-identical outputs; returns the
// second run on the plan.
RunResult runBothWays(const std::string& text, const NamedInputs& inputs) {
  auto on = executorFor(text, true);
  auto off = executorFor(text, false);
  if (!on || !off) return {};
  RunResult last;
  for (int run = 0; run < 2; ++run) {
    auto a = on->run(inputs);
    auto b = off->run(inputs);
    EXPECT_TRUE(a && b);
    if (!a || !b) return {};
    EXPECT_EQ(b->memory.source, PlanSource::kNone);
    EXPECT_EQ(a->outputs.size(), b->outputs.size());
    for (size_t i = 0; i < a->outputs.size() && i < b->outputs.size(); ++i) {
      const ir::Tensor& x = a->outputs[i];
      const ir::Tensor& y = b->outputs[i];
      EXPECT_EQ(x.dims(), y.dims()) << a->outputNames[i];
      EXPECT_EQ(bytesOf(x), bytesOf(y)) << a->outputNames[i] << " differs on run " << run;
    }
    last = std::move(a).value();
  }
  return last;
}

TEST(ExecutorOnPlan, StaticShapesArePlannedAheadAndEveryTensorPlaced) {
  RunResult r = runBothWays(R"(
    main (float[64] x) => (float[64] y) {
      a = Relu(x)
      b = Sigmoid(a)
      y = Neg(b)
    })",
                            {{"x", ramp({64})}});
  EXPECT_EQ(r.memory.source, PlanSource::kAhead);
  // a and b; y, the graph output, is written in the caller's buffer
  // (output_buffers.h), outside the block.
  EXPECT_EQ(r.memory.counts.placed, 2);
  EXPECT_EQ(r.memory.outputsHandedOver, 1);
  EXPECT_EQ(r.memory.counts.fellBack, 0);
  EXPECT_EQ(r.memory.inPlace, 1);  // b over a: Sigmoid runs in place
  EXPECT_EQ(r.memory.blockBytes, 256u);
}

Reuse reuseOf(const MemoryPlan& p, const std::string& name) {
  for (const PlannedTensor& t : p.tensors)
    if (t.name == name) return t.reuse;
  return Reuse::kView;  // not planned
}

// The plan the executor runs on, for `ex`.
MemoryPlan runningPlan(const Executor& ex) {
  auto p = planMemory(ex.compiled(), nullptr, PlanOptions::forExecution());
  EXPECT_TRUE(p) << (p ? "" : p.error().message());
  return p ? std::move(p).value() : MemoryPlan{};
}

TEST(ExecutorOnPlan, InPlaceOnlyWhereEveryKernelOfTheStepDeclaresIt) {
  // Every CPU row of the elementwise ops declares kInPlace; a step whose
  // candidates include a row that does not (here a copy of Cast's row
  // without the flag) keeps its output apart in the plan for running, while
  // the plan of what could be saved shares it (float to int32, the same width).
  const std::string text = R"(
    main (float[64] x) => (int32[64] y) {
      a = Relu(x)
      c = Clip(a)
      b = Cast <to = 6> (c)
      y = Neg(b)
    })";
  auto ex = executorFor(text, true);
  ASSERT_TRUE(ex);
  auto& steps = const_cast<CompiledGraph&>(ex->compiled()).steps;
  ASSERT_EQ(steps.size(), 4u);
  ASSERT_FALSE(steps[2].candidates.empty());
  KernelDef undeclared = *steps[2].candidates[0];
  ASSERT_NE(undeclared.flags & kInPlace, 0u);  // Cast declares it
  undeclared.flags = kNoFlags;
  const std::vector<const KernelDef*> declared = steps[2].candidates;
  steps[2].candidates = {&undeclared};
  auto ideal = planMemory(ex->compiled());
  auto running = planMemory(ex->compiled(), nullptr, PlanOptions::forExecution());
  steps[2].candidates = declared;
  ASSERT_TRUE(ideal && running);
  EXPECT_EQ(reuseOf(*ideal, "b"), Reuse::kInPlace);
  EXPECT_EQ(reuseOf(*running, "b"), Reuse::kNone);
  EXPECT_EQ(reuseOf(*running, "c"), Reuse::kInPlace);
  EXPECT_EQ(reuseOf(*running, "y"), Reuse::kInPlace);
  EXPECT_EQ(reuseOf(runningPlan(*ex), "b"), Reuse::kInPlace);
  RunResult r = runBothWays(text, {{"x", ramp({64})}});
  EXPECT_EQ(r.memory.inPlace, 2);  // c and b (y, a graph output, is outside the block)
}

// ---- kernels that declare kInPlace beyond the unary family (issue #26) ----

// Graph outputs copied out of the block (PASSLAB_DIRECT_OUTPUTS=0), as a run
// with a memory limit does: a graph output written directly is out of the
// block and never in place (90b0555), so the in-place kernels below are
// exercised where their output may be a graph output only on this plan.
struct OutputsCopied {
  OutputsCopied() { setenv("PASSLAB_DIRECT_OUTPUTS", "0", 1); }
  ~OutputsCopied() { unsetenv("PASSLAB_DIRECT_OUTPUTS"); }
};

// `text`'s step writing `name` is in place in the plan for running with the
// graph outputs copied, and the outputs on the plan are those without it.
void expectInPlaceStep(const std::string& text, const NamedInputs& inputs, const std::string& name,
                       int inPlace) {
  OutputsCopied copied;
  auto ex = executorFor(text, true);
  ASSERT_TRUE(ex);
  EXPECT_EQ(reuseOf(runningPlan(*ex), name), Reuse::kInPlace) << name;
  RunResult r = runBothWays(text, inputs);
  EXPECT_EQ(r.memory.source, PlanSource::kAhead);
  EXPECT_EQ(r.memory.inPlace, inPlace);
}

void expectNotInPlaceStep(const std::string& text, const NamedInputs& inputs,
                          const std::string& name) {
  OutputsCopied copied;
  auto ex = executorFor(text, true);
  ASSERT_TRUE(ex);
  EXPECT_EQ(reuseOf(runningPlan(*ex), name), Reuse::kNone) << name;
  runBothWays(text, inputs);
}

Tensor positive(Dims dims) {
  return ramp(std::move(dims), 0.25f);
}

// float16 Sigmoid and Tanh run on their float32 rows (half_as_float.h),
// which widen X before writing Y: in place, and the same outputs as without
// the plan.
TEST(InPlaceKernels, HalfTypeRowsOnFloat32KernelsRunInPlace) {
  const std::string text = R"(
    main (float[64] x) => (float16[64] y) {
      h = Cast <to = 10> (x)
      a = Relu(h)
      b = Sigmoid(a)
      y = Tanh(b)
    })";
  expectInPlaceStep(text, {{"x", ramp({64})}}, "b", 3);
  expectInPlaceStep(text, {{"x", ramp({64})}}, "y", 3);
}

TEST(InPlaceKernels, BatchNormalizationOverX) {
  const std::string text = R"(
    main (float[2,3,4] x, float[3] s, float[3] bb, float[3] m, float[3] v) => (float[2,3,4] y) {
      a = Relu(x)
      y = BatchNormalization(a, s, bb, m, v)
    })";
  NamedInputs in = {{"x", ramp({2, 3, 4})},
                    {"s", ramp({3}, 0.5f)},
                    {"bb", ramp({3})},
                    {"m", ramp({3}, -0.5f)},
                    {"v", positive({3})}};
  expectInPlaceStep(text, in, "y", 1);
  // a read again after BatchNormalization: not written over.
  expectNotInPlaceStep(R"(
    main (float[2,3,4] x, float[3] s, float[3] bb, float[3] m, float[3] v) => (float[2,3,4] y) {
      a = Relu(x)
      b = BatchNormalization(a, s, bb, m, v)
      y = Add(a, b)
    })",
                       in, "b");
}

TEST(InPlaceKernels, BatchNormalizationOverItsScaleWhenXHasItsSize) {
  // X [1,3] has the bytes of scale [3]: the plan may take scale's buffer (X
  // is a graph input); the kernel folds the parameters before writing Y.
  expectInPlaceStep(R"(
    main (float[1,3] x, float[3] s0, float[3] bb, float[3] m, float[3] v) => (float[1,3] y) {
      s = Relu(s0)
      y = BatchNormalization(x, s, bb, m, v)
    })",
                    {{"x", ramp({1, 3})},
                     {"s0", ramp({3}, 0.5f)},
                     {"bb", ramp({3})},
                     {"m", ramp({3}, -0.5f)},
                     {"v", positive({3})}},
                    "y", 1);
}

TEST(InPlaceKernels, BatchNormalizationTrainingOverARunningStatistic) {
  // Training mode reads the running mean after the batch statistics; Y [1,3]
  // over the running mean's buffer must not change the updated mean.
  expectInPlaceStep(R"(
    <ir_version: 8, opset_import: ["" : 15]>
    main (float[1,3] x, float[3] s, float[3] bb, float[3] m0, float[3] v)
        => (float[1,3] y, float[3] rm, float[3] rv) {
      m = Relu(m0)
      y, rm, rv = BatchNormalization <training_mode = 1> (x, s, bb, m, v)
    })",
                    {{"x", ramp({1, 3})},
                     {"s", ramp({3}, 0.5f)},
                     {"bb", ramp({3})},
                     {"m0", ramp({3}, -0.5f)},
                     {"v", positive({3})}},
                    "y", 1);
}

TEST(InPlaceKernels, PReluOverXOrOverASlopeOfItsSize) {
  expectInPlaceStep(R"(
    main (float[2,3,4] x, float[3,1] s) => (float[2,3,4] y) {
      a = Neg(x)
      y = PRelu(a, s)
    })",
                    {{"x", ramp({2, 3, 4})}, {"s", ramp({3, 1}, 0.1f)}}, "y", 1);
  // X a graph input: the slope's buffer is taken.
  expectInPlaceStep(R"(
    main (float[2,3,4] x, float[2,3,4] s0) => (float[2,3,4] y) {
      s = Sigmoid(s0)
      y = PRelu(x, s)
    })",
                    {{"x", ramp({2, 3, 4})}, {"s0", ramp({2, 3, 4})}}, "y", 1);
  expectNotInPlaceStep(R"(
    main (float[2,3,4] x, float[3,1] s) => (float[2,3,4] y) {
      a = Neg(x)
      b = PRelu(a, s)
      y = Mul(a, b)
    })",
                       {{"x", ramp({2, 3, 4})}, {"s", ramp({3, 1}, 0.1f)}}, "b");
}

TEST(InPlaceKernels, CastBetweenTypesOfOneWidth) {
  Tensor x = ramp({64}, -9.0f);
  for (int64_t i = 0; i < 64; ++i) x.mutableData<float>()[i] *= 1000.0f;
  // float to int32 and back, float to uint32, float16 to bfloat16 via int16.
  expectInPlaceStep(R"(
    main (float[64] x) => (float[64] y) {
      a = Neg(x)
      b = Cast <to = 6> (a)
      c = Neg(b)
      y = Cast <to = 1> (c)
    })",
                    {{"x", x}}, "b", 3);
  expectInPlaceStep(R"(
    main (float[64] x) => (uint32[64] y) {
      a = Neg(x)
      y = Cast <to = 12> (a)
    })",
                    {{"x", x}}, "y", 1);
  expectInPlaceStep(R"(
    main (float[64] x) => (bfloat16[64] y) {
      h = Cast <to = 10> (x)
      a = Neg(h)
      i = Cast <to = 5> (a)
      y = Cast <to = 16> (i)
    })",
                    {{"x", x}}, "i", 3);  // a over h, i over a, y over i
  expectNotInPlaceStep(R"(
    main (float[64] x) => (float[64] y) {
      a = Neg(x)
      b = Cast <to = 6> (a)
      c = Cast <to = 1> (b)
      y = Add(a, c)
    })",
                       {{"x", x}}, "b");
}

TEST(InPlaceKernels, CastToAPackedTypeOverOneByteReadsACopy) {
  // uint8[1] and int4[1] are both one byte: Y over X, whose byte the packed
  // output clears before writing.
  expectInPlaceStep(R"(
    main (float[1] x) => (int8[1] y) {
      a = Cast <to = 2> (x)
      b = Cast <to = 22> (a)
      y = Cast <to = 3> (b)
    })",
                    {{"x", ramp({1}, 5.0f)}}, "b", 2);
}

TEST(InPlaceKernels, BinaryOpsOverEitherInput) {
  // Sub is not commutative: y over b (a is a graph input) must read b[i] first.
  expectInPlaceStep(R"(
    main (float[4,8] x, float[4,8] z) => (float[4,8] y) {
      b = Neg(z)
      y = Sub(x, b)
    })",
                    {{"x", ramp({4, 8})}, {"z", ramp({4, 8}, 1.0f)}}, "y", 1);
  // Pow with an int32 exponent of the output's size (the same width).
  expectInPlaceStep(R"(
    main (float[4,8] x, float[4,8] z) => (float[4,8] y) {
      e = Cast <to = 6> (z)
      y = Pow(x, e)
    })",
                    {{"x", ramp({4, 8})}, {"z", ramp({4, 8}, 0.0f)}}, "y", 1);
  expectNotInPlaceStep(R"(
    main (float[4,8] x, float[4,8] z) => (float[4,8] y) {
      b = Neg(z)
      c = Sub(x, b)
      y = Mul(b, c)
    })",
                       {{"x", ramp({4, 8})}, {"z", ramp({4, 8}, 1.0f)}}, "c");
}

TEST(InPlaceKernels, SumOverALaterInputReadsItFromACopy) {
  // x0 and x1 are graph inputs: Sum takes the buffer of its third input, which
  // the kernel would otherwise overwrite with x0 + x1 before reading it.
  expectInPlaceStep(R"(
    main (float[64] x0, float[64] x1, float[64] z) => (float[64] y) {
      c = Neg(z)
      y = Sum(x0, x1, c)
    })",
                    {{"x0", ramp({64})}, {"x1", ramp({64}, 2.0f)}, {"z", ramp({64}, -1.0f)}}, "y",
                    1);
  expectInPlaceStep(R"(
    main (float[64] x0, float[64] z) => (float[64] y) {
      c = Neg(z)
      y = Mean(x0, c, x0)
    })",
                    {{"x0", ramp({64})}, {"z", ramp({64}, -1.0f)}}, "y", 1);
}

TEST(ExecutorOnPlan, NotInPlaceOverAValueReadLaterOrAGraphOutput) {
  RunResult r = runBothWays(R"(
    main (float[64] x) => (float[64] y, float[64] a) {
      a = Relu(x)
      b = Sigmoid(a)
      c = Neg(b)
      d = Add(b, c)
      y = Relu(d)
    })",
                            {{"x", ramp({64})}});
  // b is read after Neg, a is a graph output: neither is written over (y,
  // a graph output too, is written outside the block).
  EXPECT_EQ(r.memory.inPlace, 1);  // d over c only
  EXPECT_EQ(r.memory.source, PlanSource::kAhead);
}

TEST(ExecutorOnPlan, NotInPlaceOverAValueASubgraphReadsLater) {
  // The else branch reads `a` after Sigmoid ran: Sigmoid must not write over it.
  const std::string text = R"(
    main (bool c, float[64] x) => (float[64] y) {
      a = Relu(x)
      b = Sigmoid(a)
      y = If <then_branch = g1 () => (float[64] t) { t = Neg(b) },
              else_branch = g2 () => (float[64] e) { e = Neg(a) }> (c)
    })";
  Tensor no = Tensor::zeros(ir::DataType::kBool, {});
  RunResult r = runBothWays(text, {{"c", no}, {"x", ramp({64})}});
  EXPECT_EQ(r.memory.inPlace, 0);
  EXPECT_EQ(r.memory.source, PlanSource::kAhead);
}

TEST(ExecutorOnPlan, ATensorAKernelReturnsUnchangedIsCopiedOutBeforeItsMemoryIsReused) {
  // Cast to the same type returns its input: `c` would stay in a's memory,
  // which `d` takes when a dies; the copy-out moves c to its own place first.
  // (c is not in place over a: a is read after the Cast.)
  RunResult r = runBothWays(R"(
    main (float[64] x) => (float[64] y) {
      a = Relu(x)
      c = Cast <to = 1> (a)
      d = Neg(a)
      e = Sigmoid(d)
      y = Add(c, e)
    })",
                            {{"x", ramp({64})}});
  EXPECT_EQ(r.memory.source, PlanSource::kAhead);
  EXPECT_GE(r.memory.counts.copiedOut, 1);
}

TEST(ExecutorOnPlan, AnOuterValueAnIfReturnsIsCopiedOut) {
  const std::string text = R"(
    main (bool c, float[64] x) => (float[64] y) {
      a = Relu(x)
      r = If <then_branch = g1 () => (float[64] t) { t = Identity(a) },
              else_branch = g2 () => (float[64] e) { e = Neg(a) }> (c)
      b = Sigmoid(r)
      y = Add(b, r)
    })";
  Tensor yes = Tensor::zeros(ir::DataType::kBool, {});
  yes.mutableData<bool>()[0] = true;
  RunResult r = runBothWays(text, {{"c", yes}, {"x", ramp({64})}});
  EXPECT_EQ(r.memory.source, PlanSource::kAhead);
  EXPECT_GE(r.memory.counts.copiedOut, 1);
}

TEST(ExecutorOnPlan, SymbolicShapesArePlannedFromEachRunsInputShapesBeforeItRuns) {
  const std::string text = R"(
    main (float[N] x) => (float[N] y) {
      a = Relu(x)
      b = Sigmoid(a)
      y = Add(a, b)
    })";
  auto ex = executorFor(text, true);
  auto off = executorFor(text, false);
  ASSERT_TRUE(ex && off);
  for (int64_t n : {64, 64, 100, 64}) {
    auto r = ex->run({{"x", ramp({n})}});
    auto b = off->run({{"x", ramp({n})}});
    ASSERT_TRUE(r && b);
    EXPECT_EQ(r->memory.source, PlanSource::kInputShapes) << r->memory.note;
    EXPECT_EQ(r->memory.counts.placed, 2);  // y is written in the caller's buffer
    EXPECT_EQ(r->memory.outputsHandedOver, 1);
    EXPECT_EQ(r->memory.counts.fellBack, 0);
    // a and b (y takes b's buffer), 64-byte aligned.
    EXPECT_EQ(r->memory.blockBytes, 2 * ((static_cast<uint64_t>(n) * 4 + 63) / 64 * 64));
    EXPECT_EQ(bytesOf(r->outputs[0]), bytesOf(b->outputs[0]));
  }
}

TEST(ExecutorOnPlan, ADataDependentSizeOtherThanThePlannedFallsBackToTheArena) {
  // NonZero's output size depends on the values: planned from run 1's, then
  // a run with the same shape and more nonzeros.
  const std::string text = R"(
    main (float[8] x) => (int64[1,K] y) {
      a = Relu(x)
      n = NonZero(a)
      y = Neg(n)
    })";
  auto on = executorFor(text, true);
  auto off = executorFor(text, false);
  ASSERT_TRUE(on && off);
  Tensor few = ramp({8}, -1.5f), many = ramp({8}, 1.0f);  // 3 and 8 nonzeros
  for (int run = 0; run < 3; ++run) {
    const Tensor& x = run == 2 ? many : few;
    auto a = on->run({{"x", x}});
    auto b = off->run({{"x", x}});
    ASSERT_TRUE(a && b);
    EXPECT_EQ(a->outputs[0].dims(), b->outputs[0].dims());
    EXPECT_EQ(bytesOf(a->outputs[0]), bytesOf(b->outputs[0])) << "run " << run;
    if (run == 0) {
      // Inference cannot size NonZero's output: this run records the sizes.
      EXPECT_EQ(a->memory.source, PlanSource::kNone);
      EXPECT_NE(a->memory.note.find("records"), std::string::npos) << a->memory.note;
    } else {
      EXPECT_EQ(a->memory.source, PlanSource::kRunTime);
    }
    if (run == 1) {
      EXPECT_EQ(a->memory.counts.fellBack, 0);
    }
    if (run == 2) {
      EXPECT_EQ(a->memory.counts.fellBack, 1);  // n; y is written in the caller's buffer
      EXPECT_EQ(a->memory.outputsHandedOver, 1);
    }
  }
}

TEST(ExecutorOnPlan, RunsUnderAMemoryLimitTheArenaAlonePasses) {
  const std::string text = R"(
    main (float[1024] x) => (float[1024] y) {
      [first] a = Neg(x)
      [second] b = Neg(a)
      [third] y = Add(a, b)
    })";
  RunOptions limited;
  limited.memoryLimitBytes = 9000;  // a and b (8 KiB); y takes b's buffer on the plan
  auto on = executorFor(text, true);
  auto off = executorFor(text, false);
  ASSERT_TRUE(on && off);
  auto a = on->run({{"x", ramp({1024})}}, limited);
  ASSERT_TRUE(a) << a.error().message();
  EXPECT_EQ(a->memory.blockBytes, 8192u);
  auto b = off->run({{"x", ramp({1024})}}, limited);
  ASSERT_FALSE(b);
  EXPECT_NE(b.error().message().find("'third'"), std::string::npos) << b.error().message();
  // Below the block: the run goes to the arena alone, whose error names the node.
  limited.memoryLimitBytes = 6000;
  auto c = on->run({{"x", ramp({1024})}}, limited);
  ASSERT_FALSE(c);
  EXPECT_NE(c.error().message().find("'second'"), std::string::npos) << c.error().message();
}

// a (64 KiB) and b are live at step 1, where ReduceLogSumExp asks for two
// scratch buffers of 64 doubles (reduce.cpp): the block has no gap there.
const char* kScratchChain = R"(
    main (float[64,256] x) => (float[64,1] y) {
      [neg] a = Neg(x)
      [lse] b = ReduceLogSumExp <axes = [1]> (a)
      [out] y = Neg(b)
    })";

TEST(ExecutorOnPlan, KernelScratchARunAskedForIsPlannedForTheNextRuns) {
  auto ex = executorFor(kScratchChain, true);
  ASSERT_TRUE(ex);
  const NamedInputs inputs = {{"x", ramp({64, 256})}};
  auto first = ex->run(inputs);
  ASSERT_TRUE(first) << first.error().message();
  // Recorded per step: step 1's two requests, nothing at the Negs.
  EXPECT_EQ(first->memory.scratchBytes, (std::vector<uint64_t>{0, 1024, 0}));
  EXPECT_EQ(first->memory.plannedScratchBytes, 0u);
  // Not in the plan yet: from the arena, beside the whole block.
  EXPECT_EQ(first->memory.counts.scratchOutside, 2);
  EXPECT_EQ(first->peakArenaBytes, first->memory.blockBytes + 1024);
  for (int run = 0; run < 2; ++run) {
    auto r = ex->run(inputs);
    ASSERT_TRUE(r) << r.error().message();
    // Planned: the block grows by the scratch and the arena holds the block alone.
    EXPECT_EQ(r->memory.plannedScratchBytes, 1024u);
    EXPECT_EQ(r->memory.blockBytes, first->memory.blockBytes + 1024);
    EXPECT_EQ(r->memory.counts.scratchPlanned, 2);
    EXPECT_EQ(r->memory.counts.scratchOutside, 0);
    EXPECT_EQ(r->peakArenaBytes, r->memory.blockBytes);
    EXPECT_EQ(r->memory.scratchBytes, first->memory.scratchBytes);
  }
  // And the outputs are those without the plan.
  RunResult r = runBothWays(kScratchChain, inputs);
  EXPECT_EQ(r.memory.plannedScratchBytes, 1024u);
  EXPECT_EQ(r.peakArenaBytes, r.memory.blockBytes);
}

// A later run that asks for more scratch than the plan holds (more rows,
// so ReduceLogSumExp's two buffers grow): the requests that do not fit the
// step's planned buffer go to the gaps or the arena, never over the part of
// it an earlier request of the step holds nor over a live tensor, and the
// next run's plan holds the new sizes. Every run against the model without
// the plan, byte for byte (z keeps a alive across the scratch step).
TEST(ExecutorOnPlan, ALaterRunAskingForMoreScratchThanPlannedStaysCorrect) {
  const char* text = R"(
    main (float[N,256] x) => (float[N,1] y, float[N,256] z) {
      [neg] a = Neg(x)
      [lse] b = ReduceLogSumExp <axes = [1]> (a)
      [out] y = Add(b, b)
      [relu] z = Relu(a)
    })";
  auto on = executorFor(text, true);
  auto off = executorFor(text, false);
  ASSERT_TRUE(on && off);
  struct Run {
    int64_t rows;
    bool grows;  // asks for more scratch than any run before
  };
  for (const Run& run : {Run{64, true}, Run{64, false}, Run{96, true}, Run{96, false},
                         Run{256, true}, Run{16, false}, Run{256, false}}) {
    SCOPED_TRACE("rows " + std::to_string(run.rows));
    const NamedInputs inputs = {{"x", ramp({run.rows, 256}, -2.5f)}};
    auto a = on->run(inputs);
    auto b = off->run(inputs);
    ASSERT_TRUE(a && b);
    ASSERT_EQ(a->outputs.size(), b->outputs.size());
    for (size_t i = 0; i < a->outputs.size(); ++i)
      EXPECT_EQ(bytesOf(a->outputs[i]), bytesOf(b->outputs[i])) << a->outputNames[i];
    const BlockCounts& c = a->memory.counts;
    EXPECT_EQ(a->memory.scratchBytes[1], static_cast<uint64_t>(2 * run.rows * 8));
    if (run.grows) {
      // Not all of it in the planned buffer: the rest elsewhere.
      EXPECT_GT(c.scratchOutside + c.scratchInBlock, 0)
          << "planned " << a->memory.plannedScratchBytes;
    } else {
      EXPECT_EQ(c.scratchPlanned, 2);
      EXPECT_EQ(c.scratchOutside + c.scratchInBlock, 0);
    }
  }
}

TEST(ExecutorOnPlan, ScratchIsRecordedWithoutAPlanToo) {
  auto ex = executorFor(kScratchChain, false);
  ASSERT_TRUE(ex);
  auto r = ex->run({{"x", ramp({64, 256})}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->memory.scratchBytes, (std::vector<uint64_t>{0, 1024, 0}));
  EXPECT_EQ(r->memory.plannedScratchBytes, 0u);
}

TEST(ExecutorOnPlan, TurnedOffSaysSo) {
  auto ex = executorFor("main (float[4] x) => (float[4] y) { y = Relu(x) }", false);
  ASSERT_TRUE(ex);
  auto r = ex->run({{"x", ramp({4})}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->memory.source, PlanSource::kNone);
  EXPECT_EQ(r->memory.note, "memory plan turned off");
}

}  // namespace
}  // namespace passlab::exec::memory
