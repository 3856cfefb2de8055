// One harness runs each optimized kernel (oneDNN; cpu.MaxPool, cpu.MaxPool8) and its reference
// kernel on the same seeded random inputs and compares: Conv in its variants, ConvTranspose,
// MatMul, Gemm, MaxPool, AveragePool (and the 8-bit MaxPool); and LayerNormalization's vectorized
// float32 row, where it is chosen and where it declines.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <set>

#include "core/exec/input_fill.h"
#include "tests/core/exec/exec_test_util.h"

namespace passlab::exec {
namespace {

struct Case {
  const char* name;
  const char* text;
  const char* kernel = "onednn.";  // the optimized kernel's id starts so
};

const Case kCases[] = {
    {"conv3x3", R"(main (float[2,8,9,9] x, float[16,8,3,3] w, float[16] b) => (float[2,16,9,9] y) {
       y = Conv <pads = [1, 1, 1, 1]> (x, w, b) })"},
    {"conv_strided_dilated", R"(main (float[1,4,11,13] x, float[6,4,3,3] w) => (float[1,6,4,5] y) {
       y = Conv <strides = [2, 2], dilations = [2, 2], pads = [0, 1, 1, 0]> (x, w) })"},
    {"conv_grouped", R"(main (float[1,8,7,7] x, float[8,2,3,3] w) => (float[1,8,7,7] y) {
       y = Conv <group = 4, pads = [1, 1, 1, 1]> (x, w) })"},
    {"conv_depthwise_same", R"(main (float[1,6,10,10] x, float[6,1,3,3] w) => (float[1,6,5,5] y) {
       y = Conv <group = 6, auto_pad = "SAME_UPPER", strides = [2, 2]> (x, w) })"},
    // 1x1, stride 1, no pads, 16x16 outputs: plain NCHW (conv_layout_choice.h), with a bias.
    {"conv1x1_plain_nchw",
     R"(main (float[2,24,16,16] x, float[40,24,1,1] w, float[40] b) => (float[2,40,16,16] y) {
       y = Conv (x, w, b) })"},
    // The same at 7x7: oneDNN's layout with reorders.
    {"conv1x1_small_blocked",
     R"(main (float[1,32,7,7] x, float[48,32,1,1] w) => (float[1,48,7,7] y) {
       y = Conv (x, w) })"},
    // Grouped 1x1 at 14x14 (shufflenet's): plain NCHW too, one SGEMM per group;
    // 2, 3 and 4 groups, channels not multiples of 16, with and without a bias.
    {"conv1x1_grouped2_plain_nchw",
     R"(main (float[2,18,14,14] x, float[10,9,1,1] w, float[10] b) => (float[2,10,14,14] y) {
       y = Conv <group = 2> (x, w, b) })"},
    {"conv1x1_grouped3_plain_nchw",
     R"(main (float[1,30,12,13] x, float[45,10,1,1] w) => (float[1,45,12,13] y) {
       y = Conv <group = 3> (x, w) })"},
    {"conv1x1_grouped4_plain_nchw",
     R"(main (float[1,136,14,14] x, float[136,34,1,1] w, float[136] b) => (float[1,136,14,14] y) {
       y = Conv <group = 4> (x, w, b) })"},
    // The same at 7x7: oneDNN's layout with AVX-512, plain NCHW without
    // (conv_layout_choice.h; shufflenet's stage 4, 544 channels, with a
    // bias); at 6x6 and strided: oneDNN's layout.
    {"conv1x1_grouped_small_blocked",
     R"(main (float[1,24,7,7] x, float[12,6,1,1] w) => (float[1,12,7,7] y) {
       y = Conv <group = 4> (x, w) })"},
    {"conv1x1_grouped4_7x7",
     R"(main (float[1,544,7,7] x, float[544,136,1,1] w, float[544] b) => (float[1,544,7,7] y) {
       y = Conv <group = 4> (x, w, b) })"},
    {"conv1x1_grouped_6x6_blocked",
     R"(main (float[1,24,6,6] x, float[12,6,1,1] w) => (float[1,12,6,6] y) {
       y = Conv <group = 4> (x, w) })"},
    {"conv1x1_grouped_strided",
     R"(main (float[1,24,14,14] x, float[12,6,1,1] w) => (float[1,12,7,7] y) {
       y = Conv <group = 4, strides = [2, 2]> (x, w) })"},
    // 1x1 on a 1x1 input (squeeze-excite): GEMVs (conv_gemv.h); tails of K
    // and M, groups, a bias, a batch of 3, and a batch of 6 (oneDNN again).
    {"conv1x1_on_1x1_gemv",
     R"(main (float[1,200,1,1] x, float[50,200,1,1] w, float[50] b) => (float[1,50,1,1] y) {
       y = Conv (x, w, b) })"},
    {"conv1x1_on_1x1_gemv_grouped",
     R"(main (float[3,39,1,1] x, float[21,13,1,1] w, float[21] b) => (float[3,21,1,1] y) {
       y = Conv <group = 3> (x, w, b) })"},
    {"conv1x1_on_1x1_gemv_strided_no_bias",
     R"(main (float[1,22,1,1] x, float[88,22,1,1] w) => (float[1,88,1,1] y) {
       y = Conv <strides = [2, 2]> (x, w) })"},
    {"conv1x1_on_1x1_batch6",
     R"(main (float[6,20,1,1] x, float[7,20,1,1] w, float[7] b) => (float[6,7,1,1] y) {
       y = Conv (x, w, b) })"},
    // Strided 1x1 (resnet50's downsampling) with >= 144 output pixels: plain
    // NCHW too; at 7x7 oneDNN's layout.
    {"conv1x1_strided_plain_nchw",
     R"(main (float[2,24,30,26] x, float[40,24,1,1] w, float[40] b) => (float[2,40,15,13] y) {
       y = Conv <strides = [2, 2]> (x, w, b) })"},
    {"conv1x1_strided_small_blocked",
     R"(main (float[1,32,14,14] x, float[48,32,1,1] w) => (float[1,48,7,7] y) {
       y = Conv <strides = [2, 2]> (x, w) })"},
    // First layers (fewer than 16 input channels, outputs in blocks of 16):
    // the input read as plain NCHW (readsPlainNchw); 3 channels strided, 1
    // channel 5x5, 8 channels with asymmetric pads, dilated; 24 outputs
    // (picodet's) keep oneDNN's layout.
    {"conv_first_layer_plain_src",
     R"(main (float[2,3,23,21] x, float[16,3,3,3] w, float[16] b) => (float[2,16,12,11] y) {
       y = Conv <strides = [2, 2], pads = [1, 1, 1, 1]> (x, w, b) })"},
    {"conv_first_layer_one_channel",
     R"(main (float[1,1,20,19] x, float[16,1,5,5] w, float[16] b) => (float[1,16,20,19] y) {
       y = Conv <pads = [2, 2, 2, 2]> (x, w, b) })"},
    {"conv_first_layer_dilated",
     R"(main (float[1,8,17,19] x, float[32,8,3,3] w) => (float[1,32,16,18] y) {
       y = Conv <dilations = [2, 2], pads = [1, 2, 2, 1]> (x, w) })"},
    {"conv_first_layer_24_outputs",
     R"(main (float[1,3,33,31] x, float[24,3,3,3] w, float[24] b) => (float[1,24,17,16] y) {
       y = Conv <strides = [2, 2], pads = [1, 1, 1, 1]> (x, w, b) })"},
    {"conv1d",
     R"(main (float[2,3,20] x, float[5,3,4] w) => (float[2,5,17] y) { y = Conv (x, w) })"},
    {"conv3d", R"(main (float[1,2,5,6,7] x, float[3,2,2,3,3] w) => (float[1,3,4,4,5] y) {
       y = Conv (x, w) })"},
    {"conv_transpose", R"(main (float[1,4,5,5] x, float[4,3,3,3] w) => (float[1,3,11,11] y) {
       y = ConvTranspose <strides = [2, 2], output_padding = [0, 0]> (x, w) })"},
    {"conv_transpose_pads",
     R"(main (float[1,4,5,5] x, float[4,6,3,3] w, float[6] b) => (float[1,6,9,9] y) {
       y = ConvTranspose <strides = [2, 2], pads = [1, 1, 1, 1]> (x, w, b) })"},
    {"conv_transpose_grouped", R"(main (float[1,4,5,5] x, float[4,1,3,3] w) => (float[1,2,7,7] y) {
       y = ConvTranspose <group = 2> (x, w) })"},
    {"matmul_batched",
     R"(main (float[2,3,4,5] a, float[3,5,6] b) => (float[2,3,4,6] y) { y = MatMul(a, b) })"},
    {"matmul_vector",
     R"(main (float[5] a, float[2,5,3] b) => (float[2,3] y) { y = MatMul(a, b) })"},
    {"gemm_trans", R"(main (float[7,4] a, float[9,7] b, float[9] c) => (float[4,9] y) {
       y = Gemm <transA = 1, transB = 1, alpha = 0.5, beta = 2.0> (a, b, c) })"},
    {"gemm_bias",
     R"(main (float[3,4] a, float[4,5] b, float[1,5] c) => (float[3,5] y) { y = Gemm (a, b, c) })"},
    {"gemm_matrix_c", R"(main (float[3,4] a, float[4,5] b, float[3,5] c) => (float[3,5] y) {
       y = Gemm <beta = -1.0> (a, b, c) })"},
    // Batch 1 with B stored [N, K]: the GEMV path (gemv_rows.h); tails of K and N,
    // alpha and beta, C as [N], as [1] and absent, A transposed ([K, 1]).
    {"gemm_batch1_rows", R"(main (float[1,37] a, float[11,37] b, float[11] c) => (float[1,11] y) {
       y = Gemm <transB = 1> (a, b, c) })"},
    {"gemm_batch1_rows_alpha_beta",
     R"(main (float[37,1] a, float[6,37] b, float[1] c) => (float[1,6] y) {
       y = Gemm <transA = 1, transB = 1, alpha = 0.5, beta = -2.0> (a, b, c) })"},
    {"gemm_batch1_rows_no_c",
     R"(main (float[1,130] a, float[9,130] b) => (float[1,9] y) { y = Gemm <transB = 1> (a, b) })"},
    {"maxpool", R"(main (float[1,3,10,10] x) => (float[1,3,5,5] y) {
       y = MaxPool <kernel_shape = [3, 3], strides = [2, 2], pads = [1, 1, 1, 1]> (x) })",
     "cpu.MaxPool"},
    {"maxpool_ceil_dilated", R"(main (float[1,2,9,9] x) => (float[1,2,4,4] y) {
       y = MaxPool <kernel_shape = [2, 2], strides = [2, 2], dilations = [2, 2], ceil_mode = 1> (x) })",
     "cpu.MaxPool"},
    // 8-bit MaxPool (opset 12+), as fuse_qdq_into_qlinear leaves it: exact.
    {"maxpool_uint8", R"(<ir_version: 8, opset_import: ["" : 13]>
       main (uint8[1,3,10,10] x) => (uint8[1,3,5,5] y) {
       y = MaxPool <kernel_shape = [3, 3], strides = [2, 2], pads = [1, 1, 1, 1]> (x) })",
     "cpu.MaxPool8"},
    {"maxpool_int8_ceil", R"(<ir_version: 8, opset_import: ["" : 13]>
       main (int8[1,2,9,9] x) => (int8[1,2,4,4] y) {
       y = MaxPool <kernel_shape = [3, 3], strides = [2, 2], ceil_mode = 1> (x) })",
     "cpu.MaxPool8"},
    {"avgpool_exclude", R"(main (float[1,3,7,7] x) => (float[1,3,4,4] y) {
       y = AveragePool <kernel_shape = [3, 3], strides = [2, 2], pads = [1, 1, 1, 1]> (x) })"},
    {"avgpool_include_ceil", R"(main (float[1,3,8,8] x) => (float[1,3,4,4] y) {
       y = AveragePool <kernel_shape = [3, 3], strides = [2, 2], count_include_pad = 1, ceil_mode = 1> (x) })"},
    // Stride 1 on rows of at most 32 floats: whole planes at once
    // (pool_max_float.cpp, runsOnWholePlanes); asymmetric pads, a 2-wide
    // kernel, counting padding; 33 floats a row: row by row again.
    {"avgpool_whole_plane_3x3", R"(main (float[2,5,14,14] x) => (float[2,5,14,14] y) {
       y = AveragePool <kernel_shape = [3, 3], pads = [1, 1, 1, 1]> (x) })"},
    {"avgpool_whole_plane_asymmetric_include_pad",
     R"(main (float[1,3,9,13] x) => (float[1,3,10,13] y) {
       y = AveragePool <kernel_shape = [3, 2], pads = [2, 0, 1, 1], count_include_pad = 1> (x) })"},
    {"maxpool_whole_plane_7x7", R"(main (float[1,4,7,7] x) => (float[1,4,7,8] y) {
       y = MaxPool <kernel_shape = [2, 3], pads = [1, 1, 0, 2]> (x) })",
     "cpu.MaxPool"},
    {"avgpool_rows_33_wide", R"(main (float[1,2,5,33] x) => (float[1,2,5,33] y) {
       y = AveragePool <kernel_shape = [3, 3], pads = [1, 1, 1, 1]> (x) })"},
};

