// Subgraph bodies on memory plans of their own (core/exec/memory/body_plans.h):
// an If branch and a Loop body run on a block laid out by a checked plan,
// planned once per shape signature (ahead, or from the sizes the first
// activation wrote) and reused across iterations; outputs, formal inputs and
// outer values stay out of the block, so nothing outside the body is written
// over and loop-carried values survive; no in-place reuse over an outer value
// the body reads later. Every run is compared byte for byte with the same
// model run without plans, on hand-made models, random graphs with If and
// Loop nodes, and the corpus models and node tests that have bodies.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <random>

#include "core/analysis/shape_inference.h"
#include "core/exec/executor.h"
#include "core/exec/memory/body_plans.h"
#include "core/exec/memory/plan_check.h"
#include "core/io/model_io.h"
#include "core/io/tensor_file.h"
#include "core/pipeline/input_synthesis.h"
#include "tests/core/exec/exec_test_util.h"
#include "tests/support/test_support.h"

namespace passlab::exec::memory {
namespace {

namespace fs = std::filesystem;

std::unique_ptr<Executor> executorFor(ir::Model model, bool plan) {
  analysis::inferShapes(model);
  ExecutorOptions o;
  o.memoryPlan = plan;
  auto ex = Executor::create(model, o);
  EXPECT_TRUE(ex) << (ex ? "" : ex.error().message());
  return ex ? std::move(ex).value() : nullptr;
}

std::vector<std::byte> bytesOf(const ir::Tensor& t) {
  return {t.bytes().begin(), t.bytes().end()};
}

Tensor ramp(Dims dims, float start = -3.0f) {
  Tensor t = Tensor::zeros(ir::DataType::kFloat, std::move(dims));
  for (int64_t i = 0; i < t.numel(); ++i)
    t.mutableData<float>()[i] = start + 0.37f * static_cast<float>(i % 23);
  return t;
}

Tensor int64Scalar(int64_t v) {
  return Tensor::fromVector<int64_t>(ir::DataType::kInt64, {}, {v});
}

Tensor boolScalar(bool v) {
  return Tensor::fromVector<bool>(ir::DataType::kBool, {}, {v});
}

// Expects byte-identical outputs (tensors; other values by description).
void expectSameOutputs(const RunResult& a, const RunResult& b, const std::string& what) {
  ASSERT_EQ(a.outputs.size(), b.outputs.size()) << what;
  for (size_t i = 0; i < a.outputs.size(); ++i) {
    if (!a.values[i].isTensor()) {
      EXPECT_EQ(a.values[i].describe(), b.values[i].describe()) << what << " " << a.outputNames[i];
      continue;
    }
    EXPECT_EQ(a.outputs[i].dims(), b.outputs[i].dims()) << what << " " << a.outputNames[i];
    EXPECT_EQ(bytesOf(a.outputs[i]), bytesOf(b.outputs[i])) << what << " " << a.outputNames[i];
  }
}

// Every compiled body of `g`, nested ones included.
void forEachBody(const CompiledGraph& g, const std::function<void(const CompiledGraph&)>& f) {
  for (const auto& body : g.subgraphs) {
    if (!body) continue;
    f(*body);
    forEachBody(*body, f);
  }
}

// Every body plan `ex` ran on passes the checker; returns how many there are.
int checkBodyPlans(const Executor& ex) {
  int planned = 0;
  forEachBody(ex.compiled(), [&](const CompiledGraph& body) {
    BodyPlanInfo info = ex.bodyPlans().info(body);
    if (!info.planned) return;
    ++planned;
    Status st = checkPlan(info.plan);
    EXPECT_TRUE(st) << body.graph->name() << ": " << (st ? "" : st.error().message());
    EXPECT_LE(info.plan.lowerBound, info.plan.peak);
  });
  return planned;
}

// The executor with plans and its runs.
struct Runs {
  std::unique_ptr<Executor> ex;
  std::vector<RunResult> results;
  const RunResult& last() const {
    static const RunResult kNone;
    return results.empty() ? kNone : results.back();
  }
};

// Runs `model` `runs` times with and without plans, expecting byte-identical
// outputs every time.
Runs runBothWays(const ir::Model& model, const NamedInputs& inputs, int runs = 2) {
  Runs out;
  out.ex = executorFor(model.clone(), true);
  auto off = executorFor(model.clone(), false);
  if (!out.ex || !off) return out;
  for (int run = 0; run < runs; ++run) {
    auto a = out.ex->run(inputs);
    auto b = off->run(inputs);
    EXPECT_TRUE(a && b) << (a ? "" : a.error().message()) << (b ? "" : b.error().message());
    if (!a || !b) return out;
    EXPECT_EQ(b->memory.bodies.onPlan, 0);
    expectSameOutputs(*a, *b, "run " + std::to_string(run));
    out.results.push_back(std::move(a).value());
  }
  return out;
}

Runs runBothWays(const std::string& text, const NamedInputs& inputs, int runs = 2) {
  return runBothWays(testutil::parseModel(text), inputs, runs);
}

const PlannedTensor* tensorNamed(const MemoryPlan& plan, const std::string& name) {
  for (const PlannedTensor& t : plan.tensors)
    if (t.name == name) return &t;
  return nullptr;
}

const CompiledGraph* bodyNamed(const Executor& ex, const std::string& name) {
  const CompiledGraph* found = nullptr;
  forEachBody(ex.compiled(), [&](const CompiledGraph& b) {
    if (b.graph->name() == name) found = &b;
  });
  return found;
}

// ---- If -------------------------------------------------------------------

const char* kIf = R"(
  main (bool c, float[64] x) => (float[64] y) {
    a = Relu(x)
    r = If <then_branch = g1 () => (float[64] t) { p = Sigmoid(a)
                                                    q = Mul(p, a)
                                                    t = Add(q, p) },
            else_branch = g2 () => (float[64] e) { e = Neg(a) }> (c)
    y = Add(r, a)
  })";

TEST(BodyPlans, AnIfBranchRunsOnItsPlanMadeAhead) {
  Runs runs = runBothWays(kIf, {{"c", boolScalar(true)}, {"x", ramp({64})}});
  ASSERT_TRUE(runs.ex);
  const Executor* ex = runs.ex.get();
  const RunResult& r = runs.last();
  EXPECT_EQ(r.memory.bodies.onPlan, 1);
  EXPECT_EQ(r.memory.bodies.inArena, 0);
  EXPECT_EQ(r.memory.bodies.blocks, 1);
  EXPECT_EQ(r.memory.bodies.counts.placed, 2);  // p and q; t, the output, goes to the arena
  EXPECT_EQ(r.memory.bodies.counts.fellBack, 0);
  const CompiledGraph* g1 = bodyNamed(*ex, "g1");
  ASSERT_NE(g1, nullptr);
  BodyPlanInfo info = ex->bodyPlans().info(*g1);
  ASSERT_TRUE(info.planned) << info.note;
  EXPECT_EQ(info.source, PlanSource::kAhead);
  EXPECT_NE(tensorNamed(info.plan, "p"), nullptr);
  EXPECT_EQ(tensorNamed(info.plan, "t"), nullptr);  // outputs are not in the block
  EXPECT_EQ(checkBodyPlans(*ex), 1);
}

// ---- Loop -----------------------------------------------------------------

// s = s * 0.5 + Sigmoid(Relu(s) + x) ten times; the scan output stacks a view
// of an intermediate (which stays out of the block, as the output does).
const char* kLoop = R"(
  main (float[16] x, float[16] s0) => (float[16] s, float[10,16] scan, float[16] z)
  <int64 M = {10}, bool yes = {1}, float[1] half = {0.5}>
  {
    a = Relu(x)
    s, scan = Loop <body = body (int64 i, bool c, float[16] sin) => (bool co, float[16] sout, float[16] so) {
      co = Identity(c)
      r = Relu(sin)
      p = Add(r, a)
      q = Sigmoid(p)
      h = Mul(sin, half)
      sout = Add(h, q)
      so = Identity(q)
    }> (M, yes, s0)
    z = Add(a, s)
  })";

