// Bad input gets one clear message naming the file and the problem, never a
// crash; recoverable oddities of real files are repaired and reported.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "core/io/model_io.h"
#include "core/ir/op_schema.h"
#include "tests/support/proto_builder.h"
#include "tests/support/test_support.h"

namespace passlab::io {
namespace {

using testing::node;
using testing::ProtoBuilder;
using testing::valueInfo;
namespace f = testing::onnxf;

std::string writeFile(const std::string& dir, const std::string& name, const std::string& bytes) {
  std::string path = dir + "/" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

// A valid one-node model: y = Relu(x).
std::string validModel() {
  ProtoBuilder g;
  g.message(f::kNode, node("Relu", {"x"}, {"y"})).bytes(f::kGraphName, "g");
  g.message(f::kInput, valueInfo("x", {2})).message(f::kOutput, valueInfo("y", {2}));
  return testing::model(g);
}

// Loads `bytes` from a file and expects failure mentioning the path and every fragment.
void expectRejected(const std::string& bytes, std::vector<std::string> fragments) {
  std::string path = writeFile(testing::tempDir(), "model.onnx", bytes);
  auto r = loadModel(path);
  ASSERT_FALSE(r) << "loaded a bad model";
  const std::string& msg = r.error().message();
  EXPECT_NE(msg.find(path), std::string::npos) << "message does not name the file: " << msg;
  for (const auto& frag : fragments)
    EXPECT_NE(msg.find(frag), std::string::npos) << "missing '" << frag << "' in: " << msg;
}

TEST(BadInput, ValidModelLoads) {
  std::string path = writeFile(testing::tempDir(), "ok.onnx", validModel());
  auto r = loadModel(path);
  ASSERT_TRUE(r) << r.error().message();
  EXPECT_EQ(r->model.graph().nodeCount(), 1u);
}

TEST(BadInput, EmptyFile) {
  expectRejected("", {"empty"});
}

TEST(BadInput, TruncatedFile) {
  std::string bytes = validModel();
  expectRejected(bytes.substr(0, bytes.size() * 2 / 3), {"truncated"});
}

TEST(BadInput, RandomBytes) {
  std::mt19937 rng(42);
  for (int trial = 0; trial < 20; ++trial) {
    std::string bytes(1000, '\0');
    for (char& c : bytes) c = static_cast<char>(rng());
    std::string path = writeFile(testing::tempDir(), "random.onnx", bytes);
    auto r = loadModel(path);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message().find(path), std::string::npos);
  }
}

TEST(BadInput, NonOnnxProtobuf) {
  // A lone TensorProto, as found in test_data_set folders.
  ProtoBuilder tensor;
  tensor.varint(f::kDims, 2)
      .varint(f::kDataType, 1)
      .bytes(f::kTensorName, "x")
      .bytes(f::kRawData, std::string(8, '\0'));
  expectRejected(tensor.str(), {"not an ONNX model"});
}

TEST(BadInput, MissingFileAndFolder) {
  auto r = loadModel("/nonexistent/dir/model.onnx");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message().find("/nonexistent/dir/model.onnx"), std::string::npos);
  std::string dir = testing::tempDir();
  auto d = loadModel(dir);
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().message().find("folder"), std::string::npos) << d.error().message();
}

TEST(BadInput, Cycle) {
  ProtoBuilder g;
  g.message(f::kNode, node("Add", {"x", "b"}, {"a"}, "first"));
  g.message(f::kNode, node("Relu", {"a"}, {"b"}, "second"));
  g.message(f::kNode, node("Relu", {"a"}, {"y"}));
  g.message(f::kInput, valueInfo("x", {2})).message(f::kOutput, valueInfo("y", {2}));
  expectRejected(testing::model(g), {"cycle", "first", "second"});
}

TEST(BadInput, UndefinedValue) {
  ProtoBuilder g;
  g.message(f::kNode, node("Add", {"x", "ghost"}, {"y"}, "adder"));
  g.message(f::kInput, valueInfo("x", {2})).message(f::kOutput, valueInfo("y", {2}));
  expectRejected(testing::model(g), {"ghost", "adder"});
}

