// Which oneDNN implementation and layouts the float32 convolutions on NCHW
// activations run (issue #26), read from oneDNN's verbose log of a second run
// (weights packed by the first), captured from stdout:
// * FusedConv's grouped 1x1 convolutions that runsInPlainNchw takes
//   (shufflenet's): oneDNN's GEMM convolution on the NCHW tensors
//   (isGemmConvolution), no reorder, no post-op (it applies post-ops element
//   by element, 20x slower), the residual and the activation in PassLab's
//   epilogue. A name check that never matches (session 23 compared "gemm:jit"
//   as a prefix of "x64:gemm:jit") fails here.
// * Depthwise Conv and FusedConv: 3x3 ones (strides 1, 2; pads 0, 1) no
//   oneDNN primitive at all (conv_depthwise_3x3.h: no reorders); others
//   oneDNN's direct depthwise kernel on nChw16c or nChw8c (depthwiseBlock),
//   reorders around it.
// Every output is compared with the Conv (+ Add) + Relu chain on the
// reference kernels.
#include <gtest/gtest.h>
#include <oneapi/dnnl/dnnl.h>

#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/exec/cpu/conv_layout_choice.h"
#include "core/exec/executor.h"
#include "core/support/cpu_isa.h"
#include "tests/core/exec/kernel_test_util.h"
#include "tests/core/exec/onednn_verbose_log.h"

namespace passlab::exec {
namespace {

const char* kHeader = R"(<ir_version: 8, opset_import: ["" : 20, "ai.passlab" : 1]>)";

// Seeded float32 values, uniform in [-2, 2).
ir::Tensor uniform(const kt::Dims& dims, unsigned seed) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> u(-2.0f, 2.0f);
  std::vector<float> v(static_cast<size_t>(n));
  for (float& x : v) x = u(g);
  return kt::f32(dims, v);
}

// The one output of `text` on the reference kernels.
ir::Tensor reference(const std::string& text, const NamedInputs& inputs) {
  ExecutorOptions o;
  o.referenceKernels = true;
  std::vector<ir::Tensor> out = testutil::runText(text, inputs, o).outputs;
  EXPECT_EQ(out.size(), 1u);
  return out.size() == 1 ? out[0] : ir::Tensor();
}

struct Case {
  kt::Dims x, w, y;
  std::string attrs;  // Conv attributes, without brackets
};

// The case of a grouped 1x1 convolution: C -> M channels at size x size.
Case grouped(int64_t c, int64_t m, int64_t size, int64_t groups) {
  return {{1, c, size, size},
          {m, c / groups, 1, 1},
          {1, m, size, size},
          "group = " + std::to_string(groups)};
}

// A k x k depthwise convolution of c channels (k odd), pads (k - 1) / 2,
// stride s.
Case depthwise(int64_t c, int64_t size, int64_t s, int64_t k = 3) {
  const int64_t out = (size - 1) / s + 1;
  const std::string p = std::to_string((k - 1) / 2);
  return {{1, c, size, size},
          {c, 1, k, k},
          {1, c, out, out},
          "group = " + std::to_string(c) + ", pads = [" + p + ", " + p + ", " + p + ", " + p +
              "], strides = [" + std::to_string(s) + ", " + std::to_string(s) + "]"};
}

std::string floatsText(const ir::Tensor& t) {
  std::ostringstream s;
  s.precision(9);
  s << "{";
  auto v = kt::values<float>(t);
  for (size_t i = 0; i < v.size(); ++i) s << (i ? ", " : "") << v[i];
  s << "}";
  return s.str();
}

enum class Form { kConv, kFusedConv, kChain };

// y = Conv(x, w, b); FusedConv(x, w, b[, z]) with Relu; or the Conv + Add +
// Relu chain. w and b are initializers.
std::string model(const Case& c, Form form, bool residual) {
  const std::string x = "float[" + kt::dimsText(c.x) + "]", y = "float[" + kt::dimsText(c.y) + "]";
  std::string text = std::string(kHeader) + "main (" + x + " x" +
                     (residual ? ", " + y + " z" : "") + ") => (" + y + " y) <float[" +
                     kt::dimsText(c.w) + "] w = " + floatsText(uniform(c.w, 2)) + ", float[" +
                     std::to_string(c.w[0]) + "] b = " + floatsText(uniform({c.w[0]}, 3)) + "> {\n";
  switch (form) {
    case Form::kConv:
      return text + "y = Conv <" + c.attrs + "> (x, w, b) }";
    case Form::kFusedConv:
      return text + "y = ai.passlab.FusedConv <" + c.attrs + R"(, activation = "Relu"> (x, w, b)" +
             (residual ? ", z" : "") + ") }";
    case Form::kChain:
      return text + "t = Conv <" + c.attrs + "> (x, w, b)\n" +
             (residual ? "u = Add(t, z)\n" : "u = Identity(t)\n") + "y = Relu(u) }";
  }
  return text;
}

using testutil::onednnExecs;

// The forms a layer is run in: Conv, FusedConv, FusedConv with a residual.
struct Variant {
  Form form;
  bool residual;
};
constexpr Variant kVariants[] = {
    {Form::kConv, false}, {Form::kFusedConv, false}, {Form::kFusedConv, true}};

std::string variantText(const Variant& v) {
  return std::string(v.form == Form::kConv ? " Conv" : " FusedConv") +
         (v.residual ? ", residual" : "");
}

// `form` run twice with `options` (the first run packs the weights): oneDNN's
// log of the second, whose output is checked against the reference chain
// (without its Relu for Conv); the executor, its inputs and that reference
// kept for more runs (executor null when it was not made).
struct SecondRun {
  std::unique_ptr<Executor> executor;
  NamedInputs inputs;
  ir::Tensor want;
  std::vector<std::string> execs;
};

SecondRun runTwice(const Case& c, Form form, bool residual, const RunOptions& options = {}) {
  SecondRun r;
  r.inputs = {{"x", uniform(c.x, 1)}};
  if (residual) r.inputs.push_back({"z", uniform(c.y, 4)});
  auto ex = Executor::create(testutil::parseModel(model(c, form, residual)), ExecutorOptions{});
  EXPECT_TRUE(ex) << (ex ? "" : ex.error().message());
  if (!ex) return r;
  r.executor = std::move(ex.value());
  EXPECT_TRUE(r.executor->run(r.inputs, options));
  Expected<RunResult> out = RunResult{};
  r.execs = onednnExecs([&] { out = r.executor->run(r.inputs, options); });
  EXPECT_TRUE(out) << (out ? "" : out.error().message());
  r.want = reference(
      form == Form::kConv ? model(c, Form::kConv, false) : model(c, Form::kChain, residual),
      r.inputs);
  if (out && out->outputs.size() == 1)
    kt::expectClose(out->outputs[0], r.want, "against the reference", 2e-4f);
  return r;
}

std::vector<std::string> secondRun(const Case& c, Form form, bool residual) {
  return runTwice(c, form, residual).execs;
}

bool contains(const std::string& s, const char* part) {
  return s.find(part) != std::string::npos;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const std::string& l : lines) s += l + "\n";
  return s;
}

