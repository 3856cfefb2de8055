// merge_linear_convolutions on every cv-graphs model (classic image filters):
// the pass is not rolled back, the verifier is clean, the CPU executor gives
// the same outputs before and after (1x3x48x48 inputs, the fp32 tolerance),
// and a second run changes nothing. Prints the node counts before and after.
// The models where the cost model merges are pinned (docs/algorithm-redundancy.md
// has the measured latencies).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <map>

#include "core/analysis/shape_inference.h"
#include "core/io/model_io.h"
#include "core/pipeline/pass_manager.h"
#include "tests/support/pass_harness.h"
#include "tests/support/test_support.h"

namespace fs = std::filesystem;

namespace passlab {
namespace {

std::vector<std::string> cvGraphs() {
  std::vector<std::string> files;
  fs::path dir = fs::path(*testing::corpusDir()) / "cv-graphs";
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it); ++it)
    if (it->path().extension() == ".onnx") files.push_back(it->path().string());
  std::sort(files.begin(), files.end());
  return files;
}

// The model with every symbolic input dim given a value (N = 1, H = W = 48).
ir::Model loadStatic(const std::string& path) {
  auto loaded = io::loadModel(path);
  EXPECT_TRUE(loaded) << loaded.error().message();
  if (!loaded) return {};
  ir::Model m = std::move(loaded->model);
  for (ir::Value* in : m.graph().inputs()) {
    const auto& shape = in->type().shape();
    if (!in->type().isTensor() || !shape) continue;
    std::vector<int64_t> dims;
    for (const ir::Dim& d : shape->dims())
      dims.push_back(d.isStatic() ? d.value() : (d.param() == "N" ? 1 : 48));
    in->setType(ir::Type::tensor(in->type().elemType(), ir::Shape::fromValues(dims)));
  }
  analysis::inferShapes(m);
  return m;
}

// Runs the pass; checks rollback and the verifier.
void runPass(ir::Model& m) {
  pipeline::PipelineOptions po;
  po.keepSnapshots = false;
  pipeline::PassManager pm(m, po);
  pm.setEvaluator(testing::cpuEvaluator());
  auto step = pm.run({"merge_linear_convolutions", {}, {}});
  ASSERT_TRUE(step) << step.error().message();
  EXPECT_FALSE((*step)->rolledBack) << (*step)->error;
  EXPECT_TRUE((*step)->verifierErrors.empty()) << (*step)->verifierErrors.front();
}

TEST(MergeLinearConvolutionsCorpus, EveryCvGraphKeepsItsOutputs) {
  PASSLAB_REQUIRE_CORPUS();
  auto files = cvGraphs();
  if (files.empty()) GTEST_SKIP() << "no cv-graphs folder in the corpus";
  std::map<std::string, std::pair<size_t, size_t>> counts;
  std::printf("%-28s %6s %6s\n", "model", "before", "after");
  for (const auto& path : files) {
    SCOPED_TRACE(path);
    ir::Model before = loadStatic(path);
    ir::Model after = before.clone();
    runPass(after);
    size_t n0 = before.graph().nodeCount(), n1 = after.graph().nodeCount();
    std::string name = fs::path(path).stem().string();
    std::printf("%-28s %6zu %6zu\n", name.c_str(), n0, n1);
    counts[name] = {n0, n1};
    testing::NumericResult r = testing::compareOutputs(before, after, 1);
    EXPECT_TRUE(r.ran) << r.detail;
    EXPECT_TRUE(r.equal) << r.detail;
    ir::Model again = after.clone();
    runPass(again);
    EXPECT_EQ(testing::canonicalForm(again.graph()), testing::canonicalForm(after.graph()))
        << "a second run changed the model";
  }
  std::fflush(stdout);
  // Where the cost model rewrites: the 3x3 - 5x5 differences of Gaussians
  // merge (two separable pairs, or a 3x3 and a 5x5 window, into one 5x5), and
  // so do x - blur3x3(x) (unsharp mask; background normalization, whose
  // scalar offset goes into the bias);
  // the larger XDoGs split their rank-1 Gaussian windows instead (cheaper
  // than one 9x9 or 13x13 window).
  auto nodes = [&](const char* m) {
    return counts.count(m) ? counts[m] : std::pair<size_t, size_t>{};
  };
  EXPECT_EQ(nodes("dog_3x3_5x5"), (std::pair<size_t, size_t>{13, 8}));
  EXPECT_EQ(nodes("unsharp_mask_3x3"), (std::pair<size_t, size_t>{7, 5}));
  EXPECT_EQ(nodes("bg_normalize_3x3"), (std::pair<size_t, size_t>{6, 3}));
  EXPECT_EQ(nodes("xdog_3x3_5x5"), (std::pair<size_t, size_t>{17, 13}));
  EXPECT_EQ(nodes("xdog_5x5_9x9"), (std::pair<size_t, size_t>{17, 19}));
  EXPECT_EQ(nodes("xdog_7x7_13x13"), (std::pair<size_t, size_t>{17, 19}));
}

}  // namespace
}  // namespace passlab