TEST(BadInput, DuplicateValueNames) {
  ProtoBuilder g;
  g.message(f::kNode, node("Relu", {"x"}, {"y"}, "one"));
  g.message(f::kNode, node("Neg", {"x"}, {"y"}, "two"));
  g.message(f::kInput, valueInfo("x", {2})).message(f::kOutput, valueInfo("y", {2}));
  expectRejected(testing::model(g), {"'y'", "defined twice"});
}

TEST(BadInput, DuplicateGraphInput) {
  ProtoBuilder g;
  g.message(f::kNode, node("Relu", {"x"}, {"y"}));
  g.message(f::kInput, valueInfo("x", {2})).message(f::kInput, valueInfo("x", {2}));
  g.message(f::kOutput, valueInfo("y", {2}));
  expectRejected(testing::model(g), {"'x'", "twice"});
}

// A model whose initializer "w" (float[4]) lives in external data at `location`.
std::string externalModel(const std::string& location, int64_t length = 16) {
  ProtoBuilder w;
  w.varint(f::kDims, 4).varint(f::kDataType, 1).bytes(f::kTensorName, "w");
  w.message(f::kExternalData, ProtoBuilder().bytes(f::kKey, "location").bytes(f::kValue, location));
  w.message(f::kExternalData,
            ProtoBuilder().bytes(f::kKey, "length").bytes(f::kValue, std::to_string(length)));
  w.varint(f::kDataLocation, 1);
  ProtoBuilder g;
  g.message(f::kNode, node("Add", {"x", "w"}, {"y"}));
  g.message(f::kInitializer, w);
  g.message(f::kInput, valueInfo("x", {4})).message(f::kOutput, valueInfo("y", {4}));
  return testing::model(g);
}

TEST(BadInput, ExternalDataLoadsWhenInsideTheFolder) {
  std::string dir = testing::tempDir();
  float values[4] = {1, 2, 3, 4};
  writeFile(dir, "weights.bin", std::string(reinterpret_cast<char*>(values), sizeof values));
  std::string path = writeFile(dir, "model.onnx", externalModel("weights.bin"));
  auto r = loadModel(path);
  ASSERT_TRUE(r) << r.error().message();
  const ir::Tensor* w = r->model.graph().findValue("w")->initializer();
  ASSERT_NE(w, nullptr);
  EXPECT_TRUE(w->buffer()->isMapped());
  EXPECT_EQ(w->data<float>()[3], 4.0f);
}

TEST(BadInput, ExternalDataAbsolutePath) {
  expectRejected(externalModel("/etc/passwd"), {"/etc/passwd", "absolute"});
}

TEST(BadInput, ExternalDataDotDot) {
  expectRejected(externalModel("../secret.bin"), {"'..'"});
}

TEST(BadInput, ExternalDataSymlinkOutOfFolder) {
  std::string outside = testing::tempDir();
  float values[4] = {1, 2, 3, 4};
  std::string target =
      writeFile(outside, "secret.bin", std::string(reinterpret_cast<char*>(values), sizeof values));
  std::string dir = testing::tempDir();
  ASSERT_EQ(symlink(target.c_str(), (dir + "/link.bin").c_str()), 0);
  std::string path = writeFile(dir, "model.onnx", externalModel("link.bin"));
  auto r = loadModel(path);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message().find("outside the model's folder"), std::string::npos)
      << r.error().message();
}

TEST(BadInput, ExternalDataShorterThanDeclared) {
  std::string dir = testing::tempDir();
  writeFile(dir, "weights.bin", std::string(8, '\0'));  // 8 of 16 bytes
  std::string path = writeFile(dir, "model.onnx", externalModel("weights.bin"));
  auto r = loadModel(path);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message().find("shorter than declared"), std::string::npos)
      << r.error().message();
  EXPECT_NE(r.error().message().find(path), std::string::npos);
}

TEST(BadInput, InitializerDimsOverflow) {
  ProtoBuilder w;
  w.varint(f::kDims, uint64_t{1} << 40)
      .varint(f::kDims, uint64_t{1} << 40)
      .varint(f::kDataType, 1)
      .bytes(f::kTensorName, "w");
  ProtoBuilder g;
  g.message(f::kNode, node("Relu", {"w"}, {"y"}));
  g.message(f::kInitializer, w).message(f::kOutput, valueInfo("y", {2}));
  expectRejected(testing::model(g), {"'w'", "overflows 64 bits"});
}

