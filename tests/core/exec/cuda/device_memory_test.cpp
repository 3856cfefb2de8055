// The CUDA runner's device memory plan (core/exec/cuda/device_memory.h),
// host logic only (no GPU): the plan holds the slots device steps wrote and
// nothing else, shares buffers for views but never in place, is accepted by
// the CPU planner's checker (which refuses it once tampered with); the stages
// (record, plan, new input shapes, a block that could not be had); where a
// step's output goes when it lies in the block at another slot's place; and
// on every corpus model, the device plan of the steps the placement plan puts
// on the device, sized from a CPU run, passes the checker.
#include <gtest/gtest.h>

#include <iostream>

#include "core/analysis/shape_inference.h"
#include "core/exec/cuda/device_memory.h"
#include "core/exec/cuda/placement_plan.h"
#include "core/exec/executor.h"
#include "core/exec/kept_values.h"
#include "core/exec/memory/plan_check.h"
#include "core/io/model_io.h"
#include "core/pipeline/input_synthesis.h"
#include "tests/support/test_support.h"

namespace passlab::exec::cuda {
namespace {

using memory::MemoryPlan;
using memory::PlannedTensor;
using memory::Reuse;

constexpr const char* kChain = R"(main (float[1,64] x) => (float[1,64] y) {
  a = Relu(x)
  b = Sigmoid(a)
  c = Flatten(b)
  y = Tanh(c)
})";

std::unique_ptr<Executor> executorFor(ir::Model model) {
  analysis::inferShapes(model);
  auto ex = Executor::create(model);
  EXPECT_TRUE(ex) << (ex ? "" : ex.error().message());
  return ex ? std::move(ex).value() : nullptr;
}

int32_t slotOf(const CompiledGraph& g, const std::string& name) {
  for (size_t s = 0; s < g.slotValues.size(); ++s)
    if (g.slotValues[s] != nullptr && g.slotValues[s]->name() == name)
      return static_cast<int32_t>(s);
  ADD_FAILURE() << "no slot for " << name;
  return -1;
}

// Device bytes with `names` on the device (256 bytes each: float[1,64]).
std::vector<uint64_t> onDevice(const CompiledGraph& g, std::initializer_list<const char*> names) {
  std::vector<uint64_t> bytes(g.slotCount, kNotOnDevice);
  for (const char* n : names) bytes[static_cast<size_t>(slotOf(g, n))] = 256;
  return bytes;
}

const PlannedTensor* tensorNamed(const MemoryPlan& plan, const std::string& name) {
  for (const PlannedTensor& t : plan.tensors)
    if (t.name == name) return &t;
  return nullptr;
}

TEST(DeviceMemoryPlan, HoldsTheDeviceSlotsWithViewsSharedAndNothingInPlace) {
  auto ex = executorFor(passlab::testing::parse(kChain));
  ASSERT_TRUE(ex);
  const CompiledGraph& g = ex->compiled();
  auto plan = planDeviceMemory(g, onDevice(g, {"a", "b", "c", "y"}));
  ASSERT_TRUE(plan) << plan.error().message();
  EXPECT_TRUE(memory::checkPlan(*plan));
  ASSERT_EQ(plan->tensors.size(), 4u);
  EXPECT_EQ(plan->inPlaceCount, 0);
  for (const PlannedTensor& t : plan->tensors) EXPECT_NE(t.reuse, Reuse::kInPlace) << t.name;
  const PlannedTensor* c = tensorNamed(*plan, "c");
  const PlannedTensor* b = tensorNamed(*plan, "b");
  ASSERT_TRUE(c && b);
  EXPECT_EQ(c->reuse, Reuse::kView);
  EXPECT_EQ(c->offset, b->offset);
  // a and b live together at Sigmoid, b (through c) and y at Tanh: two
  // buffers. The CPU's plan with every elementwise op in place needs one.
  EXPECT_EQ(plan->peak, 512u);
  auto cpu = memory::planMemory(g, nullptr, {});
  ASSERT_TRUE(cpu);
  EXPECT_EQ(cpu->peak, 256u);
}

TEST(DeviceMemoryPlan, LeavesOutWhatLivesOnTheHost) {
  auto ex = executorFor(passlab::testing::parse(kChain));
  ASSERT_TRUE(ex);
  const CompiledGraph& g = ex->compiled();
  // a computed on the host: not in the plan.
  auto plan = planDeviceMemory(g, onDevice(g, {"b", "c", "y"}));
  ASSERT_TRUE(plan) << plan.error().message();
  EXPECT_EQ(tensorNamed(*plan, "a"), nullptr);
  EXPECT_EQ(plan->tensors.size(), 3u);
  // b on the host: its view c is not the plan's either (its memory is b's copy's).
  plan = planDeviceMemory(g, onDevice(g, {"c", "y"}));
  ASSERT_TRUE(plan) << plan.error().message();
  ASSERT_EQ(plan->tensors.size(), 1u);
  EXPECT_EQ(plan->tensors[0].name, "y");
  EXPECT_EQ(plan->peak, 256u);
  // Nothing on the device: an empty plan, no block.
  plan = planDeviceMemory(g, std::vector<uint64_t>(g.slotCount, kNotOnDevice));
  ASSERT_TRUE(plan) << plan.error().message();
  EXPECT_TRUE(plan->tensors.empty());
  EXPECT_EQ(plan->peak, 0u);
}

