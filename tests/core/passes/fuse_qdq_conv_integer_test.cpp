// fuse_qdq_conv_integer: a QDQ model's float Conv (input and weights
// DequantizeLinear outputs) into ai.passlab FusedConvInteger on the 8-bit
// values. Structural (the fused node's inputs, the combined scale sx * sw,
// the Conv's attributes; an input DequantizeLinear other nodes read stays,
// the QuantizeLinear after the Conv stays), numeric (the fused model against
// the float Conv within rounding: SNR above 100 dB, and both against the
// convolution of the integers in double), convergence, and what it must
// leave (weights that are not constant, weight scales along another axis, an
// input with more than one scale).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/exec/executor.h"
#include "core/io/text_format.h"
#include "core/rewrite/match_utils.h"
#include "tests/support/pass_harness.h"
#include "tests/support/test_support.h"

namespace passlab::testing {
namespace {

const char* kPass = "fuse_qdq_conv_integer";

// Seeded integers in [lo, hi], as text.
std::string ints(int n, int lo, int hi, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(lo, hi);
  std::string s;
  for (int i = 0; i < n; ++i) s += (i ? ", " : "") + std::to_string(d(rng));
  return s;
}

struct Form {
  std::string xIn = "float[1,3,6,6] x";  // the graph input; "uint8[1,3,6,6] xq" feeds xq directly
  std::string wDq = "DequantizeLinear(wq, sw, wz)";
  std::string sw = "float sw = {0.011}, uint8 wz = {129}";
  std::string wType = "uint8";
  std::string xDq = "DequantizeLinear(xq, xs, xz)";
  std::string convAttrs = "<pads = [1, 1, 1, 1]>";
  std::string outDims = "[1,4,6,6]";
  std::string tail = "y = Identity(c)";  // what follows the Conv c
  std::string extraOut = {};
  bool bias = true;
  std::string wIn = {};  // ", uint8[4,3,3,3] wq": the weights fed at run time
};

// [x -> Q ->] DQ -> Conv(DQ(W) [, b]) -> tail.
std::string model(const Form& f) {
  const bool quantizeFirst = f.xIn.ends_with(" x");
  std::string inits;
  if (f.wIn.empty())
    inits += f.wType + "[4,3,3,3] wq = {" +
             (f.wType == "uint8" ? ints(108, 0, 255, 5) : ints(108, -128, 127, 5)) + "}, ";
  inits += f.sw + ", float xs = {0.05}, uint8 xz = {120}, float[4] b = {0.1, -0.2, 0.05, 0}";
  std::string body;
  if (quantizeFirst) body += "\n    xq = QuantizeLinear(x, xs, xz)";
  body += "\n    xd = " + f.xDq + "\n    wd = " + f.wDq + "\n    c = Conv " + f.convAttrs +
          (f.bias ? " (xd, wd, b)" : " (xd, wd)") + "\n    " + f.tail;
  return R"(<ir_version: 8, opset_import: ["" : 13]>
main ()" +
         f.xIn + f.wIn + ") => (float" + f.outDims + " y" + f.extraOut + ")\n    <" + inits +
         "> {" + body + " }";
}

TEST(FuseQdqConvInteger, TheConvRunsOnTheEightBitValues) {
  PassOutcome out = runPass(kPass, model({}));
  EXPECT_EQ(countOps(out.model, "FusedConvInteger"), 1);
  EXPECT_EQ(countOps(out.model, "Conv"), 0);
  EXPECT_EQ(countOps(out.model, "DequantizeLinear"), 0);  // both read by the Conv only
  EXPECT_EQ(countOps(out.model, "QuantizeLinear"), 1);
  const ir::Node* n = findOp(out.model, "FusedConvInteger");
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->domain(), "ai.passlab");
  ASSERT_EQ(n->inputCount(), 6u);
  EXPECT_EQ(n->input(0)->name(), "xq");
  EXPECT_EQ(n->input(1)->name(), "wq");
  EXPECT_EQ(n->input(2)->name(), "xz");
  EXPECT_EQ(n->input(3)->name(), "wz");
  EXPECT_EQ(n->input(5)->name(), "b");
  auto s = rewrite::constantValue(n->input(4));
  ASSERT_TRUE(s);
  ASSERT_EQ(s->numel(), 1);
  EXPECT_EQ(s->data<float>()[0], 0.05f * 0.011f);
  EXPECT_EQ(n->attrInts("pads", {}), (std::vector<int64_t>{1, 1, 1, 1}));
  EXPECT_EQ(n->attrString("activation", ""), "");
}

TEST(FuseQdqConvInteger, PerChannelWeightScalesGiveOneScalePerChannel) {
  PassOutcome out = runPass(
      kPass, model({.wDq = "DequantizeLinear <axis = 0> (wq, sw, wz)",
                    .sw = "float[4] sw = {0.011, 0.02, 0.007, 0.015}, uint8[4] wz = {129, 108, "
                          "131, 140}"}));
  const ir::Node* n = findOp(out.model, "FusedConvInteger");
  ASSERT_NE(n, nullptr);
  auto s = rewrite::constantValue(n->input(4));
  ASSERT_TRUE(s);
  ASSERT_EQ(s->numel(), 4);
  const float sw[] = {0.011f, 0.02f, 0.007f, 0.015f};
  for (int m = 0; m < 4; ++m) EXPECT_EQ(s->data<float>()[m], 0.05f * sw[m]) << m;
}

TEST(FuseQdqConvInteger, AnInputDequantizationReadElsewhereStays) {
  PassOutcome out = runPass(kPass, model({.tail = "y = Identity(c)\n    r = Relu(xd)",
                                          .extraOut = ", float[1,3,6,6] r"}));
  EXPECT_EQ(countOps(out.model, "FusedConvInteger"), 1);
  EXPECT_EQ(countOps(out.model, "DequantizeLinear"), 1);  // x's, for the Relu
  EXPECT_EQ(findOp(out.model, "FusedConvInteger")->input(0)->name(), "xq");
}

// Lossy by name (a QuantizeLinear after it may move a step), but on its own
// the Conv's result moves by rounding only: SNR above 100 dB.
TEST(FuseQdqConvInteger, OutputsMatchTheFloatConvWithinRounding) {
  for (const Form& f :
       {Form{}, Form{.bias = false},
        Form{.wDq = "DequantizeLinear <axis = 0> (wq, sw, wz)",
        .sw = "float[4] sw = {0.011, 0.02, 0.007, 0.015}, int8[4] wz = {1, -3, 0, 7}",
        .wType = "int8",
        .convAttrs = "<strides = [2, 2]>",
        .outDims = "[1,4,2,2]"},
        Form{.xDq = "DequantizeLinear(xq, xs)",
        .convAttrs = "<pads = [0, 1, 2, 1]>",
        .outDims = "[1,4,7,5]"}}) {
    const std::string text = model(f);
    auto before = io::parseModelText(text);
    ASSERT_TRUE(before) << before.error().message();
    PassOutcome after = runPass(kPass, text);
    ASSERT_EQ(countOps(after.model, "FusedConvInteger"), 1) << text;
    pipeline::AccuracyBudget rounding;
    rounding.minSnrDb = 100;
    rounding.minCosine = 0.999999;
    NumericResult r = compareWithinBudget(*before, after.model, rounding, 3);
    EXPECT_TRUE(r.ran) << r.detail;
    EXPECT_TRUE(r.equal) << r.detail << "\n" << text;
  }
}

// The convolution of W - zw and xq - zx in double, scaled, plus b: what both
// the float Conv and the fused node approximate.
TEST(FuseQdqConvInteger, BothFormsAreWithinRoundingOfTheIntegerConvolution) {
  const std::string text = model({.xIn = "uint8[1,3,6,6] xq"});
  auto before = io::parseModelText(text);
  ASSERT_TRUE(before) << before.error().message();
  PassOutcome after = runPass(kPass, text);
  ASSERT_EQ(countOps(after.model, "FusedConvInteger"), 1);
  const std::optional<ir::Tensor> wq = rewrite::constantValue(before->graph().findValue("wq"));
  ASSERT_TRUE(wq);
  std::mt19937 rng(9);
  std::uniform_int_distribution<int> d(0, 255);
  std::vector<uint8_t> xq(108);
  for (uint8_t& v : xq) v = static_cast<uint8_t>(d(rng));
  const double b[] = {0.1, -0.2, 0.05, 0};
  std::vector<double> want(144);
  double largest = 0;
  for (int m = 0; m < 4; ++m)
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) {
        double sum = 0;
        for (int c = 0; c < 3; ++c)
          for (int ki = 0; ki < 3; ++ki)
            for (int kj = 0; kj < 3; ++kj) {
              const int ii = i + ki - 1, jj = j + kj - 1;
              if (ii < 0 || ii >= 6 || jj < 0 || jj >= 6) continue;
              const int w = wq->data<uint8_t>()[((m * 3 + c) * 3 + ki) * 3 + kj] - 129;
              sum += double(w) * (xq[(c * 6 + ii) * 6 + jj] - 120);
            }
        const double v = sum * double(0.05f) * double(0.011f) + b[m];
        want[(m * 6 + i) * 6 + j] = v;
        largest = std::max(largest, std::fabs(v));
      }
  for (const ir::Model* m : {&*before, &after.model}) {
    auto ex = exec::Executor::create(*m, {});
    ASSERT_TRUE(ex) << ex.error().message();
    auto r = (*ex)->run({{"xq", exec::Value(ir::Tensor::fromVector<uint8_t>(ir::DataType::kUInt8,
                                                                            {1, 3, 6, 6}, xq))}});
    ASSERT_TRUE(r) << r.error().message();
    const ir::Tensor& y = r->outputs[0];
    ASSERT_EQ(y.numel(), 144);
    double worst = 0;
    for (int i = 0; i < 144; ++i)
      worst = std::max(worst, std::fabs(double(y.data<float>()[i]) - want[i]));
    EXPECT_LT(worst, 1e-5 * largest) << (m == &after.model ? "fused" : "float Conv");
    EXPECT_GT(largest, 1.0);
  }
}

