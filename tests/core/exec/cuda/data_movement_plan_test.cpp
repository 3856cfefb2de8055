// Host-side plans of the CUDA data-movement kernels (no GPU): strided plans
// applied on the host against naive references, Slice clamping, Resize maps
// and taps against the CPU formulas.
#include "core/exec/cuda/data_movement_plan.h"

#include "core/exec/cuda/data_movement_kernels.h"
#include "tests/core/exec/cuda/strided_reference.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <vector>

namespace passlab::exec::cuda {
namespace {

std::vector<int64_t> iota(int64_t n) {
  std::vector<int64_t> v(static_cast<size_t>(n));
  std::iota(v.begin(), v.end(), 0);
  return v;
}

TEST(CudaDataMovementPlan, TransposeMatchesNaive) {
  const Dims in{2, 3, 4, 5};
  const std::vector<std::vector<int64_t>> perms = {{0, 1, 2, 3}, {3, 2, 1, 0}, {0, 2, 1, 3},
                                                   {0, 1, 3, 2}, {2, 0, 3, 1}, {1, 0, 2, 3}};
  const auto src = iota(120);
  const auto st = contiguousStrides(in);
  for (const auto& perm : perms) {
    StridedPlan p = transposePlan(in, perm);
    std::vector<int64_t> want;
    Dims od;
    for (int64_t a : perm) od.push_back(in[static_cast<size_t>(a)]);
    for (int64_t a = 0; a < od[0]; ++a)
      for (int64_t b = 0; b < od[1]; ++b)
        for (int64_t c = 0; c < od[2]; ++c)
          for (int64_t d = 0; d < od[3]; ++d) {
            int64_t idx[4];
            idx[perm[0]] = a;
            idx[perm[1]] = b;
            idx[perm[2]] = c;
            idx[perm[3]] = d;
            want.push_back(idx[0] * st[0] + idx[1] * st[1] + idx[2] * st[2] + idx[3] * st[3]);
          }
    EXPECT_EQ(applyStridedPlan(p, src), want) << dimsToString(perm);
  }
  // The identity collapses to one dim; [0,2,1,3] keeps three.
  EXPECT_EQ(transposePlan(in, {0, 1, 2, 3}).dims, (Dims{120}));
  EXPECT_EQ(transposePlan(in, {0, 2, 1, 3}).dims.size(), 4u);  // 2,4,3,5: no merge possible
  EXPECT_EQ(transposePlan(Dims{1, 6, 1, 7}, {2, 1, 0, 3}).dims, (Dims{42}));
  EXPECT_EQ(transposePlan(Dims{}, {}).dims, (Dims{1}));
}

TEST(CudaDataMovementPlan, SliceClampsAsTheCpu) {
  const auto src = iota(10);
  auto run = [&](std::vector<int64_t> s, std::vector<int64_t> e, std::vector<int64_t> step) {
    auto r = slicePlan(Dims{10}, s, e, {}, step);
    EXPECT_TRUE(r.isOk());
    return applyStridedPlan(r->plan, src);
  };
  EXPECT_EQ(run({-100}, {100}, {}), iota(10));
  EXPECT_EQ(run({2}, {std::numeric_limits<int64_t>::max()}, {3}), (std::vector<int64_t>{2, 5, 8}));
  EXPECT_EQ(run({100}, {-100}, {-1}), (std::vector<int64_t>{9, 8, 7, 6, 5, 4, 3, 2, 1, 0}));
  EXPECT_EQ(run({-1}, {-11}, {-2}), (std::vector<int64_t>{9, 7, 5, 3, 1}));
  EXPECT_EQ(run({-1}, {std::numeric_limits<int64_t>::min()}, {-3}),
            (std::vector<int64_t>{9, 6, 3, 0}));
  auto empty = slicePlan(Dims{10}, {5}, {2}, {}, {});
  ASSERT_TRUE(empty.isOk());
  EXPECT_EQ(empty->out, (Dims{0}));
  auto zero = slicePlan(Dims{0}, {0}, {-1}, {}, {-1});
  ASSERT_TRUE(zero.isOk());
  EXPECT_EQ(zero->out, (Dims{0}));

  // 2-D with axes and a negative axis: x[1:3, ::-2] of a [4, 5].
  auto r = slicePlan(Dims{4, 5}, {1, -1}, {3, -100}, {0, -1}, {1, -2});
  ASSERT_TRUE(r.isOk());
  EXPECT_EQ(r->out, (Dims{2, 3}));
  EXPECT_EQ(applyStridedPlan(r->plan, iota(20)), (std::vector<int64_t>{9, 7, 5, 14, 12, 10}));

  EXPECT_FALSE(slicePlan(Dims{4}, {0}, {1}, {}, {0}).isOk());
  EXPECT_FALSE(slicePlan(Dims{4, 4}, {0, 0}, {1, 1}, {1, 1}, {}).isOk());
  EXPECT_FALSE(slicePlan(Dims{4}, {0}, {1, 2}, {}, {}).isOk());
  EXPECT_FALSE(slicePlan(Dims{4}, {0}, {1}, {1}, {}).isOk());
}

TEST(CudaDataMovementPlan, ExpandAndTile) {
  // [3, 1] -> [2, 3, 4]
  StridedPlan e = expandPlan(Dims{3, 1}, Dims{2, 3, 4});
  std::vector<int64_t> want;
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 3; ++b)
      for (int c = 0; c < 4; ++c) want.push_back(b);
  EXPECT_EQ(applyStridedPlan(e, iota(3)), want);
  // Same shape: a plain copy in one dim.
  EXPECT_EQ(expandPlan(Dims{2, 3}, Dims{2, 3}).dims, (Dims{6}));

