// Loading a model holds its weights once: the file is parsed chunk by chunk
// and each chunk's pages go back to the kernel behind the parser
// (core/io/mapped_file_stream.h).
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "core/io/mapped_file_stream.h"
#include "core/io/model_io.h"
#include "core/io/text_format.h"
#include "tests/support/test_support.h"

namespace passlab::io {
namespace {

// A /proc/self/status field in KiB ("VmRSS", "VmHWM"); -1 when missing.
int64_t statusKiB(const std::string& field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(field + ":", 0) == 0) return std::stoll(line.substr(field.size() + 1));
  return -1;
}

// The stream hands out the file's bytes in order, once each, across BackUp
// and Skip, in chunks of one page.
TEST(MappedFileStream, HandsOutTheFileInOrderAcrossBackUpAndSkip) {
  const size_t page = 4096;
  std::string bytes(3 * page + 100, '\0');
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 7 % 251);
  const std::string path = testing::tempDir() + "/stream.bin";
  std::ofstream(path, std::ios::binary) << bytes;
  auto file = MappedFile::open(path);
  ASSERT_TRUE(file);
  MappedFileStream s(**file, 1);  // one page per chunk
  std::string got;
  const void* d = nullptr;
  int n = 0;
  ASSERT_TRUE(s.Next(&d, &n));
  EXPECT_GE(static_cast<size_t>(n), page);
  got.append(static_cast<const char*>(d), static_cast<size_t>(n) - 10);
  s.BackUp(10);
  EXPECT_EQ(s.ByteCount(), static_cast<int64_t>(got.size()));
  ASSERT_TRUE(s.Next(&d, &n));
  got.append(static_cast<const char*>(d), static_cast<size_t>(n));
  ASSERT_TRUE(s.Skip(5));
  got.append(bytes.substr(got.size(), 5));
  while (s.Next(&d, &n)) got.append(static_cast<const char*>(d), static_cast<size_t>(n));
  EXPECT_EQ(got, bytes);  // the released pages read the same
  EXPECT_EQ(s.ByteCount(), static_cast<int64_t>(bytes.size()));
  EXPECT_FALSE(s.Skip(1));
}

// A model with a 32 MiB initializer: loading it raises the peak resident
// memory by about the weights once. Parsed over the whole mapping at once,
// the file's pages and the parsed copy were resident together (2x).
TEST(LoadMemory, AModelsWeightsAreResidentOnceWhileLoading) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "resident memory is the sanitizer's here (shadow memory, quarantine)";
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
  GTEST_SKIP() << "resident memory is the sanitizer's here (shadow memory, quarantine)";
#endif
#endif
  const int64_t n = int64_t{8} << 20;  // 8 Mi floats
  const std::string path = testing::tempDir() + "/weights.onnx";
  {
    ir::Model m = testing::parse("main (float[N] x) => (float[N] y) { y = Relu(x) }");
    std::vector<float> w(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) w[static_cast<size_t>(i)] = static_cast<float>(i % 1000);
    auto& g = m.graph();
    ir::Value* wv = g.addInitializer("w", ir::Tensor::fromVector(ir::DataType::kFloat, {n}, w));
    g.addOutput(g.addNode("Add", "", {g.findValue("y"), wv}, {"z"})->output(0));
    ASSERT_TRUE(saveModel(m, path));
  }
  std::ofstream reset("/proc/self/clear_refs");
  if (!(reset << "5" << std::flush) || statusKiB("VmHWM") < 0)
    GTEST_SKIP() << "cannot reset the peak resident memory here (/proc/self/clear_refs)";
  reset.close();
  const int64_t before = statusKiB("VmRSS");
  auto r = loadModel(path);
  ASSERT_TRUE(r) << r.error().message();
  const int64_t grew = statusKiB("VmHWM") - before;
  const int64_t weights = n * 4 / 1024;
  EXPECT_LT(grew, weights * 13 / 10)
      << "peak grew by " << grew << " KiB for " << weights << " KiB of weights";
  const ir::Tensor* w = r->model.graph().findValue("w")->initializer();
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->data<float>()[static_cast<size_t>(n - 1)], static_cast<float>((n - 1) % 1000));
}

}  // namespace
}  // namespace passlab::io
