// ExecutorOptions::tightMemoryPlan = false, the plans of the numeric check's
// runs (#25): the greedy placements alone, no hill climb. Against the tight
// plan on the same model: the same output bytes on every run, the same
// tensors with the same sizes, lifetimes and sharing, a block no smaller, and
// a plan the checker (plan_check.h) accepts, with no hill climb tried. And
// greedyByBreadth's lists of the buffers live at each step (offsets.h).
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/analysis/shape_inference.h"
#include "core/exec/executor.h"
#include "core/exec/memory/offsets.h"
#include "core/exec/memory/plan_check.h"
#include "core/io/model_io.h"
#include "tests/core/exec/exec_test_util.h"
#include "tests/core/exec/random_inputs.h"
#include "tests/support/test_support.h"

namespace passlab::exec {
namespace {

using memory::MemoryPlan;
using memory::PlannedTensor;
using memory::PlanSource;
using testutil::randomInputs;

// No step trials, as the numeric check: every run takes the cost model's
// thread counts and kernels, so the two executors run the same kernels.
std::unique_ptr<Executor> executorFor(const ir::Model& model, bool tight) {
  ExecutorOptions o;
  o.stepTrials = false;
  o.tightMemoryPlan = tight;
  auto ex = Executor::create(model, o);
  EXPECT_TRUE(ex) << (ex ? "" : ex.error().message());
  return ex ? std::move(ex).value() : nullptr;
}

std::vector<std::byte> bytesOf(const ir::Tensor& t) {
  return {t.bytes().begin(), t.bytes().end()};
}

bool triedHillClimb(const MemoryPlan& p) {
  for (const auto& [strategy, peak] : p.strategyPeaks)
    if (strategy == "hill-climb") return true;
  return false;
}

// The plans agree on everything but the offsets.
void expectSameTensors(const MemoryPlan& tight, const MemoryPlan& quick) {
  ASSERT_EQ(tight.tensors.size(), quick.tensors.size());
  for (size_t i = 0; i < tight.tensors.size(); ++i) {
    const PlannedTensor& a = tight.tensors[i];
    const PlannedTensor& b = quick.tensors[i];
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.size, b.size) << a.name;
    EXPECT_EQ(a.first, b.first) << a.name;
    EXPECT_EQ(a.last, b.last) << a.name;
    EXPECT_EQ(a.reuse, b.reuse) << a.name;
    EXPECT_EQ(a.sharesWith, b.sharesWith) << a.name;
    EXPECT_EQ(a.scratch, b.scratch) << a.name;
  }
  EXPECT_EQ(tight.lowerBound, quick.lowerBound);
  EXPECT_EQ(tight.scratchBytes, quick.scratchBytes);
}

// Three runs of `model` on each executor, each on its own input set: the
// same bytes out, both on a plan (the second and third on the one planned
// again with the kernel scratch the first recorded), the quick one checked
// and without a hill climb. Returns the two plans' blocks (tight, quick).
std::pair<uint64_t, uint64_t> expectSameRuns(const ir::Model& model) {
  auto tight = executorFor(model, true);
  auto quick = executorFor(model, false);
  if (!tight || !quick) return {0, 0};
  for (uint64_t seed : {41, 42, 43}) {
    const NamedInputs inputs = randomInputs(*tight, seed);
    auto a = tight->run(inputs);
    auto b = quick->run(inputs);
    EXPECT_TRUE(a && b) << (a ? b.error().message() : a.error().message());
    if (!a || !b) return {0, 0};
    EXPECT_NE(a->memory.source, PlanSource::kNone) << a->memory.note;
    EXPECT_EQ(a->memory.source, b->memory.source) << b->memory.note;
    EXPECT_GE(b->memory.blockBytes, a->memory.blockBytes) << "seed " << seed;
    EXPECT_EQ(a->outputs.size(), b->outputs.size());
    if (a->outputs.size() != b->outputs.size()) return {0, 0};
    for (size_t i = 0; i < a->outputs.size(); ++i)
      EXPECT_EQ(bytesOf(a->outputs[i]), bytesOf(b->outputs[i]))
          << a->outputNames[i] << " seed " << seed;
  }
  const auto& tp = tight->executionMemory().plan();
  const auto& qp = quick->executionMemory().plan();
  EXPECT_TRUE(tp && qp);
  if (!tp || !qp) return {0, 0};
  Status checked = memory::checkPlan(*qp);
  EXPECT_TRUE(checked) << checked.error().message();
  EXPECT_TRUE(triedHillClimb(*tp));
  EXPECT_FALSE(triedHillClimb(*qp)) << qp->strategy;
  EXPECT_NE(qp->strategy, "hill-climb");
  expectSameTensors(*tp, *qp);
  EXPECT_GE(qp->peak, tp->peak);
  EXPECT_GE(qp->peak, qp->lowerBound);
  return {tp->peak, qp->peak};
}

// In-place chains, a view and a Concat written in parts, on a plan made
// ahead (static shapes).
constexpr const char* kChains = R"(
  main (float[1,128] x) => (float[1,384] y, float[2,64] z)
  <int64[2] s = {2, 64}>
  {
    a = Relu(x)
    b = Sigmoid(a)
    c = Neg(x)
    d = Add(b, c)
    e = Exp(c)
    f = Mul(d, e)
    g = Concat <axis = 1> (d, e, f)
    h = Abs(g)
    y = Tanh(h)
    r = Reshape(f, s)
    z = Relu(r)
  })";

