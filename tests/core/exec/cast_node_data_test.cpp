// Cast and CastLike to the packed and 8-bit float types on the ONNX node test
// data of the corpus, compared byte for byte: the conformance runner's
// value comparison does not read these types, so this is their check.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "core/exec/executor.h"
#include "core/io/model_io.h"
#include "core/io/tensor_file.h"
#include "tests/support/test_support.h"

namespace passlab::exec {
namespace {

namespace fs = std::filesystem;

bool exotic(ir::DataType t) {
  using ir::DataType;
  switch (t) {
    case DataType::kFloat8E4M3FN:
    case DataType::kFloat8E4M3FNUZ:
    case DataType::kFloat8E5M2:
    case DataType::kFloat8E5M2FNUZ:
    case DataType::kFloat8E8M0:
    case DataType::kFloat4E2M1:
    case DataType::kInt4:
    case DataType::kUInt4:
    case DataType::kInt2:
    case DataType::kUInt2:
      return true;
    default:
      return false;
  }
}

std::vector<uint8_t> bytesOf(const ir::Tensor& t) {
  std::vector<uint8_t> out;
  for (std::byte b : t.bytes()) out.push_back(static_cast<uint8_t>(b));
  return out;
}

// Runs one node-test folder; "" when every output matches byte for byte.
std::string runCastTest(const fs::path& dir) {
  auto loaded = io::loadModel((dir / "model.onnx").string());
  if (!loaded) return loaded.error().message();
  const ir::Model& model = loaded->model;
  auto ex = Executor::create(model, {});
  if (!ex) return ex.error().message();
  const auto& ins = model.graph().inputs();
  const auto& outs = model.graph().outputs();
  fs::path set = dir / "test_data_set_0";
  NamedInputs feed;
  for (size_t i = 0; i < ins.size(); ++i) {
    auto t = io::readTensorFile((set / ("input_" + std::to_string(i) + ".pb")).string());
    if (!t) return t.error().message();
    feed.emplace_back(ins[i]->name(), Value(*t));
  }
  auto r = (*ex)->run(feed);
  if (!r) return r.error().message();
  for (size_t i = 0; i < outs.size(); ++i) {
    auto want = io::readTensorFile((set / ("output_" + std::to_string(i) + ".pb")).string());
    if (!want) return want.error().message();
    const ir::Tensor& got = r->outputs[i];
    if (got.dtype() != want->dtype()) return "element type differs";
    if (got.dims() != want->dims()) return "dims differ";
    std::vector<uint8_t> g = bytesOf(got), w = bytesOf(*want);
    // A packed tensor's unused trailing bits are not data.
    if (ir::dtypeBits(got.dtype()) < 8 && !g.empty() && g.size() == w.size()) {
      int64_t used = got.numel() * ir::dtypeBits(got.dtype()) % 8;
      if (used) {
        uint8_t mask = static_cast<uint8_t>((1u << used) - 1);
        g.back() &= mask;
        w.back() &= mask;
      }
    }
    if (g != w) {
      for (size_t k = 0; k < std::min(g.size(), w.size()); ++k)
        if (g[k] != w[k])
          return "byte " + std::to_string(k) + ": " + std::to_string(g[k]) + ", expected " +
                 std::to_string(w[k]);
      return "sizes differ";
    }
  }
  return "";
}

TEST(CastNodeData, ExoticTargetsMatchTheReferenceBytes) {
  PASSLAB_REQUIRE_CORPUS();
  fs::path root = fs::path(*testing::corpusDir()) / "onnx-node-tests";
  if (!fs::exists(root)) GTEST_SKIP() << "no onnx-node-tests in the corpus";
  std::vector<fs::path> dirs;
  for (const auto& e : fs::directory_iterator(root)) {
    std::string name = e.path().filename().string();
    if (name.rfind("test_cast", 0) == 0) dirs.push_back(e.path());
  }
  std::sort(dirs.begin(), dirs.end());
  int checked = 0;
  for (const fs::path& dir : dirs) {
    auto loaded = io::loadModel((dir / "model.onnx").string());
    ASSERT_TRUE(loaded) << loaded.error().message();
    bool any = false;
    for (const ir::Value* v : loaded->model.graph().outputs())
      any = any || exotic(v->type().elemType());
    if (!any) continue;
    ++checked;
    EXPECT_EQ(runCastTest(dir), "") << dir.filename().string();
  }
  EXPECT_GT(checked, 60);
}

}  // namespace
}  // namespace passlab::exec
