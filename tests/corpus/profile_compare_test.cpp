// Comparing GPT-2 (with its cache) before and after the fused level: every
// FusedAttention maps through provenance to the original group it stands for
// (at least five nodes) and gets a speedup.
#include <gtest/gtest.h>

#include "core/io/model_io.h"
#include "core/pipeline/node_benchmark.h"
#include "core/pipeline/node_extract.h"
#include "core/pipeline/profile_compare.h"
#include "tests/support/test_support.h"

namespace passlab::pipeline {
namespace {

TEST(ProfileCompare, Gpt2FusedAttentionsMapToTheirOriginalGroups) {
  PASSLAB_REQUIRE_CORPUS();
  auto loaded = io::loadModel(*testing::corpusDir() + "/models/ort_gpt2_past.onnx");
  ASSERT_TRUE(loaded) << loaded.error().message();
  auto opt = optimizeForCompare(loaded->model, "fused");
  ASSERT_TRUE(opt) << opt.error().message();
  CompareRequest req;
  req.base.model = &loaded->model;
  req.base.threads = 1;
  req.base.warmup = 1;
  req.base.repeats = 3;
  req.optimized = &opt->model;
  req.provenance = &opt->provenance;
  req.rounds = 3;
  auto c = compareModels(req);
  ASSERT_TRUE(c) << c.error().message();
  EXPECT_EQ(c->matching, "provenance");
  int attentions = 0;
  for (const NodeGroup& g : c->groups) {
    for (const std::string& op : g.newOps) {
      if (op.find("FusedAttention") == std::string::npos) continue;
      ++attentions;
      EXPECT_EQ(g.kind, GroupKind::kRewritten);
      EXPECT_GE(g.originalNodes.size(), 5u);
      EXPECT_GT(g.beforeMs, 0);
      EXPECT_GT(g.afterMs, 0);
      EXPECT_GT(g.speedup, 0);
    }
  }
  EXPECT_EQ(attentions, 12);
  EXPECT_GT(c->latencyBefore.medianMs, 0);
  EXPECT_GT(c->latencyAfter.medianMs, 0);
  EXPECT_GT(c->speedup, 0);
  // Regressions come first.
  bool seenOther = false;
  for (const NodeGroup& g : c->groups) {
    if (!g.regression) seenOther = true;
    EXPECT_FALSE(seenOther && g.regression);
  }
}

}  // namespace
}  // namespace passlab::pipeline