TEST(QuickMemoryPlan, SameOutputsAsTheTightPlanOnASmallGraph) {
  ir::Model model = testutil::parseModel(kChains);
  analysis::inferShapes(model);
  auto [tight, quick] = expectSameRuns(model);
  EXPECT_GT(tight, 0u);
  EXPECT_GE(quick, tight);
}

// PASSLAB_QUICK_PLANS=0 makes the quick executor's plans tight, to compare.
TEST(QuickMemoryPlan, TurnedOffEveryPlanIsTight) {
  ir::Model model = testutil::parseModel(kChains);
  analysis::inferShapes(model);
  setenv("PASSLAB_QUICK_PLANS", "0", 1);
  auto quick = executorFor(model, false);
  ASSERT_TRUE(quick);
  auto r = quick->run(randomInputs(*quick, 5));
  unsetenv("PASSLAB_QUICK_PLANS");
  ASSERT_TRUE(r) << r.error().message();
  ASSERT_TRUE(quick->executionMemory().plan());
  EXPECT_TRUE(triedHillClimb(*quick->executionMemory().plan()));
}

// greedyByBreadth's lists of the buffers live at each step place the same
// offsets as its scan of every buffer at every step (mostListEntries 0).
TEST(QuickMemoryPlan, GreedyByBreadthListsPlaceAsItsScan) {
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    const int32_t steps = 1 + static_cast<int32_t>(rng() % 40);
    std::vector<memory::Buffer> bs(1 + rng() % 60);
    for (memory::Buffer& b : bs) {
      b.size = 64 * (1 + rng() % 6);  // many ties: the order's tie-breaks matter
      b.first = static_cast<int32_t>(rng() % static_cast<uint32_t>(steps + 2)) - 1;
      b.last = b.first + static_cast<int32_t>(rng() % 12);  // may pass the last step
      if (rng() % 10 == 0) b.size = 0;
      if (rng() % 8 == 0) {  // a staircase: two segments in its lifetime
        b.segments.push_back({0, b.size / 2, b.first, b.first});
        b.segments.push_back({b.size / 2, b.size - b.size / 2, b.first, b.last});
      }
    }
    if (rng() % 5 == 0) {
      bs[0].fixed = true;
      bs[0].fixedOffset = 128;
    }
    const auto scanned = memory::greedyByBreadth(bs, steps, 0);
    const auto listed = memory::greedyByBreadth(bs, steps);
    EXPECT_EQ(listed, scanned) << "round " << round;
    EXPECT_EQ(memory::greedyByBreadth(bs, steps, 5), scanned) << "round " << round;
  }
}

class QuickMemoryPlanCorpus : public ::testing::TestWithParam<const char*> {};

// Models planned ahead (CNNs, Concat parts in inception and ultraface) and
// from the input shapes (gpt2_past's symbolic dims, 3069 nodes).
TEST_P(QuickMemoryPlanCorpus, SameOutputsAsTheTightPlan) {
  PASSLAB_REQUIRE_CORPUS();
  auto loaded = io::loadModel(*testing::corpusDir() + "/models/" + GetParam() + ".onnx");
  ASSERT_TRUE(loaded) << loaded.error().message();
  auto [tight, quick] = expectSameRuns(loaded->model);
  EXPECT_GT(tight, 0u);
  EXPECT_GE(quick, tight);
}

INSTANTIATE_TEST_SUITE_P(Corpus, QuickMemoryPlanCorpus,
                         ::testing::Values("mnist8_cntk", "onnx_light_squeezenet",
                                           "onnx_light_inception_v1", "ultraface_rfb_320",
                                           "picodet_s_320", "ort_gpt2_past"),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
}  // namespace passlab::exec
