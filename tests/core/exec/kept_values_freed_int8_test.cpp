// The int8 convolution kernels that hold their weights in a form of their
// own (KernelContext::holdsOwnCopy): ConvInteger and ai.passlab
// FusedConvInteger on oneDNN's packed weights (S for another shape from the
// kept per-tap sums), QLinearConv on oneDNN's packed weights and on PassLab's
// channels-last depthwise and pointwise kernels (reshaped for another shape).
// For each, an initializer W is released after the first run, and batch and
// image sizes changing between runs (1 -> 2 -> 1, another H x W) give the
// bytes of an executor that keeps nothing and of the reference kernels (which
// never see a held copy); QLinearConv's int32 path (uint8 weights, weight
// zero points) too.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/exec/cpu/qlinear_onednn_requantization.h"
#include "core/exec/cpu/qlinear_pointwise_nhwc.h"
#include "core/exec/executor.h"
#include "core/exec/step_trials.h"
#include "core/support/cpu_isa.h"
#include "tests/core/exec/exec_test_util.h"
#include "tests/core/exec/int8_conv_test_util.h"
#include "tests/core/exec/kept_values_test_util.h"

namespace passlab::exec {
namespace {

using int8conv::Dims;
using ir::DataType;
using keptvalues::ints;
using keptvalues::make;
using keptvalues::reals;
using keptvalues::run;

void expectSameBytes(const ir::Tensor& got, const ir::Tensor& want, const std::string& what) {
  ASSERT_EQ(got.dims(), want.dims()) << what;
  ASSERT_EQ(got.bytes().size(), want.bytes().size()) << what;
  EXPECT_EQ(std::memcmp(got.bytes().data(), want.bytes().data(), got.bytes().size()), 0) << what;
}

// What one model is checked on: X's type and the dims of X on each run, the
// bytes of W released once held, and how far an 8-bit output may be from the
// reference kernel's (oneDNN requantizes in float32, the reference in double:
// a near tie may round the other way; -1: compared byte for byte).
struct Check {
  std::string text;
  DataType xType = DataType::kUInt8;
  std::vector<Dims> xDims;
  uint64_t released = 0;
  int tolerance = -1;
};

// Every run: the kept executor's output byte-identical to the one that keeps
// nothing, equal to the reference kernels' (within the tolerance), and W's
// bytes released from the first run on.
void expectHeldCopyServes(const Check& c) {
  auto kept = make(c.text, true);
  auto every = make(c.text, false);
  auto ref = make(c.text, false, true);
  ASSERT_TRUE(kept && every && ref);
  std::mt19937 rng(7);
  for (size_t i = 0; i < c.xDims.size(); ++i) {
    const std::string what = "run " + std::to_string(i);
    NamedInputs in = {{"x", int8conv::activations(c.xType, c.xDims[i], rng)}};
    RunResult got = run(*kept, in);
    RunResult none = run(*every, in);
    RunResult want = run(*ref, in);
    ASSERT_EQ(got.outputs.size(), 1u) << what;
    ASSERT_EQ(want.outputs.size(), 1u) << what;
    expectSameBytes(got.outputs[0], none.outputs[0], what + ", keeping nothing");
    if (c.tolerance < 0) {
      expectSameBytes(got.outputs[0], want.outputs[0], what + ", reference");
    } else {
      int8conv::expectEqual(got.outputs[0], want.outputs[0], what + ", reference", c.tolerance);
      int8conv::expectSpread(want.outputs[0]);
    }
    EXPECT_EQ(got.memory.keptFreedBytes, c.released) << what;
    EXPECT_EQ(none.memory.keptFreedBytes, 0u) << what;
  }
}

// Without VNNI a channels-last pointwise layer of any int8 weights runs
// PassLab's kernel (its AVX2 path), which holds W.
bool withoutVnniOwnKernel() {
  return cpu::QLinearPointwiseNhwc::bestPath() == cpu::QLinearPointwiseNhwc::Path::kAvx2;
}

// Where oneDNN's int8 kernels run at all (exact int8 dot products), they hold W.
uint64_t heldBytes(uint64_t wBytes) {
  return cpu::qlinear::exactInt8DotProducts() ? wBytes : 0;
}

// Batch 1 -> 2 -> 1, then another image size, then the first again.
const std::vector<Dims> kNchwRuns = {
    {1, 16, 9, 9}, {2, 16, 9, 9}, {1, 16, 9, 9}, {1, 16, 7, 11}, {1, 16, 9, 9}};

std::vector<Dims> channelsLast(const std::vector<Dims>& nchw) {
  std::vector<Dims> r;
  for (const Dims& d : nchw) r.push_back(int8conv::channelsLastDims(d));
  return r;
}

constexpr int64_t kM = 32, kC = 16, kTaps = 9;
constexpr uint64_t kWBytes = kM * kC * kTaps;

TEST(KeptValuesFreedInt8, ConvIntegerInt8Weights) {
  const std::string text = R"(<ir_version: 8, opset_import: ["" : 13]>
main (uint8[N,16,H,W] x) => (int32[N,32,H,W] y) <int8[32,16,3,3] w = )" +
                           ints(kWBytes, -127, 127, 1) + R"(, uint8 xz = {121}> {
  y = ConvInteger <pads = [1, 1, 1, 1]> (x, w, xz)
})";
  expectHeldCopyServes({text, DataType::kUInt8, kNchwRuns, heldBytes(kWBytes)});
}