// The convolution's line of oneDNN's log (the last), "" when none.
std::string convolutionLine(const std::vector<std::string>& execs) {
  std::string conv;
  for (const std::string& l : execs)
    if (contains(l, ",convolution,")) conv = l;
  return conv;
}

// onnx_light_shufflenet's grouped 1x1 convolutions at 56x56, 28x28 and 14x14,
// 4 groups, with and without the residual.
TEST(FusedConvOneDnnImpl, GroupedOneByOneRunsTheGemmConvolutionOnNchwWithoutPostOps) {
  for (const Case& c :
       {grouped(24, 112, 56, 4), grouped(112, 112, 28, 4), grouped(136, 136, 14, 4)})
    for (bool residual : {false, true}) {
      SCOPED_TRACE(kt::dimsText(c.w) + " at " + std::to_string(c.x[2]) +
                   (residual ? ", residual" : ""));
      std::vector<std::string> execs = secondRun(c, Form::kFusedConv, residual);
      ASSERT_EQ(execs.size(), 1u) << "one convolution, no reorder; the log:\n" << joined(execs);
      const std::string& conv = execs[0];
      EXPECT_TRUE(contains(conv, ",convolution,")) << conv;
      EXPECT_TRUE(cpu::isGemmConvolution(conv)) << conv;
      EXPECT_TRUE(contains(conv, "src_f32::blocked:abcd:")) << "NCHW src: " << conv;
      EXPECT_TRUE(contains(conv, "dst_f32::blocked:abcd:")) << "NCHW dst: " << conv;
      EXPECT_FALSE(contains(conv, "post-ops")) << conv;
    }
}