TEST(BodyPlans, ALoopBodyIsPlannedOnceAndItsBlockReusedAcrossIterations) {
  Runs runs = runBothWays(kLoop, {{"x", ramp({16})}, {"s0", ramp({16}, 1.0f)}}, 3);
  ASSERT_TRUE(runs.ex);
  const Executor* ex = runs.ex.get();
  const RunResult& r = runs.last();
  EXPECT_EQ(r.memory.bodies.onPlan, 10);
  EXPECT_EQ(r.memory.bodies.inArena, 0);
  EXPECT_EQ(r.memory.bodies.blocks, 1);  // one block for the ten iterations
  EXPECT_EQ(r.memory.bodies.counts.fellBack, 0);
  // so is a view of q: q is out of the block with it, nothing is copied out.
  EXPECT_EQ(r.memory.bodies.counts.copiedOut, 0);
  BodyPlanInfo info = ex->bodyPlans().info(*bodyNamed(*ex, "body"));
  ASSERT_TRUE(info.planned) << info.note;
  EXPECT_EQ(info.source, PlanSource::kAhead);
  EXPECT_EQ(tensorNamed(info.plan, "sout"), nullptr);
  EXPECT_EQ(tensorNamed(info.plan, "q"), nullptr);
  EXPECT_NE(tensorNamed(info.plan, "p"), nullptr);
  EXPECT_EQ(checkBodyPlans(*ex), 1);
}