TEST(DeviceMemoryPlan, TheCheckerRefusesItTamperedWith) {
  auto ex = executorFor(passlab::testing::parse(kChain));
  ASSERT_TRUE(ex);
  const CompiledGraph& g = ex->compiled();
  auto plan = planDeviceMemory(g, onDevice(g, {"a", "b", "c", "y"}));
  ASSERT_TRUE(plan);
  PlannedTensor* a = nullptr;
  PlannedTensor* b = nullptr;
  for (PlannedTensor& t : plan->tensors) {
    if (t.name == "a") a = &t;
    if (t.name == "b") b = &t;
  }
  ASSERT_TRUE(a && b);
  a->offset = b->offset;  // live together at Sigmoid
  Status st = memory::checkPlan(*plan);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message().find("overlapping memory"), std::string::npos)
      << st.error().message();
}

TEST(DeviceSettleAction, KeepsOwnPlacesAndViewsCopiesPassThroughs) {
  memory::BlockLayout::Place own{true, true, 512, 256};
  memory::BlockLayout::Place view{true, false, 0, 256};
  memory::BlockLayout::Place none{};
  EXPECT_EQ(settleAction(own, false, 0, 256), DeviceSettle::kKeep);  // from the pool
  EXPECT_EQ(settleAction(own, true, 512, 256), DeviceSettle::kKeep);
  EXPECT_EQ(settleAction(view, true, 0, 256), DeviceSettle::kKeep);  // the shared buffer
  // An input passed through: another slot's place.
  EXPECT_EQ(settleAction(own, true, 0, 256), DeviceSettle::kToOwnPlace);
  EXPECT_EQ(settleAction(own, true, 0, 128), DeviceSettle::kToPool);  // not the plan's bytes
  EXPECT_EQ(settleAction(view, true, 768, 256), DeviceSettle::kToPool);
  EXPECT_EQ(settleAction(none, true, 0, 256), DeviceSettle::kToPool);
}

std::vector<Value> frameWith(const CompiledGraph& g, Dims dims) {
  std::vector<Value> slots(g.slotCount);
  slots[static_cast<size_t>(g.inputSlots.at(0))] =
      Value(Tensor::zeros(ir::DataType::kFloat, std::move(dims)));
  return slots;
}

TEST(DeviceMemoryStages, RecordsThenPlansPerInputShapes) {
  auto ex = executorFor(passlab::testing::parse(kChain));
  ASSERT_TRUE(ex);
  const CompiledGraph& g = ex->compiled();
  DeviceMemory dm(true);
  DeviceBlockUse use;
  EXPECT_EQ(dm.prepare(g, frameWith(g, {1, 64}), use), nullptr);
  EXPECT_TRUE(dm.recording());
  EXPECT_NE(use.note.find("recorded"), std::string::npos) << use.note;
  for (const char* n : {"a", "b", "c", "y"}) dm.record(slotOf(g, n), 256);
  dm.recorded(g);
  EXPECT_FALSE(dm.recording());
  EXPECT_EQ(dm.planNumber(), 1u);

  use = {};
  const memory::BlockLayout* layout = dm.prepare(g, frameWith(g, {1, 64}), use);
  ASSERT_NE(layout, nullptr);
  EXPECT_EQ(use.blockBytes, 512u);
  EXPECT_EQ(use.plannedTensorBytes, 768u);  // a, b, y (c is b's view)
  EXPECT_TRUE(layout->at(slotOf(g, "y")).planned);
  EXPECT_FALSE(layout->at(slotOf(g, "c")).own);
  EXPECT_FALSE(layout->at(slotOf(g, "x")).planned);

  // Other input dims: record again, then a new plan.
  use = {};
  EXPECT_EQ(dm.prepare(g, frameWith(g, {2, 64}), use), nullptr);
  EXPECT_TRUE(dm.recording());
  dm.record(slotOf(g, "y"), 512);
  dm.recorded(g);
  EXPECT_EQ(dm.planNumber(), 2u);
  layout = dm.prepare(g, frameWith(g, {2, 64}), use);
  ASSERT_NE(layout, nullptr);
  EXPECT_EQ(layout->blockBytes(), 512u);
  EXPECT_FALSE(layout->at(slotOf(g, "a")).planned);
}

