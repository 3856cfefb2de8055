// The ONNX Runtime target (level "ort", non-standard output allowed) on the
// corpus's transformer models, against what ONNX Runtime's own transformer
// optimizer gives (MANIFEST notes):
// - ort_gpt2_megatron reaches the op counts of ort_gpt2_megatron_opt_skiplayernorm
//   (and, without fuse_ort_skip_layer_norm, of ..._opt_no_skiplayernorm): the
//   fused ops exactly, every other op type no more often (the test model's
//   zero biases and unit scales are folded away by the basic level first);
// - ort_gpt2_past gets 12 Attention, 12 FastGelu and 24 SkipLayerNormalization
//   + 1 LayerNormalization (25 LayerNormalization with skip fusion off);
// - outputs stay equal (Megatron's float mask fed 0/1 values: a causal mask).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>

#include "core/analysis/shape_inference.h"
#include "core/io/model_io.h"
#include "core/passes/registry.h"
#include "core/pipeline/numeric_check.h"
#include "core/pipeline/pass_manager.h"
#include "tests/support/pass_harness.h"
#include "tests/support/test_support.h"

namespace passlab {
namespace {

using Counts = std::map<std::string, size_t>;

std::string modelPath(const std::string& name) {
  return *testing::corpusDir() + "/models/" + name + ".onnx";
}

Counts opCounts(const ir::Graph& g) {
  Counts c;
  g.forEachNodeRecursive([&](ir::Node* n) { ++c[n->qualifiedOpType()]; });
  return c;
}

std::string text(const Counts& c) {
  std::string s;
  for (const auto& [op, n] : c) s += op + " " + std::to_string(n) + ", ";
  return s;
}

size_t count(const Counts& c, const std::string& op) {
  auto it = c.find(op);
  return it == c.end() ? 0 : it->second;
}

// The "ort" level, without `drop` when given.
std::vector<std::string> ortLevel(const std::string& drop = "") {
  auto ids = passes::passesForLevel("ort");
  EXPECT_TRUE(ids);
  std::vector<std::string> out;
  for (const auto& id : *ids)
    if (id != drop) out.push_back(id);
  return out;
}

struct Optimized {
  ir::Model original;
  ir::Model model;
};

// Runs `ids` with non-standard output allowed; nothing rolls back, the
// verifier stays clean, the result saves and reloads.
Optimized optimize(const std::string& name, const std::vector<std::string>& ids) {
  Optimized o;
  auto loaded = io::loadModel(modelPath(name));
  EXPECT_TRUE(loaded) << name;
  if (!loaded) return o;
  auto original = io::loadModel(modelPath(name));
  if (original) o.original = std::move(original->model);
  ir::Model& m = loaded->model;
  analysis::inferShapes(m);
  pipeline::PipelineOptions po;
  po.keepSnapshots = false;
  po.standardOnly = false;
  pipeline::PassManager pm(m, po);
  pm.setEvaluator(testing::cpuEvaluator());
  for (const auto& id : ids) {
    auto step = pm.run({id, {}, {}});
    EXPECT_TRUE(step) << id;
    if (!step) break;
    EXPECT_FALSE((*step)->rolledBack) << id << ": " << (*step)->error;
    EXPECT_TRUE((*step)->verifierErrors.empty()) << id << ": " << (*step)->verifierErrors.front();
  }
  std::string file = testing::tempDir() + "/" + name + "_ort.onnx";
  EXPECT_TRUE(io::saveModel(m, file).isOk());
  auto again = io::loadModel(file);
  EXPECT_TRUE(again);
  if (again) {
    EXPECT_EQ(again->model.graph().nodeCountRecursive(), m.graph().nodeCountRecursive());
  }
  o.model = std::move(m);
  return o;
}

// Every op of `got` is in `want` at most as often; the fused ops exactly as often.
void expectReaches(const Counts& got, const Counts& want, const std::vector<std::string>& fused) {
  for (const auto& [op, n] : got)
    EXPECT_LE(n, count(want, op)) << op << "\n got: " << text(got) << "\nwant: " << text(want);
  for (const auto& op : fused)
    EXPECT_EQ(count(got, op), count(want, op))
        << op << "\n got: " << text(got) << "\nwant: " << text(want);
}

void expectSameOutputs(const Optimized& o, pipeline::InputSpec spec, int sets) {
  auto checker = pipeline::ExecOutputChecker::create(o.original, sets, std::move(spec));
  ASSERT_TRUE(checker) << checker.error().message();
  pipeline::NumericCheck c = (*checker)->check(o.model);
  EXPECT_TRUE(c.ran) << c.detail;
  EXPECT_TRUE(c.passed) << c.detail;
  std::printf("[ort fusion] outputs equal on %zu input sets (max abs %.1e, rel %.1e)\n",
              c.inputSets, c.maxAbsError, c.maxRelError);
}

// Megatron's check inputs: 2 sequences of 3 tokens after 2 cached ones, the
// attention mask causal (0/1, as the model expects).
pipeline::InputSpec megatronInputs() {
  pipeline::InputSpec spec;
  spec.dims = {{"batch_size", 2}, {"seq_len", 3}, {"past_seq_len", 2}};
  std::vector<float> mask(2 * 64 * 64);
  for (int b = 0; b < 2; ++b)
    for (int i = 0; i < 64; ++i)
      for (int j = 0; j < 64; ++j) mask[(b * 64 + i) * 64 + j] = j <= i ? 1.0f : 0.0f;
  spec.fixed["attention_mask"] = ir::Tensor::fromVector(ir::DataType::kFloat, {2, 1, 64, 64}, mask);
  return spec;
}

const std::vector<std::string> kMs = {"com.microsoft.Attention", "com.microsoft.FastGelu",
                                      "com.microsoft.EmbedLayerNormalization",
                                      "com.microsoft.SkipLayerNormalization"};

TEST(OrtFusion, MegatronReachesOnnxRuntimesSkipLayerNormResult) {
  PASSLAB_REQUIRE_CORPUS();
  auto want = io::loadModel(modelPath("ort_gpt2_megatron_opt_skiplayernorm"));
  ASSERT_TRUE(want);
  Optimized o = optimize("ort_gpt2_megatron", ortLevel());
  Counts got = opCounts(o.model.graph());
  std::printf("[ort fusion] ort_gpt2_megatron: %zu -> %zu nodes: %s\n",
              o.original.graph().nodeCountRecursive(), o.model.graph().nodeCountRecursive(),
              text(got).c_str());
  expectReaches(got, opCounts(want->model.graph()), kMs);
  EXPECT_LE(o.model.graph().nodeCountRecursive(), want->model.graph().nodeCountRecursive());
  expectSameOutputs(o, megatronInputs(), 3);
}

TEST(OrtFusion, MegatronWithoutSkipFusionReachesTheNoSkipResult) {
  PASSLAB_REQUIRE_CORPUS();
  auto want = io::loadModel(modelPath("ort_gpt2_megatron_opt_no_skiplayernorm"));
  ASSERT_TRUE(want);
  Optimized o = optimize("ort_gpt2_megatron", ortLevel("fuse_ort_skip_layer_norm"));
  Counts got = opCounts(o.model.graph());
  std::printf("[ort fusion] ort_gpt2_megatron, no skip fusion: %zu -> %zu nodes: %s\n",
              o.original.graph().nodeCountRecursive(), o.model.graph().nodeCountRecursive(),
              text(got).c_str());
  std::vector<std::string> fused = kMs;
  fused.push_back("LayerNormalization");
  expectReaches(got, opCounts(want->model.graph()), fused);
  expectSameOutputs(o, megatronInputs(), 2);
}

TEST(OrtFusion, Gpt2PastGetsTwelveAttentionsAndGelus) {
  PASSLAB_REQUIRE_CORPUS();
  Optimized o = optimize("ort_gpt2_past", ortLevel());
  Counts got = opCounts(o.model.graph());
  std::printf("[ort fusion] ort_gpt2_past: %zu -> %zu nodes: %s\n",
              o.original.graph().nodeCountRecursive(), o.model.graph().nodeCountRecursive(),
              text(got).c_str());
  EXPECT_EQ(count(got, "com.microsoft.Attention"), 12u);
  EXPECT_EQ(count(got, "com.microsoft.FastGelu"), 12u);
  EXPECT_EQ(count(got, "com.microsoft.SkipLayerNormalization"), 24u);
  EXPECT_EQ(count(got, "LayerNormalization"), 1u);
  for (const char* gone : {"Softmax", "Tanh", "ReduceMean", "Where", "Split"})
    EXPECT_EQ(count(got, gone), 0u) << gone;
  pipeline::InputSpec spec;
  spec.dims = {{"batch_size", 2}, {"seq_len", 3}};
  expectSameOutputs(o, spec, 2);
}

TEST(OrtFusion, Gpt2PastWithoutSkipFusionGetsTwentyFiveLayerNorms) {
  PASSLAB_REQUIRE_CORPUS();
  Optimized o = optimize("ort_gpt2_past", ortLevel("fuse_ort_skip_layer_norm"));
  Counts got = opCounts(o.model.graph());
  EXPECT_EQ(count(got, "com.microsoft.Attention"), 12u);
  EXPECT_EQ(count(got, "com.microsoft.FastGelu"), 12u);
  EXPECT_EQ(count(got, "com.microsoft.SkipLayerNormalization"), 0u);
  EXPECT_EQ(count(got, "LayerNormalization"), 25u);
}

TEST(OrtFusion, StandardOnlyLeavesTheContribOpsOut) {
  PASSLAB_REQUIRE_CORPUS();
  auto loaded = io::loadModel(modelPath("ort_gpt2_megatron"));
  ASSERT_TRUE(loaded);
  ir::Model& m = loaded->model;
  analysis::inferShapes(m);
  pipeline::PipelineOptions po;
  po.keepSnapshots = false;
  pipeline::PassManager pm(m, po);  // standard ONNX only (the default)
  pm.setEvaluator(testing::cpuEvaluator());
  for (const auto& id : ortLevel()) ASSERT_TRUE(pm.run({id, {}, {}}));
  for (const auto& [op, n] : opCounts(m.graph()))
    EXPECT_EQ(op.find("com.microsoft."), std::string::npos) << op;
}

}  // namespace
}  // namespace passlab
