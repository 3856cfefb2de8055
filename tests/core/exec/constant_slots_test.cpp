// The main graph's slots kept between runs with the initializers bound once
// (constant_slots.h), and the releases after each step decided once per
// change (kept_values.h): a run takes the slots with only the constants
// bound, gives them back however it ends (its values gone, overridden
// initializers bound again, released constants still released), and an
// initializer a subgraph body reads stays bound on every run.
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <vector>

#include "core/exec/constant_slots.h"
#include "core/exec/executor.h"
#include "tests/core/exec/exec_test_util.h"
#include "tests/core/exec/kept_values_test_util.h"

namespace passlab::exec {
namespace {

using testutil::floats;
using testutil::toFloats;

// k is an initializer a caller may override (IR version 3 style); listed
// first, so a run that overrides it binds it before x's check fails.
const char* const kOverridable = R"(
    main (float[4] k = {1, 2, 3, 4}, float[4] x) => (float[4] y) <float[4] w = {10, 20, 30, 40}> {
      t = Add(x, k)
      y = Add(t, w)
    })";

std::unique_ptr<Executor> make(const char* text) {
  auto ex = Executor::create(testutil::parseModel(text), {});
  EXPECT_TRUE(ex) << (ex ? "" : ex.error().message());
  return ex ? std::move(ex).value() : nullptr;
}

// The slot of value `name` of the executor's main graph.
size_t slotOf(const Executor& ex, const std::string& name) {
  const CompiledGraph& plan = ex.compiled();
  for (size_t s = 0; s < plan.slotValues.size(); ++s)
    if (plan.slotValues[s] != nullptr && plan.slotValues[s]->name() == name) return s;
  ADD_FAILURE() << "no slot for " << name;
  return 0;
}

TEST(ConstantSlots, TakeBindsTheConstantsOnly) {
  auto ex = make(kOverridable);
  ASSERT_TRUE(ex);
  const CompiledGraph& plan = ex->compiled();
  ConstantSlots slots;
  std::vector<Value> taken = slots.take(plan);
  ASSERT_EQ(taken.size(), plan.slotCount);
  ASSERT_EQ(plan.constants.size(), 2u);  // k and w
  for (const auto& [slot, value] : plan.constants) {
    const Value& v = taken[static_cast<size_t>(slot)];
    ASSERT_TRUE(v.isTensor());
    EXPECT_EQ(v.tensor().raw(), value.tensor().raw()) << "the constant's own data, not a copy";
  }
  for (const char* name : {"x", "t", "y"}) EXPECT_TRUE(taken[slotOf(*ex, name)].isNone()) << name;
}

// What a run left in the slots goes when they are given back; the constants
// stay; an overridden initializer is bound again only when the run says it
// overrode one; slots of another size are not kept (the next take() binds
// afresh).
TEST(ConstantSlots, GiveBackEmptiesTheRunsValues) {
  auto ex = make(kOverridable);
  ASSERT_TRUE(ex);
  const CompiledGraph& plan = ex->compiled();
  const size_t k = slotOf(*ex, "k"), x = slotOf(*ex, "x"), t = slotOf(*ex, "t"),
               w = slotOf(*ex, "w");
  const ir::Tensor caller = floats({4}, {7, 7, 7, 7});
  ConstantSlots slots;
  for (bool overridden : {true, false}) {
    SCOPED_TRACE(overridden ? "overridden" : "not overridden");
    std::vector<Value> run = slots.take(plan);
    const void* wData = run[w].tensor().raw();
    run[x] = Value(caller);
    run[t] = Value(caller);
    if (overridden) run[k] = Value(caller);
    slots.giveBack(plan, std::move(run), overridden);
    std::vector<Value> next = slots.take(plan);
    EXPECT_TRUE(next[x].isNone());
    EXPECT_TRUE(next[t].isNone());
    ASSERT_TRUE(next[k].isTensor());
    EXPECT_EQ(toFloats(next[k].tensor().toIr("k")), (std::vector<float>{1, 2, 3, 4}));
    EXPECT_EQ(next[w].tensor().raw(), wData);
    slots.giveBack(plan, std::move(next), false);
  }
  // Not overridden by the run's own account: what it bound in k stays (the
  // executor says so whenever it binds k).
  std::vector<Value> run = slots.take(plan);
  run[k] = Value(caller);
  slots.giveBack(plan, std::move(run), false);
  EXPECT_EQ(toFloats(slots.take(plan)[k].tensor().toIr("k")), (std::vector<float>{7, 7, 7, 7}));
  // The slots taken above were not given back: bound afresh.
  std::vector<Value> fresh = slots.take(plan);
  EXPECT_EQ(toFloats(fresh[k].tensor().toIr("k")), (std::vector<float>{1, 2, 3, 4}));
  slots.giveBack(plan, std::vector<Value>(3), false);  // the wrong size: dropped
  std::vector<Value> again = slots.take(plan);
  ASSERT_EQ(again.size(), plan.slotCount);
  EXPECT_EQ(toFloats(again[k].tensor().toIr("k")), (std::vector<float>{1, 2, 3, 4}));
}

std::vector<float> runY(Executor& ex, const NamedInputs& in) {
  auto r = ex.run(in);
  EXPECT_TRUE(r) << (r ? "" : r.error().message());
  return r ? toFloats(r->outputs[0]) : std::vector<float>{};
}

// Plain, overriding, plain, failing after binding an override, cancelled,
// plain: each run gives what a fresh executor gives, and the executor holds
// no reference to the caller's tensors once a run returned, however it
// returned.
TEST(ConstantSlots, RunsAfterOverridesAndFailuresUseTheDefaults) {
  auto ex = make(kOverridable);
  ASSERT_TRUE(ex);
  const ir::Tensor x = floats({4}, {0.5f, 1.5f, 2.5f, 3.5f});
  const ir::Tensor k = floats({4}, {100, 200, 300, 400});
  const std::vector<float> plain = {11.5f, 23.5f, 35.5f, 47.5f};
  const std::vector<float> overridden = {110.5f, 221.5f, 332.5f, 443.5f};
  const long xRefs = x.buffer().use_count(), kRefs = k.buffer().use_count();
  EXPECT_EQ(runY(*ex, {{"x", x}}), plain);
  EXPECT_EQ(runY(*ex, {{"x", x}, {"k", k}}), overridden);
  EXPECT_EQ(runY(*ex, {{"x", x}}), plain);
  EXPECT_EQ(x.buffer().use_count(), xRefs);
  EXPECT_EQ(k.buffer().use_count(), kRefs);
  // k is bound, then x's shape is refused.
  auto bad = ex->run({{"k", k}, {"x", floats({5}, {1, 2, 3, 4, 5})}});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message().find("input 'x'"), std::string::npos) << bad.error().message();
  EXPECT_EQ(k.buffer().use_count(), kRefs);
  EXPECT_EQ(runY(*ex, {{"x", x}}), plain);
  std::atomic<bool> cancel{true};
  RunOptions ro;
  ro.cancel = &cancel;
  auto cancelled = ex->run({{"x", x}, {"k", k}}, ro);
  ASSERT_FALSE(cancelled);
  EXPECT_EQ(cancelled.error().code(), ErrorCode::kCancelled);
  EXPECT_EQ(x.buffer().use_count(), xRefs);
  EXPECT_EQ(k.buffer().use_count(), kRefs);
  EXPECT_EQ(runY(*ex, {{"x", x}}), plain);
  EXPECT_EQ(runY(*ex, {{"x", x}, {"k", k}}), overridden);
}

