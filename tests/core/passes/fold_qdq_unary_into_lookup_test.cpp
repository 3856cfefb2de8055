// fold_qdq_unary_into_lookup: DQ -> HardSwish|HardSigmoid|Relu|LeakyRelu -> Q
// into ai.passlab QLinearLookup. Structural (one lookup, the float ops gone,
// a DQ with another reader kept), numeric (every one of the 256 inputs gives
// the QDQ form's output bit for bit on the CPU executor, uint8 and int8, four
// activations, several scales), convergence, and the units it must leave
// (per-channel scales, a non-constant scale, an activation it has no formula
// for, a QuantizeLinear without a zero point).
#include <gtest/gtest.h>

#include "core/exec/executor.h"
#include "core/io/text_format.h"
#include "tests/support/pass_harness.h"
#include "tests/support/test_support.h"

namespace passlab::testing {
namespace {

const char* kPass = "fold_qdq_unary_into_lookup";

// x (8-bit, [256]) -> DQ(sx, zx) -> `act` -> Q(sy, zy) -> y; `extra` more nodes and outputs.
std::string unit(const std::string& act, const std::string& xType = "uint8",
                 const std::string& yType = "uint8", const std::string& sx = "0.05",
                 const std::string& zx = "128", const std::string& sy = "0.03",
                 const std::string& zy = "0", const std::string& extraOut = "",
                 const std::string& extra = "") {
  return R"(<ir_version: 8, opset_import: ["" : 14]>
main ()" +
         xType + "[256] x) => (" + yType + "[256] y" + extraOut + R"()
    <float sx = {)" +
         sx + "}, " + xType + " zx = {" + zx + R"(}, float sy = {)" + sy + "}, " + yType +
         " zy = {" + zy + R"(}> {
    d = DequantizeLinear(x, sx, zx)
    h = )" +
         act + R"((d)
    y = QuantizeLinear(h, sy, zy))" +
         extra + " }";
}

// Every value of x's type as the input, both models run on the CPU executor.
std::vector<uint8_t> outputBytes(const ir::Model& m, bool int8Input) {
  std::vector<uint8_t> x(256);
  for (int i = 0; i < 256; ++i) x[i] = static_cast<uint8_t>(i);
  ir::Tensor in = int8Input ? ir::Tensor::fromVector<uint8_t>(ir::DataType::kInt8, {256}, x)
                            : ir::Tensor::fromVector<uint8_t>(ir::DataType::kUInt8, {256}, x);
  auto ex = exec::Executor::create(m, {});
  EXPECT_TRUE(ex) << (ex ? "" : ex.error().message());
  if (!ex) return {};
  auto r = (*ex)->run({{"x", exec::Value(std::move(in))}});
  EXPECT_TRUE(r) << (r ? "" : r.error().message());
  if (!r) return {};
  const ir::Tensor& y = r->outputs[0];
  auto p = y.data<uint8_t>();
  return {p.begin(), p.end()};
}

void expectBitExact(const std::string& text, bool int8Input) {
  auto before = io::parseModelText(text);
  ASSERT_TRUE(before) << before.error().message();
  PassOutcome after = runPass(kPass, text);
  ASSERT_EQ(countOps(after.model, "QLinearLookup"), 1) << text;
  EXPECT_EQ(countOps(after.model, "QuantizeLinear"), 0);
  EXPECT_EQ(outputBytes(after.model, int8Input), outputBytes(*before, int8Input)) << text;
}

TEST(FoldQdqUnaryIntoLookup, AHardSwishUnitBecomesOneLookup) {
  PassOutcome out = runPass(kPass, unit("HardSwish"));
  EXPECT_EQ(countOps(out.model, "QLinearLookup"), 1);
  EXPECT_EQ(out.model.graph().nodes().size(), 1u);
  const ir::Node& n = *out.model.graph().nodes().front();
  EXPECT_EQ(n.domain(), "ai.passlab");
  ASSERT_EQ(n.inputCount(), 2u);
  EXPECT_EQ(n.input(0)->name(), "x");
  const ir::Tensor* table = n.input(1)->initializer();
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->dtype(), ir::DataType::kUInt8);
  EXPECT_EQ(table->numel(), 256);
  // x = 128 is 0: HardSwish(0) = 0 -> zy = 0; x = 255: 6.35 -> 6.35 / 0.03 = 211.67 -> 212.
  EXPECT_EQ(table->valueAsDouble(128), 0);
  EXPECT_EQ(table->valueAsDouble(255), 212);
}