// The same body over float[N]: sizes only known once the first iteration
// wrote them.
const char* kDynamicLoop = R"(
  main (float[N] x, float[N] s0) => (float[N] s)
  <int64 M = {6}, bool yes = {1}>
  {
    s = Loop <body = body (int64 i, bool c, float[N] sin) => (bool co, float[N] sout) {
      co = Identity(c)
      r = Relu(sin)
      p = Add(r, x)
      q = Sigmoid(p)
      sout = Add(sin, q)
    }> (M, yes, s0)
  })";

TEST(BodyPlans, ABodyWithSizesKnownAtRunTimeIsPlannedFromItsFirstActivation) {
  auto on = executorFor(testutil::parseModel(kDynamicLoop), true);
  auto off = executorFor(testutil::parseModel(kDynamicLoop), false);
  ASSERT_TRUE(on && off);
  const NamedInputs small = {{"x", ramp({8})}, {"s0", ramp({8}, 2.0f)}};
  const NamedInputs large = {{"x", ramp({40})}, {"s0", ramp({40}, 2.0f)}};
  struct Want {
    const NamedInputs* inputs;
    int onPlan, inArena;
  };
  // First run: iteration 0 records, 1-5 run on the plan; the second run with
  // the same shapes is on the plan throughout; other shapes record again.
  for (Want w : {Want{&small, 5, 1}, Want{&small, 6, 0}, Want{&large, 5, 1}, Want{&small, 6, 0}}) {
    auto a = on->run(*w.inputs);
    auto b = off->run(*w.inputs);
    ASSERT_TRUE(a && b);
    expectSameOutputs(*a, *b, "N = " + std::to_string(w.inputs->front().second.tensor().dim(0)));
    EXPECT_EQ(a->memory.bodies.onPlan, w.onPlan);
    EXPECT_EQ(a->memory.bodies.inArena, w.inArena);
    EXPECT_EQ(a->memory.bodies.counts.fellBack, 0);
  }
  BodyPlanInfo info = on->bodyPlans().info(*bodyNamed(*on, "body"));
  ASSERT_TRUE(info.planned) << info.note;
  EXPECT_EQ(info.source, PlanSource::kRunTime);
  EXPECT_EQ(info.signatures, 2);
  EXPECT_EQ(checkBodyPlans(*on), 1);
}

TEST(BodyPlans, AStateThatGrowsEveryIterationStopsBeingPlannedAfterEightShapes) {
  // Each iteration's state is one element longer: a new shape signature
  // every time. The first eight record sizes (never used again), the rest
  // run on the arena; none runs on a plan of other sizes.
  const char* text = R"(
    main (float[1] s0) => (float[N] s)
    <int64 M = {12}, bool yes = {1}>
    {
      s = Loop <body = body (int64 i, bool c, float[K] sin) => (bool co, float[J] sout) {
        co = Identity(c)
        r = Relu(sin)
        q = Sigmoid(r)
        sout = Concat <axis = 0> (q, s0)
      }> (M, yes, s0)
    })";
  Runs runs = runBothWays(text, {{"s0", ramp({1}, 0.5f)}});
  ASSERT_EQ(runs.results.size(), 2u);
  EXPECT_EQ(runs.results[0].memory.bodies.onPlan, 0);
  EXPECT_EQ(runs.results[0].memory.bodies.inArena, 12);
  // The next run meets the first eight shapes again: those run on their plans.
  EXPECT_EQ(runs.results[1].memory.bodies.onPlan, 8);
  EXPECT_EQ(runs.results[1].memory.bodies.inArena, 4);
  BodyPlanInfo info = runs.ex->bodyPlans().info(*bodyNamed(*runs.ex, "body"));
  EXPECT_EQ(info.signatures, BodyPlans::kMaxSignatures);
  EXPECT_NE(info.note.find("more than 8 shape signatures"), std::string::npos) << info.note;
}