// uint8 weights with a zero point per output channel: the plan's W - 128 goes
// too once packed; the zero points (read every run) stay.
TEST(KeptValuesFreedInt8, ConvIntegerUint8WeightsWithZeroPoints) {
  const std::string text = R"(<ir_version: 8, opset_import: ["" : 13]>
main (int8[N,16,H,W] x) => (int32[N,32,H,W] y) <uint8[32,16,3,3] w = )" +
                           ints(kWBytes, 0, 255, 2) + ", uint8[32] wz = " + ints(kM, 100, 156, 3) +
                           R"(, int8 xz = {-7}> {
  y = ConvInteger <pads = [1, 0, 1, 2], strides = [2, 1]> (x, w, xz, wz)
})";
  expectHeldCopyServes({text, DataType::kInt8, kNchwRuns, heldBytes(kWBytes)});
}

std::string fusedConvInteger(bool channelsLast) {
  const std::string xd = channelsLast ? "N,H,W,16" : "N,16,H,W";
  const std::string yd = channelsLast ? "N,H,W,32" : "N,32,H,W";
  return R"(<ir_version: 8, opset_import: ["" : 13, "ai.passlab" : 1]>
main (uint8[)" +
         xd + "] x) => (float[" + yd + "] y) <int8[32,16,3,3] w = " + ints(kWBytes, -127, 127, 4) +
         ", uint8 xz = {133}, float[32] s = " + reals(kM, 1e-4f, 3e-4f, 5) +
         ", float[32] b = " + reals(kM, -0.5f, 0.5f, 6) +
         R"(> {
  y = ai.passlab.FusedConvInteger <kernel_shape = [3, 3], pads = [1, 1, 1, 1], activation = "Relu",
      channels_last = )" +
         std::string(channelsLast ? "1" : "0") + R"(> (x, w, xz, , s, b)
})";
}

TEST(KeptValuesFreedInt8, FusedConvIntegerChannelsFirst) {
  expectHeldCopyServes({fusedConvInteger(false), DataType::kUInt8, kNchwRuns, heldBytes(kWBytes)});
}

TEST(KeptValuesFreedInt8, FusedConvIntegerChannelsLast) {
  expectHeldCopyServes(
      {fusedConvInteger(true), DataType::kUInt8, channelsLast(kNchwRuns), heldBytes(kWBytes)});
}

// QLinearConv's scales for K products per output (int8conv's spread): the
// outputs spread over the 8-bit range.
std::string quantization(int64_t m, int64_t k, int xZero, int yZero) {
  const float xScale = 0.02f, yScale = xScale * 0.006f * 5400.0f * std::sqrt(float(k)) / 40.0f;
  return "float xs = {" + std::to_string(xScale) + "}, uint8 xz = {" + std::to_string(xZero) +
         "}, float[" + std::to_string(m) + "] ws = " + reals(m, 0.004f, 0.008f, 8) +
         ", int8 wz = {0}, float ys = {" + std::to_string(yScale) + "}, uint8 yz = {" +
         std::to_string(yZero) + "}, int32[" + std::to_string(m) +
         "] b = " + ints(m, -20000, 20000, 9);
}