  // Tile [2, 3] by [2, 2].
  StridedPlan t = tilePlan(Dims{2, 3}, {2, 2});
  EXPECT_EQ(t.dims, (Dims{4, 6}));
  std::vector<int64_t> tw;
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 6; ++c) tw.push_back((r % 2) * 3 + c % 3);
  EXPECT_EQ(applyStridedPlan(t, iota(6)), tw);

  auto ms = toMoveStrides(t);
  ASSERT_TRUE(ms.isOk());
  EXPECT_EQ(ms->rank, 2);
  EXPECT_EQ(ms->mods[1], 3);
  StridedPlan big;
  big.dims.assign(9, 2);
  big.strides.assign(9, 1);
  auto tooBig = toMoveStrides(big);
  ASSERT_FALSE(tooBig.isOk());
  EXPECT_EQ(tooBig.error().code(), ErrorCode::kUnsupported);
}

ResizeAxis axis(int64_t in, int64_t out) {
  return ResizeAxis{in, out, static_cast<double>(out) / static_cast<double>(in), 0.0, 1.0};
}

TEST(CudaDataMovementPlan, ResizeNearestMaps) {
  ResizeAttrs a;
  a.coord = ResizeCoord::kAsymmetric;
  a.nearest = ResizeNearest::kFloor;
  EXPECT_EQ(nearestMap(a, axis(2, 4)), (std::vector<int64_t>{0, 0, 1, 1}));
  a.coord = ResizeCoord::kHalfPixel;
  a.nearest = ResizeNearest::kRoundPreferFloor;
  EXPECT_EQ(nearestMap(a, axis(4, 2)), (std::vector<int64_t>{0, 2}));
  a.nearest = ResizeNearest::kRoundPreferCeil;
  EXPECT_EQ(nearestMap(a, axis(4, 2)), (std::vector<int64_t>{1, 3}));
  // half_pixel, 3 -> 6, round_prefer_floor: x = (o + .5) / 2 - .5.
  a.nearest = ResizeNearest::kRoundPreferFloor;
  EXPECT_EQ(nearestMap(a, axis(3, 6)), (std::vector<int64_t>{0, 0, 1, 1, 2, 2}));
  // Resize-10 (kSimple): floor when upsampling.
  a.coord = ResizeCoord::kAsymmetric;
  a.nearest = ResizeNearest::kSimple;
  EXPECT_EQ(nearestMap(a, axis(2, 6)), (std::vector<int64_t>{0, 0, 0, 1, 1, 1}));
  // tf_crop_and_resize outside the roi: -1.
  a.coord = ResizeCoord::kTfCropAndResize;
  a.nearest = ResizeNearest::kRoundPreferFloor;
  ResizeAxis p{4, 3, 0.75, 0.5, 1.5};
  auto m = nearestMap(a, p);
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0], 1);   // x = 0.5 * 3 = 1.5: round_prefer_floor
  EXPECT_EQ(m[1], 3);   // x = 3
  EXPECT_EQ(m[2], -1);  // x = 4.5 > 3: extrapolated
}

