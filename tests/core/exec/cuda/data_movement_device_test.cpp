// The data-movement launch functions on a GPU against the host plans applied
// on the host (data_movement_plan_test.cpp checks those against naive
// references). Skipped without a CUDA device.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include "core/exec/cuda/data_movement_launch.h"
#include "core/exec/cuda/data_movement_plan.h"
#include "tests/core/exec/cuda/strided_reference.h"
#include "tests/support/cuda_test_context.h"

namespace passlab::exec::cuda {
namespace {

#define REQUIRE_DEVICE() PASSLAB_REQUIRE_CUDA_DEVICE()

// A device copy of a host vector, read back with get().
template <class T>
struct Dev {
  T* p = nullptr;
  size_t n = 0;
  explicit Dev(size_t count) : n(count) { cudaMalloc(&p, (n ? n : 1) * sizeof(T)); }
  explicit Dev(const std::vector<T>& v) : Dev(v.size()) {
    cudaMemcpy(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice);
  }
  ~Dev() { cudaFree(p); }
  std::vector<T> get() {
    std::vector<T> v(n);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost);
    return v;
  }
};

template <class T>
void checkStrided(const StridedPlan& p, int64_t srcCount) {
  std::vector<T> src(static_cast<size_t>(srcCount));
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<T>(i * 7 + 3);
  auto want = applyStridedPlan(p, src);
  Dev<T> s(src), d(want.size());
  auto ms = toMoveStrides(p);
  ASSERT_TRUE(ms.isOk());
  ASSERT_EQ(launchStridedCopy(s.p, d.p, sizeof(T), *ms, static_cast<int64_t>(want.size()),
                              !p.mods.empty(), nullptr),
            0);
  EXPECT_EQ(d.get(), want);
}

TEST(CudaDataMovementDevice, StridedCopyEveryElementSize) {
  REQUIRE_DEVICE();
  const Dims in{3, 4, 5, 6};
  StridedPlan t = transposePlan(in, {0, 3, 1, 2});
  checkStrided<uint8_t>(t, 360);
  checkStrided<uint16_t>(t, 360);
  checkStrided<uint32_t>(t, 360);
  checkStrided<uint64_t>(t, 360);
  auto s = slicePlan(in, {1, -1, 0}, {3, -100, 5}, {0, 3, 2}, {1, -2, 2});
  ASSERT_TRUE(s.isOk());
  checkStrided<uint32_t>(s->plan, 360);
  checkStrided<uint32_t>(expandPlan(Dims{4, 1}, Dims{2, 4, 9}), 4);
  checkStrided<uint16_t>(tilePlan(Dims{2, 3}, {3, 2}), 6);
  // Last-two-dims swaps (the tiled kernel): partial tiles, every element
  // size, 2-D and batched, and a large one.
  checkStrided<uint8_t>(transposePlan(Dims{3, 37, 45}, {0, 2, 1}), 3 * 37 * 45);
  checkStrided<uint16_t>(transposePlan(Dims{33, 65}, {1, 0}), 33 * 65);
  checkStrided<uint64_t>(transposePlan(Dims{2, 5, 70, 31}, {0, 1, 3, 2}), 2 * 5 * 70 * 31);
  checkStrided<uint32_t>(transposePlan(Dims{8, 512, 768}, {0, 2, 1}), 8 * 512 * 768);
}

TEST(CudaDataMovementDevice, CopyRowsForConcat) {
  REQUIRE_DEVICE();
  // Concat of [2, 3, 4] and [2, 5, 4] on axis 1 (uint16, a row of 3 * 4 elements).
  std::vector<uint16_t> a(24), b(40);
  std::iota(a.begin(), a.end(), 0);
  std::iota(b.begin(), b.end(), 1000);
  Dev<uint16_t> da(a), db(b), y(64);
  ASSERT_EQ(launchCopyRows(da.p, 12, y.p, 32, 2, 12, 2, nullptr), 0);
  ASSERT_EQ(launchCopyRows(db.p, 20, y.p + 12, 32, 2, 20, 2, nullptr), 0);
  std::vector<uint16_t> want;
  for (int o = 0; o < 2; ++o) {
    want.insert(want.end(), a.begin() + o * 12, a.begin() + o * 12 + 12);
    want.insert(want.end(), b.begin() + o * 20, b.begin() + o * 20 + 20);
  }
  EXPECT_EQ(y.get(), want);
}

TEST(CudaDataMovementDevice, PadModes) {
  REQUIRE_DEVICE();
  // [2, 3] padded by (1, 2) before and (2, 1) after, each mode, float bits.
  std::vector<float> x{1, 2, 3, 4, 5, 6};
  const int64_t inD[2] = {2, 3}, pb[2] = {1, 2}, pe[2] = {2, 1};
  for (int mode = 0; mode < 4; ++mode) {
    PadArgs a;
    a.rank = 2;
    a.mode = mode;
    for (int d = 0; d < 2; ++d) {
      a.inDims[d] = inD[d];
      a.outDims[d] = inD[d] + pb[d] + pe[d];
      a.padBegin[d] = pb[d];
    }
    const int64_t total = a.outDims[0] * a.outDims[1];
    float fillF = -1.5f;
    uint32_t fillBits;
    std::memcpy(&fillBits, &fillF, 4);
    Dev<float> dx(x), dy(static_cast<size_t>(total));
    ASSERT_EQ(launchPad(dx.p, dy.p, 4, a, fillBits, total, nullptr), 0);
    auto map = [&](int64_t i, int64_t n) -> int64_t {
      if (i >= 0 && i < n) return i;
      if (mode == 0) return -1;
      if (mode == 2) return i < 0 ? 0 : n - 1;
      if (mode == 3) return ((i % n) + n) % n;
      int64_t period = 2 * (n - 1), m = ((i % period) + period) % period;
      return m >= n ? period - m : m;
    };
    std::vector<float> want;
    for (int64_t r = 0; r < a.outDims[0]; ++r)
      for (int64_t c = 0; c < a.outDims[1]; ++c) {
        int64_t i = map(r - pb[0], 2), j = map(c - pb[1], 3);
        want.push_back(i < 0 || j < 0 ? fillF : x[static_cast<size_t>(i * 3 + j)]);
      }
    EXPECT_EQ(dy.get(), want) << "mode " << mode;
  }
}

TEST(CudaDataMovementDevice, GatherNegativeIndices) {
  REQUIRE_DEVICE();
  // data [2, 4, 3] (uint64), axis 1, indices [3, -1, 0, -4] as int32 and int64.
  std::vector<uint64_t> data(24);
  std::iota(data.begin(), data.end(), 100);
  std::vector<int32_t> i32{3, -1, 0, -4};
  std::vector<int64_t> i64{3, -1, 0, -4};
  std::vector<uint64_t> want;
  for (int o = 0; o < 2; ++o)
    for (int64_t k : i64) {
      int64_t ix = k < 0 ? k + 4 : k;
      for (int e = 0; e < 3; ++e) want.push_back(data[static_cast<size_t>((o * 4 + ix) * 3 + e)]);
    }
  Dev<uint64_t> dd(data), y1(want.size()), y2(want.size());
  Dev<int32_t> di32(i32);
  Dev<int64_t> di64(i64);
  ASSERT_EQ(launchGather(dd.p, di32.p, false, y1.p, 8, 2, 4, 4, 3, nullptr), 0);
  ASSERT_EQ(launchGather(dd.p, di64.p, true, y2.p, 8, 2, 4, 4, 3, nullptr), 0);
  EXPECT_EQ(y1.get(), want);
  EXPECT_EQ(y2.get(), want);
}

TEST(CudaDataMovementDevice, ResizeNearestAndLinear) {
  REQUIRE_DEVICE();
  // [1, 2, 3, 4] -> [1, 2, 6, 8], half_pixel.
  const int64_t in[4] = {1, 2, 3, 4}, out[4] = {1, 2, 6, 8};
  std::vector<float> x(24);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i * i % 17);
  std::vector<ResizeAxis> axes;
  for (int d = 0; d < 4; ++d)
    axes.push_back({in[d], out[d], static_cast<double>(out[d]) / static_cast<double>(in[d]), 0, 1});
  const int64_t total = 96;

