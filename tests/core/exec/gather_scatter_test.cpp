// GatherElements, GatherND, ScatterElements, ScatterND and Scatter: known
// results, negative indices, reductions, strings, empty tensors, and
// out-of-range indices reported with the index and the range.
#include <gtest/gtest.h>

#include "tests/core/exec/kernel_test_util.h"

namespace passlab::exec {
namespace {

using kt::f32;
using kt::i64;

TEST(GatherElements, PicksAlongTheAxisWithNegativeIndices) {
  const char* text = R"(
    main (float[2,2] d, int64[2,2] i) => (float[2,2] y) { y = GatherElements <axis = 1> (d, i) })";
  auto r = testutil::runText(
      text, {{"d", f32({2, 2}, {1, 2, 3, 4})}, {"i", i64({2, 2}, {-1, 0, 0, -2})}});
  kt::expectNear(r.outputs[0], {2, 1, 3, 3});
  auto r2 = testutil::runText(
      R"(main (float[3,2] d, int64[2,2] i) => (float[2,2] y) { y = GatherElements <axis = -2> (d, i) })",
      {{"d", f32({3, 2}, {1, 2, 3, 4, 5, 6})}, {"i", i64({2, 2}, {2, 0, 1, 2})}});
  kt::expectNear(r2.outputs[0], {5, 2, 3, 6});
}

TEST(GatherElements, OutOfRangeIndexIsAnError) {
  const char* text = R"(
    main (float[2,2] d, int64[1,2] i) => (float[1,2] y) { y = GatherElements <axis = 0> (d, i) })";
  kt::expectError(text, {{"d", f32({2, 2}, {1, 2, 3, 4})}, {"i", i64({1, 2}, {0, 2})}},
                  {"index 2 is out of range [-2, 2)", "GatherElements"});
}

TEST(GatherElements, EmptyIndices) {
  const char* text = R"(
    main (float[2,2] d, int64[2,0] i) => (float[2,0] y) { y = GatherElements <axis = 1> (d, i) })";
  auto r = testutil::runText(text, {{"d", f32({2, 2}, {1, 2, 3, 4})}, {"i", i64({2, 0}, {})}});
  EXPECT_EQ(r.outputs[0].dims(), (kt::Dims{2, 0}));
}

TEST(GatherND, TuplesSlicesAndBatchDims) {
  auto r = testutil::runText(
      R"(main (int64[2,2] d, int64[2,2] i) => (int64[2] y) { y = GatherND(d, i) })",
      {{"d", i64({2, 2}, {0, 1, 2, 3})}, {"i", i64({2, 2}, {0, 0, 1, 1})}});
  EXPECT_EQ(kt::values<int64_t>(r.outputs[0]), (std::vector<int64_t>{0, 3}));
  r = testutil::runText(
      R"(main (int64[2,2] d, int64[2,1] i) => (int64[2,2] y) { y = GatherND(d, i) })",
      {{"d", i64({2, 2}, {0, 1, 2, 3})}, {"i", i64({2, 1}, {1, -2})}});
  EXPECT_EQ(kt::values<int64_t>(r.outputs[0]), (std::vector<int64_t>{2, 3, 0, 1}));
  r = testutil::runText(
      R"(main (int64[2,2,2] d, int64[2,1] i) => (int64[2,2] y) { y = GatherND <batch_dims = 1> (d, i) })",
      {{"d", i64({2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7})}, {"i", i64({2, 1}, {1, 0})}});
  EXPECT_EQ(kt::values<int64_t>(r.outputs[0]), (std::vector<int64_t>{2, 3, 4, 5}));
}

TEST(GatherND, StringsAndOutOfRange) {
  auto r = testutil::runText(
      R"(main (string[2,2] d, int64[1,2] i) => (string[1] y) { y = GatherND(d, i) })",
      {{"d", kt::strs({2, 2}, {"a", "b", "c", "d"})}, {"i", i64({1, 2}, {1, 0})}});
  EXPECT_EQ(kt::strings(r.outputs[0]), (std::vector<std::string>{"c"}));
  kt::expectError(R"(main (int64[2,2] d, int64[1,2] i) => (int64[1] y) { y = GatherND(d, i) })",
                  {{"d", i64({2, 2}, {0, 1, 2, 3})}, {"i", i64({1, 2}, {0, 5})}},
                  {"index 5 is out of range [-2, 2)"});
}