TEST(CudaDataMovementPlan, ResizeLinearTaps) {
  ResizeAttrs a;
  a.mode = ResizeMode::kLinear;
  a.coord = ResizeCoord::kAlignCorners;
  auto t = linearTaps(a, axis(2, 3));
  ASSERT_EQ(t.size(), 3u);
  // x = 0: the left pixel is -1 (clamped to 0) with weight 0.
  EXPECT_EQ(t[0].i0, 0);
  EXPECT_EQ(t[0].i1, 0);
  EXPECT_FLOAT_EQ(t[0].w0 + t[0].w1, 1.0f);
  EXPECT_EQ(t[1].i0, 0);
  EXPECT_EQ(t[1].i1, 1);
  EXPECT_FLOAT_EQ(t[1].w0, 0.5f);
  EXPECT_FLOAT_EQ(t[1].w1, 0.5f);
  EXPECT_EQ(t[2].i1, 1);
  EXPECT_FLOAT_EQ(t[2].w1, 1.0f);
  // half_pixel 2 -> 4: x = -0.25, 0.25, 0.75, 1.25.
  a.coord = ResizeCoord::kHalfPixel;
  t = linearTaps(a, axis(2, 4));
  auto value = [&](const LinearTap& k, const std::vector<float>& v) {
    return k.w0 * v[static_cast<size_t>(k.i0)] + k.w1 * v[static_cast<size_t>(k.i1)];
  };
  const std::vector<float> v{10, 20};
  EXPECT_FLOAT_EQ(value(t[0], v), 10.0f);
  EXPECT_FLOAT_EQ(value(t[1], v), 12.5f);
  EXPECT_FLOAT_EQ(value(t[2], v), 17.5f);
  EXPECT_FLOAT_EQ(value(t[3], v), 20.0f);
  // exclude_outside renormalizes: x = -0.25 reads pixel 0 alone.
  a.excludeOutside = true;
  t = linearTaps(a, axis(2, 4));
  EXPECT_FLOAT_EQ(t[0].w0, 0.0f);
  EXPECT_FLOAT_EQ(t[0].w1, 1.0f);
  // An axis that stays is exact.
  a.excludeOutside = false;
  t = linearTaps(a, axis(5, 5));
  for (int64_t o = 0; o < 5; ++o) {
    EXPECT_EQ(t[static_cast<size_t>(o)].i0, o);
    EXPECT_FLOAT_EQ(t[static_cast<size_t>(o)].w0, 1.0f);
    EXPECT_FLOAT_EQ(t[static_cast<size_t>(o)].w1, 0.0f);
  }
}

uint64_t bitsOf(ir::DataType t, double v, bool roundInts) {
  auto e = valueBits(t, v, roundInts);
  return e.isOk() ? e.value() : ~uint64_t{0};
}

