// The tiled 1-byte Transpose (transpose.cpp: 16x16 tiles through SSE2
// registers where the innermost two collapsed dims swap) against a plain
// index loop, exactly: NCHW <-> NHWC with sizes below, at and above the tile
// (tails in both dims), matrices under 16 wide (a 3-channel image: 16-byte
// stores that overlap the next row's), batch 2, a swap of the last two axes,
// a 5-D perm, a perm that keeps the innermost axis (not tiled), 3-channel
// images through AVX-512 VBMI byte permutes (64 positions a step, runs of
// 4096, tails, batch 3, 5-D) where the CPU has them, else AVX2 byte
// shuffles (32 positions a step) where it has those, int8 and
// uint8, 1 and 2 threads; and a Slice (stridedCopy shares the copy) unchanged.
// The same shapes on 4-byte elements (float32 and int32: 4x4 tiles). Rows
// of 4-byte elements at stride 2 (SpaceToDepth, Slice with step 2: AVX-512
// permutes or SSE2 shuffles) equal the plain loop for every row length
// around the 4- and 16-element vectors, and SpaceToDepth equals its formula.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "core/exec/cpu/transpose.h"
#include "tests/core/exec/exec_test_util.h"

namespace passlab::exec {
namespace {

std::string ints(const Dims& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

// y = x transposed by perm, one element at a time.
template <class E>
std::vector<E> plainTranspose(const std::vector<E>& x, const Dims& d,
                              const std::vector<int64_t>& perm, Dims& outDims) {
  const size_t r = d.size();
  std::vector<int64_t> strides(r, 1);
  for (size_t i = r - 1; i > 0; --i) strides[i - 1] = strides[i] * d[i];
  outDims.clear();
  for (int64_t p : perm) outDims.push_back(d[static_cast<size_t>(p)]);
  std::vector<E> y(x.size());
  std::vector<int64_t> idx(r, 0);
  for (size_t o = 0; o < y.size(); ++o) {
    int64_t src = 0;
    for (size_t i = 0; i < r; ++i) src += idx[i] * strides[static_cast<size_t>(perm[i])];
    y[o] = x[static_cast<size_t>(src)];
    for (size_t i = r; i-- > 0;) {
      if (++idx[i] < outDims[i]) break;
      idx[i] = 0;
    }
  }
  return y;
}

struct Case {
  const char* name;
  Dims x;
  std::vector<int64_t> perm;
};

class TransposeBytes : public ::testing::TestWithParam<Case> {};

TEST_P(TransposeBytes, EqualsThePlainLoop) {
  const Case& c = GetParam();
  int64_t n = 1;
  for (int64_t d : c.x) n *= d;
  std::vector<uint8_t> x(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    x[static_cast<size_t>(i)] = static_cast<uint8_t>((i * 131 + i / 256) & 255);
  Dims outDims;
  const std::vector<uint8_t> want = plainTranspose(x, c.x, c.perm, outDims);
  for (ir::DataType dt : {ir::DataType::kUInt8, ir::DataType::kInt8}) {
    // The copy itself, 1 and 2 threads.
    for (int threads : {1, 2}) {
      Tensor xt = Tensor::zeros(dt, c.x);
      std::memcpy(xt.mutableRaw(), x.data(), x.size());
      Tensor yt = Tensor::zeros(dt, outDims);
      cpu::transposeInto(xt, c.perm, yt, threads);
      const auto* got = static_cast<const uint8_t*>(yt.raw());
      for (size_t i = 0; i < want.size(); ++i)
        ASSERT_EQ(int{got[i]}, int{want[i]}) << "element " << i << ", " << threads << " threads";
    }
  }
  // The node.
  const std::string text = "<ir_version: 9, opset_import: [\"\" : 19]>\nmain (uint8" + ints(c.x) +
                           " x) => (uint8" + ints(outDims) +
                           " y) {\n y = Transpose <perm = " + ints(c.perm) + "> (x) }";
  RunResult r = testutil::runText(
      text, {{"x", ir::Tensor::fromVector<uint8_t>(ir::DataType::kUInt8, c.x, x)}});
  ASSERT_EQ(r.outputs.size(), 1u);
  auto got = r.outputs[0].data<uint8_t>();
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) ASSERT_EQ(int{got[i]}, int{want[i]}) << "element " << i;
}

const Case kCases[] = {
    {"nchw_to_nhwc_squeezenet", {1, 96, 27, 27}, {0, 2, 3, 1}},
    {"nhwc_to_nchw_squeezenet", {1, 27, 27, 96}, {0, 3, 1, 2}},
    {"nchw_to_nhwc_exact_tiles", {1, 32, 8, 8}, {0, 2, 3, 1}},
    {"nchw_to_nhwc_tails", {1, 17, 5, 7}, {0, 2, 3, 1}},
    {"three_channels", {1, 3, 40, 41}, {0, 2, 3, 1}},
    {"three_channels_batch2_whole_blocks", {2, 3, 16, 6}, {0, 2, 3, 1}},
    {"five_channels_one_row_left", {1, 5, 17, 16}, {0, 2, 3, 1}},
    {"three_channels_image", {1, 3, 227, 227}, {0, 2, 3, 1}},
    {"three_channels_ultraface_image", {1, 3, 240, 320}, {0, 2, 3, 1}},
    {"three_channels_batch3_tails", {3, 3, 7, 19}, {0, 2, 3, 1}},
    {"three_channels_5d", {2, 3, 4, 5, 9}, {0, 2, 3, 4, 1}},
    {"batch2", {2, 40, 9, 11}, {0, 2, 3, 1}},
    {"batch2_back", {2, 9, 11, 40}, {0, 3, 1, 2}},
    {"last_two_swapped", {3, 2, 20, 33}, {0, 1, 3, 2}},
    {"5d", {2, 18, 3, 4, 5}, {0, 2, 3, 4, 1}},
    {"inner_axis_kept", {2, 20, 17, 19}, {1, 0, 2, 3}},
    {"below_a_tile", {1, 15, 3, 3}, {0, 2, 3, 1}},
};

TEST_P(TransposeBytes, FourByteElementsEqualThePlainLoop) {
  const Case& c = GetParam();
  int64_t n = 1;
  for (int64_t d : c.x) n *= d;
  std::vector<uint32_t> x(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    x[static_cast<size_t>(i)] = static_cast<uint32_t>(i * 2654435761u);
  Dims outDims;
  const std::vector<uint32_t> want = plainTranspose(x, c.x, c.perm, outDims);
  for (ir::DataType dt : {ir::DataType::kFloat, ir::DataType::kInt32})
    for (int threads : {1, 2}) {
      Tensor xt = Tensor::zeros(dt, c.x);
      std::memcpy(xt.mutableRaw(), x.data(), x.size() * 4);
      Tensor yt = Tensor::zeros(dt, outDims);
      cpu::transposeInto(xt, c.perm, yt, threads);
      const auto* got = static_cast<const uint32_t*>(yt.raw());
      for (size_t i = 0; i < want.size(); ++i)
        ASSERT_EQ(got[i], want[i]) << "element " << i << ", " << threads << " threads";
    }
}

INSTANTIATE_TEST_SUITE_P(Shapes, TransposeBytes, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(TransposeBytes, SliceUnchanged) {
  // A Slice with steps: the strided copy, not a transpose.
  const std::string text = R"(<ir_version: 9, opset_import: ["" : 19]>
main (uint8[1,4,20,20] x) => (uint8[1,2,10,7] y) <int64[2] st = {0, 1}, int64[2] en = {20, 20}, int64[2] ax = {2, 3}, int64[2] sp = {2, 3}, int64[1] cs = {0}, int64[1] ce = {4}, int64[1] ca = {1}, int64[1] cp = {2}> {
 a = Slice(x, st, en, ax, sp)
 y = Slice(a, cs, ce, ca, cp) })";
  std::vector<uint8_t> x(1600);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<uint8_t>(i * 7);
  RunResult r = testutil::runText(
      text, {{"x", ir::Tensor::fromVector<uint8_t>(ir::DataType::kUInt8, {1, 4, 20, 20}, x)}});
  ASSERT_EQ(r.outputs.size(), 1u);
  auto got = r.outputs[0].data<uint8_t>();
  size_t o = 0;
  for (int c = 0; c < 4; c += 2)
    for (int h = 0; h < 20; h += 2)
      for (int w = 1; w < 20; w += 3)
        ASSERT_EQ(got[o++], x[static_cast<size_t>((c * 20 + h) * 20 + w)]);
}

TEST(StrideTwoCopy, RowsEqualThePlainLoop) {
  for (int64_t n = 1; n <= 70; ++n)
    for (int64_t rows : {2, 3}) {
      const int64_t rowStride = 2 * n + rows - 2;  // 2n or 2n + 1 (rows at odd offsets)
      const int64_t size =
          (rows - 1) * rowStride + 2 * (n - 1) + 1;  // ends at the last element read
      Tensor x = Tensor::zeros(ir::DataType::kFloat, {size});
      auto* xv = static_cast<uint32_t*>(x.mutableRaw());
      for (int64_t i = 0; i < size; ++i) xv[i] = static_cast<uint32_t>(i * 2654435761u);
      Tensor y = Tensor::zeros(ir::DataType::kFloat, {rows, n});
      cpu::stridedCopy(x, 0, {rowStride, 2}, y, 1);
      const auto* got = static_cast<const uint32_t*>(y.raw());
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t i = 0; i < n; ++i)
          ASSERT_EQ(got[r * n + i], xv[r * rowStride + 2 * i]) << "n " << n << " row " << r;
    }
}

TEST(StrideTwoCopy, SpaceToDepthEqualsItsFormula) {
  for (int64_t wo : {1, 4, 5, 16, 17, 33})
    for (int64_t bs : {2, 3}) {
      const int64_t C = 3, H = 2 * bs, W = wo * bs;
      const std::string dims =
          "[1," + std::to_string(C) + "," + std::to_string(H) + "," + std::to_string(W) + "]";
      const std::string text = R"(<ir_version: 9, opset_import: ["" : 13]>
main (float)" + dims + R"( x) => (float y) {
 y = SpaceToDepth <blocksize = )" +
                               std::to_string(bs) + R"(> (x) })";
      std::vector<float> x(static_cast<size_t>(C * H * W));
      for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i) * 0.5f - 3.0f;
      RunResult r = testutil::runText(text, {{"x", testutil::floats({1, C, H, W}, x)}});
      ASSERT_EQ(r.outputs.size(), 1u);
      const std::vector<float> got = testutil::toFloats(r.outputs[0]);
      const int64_t ho = H / bs;
      ASSERT_EQ(got.size(), x.size());
      for (int64_t by = 0; by < bs; ++by)
        for (int64_t bx = 0; bx < bs; ++bx)
          for (int64_t c = 0; c < C; ++c)
            for (int64_t h = 0; h < ho; ++h)
              for (int64_t v = 0; v < wo; ++v) {
                const int64_t oc = (by * bs + bx) * C + c;
                ASSERT_EQ(got[static_cast<size_t>((oc * ho + h) * wo + v)],
                          x[static_cast<size_t>((c * H + h * bs + by) * W + v * bs + bx)])
                    << "W " << W << " bs " << bs;
              }
    }
}

}  // namespace
}  // namespace passlab::exec
