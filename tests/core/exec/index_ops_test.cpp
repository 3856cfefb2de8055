// OneHot, NonZero and Unique.
#include <gtest/gtest.h>

#include "tests/core/exec/kernel_test_util.h"

namespace passlab::exec {
namespace {

using kt::f32;
using kt::i64;

TEST(OneHot, NegativeAndOutOfRangeIndices) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 11]>
    main (int64[4] i, int64 d, float[2] v) => (float[4,3] y) { y = OneHot(i, d, v) })";
  auto r = testutil::runText(
      text, {{"i", i64({4}, {0, 2, -1, 5})}, {"d", i64({}, {3})}, {"v", f32({2}, {-1, 7})}});
  // -1 counts from the end; 5 is outside [-3, 3) and gives an all-off row.
  kt::expectNear(r.outputs[0], {7, -1, -1, -1, -1, 7, -1, -1, 7, -1, -1, -1});
  const char* axis0 = R"(<ir_version: 8, opset_import: ["" : 11]>
    main (float[2] i, float d, int64[2] v) => (int64[3,2] y) { y = OneHot <axis = 0> (i, d, v) })";
  r = testutil::runText(axis0,
                        {{"i", f32({2}, {1.7f, 0})}, {"d", f32({}, {3})}, {"v", i64({2}, {0, 1})}});
  EXPECT_EQ(kt::values<int64_t>(r.outputs[0]), (std::vector<int64_t>{0, 1, 1, 0, 0, 0}));
  kt::expectError(text,
                  {{"i", i64({4}, {0, 2, -1, 5})}, {"d", i64({}, {0})}, {"v", f32({2}, {-1, 7})}},
                  {"depth must be positive"});
}

TEST(NonZero, CoordinatesInRowMajorOrder) {
  auto r = testutil::runText(R"(main (float[2,2] x) => (int64[2,3] y) { y = NonZero(x) })",
                             {{"x", f32({2, 2}, {1, 0, 1, 1})}});
  EXPECT_EQ(r.outputs[0].dims(), (kt::Dims{2, 3}));
  EXPECT_EQ(kt::values<int64_t>(r.outputs[0]), (std::vector<int64_t>{0, 1, 1, 0, 0, 1}));
  r = testutil::runText(R"(main (bool[3] x) => (int64[1,0] y) { y = NonZero(x) })",
                        {{"x", kt::b8({3}, {0, 0, 0})}});
  EXPECT_EQ(r.outputs[0].dims(), (kt::Dims{1, 0}));
}

TEST(Unique, SortedAndUnsorted) {
  const char* sorted = R"(<ir_version: 8, opset_import: ["" : 11]>
    main (float[6] x) => (float[4] y, int64[4] i, int64[6] inv, int64[4] c) { y, i, inv, c = Unique(x) })";
  auto r = testutil::runText(sorted, {{"x", f32({6}, {2, 1, 1, 3, 4, 3})}});
  kt::expectNear(r.outputs[0], {1, 2, 3, 4});
  EXPECT_EQ(kt::values<int64_t>(r.outputs[1]), (std::vector<int64_t>{1, 0, 3, 4}));
  EXPECT_EQ(kt::values<int64_t>(r.outputs[2]), (std::vector<int64_t>{1, 0, 0, 2, 3, 2}));
  EXPECT_EQ(kt::values<int64_t>(r.outputs[3]), (std::vector<int64_t>{2, 1, 2, 1}));
  const char* unsorted = R"(<ir_version: 8, opset_import: ["" : 11]>
    main (float[6] x) => (float[4] y, int64[4] i, int64[6] inv, int64[4] c) {
      y, i, inv, c = Unique <sorted = 0> (x)
    })";
  r = testutil::runText(unsorted, {{"x", f32({6}, {2, 1, 1, 3, 4, 3})}});
  kt::expectNear(r.outputs[0], {2, 1, 3, 4});
  EXPECT_EQ(kt::values<int64_t>(r.outputs[1]), (std::vector<int64_t>{0, 1, 3, 4}));
  EXPECT_EQ(kt::values<int64_t>(r.outputs[2]), (std::vector<int64_t>{0, 1, 1, 2, 3, 2}));
  EXPECT_EQ(kt::values<int64_t>(r.outputs[3]), (std::vector<int64_t>{1, 2, 2, 1}));
}

TEST(Unique, AlongAnAxisAndStrings) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 11]>
    main (int64[3,3] x) => (int64[2,3] y, int64[2] i, int64[3] inv, int64[2] c) {
      y, i, inv, c = Unique <axis = 0> (x)
    })";
  auto r = testutil::runText(text, {{"x", i64({3, 3}, {1, 0, 0, 1, 0, 0, 2, 3, 4})}});
  EXPECT_EQ(kt::values<int64_t>(r.outputs[0]), (std::vector<int64_t>{1, 0, 0, 2, 3, 4}));
  EXPECT_EQ(kt::values<int64_t>(r.outputs[2]), (std::vector<int64_t>{0, 0, 1}));
  EXPECT_EQ(kt::values<int64_t>(r.outputs[3]), (std::vector<int64_t>{2, 1}));
  auto s = testutil::runText(R"(<ir_version: 8, opset_import: ["" : 11]>
    main (string[4] x) => (string[3] y) { y = Unique(x) })",
                             {{"x", kt::strs({4}, {"b", "a", "b", "c"})}});
  EXPECT_EQ(kt::strings(s.outputs[0]), (std::vector<std::string>{"a", "b", "c"}));
}

}  // namespace
}  // namespace passlab::exec
