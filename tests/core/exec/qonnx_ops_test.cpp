// The QONNX quantizers (core/exec/cpu/qonnx_ops.cpp), expected values worked
// out by hand from the formulas in qonnx's docs/qonnx-custom-ops; the rounding
// table is the one in quant_op.md.
#include <gtest/gtest.h>

#include "core/ir/op_schema.h"
#include "tests/core/exec/op_test_util.h"

namespace passlab::exec::optest {
namespace {

constexpr const char* kQonnx = "qonnx.custom_op.general";

ir::Tensor scalar(float v) {
  return f32({}, {v});
}

Call quant(ir::Tensor x, float scale, float zero, float bits, std::vector<Attr> attrs = {},
           const char* domain = kQonnx) {
  Call c{"Quant", {std::move(x), scalar(scale), scalar(zero), scalar(bits)}, std::move(attrs), 1};
  c.domain = domain;
  return c;
}

TEST(QonnxQuant, SignedFourBitsRoundsHalfToEvenAndClips) {
  // Range [-8, 7]; -0.5 -> -0, 1.5 -> 2, 2.5 -> 2, 9 -> 7.
  expectTensor(run1(quant(f32({6}, {-3.7f, -0.5f, 0.4f, 1.5f, 2.5f, 9}), 1, 0, 4)),
               DataType::kFloat, {6}, {-4, 0, 0, 2, 2, 7});
  // scale 0.5: x / s = [-7.4, -1, 0.8, 3, 5, 18] -> [-7, -1, 1, 3, 5, 7] * 0.5
  expectTensor(run1(quant(f32({6}, {-3.7f, -0.5f, 0.4f, 1.5f, 2.5f, 9}), 0.5f, 0, 4)),
               DataType::kFloat, {6}, {-3.5, -0.5, 0.5, 1.5, 2.5, 3.5});
}

TEST(QonnxQuant, UnsignedNarrowWithZeroPoint) {
  // 3 bits unsigned narrow: [0, 6]. x + 2 = [-3, 2.2, 5.5, 12] -> [0, 2.2, 5.5, 6]
  // -> [0, 2, 6, 6] (5.5 rounds to even) -> minus 2.
  expectTensor(run1(quant(f32({4}, {-5, 0.2f, 3.5f, 10}), 1, 2, 3,
                          {attrI("signed", 0), attrI("narrow", 1)})),
               DataType::kFloat, {4}, {-2, 0, 4, 4});
}

TEST(QonnxQuant, SignedNarrowTwoBits) {
  // [-1, 1] instead of [-2, 1].
  expectTensor(run1(quant(f32({3}, {-5, 5, 0.6f}), 1, 0, 2, {attrI("narrow", 1)})),
               DataType::kFloat, {3}, {-1, 1, 1});
}

TEST(QonnxQuant, RoundingModesFollowTheSpecTable) {
  const std::vector<float> x = {5.5f, 2.5f, 1.6f, 1.1f, 1.0f, -1.0f, -1.1f, -1.6f, -2.5f, -5.5f};
  const std::vector<std::pair<const char*, std::vector<double>>> table = {
      {"ROUND", {6, 2, 2, 1, 1, -1, -1, -2, -2, -6}},
      {"CEIL", {6, 3, 2, 2, 1, -1, -1, -1, -2, -5}},
      {"FLOOR", {5, 2, 1, 1, 1, -1, -2, -2, -3, -6}},
      {"UP", {6, 3, 2, 2, 1, -1, -2, -2, -3, -6}},
      {"DOWN", {5, 2, 1, 1, 1, -1, -1, -1, -2, -5}},
      {"ROUND_TO_ZERO", {5, 2, 1, 1, 1, -1, -1, -1, -2, -5}},
      {"HALF_UP", {6, 3, 2, 1, 1, -1, -1, -2, -3, -6}},
      {"HALF_DOWN", {5, 2, 2, 1, 1, -1, -1, -2, -2, -5}},
      {"floor", {5, 2, 1, 1, 1, -1, -2, -2, -3, -6}},
  };
  for (const auto& [mode, want] : table) {
    SCOPED_TRACE(mode);
    expectTensor(run1(quant(f32({10}, x), 1, 0, 8, {attrS("rounding_mode", mode)})),
                 DataType::kFloat, {10}, want);
  }
}

TEST(QonnxQuant, PerChannelScaleAndIntegerBitWidth) {
  // Row 0 scale 1: round([1.2, 2.6]) = [1, 3]; row 1 scale 0.5: [2.4, 5.2] -> [2, 5] * 0.5.
  Call c{"Quant",
         {f32({2, 2}, {1.2f, 2.6f, 1.2f, 2.6f}), f32({2, 1}, {1, 0.5f}), scalar(0), i32({}, {8})},
         {},
         1};
  c.domain = kQonnx;
  expectTensor(run1(c), DataType::kFloat, {2, 2}, {1, 3, 1, 2.5});
}

TEST(QonnxQuant, BrevitasDomainRunsTheSameKernel) {
  expectTensor(run1(quant(f32({2}, {1.5f, 9}), 1, 0, 4, {}, "onnx.brevitas")), DataType::kFloat,
               {2}, {2, 7});
}

TEST(QonnxQuant, RejectsBadAttributesAndInputs) {
  const ir::Tensor x = f32({2}, {1, 2});
  auto err = [&](Call c, const char* needle) {
    std::string e = errorOf(c);
    EXPECT_NE(e.find(needle), std::string::npos) << "want '" << needle << "' in: " << e;
    EXPECT_NE(e.find("Quant"), std::string::npos) << e;  // names the node
  };
  err(quant(x, 1, 0, 8, {attrS("rounding_mode", "BANKERS")}), "'rounding_mode'");
  err(quant(x, 1, 0, 8, {attrI("signed", 2)}), "'signed'");
  err(quant(x, 1, 0, 8, {attrI("narrow", -1)}), "'narrow'");
  err(quant(x, 1, 0, 0), "'bitwidth'");
  err(quant(x, 1, 0, 2.5f), "'bitwidth'");
  err(quant(x, 0, 0, 8), "'scale'");
  Call wide{"Quant", {x, f32({3}, {1, 1, 1}), scalar(0), scalar(8)}, {}, 1};
  wide.domain = kQonnx;
  err(wide, "does not broadcast");
  Call dbl{"Quant", {f64({2}, {1, 2}), scalar(1), scalar(0), scalar(8)}, {}, 1};
  dbl.domain = kQonnx;
  err(dbl, "'X'");
}

TEST(QonnxBipolarQuant, SignTimesScaleWithZeroPositive) {
  Call c{"BipolarQuant", {f32({4}, {-2, 0, 0.3f, -0.1f}), scalar(0.5f)}, {}, 1};
  c.domain = kQonnx;
  expectTensor(run1(c), DataType::kFloat, {4}, {-0.5, 0.5, 0.5, -0.5});
  // Per-row scale.
  Call r{"BipolarQuant", {f32({2, 2}, {1, -1, 1, -1}), f32({2, 1}, {2, 3})}, {}, 1};
  r.domain = "onnx.brevitas";
  expectTensor(run1(r), DataType::kFloat, {2, 2}, {2, -2, 3, -3});
}

Call trunc1(ir::Tensor x, float scale, float in, float out, std::vector<Attr> attrs = {}) {
  Call c{"Trunc",
         {std::move(x), scalar(scale), scalar(0), scalar(in), scalar(out)},
         std::move(attrs),
         1};
  c.domain = kQonnx;
  return c;
}

TEST(QonnxTrunc, Version1DropsLowBits) {
  // 8 -> 4 bits: divide by 16. round(x) = [13, -13, 8, 100] / 16 =
  // [0.8125, -0.8125, 0.5, 6.25].
  const ir::Tensor x = f32({4}, {13, -13, 7.6f, 100});
  expectTensor(run1(trunc1(x, 1, 8, 4)), DataType::kFloat, {4}, {0, -1, 0, 6});  // FLOOR
  expectTensor(run1(trunc1(x, 1, 8, 4, {attrS("rounding_mode", "ROUND")})), DataType::kFloat, {4},
               {1, -1, 0, 6});
  expectTensor(run1(trunc1(x, 1, 8, 4, {attrS("rounding_mode", "CEIL")})), DataType::kFloat, {4},
               {1, 0, 1, 7});
}

TEST(QonnxTrunc, Version2RequantizesToOutScaleAndClips) {
  // t = 2^round(log2(16 / 1)) = 16; q = [0.8125, -0.8125, 0.5, 6.25, -12.5],
  // clipped to 4-bit signed [-8, 7], floored, times 16.
  Call c{"Trunc",
         {f32({5}, {13, -13, 7.6f, 100, -200}), scalar(1), scalar(0), scalar(8), scalar(16),
          scalar(4)},
         {},
         2};
  c.domain = kQonnx;
  expectTensor(run1(c), DataType::kFloat, {5}, {0, -16, 0, 96, -128});
  // Unsigned 4 bits: [0, 15].
  c.attrs = {attrI("signed", 0)};
  expectTensor(run1(c), DataType::kFloat, {5}, {0, 0, 0, 96, 0});
}

TEST(QonnxTrunc, RejectsMissingInputsAndBadWidths) {
  // Version 2 takes six inputs.
  std::string e = errorOf(trunc1(f32({1}, {1}), 1, 8, 4, {}) /* opset 1 is fine */);
  EXPECT_EQ(e, "");
  Call c = trunc1(f32({1}, {1}), 1, 8, 4);
  c.opset = 2;
  e = errorOf(c);
  EXPECT_NE(e.find("6 inputs"), std::string::npos) << e;
  e = errorOf(trunc1(f32({1}, {1}), 1, 8, -4));
  EXPECT_NE(e.find("'out_bitwidth'"), std::string::npos) << e;
  e = errorOf(trunc1(f32({1}, {1}), 1, 8, 4, {attrS("rounding_mode", "nearest")}));
  EXPECT_NE(e.find("'rounding_mode'"), std::string::npos) << e;
}

TEST(QonnxSchemas, BothDomainsAreKnown) {
  const auto& reg = ir::OpRegistry::instance();
  for (const char* domain : {"qonnx.custom_op.general", "onnx.brevitas"}) {
    EXPECT_TRUE(reg.knowsDomain(domain)) << domain;
    for (const char* op : {"Quant", "BipolarQuant", "Trunc"})
      EXPECT_NE(reg.find(domain, op, 1), nullptr) << domain << " " << op;
    EXPECT_EQ(reg.find(domain, "Trunc", 1)->maxInputs(), 5);
    EXPECT_EQ(reg.find(domain, "Trunc", 2)->maxInputs(), 6);
    EXPECT_EQ(reg.find(domain, "Quant", 1)->attr("rounding_mode")->defaultText, "ROUND");
  }
}

}  // namespace
}  // namespace passlab::exec::optest