// At 7x7 (49 pixels, below kPlainConvMinPixels) the path is not taken.
TEST(FusedConvOneDnnImpl, SmallGroupedOneByOneKeepsOneDnnsPick) {
  if (!testutil::onednnRunsAvx512()) GTEST_SKIP() << "expects oneDNN's AVX-512 kernels";
  std::vector<std::string> execs = secondRun(grouped(272, 272, 7, 4), Form::kFusedConv, false);
  ASSERT_FALSE(execs.empty());
  for (const std::string& e : execs) EXPECT_FALSE(cpu::isGemmConvolution(e)) << e;
}

// shufflenet's depthwise 3x3 shapes that prefersDepthwise3x3 takes, as Conv
// and as FusedConv with and without a residual: the direct NCHW kernel, no
// oneDNN primitive (no reorder) at all; the outputs against the reference
// chain (secondRun).
TEST(FusedConvOneDnnImpl, Depthwise3x3RunsWithoutOneDnn) {
  if (!cpu_isa::hasAvx512f()) GTEST_SKIP() << "the direct loop's AVX-512 version";
  for (const Case& c : {depthwise(136, 28, 1), depthwise(112, 56, 2), depthwise(136, 28, 2)})
    for (const Variant& v : kVariants) {
      SCOPED_TRACE(c.attrs + variantText(v));
      std::vector<std::string> execs = secondRun(c, v.form, v.residual);
      EXPECT_TRUE(execs.empty()) << joined(execs);
    }
}

// The same shapes without AVX-512 (this CPU or PASSLAB_MAX_ISA): oneDNN's
// jit_dw, which ran them 3-5x faster than the portable loop on an AVX2 EPYC
// (prefersDepthwise3x3).
TEST(FusedConvOneDnnImpl, Depthwise3x3WithoutAvx512RunsJitDw) {
  if (cpu_isa::hasAvx512f()) GTEST_SKIP() << "this CPU (and the cap) run the AVX-512 loop";
  for (const Case& c : {depthwise(136, 28, 1), depthwise(112, 56, 2), depthwise(136, 28, 2)})
    for (const Variant& v : kVariants) {
      SCOPED_TRACE(c.attrs + variantText(v));
      std::vector<std::string> execs = secondRun(c, v.form, v.residual);
      const std::string conv = convolutionLine(execs);
      ASSERT_FALSE(conv.empty()) << joined(execs);
      EXPECT_TRUE(contains(conv, ",jit_dw:")) << conv;
    }
}

// shufflenet's other depthwise 3x3 shapes (whole 16-channel blocks at stride
// 1, 7-wide output rows): oneDNN's jit_dw measured faster, reorders included.
TEST(FusedConvOneDnnImpl, Depthwise3x3OnSmallRowsRunsJitDw) {
  if (!testutil::onednnRunsAvx512()) GTEST_SKIP() << "expects oneDNN's AVX-512 kernels";
  for (const Case& c : {depthwise(272, 14, 1), depthwise(544, 7, 1), depthwise(272, 14, 2)})
    for (Form form : {Form::kConv, Form::kFusedConv}) {
      SCOPED_TRACE(c.attrs + (form == Form::kConv ? " Conv" : " FusedConv"));
      std::vector<std::string> execs = secondRun(c, form, false);
      const std::string conv = convolutionLine(execs);
      ASSERT_FALSE(conv.empty()) << joined(execs);
      EXPECT_TRUE(contains(conv, ",jit_dw:")) << conv;
    }
}