// NCHW QLinearConv 16 -> 32 channels, 3x3, int8 weights in [-limit, limit]
// of zero point 0.
std::string qlinearConvNchw(int limit) {
  return R"(<ir_version: 8, opset_import: ["" : 13]>
main (uint8[N,16,H,W] x) => (uint8[N,32,H,W] y) <int8[32,16,3,3] w = )" +
         ints(kWBytes, -limit, limit, 10) + ", " + quantization(kM, kC * kTaps, 121, 110) +
         R"(> {
  y = QLinearConv <pads = [1, 1, 1, 1]> (x, xs, xz, w, ws, wz, ys, yz, b)
})";
}

// NCHW, int8 weights of zero point 0: oneDNN's int32 sums on its packed copy
// (qlinear_conv_int32.h; with AVX-512 VNNI), else oneDNN's primitive.
TEST(KeptValuesFreedInt8, QLinearConvOneDnnPacked) {
  expectHeldCopyServes({qlinearConvNchw(127), DataType::kUInt8, kNchwRuns, heldBytes(kWBytes), 1});
}

// The same with weights in [-64, 64] (`reduce_range`): oneDNN's int8 kernels on every CPU
// (int8_dot_exactness.h), so W is held everywhere; without VNNI on AVX2 the int32 sums, whose
// plan for each new shape takes the held copy (after W was freed the weights' narrowness comes
// from the plan before), exact; on SSE4.1 the primitive (one step at a near-tie).
TEST(KeptValuesFreedInt8, QLinearConvNarrowWeightsNchw) {
  const int tolerance = cpu_isa::hasAvx512Vnni() || cpu_isa::hasAvx2Fma() ? 0 : 1;
  expectHeldCopyServes({qlinearConvNchw(64), DataType::kUInt8, kNchwRuns, kWBytes, tolerance});
}

// channels_last depthwise 3x3 on 32 channels, weights in [-limit, limit].
std::string qlinearConvDepthwiseNhwc(int limit) {
  return R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>
main (uint8[N,H,W,32] x) => (uint8[N,H,W,32] y) <int8[32,1,3,3] w = )" +
         ints(kM * kTaps, -limit, limit, 11) + ", " + quantization(kM, kTaps, 121, 110) + R"(> {
  y = com.microsoft.QLinearConv <channels_last = 1, group = 32, pads = [1, 1, 1, 1]>
      (x, xs, xz, w, ws, wz, ys, yz, b)
})";
}

// channels_last depthwise with zero points: PassLab's kernel, reshaped for
// each new shape (exact), wherever it runs: AVX-512 VNNI, AVX-VNNI or AVX2 +
// FMA, any weights (qlinear_depthwise_nhwc.h); else the float32 sums (W stays).
TEST(KeptValuesFreedInt8, QLinearConvChannelsLastDepthwise) {
  const std::vector<Dims> runs = {
      {1, 9, 9, 32}, {2, 9, 9, 32}, {1, 9, 9, 32}, {1, 7, 11, 32}, {1, 9, 9, 32}};
  const bool kernel = cpu_isa::hasAvx512Vnni() || cpu_isa::hasAvxVnni() || cpu_isa::hasAvx2Fma();
  expectHeldCopyServes({qlinearConvDepthwiseNhwc(127), DataType::kUInt8, runs,
                        kernel ? uint64_t{kM * kTaps} : heldBytes(kM * kTaps), 0});
}

// channels_last pointwise that reduces the channels (64 -> 16), zero points:
// PassLab's kernel, reshaped (exact); also without VNNI (its AVX2 path, int16
// pairs for these weights, session 39).
TEST(KeptValuesFreedInt8, QLinearConvChannelsLastPointwise) {
  const std::string text = R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>
main (uint8[N,H,W,64] x) => (uint8[N,H,W,16] y) <int8[16,64,1,1] w = )" +
                           ints(16 * 64, -127, 127, 12) + ", " + quantization(16, 64, 121, 110) +
                           R"(> {
  y = com.microsoft.QLinearConv <channels_last = 1> (x, xs, xz, w, ws, wz, ys, yz, b)
})";
  const std::vector<Dims> runs = {
      {1, 9, 9, 64}, {2, 9, 9, 64}, {1, 9, 9, 64}, {1, 7, 11, 64}, {1, 9, 9, 64}};
  expectHeldCopyServes({text, DataType::kUInt8, runs,
                        withoutVnniOwnKernel() ? uint64_t{16 * 64} : heldBytes(16 * 64), 0});
}

