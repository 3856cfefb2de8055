// GridSample, AffineGrid, Col2Im and MaxUnpool against the ONNX reference
// implementation; RoiAlign, MaxRoiPool and NonMaxSuppression.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "tests/core/exec/kernel_test_util.h"

namespace passlab::exec {
namespace {

using kt::f32;
using kt::i64;

std::vector<float> iota(int n, float from = 1) {
  std::vector<float> v;
  for (int i = 0; i < n; ++i) v.push_back(from + static_cast<float>(i));
  return v;
}

ir::Tensor gridSampleRun(const std::string& mode, const std::string& pad, int align) {
  std::string text = R"(<ir_version: 8, opset_import: ["" : 20]>
    main (float[1,1,3,4] x, float[1,2,3,2] g) => (float[1,1,2,3] y) {
      y = GridSample <mode = ")" +
                     mode + R"(", padding_mode = ")" + pad + R"(", align_corners = )" +
                     std::to_string(align) + R"(> (x, g)
    })";
  auto r = testutil::runText(text, {{"x", f32({1, 1, 3, 4}, iota(12))},
                                    {"g", f32({1, 2, 3, 2}, {-1, -1, 0.3f, -0.6f, 1.2f, 0.9f, 0.1f,
                                                             0.1f, -0.75f, 0.5f, 1, 1})}});
  return r.outputs.empty() ? ir::Tensor() : r.outputs[0];
}

TEST(GridSample, ModesAndPaddings) {
  kt::expectNear(gridSampleRun("linear", "zeros", 0), {0.25f, 3.5f, 0.779999f, 7.300001f, 8, 3},
                 1e-5f);
  kt::expectNear(gridSampleRun("linear", "border", 1), {1, 4.55f, 11.599999f, 7.05f, 7.375f, 12},
                 1e-5f);
  kt::expectNear(gridSampleRun("linear", "reflection", 1), {1, 4.55f, 11.3f, 7.05f, 7.375f, 12},
                 1e-5f);
  kt::expectNear(gridSampleRun("nearest", "zeros", 0), {1, 3, 0, 7, 9, 0});
  kt::expectNear(gridSampleRun("cubic", "zeros", 0),
                 {0.015625f, 3.665343f, 0.697268f, 7.646753f, 9.183594f, 3.234375f}, 1e-5f);
  kt::expectNear(gridSampleRun("cubic", "reflection", 0),
                 {0.0625f, 3.443749f, 12.750004f, 7.49388f, 8.234375f, 12.9375f}, 1e-5f);
  kt::expectNear(gridSampleRun("cubic", "border", 1),
                 {1, 4.192621f, 11.699001f, 7.186881f, 7.669434f, 12}, 1e-5f);
}

// The ONNX reference's 2-D GridSample for nearest and linear, pixel by pixel
// in double: padding applied to the coordinate, then to each pixel read.
double reflectTo(double x, double lo, double hi) {
  if (hi <= lo) return lo;
  while (x < lo || x > hi) x = x < lo ? lo + (lo - x) : hi - (x - hi);
  return x;
}
std::vector<float> gridSampleLoops(const std::vector<float>& X, const std::vector<float>& G,
                                   int64_t N, int64_t C, int64_t H, int64_t W, int64_t OH,
                                   int64_t OW, const std::string& mode, const std::string& pad,
                                   bool align) {
  std::vector<float> Y;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t o = 0; o < OH * OW; ++o) {
        const float* g = &G[static_cast<size_t>((n * OH * OW + o) * 2)];
        auto coord = [&](double v, int64_t len) {
          const double l = static_cast<double>(len);
          double x = static_cast<float>(align ? (v + 1) / 2 * (l - 1) : ((v + 1) * l - 1) / 2);
          const double lo = align ? 0 : -0.5, hi = align ? l - 1 : l - 0.5;
          if (mode == "nearest") x = std::nearbyint(x);
          if (pad == "border") x = std::clamp(x, 0.0, l - 1);
          if (pad == "reflection") x = reflectTo(x, lo, hi);
          return x;
        };
        auto pixel = [&](int64_t iy, int64_t ix) -> double {
          auto fix = [&](int64_t i, int64_t len) {
            if (pad == "border") return std::clamp<int64_t>(i, 0, len - 1);
            if (pad == "reflection") {
              const double l = static_cast<double>(len);
              const double r =
                  reflectTo(static_cast<double>(i), align ? 0 : -0.5, align ? l - 1 : l - 0.5);
              return std::clamp<int64_t>(static_cast<int64_t>(r), 0, len - 1);
            }
            return i;
          };
          iy = fix(iy, H);
          ix = fix(ix, W);
          if (iy < 0 || iy >= H || ix < 0 || ix >= W) return 0;
          return X[static_cast<size_t>(((n * C + c) * H + iy) * W + ix)];
        };
        const double x = coord(g[0], W), y = coord(g[1], H);
        double v;
        if (mode == "nearest") {
          v = pixel(static_cast<int64_t>(y), static_cast<int64_t>(x));
        } else {
          const double fx = std::floor(x), fy = std::floor(y);
          const auto x0 = static_cast<int64_t>(fx), y0 = static_cast<int64_t>(fy);
          const double ax = x - fx, ay = y - fy;
          v = (1 - ay) * ((1 - ax) * pixel(y0, x0) + ax * pixel(y0, x0 + 1)) +
              ay * ((1 - ax) * pixel(y0 + 1, x0) + ax * pixel(y0 + 1, x0 + 1));
        }
        Y.push_back(static_cast<float>(v));
      }
  return Y;
}