// `m` run with the preferred kernels and with the reference ones, on the
// same inputs seeded with `seed`, profiled (the kernel ids are in the
// profile). Failures are test failures; nullopt then.
struct BothRuns {
  RunResult preferred, reference;
};
std::optional<BothRuns> runBoth(const ir::Model& m, uint64_t seed) {
  ExecutorOptions refOpts;
  refOpts.referenceKernels = true;
  auto opt = Executor::create(m, {});
  auto ref = Executor::create(m, refOpts);
  EXPECT_TRUE(opt) << opt.error().message();
  EXPECT_TRUE(ref) << ref.error().message();
  if (!opt || !ref) return std::nullopt;
  NamedInputs inputs;
  FillOptions fo;
  fo.seed = seed;
  for (const InputInfo& in : (*opt)->inputs()) {
    auto t = makeInput(in, fo);
    EXPECT_TRUE(t) << t.error().message();
    if (!t) return std::nullopt;
    if (t->dtype() == ir::DataType::kUInt8 || t->dtype() == ir::DataType::kInt8) {
      // Random integers land in [-1, 1]: spread 8-bit inputs over every value.
      std::vector<uint8_t> bytes(static_cast<size_t>(t->numel()));
      for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i * 97 + seed * 31);
      *t = t->dtype() == ir::DataType::kUInt8
               ? ir::Tensor::fromVector<uint8_t>(ir::DataType::kUInt8, t->dims(), bytes)
               : ir::Tensor::fromVector<int8_t>(ir::DataType::kInt8, t->dims(),
                                                std::vector<int8_t>(bytes.begin(), bytes.end()));
    }
    inputs.emplace_back(in.name, *t);
  }
  RunOptions run;
  run.profile = true;
  auto a = (*opt)->run(inputs, run);
  auto b = (*ref)->run(inputs, run);
  EXPECT_TRUE(a) << a.error().message();
  EXPECT_TRUE(b) << b.error().message();
  if (!a || !b) return std::nullopt;
  return BothRuns{std::move(a).value(), std::move(b).value()};
}