// The same with weights in [-64, 64] (`reduce_range`): PassLab's kernel on
// every CPU with AVX2, with VNNI or without (its AVX2 path, session 39), W
// released once prepared and the kernel reshaped for the other shapes.
TEST(KeptValuesFreedInt8, QLinearConvChannelsLastPointwiseNarrowWeights) {
  if (cpu::QLinearPointwiseNhwc::bestPath() == cpu::QLinearPointwiseNhwc::Path::kNone)
    GTEST_SKIP() << "no AVX2 on this CPU";
  const std::string text = R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>
main (uint8[N,H,W,64] x) => (uint8[N,H,W,16] y) <int8[16,64,1,1] w = )" +
                           ints(16 * 64, -64, 64, 12) + ", " + quantization(16, 64, 121, 110) +
                           R"(> {
  y = com.microsoft.QLinearConv <channels_last = 1> (x, xs, xz, w, ws, wz, ys, yz, b)
})";
  const std::vector<Dims> runs = {
      {1, 9, 9, 64}, {2, 9, 9, 64}, {1, 9, 9, 64}, {1, 7, 11, 64}, {1, 9, 9, 64}};
  expectHeldCopyServes({text, DataType::kUInt8, runs, 16 * 64, -1});
}

// channels_last pointwise 16 -> 32 without zero points: PassLab's kernel on
// at most 4 pixels, oneDNN on 9 (kernelByPixels). W is never released, so
// either kernel can be built for any later shape; 1 step from the reference
// where oneDNN runs (float32 requantization). Without VNNI PassLab's kernel
// runs every shape (its AVX2 path) and W goes.
TEST(KeptValuesFreedInt8, QLinearConvChannelsLastPointwiseFewPixelsThenMore) {
  const std::string text = R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>
main (uint8[N,H,W,16] x) => (uint8[N,H,W,32] y) <int8[32,16,1,1] w = )" +
                           ints(32 * 16, -127, 127, 14) + ", " + quantization(32, 16, 0, 0) +
                           R"(> {
  y = com.microsoft.QLinearConv <channels_last = 1> (x, xs, xz, w, ws, wz, ys, yz, b)
})";
  const std::vector<Dims> runs = {{1, 1, 1, 16}, {2, 1, 1, 16}, {1, 3, 3, 16}, {1, 1, 1, 16}};
  expectHeldCopyServes(
      {text, DataType::kUInt8, runs, withoutVnniOwnKernel() ? uint64_t{32 * 16} : 0, 1});
}

// The same kind of layer (2 -> 16, zero points 0) on an input whose float32
// product w_scale * sum lands on a half (59 exactly, 58 in float32's
// rounding): an executor that ran the other pixel count first gives the
// bytes of a fresh one, in both orders (1 pixel then 9, 9 then 1), keeping W
// or not. Before kernelByPixels the 1-pixel plan stayed on the pointwise
// kernel for 9 pixels (59 where a fresh executor's oneDNN gives 58).
TEST(KeptValuesFreedInt8, QLinearConvPointwiseReusedGivesAFreshExecutorsBytes) {
  std::string w;
  for (int k = 0; k < 16; ++k) w += std::string(k ? ", " : "") + (k % 2 ? "-100, -1" : "100, 1");
  const std::string text = R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>
main (uint8[N,H,W,2] x) => (int8[N,H,W,16] y) <int8[16,2,1,1] w = {)" +
                           w + R"(}, float xs = {1}, uint8 xz = {0},
  float ws = {0.0023337455932050943}, int8 wz = {0}, float ys = {1}, int8 yz = {0}> {
  y = com.microsoft.QLinearConv <channels_last = 1> (x, xs, xz, w, ws, wz, ys, yz)
})";
  auto image = [](int64_t side) {
    std::vector<uint8_t> v;
    for (int64_t i = 0; i < side * side; ++i) v.insert(v.end(), {250, 67});
    return NamedInputs{
        {"x", ir::Tensor::fromVector<uint8_t>(DataType::kUInt8, {1, side, side, 2}, v)}};
  };
  for (bool keep : {false, true}) {
    for (auto [first, second] : {std::pair<int64_t, int64_t>{1, 3}, {3, 1}}) {
      const std::string what = std::string(keep ? "keeping" : "not keeping") + " values, " +
                               std::to_string(first) + " then " + std::to_string(second);
      auto reused = make(text, keep);
      auto fresh = make(text, keep);
      ASSERT_TRUE(reused && fresh);
      ASSERT_EQ(run(*reused, image(first)).outputs.size(), 1u) << what;
      RunResult again = run(*reused, image(second));
      RunResult once = run(*fresh, image(second));
      ASSERT_EQ(again.outputs.size(), 1u) << what;
      ASSERT_EQ(once.outputs.size(), 1u) << what;
      expectSameBytes(again.outputs[0], once.outputs[0], what);
    }
  }
}