TEST(ScatterElements, NoneAndReductions) {
  const char* none = R"(<ir_version: 8, opset_import: ["" : 18]>
    main (float[1,5] d, int64[1,2] i, float[1,2] u) => (float[1,5] y) {
      y = ScatterElements <axis = 1> (d, i, u)
    })";
  NamedInputs in = {{"d", f32({1, 5}, {1, 2, 3, 4, 5})},
                    {"i", i64({1, 2}, {1, 3})},
                    {"u", f32({1, 2}, {1.1f, 2.1f})}};
  kt::expectNear(testutil::runText(none, in).outputs[0], {1, 1.1f, 3, 2.1f, 5});
  auto withReduction = [&](const std::string& red) {
    std::string text = std::string(R"(<ir_version: 8, opset_import: ["" : 18]>
      main (float[1,5] d, int64[1,2] i, float[1,2] u) => (float[1,5] y) {
        y = ScatterElements <axis = 1, reduction = ")") +
                       red + R"("> (d, i, u)
      })";
    return testutil::runText(text, {{"d", f32({1, 5}, {1, 2, 3, 4, 5})},
                                    {"i", i64({1, 2}, {1, 1})},
                                    {"u", f32({1, 2}, {1.1f, 2.1f})}})
        .outputs[0];
  };
  kt::expectNear(withReduction("add"), {1, 5.2f, 3, 4, 5});
  kt::expectNear(withReduction("mul"), {1, 2 * 1.1f * 2.1f, 3, 4, 5});
  kt::expectNear(withReduction("max"), {1, 2.1f, 3, 4, 5});
  kt::expectNear(withReduction("min"), {1, 1.1f, 3, 4, 5});
}

TEST(ScatterElements, OutOfRangeAndOldScatter) {
  kt::expectError(
      R"(main (float[1,3] d, int64[1,1] i, float[1,1] u) => (float[1,3] y) {
                       y = ScatterElements <axis = 1> (d, i, u) })",
      {{"d", f32({1, 3}, {1, 2, 3})}, {"i", i64({1, 1}, {-4})}, {"u", f32({1, 1}, {9})}},
      {"index -4 is out of range [-3, 3)"});
  auto r = testutil::runText(R"(<ir_version: 8, opset_import: ["" : 9]>
    main (float[3,3] d, int64[2,3] i, float[2,3] u) => (float[3,3] y) { y = Scatter(d, i, u) })",
                             {{"d", f32({3, 3}, {0, 0, 0, 0, 0, 0, 0, 0, 0})},
                              {"i", i64({2, 3}, {1, 0, 2, 0, 2, 1})},
                              {"u", f32({2, 3}, {1, 1.1f, 1.2f, 2, 2.1f, 2.2f})}});
  kt::expectNear(r.outputs[0], {2, 1.1f, 0, 1, 0, 2.2f, 0, 2.1f, 1.2f});
}

TEST(ScatterND, SlicesAndReduction) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 18]>
    main (float[8] d, int64[4,1] i, float[4] u) => (float[8] y) { y = ScatterND(d, i, u) })";
  auto r = testutil::runText(text, {{"d", f32({8}, {1, 2, 3, 4, 5, 6, 7, 8})},
                                    {"i", i64({4, 1}, {4, 3, 1, 7})},
                                    {"u", f32({4}, {9, 10, 11, 12})}});
  kt::expectNear(r.outputs[0], {1, 11, 3, 10, 9, 6, 7, 12});
  const char* mul = R"(<ir_version: 8, opset_import: ["" : 18]>
    main (float[2,2] d, int64[2,1] i, float[2,2] u) => (float[2,2] y) {
      y = ScatterND <reduction = "mul"> (d, i, u)
    })";
  r = testutil::runText(mul, {{"d", f32({2, 2}, {1, 2, 3, 4})},
                              {"i", i64({2, 1}, {0, 0})},
                              {"u", f32({2, 2}, {2, 3, 4, 5})}});
  kt::expectNear(r.outputs[0], {8, 30, 3, 4});
  kt::expectError(text,
                  {{"d", f32({8}, {1, 2, 3, 4, 5, 6, 7, 8})},
                   {"i", i64({4, 1}, {4, 3, 8, 7})},
                   {"u", f32({4}, {9, 10, 11, 12})}},
                  {"index 8 is out of range [-8, 8)"});
}

}  // namespace
}  // namespace passlab::exec
