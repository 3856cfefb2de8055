// Graphviz in a helper process, and the fallback when the helper is missing,
// fails, hangs, is killed or is cancelled.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "core/io/model_io.h"
#include "core/layout/layout_engine.h"
#include "core/layout/request_builder.h"
#include "core/layout/subprocess.h"
#include "tests/core/layout/layout_test_graphs.h"
#include "tests/support/test_support.h"

namespace passlab::layout {
namespace {

using namespace std::chrono_literals;

// A shell script standing in for the helper.
std::string script(const std::string& body) {
  static int counter = 0;
  std::string path = testing::tempDir() + "/helper" + std::to_string(counter++) + ".sh";
  std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
  ::chmod(path.c_str(), 0755);
  return path;
}

BuiltRequest sample(int layers = 3) {
  static std::vector<ir::Model> keep;  // requests do not refer to the model, but tidy anyway
  keep.push_back(testgraphs::repeatedBlocks(layers, true));
  const ir::Graph& g = keep.back().graph();
  GroupTree t = GroupTree::build(g, {GroupingMode::kScope});
  return buildRequest(g, t, {"/model", "/model/layers.1"});
}

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

TEST(Subprocess, PassesInputAndCollectsOutputWithoutDeadlock) {
  std::string big(4 << 20, 'x');  // larger than any pipe buffer, both ways
  ProcessOutcome r = runProcess("/bin/cat", {}, big, {});
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.out.size(), big.size());
}

TEST(Subprocess, ReportsExitCodesSignalsAndMissingPrograms) {
  ProcessOutcome fail = runProcess(script("echo broken >&2; exit 3"), {}, "", {});
  EXPECT_EQ(fail.end, ProcessOutcome::End::kExited);
  EXPECT_EQ(fail.exitCode, 3);
  EXPECT_EQ(fail.describe(), "exited with code 3: broken");
  ProcessOutcome killed = runProcess(script("kill -9 $$"), {}, "", {});
  EXPECT_EQ(killed.end, ProcessOutcome::End::kSignalled);
  EXPECT_EQ(killed.signal, 9);
  ProcessOutcome missing = runProcess("/nonexistent/passlab-layout", {}, "", {});
  EXPECT_EQ(missing.end, ProcessOutcome::End::kFailedToStart);
  EXPECT_NE(missing.describe().find("No such file"), std::string::npos) << missing.describe();
}

TEST(Subprocess, KillsAtTheDeadline) {
  ProcessLimits limits;
  limits.timeout = 300ms;
  auto t0 = std::chrono::steady_clock::now();
  ProcessOutcome r = runProcess(script("sleep 30"), {}, "", limits);
  EXPECT_EQ(r.end, ProcessOutcome::End::kTimedOut);
  EXPECT_LT(since(t0), 5.0);
}

TEST(LayoutEngine, GraphvizHelperLaysOutNodesEdgesAndClusters) {
  BuiltRequest br = sample();
  EngineOptions o;
  o.helperPath = PASSLAB_LAYOUT_HELPER_PATH;
  LayoutResult r = computeLayout(br.request, o);
  ASSERT_EQ(r.engine, Engine::kGraphviz) << r.note;
  EXPECT_EQ(r.fallback, Fallback::kNone);
  EXPECT_TRUE(r.note.empty()) << r.note;
  ASSERT_EQ(r.nodes.size(), br.request.nodes.size());
  for (size_t i = 0; i < r.nodes.size(); ++i) {
    // Fixed sizes are kept (Graphviz rounds to hundredths of an inch).
    EXPECT_NEAR(r.nodes[i].width, br.request.nodes[i].width, 1.0);
    EXPECT_GE(r.nodes[i].x, -0.5);
    EXPECT_GE(r.nodes[i].y, -0.5);
  }
  for (const EdgeRoute& e : r.edges) {
    ASSERT_GE(e.points.size(), 4u);
    EXPECT_EQ((e.points.size() - 1) % 3, 0u);
    EXPECT_TRUE(e.hasArrow);
  }
  ASSERT_EQ(r.clusters.size(), 2u);
  // The inner frame lies within the outer one.
  EXPECT_GE(r.clusters[1].x, r.clusters[0].x);
  EXPECT_LE(r.clusters[1].y + r.clusters[1].height, r.clusters[0].y + r.clusters[0].height);
  // Flow is downwards: the graph input is above the output.
  int in = br.request.indexOf("in:x"), out = br.request.indexOf("out:0");
  EXPECT_LT(r.nodes[static_cast<size_t>(in)].y, r.nodes[static_cast<size_t>(out)].y);
}

TEST(LayoutEngine, MissingHelperFallsBackToTheLayeredLayout) {
  BuiltRequest br = sample();
  EngineOptions o;
  o.helperPath = "/nonexistent/passlab-layout";
  LayoutResult r = computeLayout(br.request, o);
  EXPECT_EQ(r.engine, Engine::kLayered);
  EXPECT_EQ(r.fallback, Fallback::kHelperFailed);
  EXPECT_NE(r.note.find("could not be started"), std::string::npos) << r.note;
  EXPECT_EQ(r.nodes.size(), br.request.nodes.size());
}

TEST(LayoutEngine, CrashingOrGarbledHelperFallsBack) {
  BuiltRequest br = sample();
  EngineOptions o;
  o.helperPath = script("cat > /dev/null; kill -SEGV $$");
  LayoutResult crashed = computeLayout(br.request, o);
  EXPECT_EQ(crashed.engine, Engine::kLayered);
  EXPECT_NE(crashed.note.find("signal 11"), std::string::npos) << crashed.note;
  EXPECT_EQ(crashed.fallback, Fallback::kHelperFailed);
  o.helperPath = "/bin/cat";  // answers with the DOT it was given
  LayoutResult garbled = computeLayout(br.request, o);
  EXPECT_EQ(garbled.engine, Engine::kLayered);
  EXPECT_NE(garbled.note.find("answered badly"), std::string::npos) << garbled.note;
  EXPECT_EQ(garbled.fallback, Fallback::kBadAnswer);
  o.helperPath = script("cat > /dev/null; echo 'passlab-layout 1'; echo 'graph 10 10'");
  LayoutResult truncated = computeLayout(br.request, o);
  EXPECT_EQ(truncated.engine, Engine::kLayered);
  EXPECT_NE(truncated.note.find("truncated"), std::string::npos) << truncated.note;
}

TEST(LayoutEngine, HungHelperIsKilledAtTheTimeoutAndFallsBack) {
  BuiltRequest br = sample();
  EngineOptions o;
  o.helperPath = script("sleep 60");
  o.timeout = 400ms;
  auto t0 = std::chrono::steady_clock::now();
  LayoutResult r = computeLayout(br.request, o);
  EXPECT_LT(since(t0), 5.0);
  EXPECT_EQ(r.engine, Engine::kLayered);
  EXPECT_NE(r.note.find("longer than 0.4 s"), std::string::npos) << r.note;
  EXPECT_EQ(r.fallback, Fallback::kTimedOut);
}

TEST(LayoutEngine, CancelStopsTheHelperAtOnce) {
  BuiltRequest br = sample();
  EngineOptions o;
  o.helperPath = script("sleep 60");
  std::stop_source stop;
  std::thread canceller([&] {
    std::this_thread::sleep_for(200ms);
    stop.request_stop();
  });
  auto t0 = std::chrono::steady_clock::now();
  LayoutResult r = computeLayout(br.request, o, stop.get_token());
  canceller.join();
  EXPECT_LT(since(t0), 3.0);
  EXPECT_TRUE(r.cancelled);
  EXPECT_EQ(r.fallback, Fallback::kCancelled);
  EXPECT_EQ(r.engine, Engine::kLayered);
  EXPECT_EQ(r.nodes.size(), br.request.nodes.size());
}

TEST(LayoutEngine, FindsTheHelperThroughTheEnvironment) {
  ::setenv("PASSLAB_LAYOUT_HELPER", PASSLAB_LAYOUT_HELPER_PATH, 1);
  EXPECT_EQ(findLayoutHelper(), PASSLAB_LAYOUT_HELPER_PATH);
  ::setenv("PASSLAB_LAYOUT_HELPER", "/nonexistent/helper", 1);
  EXPECT_EQ(findLayoutHelper(), "");
  ::unsetenv("PASSLAB_LAYOUT_HELPER");
}

TEST(LayoutEngine, GraphvizLaysOutGpt2GroupedQuickly) {
  PASSLAB_REQUIRE_CORPUS();
  std::string path;
  for (const auto& p : testing::corpusModels())
    if (p.find("ort_gpt2_past.onnx") != std::string::npos) path = p;
  if (path.empty()) GTEST_SKIP() << "ort_gpt2_past.onnx not in the corpus";
  auto loaded = io::loadModel(path);
  ASSERT_TRUE(loaded) << loaded.error().message();
  const ir::Graph& g = loaded->model.graph();
  GroupTree t = GroupTree::build(g);
  RequestOptions ro;
  ro.inlineConstants = true;
  BuiltRequest br = buildRequest(g, t, t.defaultExpansion(150), ro);
  EngineOptions o;
  o.helperPath = PASSLAB_LAYOUT_HELPER_PATH;
  auto t0 = std::chrono::steady_clock::now();
  LayoutResult r = computeLayout(br.request, o);
  std::cout << "gpt2_past grouped: " << br.request.nodes.size() << " boxes, "
            << br.request.edges.size() << " arrows, " << since(t0) << " s with "
            << engineName(r.engine) << "\n";
  EXPECT_EQ(r.engine, Engine::kGraphviz) << r.note;
  EXPECT_LT(since(t0), 10.0);
}

}  // namespace
}  // namespace passlab::layout
