// The one sliding-window reference kernel: its indirection buffer, and
// instances the ONNX node tests do not reach (more than 3 spatial dims, a
// grouped dilated ConvTranspose against the Conv it transposes).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/exec/cpu/window_indirection.h"
#include "tests/core/exec/exec_test_util.h"

namespace passlab::exec {
namespace {

ExecutorOptions referenceOnly() {
  ExecutorOptions o;
  o.referenceKernels = true;
  return o;
}

TEST(WindowIndirection, PointsEachTapAtItsImageElementOrThePadding) {
  // 1-D image of 4, kernel 3, stride 2, pads 1 and 1: grid 2.
  ir::Window w;
  w.axes.push_back({.image = 4, .kernel = 3, .stride = 2, .padBegin = 1, .padEnd = 1, .grid = 2});
  cpu::Indirection ind = cpu::buildIndirection(w);
  EXPECT_EQ(ind.at, (std::vector<int64_t>{-1, 0, 1, 1, 2, 3}));
  EXPECT_EQ(ind.padded, (std::vector<int64_t>{3, 3}));
  // 2-D: image 2x3, kernel 2x2, no pads: grid 1x2, taps row-major.
  ir::Window w2;
  w2.axes.push_back({.image = 2, .kernel = 2, .grid = 1});
  w2.axes.push_back({.image = 3, .kernel = 2, .grid = 2});
  ind = cpu::buildIndirection(w2);
  EXPECT_EQ(ind.at, (std::vector<int64_t>{0, 1, 3, 4, 1, 2, 4, 5}));
}

TEST(WindowIndirection, ColumnMajorOffsetPutsTheFirstAxisFastest) {
  EXPECT_EQ(cpu::columnMajorOffset(5, {2, 3}), 5);  // (1, 2) -> 1 + 2 * 2
  EXPECT_EQ(cpu::columnMajorOffset(1, {2, 3}), 2);  // (0, 1) -> 0 + 1 * 2
}

TEST(WindowKernel, PoolsOverFourSpatialDims) {
  // x = 0..15 over 2x2x2x2: one window covering everything.
  std::vector<float> x(16);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  const std::string text = R"(<ir_version: 9, opset_import: ["" : 19]>
    main (float[1,1,2,2,2,2] x) => (float[1,1,1,1,1,1] m, int64[1,1,1,1,1,1] i,
                                      float[1,1,1,1,1,1] a) {
      m, i = MaxPool <kernel_shape = [2, 2, 2, 2]> (x)
      a = AveragePool <kernel_shape = [2, 2, 2, 2]> (x)
    })";
  RunResult r =
      testutil::runText(text, {{"x", testutil::floats({1, 1, 2, 2, 2, 2}, x)}}, referenceOnly());
  ASSERT_EQ(r.outputs.size(), 3u);
  EXPECT_EQ(testutil::toFloats(r.outputs[0]), (std::vector<float>{15}));
  EXPECT_EQ(r.outputs[1].data<int64_t>()[0], 15);
  EXPECT_EQ(testutil::toFloats(r.outputs[2]), (std::vector<float>{7.5f}));
}

TEST(WindowKernel, ConvTransposeIsTheAdjointOfConv) {
  // <Conv(x), y> == <x, ConvTranspose(y)> with the same W, grouped and
  // dilated, strided and padded: the scatter is the gather's transpose.
  const std::string attrs = "group = 2, strides = [2, 1], dilations = [1, 2], pads = [1, 0, 0, 2]";
  const std::string text = R"(<ir_version: 9, opset_import: ["" : 19]>
    main (float[1,4,5,6] x, float[4,2,3,2] w, float[1,4,2,6] y) => (float[1,4,2,6] cx,
                                                                      float[1,4,5,6] ty) {
      cx = Conv <)" + attrs +
                           R"(> (x, w)
      ty = ConvTranspose <)" +
                           attrs + R"(, output_padding = [1, 0]> (y, w)
    })";
  auto ramp = [](size_t n, int mul) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>((static_cast<int>(i) * mul) % 7 - 3);
    return v;
  };
  const std::vector<float> x = ramp(120, 3), w = ramp(48, 5), y = ramp(48, 2);
  RunResult r = testutil::runText(text,
                                  {{"x", testutil::floats({1, 4, 5, 6}, x)},
                                   {"w", testutil::floats({4, 2, 3, 2}, w)},
                                   {"y", testutil::floats({1, 4, 2, 6}, y)}},
                                  referenceOnly());
  ASSERT_EQ(r.outputs.size(), 2u);
  const std::vector<float> cx = testutil::toFloats(r.outputs[0]);
  const std::vector<float> ty = testutil::toFloats(r.outputs[1]);
  ASSERT_EQ(cx.size(), y.size());
  ASSERT_EQ(ty.size(), x.size());
  double lhs = 0, rhs = 0;
  for (size_t i = 0; i < y.size(); ++i) lhs += double(cx[i]) * y[i];
  for (size_t i = 0; i < x.size(); ++i) rhs += double(x[i]) * ty[i];
  EXPECT_NE(lhs, 0.0);
  EXPECT_DOUBLE_EQ(lhs, rhs);
}

}  // namespace
}  // namespace passlab::exec
