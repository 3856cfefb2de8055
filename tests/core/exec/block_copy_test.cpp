// Split (every opset form), Tile, Compress, ReverseSequence, CenterCropPad and Trilu.
#include <gtest/gtest.h>

#include "tests/core/exec/kernel_test_util.h"
#include "tests/core/exec/op_test_util.h"

namespace passlab::exec {
namespace {

using kt::f32;
using kt::i64;

std::vector<float> iota(int n) {
  std::vector<float> v;
  for (int i = 0; i < n; ++i) v.push_back(static_cast<float>(i + 1));
  return v;
}

TEST(Split, NumOutputsGivesASmallerLastChunk) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 18]>
    main (float[7] x) => (float[3] a, float[3] b, float[1] c) { a, b, c = Split <num_outputs = 3> (x) })";
  auto r = testutil::runText(text, {{"x", f32({7}, iota(7))}});
  kt::expectNear(r.outputs[0], {1, 2, 3});
  kt::expectNear(r.outputs[1], {4, 5, 6});
  kt::expectNear(r.outputs[2], {7});
}

TEST(Split, LengthsFromInputAttributeOrEqualParts) {
  const char* v13 = R"(<ir_version: 8, opset_import: ["" : 13]>
    main (float[2,3] x, int64[2] s) => (float[2,1] a, float[2,2] b) { a, b = Split <axis = -1> (x, s) })";
  auto r = testutil::runText(v13, {{"x", f32({2, 3}, iota(6))}, {"s", i64({2}, {1, 2})}});
  kt::expectNear(r.outputs[0], {1, 4});
  kt::expectNear(r.outputs[1], {2, 3, 5, 6});
  const char* v11 = R"(<ir_version: 8, opset_import: ["" : 11]>
    main (float[6] x) => (float[2] a, float[4] b) { a, b = Split <split = [2, 4]> (x) })";
  r = testutil::runText(v11, {{"x", f32({6}, iota(6))}});
  kt::expectNear(r.outputs[1], {3, 4, 5, 6});
  const char* equal = R"(<ir_version: 8, opset_import: ["" : 11]>
    main (float[6] x) => (float[3] a, float[3] b) { a, b = Split(x) })";
  r = testutil::runText(equal, {{"x", f32({6}, iota(6))}});
  kt::expectNear(r.outputs[1], {4, 5, 6});
  kt::expectError(R"(<ir_version: 8, opset_import: ["" : 11]>
    main (float[5] x) => (float[2] a, float[3] b) { a, b = Split(x) })",
                  {{"x", f32({5}, iota(5))}}, {"does not split evenly into 2"});
  kt::expectError(v13, {{"x", f32({2, 3}, iota(6))}, {"s", i64({2}, {1, 1})}},
                  {"split [1,1] sums to 2", "has 3"});
}

TEST(Split, StringsAndEmptyParts) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 13]>
    main (string[3] x, int64[2] s) => (string[0] a, string[3] b) { a, b = Split(x, s) })";
  auto r =
      testutil::runText(text, {{"x", kt::strs({3}, {"p", "q", "r"})}, {"s", i64({2}, {0, 3})}});
  EXPECT_EQ(r.outputs[0].dims(), (kt::Dims{0}));
  EXPECT_EQ(kt::strings(r.outputs[1]), (std::vector<std::string>{"p", "q", "r"}));
}