  ResizeAttrs a;  // nearest, half_pixel, round_prefer_floor
  const int64_t st[4] = {24, 12, 4, 1};
  std::vector<int64_t> maps;
  std::vector<std::vector<int64_t>> per(4);
  for (int d = 0; d < 4; ++d) {
    per[static_cast<size_t>(d)] = nearestMap(a, axes[static_cast<size_t>(d)]);
    for (int64_t m : per[static_cast<size_t>(d)]) maps.push_back(m * st[d]);
  }
  std::vector<float> wantN;
  for (int64_t c = 0; c < 2; ++c)
    for (int64_t h = 0; h < 6; ++h)
      for (int64_t w = 0; w < 8; ++w)
        wantN.push_back(x[static_cast<size_t>(c * 12 + per[2][static_cast<size_t>(h)] * 4 +
                                              per[3][static_cast<size_t>(w)])]);
  Dev<float> dx(x), yn(static_cast<size_t>(total)), yl(static_cast<size_t>(total));
  Dev<int64_t> dm(maps);
  ASSERT_EQ(launchResizeNearest(dx.p, yn.p, 4, dm.p, out, 0, nullptr), 0);
  EXPECT_EQ(yn.get(), wantN);

  a.mode = ResizeMode::kLinear;
  std::vector<LinearTap> taps;
  std::vector<std::vector<LinearTap>> tp(4);
  for (int d = 0; d < 4; ++d) {
    tp[static_cast<size_t>(d)] = linearTaps(a, axes[static_cast<size_t>(d)]);
    taps.insert(taps.end(), tp[static_cast<size_t>(d)].begin(), tp[static_cast<size_t>(d)].end());
  }
  std::vector<float> wantL;
  for (int64_t c = 0; c < 2; ++c)
    for (int64_t h = 0; h < 6; ++h)
      for (int64_t w = 0; w < 8; ++w) {
        const LinearTap& th = tp[2][static_cast<size_t>(h)];
        const LinearTap& tw = tp[3][static_cast<size_t>(w)];
        auto at = [&](int64_t i, int64_t j) { return x[static_cast<size_t>(c * 12 + i * 4 + j)]; };
        wantL.push_back(th.w0 * (tw.w0 * at(th.i0, tw.i0) + tw.w1 * at(th.i0, tw.i1)) +
                        th.w1 * (tw.w0 * at(th.i1, tw.i0) + tw.w1 * at(th.i1, tw.i1)));
      }
  Dev<LinearTap> dt(taps);
  ASSERT_EQ(launchResizeLinear(dx.p, yl.p, 0, dt.p, in, out, 0.0f, nullptr), 0);
  auto got = yl.get();
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], wantL[i], 1e-4) << i;

  // float16: the same within half precision.
  std::vector<__half> xh(x.size());
  for (size_t i = 0; i < x.size(); ++i) xh[i] = __float2half(x[i]);
  Dev<__half> dxh(xh), yh(static_cast<size_t>(total));
  ASSERT_EQ(launchResizeLinear(dxh.p, yh.p, 1, dt.p, in, out, 0.0f, nullptr), 0);
  auto goth = yh.get();
  for (size_t i = 0; i < goth.size(); ++i) EXPECT_NEAR(__half2float(goth[i]), wantL[i], 2e-2) << i;
}

}  // namespace
}  // namespace passlab::exec::cuda
