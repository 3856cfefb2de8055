// fuse_conv_activation: Conv [+ residual Add/Sum] [+ activation] -> ai.passlab
// FusedConv; each activation form, the decomposed GELU, reasons, numerics,
// and that standard-only pipelines skip it.
#include <gtest/gtest.h>

#include "core/io/text_format.h"
#include "core/pipeline/pass_manager.h"
#include "tests/support/pass_harness.h"
#include "tests/support/test_support.h"

namespace passlab::testing {
namespace {

const char* kPass = "fuse_conv_activation";
const std::string kHeader = R"(<ir_version: 9, opset_import: ["" : 20]>)";
const std::string kFusedHeader = R"(<ir_version: 9, opset_import: ["" : 20, "ai.passlab" : 1]>)";

// A 1x1 Conv of x [1,2,3,3] into 3 channels, then `rest` reading t.
std::string convThen(const std::string& rest, const std::string& extraInputs = "",
                     const std::string& extraInits = "") {
  return kHeader + R"(main (float[1,2,3,3] x)" + extraInputs + R"() => (float[1,3,3,3] y)
      <float[3,2,1,1] w = {1, -1, 0.5, 2, -0.5, 0.25}, float[3] b = {0.1, -0.2, 0.3})" +
         extraInits + R"(> {
      t = Conv <kernel_shape = [1, 1]> (x, w, b)
      )" +
         rest + " }";
}

std::string fusedConv(const std::string& attrs, const std::string& inputs,
                      const std::string& extraInputs = "") {
  return kFusedHeader + R"(main (float[1,2,3,3] x)" + extraInputs + R"() => (float[1,3,3,3] y)
      <float[3,2,1,1] w = {1, -1, 0.5, 2, -0.5, 0.25}, float[3] b = {0.1, -0.2, 0.3}> {
      y = ai.passlab.FusedConv <kernel_shape = [1, 1])" +
         attrs + "> (" + inputs + ") }";
}

TEST(FuseConvActivation, ConvReluBecomesOneFusedConv) {
  expectRewrite(kPass, convThen("y = Relu(t)"), fusedConv(R"(, activation = "Relu")", "x, w, b"));
}

TEST(FuseConvActivation, ResidualAddThenReluKeepsTheResidualAsFourthInput) {
  expectRewrite(kPass, convThen("u = Add(z, t)\n y = Relu(u)", ", float[1,3,3,3] z"),
                fusedConv(R"(, activation = "Relu")", "x, w, b, z", ", float[1,3,3,3] z"));
}

TEST(FuseConvActivation, ResidualSumWithoutActivation) {
  expectRewrite(kPass, convThen("y = Sum(t, z)", ", float[1,3,3,3] z"),
                fusedConv("", "x, w, b, z", ", float[1,3,3,3] z"));
}

TEST(FuseConvActivation, ClipBoundsAndLeakyReluAlphaBecomeParams) {
  expectRewrite(kPass,
                convThen("lo = Constant <value = float {0}> ()\n hi = Constant <value = float {6}> "
                         "()\n y = Clip(t, lo, hi)"),
                fusedConv(R"(, activation = "Clip", activation_params = [0.0, 6.0])", "x, w, b"));
  expectRewrite(kPass, convThen("y = LeakyRelu <alpha = 0.2> (t)"),
                fusedConv(R"(, activation = "LeakyRelu", activation_params = [0.2])", "x, w, b"));
}

TEST(FuseConvActivation, DecomposedErfGeluIsRecognized) {
  expectRewrite(kPass, convThen(R"(r2 = Constant <value = float {1.4142135}> ()
      one = Constant <value = float {1}> ()
      half = Constant <value = float {0.5}> ()
      d = Div(t, r2)
      e = Erf(d)
      p = Add(e, one)
      m = Mul(t, p)
      y = Mul(m, half))"),
                fusedConv(R"(, activation = "Gelu", activation_params = [0.0])", "x, w, b"));
}