// ---- Releases decided once, and bodies that read an initializer ----

// "{v, ...}": n seeded values.
std::string weights(int n) {
  return keptvalues::reals(n, -0.5f, 0.5f, 7);
}

// y = Conv(x, w) packs w (the Conv holds its own copy); `body` is the node
// (an If or a Loop) making r, whose body reads w too, or empty.
std::string convModel(const std::string& body) {
  return "main (float[1,8,6,6] x, bool c) => (float[1,16,6,6] y, float[16,8,3,3] r) "
         "<float[16,8,3,3] w = " +
         weights(16 * 8 * 9) +
         ", int64 n = {2}, int64[4] ws = {16, 8, 3, 3}> {\n y = Conv <pads = [1, 1, 1, 1]> (x, "
         "w)\n" +
         body + "}";
}

const char* const kIfReadsW =
    " r = If <then_branch = g1 () => (float[16,8,3,3] a) { a = Neg(w) },\n"
    "         else_branch = g2 () => (float[16,8,3,3] b) { b = Identity(w) }> (c)\n";
// Two iterations, each adding w to zeros (not read from w): r = 2w.
const char* const kLoopReadsW =
    " z = ConstantOfShape(ws)\n"
    " r = Loop <body = body (int64 i, bool ci, float[16,8,3,3] s) => (bool co, float[16,8,3,3] so) "
    "{ co = Identity(ci)\n so = Add(s, w) }> (n, c, z)\n";

// An initializer a body reads is never released (the body reads it from the
// main graph's slots on every run), though the Conv holds it packed: every
// run gives the bytes of an executor that keeps nothing, with the If taking
// either branch. Without the body w is released after the first run, so the
// Conv does hold it.
TEST(ConstantSlots, InitializerABodyReadsStaysBound) {
  const ir::Tensor x = floats({1, 8, 6, 6}, testutil::pattern(8 * 36, 3));
  auto boolean = [](bool v) {
    ir::Tensor t(ir::DataType::kBool, {}, ir::makeHeapBuffer(std::vector<std::byte>{std::byte(v)}));
    return t;
  };
  const uint64_t wBytes = 16 * 8 * 9 * 4;
  for (const char* body : {kIfReadsW, kLoopReadsW}) {
    SCOPED_TRACE(body);
    auto kept = keptvalues::make(convModel(body), true);
    auto every = keptvalues::make(convModel(body), false);
    ASSERT_TRUE(kept && every);
    for (bool c : {true, false, true, true}) {
      NamedInputs in = {{"x", x}, {"c", boolean(c)}};
      RunResult a = keptvalues::run(*kept, in), b = keptvalues::run(*every, in);
      ASSERT_EQ(a.outputs.size(), 2u);
      EXPECT_EQ(toFloats(a.outputs[0]), toFloats(b.outputs[0]));
      EXPECT_EQ(toFloats(a.outputs[1]), toFloats(b.outputs[1]));
      EXPECT_EQ(a.memory.keptFreedBytes, 0u) << "w is read by a body";
    }
  }
  // The caller's model keeps w's bytes; once the run released w nothing of
  // the executor's holds them (not the slots it keeps between runs).
  ir::Model convOnly = testutil::parseModel(
      "main (float[1,8,6,6] x) => (float[1,16,6,6] y) <float[16,8,3,3] w = " + weights(16 * 8 * 9) +
      "> {\n y = Conv <pads = [1, 1, 1, 1]> (x, w)\n}");
  const ir::Tensor* w = convOnly.graph().initializers()[0]->initializer();
  auto ex = Executor::create(convOnly, {});
  ASSERT_TRUE(ex) << ex.error().message();
  EXPECT_GT(w->buffer().use_count(), 1);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(keptvalues::run(**ex, {{"x", x}}).memory.keptFreedBytes, wBytes) << i;
    EXPECT_EQ(w->buffer().use_count(), 1) << i;
  }
}

}  // namespace
}  // namespace passlab::exec
