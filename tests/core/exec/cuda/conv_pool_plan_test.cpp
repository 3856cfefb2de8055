// Host side of the CUDA convolution and pooling rows (conv_plan.h,
// pool_plan.h): the CPU's geometry as cuDNN and the direct kernels take it.
#include <gtest/gtest.h>

#include <vector>

#include "core/exec/cpu/conv_geometry.h"
#include "core/exec/cpu/passlab_fused.h"
#include "core/exec/cpu/pool_geometry.h"
#include "core/exec/cuda/conv_plan.h"
#include "core/exec/cuda/pool_plan.h"

namespace passlab::exec::cuda {
namespace {

cpu::ConvGeometry convGeo(const Dims& x, const Dims& w, ir::WindowAttrs win, int64_t group = 1) {
  cpu::ConvAttrs a{std::move(win), group};
  auto g = cpu::convGeometry(a, x, w);
  EXPECT_TRUE(g.isOk()) << g.error().message();
  return std::move(g).value();
}

TEST(CudnnConvShape, SymmetricPads2D) {
  ir::WindowAttrs win;
  win.pads = {1, 1, 1, 1};
  auto s = cudnnConvShape(convGeo({1, 3, 8, 8}, {16, 3, 3, 3}, win));
  ASSERT_TRUE(s.isOk());
  EXPECT_EQ(s->x, (std::vector<int>{1, 3, 8, 8}));
  EXPECT_EQ(s->w, (std::vector<int>{16, 3, 3, 3}));
  EXPECT_EQ(s->y, (std::vector<int>{1, 16, 8, 8}));
  EXPECT_EQ(s->pads, (std::vector<int>{1, 1}));
  EXPECT_EQ(s->strides, (std::vector<int>{1, 1}));
  EXPECT_EQ(s->dilations, (std::vector<int>{1, 1}));
  EXPECT_EQ(s->groups, 1);
  EXPECT_FALSE(s->prePad);
}

TEST(CudnnConvShape, OneDimensionalAsTwo) {
  ir::WindowAttrs win;
  win.strides = {2};
  win.dilations = {2};
  win.pads = {1, 1};
  // span 5, (10 + 2 - 5) / 2 + 1 = 4
  auto s = cudnnConvShape(convGeo({2, 4, 10}, {6, 4, 3}, win));
  ASSERT_TRUE(s.isOk());
  EXPECT_EQ(s->x, (std::vector<int>{2, 4, 1, 10}));
  EXPECT_EQ(s->w, (std::vector<int>{6, 4, 1, 3}));
  EXPECT_EQ(s->y, (std::vector<int>{2, 6, 1, 4}));
  EXPECT_EQ(s->pads, (std::vector<int>{0, 1}));
  EXPECT_EQ(s->strides, (std::vector<int>{1, 2}));
  EXPECT_EQ(s->dilations, (std::vector<int>{1, 2}));
}

TEST(CudnnConvShape, SameUpperPadsXFirst) {
  ir::WindowAttrs win;
  win.autoPad = ir::AutoPad::kSameUpper;
  win.strides = {2, 2};
  // out 4, pads total (4 - 1) * 2 + 3 - 8 = 1: 0 before, 1 after.
  auto s = cudnnConvShape(convGeo({1, 2, 8, 8}, {4, 2, 3, 3}, win));
  ASSERT_TRUE(s.isOk());
  EXPECT_TRUE(s->prePad);
  EXPECT_EQ(s->x, (std::vector<int>{1, 2, 9, 9}));
  EXPECT_EQ(s->y, (std::vector<int>{1, 4, 4, 4}));
  EXPECT_EQ(s->pads, (std::vector<int>{0, 0}));
  EXPECT_EQ(s->in[1], 8);
  EXPECT_EQ(s->paddedIn[0], 1);
  EXPECT_EQ(s->paddedIn[1], 9);
  EXPECT_EQ(s->paddedIn[2], 9);
  EXPECT_EQ(s->padBegin[1], 0);
  EXPECT_EQ(s->padBegin[2], 0);
}

TEST(CudnnConvShape, SameLowerPadsBefore) {
  ir::WindowAttrs win;
  win.autoPad = ir::AutoPad::kSameLower;
  win.strides = {2, 2};
  auto s = cudnnConvShape(convGeo({1, 2, 8, 8}, {4, 2, 3, 3}, win));
  ASSERT_TRUE(s.isOk());
  EXPECT_TRUE(s->prePad);
  EXPECT_EQ(s->padBegin[1], 1);
  EXPECT_EQ(s->padBegin[2], 1);
  EXPECT_EQ(s->y, (std::vector<int>{1, 4, 4, 4}));
}

TEST(CudnnConvShape, Depthwise) {
  ir::WindowAttrs win;
  win.pads = {1, 1, 1, 1};
  auto s = cudnnConvShape(convGeo({2, 8, 5, 5}, {8, 1, 3, 3}, win, 8));
  ASSERT_TRUE(s.isOk());
  EXPECT_EQ(s->groups, 8);
  EXPECT_EQ(s->w, (std::vector<int>{8, 1, 3, 3}));
  EXPECT_EQ(s->y, (std::vector<int>{2, 8, 5, 5}));
}

TEST(CudnnConvShape, ThreeDimensional) {
  ir::WindowAttrs win;
  auto s = cudnnConvShape(convGeo({1, 2, 4, 5, 6}, {3, 2, 1, 2, 3}, win));
  ASSERT_TRUE(s.isOk());
  EXPECT_EQ(s->x, (std::vector<int>{1, 2, 4, 5, 6}));
  EXPECT_EQ(s->y, (std::vector<int>{1, 3, 4, 4, 4}));
  EXPECT_EQ(s->pads.size(), 3u);
}

TEST(CudnnConvShape, DeclinesFourSpatialAxesAndHugeTensors) {
  ir::WindowAttrs win;
  auto four = cudnnConvShape(convGeo({1, 1, 2, 2, 2, 2}, {1, 1, 1, 1, 1, 1}, win));
  ASSERT_FALSE(four.isOk());
  EXPECT_EQ(four.error().code(), ErrorCode::kUnsupported);
  auto huge = cudnnConvShape(convGeo({1 << 16, 1 << 10, 64, 64}, {1, 1 << 10, 1, 1}, win));
  ASSERT_FALSE(huge.isOk());
  EXPECT_EQ(huge.error().code(), ErrorCode::kUnsupported);
}

TEST(CudnnConvTransposeShape, FullImageThenCut) {
  ir::WindowAttrs win;
  win.strides = {2, 2};
  win.pads = {1, 1, 1, 1};
  win.outputPadding = {1, 1};
  cpu::ConvAttrs a{win, 1};
  auto g = cpu::convTransposeGeometry(a, {1, 2, 3, 3}, {2, 4, 3, 3});
  ASSERT_TRUE(g.isOk()) << g.error().message();
  EXPECT_EQ(g->outDims, (Dims{1, 4, 6, 6}));  // (3 - 1) * 2 + 1 + 3 - 2
  auto s = cudnnConvTransposeShape(*g);
  ASSERT_TRUE(s.isOk());
  EXPECT_EQ(s->x, (std::vector<int>{1, 2, 3, 3}));
  EXPECT_EQ(s->w, (std::vector<int>{2, 4, 3, 3}));
  EXPECT_EQ(s->y, (std::vector<int>{1, 4, 7, 7}));  // (3 - 1) * 2 + 3, no pads
  EXPECT_EQ(s->pads, (std::vector<int>{0, 0}));
  EXPECT_EQ(s->strides, (std::vector<int>{2, 2}));
  EXPECT_FALSE(s->prePad);
  EXPECT_EQ(s->in[1], 7);
  EXPECT_EQ(s->paddedIn[1], 6);
  EXPECT_EQ(s->padBegin[1], -1);
  EXPECT_EQ(s->in[0], 1);
}

TEST(CudnnConvTransposeShape, GroupedOneDimensional) {
  ir::WindowAttrs win;
  cpu::ConvAttrs a{win, 2};
  auto g = cpu::convTransposeGeometry(a, {1, 4, 5}, {4, 3, 2});
  ASSERT_TRUE(g.isOk()) << g.error().message();
  auto s = cudnnConvTransposeShape(*g);
  ASSERT_TRUE(s.isOk());
  EXPECT_EQ(s->groups, 2);
  EXPECT_EQ(s->x, (std::vector<int>{1, 4, 1, 5}));
  EXPECT_EQ(s->w, (std::vector<int>{4, 3, 1, 2}));
  EXPECT_EQ(s->y, (std::vector<int>{1, 6, 1, 6}));
}

TEST(CudaEpilogueAct, EveryActivation) {
  using cpu::fused::ActKind;
  auto map = [](ActKind k) { return epilogueAct(cpu::fused::Activation{k, 0.0f, 0.0f}); };
  EXPECT_EQ(map(ActKind::kNone), EpilogueAct::kNone);
  EXPECT_EQ(map(ActKind::kRelu), EpilogueAct::kRelu);
  EXPECT_EQ(map(ActKind::kLeakyRelu), EpilogueAct::kLeakyRelu);
  EXPECT_EQ(map(ActKind::kClip), EpilogueAct::kClip);
  EXPECT_EQ(map(ActKind::kSigmoid), EpilogueAct::kSigmoid);
  EXPECT_EQ(map(ActKind::kTanh), EpilogueAct::kTanh);
  EXPECT_EQ(map(ActKind::kHardSigmoid), EpilogueAct::kHardSigmoid);
  EXPECT_EQ(map(ActKind::kHardSwish), EpilogueAct::kHardSwish);
  EXPECT_EQ(map(ActKind::kGelu), EpilogueAct::kGelu);
  EXPECT_EQ(map(ActKind::kGeluTanh), EpilogueAct::kGeluTanh);
}

cpu::PoolGeometry poolGeo(const Dims& x, ir::WindowAttrs win) {
  cpu::PoolAttrs a;
  a.window = std::move(win);
  auto g = cpu::poolGeometry(a, x);
  EXPECT_TRUE(g.isOk()) << g.error().message();
  return std::move(g).value();
}

TEST(CudaPoolWindow3, CeilModeTwoD) {
  ir::WindowAttrs win;
  win.kernel = {2, 2};
  win.strides = {2, 2};
  win.ceilMode = true;
  auto w = poolWindow3(poolGeo({1, 3, 5, 5}, win));
  ASSERT_TRUE(w.isOk());
  EXPECT_EQ(w->in[0], 1);
  EXPECT_EQ(w->in[1], 5);
  EXPECT_EQ(w->in[2], 5);
  EXPECT_EQ(w->out[0], 1);
  EXPECT_EQ(w->out[1], 3);
  EXPECT_EQ(w->out[2], 3);
  EXPECT_EQ(w->kernel[0], 1);
  EXPECT_EQ(w->kernel[2], 2);
  EXPECT_EQ(w->stride[2], 2);
  EXPECT_EQ(w->padEnd[2], 0);
}

TEST(CudaPoolWindow3, OneDimensionalWithPadsAndDilation) {
  ir::WindowAttrs win;
  win.kernel = {3};
  win.dilations = {2};
  win.pads = {2, 1};
  auto w = poolWindow3(poolGeo({2, 4, 10}, win));
  ASSERT_TRUE(w.isOk());
  EXPECT_EQ(w->in[1], 1);
  EXPECT_EQ(w->in[2], 10);
  EXPECT_EQ(w->dilation[2], 2);
  EXPECT_EQ(w->padBegin[2], 2);
  EXPECT_EQ(w->padEnd[2], 1);
  EXPECT_EQ(w->out[2], 9);  // 10 + 3 - 5 + 1
}

TEST(CudaPoolWindow3, DeclinesFourSpatialAxes) {
  ir::WindowAttrs win;
  win.kernel = {1, 1, 1, 1};
  auto w = poolWindow3(poolGeo({1, 1, 2, 2, 2, 2}, win));
  ASSERT_FALSE(w.isOk());
  EXPECT_EQ(w.error().code(), ErrorCode::kUnsupported);
}

TEST(CudaFoldBatchNorm, AsTheCpuFolds) {
  const Tensor scale = Tensor::fromVector<float>(ir::DataType::kFloat, {2}, {2.0f, 1.0f});
  const Tensor bias = Tensor::fromVector<float>(ir::DataType::kFloat, {2}, {1.0f, 0.5f});
  const Tensor mean = Tensor::fromVector<float>(ir::DataType::kFloat, {2}, {3.0f, -1.0f});
  const Tensor var = Tensor::fromVector<float>(ir::DataType::kFloat, {2}, {3.0f, 0.0f});
  std::vector<float> a, b;
  foldBatchNorm(scale, bias, mean, var, 1.0, a, b);
  ASSERT_EQ(a.size(), 2u);
  EXPECT_FLOAT_EQ(a[0], 1.0f);   // 2 / sqrt(3 + 1)
  EXPECT_FLOAT_EQ(b[0], -2.0f);  // 1 - 3 * 1
  EXPECT_FLOAT_EQ(a[1], 1.0f);   // 1 / sqrt(0 + 1)
  EXPECT_FLOAT_EQ(b[1], 1.5f);   // 0.5 + 1
}

}  // namespace
}  // namespace passlab::exec::cuda