TEST(CudaDataMovementPlan, FillValueBits) {
  auto f = valueBits(ir::DataType::kFloat, -1.5, false);
  ASSERT_TRUE(f.isOk());
  float v;
  uint32_t b32 = static_cast<uint32_t>(*f);
  std::memcpy(&v, &b32, 4);
  EXPECT_EQ(v, -1.5f);
  EXPECT_EQ(bitsOf(ir::DataType::kFloat16, 1.0, false), 0x3C00u);
  EXPECT_EQ(bitsOf(ir::DataType::kBFloat16, 1.0, false), 0x3F80u);
  // Resize's extrapolation on integers: rounded half to even, saturated.
  EXPECT_EQ(bitsOf(ir::DataType::kInt32, 2.5, true), 2u);
  EXPECT_EQ(bitsOf(ir::DataType::kUInt8, 300, true), 255u);
  EXPECT_EQ(bitsOf(ir::DataType::kInt8, -3.0, true), 0xFDu);
  EXPECT_EQ(bitsOf(ir::DataType::kFloat8E4M3FN, 0.0, false), 0u);
  EXPECT_FALSE(valueBits(ir::DataType::kFloat8E4M3FN, 1.0, false).isOk());
  EXPECT_EQ(moveSize(ir::DataType::kDouble, "x").value(), 8);
  EXPECT_FALSE(moveSize(ir::DataType::kString, "x").isOk());
}

TEST(CudaDataMovementPlan, UpsampleTaps) {
  // 2 -> 5 (scale 2.5): in = o / 2.5 = 0, .4, .8, 1.2, 1.6.
  auto t = upsampleTaps(ResizeAxis{2, 5, 2.5, 0, 1}, true);
  ASSERT_EQ(t.size(), 5u);
  EXPECT_EQ(t[2].i0, 0);
  EXPECT_EQ(t[2].i1, 1);
  EXPECT_NEAR(t[2].w1, 0.8f, 1e-6);
  EXPECT_EQ(t[4].i0, 1);
  EXPECT_EQ(t[4].i1, 1);  // clamped
  auto n = upsampleTaps(ResizeAxis{2, 5, 2.5, 0, 1}, false);
  std::vector<int64_t> idx;
  for (const LinearTap& k : n) {
    idx.push_back(k.i0);
    EXPECT_EQ(k.w1, 0.0f);
  }
  EXPECT_EQ(idx, (std::vector<int64_t>{0, 0, 0, 1, 1}));
}

TEST(CudaDataMovementPlan, ResizeAxesFromScalesAndSizes) {
  ResizeAttrs a;
  auto r = resizeAxes(a, Dims{1, 3, 4, 6}, {1, 1, 2, 0.5}, {}, {});
  ASSERT_TRUE(r.isOk());
  EXPECT_EQ((*r)[2].out, 8);
  EXPECT_EQ((*r)[3].out, 3);
  EXPECT_DOUBLE_EQ((*r)[3].scale, 0.5);
  r = resizeAxes(a, Dims{1, 3, 4, 6}, {}, {1, 3, 6, 6}, {});
  ASSERT_TRUE(r.isOk());
  EXPECT_DOUBLE_EQ((*r)[2].scale, 1.5);
  // not_larger on axes [2, 3]: one scale, the smaller.
  a.axes = {2, 3};
  a.policy = ResizePolicy::kNotLarger;
  r = resizeAxes(a, Dims{1, 3, 4, 6}, {}, {8, 8}, {});
  ASSERT_TRUE(r.isOk());
  EXPECT_EQ((*r)[2].out, 5);  // 4 * 4/3 + .5
  EXPECT_EQ((*r)[3].out, 8);
  EXPECT_FALSE(resizeAxes(a, Dims{1, 3, 4, 6}, {2, 2}, {8, 8}, {}).isOk());
  EXPECT_FALSE(resizeAxes(a, Dims{1, 3, 4, 6}, {}, {}, {}).isOk());
  EXPECT_FALSE(resizeAxes(a, Dims{1, 3, 4, 6}, {2}, {}, {}).isOk());
  a.axes.clear();
  a.policy = ResizePolicy::kStretch;
  a.coord = ResizeCoord::kTfCropAndResize;
  EXPECT_FALSE(resizeAxes(a, Dims{1, 3}, {1, 2}, {}, {0, 0}).isOk());
  r = resizeAxes(a, Dims{1, 3}, {1, 2}, {}, {0, 0, 1, 1});
  ASSERT_TRUE(r.isOk());
  EXPECT_EQ((*r)[1].out, 6);
}

}  // namespace
}  // namespace passlab::exec::cuda