// Concat and Split of rows of every small width (1 to 16 float32 or int64
// elements: the strided copies of 4 to 128 bytes, strided_copy.h) against
// the values placed by index: y[r][offset_i + k] = x_i[r][k], and back.
TEST(Split, ConcatAndSplitRowsOfEverySmallWidth) {
  const std::vector<int> widths = {1, 2, 3, 4, 5, 8, 16};
  const int rows = 37, total = 39;
  for (const char* type : {"float", "int64"}) {
    std::string ins, names, outs, splitOuts, lengths;
    for (size_t i = 0; i < widths.size(); ++i) {
      const std::string n = std::to_string(i),
                        shape = "[" + std::to_string(rows) + "," + std::to_string(widths[i]) + "]";
      ins += std::string(i ? ", " : "") + type + shape + " x" + n;
      names += std::string(i ? ", " : "") + "x" + n;
      outs += std::string(", ") + type + shape + " s" + n;
      splitOuts += std::string(i ? ", " : "") + "s" + n;
      lengths += std::string(i ? ", " : "") + std::to_string(widths[i]);
    }
    const std::string text = std::string(R"(<ir_version: 8, opset_import: ["" : 11]>
      main ()") + ins + ") => (" +
                             type + "[" + std::to_string(rows) + "," + std::to_string(total) +
                             "] y" + outs + ") { y = Concat <axis = 1> (" + names + ") " +
                             splitOuts + " = Split <axis = -1, split = [" + lengths + "]> (y) }";
    NamedInputs feeds;
    std::vector<std::vector<int64_t>> parts;
    for (size_t i = 0; i < widths.size(); ++i) {
      std::vector<int64_t> v;
      for (int e = 0; e < rows * widths[i]; ++e)
        v.push_back(1000 * (static_cast<int64_t>(i) + 1) + e);
      parts.push_back(v);
      std::vector<float> f(v.begin(), v.end());
      feeds.emplace_back("x" + std::to_string(i), std::string(type) == "float"
                                                      ? f32({rows, widths[i]}, f)
                                                      : i64({rows, widths[i]}, v));
    }
    auto r = testutil::runText(text, feeds);
    ASSERT_EQ(r.outputs.size(), widths.size() + 1) << type;
    auto valueAt = [&](const ir::Tensor& t, int64_t i) {
      return std::string(type) == "float" ? static_cast<int64_t>(t.data<float>()[i])
                                          : t.data<int64_t>()[i];
    };
    int bad = 0;
    for (int row = 0; row < rows; ++row) {
      int offset = 0;
      for (size_t i = 0; i < widths.size(); ++i) {
        for (int k = 0; k < widths[i]; ++k) {
          const int64_t want = parts[i][static_cast<size_t>(row * widths[i] + k)];
          if (valueAt(r.outputs[0], row * total + offset + k) != want && ++bad < 5)
            ADD_FAILURE() << type << " Concat row " << row << " part " << i << " element " << k;
          if (valueAt(r.outputs[i + 1], row * widths[i] + k) != want && ++bad < 5)
            ADD_FAILURE() << type << " Split row " << row << " part " << i << " element " << k;
        }
        offset += widths[i];
      }
    }
  }
}

TEST(Tile, RepeatsEveryDim) {
  auto r =
      testutil::runText(R"(main (float[1,2] x, int64[2] n) => (float[2,4] y) { y = Tile(x, n) })",
                        {{"x", f32({1, 2}, {1, 2})}, {"n", i64({2}, {2, 2})}});
  kt::expectNear(r.outputs[0], {1, 2, 1, 2, 1, 2, 1, 2});
  r = testutil::runText(R"(main (string[2] x, int64[1] n) => (string[4] y) { y = Tile(x, n) })",
                        {{"x", kt::strs({2}, {"a", "b"})}, {"n", i64({1}, {2})}});
  EXPECT_EQ(kt::strings(r.outputs[0]), (std::vector<std::string>{"a", "b", "a", "b"}));
  kt::expectError(R"(main (float[1,2] x, int64[1] n) => (float[2,4] y) { y = Tile(x, n) })",
                  {{"x", f32({1, 2}, {1, 2})}, {"n", i64({1}, {2})}},
                  {"repeats has 1 values for float[1,2]"});
}

// Tile against the index rule y[o] = x[o_d % X_d per dim], exactly, on
// shapes that collapse differently (unrepeated dims merged into the one
// before, size-1 dims dropped, a leading unrepeated dim, zero repeats), float32
// and uint8.
TEST(Tile, EqualsTheIndexRule) {
  struct Case {
    std::vector<int64_t> x, repeats;
  };
  const Case cases[] = {{{1, 8, 5, 6}, {1, 1, 2, 2}},
                        {{2, 3, 4}, {3, 1, 2}},
                        {{2, 3, 4}, {1, 1, 1}},
                        {{4, 5}, {2, 1}},
                        {{2, 1, 3}, {1, 4, 1}},
                        {{1, 1}, {1, 1}},
                        {{3}, {5}},
                        {{3, 2}, {0, 2}},
                        {{2, 3, 1, 2}, {2, 1, 3, 2}}};
  for (const Case& c : cases) {
    const size_t rank = c.x.size();
    std::vector<int64_t> out(rank);
    int64_t n = 1, m = 1;
    for (size_t d = 0; d < rank; ++d) {
      out[d] = c.x[d] * c.repeats[d];
      n *= c.x[d];
      m *= out[d];
    }
    std::vector<float> xv(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) xv[static_cast<size_t>(i)] = static_cast<float>(i * 3 + 1);
    std::vector<float> want(static_cast<size_t>(m));
    for (int64_t o = 0; o < m; ++o) {
      int64_t rest = o, src = 0, stride = 1;
      for (size_t d = rank; d-- > 0;) {
        src += (rest % out[d]) % c.x[d] * stride;
        rest /= out[d];
        stride *= c.x[d];
      }
      want[static_cast<size_t>(o)] = xv[static_cast<size_t>(src)];
    }
    const ir::Tensor reps = i64({static_cast<int64_t>(rank)}, c.repeats);
    const ir::Tensor r = optest::run1({"Tile", {f32(c.x, xv), reps}, {}, 13});
    ASSERT_EQ(r.dims(), out);
    auto got = r.data<float>();
    EXPECT_EQ(std::vector<float>(got.begin(), got.end()), want);
    std::vector<uint8_t> xb(xv.begin(), xv.end()), wantb(want.begin(), want.end());
    const ir::Tensor rb = optest::run1(
        {"Tile", {ir::Tensor::fromVector<uint8_t>(ir::DataType::kUInt8, c.x, xb), reps}, {}, 13});
    auto gotb = rb.data<uint8_t>();
    EXPECT_EQ(std::vector<uint8_t>(gotb.begin(), gotb.end()), wantb);
  }
}

TEST(Compress, AlongAnAxisAndFlattened) {
  auto r = testutil::runText(
      R"(main (float[3,2] x, bool[2] c) => (float[2,2] y) { y = Compress <axis = 0> (x, c) })",
      {{"x", f32({3, 2}, iota(6))}, {"c", kt::b8({2}, {0, 1})}});
  kt::expectNear(r.outputs[0], {3, 4});
  r = testutil::runText(R"(main (float[3,2] x, bool[5] c) => (float[2] y) { y = Compress(x, c) })",
                        {{"x", f32({3, 2}, iota(6))}, {"c", kt::b8({5}, {0, 1, 0, 0, 1})}});
  kt::expectNear(r.outputs[0], {2, 5});
  kt::expectError(
      R"(main (float[3,2] x, bool[4] c) => (float[2,2] y) { y = Compress <axis = -1> (x, c) })",
      {{"x", f32({3, 2}, iota(6))}, {"c", kt::b8({4}, {1, 1, 1, 1})}},
      {"condition has 4 values, more than the 2 of axis 1"});
}

TEST(ReverseSequence, TimeMajorAndBatchMajor) {
  // The spec's examples.
  auto r =
      testutil::runText(R"(<ir_version: 8, opset_import: ["" : 10]>
    main (float[4,4] x, int64[4] l) => (float[4,4] y) {
      y = ReverseSequence <time_axis = 0, batch_axis = 1> (x, l)
    })",
                        {{"x", f32({4, 4}, {0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15})},
                         {"l", i64({4}, {4, 3, 2, 1})}});
  kt::expectNear(r.outputs[0], {3, 6, 9, 12, 2, 5, 8, 13, 1, 4, 10, 14, 0, 7, 11, 15});
  r = testutil::runText(R"(<ir_version: 8, opset_import: ["" : 10]>
    main (float[4,4] x, int64[4] l) => (float[4,4] y) {
      y = ReverseSequence <time_axis = 1, batch_axis = 0> (x, l)
    })",
                        {{"x", f32({4, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})},
                         {"l", i64({4}, {1, 2, 3, 4})}});
  kt::expectNear(r.outputs[0], {0, 1, 2, 3, 5, 4, 6, 7, 10, 9, 8, 11, 15, 14, 13, 12});
}

