// Benchmark: pipeline time at the "basic" level on synthetic graphs of 1k, 10k
// and 100k nodes (time per node must stay flat: passes are O(N) or O(N log N)),
// and on ort_gpt2_past (3,069 nodes; target under 0.5 s).
//
//   bench_pipeline [CORPUS_DIR] [--sizes N,N,...] [--repeat K] [--synthetic-only]
//                  [--verify-whole | --verify-touched]
//   (default sizes 1000,10000,100000; each size run K times, default 3, best kept;
//   --verify-whole: the whole model verified after every step, not what it touched;
//   --verify-touched: what each step touched, however much of the graph that is)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "core/analysis/shape_inference.h"
#include "core/io/model_io.h"
#include "core/ir/deferred_free.h"
#include "core/ir/verifier.h"
#include "core/passes/registry.h"
#include "core/pipeline/numeric_check.h"
#include "core/pipeline/pass_manager.h"

using namespace passlab;

namespace {

// A chain of blocks, each with work to remove: an Identity, a duplicated Relu
// (CSE), a dead branch, a Transpose pair and a Mul by one.
ir::Model synthetic(size_t targetNodes) {
  ir::Model m;
  m.opsets.push_back({"", 17});
  ir::Graph& g = m.graph();
  ir::Value* x =
      g.addInput("x", ir::Type::tensor(ir::DataType::kFloat, ir::Shape::fromValues({1, 64})));
  ir::Value* one =
      g.addInitializer("one", ir::Tensor::fromVector<float>(ir::DataType::kFloat, {1}, {1.0f}));
  ir::Value* cur = x;
  size_t nodes = 0;
  while (nodes < targetNodes) {
    ir::Node* id = g.addNode("Identity", "", {cur}, 1);
    ir::Node* r1 = g.addNode("Relu", "", {id->output(0)}, 1);
    ir::Node* r2 = g.addNode("Relu", "", {id->output(0)}, 1);
    ir::Node* add = g.addNode("Add", "", {r1->output(0), r2->output(0)}, 1);
    g.addNode("Neg", "", {add->output(0)}, 1);  // dead
    ir::Node* t1 = g.addNode("Transpose", "", {add->output(0)}, 1);
    t1->setAttr(ir::Attribute::makeInts("perm", {1, 0}));
    ir::Node* t2 = g.addNode("Transpose", "", {t1->output(0)}, 1);
    t2->setAttr(ir::Attribute::makeInts("perm", {1, 0}));
    ir::Node* mul = g.addNode("Mul", "", {t2->output(0), one}, 1);
    cur = mul->output(0);
    nodes += 8;
  }
  g.addOutput(cur);
  return m;
}

// One wide fan-out instead of a chain: x and the constant one are each read
// by a third of the nodes (x * 1, then an Identity), and one Concat reads all
// the Identities. Removing them rewires thousands of uses of one value; the
// time per node must match the chain's (a use-list edit that searched the
// list made this quadratic).
ir::Model fanout(size_t targetNodes) {
  ir::Model m;
  m.opsets.push_back({"", 17});
  ir::Graph& g = m.graph();
  ir::Value* x =
      g.addInput("x", ir::Type::tensor(ir::DataType::kFloat, ir::Shape::fromValues({1, 8})));
  ir::Value* one =
      g.addInitializer("one", ir::Tensor::fromVector<float>(ir::DataType::kFloat, {1}, {1.0f}));
  std::vector<ir::Value*> parts;
  for (size_t nodes = 0; nodes + 2 < targetNodes; nodes += 2) {
    ir::Node* mul = g.addNode("Mul", "", {x, one}, 1);
    parts.push_back(g.addNode("Identity", "", {mul->output(0)}, 1)->output(0));
  }
  ir::Node* cat = g.addNode("Concat", "", parts, 1);
  cat->setAttr(ir::Attribute::makeInt("axis", 0));
  g.addOutput(cat->output(0));
  return m;
}

// A chain with little to remove: one Identity per 1,000 nodes, Relu and Neg
// in turn otherwise. The step that removes them touches a few hundred nodes
// of the graph, so its verification is checked where it touched it (the
// whole walk after it would cost as much as on the dense chain).
ir::Model sparse(size_t targetNodes) {
  ir::Model m;
  m.opsets.push_back({"", 17});
  ir::Graph& g = m.graph();
  ir::Value* cur =
      g.addInput("x", ir::Type::tensor(ir::DataType::kFloat, ir::Shape::fromValues({1, 64})));
  for (size_t nodes = 0; nodes < targetNodes; ++nodes) {
    const char* op = nodes % 1000 == 999 ? "Identity" : nodes % 2 ? "Neg" : "Relu";
    cur = g.addNode(op, "", {cur}, 1)->output(0);
  }
  g.addOutput(cur);
  return m;
}

struct Run {
  double ms = 0;           // the whole pipeline, including the first shape inference
  double inferMs = 0;      // re-inference after changing steps
  double verifyMs = 0;     // verification after changing steps
  size_t inferred = 0;     // steps after which shapes were re-inferred
  size_t scoped = 0;       // steps verified where they touched the model (not by a whole walk)
  size_t changed = 0;      // steps that changed the graph
  double passMsTotal = 0;  // the passes' own work (step time less re-inference and verification)
  double drainMs = 0;      // after the pipeline returned, waiting for its background frees
  size_t after = 0;        // nodes left
  std::string perPass;
  std::vector<std::pair<std::string, double>> passMs;  // per step: pass, ms
};

bool gVerifyWhole = false;    // --verify-whole
bool gVerifyTouched = false;  // --verify-touched

Run runBasic(ir::Model& m) {
  auto ids = passes::passesForLevel("basic");
  std::vector<pipeline::PassSpec> specs;
  for (const auto& id : *ids) specs.push_back({id, {}, {}});
  auto t0 = std::chrono::steady_clock::now();
  analysis::inferShapes(m);
  pipeline::PipelineOptions o;
  o.keepSnapshots = false;
  o.verifyWholeModelAfterEachPass = gVerifyWhole;
  if (gVerifyTouched) o.wholeWalkShare = 0;
  pipeline::PassManager pm(m, o);
  pipeline::ExecEvaluator evaluator;
  pm.setEvaluator(&evaluator);
  Status s = pm.runAll(specs);
  Run r;
  auto t1 = std::chrono::steady_clock::now();
  r.ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
  // Removed nodes are freed on a second thread (ir/deferred_free.h); the
  // pipeline does not wait for it, the next run does (so runs do not overlap).
  ir::waitForDeferredFrees();
  r.drainMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t1).count();
  if (!s) std::fprintf(stderr, "pipeline error: %s\n", s.message().c_str());
  r.after = m.graph().nodeCountRecursive();
  for (const auto& st : pm.timeline().steps()) {
    char buf[96];
    std::snprintf(buf, sizeof buf, " %s %.1f", st.passId.c_str(), st.milliseconds);
    r.perPass += buf;
    r.passMs.emplace_back(st.passId, st.milliseconds);
    r.passMsTotal += st.milliseconds - st.inferMilliseconds - st.verifyMilliseconds;
    r.inferMs += st.inferMilliseconds;
    r.verifyMs += st.verifyMilliseconds;
    r.inferred += st.shapesInferred ? 1 : 0;
    r.scoped += st.changed && !st.verifiedWhole ? 1 : 0;
    r.changed += st.changed ? 1 : 0;
  }
  return r;
}