class OptimizedVsReference : public ::testing::TestWithParam<Case> {};

TEST_P(OptimizedVsReference, Agree) {
  ir::Model m = testutil::parseModel(GetParam().text);
  auto runs = runBoth(m, 7);
  ASSERT_TRUE(runs);
  const RunResult* a = &runs->preferred;
  const RunResult* b = &runs->reference;
  EXPECT_EQ(a->profile[0].kernel.rfind(GetParam().kernel, 0), 0u) << a->profile[0].kernel;
  EXPECT_EQ(b->profile[0].kernel.rfind("cpu.ref.", 0), 0u) << b->profile[0].kernel;
  ASSERT_EQ(a->outputs[0].dims(), b->outputs[0].dims());
  EXPECT_EQ(a->outputs[0].dims(), m.graph().outputs()[0]->type().shape()->staticDims().value());
  const ir::Tensor &x = a->outputs[0], &y = b->outputs[0];
  ASSERT_EQ(x.dtype(), y.dtype());
  for (int64_t i = 0; i < x.numel(); ++i)
    ASSERT_NEAR(x.valueAsDouble(i), y.valueAsDouble(i), 1e-4 + 1e-4 * std::fabs(y.valueAsDouble(i)))
        << "element " << i;
  // The seeded inputs vary, and so does what the kernels compute.
  std::set<double> seen;
  for (int64_t i = 0; i < y.numel(); ++i) seen.insert(y.valueAsDouble(i));
  EXPECT_GT(seen.size(), 2u);
}