// uint8 weights with a zero point (the int32 path, qlinear_conv_int32.h):
// W' held packed, its per-tap sums and bounds kept for the other shapes. 16
// channels with x's zero point 121: oneDNN takes the zero point; 128
// channels with 255: its sums' bound passes 2^24, so the zero point comes
// off as zx * S, S made from the kept per-tap sums.
TEST(KeptValuesFreedInt8, QLinearConvInt32Path) {
  for (int64_t c : {16, 128}) {
    const int xZero = c == 16 ? 121 : 255;
    const int64_t m = c == 16 ? kM : 16, wBytes = m * c * kTaps;
    std::string q = quantization(m, c * kTaps, xZero, 110);
    q.replace(q.find("int8 wz = {0}"), 13, "uint8 wz = {128}");
    const std::string cs = std::to_string(c), ms = std::to_string(m);
    const std::string text = R"(<ir_version: 8, opset_import: ["" : 13]>
main (uint8[N,)" + cs + ",H,W] x) => (uint8[N," +
                             ms + ",H,W] y) <uint8[" + ms + "," + cs +
                             ",3,3] w = " + ints(wBytes, 1, 255, 13) + ", " + q + R"(> {
  y = QLinearConv <pads = [1, 1, 1, 1]> (x, xs, xz, w, ws, wz, ys, yz, b)
})";
    std::vector<Dims> runs = kNchwRuns;
    for (Dims& d : runs) d[1] = c;
    SCOPED_TRACE(cs + " channels");
    // Below AVX-512 VNNI oneDNN's int8 kernels take int32 sums past 2^24 through float32: the
    // 128-channel layer, whose sums may pass it, runs the reference (W stays).
    const bool past = c == 128 && !cpu_isa::hasAvx512Vnni();
    expectHeldCopyServes({text, DataType::kUInt8, runs, past ? 0 : heldBytes(wBytes), 0});
  }
}

// The same shape on two threads, run past the step trials (step_trials.h):
// the plans for one thread and for two build their own primitives, and
// oneDNN's 1x1 brgconv blocks the weights by the thread count (AcdB48a4b on
// one, AcdB64a4b on two, each with the source zero point's compensation),
// between which it has no reorder. The new plan takes the held weights
// through the plain layout (ConvPrimitive::inheritWeights), where it failed
// ("could not create a primitive descriptor for a reorder primitive";
// picodet_s_320's 192 -> 192 at 10x10, INT8 on two threads). Every run gives
// the first run's bytes, within one step of the reference.
TEST(KeptValuesFreedInt8, QLinearConvHeldWeightsAcrossThreadCounts) {
  constexpr int64_t c = 192;
  const std::string text = R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>
main (uint8[N,H,W,192] x) => (uint8[N,H,W,192] y) <int8[192,192,1,1] w = )" +
                           ints(c * c, -127, 127, 15) + ", " + quantization(c, c, 145, 92) +
                           R"(> {
  y = com.microsoft.QLinearConv <channels_last = 1> (x, xs, xz, w, ws, wz, ys, yz, b)
})";
  auto kept = make(text, true);
  auto ref = make(text, false, true);
  ASSERT_TRUE(kept && ref);
  std::mt19937 rng(7);
  NamedInputs in = {{"x", int8conv::activations(DataType::kUInt8, {1, 10, 10, c}, rng)}};
  RunOptions two;
  two.threads = 2;
  RunResult want = run(*ref, in);
  ASSERT_EQ(want.outputs.size(), 1u);
  ir::Tensor first;
  for (int i = 0; i < StepTrials::kRunsBeforeDecided + 2; ++i) {
    const std::string what = "run " + std::to_string(i);
    auto got = kept->run(in, two);
    ASSERT_TRUE(got) << what << ": " << got.error().message();
    ASSERT_EQ(got->outputs.size(), 1u) << what;
    if (i == 0) {
      first = got->outputs[0];
      int8conv::expectEqual(first, want.outputs[0], "reference", 1);
      int8conv::expectSpread(want.outputs[0]);
    } else {
      expectSameBytes(got->outputs[0], first, what);
    }
  }
}