void printRun(const std::string& name, size_t nodes, const Run& r, const char* suffix) {
  std::printf("%-24s %9zu %9zu %10.1f %12.2f%s\n", name.c_str(), nodes, r.after, r.ms,
              1000.0 * r.ms / static_cast<double>(nodes), suffix);
  std::printf("    per pass (ms):%s\n", r.perPass.c_str());
  std::printf(
      "    of which passes %.1f ms, shape inference %.1f ms (after %zu of %zu changing steps), "
      "verification %.1f ms (%zu steps where they touched the graph, the others whole), outside "
      "the steps (first inference and verification, statistics, stand-ins) %.1f ms; then %.1f ms "
      "until the background frees finished (not in the time)\n",
      r.passMsTotal, r.inferMs, r.inferred, r.changed, r.verifyMs, r.scoped,
      r.ms - r.passMsTotal - r.inferMs - r.verifyMs, r.drainMs);
}

}  // namespace

// Per node, the cost of one plain linear walk (the verifier) and of one copy of
// the graph: the yardstick for "flat". When these grow with the graph too,
// the growth comes from the memory hierarchy (the graph no longer fits in
// cache), not from a pass doing more than O(N) work. The walk is timed three
// times (the first call also fills the schema lookups), the fastest counts.
double verifierWalkUsPerNode(const ir::Model& m, size_t nodes) {
  double best = 0;
  for (int k = 0; k < 3; ++k) {
    auto t0 = std::chrono::steady_clock::now();
    auto problems = ir::verifyModel(m);
    double us =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() /
        static_cast<double>(nodes);
    if (!problems.empty()) std::fprintf(stderr, "yardstick: %zu problems\n", problems.size());
    if (k == 0 || us < best) best = us;
  }
  return best;
}

double cloneUsPerNode(const ir::Model& m, size_t nodes) {
  auto t0 = std::chrono::steady_clock::now();
  ir::Model copy = m.clone();
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() /
         static_cast<double>(nodes);
}

// Best of `repeat` runs, each on a fresh model from `make`: the machine is
// shared and single runs vary by up to 2x; the minimum is the figure least
// disturbed by other load. `nodes` gets the model's node count; with
// `yardstick`, `walkUs` gets the verifier walk per node, timed before the
// first run only (as the clone), so later runs start as cold as before.
Run bestOf(int repeat, const std::function<ir::Model()>& make, size_t& nodes,
           bool yardstick = false, double* walkUs = nullptr) {
  Run best;
  double walk = 0, clone = 0;
  for (int k = 0; k < repeat; ++k) {
    ir::Model m = make();
    nodes = m.graph().nodeCountRecursive();
    if (yardstick && k == 0) {
      walk = verifierWalkUsPerNode(m, nodes);
      clone = cloneUsPerNode(m, nodes);
    }
    Run r = runBasic(m);
    if (k == 0 || r.ms < best.ms) best = r;
  }
  if (yardstick) {
    std::printf("    yardstick: verifier walk %.3f us/node (best of 3), clone %.2f us/node\n", walk,
                clone);
    if (walkUs) *walkUs = walk;
  }
  return best;
}