TEST(FuseConvActivation, OutputsStayTheSame) {
  const std::string sig =
      kHeader + R"(main (float[2,3,7,7] x, float[2,4,4,4] z) => (float[2,4,4,4] y)
      <float[4,3,3,3] w = {1, -1, 0.5, 2, -0.5, 0.25, 1, 0, -1, 0.5, 0.5, -2, 1, 1, 0.5, -0.5, 2, 3, -1, 0, 1, -1, 2, 0.5, 0.5, -2, 1,
                           0.2, 0.3, -0.4, 1, -1, 0.5, 2, -0.5, 0.25, 1, 0, -1, 0.5, 0.5, -2, 1, 1, 0.5, -0.5, 2, 3, -1, 0, 1, -1, 2, 0.5,
                           -1, 0.5, 2, -0.5, 0.25, 1, 0, -1, 0.5, 0.5, -2, 1, 1, 0.5, -0.5, 2, 3, -1, 0, 1, -1, 2, 0.5, 0.5, -2, 1, 0.7,
                           0.1, -0.1, 0.2, -0.2, 0.3, -0.3, 0.4, -0.4, 0.5, -0.5, 0.6, -0.6, 0.7, -0.7, 0.8, -0.8, 0.9, -0.9, 1, -1, 1.1, -1.1, 1.2, -1.2, 1.3, -1.3, 1.4},
       float[4] b = {0.1, -0.2, 0.3, -0.4}> {
      t = Conv <strides = [2, 2], pads = [1, 1, 1, 1]> (x, w, b)
      )";
  expectSameOutputs(kPass, sig + "u = Add(t, z)\n y = LeakyRelu <alpha = 0.1> (u) }");
  expectSameOutputs(kPass, sig + "u = Add(z, t)\n y = HardSwish(u) }");
  expectSameOutputs(kPass, sig + "y = Sigmoid(t) }");
}

TEST(FuseConvActivation, Converges) {
  expectConverges(kPass, convThen("u = Add(z, t)\n y = Relu(u)", ", float[1,3,3,3] z"));
}

TEST(FuseConvActivation, KeepsAConvOutputWithASecondConsumer) {
  expectUnchanged(kPass,
                  kHeader + R"(main (float[1,2,3,3] x) => (float[1,2,3,3] y, float[1,2,3,3] s)
      <float[2,2,1,1] w = {1, 2, 3, 4}> {
      t = Conv(x, w)
      y = Relu(t)
      s = Sigmoid(t) })",
                  "'t' has 2 consumers that are not a GELU subgraph");
}

TEST(FuseConvActivation, KeepsAConsumerThatIsNeitherResidualNorActivation) {
  expectUnchanged(kPass, kHeader + R"(main (float[1,2,4,4] x) => (float[1,2,2,2] y)
      <float[2,2,1,1] w = {1, 2, 3, 4}> {
      t = Conv(x, w)
      y = MaxPool <kernel_shape = [2, 2], strides = [2, 2]> (t) })",
                  "is not an activation");
}

TEST(FuseConvActivation, KeepsAnAddWhoseOperandBroadcasts) {
  // A per-channel constant is fuse_conv_add_mul's: it goes into the Conv's bias.
  expectUnchanged(kPass, convThen("y = Add(t, c)", "", ", float[3,1,1] c = {1, 2, 3}"),
                  "does not have the Conv output's shape");
}

TEST(FuseConvActivation, KeepsFloat16Convs) {
  expectUnchanged(
      kPass, kHeader + R"(main (float16[1,2,3,3] x, float16[2,2,1,1] w) => (float16[1,2,3,3] y) {
      t = Conv(x, w)
      y = Relu(t) })",
      "FusedConv runs float32 only");
}

TEST(FuseConvActivation, KeepsAClipWithAComputedBound) {
  expectUnchanged(kPass, convThen("y = Clip(t, lo)", ", float lo"),
                  "Clip min is not a constant scalar");
}

TEST(FuseConvActivation, StandardOnlyPipelinesSkipIt) {
  ir::Model m = parse(convThen("y = Relu(t)"));
  pipeline::PipelineOptions po;
  po.keepSnapshots = false;  // standardOnly stays on
  pipeline::PassManager pm(m, po);
  auto step = pm.run({kPass, {}, {}});
  ASSERT_TRUE(step);
  EXPECT_TRUE((*step)->skipped);
  EXPECT_FALSE((*step)->changed);
}

}  // namespace
}  // namespace passlab::testing
