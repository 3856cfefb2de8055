// Every structural pass, and the basic level, on every corpus model: nothing
// is rolled back, the verifier is clean, the result saves and reloads with the
// same node count. Prints a table of node counts before and after each pass.
// Model-specific checks: CSE keeps ONNX Runtime's per-consumer
// DequantizeLinear nodes; fold_constants does not blow up the onnx_light_*
// models; the CPU executor gives the same outputs before and after where it
// can run the model.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

#include "core/analysis/shape_inference.h"
#include "core/io/model_io.h"
#include "core/passes/registry.h"
#include "core/pipeline/pass_manager.h"
#include "tests/support/pass_harness.h"
#include "tests/support/test_support.h"

namespace fs = std::filesystem;

namespace passlab {
namespace {

const std::vector<std::string> kPasses = {
    "eliminate_identity_ops",          "fold_constants",      "eliminate_noop_ops",
    "eliminate_inverse_pairs",         "simplify_op_chains",  "deduplicate_initializers",
    "eliminate_common_subexpressions", "eliminate_dead_nodes"};

std::string stem(const std::string& path) {
  return fs::path(path).stem().string();
}

size_t countOp(const ir::Graph& g, const std::string& op) {
  size_t n = 0;
  g.forEachNodeRecursive([&](ir::Node* node) { n += node->opType() == op ? 1 : 0; });
  return n;
}

struct Outcome {
  size_t nodesBefore = 0, nodesAfter = 0;
  uint64_t fileBytes = 0;
  ir::Model model;
};

// Runs `ids` on the model at `path`; checks rollback, verifier, save and reload.
Outcome runOn(const std::string& path, const std::vector<std::string>& ids,
              const passes::Options& options = {}) {
  Outcome out;
  auto loaded = io::loadModel(path);
  if (!loaded) {
    ADD_FAILURE() << "load: " << loaded.error().message();
    return out;
  }
  ir::Model& m = loaded->model;
  out.nodesBefore = m.graph().nodeCountRecursive();
  analysis::inferShapes(m);
  pipeline::PipelineOptions po;
  po.keepSnapshots = false;
  pipeline::PassManager pm(m, po);
  pm.setEvaluator(testing::cpuEvaluator());
  for (const auto& id : ids) {
    auto step = pm.run({id, options, {}});
    if (!step) {
      ADD_FAILURE() << id << ": " << step.error().message();
      return out;
    }
    EXPECT_FALSE((*step)->rolledBack) << id << ": " << (*step)->error;
    EXPECT_TRUE((*step)->verifierErrors.empty()) << id << ": " << (*step)->verifierErrors.front();
  }
  out.nodesAfter = m.graph().nodeCountRecursive();
  std::string file = testing::tempDir() + "/" + stem(path) + ".onnx";
  if (auto s = io::saveModel(m, file); !s) {
    ADD_FAILURE() << "save: " << s.message();
    return out;
  }
  std::error_code ec;
  out.fileBytes = fs::file_size(file, ec);
  auto again = io::loadModel(file);
  if (!again) {
    ADD_FAILURE() << "reload: " << again.error().message();
    return out;
  }
  EXPECT_EQ(again->model.graph().nodeCountRecursive(), out.nodesAfter) << "reloaded node count";
  out.model = std::move(m);
  return out;
}

TEST(StructuralPasses, EveryPassOnEveryCorpusModel) {
  PASSLAB_REQUIRE_CORPUS();
  std::printf("%-46s %6s", "model", "nodes");
  for (const auto& id : kPasses) std::printf(" %6.6s", id.c_str() + (id.find('_') + 1));
  std::printf(" %6s\n", "basic");
  for (const auto& path : testing::corpusModels()) {
    SCOPED_TRACE(path);
    std::printf("%-46s", stem(path).c_str());
    bool first = true;
    for (const auto& id : kPasses) {
      SCOPED_TRACE(id);
      Outcome o = runOn(path, {id});
      if (first) std::printf(" %6zu", o.nodesBefore);
      first = false;
      std::printf(" %6zu", o.nodesAfter);
    }
    auto basic = passes::passesForLevel("basic");
    ASSERT_TRUE(basic);
    Outcome o = runOn(path, *basic);
    std::printf(" %6zu\n", o.nodesAfter);
    std::fflush(stdout);
  }
}

// ONNX Runtime's expected output of EnsureUniqueDQForNodeUnit: 25
// DequantizeLinear nodes, 4 of which repeat another's inputs (one per QDQ node
// unit). By default CSE merges those 4 (ONNX Runtime splits them again when it
// loads the model); merge_dequantize_linear=false keeps all 25.
TEST(StructuralPasses, CseMergesRepeatedDequantizeLinearUnlessAskedNotTo) {
  PASSLAB_REQUIRE_CORPUS();
  std::string path = *testing::corpusDir() + "/models/ort_qdq_multi_consumer_dq_fixed.onnx";
  Outcome merged = runOn(path, {"eliminate_common_subexpressions"});
  EXPECT_EQ(countOp(merged.model.graph(), "DequantizeLinear"), 21u);
  Outcome kept =
      runOn(path, {"eliminate_common_subexpressions"}, {{"merge_dequantize_linear", "false"}});
  EXPECT_EQ(countOp(kept.model.graph(), "DequantizeLinear"), 25u);
}

TEST(StructuralPasses, FoldingKeepsLightModelsLight) {
  PASSLAB_REQUIRE_CORPUS();
  size_t seen = 0;
  for (const auto& path : testing::corpusModels()) {
    if (stem(path).rfind("onnx_light_", 0) != 0) continue;
    SCOPED_TRACE(path);
    ++seen;
    Outcome o = runOn(path, passes::passesForLevel("basic").value());
    uint64_t original = fs::file_size(path);
    EXPECT_LE(o.fileBytes, 2 * original + 4096)
        << "grew from " << original << " to " << o.fileBytes;
  }
  EXPECT_EQ(seen, 9u);
}

// Every step is verified where it touched the model. On every corpus model,
// through every registered pass and through the default, fused and ort
// levels, the whole walk after each step finds no error that the step's own
// check let through.
TEST(StructuralPasses, EveryStepVerifiedWhereItTouchedIsSoundAsAWhole) {
  PASSLAB_REQUIRE_CORPUS();
  size_t steps = 0, wholeSteps = 0;
  for (const char* level : {"all", "default", "fused", "ort"}) {
    auto ids = passes::passesForLevel(level);
    ASSERT_TRUE(ids) << level;
    const size_t levelBefore = steps;
    for (const auto& path : testing::corpusModels()) {
      SCOPED_TRACE(path + ", level " + level);
      auto loaded = io::loadModel(path);
      ASSERT_TRUE(loaded);
      ir::Model& m = loaded->model;
      analysis::inferShapes(m);
      const std::set<std::string> original = pipeline::verifierErrorSet(m);
      pipeline::PipelineOptions po;
      po.keepSnapshots = false;
      po.standardOnly = std::string(level) == "default";
      po.wholeWalkShare = 0;  // every step checked where it touched the model
      pipeline::PassManager pm(m, po);
      pm.setEvaluator(testing::cpuEvaluator());
      pm.addAfterHook([&](const pipeline::Step& step, const ir::Model& model) {
        if (!step.changed) return;
        ++steps;
        wholeSteps += step.verifiedWhole ? 1 : 0;  // a step that added an opset import
        for (const std::string& e : pipeline::verifierErrorSet(model))
          EXPECT_TRUE(original.count(e)) << step.passId << " left: " << e;
      });
      for (const auto& id : *ids) {
        auto step = pm.run({id, {}, {}});
        ASSERT_TRUE(step) << id;
        EXPECT_FALSE((*step)->rolledBack) << id << ": " << (*step)->error;
      }
    }
    std::printf("[structural passes] level %s: %zu changing steps on %zu models\n", level,
                steps - levelBefore, testing::corpusModels().size());
  }
  std::printf(
      "[structural passes] %zu changing steps verified as a whole too (%zu of them walked whole "
      "by the PassManager as well: they changed an opset)\n",
      steps, wholeSteps);
  EXPECT_GT(steps - wholeSteps, 500u);
}

TEST(StructuralPasses, BasicLevelKeepsOutputsWhereTheExecutorRuns) {
  PASSLAB_REQUIRE_CORPUS();
  size_t ran = 0, skipped = 0;
  for (const auto& path : testing::corpusModels()) {
    SCOPED_TRACE(path);
    auto loaded = io::loadModel(path);
    ASSERT_TRUE(loaded);
    Outcome o = runOn(path, passes::passesForLevel("basic").value());
    testing::NumericResult r = testing::compareOutputs(loaded->model, o.model, 1);
    if (!r.ran) {
      ++skipped;
      continue;
    }
    ++ran;
    EXPECT_TRUE(r.equal) << r.detail;
  }
  std::printf("[structural passes] numeric check ran on %zu corpus models, %zu not runnable yet\n",
              ran, skipped);
}

}  // namespace
}  // namespace passlab
