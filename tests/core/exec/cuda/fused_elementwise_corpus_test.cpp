// Every FusedElementwise program of the corpus compiles for the GPU: each
// corpus model that holds FusedElementwise nodes, or gets them from
// fuse_elementwise_chains (run through the PassManager), has every node's
// program turned into CUDA C (fused_elementwise_codegen.h) and compiled by
// NVRTC to PTX (no device needed), for float32 with the broadcast plan of the
// node's inferred input shapes, and for float16 and bfloat16; the PTX must
// define the expected entry point. Skips when the corpus is absent.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <set>

#include "core/analysis/shape_inference.h"
#include "core/exec/broadcast.h"
#include "core/exec/cuda/fused_elementwise_codegen.h"
#include "core/exec/cuda/nvrtc_program.h"
#include "core/io/model_io.h"
#include "core/pipeline/pass_manager.h"
#include "tests/support/pass_harness.h"
#include "tests/support/test_support.h"

namespace passlab::exec::cuda {
namespace {

namespace fs = std::filesystem;

// The broadcast plan of the node's inputs when their shapes are known
// statically; otherwise every input read through strides over Y's rank (the
// most general kernel for that rank).
fused::EwPlan planOf(const ir::Node& node) {
  std::vector<Dims> dims;
  bool known = true;
  size_t rank = 0;
  for (const ir::Value* v : node.inputs()) {
    const auto& shape = v ? v->type().shape() : std::nullopt;
    if (shape) rank = std::max(rank, shape->rank());
    std::optional<std::vector<int64_t>> d = shape ? shape->staticDims() : std::nullopt;
    if (!d) {
      known = false;
      continue;
    }
    dims.push_back(*d);
  }
  if (known) {
    std::vector<const Dims*> ptrs;
    for (const Dims& d : dims) ptrs.push_back(&d);
    if (auto out = broadcastShapes(ptrs)) return fused::planBroadcast(*out, ptrs);
  }
  fused::EwPlan p;
  p.access.assign(node.inputCount(), fused::EwAccess::kStrided);
  p.dims.assign(std::max<size_t>(rank, 1), 2);
  p.strides.assign(node.inputCount(), std::vector<int64_t>(p.dims.size(), 1));
  return p;
}

TEST(FusedElementwiseCorpus, EveryProgramCompilesToPtxWithItsEntryPoint) {
  PASSLAB_REQUIRE_CORPUS();
  const std::string arch = nvrtc::targetArchitecture(nullptr);
  size_t models = 0, nodes = 0, compiled = 0;
  std::set<std::string> done;  // sources already compiled (programs repeat across layers)
  for (const std::string& path : testing::corpusModels()) {
    auto loaded = io::loadModel(path);
    if (!loaded) continue;  // the corpus's load tests report these
    ir::Model& m = loaded->model;
    analysis::inferShapes(m);
    pipeline::PipelineOptions po;
    po.keepSnapshots = false;
    po.standardOnly = false;  // the pass emits ai.passlab ops
    pipeline::PassManager pm(m, po);
    pm.setEvaluator(testing::cpuEvaluator());
    auto step = pm.run({"fuse_elementwise_chains", {}, {}});
    ASSERT_TRUE(step) << path << ": " << step.error().message();
    if ((*step)->rolledBack) ADD_FAILURE() << path << ": rolled back: " << (*step)->error;
    EXPECT_FALSE((*step)->skipped) << path << ": " << (*step)->note;

    std::vector<const ir::Node*> fusedNodes;
    m.graph().forEachNodeRecursive([&](ir::Node* n) {
      if (n->domain() == "ai.passlab" && n->opType() == "FusedElementwise") fusedNodes.push_back(n);
    });
    if (fusedNodes.empty()) continue;
    ++models;
    size_t here = 0;
    for (const ir::Node* n : fusedNodes) {
      auto prog = fused::parseEwProgram(*n);
      ASSERT_TRUE(prog) << path << ": " << prog.error().message();
      ++nodes;
      const fused::EwPlan plan = planOf(*n);
      for (LaunchFloat t : {LaunchFloat::kFloat32, LaunchFloat::kFloat16, LaunchFloat::kBFloat16}) {
        const fused::EwSource src = fused::generateSource(*prog, t, plan);
        if (!done.insert(src.code).second) continue;
        auto ptx = nvrtc::compileToPtx(src.code, src.entry + ".cu", arch);
        ASSERT_TRUE(ptx) << path << ": " << ptx.error().message() << "\n" << src.code;
        EXPECT_NE(ptx->find(".entry " + src.entry), std::string::npos)
            << path << ": no .entry " << src.entry << " in the PTX";
        ++compiled;
        ++here;
      }
    }
    std::printf("  %-50s %3zu FusedElementwise nodes, %3zu new kernels\n",
                fs::path(path).filename().string().c_str(), fusedNodes.size(), here);
  }
  std::printf("  %zu models, %zu FusedElementwise nodes, %zu distinct kernels compiled for %s\n",
              models, nodes, compiled, arch.c_str());
  EXPECT_GT(models, 0u) << "no corpus model gave a FusedElementwise node";
}

}  // namespace
}  // namespace passlab::exec::cuda