TEST(GridSample, ManyChannelsAndPointsMatchThePixelByPixelFormula) {
  // Points well outside the image too; two images, several channels, more
  // points than one block of corners.
  const int64_t N = 2, C = 3, H = 5, W = 7, OH = 17, OW = 19;
  const ir::Tensor x = kt::uniformF32({N, C, H, W}, 11);
  const ir::Tensor g = kt::uniformF32({N, OH, OW, 2}, 12, 1.4f);
  const std::vector<float> X = kt::values<float>(x), G = kt::values<float>(g);
  for (const char* mode : {"nearest", "linear"})
    for (const char* pad : {"zeros", "border", "reflection"})
      for (int align = 0; align < 2; ++align) {
        const std::string text = std::string(R"(<ir_version: 8, opset_import: ["" : 20]>
          main (float[2,3,5,7] x, float[2,17,19,2] g) => (float[2,3,17,19] y) {
            y = GridSample <mode = ")") +
                                 mode + R"(", padding_mode = ")" + pad + R"(", align_corners = )" +
                                 std::to_string(align) + R"(> (x, g)
          })";
        auto r = testutil::runText(text, {{"x", x}, {"g", g}});
        ASSERT_EQ(r.outputs.size(), 1u);
        SCOPED_TRACE(std::string(mode) + " " + pad + " align " + std::to_string(align));
        kt::expectNear(r.outputs[0],
                       gridSampleLoops(X, G, N, C, H, W, OH, OW, mode, pad, align != 0), 1e-5f);
      }
}

TEST(AffineGrid, PixelCentersAndCorners) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 20]>
    main (float[1,2,3] t, int64[4] s) => (float[1,2,3,2] y) { y = AffineGrid(t, s) })";
  NamedInputs in = {{"t", f32({1, 2, 3}, {1, 0.2f, 0.1f, 0.3f, 0.9f, -0.2f})},
                    {"s", i64({4}, {1, 1, 2, 3})}};
  kt::expectNear(testutil::runText(text, in).outputs[0],
                 {-0.666667f, -0.85f, 0, -0.65f, 0.666667f, -0.45f, -0.466667f, 0.05f, 0.2f, 0.25f,
                  0.866667f, 0.45f});
  const char* corners = R"(<ir_version: 8, opset_import: ["" : 20]>
    main (float[1,2,3] t, int64[4] s) => (float[1,2,3,2] y) { y = AffineGrid <align_corners = 1> (t, s) })";
  kt::expectNear(testutil::runText(corners, in).outputs[0],
                 {-1.1f, -1.4f, -0.1f, -1.1f, 0.9f, -0.8f, -0.7f, 0.4f, 0.3f, 0.7f, 1.3f, 1});
}

TEST(Col2Im, SumsOverlappingBlocks) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 18]>
    main (float[1,4,6] x, int64[2] i, int64[2] b) => (float[1,1,3,4] y) { y = Col2Im(x, i, b) })";
  auto r = testutil::runText(
      text, {{"x", f32({1, 4, 6}, iota(24))}, {"i", i64({2}, {3, 4})}, {"b", i64({2}, {2, 2})}});
  kt::expectNear(r.outputs[0], {1, 9, 11, 9, 17, 48, 52, 33, 16, 39, 41, 24});
  kt::expectError(
      text, {{"x", f32({1, 4, 6}, iota(24))}, {"i", i64({2}, {3, 5})}, {"b", i64({2}, {2, 2})}},
      {"must be [N, C * 4, 8]"});
}