TEST(BadInput, InputDimsOverflow) {
  ProtoBuilder g;
  g.message(f::kNode, node("Relu", {"x"}, {"y"}));
  g.message(f::kInput, valueInfo("x", {int64_t{1} << 40, int64_t{1} << 40}));
  g.message(f::kOutput, valueInfo("y", {2}));
  expectRejected(testing::model(g), {"'x'", "overflows 64 bits"});
}

TEST(BadInput, InitializerWithWrongByteCount) {
  ProtoBuilder w;
  w.varint(f::kDims, 4)
      .varint(f::kDataType, 1)
      .bytes(f::kTensorName, "w")
      .bytes(f::kRawData, std::string(10, '\0'));
  ProtoBuilder g;
  g.message(f::kNode, node("Relu", {"w"}, {"y"}));
  g.message(f::kInitializer, w).message(f::kOutput, valueInfo("y", {4}));
  expectRejected(testing::model(g), {"'w'", "10 bytes", "needs 16"});
}

TEST(BadInput, NewerOpsetLoadsWithUnknownOpsMarked) {
  ProtoBuilder g;
  g.message(f::kNode, node("FutureOp", {"x"}, {"t"}));
  g.message(f::kNode, node("Relu", {"t"}, {"y"}));
  g.message(f::kInput, valueInfo("x", {2})).message(f::kOutput, valueInfo("y", {2}));
  std::string path = writeFile(testing::tempDir(), "future.onnx", testing::model(g, 99));
  auto r = loadModel(path);
  ASSERT_TRUE(r) << r.error().message();
  ASSERT_FALSE(r->report.warnings.empty());
  EXPECT_NE(r->report.warnings[0].find("newer than PassLab knows"), std::string::npos)
      << r->report.warnings[0];
  const auto& reg = ir::OpRegistry::instance();
  EXPECT_EQ(reg.find("", "FutureOp", 99), nullptr);
  EXPECT_NE(reg.find("", "Relu", 99), nullptr);  // known ops still resolve to their latest version
}

TEST(Repairs, ReportedAndRefusedWhenRepairIsOff) {
  // Unsorted nodes, "ai.onnx" spelled out, and a contrib domain without import.
  ProtoBuilder g;
  g.message(f::kNode, node("Relu", {"t"}, {"y"}));
  g.message(f::kNode, ProtoBuilder(node("Neg", {"x"}, {"t"})).bytes(7, "ai.onnx"));
  g.message(f::kNode, ProtoBuilder(node("FastGelu", {"x"}, {"z"})).bytes(7, "com.microsoft"));
  g.message(f::kInput, valueInfo("x", {2}))
      .message(f::kOutput, valueInfo("y", {2}))
      .message(f::kOutput, valueInfo("z", {2}));
  ProtoBuilder m;
  m.varint(f::kIrVersion, 7)
      .message(f::kOpsetImport, ProtoBuilder().bytes(f::kDomain, "ai.onnx").varint(f::kVersion, 13))
      .message(f::kGraph, g);
  std::string path = writeFile(testing::tempDir(), "repair.onnx", m.str());
  auto r = loadModel(path);
  ASSERT_TRUE(r) << r.error().message();
  std::string all;
  for (const auto& s : r->report.repairs) all += s + "\n";
  EXPECT_NE(all.find("topological order"), std::string::npos) << all;
  EXPECT_NE(all.find("'ai.onnx'"), std::string::npos) << all;
  EXPECT_NE(all.find("com.microsoft"), std::string::npos) << all;
  EXPECT_EQ(r->model.graph().nodes().front()->opType(), "Neg");
  EXPECT_EQ(*r->model.opsetVersion(""), 13);

  LoadOptions strict;
  strict.repair = false;
  auto s = loadModel(path, strict);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message().find("repair disabled"), std::string::npos) << s.error().message();
}

}  // namespace
}  // namespace passlab::io