TEST(FuseQdqConvInteger, TheQuantizationAfterTheConvStays) {
  PassOutcome out = runPass(
      kPass,
      model({.tail = "cq = QuantizeLinear(c, xs, xz)\n    y = DequantizeLinear(cq, xs, xz)"}));
  EXPECT_EQ(countOps(out.model, "FusedConvInteger"), 1);
  EXPECT_EQ(countOps(out.model, "QuantizeLinear"), 2);
  EXPECT_EQ(countOps(out.model, "DequantizeLinear"), 1);
}

TEST(FuseQdqConvInteger, Converges) {
  expectConverges(kPass, model({}));
}

TEST(FuseQdqConvInteger, LeavesWeightsFedAtRunTime) {
  expectUnchanged(kPass, model({.wIn = ", uint8[4,3,3,3] wq"}), "not constant");
}

TEST(FuseQdqConvInteger, LeavesWeightScalesAlongAnotherAxis) {
  expectUnchanged(
      kPass,
      model({.wDq = "DequantizeLinear <axis = 1> (wq, sw, wz)",
             .sw = "float[3] sw = {0.011, 0.02, 0.007}, uint8[3] wz = {129, 108, 131}"}),
      "one value or one per output channel");
}

TEST(FuseQdqConvInteger, LeavesAnInputWithOneScalePerChannel) {
  expectUnchanged(kPass,
                  model({.xIn = "uint8[1,3,6,6] xq",
                         .sw = "float sw = {0.011}, uint8 wz = {129}, float[3] xs3 = {0.05, 0.04, "
                               "0.03}, uint8[3] xz3 = {120, 0, 7}",
                         .xDq = "DequantizeLinear <axis = 1> (xq, xs3, xz3)"}),
                  "one value");
}

}  // namespace
}  // namespace passlab::testing