TEST(CenterCropPad, CropsAndPadsAroundTheCenter) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 18]>
    main (float[3,2] x, int64[2] s) => (float[1,4] y) { y = CenterCropPad(x, s) })";
  // Rows: crop 3 -> 1 keeps row 1; columns: pad 2 -> 4 puts one zero on each side.
  auto r = testutil::runText(text, {{"x", f32({3, 2}, iota(6))}, {"s", i64({2}, {1, 4})}});
  kt::expectNear(r.outputs[0], {0, 3, 4, 0});
  const char* axes = R"(<ir_version: 8, opset_import: ["" : 18]>
    main (float[2,5] x, int64[1] s) => (float[2,2] y) { y = CenterCropPad <axes = [-1]> (x, s) })";
  r = testutil::runText(axes, {{"x", f32({2, 5}, iota(10))}, {"s", i64({1}, {2})}});
  kt::expectNear(r.outputs[0], {2, 3, 7, 8});
}

TEST(Trilu, UpperAndLowerWithK) {
  const char* upper = R"(<ir_version: 8, opset_import: ["" : 14]>
    main (float[3,3] x, int64 k) => (float[3,3] y) { y = Trilu(x, k) })";
  auto r = testutil::runText(upper, {{"x", f32({3, 3}, iota(9))}, {"k", i64({}, {1})}});
  kt::expectNear(r.outputs[0], {0, 2, 3, 0, 0, 6, 0, 0, 0});
  const char* lower = R"(<ir_version: 8, opset_import: ["" : 14]>
    main (float[2,3,3] x) => (float[2,3,3] y) { y = Trilu <upper = 0> (x) })";
  r = testutil::runText(lower, {{"x", f32({2, 3, 3}, iota(18))}});
  kt::expectNear(r.outputs[0], {1, 0, 0, 4, 5, 0, 7, 8, 9, 10, 0, 0, 13, 14, 0, 16, 17, 18});
  r = testutil::runText(upper, {{"x", f32({3, 3}, iota(9))}, {"k", i64({}, {-5})}});
  kt::expectNear(r.outputs[0], iota(9));
}

}  // namespace
}  // namespace passlab::exec