int main(int argc, char** argv) {
  std::string corpus = "../shared/corpus";
  std::vector<size_t> sizes{1000, 10000, 100000};
  int repeat = 3;
  bool syntheticOnly = false;  // no fan-out graph, no corpus model (scripts/dev/pipeline_counts.py)
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--sizes" && i + 1 < argc) {
      sizes.clear();
      std::string list = argv[++i];
      for (size_t pos = 0; pos < list.size();) {
        size_t comma = list.find(',', pos);
        if (comma == std::string::npos) comma = list.size();
        sizes.push_back(std::stoul(list.substr(pos, comma - pos)));
        pos = comma + 1;
      }
    } else if (a == "--repeat" && i + 1 < argc) {
      repeat = std::max(1, std::stoi(argv[++i]));
    } else if (a == "--synthetic-only") {
      syntheticOnly = true;
    } else if (a == "--verify-whole") {
      gVerifyWhole = true;
    } else if (a == "--verify-touched") {
      gVerifyTouched = true;
    } else {
      corpus = a;
    }
  }
  std::printf("%-24s %9s %9s %10s %12s\n", "graph", "nodes", "after", "time ms", "us per node");
  std::vector<double> perNode, walkPerNode;
  std::vector<Run> bests;
  for (size_t n : sizes) {
    size_t before = 0;
    double walk = 0;
    Run best = bestOf(
        repeat, [n] { return synthetic(n); }, before, true, &walk);
    printRun("synthetic-" + std::to_string(n), before, best,
             repeat > 1 ? ("   (best of " + std::to_string(repeat) + ")").c_str() : "");
    perNode.push_back(best.ms / static_cast<double>(before));
    walkPerNode.push_back(walk / 1000.0);
    bests.push_back(best);
    // The pipeline in units of one linear walk: flat when the pipeline's
    // time per node grows no faster than the simplest O(N) walk's does.
    if (walkPerNode.back() > 0)
      std::printf("    pipeline = %.1f verifier walks\n", perNode.back() / walkPerNode.back());
  }
  // Scaling between consecutive sizes: the exponent b in time ~ N^b (1 = linear).
  for (size_t i = 1; i < sizes.size(); ++i) {
    double ratio = static_cast<double>(sizes[i]) / static_cast<double>(sizes[i - 1]);
    double timeRatio = perNode[i] / perNode[i - 1] * ratio;
    std::printf(
        "scaling %zu -> %zu nodes: time per node x%.2f, time ~ N^%.2f; one verifier walk per node "
        "x%.2f\n",
        sizes[i - 1], sizes[i], perNode[i] / perNode[i - 1], std::log(timeRatio) / std::log(ratio),
        walkPerNode[i - 1] > 0 ? walkPerNode[i] / walkPerNode[i - 1] : 0.0);
    // Per pass, the largest exponent: a pass doing more than O(N) work shows
    // here even when the others hide it in the total.
    const auto& a = bests[i - 1].passMs;
    const auto& b = bests[i].passMs;
    std::string worst;
    double worstExp = 0;
    for (size_t k = 0; k < a.size() && k < b.size(); ++k) {
      if (a[k].first != b[k].first || a[k].second < 1.0) continue;  // too short to time
      double e = std::log(b[k].second / a[k].second) / std::log(ratio);
      if (worst.empty() || e > worstExp) {
        worst = b[k].first;
        worstExp = e;
      }
    }
    if (!worst.empty())
      std::printf("    steepest pass: %s, time ~ N^%.2f\n", worst.c_str(), worstExp);
  }
  if (syntheticOnly) return 0;
  {
    const size_t n = sizes.back();
    size_t nodes = 0;
    Run best = bestOf(
        repeat, [n] { return fanout(n); }, nodes);
    printRun("fanout-" + std::to_string(n), nodes, best, "   (best; one value read by N/2 nodes)");
  }
  {
    const size_t n = sizes.back();
    size_t nodes = 0;
    Run best = bestOf(
        repeat, [n] { return sparse(n); }, nodes);
    printRun("sparse-" + std::to_string(n), nodes, best, "   (best; one Identity per 1,000 nodes)");
  }
  std::string gpt2 = corpus + "/models/ort_gpt2_past.onnx";
  if (std::filesystem::exists(gpt2)) {
    auto loaded = io::loadModel(gpt2);
    if (!loaded) {
      std::fprintf(stderr, "%s\n", loaded.error().message().c_str());
      return 1;
    }
    size_t nodes = 0;
    Run best = bestOf(
        repeat, [&] { return loaded->model.clone(); }, nodes);
    printRun("ort_gpt2_past", nodes, best, "   (best; target < 500 ms)");
  } else {
    std::printf("ort_gpt2_past: corpus not found at %s (pass the corpus folder as argument)\n",
                corpus.c_str());
  }
  return 0;
}