TEST(BodyPlans, NoInPlaceReuseOverAnOuterValueTheBodyReadsLater) {
  // Sigmoid(a) could run in place were `a` the body's own; it is an outer
  // value read again by Add in this and every later iteration (and by z):
  // u gets a buffer of its own. Control: Sigmoid(t) over the body's own t,
  // which dies there, runs in place.
  const char* text = R"(
    main (float[32] x) => (float[32] s, float[32] z)
    <int64 M = {4}, bool yes = {1}>
    {
      a = Relu(x)
      s = Loop <body = body (int64 i, bool c, float[32] sin) => (bool co, float[32] sout) {
        co = Identity(c)
        u = Sigmoid(a)
        t = Add(u, a)
        v = Sigmoid(t)
        sout = Add(v, sin)
      }> (M, yes, x)
      z = Add(a, s)
    })";
  Runs runs = runBothWays(text, {{"x", ramp({32})}});
  ASSERT_TRUE(runs.ex);
  const Executor* ex = runs.ex.get();
  EXPECT_EQ(runs.last().memory.bodies.onPlan, 4);
  BodyPlanInfo info = ex->bodyPlans().info(*bodyNamed(*ex, "body"));
  ASSERT_TRUE(info.planned) << info.note;
  const PlannedTensor* u = tensorNamed(info.plan, "u");
  const PlannedTensor* v = tensorNamed(info.plan, "v");
  ASSERT_TRUE(u && v);
  EXPECT_EQ(u->reuse, Reuse::kNone);
  EXPECT_EQ(v->reuse, Reuse::kInPlace);
}

TEST(BodyPlans, ABodyReturningAnOuterValueOrItsInputUnchangedIsSafe) {
  // sout is the carried input itself every other iteration (Identity of a
  // formal input) and `a` (an outer value in the main block) is a scan
  // output: neither is in the body's block, and both survive the iterations.
  const char* text = R"(
    main (float[32] x) => (float[32] s, float[3,32] scan)
    <int64 M = {3}, bool yes = {1}>
    {
      a = Relu(x)
      s, scan = Loop <body = body (int64 i, bool c, float[32] sin) => (bool co, float[32] sout, float[32] so) {
        co = Identity(c)
        t = Neg(sin)
        sout = Identity(sin)
        so = Identity(a)
        w = Sigmoid(t)
      }> (M, yes, x)
    })";
  Runs runs = runBothWays(text, {{"x", ramp({32})}});
  EXPECT_EQ(runs.last().memory.bodies.onPlan, 3);
}

