// Which oneDNN convolution onednn.Conv runs for a network's first layer
// (readsPlainNchw: few input channels, the input read as plain NCHW by the
// direct JIT kernel, only the result reordered) and for a strided 1x1
// convolution (runsInPlainNchw: the GEMM convolution on the NCHW tensors, no
// reorder): oneDNN's verbose log of a second run (weights packed by the
// first), captured from stdout; the outputs equal the reference kernel's.
// The negatives keep oneDNN's own pick (16 input channels; 7x7 outputs).
#include <gtest/gtest.h>
#include <oneapi/dnnl/dnnl.h>

#include <sstream>
#include <string>
#include <vector>

#include "core/exec/executor.h"
#include "core/support/cpu_isa.h"
#include "tests/core/exec/kernel_test_util.h"
#include "tests/core/exec/onednn_verbose_log.h"

namespace passlab::exec {
namespace {

const char* kHeader = R"(<ir_version: 8, opset_import: ["" : 20]>)";

struct ConvShape {
  int64_t C, H, W, M, k, stride, pad;
  int64_t group = 1;
};

int64_t outSize(int64_t in, const ConvShape& c) {
  return (in + 2 * c.pad - c.k) / c.stride + 1;
}

// Seeded values in [-1, 1).
std::vector<float> seeded(int64_t n, uint32_t seed) {
  std::vector<float> v(static_cast<size_t>(n));
  uint32_t s = seed * 2654435761u + 1;
  for (float& x : v) {
    s = s * 1664525u + 1013904223u;
    x = static_cast<float>(s >> 8) / static_cast<float>(1u << 23) - 1.0f;
  }
  return v;
}

std::string floatsText(const std::vector<float>& v) {
  std::ostringstream s;
  s.precision(9);
  s << "{";
  for (size_t i = 0; i < v.size(); ++i) s << (i ? ", " : "") << v[i];
  return s.str() + "}";
}

// y = Conv(x, w, b), w and b initializers.
std::string model(const ConvShape& c) {
  const kt::Dims w = {c.M, c.C / c.group, c.k, c.k};
  const std::string p = std::to_string(c.pad), s = std::to_string(c.stride);
  return std::string(kHeader) + "main (float[1," + kt::dimsText({c.C, c.H, c.W}) +
         "] x) => (float[1," + kt::dimsText({c.M, outSize(c.H, c), outSize(c.W, c)}) +
         "] y) <float[" + kt::dimsText(w) +
         "] w = " + floatsText(seeded(c.M * c.C / c.group * c.k * c.k, 2)) + ", float[" +
         std::to_string(c.M) + "] b = " + floatsText(seeded(c.M, 3)) +
         "> {\n y = Conv <group = " + std::to_string(c.group) + ", strides = [" + s + ", " + s +
         "], pads = [" + p + ", " + p + ", " + p + ", " + p + "]> (x, w, b) }";
}

using testutil::onednnExecs;

// oneDNN's log of the second run of the convolution (no step trials, so
// the kernel the first run built); its output is checked
// against the reference kernel's.
std::vector<std::string> secondRunExecs(const ConvShape& c) {
  const std::string text = model(c);
  NamedInputs in = {{"x", kt::f32({1, c.C, c.H, c.W}, seeded(c.C * c.H * c.W, 1))}};
  // No step trials: they run a step on 1 and on 2 threads, and the kernel a
  // thread count takes (Winograd on one thread) reorders the weights again.
  ExecutorOptions steady;
  steady.stepTrials = false;
  auto ex = Executor::create(testutil::parseModel(text), steady);
  EXPECT_TRUE(ex) << (ex ? "" : ex.error().message());
  if (!ex) return {};
  RunOptions profiled;
  profiled.profile = true;                // the kernel ids
  EXPECT_TRUE((*ex)->run(in, profiled));  // packs the weights
  Expected<RunResult> out = RunResult{};
  std::vector<std::string> execs = onednnExecs([&] { out = (*ex)->run(in, profiled); });
  EXPECT_TRUE(out) << (out ? "" : out.error().message());
  ExecutorOptions reference;
  reference.referenceKernels = true;
  RunResult want = testutil::runText(text, in, reference, profiled);
  if (out && out->outputs.size() == 1 && want.outputs.size() == 1 && out->profile.size() == 1 &&
      want.profile.size() == 1) {
    EXPECT_EQ(out->profile[0].kernel, "onednn.Conv");
    EXPECT_EQ(want.profile[0].kernel.rfind("cpu.ref.", 0), 0u) << want.profile[0].kernel;
    kt::expectClose(out->outputs[0], want.outputs[0], "onednn.Conv against the reference", 1e-4f);
  } else {
    ADD_FAILURE() << "no output";
  }
  return execs;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const std::string& l : lines) s += l + "\n";
  return s;
}

// The convolution's line of the log.
std::string convolutionLine(const std::vector<std::string>& execs) {
  for (const std::string& e : execs)
    if (kt::contains(e, ",convolution,")) return e;
  return {};
}

// Squeezenet's, ultraface's and resnet50's first layers, and one with 8 channels.
TEST(ConvOneDnnLayout, FirstLayerReadsPlainNchwWithTheDirectKernel) {
  if (!testutil::onednnRunsAvx512()) GTEST_SKIP() << "expects oneDNN's AVX-512 kernels";
  for (ConvShape c : {ConvShape{3, 57, 55, 64, 3, 2, 0}, ConvShape{3, 60, 80, 16, 3, 2, 1},
                      ConvShape{3, 40, 44, 64, 7, 2, 3}, ConvShape{8, 30, 40, 16, 3, 1, 1}}) {
    SCOPED_TRACE(std::to_string(c.C) + " channels, " + std::to_string(c.k) + "x" +
                 std::to_string(c.k));
    std::vector<std::string> execs = secondRunExecs(c);
    const std::string conv = convolutionLine(execs);
    ASSERT_FALSE(conv.empty()) << joined(execs);
    EXPECT_NE(conv.find(",jit:"), std::string::npos) << "the direct JIT kernel: " << conv;
    EXPECT_TRUE(kt::contains(conv, "src_f32::blocked:abcd:")) << "NCHW src: " << conv;
    // The convolution and the reorder of its result, none of its input.
    EXPECT_EQ(execs.size(), 2u) << joined(execs);
    EXPECT_EQ(execs.front(), conv) << joined(execs);
  }
}

// 16 input channels, or outputs not in whole blocks of 16 (picodet's 3->24):
// oneDNN's own layout, the input reordered into it.
TEST(ConvOneDnnLayout, SixteenChannelsOrPaddedOutputsKeepOneDnnsLayout) {
  if (!testutil::onednnRunsAvx512()) GTEST_SKIP() << "expects oneDNN's AVX-512 kernels";
  for (ConvShape c : {ConvShape{16, 28, 28, 32, 3, 1, 1}, ConvShape{3, 64, 64, 24, 3, 2, 1}}) {
    SCOPED_TRACE(std::to_string(c.C) + " -> " + std::to_string(c.M));
    std::vector<std::string> execs = secondRunExecs(c);
    const std::string conv = convolutionLine(execs);
    ASSERT_FALSE(conv.empty()) << joined(execs);
    EXPECT_FALSE(kt::contains(conv, "src_f32::blocked:abcd:")) << conv;
    EXPECT_EQ(execs.size(), 3u) << "reorder, convolution, reorder:\n" << joined(execs);
  }
}

// resnet50's downsampling 1x1 (stride 2) at 14x14 outputs: the GEMM
// convolution on NCHW, no reorder.
TEST(ConvOneDnnLayout, StridedOneByOneRunsTheGemmConvolutionOnNchw) {
  std::vector<std::string> execs = secondRunExecs(ConvShape{48, 28, 28, 64, 1, 2, 0});
  ASSERT_EQ(execs.size(), 1u) << "one convolution, no reorder:\n" << joined(execs);
  const std::string& conv = execs[0];
  EXPECT_TRUE(kt::contains(conv, ",convolution,")) << conv;
  EXPECT_TRUE(kt::contains(conv, "gemm:jit")) << conv;
  EXPECT_TRUE(kt::contains(conv, "src_f32::blocked:abcd:")) << conv;
  EXPECT_TRUE(kt::contains(conv, "dst_f32::blocked:abcd:")) << conv;
}

// At 7x7 outputs (below kPlainConvMinPixels) oneDNN's own pick, not the GEMM.
TEST(ConvOneDnnLayout, SmallStridedOneByOneKeepsOneDnnsPick) {
  std::vector<std::string> execs = secondRunExecs(ConvShape{48, 14, 14, 64, 1, 2, 0});
  const std::string conv = convolutionLine(execs);
  ASSERT_FALSE(conv.empty()) << joined(execs);
  EXPECT_FALSE(kt::contains(conv, "gemm:jit")) << conv;
}

// shufflenet's stage-4 1x1 (544 -> 544 in 4 groups) at 7x7 outputs: without
// AVX-512 (or capped below it) the GEMM convolution on NCHW, no reorder,
// where oneDNN's own pick on AVX2 is its direct kernel on nChw8c (2x slower;
// conv_layout_choice.h); with AVX-512 oneDNN's pick (only the outputs
// checked).
TEST(ConvOneDnnLayout, GroupedOneByOneAtSevenBySevenRunsTheGemmWithoutAvx512) {
  std::vector<std::string> execs = secondRunExecs(ConvShape{544, 7, 7, 544, 1, 1, 0, 4});
  const std::string conv = convolutionLine(execs);
  ASSERT_FALSE(conv.empty()) << joined(execs);
  if (cpu_isa::hasAvx512f())
    GTEST_SKIP() << "AVX-512: oneDNN's own pick, whichever it is (the outputs were checked)";
  EXPECT_EQ(execs.size(), 1u) << "one convolution, no reorder:\n" << joined(execs);
  EXPECT_TRUE(kt::contains(conv, "gemm:jit")) << conv;
  EXPECT_TRUE(kt::contains(conv, "src_f32::blocked:abcd:")) << conv;
  EXPECT_TRUE(kt::contains(conv, "dst_f32::blocked:abcd:")) << conv;
}

}  // namespace
}  // namespace passlab::exec