TEST(DeviceMemoryStages, OffAndBlockFailuresUseThePoolWithAReason) {
  auto ex = executorFor(passlab::testing::parse(kChain));
  ASSERT_TRUE(ex);
  const CompiledGraph& g = ex->compiled();
  DeviceMemory off(false);
  DeviceBlockUse use;
  EXPECT_EQ(off.prepare(g, frameWith(g, {1, 64}), use), nullptr);
  EXPECT_FALSE(off.recording());
  EXPECT_NE(use.note.find("PASSLAB_CUDA_ARENA=off"), std::string::npos) << use.note;

  DeviceMemory dm(true);
  dm.prepare(g, frameWith(g, {1, 64}), use);
  dm.record(slotOf(g, "y"), 256);
  dm.recorded(g);
  dm.blockFailed("out of memory");
  use = {};
  EXPECT_EQ(dm.prepare(g, frameWith(g, {1, 64}), use), nullptr);
  EXPECT_FALSE(dm.recording());
  EXPECT_NE(use.note.find("out of memory"), std::string::npos) << use.note;
  // New shapes start over.
  EXPECT_EQ(dm.prepare(g, frameWith(g, {3, 64}), use), nullptr);
  EXPECT_TRUE(dm.recording());
}

// The slots written by the steps the placement plan puts on the device
// (or decides at run time), not computed once and kept.
std::vector<bool> deviceSlots(const CompiledGraph& g, const std::vector<StepPlacement>& places) {
  std::vector<bool> held(g.slotCount, false);
  for (size_t s = 0; s < g.steps.size(); ++s) {
    const std::string& where = places[s].where;
    if ((where != "device" && where != "run-time") || keepsOutputs(g.steps[s])) continue;
    for (int32_t slot : g.steps[s].outputs)
      if (slot >= 0) held[static_cast<size_t>(slot)] = true;
  }
  return held;
}

TEST(DeviceMemoryPlanOnCorpus, EveryModelsDevicePlanPassesTheChecker) {
  PASSLAB_REQUIRE_CORPUS();
  size_t models = 0, withTensors = 0;
  for (const std::string& path : passlab::testing::corpusModels()) {
    SCOPED_TRACE(path);
    auto loaded = io::loadModel(path);
    if (!loaded) continue;  // the corpus's load tests report these
    auto places = planCudaPlacement(loaded->model);
    ASSERT_TRUE(places) << places.error().message();
    auto ex = executorFor(loaded->model.clone());
    ASSERT_TRUE(ex);
    const CompiledGraph& g = ex->compiled();
    ASSERT_EQ(places->size(), g.steps.size());
    // Sizes as a recording run sees them: a CPU run with made-up inputs.
    auto inputs = pipeline::makeInputs(ex->model(), {});
    ASSERT_TRUE(inputs) << inputs.error().message();
    std::vector<uint64_t> observed;
    RunOptions ro;
    ro.valueBytes = &observed;
    auto r = ex->run(*inputs, ro);
    if (!r) {
      std::cerr << "not planned (the made-up inputs do not run): " << path << ": "
                << r.error().message() << "\n";
      continue;
    }
    std::vector<bool> held = deviceSlots(g, *places);
    std::vector<uint64_t> bytes(g.slotCount, kNotOnDevice);
    for (size_t s = 0; s < g.slotCount && s < observed.size(); ++s)
      if (held[s] && observed[s] != memory::kUnknownBytes) bytes[s] = observed[s];
    auto plan = planDeviceMemory(g, bytes);
    ASSERT_TRUE(plan) << plan.error().message();
    ASSERT_TRUE(memory::checkPlan(*plan));
    EXPECT_EQ(plan->inPlaceCount, 0);
    uint64_t unshared = 0;
    for (const PlannedTensor& t : plan->tensors) {
      ASSERT_GE(t.slot, 0);
      EXPECT_TRUE(held[static_cast<size_t>(t.slot)]) << t.name << " is not on the device";
      EXPECT_EQ(t.bytes, bytes[static_cast<size_t>(t.slot)]) << t.name;
      if (t.reuse == Reuse::kNone) unshared += t.size;
    }
    EXPECT_GE(plan->peak, plan->lowerBound);
    EXPECT_LE(plan->peak, unshared);
    ++models;
    if (!plan->tensors.empty()) ++withTensors;
    std::cerr << path.substr(path.rfind('/') + 1) << ": " << plan->tensors.size()
              << " device tensors, block " << plan->peak << " bytes (unshared " << unshared
              << ", lower bound " << plan->lowerBound << ")\n";
  }
  EXPECT_GT(models, 20u);
  EXPECT_GT(withTensors, 20u);
}

}  // namespace
}  // namespace passlab::exec::cuda
