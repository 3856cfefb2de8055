// Resize, mode nearest, row by row: against the gather written out here
// (each output index mapped by the axis's coordinate transform and rounding),
// on odd sizes, up and down, resizing only the inner or only the outer axes,
// rows that repeat the one before (copied), and tf_crop_and_resize's
// extrapolation value outside the crop.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <vector>

#include "tests/core/exec/op_test_util.h"

namespace passlab::exec {
namespace {

using namespace optest;

// x[n] = n, the values distinct so a wrong gather shows.
ir::Tensor iota(std::vector<int64_t> dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = static_cast<float>(i);
  return f32(std::move(dims), v);
}

// The source index of output o on an axis of `in` resized to `out` with
// half_pixel coordinates and round_prefer_floor.
int64_t halfPixelFloor(int64_t o, int64_t in, int64_t out) {
  const double scale = static_cast<double>(out) / static_cast<double>(in);
  const double x = (static_cast<double>(o) + 0.5) / scale - 0.5;
  const double fl = std::floor(x);
  const int64_t i = static_cast<int64_t>(x - fl <= 0.5 ? fl : fl + 1);
  return std::clamp<int64_t>(i, 0, in - 1);
}

// Expected output of a 4-D resize to `out` (sizes), index per axis by `src`.
std::vector<double> gather4(const std::vector<int64_t>& in, const std::vector<int64_t>& out,
                            const std::function<int64_t(size_t, int64_t)>& src) {
  std::vector<double> y;
  for (int64_t a = 0; a < out[0]; ++a)
    for (int64_t b = 0; b < out[1]; ++b)
      for (int64_t c = 0; c < out[2]; ++c)
        for (int64_t d = 0; d < out[3]; ++d) {
          const int64_t i[4] = {src(0, a), src(1, b), src(2, c), src(3, d)};
          y.push_back(static_cast<double>(((i[0] * in[1] + i[1]) * in[2] + i[2]) * in[3] + i[3]));
        }
  return y;
}

void checkSizes(const std::vector<int64_t>& in, const std::vector<int64_t>& out) {
  SCOPED_TRACE(::testing::PrintToString(in) + " -> " + ::testing::PrintToString(out));
  ir::Tensor y = run1({"Resize",
                       {iota(in), std::nullopt, std::nullopt, i64({4}, out)},
                       {attrS("mode", "nearest")},
                       13});
  auto src = [&](size_t axis, int64_t o) { return halfPixelFloor(o, in[axis], out[axis]); };
  expectTensor(y, DataType::kFloat, out, gather4(in, out, src), 0, 0);
}

TEST(ResizeNearest, MatchesTheGatherOnEveryShape) {
  checkSizes({1, 3, 5, 7}, {1, 3, 10, 14});  // up by 2 (picodet's FPN)
  checkSizes({1, 2, 7, 5}, {1, 2, 3, 13});   // down on H, up on W, odd
  checkSizes({2, 3, 4, 9}, {2, 3, 8, 9});    // the inner axis unchanged: rows copied
  checkSizes({1, 5, 3, 3}, {1, 7, 3, 3});    // only an outer axis resized
  checkSizes({1, 1, 1, 1}, {1, 1, 6, 5});    // one pixel broadcast
  // Output rows that repeat the row before (H upsampled) are copied from it:
  checkSizes({1, 21, 28, 28}, {1, 21, 224, 224});  // up by 8 (lraspp's last Resize)
  checkSizes({1, 2, 5, 3}, {1, 2, 12, 7});         // up by 2.4 on H, 2.33 on W
  checkSizes({2, 1, 1, 4}, {4, 1, 1, 8});          // rows repeated across the batch axis
  checkSizes({1, 2, 2, 5}, {1, 2, 6, 15});         // each value repeated 3 times along W
  checkSizes({1, 2, 3, 9}, {1, 2, 6, 18});         // by 2: 4-lane unpacks and a tail of 1
}

TEST(ResizeNearest, CropOutsideTheInputGivesTheExtrapolationValue) {
  // tf_crop_and_resize: the crops [0, 2] on H and [0.5, 1.5] on W reach past
  // the input, for the second row and the last two columns, which take
  // extrapolation_value.
  const std::vector<int64_t> in = {1, 1, 2, 5}, out = {1, 1, 2, 5};
  ir::Tensor y = run1(
      {"Resize",
       {iota(in), f32({8}, {0, 0, 0, 0.5f, 1, 1, 2, 1.5f}), std::nullopt, i64({4}, out)},
       {attrS("mode", "nearest"), attrS("coordinate_transformation_mode", "tf_crop_and_resize"),
        attrF("extrapolation_value", -7.0f)},
       13});
  // W: x = 0.5 * 4 + o * 4 / 4 = 2 + o: 2, 3, 4, then 5 and 6 fall outside;
  // H: x = 2 * o: 0, then 2 falls outside.
  expectTensor(y, DataType::kFloat, out, {2, 3, 4, -7, -7, -7, -7, -7, -7, -7}, 0, 0);
}

}  // namespace
}  // namespace passlab::exec
