// Cross-check of PassLab's shape inference against onnx::shape_inference of
// Debian's libonnx 1.12, on the corpus models and ONNX node tests it knows
// (IR version <= 8, default-domain opset <= 17, ai.onnx.ml <= 3).
//
// Both sides start from the same bytes: the file with every value_info and
// every graph output type removed, so both must infer everything. Where both
// know a value's shape they must agree: same element type, same rank, equal
// numbers where both have numbers. Totals are printed.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <unordered_map>

#include "core/analysis/shape_inference.h"
#include "core/io/model_io.h"
#include "tests/support/test_support.h"

namespace fs = std::filesystem;

namespace passlab::analysis {
namespace {

void stripTypes(onnx::GraphProto& g) {
  g.clear_value_info();
  for (auto& out : *g.mutable_output()) out.clear_type();
  for (auto& n : *g.mutable_node())
    for (auto& a : *n.mutable_attribute()) {
      if (a.has_g()) stripTypes(*a.mutable_g());
      for (auto& sub : *a.mutable_graphs()) stripTypes(sub);
    }
}

// Every node output name of g (and subgraphs) -> its TypeProto after inference.
void collectOnnx(const onnx::GraphProto& g, std::unordered_map<std::string, onnx::TypeProto>& out) {
  for (const auto& v : g.value_info()) out[v.name()] = v.type();
  for (const auto& v : g.output())
    if (v.has_type()) out[v.name()] = v.type();
  for (const auto& n : g.node())
    for (const auto& a : n.attribute()) {
      if (a.has_g()) collectOnnx(a.g(), out);
      for (const auto& sub : a.graphs()) collectOnnx(sub, out);
    }
}

bool supported(const onnx::ModelProto& m) {
  if (m.ir_version() > 8) return false;
  for (const auto& op : m.opset_import()) {
    const std::string& d = op.domain();
    if ((d.empty() || d == "ai.onnx") && op.version() > 17) return false;
    if (d == "ai.onnx.ml" && op.version() > 3) return false;
  }
  return true;
}

struct Totals {
  size_t files = 0, skipped = 0, onnxThrew = 0;
  size_t values = 0, bothShaped = 0, agreed = 0, exactSame = 0, onlyOnnx = 0, onlyOurs = 0,
         neither = 0, disagreed = 0;
};

// "" when a (ours) and b (onnx) agree; otherwise what differs.
std::string compare(const ir::Type& ours, const onnx::TypeProto& theirs, bool* same) {
  const auto& tt = theirs.tensor_type();
  if (tt.elem_type() != 0 && ours.elemType() != ir::DataType::kUndefined &&
      static_cast<int>(ours.elemType()) != tt.elem_type())
    return "element type " + std::to_string(tt.elem_type());
  const ir::Shape& s = *ours.shape();
  if (static_cast<int>(s.rank()) != tt.shape().dim_size())
    return "rank " + std::to_string(tt.shape().dim_size());
  *same = true;
  for (size_t i = 0; i < s.rank(); ++i) {
    const auto& d = tt.shape().dim(static_cast<int>(i));
    if (d.has_dim_value() && s[i].isStatic() && d.dim_value() != s[i].value())
      return "dim " + std::to_string(i) + " is " + std::to_string(d.dim_value());
    bool sameDim = (d.has_dim_value() && s[i].isStatic()) ||
                   (d.has_dim_param() && s[i].isSymbolic() && d.dim_param() == s[i].param()) ||
                   (!d.has_dim_value() && !d.has_dim_param() && s[i].isUnknown());
    *same = *same && sameDim;
  }
  return "";
}

void crossCheck(const std::string& path, const std::string& label, Totals& t) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buf;
  buf << in.rdbuf();
  onnx::ModelProto proto;
  if (!proto.ParseFromString(buf.str()) || !supported(proto)) {
    ++t.skipped;
    return;
  }
  stripTypes(*proto.mutable_graph());
  std::string stripped;
  proto.SerializeToString(&stripped);
  try {
    onnx::shape_inference::InferShapes(proto, onnx::OpSchemaRegistry::Instance(),
                                       onnx::ShapeInferenceOptions(false, 0, true));
  } catch (const std::exception& e) {
    ++t.onnxThrew;
    std::printf("  onnx 1.12 shape inference threw on %s: %.200s\n", label.c_str(), e.what());
    return;
  }
  auto loaded = io::loadModelFromBytes(stripped, fs::path(path).parent_path().string(), label);
  if (!loaded) {
    ++t.skipped;
    return;
  }
  ++t.files;
  ir::Model& model = loaded->model;
  inferShapes(model);
  std::unordered_map<std::string, onnx::TypeProto> theirs;
  collectOnnx(proto.graph(), theirs);
  model.graph().forEachNodeRecursive([&](ir::Node* n) {
    for (const ir::Value* v : n->outputs()) {
      if (!v) continue;
      ++t.values;
      auto it = theirs.find(v->name());
      bool theyKnow = it != theirs.end() && it->second.has_tensor_type() &&
                      it->second.tensor_type().has_shape();
      bool weKnow = v->type().isTensor() && v->type().hasShape();
      if (!theyKnow) {
        ++(weKnow ? t.onlyOurs : t.neither);
        continue;
      }
      if (!weKnow) {
        ++t.onlyOnnx;
        continue;
      }
      ++t.bothShaped;
      bool same = false;
      std::string why = compare(v->type(), it->second, &same);
      if (why.empty()) {
        ++t.agreed;
        if (same) ++t.exactSame;
      } else {
        ++t.disagreed;
        ADD_FAILURE() << label << ": " << n->describe() << " output '" << v->name() << "': ours "
                      << v->type().toString() << ", onnx 1.12 differs (" << why << ")";
      }
    }
  });
}

void print(const char* what, const Totals& t) {
  std::printf(
      "%s: %zu files compared (%zu skipped, onnx threw on %zu); %zu node outputs: both shaped %zu, "
      "agreed %zu (identical %zu), disagreed %zu; only onnx %zu, only PassLab %zu, neither %zu\n",
      what, t.files, t.skipped, t.onnxThrew, t.values, t.bothShaped, t.agreed, t.exactSame,
      t.disagreed, t.onlyOnnx, t.onlyOurs, t.neither);
}

TEST(OnnxShapeCrossCheck, CorpusModels) {
  PASSLAB_REQUIRE_CORPUS();
  Totals t;
  for (const std::string& path : testing::corpusModels())
    crossCheck(path, fs::path(path).filename().string(), t);
  print("corpus models", t);
  EXPECT_GT(t.agreed, 1000u);
}

TEST(OnnxShapeCrossCheck, NodeTests) {
  PASSLAB_REQUIRE_CORPUS();
  std::string root = *testing::corpusDir() + "/onnx-node-tests";
  if (!fs::is_directory(root)) GTEST_SKIP() << "no onnx-node-tests in the corpus";
  std::vector<fs::path> dirs;
  for (const auto& e : fs::directory_iterator(root))
    if (fs::exists(e.path() / "model.onnx")) dirs.push_back(e.path());
  std::sort(dirs.begin(), dirs.end());
  Totals t;
  for (const fs::path& dir : dirs)
    crossCheck((dir / "model.onnx").string(), dir.filename().string(), t);
  print("onnx node tests", t);
  EXPECT_GT(t.files, 500u);
  EXPECT_GT(t.agreed, 500u);
}

}  // namespace
}  // namespace passlab::analysis