// 5x5 depthwise layers of shufflenet's channel counts (136: nChw8c; 112 and
// 272: nChw16c), as Conv and as FusedConv with and without a residual.
TEST(FusedConvOneDnnImpl, DepthwiseRunsTheDirectKernelOnBlockedChannels) {
  if (!testutil::onednnRunsAvx512()) GTEST_SKIP() << "expects oneDNN's AVX-512 kernels";
  struct Expect {
    Case c;
    const char* layout;
  };
  for (const Expect& e :
       {Expect{depthwise(136, 28, 1, 5), "aBcd8b"}, Expect{depthwise(112, 56, 2, 5), "aBcd16b"},
        Expect{depthwise(272, 14, 1, 5), "aBcd16b"}})
    for (const Variant& v : kVariants) {
      SCOPED_TRACE(e.c.attrs + variantText(v));
      std::vector<std::string> execs = secondRun(e.c, v.form, v.residual);
      const std::string conv = convolutionLine(execs);
      ASSERT_FALSE(conv.empty()) << joined(execs);
      EXPECT_TRUE(contains(conv, ",jit_dw:")) << conv;
      EXPECT_TRUE(contains(conv, (std::string("src_f32::blocked:") + e.layout).c_str())) << conv;
      EXPECT_TRUE(contains(conv, (std::string("dst_f32::blocked:") + e.layout).c_str())) << conv;
    }
}

// squeezenet's Fire 3x3 expand layer (16 -> 64 channels) on NCHW
// activations, as Conv and as FusedConv with and without a residual: oneDNN's
// direct kernel on nChw16c (its own pick was brgemm on NHWC), X and the result
// reordered. On a step the executor runs on one thread it takes Winograd on
// nChw16c instead where PassLab sees AVX-512 (the next test).
TEST(FusedConvOneDnnImpl, AThreeByThreeWideningFewChannelsRunsTheDirectKernelOnBlockedChannels) {
  if (!testutil::onednnRunsAvx512()) GTEST_SKIP() << "expects oneDNN's AVX-512 kernels";
  const Case c = {{1, 16, 15, 15}, {64, 16, 3, 3}, {1, 64, 15, 15}, "pads = [1, 1, 1, 1]"};
  for (const Variant& v : kVariants) {
    SCOPED_TRACE(variantText(v));
    std::vector<std::string> execs = secondRun(c, v.form, v.residual);
    const std::string conv = convolutionLine(execs);
    ASSERT_FALSE(conv.empty()) << joined(execs);
    EXPECT_TRUE(contains(conv, ",jit:") || contains(conv, ",jit_fp32_wino_2x3:")) << conv;
    EXPECT_TRUE(contains(conv, "src_f32::blocked:aBcd16b")) << conv;
    EXPECT_TRUE(contains(conv, "dst_f32::blocked:aBcd16b")) << conv;
  }
}

// The same layer as a Conv (optimizations off) and as a FusedConv outside a
// blocked chain (inception_v1's 64 -> 192 on 55x55 is one) on one thread:
// oneDNN's Winograd kernel on nChw16c where PassLab sees AVX-512
// (blockedConvWinograd: widening few channels onto more than 14x14 pixels),
// X and the result reordered; the chain's results within rounding, with and
// without the residual.
TEST(FusedConvOneDnnImpl, AThreeByThreeWideningConvRunsWinogradOnOneThreadWithAvx512) {
  if (!testutil::onednnRunsAvx512()) GTEST_SKIP() << "expects oneDNN's AVX-512 kernels";
  const Case c = {{1, 16, 15, 15}, {64, 16, 3, 3}, {1, 64, 15, 15}, "pads = [1, 1, 1, 1]"};
  for (const Variant& v : kVariants) {
    SCOPED_TRACE(variantText(v));
    RunOptions options;
    options.threads = 1;
    SecondRun r = runTwice(c, v.form, v.residual, options);  // the output against the chain
    ASSERT_TRUE(r.executor);
    const std::string conv = convolutionLine(r.execs);
    ASSERT_FALSE(conv.empty()) << joined(r.execs);
    EXPECT_TRUE(contains(conv, cpu_isa::hasAvx512f() ? ",jit_fp32_wino_2x3:" : ",jit:")) << conv;
    EXPECT_TRUE(contains(conv, "src_f32::blocked:aBcd16b")) << conv;
    EXPECT_TRUE(contains(conv, "dst_f32::blocked:aBcd16b")) << conv;
    // Another thread count builds another plan, which takes the held weights
    // out of the Winograd layout (through their plain copy), and back.
    for (int threads : {2, 1, 2}) {
      options.threads = threads;
      Expected<RunResult> again = r.executor->run(r.inputs, options);
      ASSERT_TRUE(again) << threads << " threads: " << again.error().message();
      kt::expectClose(again->outputs.at(0), r.want, std::to_string(threads) + " threads", 2e-4f);
    }
  }
}

