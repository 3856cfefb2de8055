// A blocked ai.passlab.FusedConv (`block`) on the layouts blockedConvLayouts
// picks (core/exec/cpu/blocked_conv_layouts.h, issue #26): the rule itself,
// and the kernel against the NCHW chain it stands for (Conv, Add, activation
// on the reference kernels) where it runs oneDNN's direct kernel on the
// chain's layout with the residual as a binary post-op (1x1, stride 1 and 2,
// whole and padded channel blocks, a first layer reading NCHW) and where it
// keeps oneDNN's pick (3x3), at blocks 8 and 16, every activation (those
// oneDNN lacks run after the post-op), with and without bias and residual;
// depthwise layers (3x3 and 5x5, padded blocks, stride 2 x 1) on the chain's
// layout, oneDNN's direct depthwise kernel with no reorder (its verbose log).
// Few output channels run the direct loop (conv_few_outputs.h), not oneDNN.
// Without AVX-512 a grouped 1x1 from 49 positions runs oneDNN's GEMM on NCHW
// (reorders in the kernel), below that the chain's layout.
// On more than one thread every layer asks for the chain's layout.
// A blocked residual of the wrong shape is refused by name.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>

#include "core/exec/cpu/blocked_conv_layouts.h"
#include "core/exec/executor.h"
#include "core/support/cpu_isa.h"
#include "tests/core/exec/exec_test_util.h"
#include "tests/core/exec/kernel_test_util.h"
#include "tests/core/exec/onednn_verbose_log.h"

