// .npy files: what is written reads back, a write replaces the file instead
// of writing into it (a hard link to the old file keeps its bytes: an input
// saved by an earlier run is not overwritten through it), and an element type
// .npy cannot hold is an "unsupported" error with no file left behind.
#include "core/io/npy.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/support/test_support.h"

namespace passlab::io {
namespace {

namespace fs = std::filesystem;

std::string bytesOf(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> namesIn(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(Npy, WhatIsWrittenReadsBack) {
  const fs::path dir = testing::tempDir();
  const auto f =
      ir::Tensor::fromVector<float>(ir::DataType::kFloat, {2, 3}, {1, -2, 3.5f, 0, 7, -1e-3f});
  const auto b = ir::Tensor::fromVector<uint8_t>(ir::DataType::kBool, {3}, {1, 0, 1});
  ASSERT_TRUE(writeNpy((dir / "f.npy").string(), f).isOk());
  ASSERT_TRUE(writeNpy((dir / "b.npy").string(), b).isOk());
  auto rf = readNpy((dir / "f.npy").string());
  auto rb = readNpy((dir / "b.npy").string());
  ASSERT_TRUE(rf && rb);
  EXPECT_EQ(rf->dims(), f.dims());
  EXPECT_EQ(rf->bytes().size(), f.bytes().size());
  EXPECT_TRUE(std::equal(f.bytes().begin(), f.bytes().end(), rf->bytes().begin()));
  EXPECT_EQ(rb->dtype(), ir::DataType::kBool);
  EXPECT_TRUE(std::equal(b.bytes().begin(), b.bytes().end(), rb->bytes().begin()));
  EXPECT_EQ(namesIn(dir), (std::vector<std::string>{"b.npy", "f.npy"}));  // no temporary left
}

TEST(Npy, AWriteReplacesTheFileAndLeavesItsOtherLinksAlone) {
  const fs::path dir = testing::tempDir();
  const auto old = ir::Tensor::fromVector<float>(ir::DataType::kFloat, {2}, {1, 2});
  ASSERT_TRUE(writeNpy((dir / "input.npy").string(), old).isOk());
  const std::string before = bytesOf(dir / "input.npy");
  fs::create_hard_link(dir / "input.npy", dir / "saved.npy");
  const auto fresh = ir::Tensor::fromVector<float>(ir::DataType::kFloat, {3}, {4, 5, 6});
  ASSERT_TRUE(writeNpy((dir / "saved.npy").string(), fresh).isOk());
  EXPECT_EQ(bytesOf(dir / "input.npy"), before);
  auto back = readNpy((dir / "saved.npy").string());
  ASSERT_TRUE(back);
  EXPECT_EQ(back->dims(), (std::vector<int64_t>{3}));
  EXPECT_EQ(namesIn(dir), (std::vector<std::string>{"input.npy", "saved.npy"}));
}

TEST(Npy, ATypeNpyCannotHoldIsUnsupportedAndWritesNothing) {
  const fs::path dir = testing::tempDir();
  const auto bf16 = ir::Tensor::fromVector<uint16_t>(ir::DataType::kBFloat16, {1}, {0x3f80});
  Status s = writeNpy((dir / "x.npy").string(), bf16);
  ASSERT_FALSE(s.isOk());
  EXPECT_EQ(s.error().code(), ErrorCode::kUnsupported);
  EXPECT_NE(s.message().find("bfloat16"), std::string::npos) << s.message();
  EXPECT_TRUE(namesIn(dir).empty());
}

TEST(Npy, AFolderThatDoesNotExistIsAnIoError) {
  const fs::path dir = testing::tempDir();
  const auto f = ir::Tensor::fromVector<float>(ir::DataType::kFloat, {1}, {1});
  Status s = writeNpy((dir / "missing" / "x.npy").string(), f);
  ASSERT_FALSE(s.isOk());
  EXPECT_EQ(s.error().code(), ErrorCode::kIo);
  EXPECT_NE(s.message().find("missing"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace passlab::io