INSTANTIATE_TEST_SUITE_P(Kernels, OptimizedVsReference, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.name); });

// The kernel ids of the first step with preferred and with reference kernels;
// every output of the two runs agrees within 1e-5.
struct LnRun {
  std::string optimizedKernel, referenceKernel;
};

LnRun runLayerNorm(const char* text) {
  auto runs = runBoth(testutil::parseModel(text), 11);
  if (!runs) return {};
  const RunResult& a = runs->preferred;
  const RunResult& b = runs->reference;
  EXPECT_EQ(a.outputs.size(), b.outputs.size());
  for (size_t o = 0; o < a.outputs.size() && o < b.outputs.size(); ++o) {
    auto x = testutil::toFloats(a.outputs[o]), y = testutil::toFloats(b.outputs[o]);
    EXPECT_EQ(x.size(), y.size());
    for (size_t i = 0; i < x.size() && i < y.size(); ++i)
      EXPECT_NEAR(x[i], y[i], 1e-5 + 1e-5 * std::fabs(y[i])) << "output " << o << " element " << i;
  }
  return {a.profile[0].kernel, b.profile[0].kernel};
}

// float32 LayerNormalization with only Y wanted runs the vectorized kernel
// (float statistics, as stash_type = float asks) and agrees with the
// reference kernel (double statistics).
TEST(LayerNormKernels, Float32RunsTheVectorizedKernel) {
  LnRun r = runLayerNorm(R"(<ir_version: 8, opset_import: ["" : 17]>
    main (float[3,5,96] x, float[96] s, float[96] b) => (float[3,5,96] y) {
      y = LayerNormalization <axis = -1, epsilon = 0.001> (x, s, b) })");
  EXPECT_EQ(r.optimizedKernel, "cpu.LayerNormalization.f32");
  EXPECT_NE(r.referenceKernel, r.optimizedKernel);
}