TEST(BodyPlans, AnIfInsideALoopBodyRunsOnItsOwnPlanReadingBothOuterScopes) {
  // The branches read the Loop body's r (one scope up) and the main graph's a
  // (two up); r must live until the If ends in the body's plan, and neither
  // is written over by the branch's block.
  const char* text = R"(
    main (bool c, float[64] x) => (float[64] s, float[64] z)
    <int64 M = {5}, bool yes = {1}>
    {
      a = Relu(x)
      s = Loop <body = body (int64 i, bool cin, float[64] sin) => (bool co, float[64] sout) {
        co = Identity(cin)
        r = Sigmoid(sin)
        k = If <then_branch = t1 () => (float[64] to) { p = Mul(r, a)
                                                         q = Neg(p)
                                                         to = Add(q, r) },
                else_branch = e1 () => (float[64] eo) { eo = Sub(a, r) }> (c)
        w = Relu(r)
        sout = Add(k, w)
      }> (M, yes, x)
      z = Add(a, s)
    })";
  for (bool c : {true, false}) {
    Runs runs = runBothWays(text, {{"c", boolScalar(c)}, {"x", ramp({64})}});
    ASSERT_TRUE(runs.ex);
    EXPECT_EQ(runs.last().memory.bodies.onPlan, 10);  // the body and one branch, 5 times
    EXPECT_EQ(runs.last().memory.bodies.counts.fellBack, 0);
    EXPECT_EQ(checkBodyPlans(*runs.ex), 2);
    BodyPlanInfo body = runs.ex->bodyPlans().info(*bodyNamed(*runs.ex, "body"));
    ASSERT_TRUE(body.planned);
    const PlannedTensor* r = tensorNamed(body.plan, "r");
    const PlannedTensor* k = tensorNamed(body.plan, "k");
    const PlannedTensor* w = tensorNamed(body.plan, "w");
    ASSERT_TRUE(r && k && w);
    EXPECT_GT(r->last, k->first);          // r lives past the If that reads it
    EXPECT_EQ(w->reuse, Reuse::kInPlace);  // then Relu, its last reader, takes it
  }
}

// ---- random graphs ----------------------------------------------------------

// A random main graph over float[4,8] values with If and Loop nodes whose
// bodies are random chains of elementwise ops and views over their carried
// state and outer values.
std::string randomBodyGraph(std::mt19937& rng, int id) {
  static const char* kUnary[] = {"Relu", "Sigmoid", "Neg", "Identity", "Abs"};
  static const char* kBinary[] = {"Add", "Mul", "Sub"};
  auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  auto chain = [&](std::vector<std::string> avail, const std::string& prefix, int n) {
    std::string text;
    for (int i = 0; i < n; ++i) {
      std::string out = prefix + std::to_string(i);
      const std::string& a = avail[static_cast<size_t>(uniform(0, int(avail.size()) - 1))];
      const std::string& b = avail[static_cast<size_t>(uniform(0, int(avail.size()) - 1))];
      if (uniform(0, 2) == 0)
        text += out + " = " + kBinary[uniform(0, 2)] + "(" + a + ", " + b + ")\n";
      else
        text += out + " = " + kUnary[uniform(0, 4)] + "(" + a + ")\n";
      avail.push_back(out);
    }
    return std::make_pair(text, avail);
  };
  std::vector<std::string> outer = {"x"};
  std::string main;
  int nodes = uniform(2, 6);
  for (int k = 0; k < nodes; ++k) {
    std::string name = "m" + std::to_string(k);
    int kind = uniform(0, 2);
    if (kind == 0) {
      auto [text, avail] = chain(outer, name + "_", 1);
      main += text;
      outer.push_back(avail.back());
    } else if (kind == 1) {
      std::string tag = std::to_string(id) + "_" + std::to_string(k);
      auto [t, ta] = chain(outer, "t" + tag + "_", uniform(1, 5));
      auto [e, ea] = chain(outer, "e" + tag + "_", uniform(1, 5));
      main += name + " = If <then_branch = then" + tag + " () => (float[4,8] to) {\n" + t +
              "to = Identity(" + ta.back() + ")\n}, else_branch = else" + tag +
              " () => (float[4,8] eo) {\n" + e + "eo = Neg(" + ea.back() + ")\n}> (c)\n";
      outer.push_back(name);
    } else {
      std::string tag = std::to_string(id) + "_" + std::to_string(k);
      std::vector<std::string> avail = outer;
      avail.push_back("sin");
      auto [b, ba] = chain(avail, "b" + tag + "_", uniform(1, 6));
      const std::string& init = outer[static_cast<size_t>(uniform(0, int(outer.size()) - 1))];
      main +=
          name + ", " + name + "_scan = Loop <body = body" + tag +
          " (int64 i, bool cin, float[4,8] sin) => (bool co, float[4,8] sout, float[4,8] so) {\n" +
          "co = Identity(cin)\n" + b + "sout = Add(" + ba.back() + ", sin)\nso = Relu(" +
          ba[static_cast<size_t>(uniform(0, int(ba.size()) - 1))] + ")\n}> (M, yes, " + init +
          ")\n";
      outer.push_back(name);
    }
  }
  return "main (bool c, float[4,8] x) => (float[4,8] y)\n<int64 M = {3}, bool yes = {1}>\n{\n" +
         main + "y = Identity(" + outer.back() + ")\n}";
}