TEST(FusedConvOneDnnImpl, WideningBlockRule) {
  auto g = [](int64_t c, int64_t m, int64_t k, int64_t group = 1) {
    cpu::ConvGeometry r;
    r.N = 1;
    r.C = c;
    r.M = m;
    r.group = group;
    r.kernel = {k, k};
    r.stride = {1, 1};
    r.dilation = {1, 1};
    r.padBegin = {k / 2, k / 2};
    r.padEnd = {k / 2, k / 2};
    r.in = {27, 27};
    r.out = {27, 27};
    return r;
  };
  EXPECT_EQ(cpu::wideningBlock(g(16, 64, 3)), 16);
  EXPECT_EQ(cpu::wideningBlock(g(64, 256, 3)), 16);
  EXPECT_EQ(cpu::wideningBlock(g(32, 64, 3)), 16);  // exactly twice
  EXPECT_EQ(cpu::wideningBlock(g(32, 63, 3)), 0);   // just under twice
  EXPECT_EQ(cpu::wideningBlock(g(32, 96, 5)), 16);
  EXPECT_EQ(cpu::wideningBlock(g(64, 64, 3)), 0);      // resnet50's: not widening
  EXPECT_EQ(cpu::wideningBlock(g(64, 96, 3)), 0);      // less than twice
  EXPECT_EQ(cpu::wideningBlock(g(96, 384, 3)), 0);     // too many input channels
  EXPECT_EQ(cpu::wideningBlock(g(24, 64, 5)), 0);      // a padded block
  EXPECT_EQ(cpu::wideningBlock(g(16, 64, 1)), 0);      // 1x1 (runsInPlainNchw's)
  EXPECT_EQ(cpu::wideningBlock(g(32, 128, 3, 2)), 0);  // grouped
  EXPECT_EQ(cpu::directKernelBlock(g(16, 64, 3)), 16);
  EXPECT_EQ(cpu::directKernelBlock(g(136, 136, 3, 136)), 8);  // depthwise first
}

TEST(FusedConvOneDnnImpl, DepthwiseBlockRule) {
  auto g = [](int64_t c, int64_t m, int64_t group) {
    cpu::ConvGeometry r;
    r.N = 1;
    r.C = c;
    r.M = m;
    r.group = group;
    r.kernel = {3, 3};
    r.stride = {1, 1};
    r.dilation = {1, 1};
    r.padBegin = {1, 1};
    r.padEnd = {1, 1};
    r.in = {14, 14};
    r.out = {14, 14};
    return r;
  };
  EXPECT_EQ(cpu::depthwiseBlock(g(272, 272, 272)), 16);
  EXPECT_EQ(cpu::depthwiseBlock(g(136, 136, 136)), 8);
  EXPECT_EQ(cpu::depthwiseBlock(g(20, 20, 20)), 0);  // neither block
  EXPECT_EQ(cpu::depthwiseBlock(g(32, 64, 32)), 0);  // two outputs per group
  EXPECT_EQ(cpu::depthwiseBlock(g(32, 32, 4)), 0);   // grouped, not depthwise
  EXPECT_EQ(cpu::depthwiseBlock(g(1, 1, 1)), 0);     // one channel
  cpu::ConvGeometry oneD = g(32, 32, 32);
  oneD.kernel = {3};
  oneD.stride = {1};
  oneD.dilation = {1};
  oneD.padBegin = {1};
  oneD.padEnd = {1};
  oneD.in = {14};
  oneD.out = {14};
  EXPECT_EQ(cpu::depthwiseBlock(oneD), 0);  // 1-D
}

TEST(FusedConvOneDnnImpl, GemmNamesOfOneDnnReleases) {
  EXPECT_TRUE(cpu::isGemmConvolution("x64:gemm:jit"));  // oneDNN 2.6
  EXPECT_TRUE(cpu::isGemmConvolution("gemm:jit"));      // before
  EXPECT_FALSE(cpu::isGemmConvolution("brgconv_1x1:avx512_core"));
  EXPECT_FALSE(cpu::isGemmConvolution("jit_1x1:avx512_core"));
  EXPECT_FALSE(cpu::isGemmConvolution("ref:any"));
}

}  // namespace
}  // namespace passlab::exec