// A batch of 0 after W was released (held packed): Y with no elements, as an
// executor that keeps nothing and the reference kernels give it (no weight is
// read for it), where the kernels failed for the freed W (and the reference
// QLinearMatMul read its per-row scales past their end); then the first shape
// again. Weights in [-64, 64], so that oneDNN's int8 kernels hold W without
// VNNI too (int8_dot_exactness.h).
void expectEmptyBatchAfterRelease(const std::string& text, const Dims& one, const Dims& empty) {
  auto kept = make(text, true);
  auto every = make(text, false);
  auto ref = make(text, false, true);
  ASSERT_TRUE(kept && every && ref);
  std::mt19937 rng(7);
  NamedInputs first = {{"x", int8conv::activations(DataType::kUInt8, one, rng)}};
  RunResult a = run(*kept, first);
  ASSERT_EQ(a.outputs.size(), 1u);
  EXPECT_GT(a.memory.keptFreedBytes, 0u);  // W released
  NamedInputs none = {{"x", int8conv::activations(DataType::kUInt8, empty, rng)}};
  auto got = kept->run(none);
  ASSERT_TRUE(got) << got.error().message();
  RunResult want = run(*every, none);
  RunResult reference = run(*ref, none);
  ASSERT_EQ(got->outputs.size(), 1u);
  ASSERT_EQ(want.outputs.size(), 1u);
  ASSERT_EQ(reference.outputs.size(), 1u);
  EXPECT_EQ(got->outputs[0].dtype(), want.outputs[0].dtype());
  EXPECT_EQ(got->outputs[0].dtype(), reference.outputs[0].dtype());
  expectSameBytes(got->outputs[0], want.outputs[0], "a batch of 0");
  expectSameBytes(got->outputs[0], reference.outputs[0], "a batch of 0, reference");
  EXPECT_EQ(got->outputs[0].numel(), 0);
  RunResult again = run(*kept, first);
  ASSERT_EQ(again.outputs.size(), 1u);
  expectSameBytes(again.outputs[0], a.outputs[0], "the first shape again");
}

TEST(KeptValuesFreedInt8, QLinearConvEmptyBatchAfterRelease) {
  expectEmptyBatchAfterRelease(qlinearConvNchw(64), {1, 16, 9, 9}, {0, 16, 9, 9});
}

TEST(KeptValuesFreedInt8, QLinearConvChannelsLastEmptyBatchAfterRelease) {
  expectEmptyBatchAfterRelease(qlinearConvDepthwiseNhwc(64), {1, 9, 9, 32}, {0, 9, 9, 32});
}

TEST(KeptValuesFreedInt8, QLinearMatMulEmptyBatchAfterRelease) {
  const std::string text = R"(<ir_version: 8, opset_import: ["" : 13]>
main (uint8[N,64] x) => (uint8[N,32] y) <int8[64,32] w = )" +
                           ints(64 * 32, -64, 64, 14) + R"(, float xs = {0.02}, uint8 xz = {121},
    float[32] ws = )" + reals(kM, 0.004f, 0.008f, 8) +
                           R"(, int8 wz = {0}, float ys = {0.05}, uint8 yz = {110}> {
  y = QLinearMatMul (x, xs, xz, w, ws, wz, ys, yz)
})";
  expectEmptyBatchAfterRelease(text, {4, 64}, {0, 64});
}

}  // namespace
}  // namespace passlab::exec