TEST(BodyPlans, RandomGraphsWithIfAndLoopBodiesGiveTheSameOutputsOnTheirPlans) {
  std::mt19937 rng(2026);
  int onPlan = 0, planned = 0;
  for (int g = 0; g < 60; ++g) {
    std::string text = randomBodyGraph(rng, g);
    SCOPED_TRACE(text);
    for (bool c : {true, false}) {
      Runs runs = runBothWays(text, {{"c", boolScalar(c)}, {"x", ramp({4, 8})}});
      ASSERT_TRUE(runs.ex);
      onPlan += runs.last().memory.bodies.onPlan;
      EXPECT_EQ(runs.last().memory.bodies.counts.fellBack, 0);
      planned += checkBodyPlans(*runs.ex);
    }
  }
  EXPECT_GT(onPlan, 100);
  EXPECT_GT(planned, 50);
}

// ---- the corpus ------------------------------------------------------------

TEST(BodyPlans, CorpusModelsWithBodiesGiveTheSameOutputsOnTheirPlans) {
  PASSLAB_REQUIRE_CORPUS();
  int onPlan = 0;
  for (const char* name : {"ort_tiny_gpt2_beamsearch", "silero_vad_v4", "tract_snips_qlstm"}) {
    std::string path = *testing::corpusDir() + "/models/" + name + ".onnx";
    if (!fs::exists(path)) continue;
    SCOPED_TRACE(name);
    auto loaded = io::loadModel(path);
    ASSERT_TRUE(loaded) << loaded.error().message();
    auto inputs = pipeline::makeInputs(loaded->model, {});
    ASSERT_TRUE(inputs) << inputs.error().message();
    Runs runs = runBothWays(loaded->model, *inputs, 3);
    ASSERT_TRUE(runs.ex);
    onPlan += runs.last().memory.bodies.onPlan;
    checkBodyPlans(*runs.ex);
  }
  EXPECT_GT(onPlan, 0);
}

TEST(BodyPlans, NodeTestsWithBodiesMatchTheirExpectedOutputsOnTheirPlans) {
  PASSLAB_REQUIRE_CORPUS();
  int ran = 0;
  for (const char* name :
       {"test_if", "test_loop11", "test_scan9_sum", "test_scan_sum", "test_scan9_multi_state"}) {
    fs::path dir = fs::path(*testing::corpusDir()) / "onnx-node-tests" / name;
    if (!fs::exists(dir / "model.onnx")) continue;
    SCOPED_TRACE(name);
    auto loaded = io::loadModel((dir / "model.onnx").string());
    ASSERT_TRUE(loaded) << loaded.error().message();
    NamedInputs feed;
    const auto& ins = loaded->model.graph().inputs();
    for (size_t i = 0; i < ins.size(); ++i) {
      auto t = io::readTensorFile(
          (dir / "test_data_set_0" / ("input_" + std::to_string(i) + ".pb")).string());
      ASSERT_TRUE(t) << t.error().message();
      feed.emplace_back(ins[i]->name(), Value(*t));
    }
    Runs runs = runBothWays(loaded->model, feed);
    ASSERT_TRUE(runs.ex);
    const RunResult& r = runs.last();
    EXPECT_GT(r.memory.bodies.onPlan + r.memory.bodies.inArena, 0);
    for (size_t i = 0; i < r.outputs.size(); ++i) {
      auto want = io::readTensorFile(
          (dir / "test_data_set_0" / ("output_" + std::to_string(i) + ".pb")).string());
      ASSERT_TRUE(want) << want.error().message();
      EXPECT_EQ(r.outputs[i].dims(), want->dims());
      std::vector<float> got = testutil::toFloats(r.outputs[i]), exp = testutil::toFloats(*want);
      ASSERT_EQ(got.size(), exp.size());
      for (size_t k = 0; k < got.size(); ++k) EXPECT_NEAR(got[k], exp[k], 1e-5f) << k;
    }
    checkBodyPlans(*runs.ex);
    ++ran;
  }
  EXPECT_GT(ran, 0);
}

}  // namespace
}  // namespace passlab::exec::memory