TEST(MaxUnpool, PlacesValuesAtTheirIndices) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 11]>
    main (float[1,1,2,2] x, int64[1,1,2,2] i) => (float[1,1,4,4] y) {
      y = MaxUnpool <kernel_shape = [2, 2], strides = [2, 2]> (x, i)
    })";
  auto r = testutil::runText(
      text, {{"x", f32({1, 1, 2, 2}, {1, 2, 3, 4})}, {"i", i64({1, 1, 2, 2}, {5, 7, 13, 15})}});
  kt::expectNear(r.outputs[0], {0, 0, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0, 0, 3, 0, 4});
  kt::expectError(
      text, {{"x", f32({1, 1, 2, 2}, {1, 2, 3, 4})}, {"i", i64({1, 1, 2, 2}, {5, 7, 13, 16})}},
      {"index 16 is out of range [0, 16)"});
}

TEST(RoiAlign, AverageAndMax) {
  const char* avg = R"(<ir_version: 8, opset_import: ["" : 16]>
    main (float[1,1,5,5] x, float[2,4] rois, int64[2] b) => (float[2,1,2,3] y) {
      y = RoiAlign <output_height = 2, output_width = 3, sampling_ratio = 2> (x, rois, b)
    })";
  NamedInputs in = {{"x", f32({1, 1, 5, 5}, iota(25))},
                    {"rois", f32({2, 4}, {0.5f, 0.5f, 3.2f, 4.1f, 1, 0, 4, 2})},
                    {"b", i64({2}, {0, 0})}};
  kt::expectNear(
      testutil::runText(avg, in).outputs[0],
      {5.95f, 6.849999f, 7.75f, 14.95f, 15.849998f, 16.75f, 2.625f, 3.625f, 4.625f, 7, 8, 9},
      1e-5f);
  const char* max = R"(<ir_version: 8, opset_import: ["" : 16]>
    main (float[1,1,5,5] x, float[2,4] rois, int64[2] b) => (float[2,1,2,2] y) {
      y = RoiAlign <output_height = 2, output_width = 2, mode = "max",
                    coordinate_transformation_mode = "output_half_pixel"> (x, rois, b)
    })";
  kt::expectNear(testutil::runText(max, in).outputs[0],
                 {8.542499f, 10.263751f, 11.976248f, 13.455f, 3.5f, 3.9375f, 5.6875f, 6.125f},
                 1e-5f);
  in[2] = {"b", i64({2}, {0, 1})};
  kt::expectError(avg, in, {"batch index 1 is out of range [0, 1)"});
}

TEST(MaxRoiPool, IntegerBins) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 1]>
    main (float[1,1,4,4] x, float[1,5] rois) => (float[1,1,2,2] y) {
      y = MaxRoiPool <pooled_shape = [2, 2]> (x, rois)
    })";
  auto r = testutil::runText(
      text, {{"x", f32({1, 1, 4, 4}, iota(16))}, {"rois", f32({1, 5}, {0, 0, 0, 3, 3})}});
  kt::expectNear(r.outputs[0], {6, 8, 14, 16});
}

TEST(NonMaxSuppression, SuppressesOverlapsPerClass) {
  // The ONNX test "suppress by IOU": boxes [y1, x1, y2, x2].
  const char* text = R"(<ir_version: 8, opset_import: ["" : 11]>
    main (float[1,6,4] b, float[1,1,6] s, int64[1] m, float[1] iou, float[1] th) => (int64[3,3] y) {
      y = NonMaxSuppression(b, s, m, iou, th)
    })";
  auto r = testutil::runText(
      text, {{"b", f32({1, 6, 4}, {0, 0,  1, 1,  0, 0.1f,  1, 1.1f,  0, -0.1f, 1, 0.9f,
                                   0, 10, 1, 11, 0, 10.1f, 1, 11.1f, 0, 100,   1, 101})},
             {"s", f32({1, 1, 6}, {0.9f, 0.75f, 0.6f, 0.95f, 0.5f, 0.3f})},
             {"m", i64({1}, {3})},
             {"iou", f32({1}, {0.5f})},
             {"th", f32({1}, {0})}});
  EXPECT_EQ(kt::values<int64_t>(r.outputs[0]), (std::vector<int64_t>{0, 0, 3, 0, 0, 0, 0, 0, 5}));
}

