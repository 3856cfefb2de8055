// Load -> save -> load on every model we can find: the corpus models, the ONNX
// node tests of the corpus and of Debian's libonnx-testdata. The graph must
// come back equal and the file semantically equal to the original.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/io/model_compare.h"
#include "core/io/model_io.h"
#include "core/ir/graph_compare.h"
#include "tests/support/test_support.h"

namespace fs = std::filesystem;

namespace passlab {
namespace {

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Every model.onnx below `root` (node-test layout) or *.onnx directly in it.
std::vector<std::string> modelsUnder(const std::string& root) {
  std::vector<std::string> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, ec);
       it != fs::recursive_directory_iterator(); ++it)
    if (it->is_regular_file() && it->path().extension() == ".onnx")
      out.push_back(it->path().string());
  std::sort(out.begin(), out.end());
  return out;
}

// Returns "" on success, else why the round trip failed.
std::string roundTrip(const std::string& path) {
  auto first = io::loadModel(path);
  if (!first) return "load: " + first.error().message();
  std::string out = testing::tempDir() + "/model.onnx";
  if (auto s = io::saveModel(first->model, out); !s) return "save: " + s.message();
  auto second = io::loadModel(out);
  if (!second) return "reload: " + second.error().message();
  if (auto d = ir::firstDifference(first->model.graph(), second->model.graph()))
    return "graph: " + *d;
  auto diffs = io::compareModelBytes(readFile(path), fs::path(path).parent_path().string(),
                                     readFile(out), fs::path(out).parent_path().string());
  if (!diffs) return "compare: " + diffs.error().message();
  if (!diffs->empty()) return "proto: " + diffs->front();
  return "";
}

void runSuite(const std::vector<std::string>& models, const char* label) {
  size_t passed = 0;
  for (const auto& m : models) {
    std::string why = roundTrip(m);
    if (why.empty())
      ++passed;
    else
      ADD_FAILURE() << m << ": " << why;
  }
  std::printf("[round trip] %s: %zu of %zu models equal after load -> save -> load\n", label,
              passed, models.size());
  EXPECT_GT(models.size(), 0u);
}

TEST(RoundTrip, CorpusModels) {
  PASSLAB_REQUIRE_CORPUS();
  runSuite(testing::corpusModels(), "corpus models");
}

TEST(RoundTrip, CorpusNodeTests) {
  PASSLAB_REQUIRE_CORPUS();
  runSuite(modelsUnder(*testing::corpusDir() + "/onnx-node-tests"), "corpus node tests");
}

TEST(RoundTrip, DebianOnnxTestdata) {
  auto dir = testing::onnxTestdataDir();
  if (!dir) GTEST_SKIP() << "libonnx-testdata not installed (apt install libonnx-testdata)";
  runSuite(modelsUnder(*dir), "libonnx-testdata");
}

}  // namespace
}  // namespace passlab