namespace passlab::pipeline {
namespace {

TEST(ProfileCompare, Gpt2FusedAttentionAloneAgainstItsOriginalNodesAlone) {
  PASSLAB_REQUIRE_CORPUS();
  auto loaded = io::loadModel(*testing::corpusDir() + "/models/ort_gpt2_past.onnx");
  ASSERT_TRUE(loaded) << loaded.error().message();
  auto opt = optimizeForCompare(loaded->model, "fused");
  ASSERT_TRUE(opt) << opt.error().message();
  ProfileRequest req;
  req.model = &loaded->model;
  req.threads = 1;
  req.repeats = 3;
  auto b = benchmarkNode(req, *opt, "FusedAttention");
  ASSERT_TRUE(b) << b.error().message();
  EXPECT_EQ(b->optimized.nodes.size(), 1u);
  EXPECT_GE(b->original.nodes.size(), 5u);
  EXPECT_EQ(b->originalLabels.size(), b->original.nodes.size());
  EXPECT_GT(b->speedup, 0);
  // Fed in context, the FusedAttention and its original group agree (the
  // group's cut-out has one output more than the fused node's: paired by
  // type and shape).
  EXPECT_GE(b->maxAbsDifference, 0) << "the two sides' outputs could not be compared";
  EXPECT_LT(b->maxAbsDifference, 1e-3);
  EXPECT_FALSE(benchmarkNode(req, *opt, "no such node"));
  // Matched by names only (as --compare OTHER.onnx), the fused node has no
  // original twin: refused before anything is run.
  auto unmatched =
      benchmarkNode(req, matchedByNames(loaded->model, opt->model.clone()), "FusedAttention");
  ASSERT_FALSE(unmatched);
  EXPECT_NE(unmatched.error().message().find("stands for no node"), std::string::npos)
      << unmatched.error().message();
}

// benchmarkNode calls its RunCheck with each model before it runs it: the two
// whole models that feed the cut-outs in context (only the values the cut-outs
// read exposed, not every value), the two cut-outs on the inputs they are
// timed on, the two cut-outs on their in-context values; all before the
// first timed run (profile --node --memory-limit refuses there). A refusal
// comes back as the benchmark's error, before any timed run.
TEST(ProfileCompare, NodeBenchmarkChecksEachRunBeforeTheTimedRuns) {
  PASSLAB_REQUIRE_CORPUS();
  auto loaded = io::loadModel(*testing::corpusDir() + "/models/ort_gpt2_past.onnx");
  ASSERT_TRUE(loaded) << loaded.error().message();
  auto opt = optimizeForCompare(loaded->model, "fused");
  ASSERT_TRUE(opt) << opt.error().message();
  int progressEvents = 0;
  ProfileRequest req;
  req.model = &loaded->model;
  req.threads = 1;
  req.warmup = 1;
  req.repeats = 2;
  req.progress = [&](const ProfileProgress&) { ++progressEvents; };
  struct Seen {
    size_t outputs = 0;
    int progressBefore = 0;
  };
  std::vector<Seen> seen;
  RunCheck record = [&](const ir::Model& m, const exec::NamedInputs&) {
    seen.push_back({m.graph().outputs().size(), progressEvents});
    return Status::ok();
  };
  auto b = benchmarkNode(req, *opt, "FusedAttention", record);
  ASSERT_TRUE(b) << b.error().message();
  ASSERT_EQ(seen.size(), 6u);
  for (size_t k = 0; k < seen.size(); ++k)
    EXPECT_EQ(seen[k].progressBefore, 0) << "check " << k << " came after a timed run";
  EXPECT_GT(progressEvents, 0);
  const size_t everyValue = exposeAllValues(loaded->model).graph().outputs().size();
  EXPECT_GT(seen[0].outputs, loaded->model.graph().outputs().size());
  EXPECT_LT(seen[0].outputs, everyValue) << "the whole model in context exposes every value";
  EXPECT_GE(b->maxAbsDifference, 0);

  int calls = 0;
  progressEvents = 0;
  RunCheck refuseTimed = [&](const ir::Model&, const exec::NamedInputs&) {
    return ++calls == 3 ? Status(invalidArgument("refused by the check")) : Status::ok();
  };
  auto refused = benchmarkNode(req, *opt, "FusedAttention", refuseTimed);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message().find("refused by the check"), std::string::npos)
      << refused.error().message();
  EXPECT_EQ(calls, 3);
  EXPECT_EQ(progressEvents, 0);
}

// The first node of `op` in the main graph of `m`, or "".
// The first `op` node that is not in the blocked layout: a node with the
// attribute `block` (convert_to_blocked_layout) writes [N, C/b, H, W, b],
// which cannot be compared element by element with its original nodes' NCHW
// output.
std::string firstNodeOf(const ir::Model& m, const std::string& op) {
  for (const auto& n : m.graph().nodes())
    if (n->opType() == op && !n->hasAttr("block")) return n->name();
  return {};
}

// One FusedConv and one FusedElementwise of the fused level, each cut out and
// timed against the original nodes it replaced: both sides run, and, fed
// in context (each on the values its whole model computes), their outputs
// agree.
TEST(ProfileCompare, FusedConvAndFusedElementwiseAgainstTheirOriginalNodes) {
  PASSLAB_REQUIRE_CORPUS();
  for (const auto& [model, op] : std::vector<std::pair<std::string, std::string>>{
           {"onnx_light_shufflenet", "FusedConv"}, {"ultraface_rfb_320", "FusedElementwise"}}) {
    SCOPED_TRACE(model + " " + op);
    auto loaded = io::loadModel(*testing::corpusDir() + "/models/" + model + ".onnx");
    ASSERT_TRUE(loaded) << loaded.error().message();
    auto opt = optimizeForCompare(loaded->model, "fused");
    ASSERT_TRUE(opt) << opt.error().message();
    const std::string name = firstNodeOf(opt->model, op);
    ASSERT_FALSE(name.empty()) << "no " << op << " at the fused level";
    ProfileRequest req;
    req.model = &loaded->model;
    req.threads = 1;
    req.repeats = 3;
    auto b = benchmarkNode(req, *opt, name);
    ASSERT_TRUE(b) << b.error().message();
    EXPECT_EQ(b->optimized.nodes.size(), 1u);
    EXPECT_GE(b->original.nodes.size(), 2u);
    EXPECT_GT(b->optimized.latency.medianMs, 0);
    EXPECT_GT(b->original.latency.medianMs, 0);
    EXPECT_GE(b->maxAbsDifference, 0) << "the two sides' outputs could not be compared";
    EXPECT_LT(b->maxAbsDifference, 1e-3);
  }
}

}  // namespace
}  // namespace passlab::pipeline
