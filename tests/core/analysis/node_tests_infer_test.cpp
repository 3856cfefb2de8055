// Shape inference over the ONNX operator tests of the corpus: each test's
// graph outputs are declared with the exact type of its expected output, so
// after forgetting them, whatever inference finds must match.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

#include "core/analysis/shape_inference.h"
#include "core/io/model_io.h"
#include "tests/core/analysis/infer_test_util.h"

namespace fs = std::filesystem;

namespace passlab::analysis {
namespace {

// Compares an inferred type with the declared (true) one: element types and
// ranks must agree, and every number inference gave must be the true number.
// Returns "" when they agree or inference knows nothing to compare.
std::string disagreement(const ir::Type& truth, const ir::Type& got) {
  if (got.isUndefined() || truth.isUndefined()) return "";
  if (got.kind() != truth.kind()) return "kind";
  if (got.kind() == ir::Type::Kind::kSequence || got.kind() == ir::Type::Kind::kOptional)
    return disagreement(*truth.inner(), *got.inner());
  if (!got.isTensor()) return "";
  if (got.elemType() != ir::DataType::kUndefined && truth.elemType() != ir::DataType::kUndefined &&
      got.elemType() != truth.elemType())
    return "element type";
  if (!got.hasShape() || !truth.hasShape()) return "";
  if (got.shape()->rank() != truth.shape()->rank()) return "rank";
  for (size_t i = 0; i < got.shape()->rank(); ++i) {
    const ir::Dim& g = (*got.shape())[i];
    const ir::Dim& t = (*truth.shape())[i];
    if (g.isStatic() && t.isStatic() && g.value() != t.value()) return "dim " + std::to_string(i);
  }
  return "";
}

struct Totals {
  size_t tests = 0, outputs = 0, typed = 0, shaped = 0, exact = 0;
  std::map<std::string, size_t> noRule;
};

TEST(NodeTestsInference, InferredOutputsMatchTheExpectedOutputs) {
  PASSLAB_REQUIRE_CORPUS();
  std::string root = *testing::corpusDir() + "/onnx-node-tests";
  if (!fs::is_directory(root)) GTEST_SKIP() << "no onnx-node-tests in the corpus";
  std::vector<fs::path> dirs;
  for (const auto& e : fs::directory_iterator(root))
    if (fs::exists(e.path() / "model.onnx")) dirs.push_back(e.path());
  std::sort(dirs.begin(), dirs.end());
  Totals t;
  for (const fs::path& dir : dirs) {
    std::string name = dir.filename().string();
    auto loaded = io::loadModel((dir / "model.onnx").string());
    if (!loaded) continue;  // the loader's own suites cover files it rejects
    ir::Model& m = loaded->model;
    std::vector<ir::Type> truth;
    for (const ir::Value* v : m.graph().outputs()) truth.push_back(v->type());
    testing::clearNodeOutputTypes(m.graph());
    ShapeInferenceReport r = inferShapes(m);
    ++t.tests;
    for (const auto& op : r.opsWithoutRule) ++t.noRule[op];
    for (const auto& f : r.failures) ADD_FAILURE() << name << ": " << f;
    for (size_t i = 0; i < truth.size(); ++i) {
      const ir::Value* v = m.graph().outputs()[i];
      if (!v->producer()) continue;  // an input or initializer passed through
      ++t.outputs;
      const ir::Type& got = v->type();
      if (got.elemType() != ir::DataType::kUndefined || !got.isTensor()) ++t.typed;
      if (got.hasShape() || (!got.isTensor() && !got.isUndefined())) ++t.shaped;
      if (got == truth[i]) ++t.exact;
      std::string why = disagreement(truth[i], got);
      EXPECT_TRUE(why.empty()) << name << ": output '" << v->name() << "' is "
                               << truth[i].toString() << ", inferred " << got.toString() << " ("
                               << why << ")";
    }
  }
  std::printf("node tests %zu, outputs %zu: typed %zu, shaped %zu, exactly the expected type %zu\n",
              t.tests, t.outputs, t.typed, t.shaped, t.exact);
  std::string noRule;
  for (const auto& [op, n] : t.noRule) noRule += " " + op + "(" + std::to_string(n) + ")";
  std::printf("ops without a rule:%s\n", noRule.c_str());
  EXPECT_TRUE(t.noRule.empty()) << "ops without a rule:" << noRule;
  EXPECT_GE(t.tests, 1700u);
}

}  // namespace
}  // namespace passlab::analysis