// Rows longer than the statistics' float block (1024), with a tail:
// the same agreement.
TEST(LayerNormKernels, LongRowsAgreeWithTheReference) {
  LnRun r = runLayerNorm(R"(<ir_version: 8, opset_import: ["" : 17]>
    main (float[3,2071] x, float[2071] s, float[2071] b) => (float[3,2071] y) {
      y = LayerNormalization <axis = -1> (x, s, b) })");
  EXPECT_EQ(r.optimizedKernel, "cpu.LayerNormalization.f32");
}

// Mean and InvStdDev wanted, or a double stash type: the vectorized kernel
// declines and the general one runs.
TEST(LayerNormKernels, StatisticsOutputsOrDoubleStashUseTheGeneralKernel) {
  LnRun withStats = runLayerNorm(R"(<ir_version: 8, opset_import: ["" : 17]>
    main (float[4,8] x, float[8] s) => (float[4,8] y, float[4,1] mean, float[4,1] inv) {
      y, mean, inv = LayerNormalization (x, s) })");
  EXPECT_NE(withStats.optimizedKernel, "cpu.LayerNormalization.f32");
  LnRun doubleStash = runLayerNorm(R"(<ir_version: 8, opset_import: ["" : 17]>
    main (float[4,8] x, float[8] s) => (float[4,8] y) {
      y = LayerNormalization <stash_type = 11> (x, s) })");
  EXPECT_NE(doubleStash.optimizedKernel, "cpu.LayerNormalization.f32");
}

}  // namespace
}  // namespace passlab::exec
