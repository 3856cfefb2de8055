// Bad input gets a clear error naming what is wrong; the executor stays usable.
#include <gtest/gtest.h>

#include "tests/core/exec/exec_test_util.h"

namespace passlab::exec {
namespace {

using testutil::errorOf;
using testutil::floats;

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

const char* kAdd = R"(main (float[N,3] x, float[N,3] y) => (float[N,3] z) { [sum] z = Add(x, y) })";

TEST(BadInput, MissingInput) {
  std::string e = errorOf(kAdd, {{"x", floats({1, 3}, {1, 2, 3})}});
  EXPECT_TRUE(contains(e, "missing input 'y'")) << e;
}

TEST(BadInput, ExtraInput) {
  std::string e = errorOf(kAdd, {{"x", floats({1, 3}, {1, 2, 3})},
                                 {"y", floats({1, 3}, {1, 2, 3})},
                                 {"w", floats({1}, {1})}});
  EXPECT_TRUE(contains(e, "unknown input 'w'")) << e;
}

TEST(BadInput, WrongDtype) {
  std::string e =
      errorOf(kAdd, {{"x", floats({1, 3}, {1, 2, 3})}, {"y", testutil::int64s({1, 3}, {1, 2, 3})}});
  EXPECT_TRUE(contains(e, "input 'y' has element type int64")) << e;
}

TEST(BadInput, WrongShape) {
  std::string e = errorOf(kAdd, {{"x", floats({1, 3}, {1, 2, 3})}, {"y", floats({3}, {1, 2, 3})}});
  EXPECT_TRUE(contains(e, "input 'y' has shape [3]")) << e;
  e = errorOf(kAdd, {{"x", floats({1, 3}, {1, 2, 3})}, {"y", floats({1, 2}, {1, 2})}});
  EXPECT_TRUE(contains(e, "input 'y'")) << e;
}

TEST(BadInput, InconsistentSymbolicDim) {
  std::string e =
      errorOf(kAdd, {{"x", floats({1, 3}, {1, 2, 3})}, {"y", floats({2, 3}, {1, 2, 3, 4, 5, 6})}});
  EXPECT_TRUE(contains(e, "N = 2")) << e;
}

TEST(BadInput, UnsupportedOpNamesOpDomainOpsetAndNode) {
  ir::Model m = testutil::parseModel(
      R"(<ir_version: 8, opset_import: ["" : 17, "com.example" : 3]>
         main (float[2] x) => (float[2] y) { [weird] y = com.example.Frobnicate(x) })");
  auto ex = Executor::create(m, {});
  ASSERT_FALSE(ex);
  const std::string& e = ex.error().message();
  EXPECT_TRUE(contains(e, "Frobnicate")) << e;
  EXPECT_TRUE(contains(e, "com.example")) << e;
  EXPECT_TRUE(contains(e, "opset 3")) << e;
  EXPECT_TRUE(contains(e, "'weird'")) << e;
  EXPECT_EQ(ex.error().code(), ErrorCode::kUnsupported);
}

TEST(BadInput, KernelErrorNamesNodeAndLeavesExecutorUsable) {
  // Shapes that do not broadcast reach the kernel (the input dims are symbolic).
  ir::Model m = testutil::parseModel(
      R"(main (float[A] x, float[B] y) => (float[C] z) { [adder] z = Add(x, y) })");
  auto ex = Executor::create(m, {});
  ASSERT_TRUE(ex) << ex.error().message();
  auto bad = (*ex)->run({{"x", floats({2}, {1, 2})}, {"y", floats({3}, {1, 2, 3})}});
  ASSERT_FALSE(bad);
  EXPECT_TRUE(contains(bad.error().message(), "'adder'")) << bad.error().message();
  EXPECT_TRUE(contains(bad.error().message(), "do not broadcast")) << bad.error().message();
  auto good = (*ex)->run({{"x", floats({2}, {1, 2})}, {"y", floats({2}, {3, 4})}});
  ASSERT_TRUE(good) << good.error().message();
  testutil::expectNear(testutil::toFloats(good->outputs[0]), {4, 6});
}

TEST(BadInput, MemoryLimitNamesNode) {
  const char* text = R"(
    main (float[1024] x) => (float[1024] y) {
      [first] a = Neg(x)
      [second] b = Neg(a)
      [third] y = Add(a, b)
    })";
  RunOptions run;
  run.memoryLimitBytes = 6000;  // room for one 4 KiB tensor, not two
  std::string e = errorOf(text, {{"x", ir::Tensor(ir::DataType::kFloat, {1024})}}, run);
  EXPECT_TRUE(contains(e, "'second'")) << e;
  EXPECT_TRUE(contains(e, "memory limit")) << e;
}

TEST(BadInput, GatherIndexOutOfRangeNamesNode) {
  const char* text = R"(
    main (float[5,2] data, int64[2] idx) => (float[2,2] y) { [pick] y = Gather(data, idx) })";
  std::string e = errorOf(text, {{"data", ir::Tensor(ir::DataType::kFloat, {5, 2})},
                                 {"idx", testutil::int64s({2}, {1, 7})}});
  EXPECT_TRUE(contains(e, "'pick'")) << e;
  EXPECT_TRUE(contains(e, "index 7 is out of range")) << e;
  // Negative indices count from the end.
  EXPECT_EQ(errorOf(text, {{"data", ir::Tensor(ir::DataType::kFloat, {5, 2})},
                           {"idx", testutil::int64s({2}, {-1, -5})}}),
            "");
}

TEST(BadInput, KernelWithoutTheElementTypeIsNamed) {
  const char* text = R"(main (string[2] x) => (string[2] y) { [neg] y = Neg(x) })";
  std::string e = errorOf(text, {{"x", ir::Tensor::fromStrings({2}, {"a", "b"})}});
  EXPECT_TRUE(contains(e, "'neg'")) << e;
  EXPECT_TRUE(contains(e, "string")) << e;
}

}  // namespace
}  // namespace passlab::exec
