// Resize, linear and cubic over the last two axes (the plane-by-plane path):
// against bilinear written out here (half_pixel, as torch's
// align_corners=False upsample exports), and against the separable passes on
// the same data laid out so that the resized axes are the outer ones
// ([1,C,H,W] vs [H,W,C,1]), for cubic, align_corners, antialiased
// downsampling and batches of planes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "tests/core/exec/op_test_util.h"

namespace passlab::exec {
namespace {

using namespace optest;

std::vector<float> toFloat(const std::vector<double>& v) {
  return std::vector<float>(v.begin(), v.end());
}

// Bilinear, half_pixel coordinates clamped to the input (ONNX linear).
std::vector<double> bilinear(const std::vector<double>& x, int64_t planes, int64_t h, int64_t w,
                             int64_t oh, int64_t ow) {
  auto coord = [](int64_t o, int64_t in, int64_t out, int64_t& i0, int64_t& i1, double& f) {
    double s =
        (static_cast<double>(o) + 0.5) * static_cast<double>(in) / static_cast<double>(out) - 0.5;
    s = std::clamp(s, 0.0, static_cast<double>(in - 1));
    i0 = static_cast<int64_t>(std::floor(s));
    i1 = std::min(i0 + 1, in - 1);
    f = s - static_cast<double>(i0);
  };
  std::vector<double> y;
  for (int64_t p = 0; p < planes; ++p)
    for (int64_t a = 0; a < oh; ++a)
      for (int64_t b = 0; b < ow; ++b) {
        int64_t r0, r1, c0, c1;
        double fr, fc;
        coord(a, h, oh, r0, r1, fr);
        coord(b, w, ow, c0, c1, fc);
        auto at = [&](int64_t r, int64_t c) { return x[static_cast<size_t>((p * h + r) * w + c)]; };
        y.push_back((1 - fr) * ((1 - fc) * at(r0, c0) + fc * at(r0, c1)) +
                    fr * ((1 - fc) * at(r1, c0) + fc * at(r1, c1)));
      }
  return y;
}

TEST(ResizePlanes, BilinearMatchesTheFormula) {
  const int64_t n = 2, c = 3, h = 5, w = 7, oh = 12, ow = 9;
  const std::vector<double> x = ramp(static_cast<size_t>(n * c * h * w));
  ir::Tensor y =
      run1({"Resize",
            {f32({n, c, h, w}, toFloat(x)), std::nullopt, std::nullopt, i64({4}, {n, c, oh, ow})},
            {attrS("mode", "linear")},
            13});
  std::vector<double> xf(x.size());
  for (size_t i = 0; i < x.size(); ++i) xf[i] = static_cast<double>(static_cast<float>(x[i]));
  expectTensor(y, DataType::kFloat, {n, c, oh, ow}, bilinear(xf, n * c, h, w, oh, ow), 1e-5, 1e-6);
}

// [1,C,H,W] resized on H,W (planes) against [H,W,C,1] resized on axes 0,1
// (separable passes), transposed back.
void checkAgainstSeparable(const std::vector<Attr>& attrs, int64_t c, int64_t h, int64_t w,
                           int64_t oh, int64_t ow) {
  SCOPED_TRACE(std::to_string(h) + "x" + std::to_string(w) + " -> " + std::to_string(oh) + "x" +
               std::to_string(ow));
  const std::vector<double> x = ramp(static_cast<size_t>(c * h * w), -3, 3, 7);
  std::vector<double> xt(x.size());  // [h, w, c]
  for (int64_t k = 0; k < c; ++k)
    for (int64_t r = 0; r < h; ++r)
      for (int64_t q = 0; q < w; ++q)
        xt[static_cast<size_t>((r * w + q) * c + k)] = x[static_cast<size_t>((k * h + r) * w + q)];
  ir::Tensor planes =
      run1({"Resize",
            {f32({1, c, h, w}, toFloat(x)), std::nullopt, std::nullopt, i64({4}, {1, c, oh, ow})},
            attrs,
            18});
  ir::Tensor outer =
      run1({"Resize",
            {f32({h, w, c, 1}, toFloat(xt)), std::nullopt, std::nullopt, i64({4}, {oh, ow, c, 1})},
            attrs,
            18});
  ASSERT_EQ(planes.dims(), (std::vector<int64_t>{1, c, oh, ow}));
  const std::vector<double> ot = values(outer);
  std::vector<double> want(ot.size());
  for (int64_t k = 0; k < c; ++k)
    for (int64_t r = 0; r < oh; ++r)
      for (int64_t q = 0; q < ow; ++q)
        want[static_cast<size_t>((k * oh + r) * ow + q)] =
            ot[static_cast<size_t>((r * ow + q) * c + k)];
  expectClose(values(planes), want, 1e-6, 1e-6);
}

TEST(ResizePlanes, MatchesTheSeparablePasses) {
  checkAgainstSeparable({attrS("mode", "linear")}, 3, 28, 28, 224, 224);
  checkAgainstSeparable(
      {attrS("mode", "linear"), attrS("coordinate_transformation_mode", "align_corners")}, 2, 5, 6,
      11, 3);
  checkAgainstSeparable(
      {attrS("mode", "linear"), attrS("coordinate_transformation_mode", "pytorch_half_pixel")}, 2,
      1, 6, 1, 13);
  checkAgainstSeparable({attrS("mode", "cubic")}, 2, 6, 5, 13, 8);
  checkAgainstSeparable({attrS("mode", "cubic"), attrI("exclude_outside", 1)}, 1, 9, 9, 4, 17);
  checkAgainstSeparable({attrS("mode", "linear"), attrI("antialias", 1)}, 2, 20, 17, 6, 5);
  checkAgainstSeparable({attrS("mode", "cubic"), attrI("antialias", 1)}, 2, 20, 17, 7, 17);
}

TEST(ResizePlanes, OnlyTheLastAxisResized) {
  // W doubled, H unchanged: H keeps its rows.
  const std::vector<double> x = {0, 1, 2, 10, 20, 30};
  ir::Tensor y =
      run1({"Resize",
            {f32({1, 2, 3}, toFloat(x)), std::nullopt, std::nullopt, i64({3}, {1, 2, 6})},
            {attrS("mode", "linear")},
            13});
  expectTensor(y, DataType::kFloat, {1, 2, 6},
               {0, 0.25, 0.75, 1.25, 1.75, 2, 10, 12.5, 17.5, 22.5, 27.5, 30});
}

}  // namespace
}  // namespace passlab::exec