// The greedy selection as the spec describes it, in float: all candidates
// above the threshold stably sorted by score, each kept unless its IoU with
// a kept box of its class exceeds the threshold. Boxes [y1, x1, y2, x2].
std::vector<int64_t> nmsReference(const std::vector<float>& boxes, const std::vector<float>& scores,
                                  int64_t B, int64_t K, int64_t M, int64_t maxOut, float iou,
                                  const float* minScore) {
  std::vector<int64_t> out;
  auto corners = [](const float* b, float* c) {  // xmin, xmax, ymin, ymax
    c[0] = std::min(b[1], b[3]);
    c[1] = std::max(b[1], b[3]);
    c[2] = std::min(b[0], b[2]);
    c[3] = std::max(b[0], b[2]);
  };
  for (int64_t b = 0; b < B; ++b)
    for (int64_t k = 0; k < K; ++k) {
      const float* sc = scores.data() + (b * K + k) * M;
      const float* bx = boxes.data() + b * M * 4;
      std::vector<int64_t> order, kept;
      for (int64_t i = 0; i < M; ++i)
        if (!minScore || sc[i] > *minScore) order.push_back(i);
      std::stable_sort(order.begin(), order.end(),
                       [&](int64_t p, int64_t q) { return sc[p] > sc[q]; });
      for (int64_t i : order) {
        if (static_cast<int64_t>(kept.size()) >= maxOut) break;
        bool keep = true;
        for (int64_t j : kept) {
          float a[4], c[4];
          corners(bx + i * 4, a);
          corners(bx + j * 4, c);
          const float ix0 = std::max(a[0], c[0]), ix1 = std::min(a[1], c[1]);
          const float iy0 = std::max(a[2], c[2]), iy1 = std::min(a[3], c[3]);
          if (ix1 <= ix0 || iy1 <= iy0) continue;
          const float inter = (ix1 - ix0) * (iy1 - iy0);
          const float areaA = (a[1] - a[0]) * (a[3] - a[2]), areaB = (c[1] - c[0]) * (c[3] - c[2]);
          const float uni = areaA + areaB - inter;
          if (inter <= 0 || areaA <= 0 || areaB <= 0 || uni <= 0) continue;
          if (inter / uni > iou) {
            keep = false;
            break;
          }
        }
        if (!keep) continue;
        kept.push_back(i);
        out.insert(out.end(), {b, k, i});
      }
    }
  return out;
}

// Seeded boxes and scores with many ties (a heap takes the candidates best
// first, ties by index): 2 batches, 3 classes, 300 boxes; few and many
// outputs per class, with and without a score threshold, and a NaN score
// (the stable sort then).
TEST(NonMaxSuppression, SeededBoxesMatchTheGreedyReference) {
  const int64_t B = 2, K = 3, M = 300;
  uint32_t seed = 3;
  auto u = [&] {
    seed = seed * 1664525u + 1013904223u;
    return static_cast<float>(seed >> 8) / 16777216.0f;
  };
  std::vector<float> boxes, scores;
  for (int64_t i = 0; i < B * M; ++i) {
    const float y = u(), x = u(), h = 0.05f + 0.2f * u(), w = 0.05f + 0.2f * u();
    boxes.insert(boxes.end(), {y, x, y + h, x + w});
  }
  for (int64_t i = 0; i < B * K * M; ++i) scores.push_back(std::floor(u() * 20) / 20);
  for (bool nanScore : {false, true})
    for (int64_t maxOut : {5, 1000})
      for (bool threshold : {true, false}) {
        if (nanScore && threshold) continue;
        std::vector<float> s = scores;
        if (nanScore) s[7] = std::nanf("");
        const float minScore = 0.3f;
        const std::string dims = "[" + std::to_string(B) + "," + std::to_string(M) + ",4]";
        const std::string sdims =
            "[" + std::to_string(B) + "," + std::to_string(K) + "," + std::to_string(M) + "]";
        const std::string text = R"(<ir_version: 8, opset_import: ["" : 11]>
    main (float)" + dims + R"( b, float)" +
                                 sdims +
                                 R"( s, int64[1] m, float[1] iou, float[1] th) => (int64[?,3] y) {
      y = NonMaxSuppression(b, s, m, iou)" +
                                 (threshold ? ", th" : "") + R"()
    })";
        auto r = testutil::runText(text, {{"b", f32({B, M, 4}, boxes)},
                                          {"s", f32({B, K, M}, s)},
                                          {"m", i64({1}, {maxOut})},
                                          {"iou", f32({1}, {0.3f})},
                                          {"th", f32({1}, {minScore})}});
        ASSERT_EQ(r.outputs.size(), 1u);
        const std::vector<int64_t> want =
            nmsReference(boxes, s, B, K, M, maxOut, 0.3f, threshold ? &minScore : nullptr);
        EXPECT_EQ(kt::values<int64_t>(r.outputs[0]), want)
            << "max " << maxOut << " threshold " << threshold << " nan " << nanScore;
        EXPECT_GT(want.size(), static_cast<size_t>(3 * B * K));
      }
}

}  // namespace
}  // namespace passlab::exec
