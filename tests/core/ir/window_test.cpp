// ir::Window: the window description every window op shares (auto_pad,
// ceil_mode, ConvTranspose's output_shape resolved), checked against the
// ONNX operator definitions' worked shapes.
#include "core/ir/window.h"

#include <gtest/gtest.h>

#include <vector>

namespace passlab::ir {
namespace {

using Ints = std::vector<int64_t>;

WindowAttrs attrs(Ints kernel, Ints strides = {}, Ints pads = {},
                  AutoPad autoPad = AutoPad::kNotSet) {
  WindowAttrs a;
  a.kernel = std::move(kernel);
  a.strides = std::move(strides);
  a.pads = std::move(pads);
  a.autoPad = autoPad;
  return a;
}

TEST(Window, ForwardGridFromExplicitPads) {
  auto w = forwardWindow(attrs({3, 3}, {2, 2}, {1, 1, 1, 1}), {32, 31});
  ASSERT_TRUE(w) << w.error().message();
  EXPECT_EQ(w->gridDims(), (Ints{16, 16}));
  EXPECT_EQ(w->kernelSize(), 9);
  EXPECT_EQ(w->axes[0].at(0, 0), -1);  // the first tap reads the begin padding
}

TEST(Window, SameUpperPutsTheOddPadAtTheEnd) {
  // ONNX: maxpool_2d_same_upper, 5x5 input, 3x3 kernel, stride 2 -> 3x3, pads 1 and 1;
  // a 4-wide input needs 1 pad: SAME_UPPER puts it at the end, SAME_LOWER at the beginning.
  auto upper = forwardWindow(attrs({3}, {2}, {}, AutoPad::kSameUpper), {4});
  auto lower = forwardWindow(attrs({3}, {2}, {}, AutoPad::kSameLower), {4});
  ASSERT_TRUE(upper && lower);
  EXPECT_EQ(upper->axes[0].grid, 2);
  EXPECT_EQ(upper->axes[0].padBegin, 0);
  EXPECT_EQ(upper->axes[0].padEnd, 1);
  EXPECT_EQ(lower->axes[0].padBegin, 1);
  EXPECT_EQ(lower->axes[0].padEnd, 0);
}

TEST(Window, CeilModeDropsAWindowStartingInTheEndPadding) {
  // ONNX: maxpool_2d_ceil, 4x4 input, 3x3 kernel, stride 2 -> 2x2.
  WindowAttrs a = attrs({3}, {2});
  a.ceilMode = true;
  auto w = forwardWindow(a, {4});
  ASSERT_TRUE(w);
  EXPECT_EQ(w->axes[0].grid, 2);
  // 5 wide, kernel 2, stride 2, 1 pad at the end: 3 windows in ceil mode
  // (the third covers 4 and the pad); 4 wide: a third would start at 4, in the pad.
  EXPECT_EQ(forwardGridExtent(5, 2, 2, 0, 1, true), 3);
  EXPECT_EQ(forwardGridExtent(4, 2, 2, 0, 1, true), 2);
  EXPECT_EQ(forwardGridExtent(4, 2, 2, 0, 1, false), 2);
}

TEST(Window, RefusesBadWindows) {
  EXPECT_FALSE(forwardWindow(attrs({5}), {4}));               // larger than the input
  EXPECT_FALSE(forwardWindow(attrs({3}, {}, {-1, 0}), {4}));  // negative pads
  EXPECT_FALSE(forwardWindow(attrs({3}, {0}), {4}));          // stride 0
  EXPECT_FALSE(forwardWindow(attrs({3, 3}), {4}));            // rank mismatch
  EXPECT_FALSE(forwardWindow(attrs({3}), {8}, {5}));          // differs from the weights
  EXPECT_TRUE(forwardWindow(attrs({}), {8}, {5}));            // kernel from the weights
}

TEST(Window, TransposedImageFromPadsOutputPaddingOrOutputShape) {
  // ONNX: convtranspose_pad, 3x3 input, 3x3 kernel, strides [3, 2],
  // output_padding [1, 1] -> 10x8; convtranspose_pads, pads [1, 2, 1, 2] -> 7x3.
  WindowAttrs a = attrs({3, 3}, {3, 2});
  a.outputPadding = {1, 1};
  auto w = transposedWindow(a, {3, 3});
  ASSERT_TRUE(w) << w.error().message();
  EXPECT_EQ(w->imageDims(), (Ints{10, 8}));
  w = transposedWindow(attrs({3, 3}, {3, 2}, {1, 2, 1, 2}), {3, 3});
  ASSERT_TRUE(w);
  EXPECT_EQ(w->imageDims(), (Ints{7, 3}));
  EXPECT_EQ(transposedImageExtent(3, 3, 3, 1, 1, 1), 8);
  // convtranspose_output_shape: output_shape [10, 8] with strides [3, 2]; the
  // windows cover 9x7, the rest is padding at the end.
  a = attrs({3, 3}, {3, 2});
  a.outputShape = {10, 8};
  w = transposedWindow(a, {3, 3});
  ASSERT_TRUE(w);
  EXPECT_EQ(w->imageDims(), (Ints{10, 8}));
  EXPECT_EQ(w->axes[0].padBegin + w->axes[0].padEnd, 0);
  // SAME_UPPER: image = grid * stride, the extra span padded half at each end.
  a = attrs({3, 3}, {2, 2}, {}, AutoPad::kSameUpper);
  w = transposedWindow(a, {3, 3});
  ASSERT_TRUE(w);
  EXPECT_EQ(w->imageDims(), (Ints{6, 6}));
  EXPECT_EQ(w->axes[0].padBegin, 0);
  EXPECT_EQ(w->axes[0].padEnd, 1);
}

TEST(Window, AWindowMayReadOnlyPaddingWhenAPadIsAsWideAsTheSpan) {
  EXPECT_FALSE((WindowAxis{.kernel = 3, .padBegin = 2, .padEnd = 2}.mayReadOnlyPadding()));
  EXPECT_TRUE((WindowAxis{.kernel = 3, .padBegin = 3}.mayReadOnlyPadding()));
  EXPECT_TRUE((WindowAxis{.kernel = 3, .padEnd = 3}.mayReadOnlyPadding()));
  // Dilation widens the span: a pad of 3 no longer covers a whole window.
  EXPECT_FALSE((WindowAxis{.kernel = 3, .dilation = 2, .padBegin = 3}.mayReadOnlyPadding()));
}

TEST(Window, ParsesAutoPad) {
  auto valid = parseAutoPad("VALID");
  ASSERT_TRUE(valid);
  EXPECT_EQ(*valid, AutoPad::kValid);
  EXPECT_FALSE(parseAutoPad("SAME"));
}

}  // namespace
}  // namespace passlab::ir