namespace passlab::exec {
namespace {

using cpu::fused::blockedConvLayouts;
using cpu::fused::ConvLayouts;

TEST(BlockedConvLayouts, PointwiseAndFirstLayersKeepTheChainsLayout) {
  EXPECT_EQ(blockedConvLayouts({1, 1}, true), ConvLayouts::kTheChains);
  EXPECT_EQ(blockedConvLayouts({1}, true), ConvLayouts::kTheChains);
  EXPECT_EQ(blockedConvLayouts({7, 7}, false), ConvLayouts::kTheChains);
  EXPECT_EQ(blockedConvLayouts({3, 3}, false), ConvLayouts::kTheChains);
}

TEST(BlockedConvLayouts, WiderKernelsOnBlockedInputsTakeOneDnnsPick) {
  EXPECT_EQ(blockedConvLayouts({3, 3}, true), ConvLayouts::kOneDnnsPick);
  EXPECT_EQ(blockedConvLayouts({1, 3}, true), ConvLayouts::kOneDnnsPick);
  EXPECT_EQ(blockedConvLayouts({5, 1}, true), ConvLayouts::kOneDnnsPick);
}

TEST(BlockedConvLayouts, DepthwiseLayersKeepTheChainsLayout) {
  EXPECT_EQ(blockedConvLayouts({3, 3}, true, 0, true), ConvLayouts::kTheChains);
  EXPECT_EQ(blockedConvLayouts({5, 5}, true, 0, true), ConvLayouts::kTheChains);
  EXPECT_EQ(blockedConvLayouts({5, 5}, true, 0, false), ConvLayouts::kOneDnnsPick);
}

TEST(BlockedConvLayouts, WiderKernelsOnTensorsOutOfCacheKeepTheChainsLayout) {
  using cpu::fused::kReordersInCacheBytes;
  // resnet50's first 3x3 stage (56x56x64 in and out) keeps brgemm; super_resolution's
  // 64 x 224 x 224 runs on the chain's layout.
  const int64_t resnet = 4 * 2 * 64 * 56 * 56, superResolution = 4 * 2 * 64 * 224 * 224;
  EXPECT_EQ(blockedConvLayouts({3, 3}, true, resnet), ConvLayouts::kOneDnnsPick);
  EXPECT_EQ(blockedConvLayouts({3, 3}, true, kReordersInCacheBytes), ConvLayouts::kOneDnnsPick);
  EXPECT_EQ(blockedConvLayouts({3, 3}, true, kReordersInCacheBytes + 1), ConvLayouts::kTheChains);
  EXPECT_EQ(blockedConvLayouts({3, 3}, true, superResolution), ConvLayouts::kTheChains);
}

TEST(BlockedConvLayouts, OnMoreThanOneThreadEveryConvolutionKeepsTheChainsLayout) {
  const int64_t resnet = 4 * 2 * 64 * 56 * 56;
  EXPECT_EQ(blockedConvLayouts({3, 3}, true, resnet, false, 1), ConvLayouts::kOneDnnsPick);
  EXPECT_EQ(blockedConvLayouts({3, 3}, true, resnet, false, 2), ConvLayouts::kTheChains);
  EXPECT_EQ(blockedConvLayouts({1, 3}, true, 0, false, 4), ConvLayouts::kTheChains);
  EXPECT_EQ(blockedConvLayouts({1, 1}, true, 0, false, 2), ConvLayouts::kTheChains);
}

// squeezenet's Fire expand layers (few channels widened) take the direct
// kernel on one thread too; layers that keep or narrow their channels, wide
// inputs and padded blocks keep oneDNN's pick.
TEST(BlockedConvLayouts, LayersWideningFewChannelsKeepTheChainsLayoutOnOneThread) {
  using cpu::fused::ConvChannels;
  const int64_t small = 4 * (16 * 55 * 55 + 64 * 55 * 55);
  EXPECT_EQ(blockedConvLayouts({3, 3}, true, small, false, 1, ConvChannels{16, 64, 16}),
            ConvLayouts::kTheChains);
  EXPECT_EQ(blockedConvLayouts({3, 3}, true, small, false, 1, ConvChannels{64, 256, 16}),
            ConvLayouts::kTheChains);
  // Exactly twice as many: the direct kernel; one less: oneDNN's pick.
  EXPECT_EQ(blockedConvLayouts({3, 3}, true, small, false, 1, ConvChannels{32, 64, 16}),
            ConvLayouts::kTheChains);
  EXPECT_EQ(blockedConvLayouts({3, 3}, true, small, false, 1, ConvChannels{32, 63, 16}),
            ConvLayouts::kOneDnnsPick);
  EXPECT_EQ(blockedConvLayouts({5, 5}, true, small, false, 1, ConvChannels{32, 96, 16}),
            ConvLayouts::kTheChains);
  // 64 -> 64 (resnet50), 64 -> 96, 96 -> 384, a padded block of 24, channels unknown.
  EXPECT_EQ(blockedConvLayouts({3, 3}, true, small, false, 1, ConvChannels{64, 64, 16}),
            ConvLayouts::kOneDnnsPick);
  EXPECT_EQ(blockedConvLayouts({3, 3}, true, small, false, 1, ConvChannels{64, 96, 16}),
            ConvLayouts::kOneDnnsPick);
  EXPECT_EQ(blockedConvLayouts({3, 3}, true, small, false, 1, ConvChannels{96, 384, 16}),
            ConvLayouts::kOneDnnsPick);
  EXPECT_EQ(blockedConvLayouts({5, 5}, true, small, false, 1, ConvChannels{24, 64, 16}),
            ConvLayouts::kOneDnnsPick);
  EXPECT_EQ(blockedConvLayouts({3, 3}, true, small, false, 1, ConvChannels{0, 64, 16}),
            ConvLayouts::kOneDnnsPick);
}

// With AVX-512, on one thread, a widening layer on a small plane (at most
// 14x14 output pixels) from 32 input channels or more takes oneDNN's pick
// (brgemm) after all: squeezenet's 13x13 Fire expands, inception_v1's 5x5 at
// 14x14 and 7x7. Fewer input channels, larger planes, unknown pixels, more
// threads and a CPU without AVX-512 keep the direct kernel.
TEST(BlockedConvLayouts, SmallPlanesWideningFromThirtyTwoChannelsTakeBrgemmWithAvx512) {
  using cpu::fused::ConvChannels;
  using cpu::fused::kBrgemmWideningMaxPixels;
  using cpu::fused::widensOnBrgemm;
  const int64_t small = 4 * (64 * 13 * 13 + 256 * 13 * 13);
  const auto pick = [&](const Dims& k, ConvChannels c, bool avx512, int threads = 1) {
    return blockedConvLayouts(k, true, small, false, threads, c, avx512);
  };
  EXPECT_EQ(pick({3, 3}, {48, 192, 16, 169}, true), ConvLayouts::kOneDnnsPick);
  EXPECT_EQ(pick({3, 3}, {64, 256, 16, 169}, true), ConvLayouts::kOneDnnsPick);
  EXPECT_EQ(pick({5, 5}, {32, 128, 16, 49}, true), ConvLayouts::kOneDnnsPick);
  // The edges: 14x14 taken, one pixel more not; 32 input channels taken, 24 (block 8) not.
  EXPECT_EQ(pick({5, 5}, {32, 64, 16, kBrgemmWideningMaxPixels}, true), ConvLayouts::kOneDnnsPick);
  EXPECT_EQ(pick({5, 5}, {32, 64, 16, kBrgemmWideningMaxPixels + 1}, true),
            ConvLayouts::kTheChains);
  EXPECT_EQ(pick({3, 3}, {24, 96, 8, 169}, true), ConvLayouts::kTheChains);
  EXPECT_EQ(pick({3, 3}, {16, 64, 16, 169}, true), ConvLayouts::kTheChains);
  // Larger planes (squeezenet's 27x27 and 55x55), pixels unknown.
  EXPECT_EQ(pick({3, 3}, {32, 128, 16, 27 * 27}, true), ConvLayouts::kTheChains);
  EXPECT_EQ(pick({3, 3}, {64, 256, 16, 0}, true), ConvLayouts::kTheChains);
  // Without AVX-512, on 2 threads, a 1x1 kernel: the chain's layouts as before.
  EXPECT_EQ(pick({3, 3}, {48, 192, 16, 169}, false), ConvLayouts::kTheChains);
  EXPECT_EQ(pick({3, 3}, {48, 192, 8, 169}, false), ConvLayouts::kTheChains);
  EXPECT_EQ(pick({3, 3}, {48, 192, 16, 169}, true, 2), ConvLayouts::kTheChains);
  EXPECT_EQ(pick({1, 1}, {48, 192, 16, 169}, true), ConvLayouts::kTheChains);
  // The predicate alone.
  EXPECT_TRUE(widensOnBrgemm({32, 64, 16, 1}, true));
  EXPECT_FALSE(widensOnBrgemm({31, 64, 1, 1}, true));
  EXPECT_FALSE(widensOnBrgemm({64, 256, 16, 169}, false));
}

// super_resolution's 3x3 layers on tensors out of cache take Winograd on one
// thread with AVX-512; anything else in the rule keeps the direct kernel.
TEST(BlockedConvLayouts, LargeThreeByThreeOnOneThreadTakeWinogradWithAvx512) {
  using cpu::fused::blockedConvWinograd;
  using cpu::fused::ConvChannels;
  using cpu::fused::kReordersInCacheBytes;
  const int64_t big = 4 * (64 + 32) * 224 * 224;
  const Dims k3 = {3, 3}, s1 = {1, 1}, d1 = {1, 1};
  EXPECT_TRUE(blockedConvWinograd(k3, s1, d1, ConvChannels{64, 64, 16}, big, 1, true));
  EXPECT_TRUE(blockedConvWinograd(k3, s1, d1, ConvChannels{64, 32, 16}, big, 1, true));
  EXPECT_TRUE(blockedConvWinograd(k3, s1, d1, ConvChannels{64, 32, 16}, kReordersInCacheBytes + 1,
                                  1, true));
  // In cache, 2 threads, no AVX-512, block 8, few channels, unknown (grouped) channels.
  EXPECT_FALSE(
      blockedConvWinograd(k3, s1, d1, ConvChannels{64, 32, 16}, kReordersInCacheBytes, 1, true));
  EXPECT_FALSE(blockedConvWinograd(k3, s1, d1, ConvChannels{64, 64, 16}, big, 2, true));
  EXPECT_FALSE(blockedConvWinograd(k3, s1, d1, ConvChannels{64, 64, 16}, big, 1, false));
  EXPECT_FALSE(blockedConvWinograd(k3, s1, d1, ConvChannels{64, 64, 8}, big, 1, true));
  EXPECT_FALSE(blockedConvWinograd(k3, s1, d1, ConvChannels{48, 64, 16}, big, 1, true));
  EXPECT_FALSE(blockedConvWinograd(k3, s1, d1, ConvChannels{64, 16, 16}, big, 1, true));
  EXPECT_FALSE(blockedConvWinograd(k3, s1, d1, ConvChannels{0, 0, 16}, big, 1, true));
  // Not 3x3, strided, dilated, 1-D.
  EXPECT_FALSE(blockedConvWinograd({5, 5}, s1, d1, ConvChannels{64, 64, 16}, big, 1, true));
  EXPECT_FALSE(blockedConvWinograd(k3, {2, 2}, d1, ConvChannels{64, 64, 16}, big, 1, true));
  EXPECT_FALSE(blockedConvWinograd(k3, s1, {2, 2}, ConvChannels{64, 64, 16}, big, 1, true));
  EXPECT_FALSE(blockedConvWinograd({3}, {1}, {1}, ConvChannels{64, 64, 16}, big, 1, true));
}

// In cache, a 3x3 layer widening few channels onto more than 14x14 output
// pixels (squeezenet's Fire expands on 55x55 and 27x27) takes Winograd on one
// thread with AVX-512; on 14x14 or less (its 13x13 expands: brgemm,
// widensOnBrgemm) or unknown pixels, layers that do not widen (or widen from
// more than kFewInputChannels), block 8, padded channels, 2 threads, no
// AVX-512, other kernels and strides keep what they had.
TEST(BlockedConvLayouts, ThreeByThreeWideningFewChannelsOnLargerPlanesTakeWinogradWithAvx512) {
  using cpu::fused::blockedConvWinograd;
  using cpu::fused::ConvChannels;
  using cpu::fused::kBrgemmWideningMaxPixels;
  const Dims k3 = {3, 3}, s1 = {1, 1}, d1 = {1, 1};
  const int64_t small = 4 * (16 + 64) * 55 * 55;  // in cache
  for (ConvChannels c : {ConvChannels{16, 64, 16, 55 * 55}, ConvChannels{32, 128, 16, 27 * 27},
                         ConvChannels{64, 192, 16, 55 * 55}, ConvChannels{16, 32, 16, 20 * 20},
                         ConvChannels{48, 192, 16, kBrgemmWideningMaxPixels + 1}})
    EXPECT_TRUE(blockedConvWinograd(k3, s1, d1, c, small, 1, true)) << c.in << " -> " << c.out;
  // Small planes (the edge: 14x14), unknown pixels.
  EXPECT_FALSE(blockedConvWinograd(k3, s1, d1, ConvChannels{48, 192, 16, 13 * 13}, small, 1, true));
  EXPECT_FALSE(blockedConvWinograd(k3, s1, d1, ConvChannels{64, 256, 16, kBrgemmWideningMaxPixels},
                                   small, 1, true));
  EXPECT_FALSE(blockedConvWinograd(k3, s1, d1, ConvChannels{16, 64, 16, 0}, small, 1, true));
  // Widening from more than 64 channels, not widening twice, block 8, padded channels, grouped.
  EXPECT_FALSE(blockedConvWinograd(k3, s1, d1, ConvChannels{96, 208, 16, 27 * 27}, small, 1, true));
  EXPECT_FALSE(blockedConvWinograd(k3, s1, d1, ConvChannels{64, 96, 16, 27 * 27}, small, 1, true));
  EXPECT_FALSE(blockedConvWinograd(k3, s1, d1, ConvChannels{16, 64, 8, 27 * 27}, small, 1, true));
  EXPECT_FALSE(blockedConvWinograd(k3, s1, d1, ConvChannels{48, 200, 16, 27 * 27}, small, 1, true));
  EXPECT_FALSE(blockedConvWinograd(k3, s1, d1, ConvChannels{0, 0, 16, 27 * 27}, small, 1, true));
  // 2 threads, no AVX-512, 5x5, strided, dilated.
  const ConvChannels expand{16, 64, 16, 55 * 55};
  EXPECT_FALSE(blockedConvWinograd(k3, s1, d1, expand, small, 2, true));
  EXPECT_FALSE(blockedConvWinograd(k3, s1, d1, expand, small, 1, false));
  EXPECT_FALSE(blockedConvWinograd({5, 5}, s1, d1, expand, small, 1, true));
  EXPECT_FALSE(blockedConvWinograd(k3, {2, 2}, d1, expand, small, 1, true));
  EXPECT_FALSE(blockedConvWinograd(k3, s1, {2, 2}, expand, small, 1, true));
}

const char* kHeader = R"(<ir_version: 8, opset_import: ["" : 20, "ai.passlab" : 1]>)";

ir::Tensor rnd(kt::Dims dims, unsigned seed) {
  return kt::uniformF32(std::move(dims), seed, 2.0f);
}

ir::Tensor run(const std::string& body, const NamedInputs& inputs, bool reference) {
  return kt::runOneOutput(std::string(kHeader) + body, inputs, reference);
}

struct Act {
  const char* fusedAttrs;
  const char* chainNode;  // reads u, writes y
};

const Act kActs[] = {
    {R"(, activation = "Relu")", "y = Relu(u)"},
    {R"(, activation = "LeakyRelu", activation_params = [0.1])", "y = LeakyRelu <alpha = 0.1> (u)"},
    {R"(, activation = "Clip", activation_params = [-0.5, 0.75])", "y = Clip(u, lo, hi)"},
    {R"(, activation = "Sigmoid")", "y = Sigmoid(u)"},
    {R"(, activation = "Tanh")", "y = Tanh(u)"},
    // oneDNN 2.6 has no hardsigmoid: the epilogue loop applies it.
    {R"(, activation = "HardSigmoid", activation_params = [0.3, 0.4])",
     "y = HardSigmoid <alpha = 0.3, beta = 0.4> (u)"},
    {R"(, activation = "HardSwish")", "y = HardSwish(u)"},
    {R"(, activation = "Gelu")", "y = Gelu(u)"},
    {"", "y = Identity(u)"},
};

struct ConvCase {
  const char* name;
  kt::Dims x, w, y;
  const char* attrs;
  bool blockedX;  // X reordered to the blocked layout (else read as NCHW)
};

const ConvCase kConvs[] = {
    {"1x1 whole blocks",
     {1, 32, 6, 5},
     {48, 32, 1, 1},
     {1, 48, 6, 5},
     "kernel_shape = [1, 1]",
     true},
    {"1x1 padded blocks",
     {2, 12, 5, 5},
     {20, 12, 1, 1},
     {2, 20, 5, 5},
     "kernel_shape = [1, 1]",
     true},
    {"1x1 stride 2",
     {1, 32, 9, 8},
     {64, 32, 1, 1},
     {1, 64, 5, 4},
     "kernel_shape = [1, 1], strides = [2, 2]",
     true},
    {"3x3", {1, 16, 7, 7}, {24, 16, 3, 3}, {1, 24, 7, 7}, "pads = [1, 1, 1, 1]", true},
    // 1x1 on 1x1 (squeeze-excite): GEMVs on the blocked vectors (conv_gemv.h),
    // padded blocks, grouped, batch 2, and read as NCHW (a first layer).
    {"1x1 on 1x1", {1, 40, 1, 1}, {10, 40, 1, 1}, {1, 10, 1, 1}, "kernel_shape = [1, 1]", true},
    {"1x1 on 1x1 grouped",
     {2, 24, 1, 1},
     {36, 8, 1, 1},
     {2, 36, 1, 1},
     "kernel_shape = [1, 1], group = 3",
     true},
    {"1x1 on 1x1 first layer",
     {2, 20, 1, 1},
     {12, 20, 1, 1},
     {2, 12, 1, 1},
     "kernel_shape = [1, 1]",
     false},
    {"7x7 first layer",
     {1, 3, 20, 20},
     {16, 3, 7, 7},
     {1, 16, 10, 10},
     "pads = [3, 3, 3, 3], strides = [2, 2]",
     false},
    // Depthwise (ppocr_cls_mobile_v2's): padded blocks, stride 2 x 1; 5x5.
    {"depthwise 3x3 stride 2x1",
     {1, 24, 8, 10},
     {24, 1, 3, 3},
     {1, 24, 4, 10},
     "pads = [1, 1, 1, 1], strides = [2, 1], group = 24",
     true},
    {"depthwise 5x5",
     {2, 32, 3, 12},
     {32, 1, 5, 5},
     {2, 32, 3, 12},
     "pads = [2, 2, 2, 2], group = 32",
     true},
    // Few output channels (super_resolution's last layer at a smaller size, a
    // first layer): the direct loop at block 16 (conv_few_outputs.h).
    {"3x3 few outputs",
     {1, 20, 32, 37},
     {9, 20, 3, 3},
     {1, 9, 32, 37},
     "pads = [1, 1, 1, 1]",
     true},
    {"1x1 few outputs (oneDNN's jit_1x1)",
     {1, 24, 32, 40},
     {8, 24, 1, 1},
     {1, 8, 32, 40},
     "kernel_shape = [1, 1]",
     true},
    {"5x5 few outputs first layer",
     {1, 3, 32, 36},
     {5, 3, 5, 5},
     {1, 5, 32, 36},
     "pads = [2, 2, 2, 2]",
     false},
};

std::string dimsText(const kt::Dims& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + std::to_string(d[i]);
  return s + "]";
}

std::string signature(const ConvCase& cc) {
  return "main (float" + dimsText(cc.x) + " x, float" + dimsText(cc.w) + " w, float[" +
         std::to_string(cc.w[0]) + "] b, float" + dimsText(cc.y) + " z) => (float" +
         dimsText(cc.y) + " y) {\n";
}

// X (when cc.blockedX) and Z reordered to the blocked layout, the FusedConv,
// its output reordered back.
std::string blockedBody(const ConvCase& cc, int block, bool bias, bool residual, const Act& act) {
  const std::string B = std::to_string(block);
  std::string s = signature(cc);
  s += cc.blockedX ? "xb = ai.passlab.ReorderToBlocked <block = " + B + "> (x)\n"
                   : "xb = Identity(x)\n";
  if (residual) s += "zb = ai.passlab.ReorderToBlocked <block = " + B + "> (z)\n";
  s += "yb = ai.passlab.FusedConv <" + std::string(cc.attrs) + act.fusedAttrs + ", block = " + B +
       "> (xb, w, " + (bias ? "b" : "") + (residual ? ", zb" : "") + ")\n";
  s += "y = ai.passlab.ReorderFromBlocked <block = " + B +
       ", channels = " + std::to_string(cc.w[0]) + "> (yb) }";
  return s;
}

std::string chainBody(const ConvCase& cc, bool bias, bool residual, const Act& act) {
  return signature(cc) +
         "lo = Constant <value = float {-0.5}> ()\n hi = Constant <value = float {0.75}> ()\n" +
         "t = Conv <" + cc.attrs + "> (x, w" + (bias ? ", b" : "") + ")\n" +
         (residual ? "u = Add(t, z)\n" : "u = Identity(t)\n") + act.chainNode + " }";
}

TEST(BlockedFusedConv, MatchesTheNchwChainOnEitherLayoutChoice) {
  for (const ConvCase& cc : kConvs)
    for (int block : {8, 16})
      for (bool residual : {true, false})
        for (bool bias : {true, false})
          for (const Act& act : kActs) {
            NamedInputs inputs = {{"x", rnd(cc.x, 1)},
                                  {"w", rnd(cc.w, 2)},
                                  {"b", rnd({cc.w[0]}, 3)},
                                  {"z", rnd(cc.y, 4)}};
            const std::string what = std::string(cc.name) + ", block " + std::to_string(block) +
                                     (residual ? ", residual" : "") + (bias ? ", bias, " : ", ") +
                                     act.chainNode;
            ir::Tensor want = run(chainBody(cc, bias, residual, act), inputs, true);
            const std::string fused = blockedBody(cc, block, bias, residual, act);
            kt::expectClose(run(fused, inputs, false), want, what + " (oneDNN)", 2e-4f);
            kt::expectClose(run(fused, inputs, true), want, what + " (reference)", 2e-4f);
          }
}

// The same node run twice (the plan and the packed weights reused) and on a
// second batch size (the plan rebuilt): the same results as the chain.
TEST(BlockedFusedConv, ARebuiltPlanForAnotherBatchGivesTheSameResults) {
  const ConvCase one = kConvs[0];
  ConvCase two = one;
  two.x[0] = two.y[0] = 3;
  for (const ConvCase& cc : {one, two, one}) {
    NamedInputs inputs = {
        {"x", rnd(cc.x, 5)}, {"w", rnd(cc.w, 6)}, {"b", rnd({cc.w[0]}, 7)}, {"z", rnd(cc.y, 8)}};
    ir::Tensor want = run(chainBody(cc, true, true, kActs[0]), inputs, true);
    kt::expectClose(run(blockedBody(cc, 16, true, true, kActs[0]), inputs, false), want,
                    "batch " + std::to_string(cc.x[0]), 2e-4f);
  }
}

// A depthwise layer on blocked X runs oneDNN's direct depthwise kernel on
// the chain's nChw16c (padded block: 40 channels) and reorders nothing to
// NHWC (oneDNN's pick was brdgmm on NHWC with a reorder in and out).
TEST(BlockedFusedConv, DepthwiseRunsTheDirectKernelOnTheChainsLayout) {
  if (!testutil::onednnRunsAvx512()) GTEST_SKIP() << "expects oneDNN's AVX-512 kernels";
  const ConvCase cc = {"depthwise 5x5 stride 2x1",
                       {1, 40, 6, 16},
                       {40, 1, 5, 5},
                       {1, 40, 3, 16},
                       "pads = [2, 2, 2, 2], strides = [2, 1], group = 40",
                       true};
  NamedInputs inputs = {
      {"x", rnd(cc.x, 12)}, {"w", rnd(cc.w, 13)}, {"b", rnd({cc.w[0]}, 14)}, {"z", rnd(cc.y, 15)}};
  const Act& hardSwish = kActs[6];
  auto ex = Executor::create(
      testutil::parseModel(std::string(kHeader) + blockedBody(cc, 16, true, false, hardSwish)),
      ExecutorOptions{});
  ASSERT_TRUE(ex) << ex.error().message();
  ASSERT_TRUE((*ex)->run(inputs));
  Expected<RunResult> out = RunResult{};
  std::vector<std::string> execs = testutil::onednnExecs([&] { out = (*ex)->run(inputs); });
  ASSERT_TRUE(out) << out.error().message();
  std::string conv, all;
  for (const std::string& l : execs) {
    all += l + "\n";
    if (l.find(",convolution,") != std::string::npos) conv = l;
  }
  EXPECT_NE(conv.find(",jit_dw:"), std::string::npos) << all;
  EXPECT_NE(conv.find("src_f32:p:blocked:aBcd16b"), std::string::npos) << conv;
  EXPECT_NE(conv.find("dst_f32:p:blocked:aBcd16b"), std::string::npos) << conv;
  EXPECT_EQ(all.find("acdb"), std::string::npos) << "a reorder to or from NHWC:\n" << all;
  kt::expectClose(out->outputs.at(0), run(chainBody(cc, true, false, hardSwish), inputs, true),
                  "against the chain", 2e-4f);
}

// A 3x3 layer on blocked X run split over 2 threads (every step split:
// PASSLAB_SMALL_STEP_MICROS=0) asks for the chain's nChw16c: oneDNN's direct
// kernel, no reorder to or from NHWC; on one thread oneDNN's pick (brgemm on
// NHWC). Both give the chain's results.
TEST(BlockedFusedConv, ASplitThreeByThreeRunsTheDirectKernelOnTheChainsLayout) {
  if (!testutil::onednnRunsAvx512()) GTEST_SKIP() << "expects oneDNN's AVX-512 kernels";
  const ConvCase cc = {"3x3 split",     {1, 32, 14, 14},       {48, 32, 3, 3},
                       {1, 48, 14, 14}, "pads = [1, 1, 1, 1]", true};
  NamedInputs inputs = {
      {"x", rnd(cc.x, 20)}, {"w", rnd(cc.w, 21)}, {"b", rnd({cc.w[0]}, 22)}, {"z", rnd(cc.y, 23)}};
  const ir::Tensor want = run(chainBody(cc, true, true, kActs[0]), inputs, true);
  auto ex = Executor::create(
      testutil::parseModel(std::string(kHeader) + blockedBody(cc, 16, true, true, kActs[0])),
      ExecutorOptions{});
  ASSERT_TRUE(ex) << ex.error().message();
  ::setenv("PASSLAB_SMALL_STEP_MICROS", "0", 1);
  struct UnsetOnExit {
    ~UnsetOnExit() { ::unsetenv("PASSLAB_SMALL_STEP_MICROS"); }
  } unsetOnExit;
  for (int threads : {2, 1}) {
    RunOptions options;
    options.threads = threads;
    ASSERT_TRUE((*ex)->run(inputs, options));
    Expected<RunResult> out = RunResult{};
    std::vector<std::string> execs =
        testutil::onednnExecs([&] { out = (*ex)->run(inputs, options); });
    ASSERT_TRUE(out) << out.error().message();
    std::string conv, all;
    for (const std::string& l : execs) {
      all += l + "\n";
      if (l.find(",convolution,") != std::string::npos) conv = l;
    }
    if (threads > 1) {
      EXPECT_NE(conv.find(",jit:"), std::string::npos) << all;
      EXPECT_NE(conv.find("src_f32::blocked:aBcd16b"), std::string::npos) << conv;
      EXPECT_NE(conv.find("dst_f32::blocked:aBcd16b"), std::string::npos) << conv;
      EXPECT_EQ(all.find("acdb"), std::string::npos) << "a reorder to or from NHWC:\n" << all;
    } else {
      // One thread: oneDNN's pick, brgemm on NHWC (X and Y reordered).
      EXPECT_NE(conv.find(",brgconv:"), std::string::npos) << all;
      EXPECT_NE(all.find("acdb"), std::string::npos) << all;
    }
    kt::expectClose(out->outputs.at(0), want, std::to_string(threads) + " threads", 2e-4f);
  }
}

// A Fire expand layer (16 -> 64 channels, 3x3, on 15x15) on one thread runs
// oneDNN's Winograd kernel on the chain's nChw16c where PassLab sees AVX-512
// (blockedConvWinograd), else its direct kernel there; no reorder to or from
// NHWC (before session 30: brgemm on NHWC with both); the chain's results.
TEST(BlockedFusedConv, AThreeByThreeWideningFewChannelsRunsOnTheChainsLayoutOnOneThread) {
  if (!testutil::onednnRunsAvx512()) GTEST_SKIP() << "expects oneDNN's AVX-512 kernels";
  const ConvCase cc = {"3x3 16 -> 64",  {1, 16, 15, 15},       {64, 16, 3, 3},
                       {1, 64, 15, 15}, "pads = [1, 1, 1, 1]", true};
  NamedInputs inputs = {
      {"x", rnd(cc.x, 30)}, {"w", rnd(cc.w, 31)}, {"b", rnd({cc.w[0]}, 32)}, {"z", rnd(cc.y, 33)}};
  auto ex = Executor::create(
      testutil::parseModel(std::string(kHeader) + blockedBody(cc, 16, true, false, kActs[0])),
      ExecutorOptions{});
  ASSERT_TRUE(ex) << ex.error().message();
  RunOptions options;
  options.threads = 1;
  ASSERT_TRUE((*ex)->run(inputs, options));
  Expected<RunResult> out = RunResult{};
  std::vector<std::string> execs =
      testutil::onednnExecs([&] { out = (*ex)->run(inputs, options); });
  ASSERT_TRUE(out) << out.error().message();
  std::string conv, all;
  for (const std::string& l : execs) {
    all += l + "\n";
    if (l.find(",convolution,") != std::string::npos) conv = l;
  }
  EXPECT_NE(conv.find(cpu_isa::hasAvx512f() ? ",jit_fp32_wino_2x3:" : ",jit:"), std::string::npos)
      << all;
  EXPECT_NE(conv.find("dst_f32::blocked:aBcd16b"), std::string::npos) << conv;
  EXPECT_EQ(all.find("acdb"), std::string::npos) << "a reorder to or from NHWC:\n" << all;
  kt::expectClose(out->outputs.at(0), run(chainBody(cc, true, false, kActs[0]), inputs, true),
                  "against the chain", 2e-4f);
}

// A Fire expand layer from 48 channels on a 13x13 plane (48 -> 192, 3x3) on
// one thread runs brgemm on NHWC, X and Y reordered, where PassLab sees
// AVX-512 (widensOnBrgemm), else the direct kernel on the chain's nChw16c;
// the chain's results either way.
TEST(BlockedFusedConv, AThreeByThreeWideningOnASmallPlaneRunsBrgemmOnOneThreadWithAvx512) {
  if (!testutil::onednnRunsAvx512()) GTEST_SKIP() << "expects oneDNN's AVX-512 kernels";
  const ConvCase cc = {"3x3 48 -> 192",  {1, 48, 13, 13},       {192, 48, 3, 3},
                       {1, 192, 13, 13}, "pads = [1, 1, 1, 1]", true};
  NamedInputs inputs = {
      {"x", rnd(cc.x, 40)}, {"w", rnd(cc.w, 41)}, {"b", rnd({cc.w[0]}, 42)}, {"z", rnd(cc.y, 43)}};
  auto ex = Executor::create(
      testutil::parseModel(std::string(kHeader) + blockedBody(cc, 16, true, false, kActs[0])),
      ExecutorOptions{});
  ASSERT_TRUE(ex) << ex.error().message();
  RunOptions options;
  options.threads = 1;
  ASSERT_TRUE((*ex)->run(inputs, options));
  Expected<RunResult> out = RunResult{};
  std::vector<std::string> execs =
      testutil::onednnExecs([&] { out = (*ex)->run(inputs, options); });
  ASSERT_TRUE(out) << out.error().message();
  std::string conv, all;
  for (const std::string& l : execs) {
    all += l + "\n";
    if (l.find(",convolution,") != std::string::npos) conv = l;
  }
  if (cpu_isa::hasAvx512f()) {
    EXPECT_NE(conv.find(",brgconv:"), std::string::npos) << all;
    EXPECT_NE(all.find("acdb"), std::string::npos) << all;
  } else {
    EXPECT_NE(conv.find(",jit:"), std::string::npos) << all;
    EXPECT_EQ(all.find("acdb"), std::string::npos) << "a reorder to or from NHWC:\n" << all;
  }
  kt::expectClose(out->outputs.at(0), run(chainBody(cc, true, false, kActs[0]), inputs, true),
                  "against the chain", 2e-4f);
}

// A 3x3 64 -> 32 on 108 x 108 (X and Y above kReordersInCacheBytes) on one
// thread runs oneDNN's Winograd kernel on the chain's nChw16c where PassLab
// sees AVX-512 (blockedConvWinograd), with the chain's results within
// rounding; with the residual too (a post-op it may decline: then after).
TEST(BlockedFusedConv, ALargeThreeByThreeRunsWinogradOnOneThreadWithAvx512) {
  if (!testutil::onednnRunsAvx512()) GTEST_SKIP() << "expects oneDNN's AVX-512 kernels";
  const ConvCase cc = {"3x3 64 -> 32 large", {1, 64, 108, 108},     {32, 64, 3, 3},
                       {1, 32, 108, 108},    "pads = [1, 1, 1, 1]", true};
  NamedInputs inputs = {
      {"x", rnd(cc.x, 50)}, {"w", rnd(cc.w, 51)}, {"b", rnd({cc.w[0]}, 52)}, {"z", rnd(cc.y, 53)}};
  for (bool residual : {false, true}) {
    auto ex = Executor::create(
        testutil::parseModel(std::string(kHeader) + blockedBody(cc, 16, true, residual, kActs[0])),
        ExecutorOptions{});
    ASSERT_TRUE(ex) << ex.error().message();
    RunOptions options;
    options.threads = 1;
    ASSERT_TRUE((*ex)->run(inputs, options));
    Expected<RunResult> out = RunResult{};
    std::vector<std::string> execs =
        testutil::onednnExecs([&] { out = (*ex)->run(inputs, options); });
    ASSERT_TRUE(out) << out.error().message();
    std::string conv, all;
    for (const std::string& l : execs) {
      all += l + "\n";
      if (l.find(",convolution,") != std::string::npos) conv = l;
    }
    if (cpu_isa::hasAvx512f())
      EXPECT_NE(conv.find(",jit_wino_4x3:"), std::string::npos) << all;
    else
      EXPECT_EQ(conv.find("wino"), std::string::npos) << all;
    EXPECT_EQ(all.find("acdb"), std::string::npos) << "a reorder to or from NHWC:\n" << all;
    const ir::Tensor want = run(chainBody(cc, true, residual, kActs[0]), inputs, true);
    kt::expectClose(out->outputs.at(0), want, residual ? "with the residual" : "without", 2e-4f);
    // Another thread count builds another plan, which takes the held weights
    // out of the Winograd layout (through their plain copy), and back.
    for (int threads : {2, 1, 2}) {
      options.threads = threads;
      Expected<RunResult> again = (*ex)->run(inputs, options);
      ASSERT_TRUE(again) << threads << " threads: " << again.error().message();
      kt::expectClose(again->outputs.at(0), want, std::to_string(threads) + " threads", 2e-4f);
    }
  }
}

// Few output channels at block 16 run the direct loop (conv_few_outputs.h):
// no oneDNN convolution and no reorder around it.
TEST(BlockedFusedConv, FewOutputsRunTheDirectLoop) {
  if (!cpu_isa::hasAvx512f())
    GTEST_SKIP() << "no AVX-512 on this CPU: the direct loop is not taken here";
  const ConvCase cc = kConvs[10];
  NamedInputs inputs = {
      {"x", rnd(cc.x, 16)}, {"w", rnd(cc.w, 17)}, {"b", rnd({cc.w[0]}, 18)}, {"z", rnd(cc.y, 19)}};
  auto ex = Executor::create(
      testutil::parseModel(std::string(kHeader) + blockedBody(cc, 16, true, true, kActs[0])),
      ExecutorOptions{});
  ASSERT_TRUE(ex) << ex.error().message();
  ASSERT_TRUE((*ex)->run(inputs));
  Expected<RunResult> out = RunResult{};
  std::vector<std::string> execs = testutil::onednnExecs([&] { out = (*ex)->run(inputs); });
  ASSERT_TRUE(out) << out.error().message();
  for (const std::string& l : execs) EXPECT_EQ(l.find(",convolution,"), std::string::npos) << l;
  kt::expectClose(out->outputs.at(0), run(chainBody(cc, true, true, kActs[0]), inputs, true),
                  "against the chain", 2e-4f);
}

// oneDNN's log of a second run of blockedBody(cc, block, ...) on `threads`
// threads; its output is compared with the chain on the reference kernels.
std::vector<std::string> blockedSecondRun(const ConvCase& cc, int block, bool residual,
                                          const Act& act, int threads, unsigned seed) {
  NamedInputs inputs = {{"x", rnd(cc.x, seed)},
                        {"w", rnd(cc.w, seed + 1)},
                        {"b", rnd({cc.w[0]}, seed + 2)},
                        {"z", rnd(cc.y, seed + 3)}};
  auto ex = Executor::create(
      testutil::parseModel(std::string(kHeader) + blockedBody(cc, block, true, residual, act)),
      ExecutorOptions{});
  EXPECT_TRUE(ex) << (ex ? "" : ex.error().message());
  if (!ex) return {};
  RunOptions options;
  options.threads = threads;
  EXPECT_TRUE((*ex)->run(inputs, options));
  Expected<RunResult> out = RunResult{};
  std::vector<std::string> execs =
      testutil::onednnExecs([&] { out = (*ex)->run(inputs, options); });
  EXPECT_TRUE(out) << (out ? "" : out.error().message());
  if (out)
    kt::expectClose(out->outputs.at(0), run(chainBody(cc, true, residual, act), inputs, true),
                    "against the chain", 2e-4f);
  return execs;
}

// shufflenet's stage-4 grouped 1x1 (544 -> 544 in 4 groups at 7x7) in a
// blocked chain (block 8) on a CPU without AVX-512: oneDNN's GEMM convolution
// on the NCHW tensors, X reordered out of nChw8c and Y back, not its general
// direct kernel (jit:avx2) on nChw8c, which took about twice as long
// (blockedRunsPlainGemm, passlab_fused_conv.cpp). With and without the
// residual, an activation that is a post-op (Relu) and one that is not
// (HardSigmoid), on 1 and 2 threads; the chain's results every time.
TEST(BlockedFusedConv, AGroupedOneByOneAtSevenBySevenRunsTheGemmOnNchwWithoutAvx512) {
  if (cpu_isa::hasAvx512f()) GTEST_SKIP() << "AVX-512: the chain's layout (unchanged)";
  const ConvCase cc = {"544 -> 544 in 4 groups at 7x7",
                       {1, 544, 7, 7},
                       {544, 136, 1, 1},
                       {1, 544, 7, 7},
                       "kernel_shape = [1, 1], group = 4",
                       true};
  for (int threads : {1, 2})
    for (bool residual : {true, false})
      for (const Act* act : {&kActs[0], &kActs[5]}) {
        SCOPED_TRACE(std::to_string(threads) + " threads" + (residual ? ", residual, " : ", ") +
                     act->chainNode);
        std::vector<std::string> execs = blockedSecondRun(cc, 8, residual, *act, threads, 40);
        std::string conv, all;
        for (const std::string& l : execs) {
          all += l + "\n";
          if (l.find(",convolution,") != std::string::npos) conv = l;
        }
        EXPECT_NE(conv.find("gemm:jit"), std::string::npos) << all;
        EXPECT_NE(conv.find("src_f32::blocked:abcd:"), std::string::npos) << conv;
        EXPECT_NE(conv.find("dst_f32::blocked:abcd:"), std::string::npos) << conv;
      }
}

// Below 49 positions (6x6) the blocked grouped 1x1 keeps the chain's layout
// (oneDNN's direct kernel on nChw8c; the log's reorders are the graph's).
TEST(BlockedFusedConv, AGroupedOneByOneBelowSevenBySevenKeepsTheChainsLayout) {
  if (cpu_isa::hasAvx512f()) GTEST_SKIP() << "AVX-512: the chain's layout (unchanged)";
  const ConvCase cc = {"544 -> 544 in 4 groups at 6x6",
                       {1, 544, 6, 6},
                       {544, 136, 1, 1},
                       {1, 544, 6, 6},
                       "kernel_shape = [1, 1], group = 4",
                       true};
  std::vector<std::string> execs = blockedSecondRun(cc, 8, true, kActs[5], 1, 50);
  std::string conv, all;
  for (const std::string& l : execs) {
    all += l + "\n";
    if (l.find(",convolution,") != std::string::npos) conv = l;
  }
  EXPECT_NE(conv.find(",jit:"), std::string::npos) << all;
  EXPECT_NE(conv.find("src_f32::blocked:aBcd8b:"), std::string::npos) << conv;
  EXPECT_NE(conv.find("dst_f32::blocked:aBcd8b:"), std::string::npos) << conv;
}

TEST(BlockedFusedConv, ABlockedResidualOfAnotherShapeIsRefusedByName) {
  const std::string text = std::string(kHeader) + R"(
    main (float[1,2,4,4,16] x, float[20,32,1,1] w, float[1,1,4,4,16] z) => (float[1,2,4,4,16] y) {
      y = ai.passlab.FusedConv <kernel_shape = [1, 1], block = 16> (x, w, , z) })";
  const std::string error = testutil::errorOf(text, {{"x", rnd({1, 2, 4, 4, 16}, 9)},
                                                     {"w", rnd({20, 32, 1, 1}, 10)},
                                                     {"z", rnd({1, 1, 4, 4, 16}, 11)}});
  EXPECT_NE(error.find("residual"), std::string::npos) << error;
}

}  // namespace
}  // namespace passlab::exec
