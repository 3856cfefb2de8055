// The executor on its memory plan (core/exec/memory/planned_block.h,
// execution_memory.h): tensors placed at their planned offsets; a size the
// plan did not expect falls back to the arena; a value left in memory that is
// not its own is copied out; in place only where the kernel declares it and
// never over a value read later, a graph output or a subgraph's outer read;
// symbolic shapes planned per run's input shapes, data-dependent ones from a
// run's recorded sizes; kernel scratch in the block's gaps of its step. Every run is compared with
// the same model run without the plan.
#include <gtest/gtest.h>

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
  EXPECT_EQ(r.memory.counts.placed, 3);
  EXPECT_EQ(r.memory.counts.fellBack, 0);
  EXPECT_EQ(r.memory.inPlace, 2);  // b over a, y over b: Sigmoid and Neg run in place
  EXPECT_EQ(r.memory.blockBytes, 256u);
}

TEST(ExecutorOnPlan, InPlaceOnlyWhereEveryKernelOfTheStepDeclaresIt) {
  // Cast's kernel does not declare kInPlace: the plan for running keeps its
  // output apart; the plan of what could be saved shares it (float to int32,
  // the same width). Clip declares it.
  const std::string text = R"(
    main (float[64] x) => (int32[64] y) {
      a = Relu(x)
      c = Clip(a)
      b = Cast <to = 6> (c)
      y = Neg(b)
    })";
  auto ex = executorFor(text, true);
  ASSERT_TRUE(ex);
  auto ideal = planMemory(ex->compiled());
  auto running = planMemory(ex->compiled(), nullptr, PlanOptions::forExecution());
  ASSERT_TRUE(ideal && running);
  auto reuseOf = [](const MemoryPlan& p, const std::string& name) {
    for (const PlannedTensor& t : p.tensors)
      if (t.name == name) return t.reuse;
    return Reuse::kView;
  };
  EXPECT_EQ(reuseOf(*ideal, "b"), Reuse::kInPlace);
  EXPECT_EQ(reuseOf(*running, "b"), Reuse::kNone);
  EXPECT_EQ(reuseOf(*running, "c"), Reuse::kInPlace);
  EXPECT_EQ(reuseOf(*running, "y"), Reuse::kInPlace);
  RunResult r = runBothWays(text, {{"x", ramp({64})}});
  EXPECT_EQ(r.memory.inPlace, 2);
}

TEST(ExecutorOnPlan, NotInPlaceOverAValueReadLaterOrAGraphOutput) {
  RunResult r = runBothWays(R"(
    main (float[64] x) => (float[64] y, float[64] a) {
      a = Relu(x)
      b = Sigmoid(a)
      c = Neg(b)
      y = Add(b, c)
    })",
                            {{"x", ramp({64})}});
  // b is read after Neg, a is a graph output: neither is written over.
  EXPECT_EQ(r.memory.inPlace, 1);  // y over c only
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
  // which `d` takes after a dies; the copy-out moves c to its own place first.
  RunResult r = runBothWays(R"(
    main (float[64] x) => (float[64] y) {
      a = Relu(x)
      c = Cast <to = 1> (a)
      d = Neg(c)
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
    EXPECT_EQ(r->memory.counts.placed, 3);
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
      EXPECT_EQ(a->memory.counts.fellBack, 2);  // n and y
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
