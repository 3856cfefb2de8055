#include "tests/support/test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "core/io/text_format.h"

namespace fs = std::filesystem;

namespace passlab::testing {

namespace {
std::optional<std::string> dirFrom(const char* env, const char* fallback) {
  const char* e = std::getenv(env);
  std::string dir = (e && *e) ? e : fallback;
  std::error_code ec;
  if (dir.empty() || !fs::is_directory(dir, ec)) return std::nullopt;
  return dir;
}
}  // namespace

std::optional<std::string> corpusDir() {
  return dirFrom("PASSLAB_CORPUS_DIR", PASSLAB_DEFAULT_CORPUS_DIR);
}

std::optional<std::string> onnxTestdataDir() {
  return dirFrom("PASSLAB_ONNX_TESTDATA_DIR", PASSLAB_DEFAULT_ONNX_TESTDATA_DIR);
}

std::vector<std::string> corpusModels() {
  std::vector<std::string> out;
  auto dir = corpusDir();
  if (!dir) return out;
  for (const auto& e : fs::directory_iterator(*dir + "/models"))
    if (e.path().extension() == ".onnx") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

namespace {
// Heap-allocated so that it outlives the atexit handler that removes it.
const std::string* tempRoot = nullptr;

void removeTempRoot() {
  if (!tempRoot || std::getenv("PASSLAB_KEEP_TEST_FILES")) return;
  std::error_code ec;
  fs::remove_all(*tempRoot, ec);
}

const std::string& makeTempRoot() {
  std::string pattern = (fs::temp_directory_path() / "passlab-test-XXXXXX").string();
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  if (!mkdtemp(buf.data())) throw std::runtime_error("cannot create a folder like " + pattern);
  tempRoot = new std::string(buf.data());
  std::atexit(removeTempRoot);
  return *tempRoot;
}
}  // namespace

std::string tempDir() {
  static const std::string& root = makeTempRoot();
  static int counter = 0;
  std::string dir = root + "/" + std::to_string(counter++);
  fs::create_directories(dir);
  return dir;
}

ir::Model parse(const std::string& text) {
  auto m = io::parseModelText(text);
  if (!m) {
    ADD_FAILURE() << "parse failed: " << m.error().message();
    return ir::Model();
  }
  return std::move(m.value());
}

int countOps(const ir::Model& m, const std::string& op) {
  int n = 0;
  for (const auto& node : m.graph().nodes()) n += node->opType() == op;
  return n;
}

const ir::Node* findOp(const ir::Model& m, const std::string& op) {
  for (const auto& node : m.graph().nodes())
    if (node->opType() == op) return node.get();
  return nullptr;
}

}  // namespace passlab::testing