TEST(FoldQdqUnaryIntoLookup, EveryInputGivesTheQdqResultBitForBit) {
  for (const char* act : {"HardSwish", "HardSigmoid", "HardSigmoid <alpha = 0.1666667>", "Relu",
                          "LeakyRelu <alpha = 0.1>"}) {
    SCOPED_TRACE(act);
    expectBitExact(unit(act), false);
    expectBitExact(unit(act, "uint8", "uint8", "0.0173", "97", "0.0091", "11"), false);
    expectBitExact(unit(act, "int8", "int8", "0.031", "-5", "0.0077", "3"), true);
    expectBitExact(unit(act, "int8", "uint8", "0.2", "0", "0.004", "0"), true);
  }
}

TEST(FoldQdqUnaryIntoLookup, KeepsTheFloatPathForItsOtherReaders) {
  // h is an output too: the DQ and HardSwish stay for it; the Q goes.
  PassOutcome out = runPass(
      kPass, unit("HardSwish", "uint8", "uint8", "0.05", "128", "0.03", "0", ", float[256] h"));
  EXPECT_EQ(countOps(out.model, "QLinearLookup"), 1);
  EXPECT_EQ(countOps(out.model, "HardSwish"), 1);
  EXPECT_EQ(countOps(out.model, "DequantizeLinear"), 1);
  EXPECT_EQ(countOps(out.model, "QuantizeLinear"), 0);
}

TEST(FoldQdqUnaryIntoLookup, Converges) {
  expectConverges(kPass, unit("HardSwish"));
}

TEST(FoldQdqUnaryIntoLookup, LeavesPerChannelScales) {
  const std::string text = R"(<ir_version: 8, opset_import: ["" : 14]>
main (uint8[2,3] x) => (uint8[2,3] y)
    <float[2] sx = {0.05, 0.1}, uint8[2] zx = {128, 128}, float sy = {0.03}, uint8 zy = {0}> {
    d = DequantizeLinear <axis = 0> (x, sx, zx)
    h = HardSwish(d)
    y = QuantizeLinear(h, sy, zy) })";
  expectUnchanged(kPass, text, "not one constant float32 value");
}

TEST(FoldQdqUnaryIntoLookup, LeavesAScaleThatIsAnInput) {
  const std::string text = R"(<ir_version: 8, opset_import: ["" : 14]>
main (uint8[4] x, float sy) => (uint8[4] y) <float sx = {0.05}, uint8 zx = {128}, uint8 zy = {0}> {
    d = DequantizeLinear(x, sx, zx)
    h = Relu(d)
    y = QuantizeLinear(h, sy, zy) })";
  expectUnchanged(kPass, text, "not one constant float32 value");
}

TEST(FoldQdqUnaryIntoLookup, LeavesAnActivationWithoutAFormula) {
  expectUnchanged(kPass, unit("Sigmoid"), "not produced by HardSwish");
}

TEST(FoldQdqUnaryIntoLookup, LeavesAQuantizeLinearWithoutAZeroPoint) {
  const std::string text = R"(<ir_version: 8, opset_import: ["" : 14]>
main (uint8[4] x) => (uint8[4] y) <float sx = {0.05}, uint8 zx = {128}, float sy = {0.03}> {
    d = DequantizeLinear(x, sx, zx)
    h = HardSwish(d)
    y = QuantizeLinear(h, sy) })";
  expectUnchanged(kPass, text, "no 8-bit zero point");
}

}  // namespace
}  // namespace passlab::testing
