// fold_qdq_unary_into_lookup: DQ -> HardSwish|HardSigmoid|Relu|LeakyRelu -> Q
// into ai.passlab QLinearLookup. Structural (one lookup, the float ops gone,
// a DQ with another reader kept), numeric (every one of the 256 inputs gives
// the QDQ form's output bit for bit on the CPU executor, uint8 and int8, four
// activations, several scales), convergence, and the units it must leave
// (per-channel scales, a non-constant scale, an activation it has no formula
// for, a QuantizeLinear without a zero point). The general rule (any
// elementwise float32 chain, its table from the executor's kernels): the
// written-out HardSwish DAG, SiLU and a chain of three as one lookup, bit for
// bit on all 256 inputs for uint8 and int8 (seven chains, four scale sets),
// nodes read elsewhere kept, convergence, and the chains it must leave
// (per-channel scales, a second variable input, a many-valued or higher-rank
// constant, Softmax inside, two DequantizeLinears, standard-only pipelines).
#include <gtest/gtest.h>

#include <algorithm>

#include "core/exec/executor.h"
#include "core/io/text_format.h"
#include "core/passes/registry.h"
#include "core/pipeline/pass_manager.h"
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

// ---- the general rule: any elementwise float32 chain (qdq_chain_table.h) ----

// x (8-bit, [256]) -> DQ(sx, zx) -> `body` (reads d, defines h) -> Q(sy, zy) -> y.
std::string chainUnit(const std::string& body, const std::string& xType = "uint8",
                      const std::string& yType = "uint8", const std::string& sx = "0.05",
                      const std::string& zx = "128", const std::string& sy = "0.03",
                      const std::string& zy = "0", const std::string& consts = "",
                      const std::string& inputs = "", const std::string& outputs = "") {
  return R"(<ir_version: 8, opset_import: ["" : 14]>
main ()" +
         xType + "[1,1,16,16] x" + inputs + ") => (" + yType + "[1,1,16,16] y" + outputs +
         ")\n    <float sx = {" + sx + "}, " + xType + " zx = {" + zx + "}, float sy = {" + sy +
         "}, " + yType + " zy = {" + zy + "}" + consts + R"(> {
    d = DequantizeLinear(x, sx, zx)
)" + body +
         R"(
    y = QuantizeLinear(h, sy, zy) })";
}

// picodet's HardSwish written out: x * Clip(x + 3, 0, 6) / 6 (x read twice).
const char* kHardSwishDag = R"(    a = Add(d, three)
    c = Clip(a, zero, six)
    m = Mul(d, c)
    h = Div(m, six))";
const char* kHardSwishConsts = ", float three = {3}, float zero = {0}, float six = {6}";
// SiLU: x * Sigmoid(x).
const char* kSilu = R"(    s = Sigmoid(d)
    h = Mul(d, s))";
// Three ops in a row, the constants of rank 0 and 4.
const char* kThree = R"(    a = Mul(d, k)
    t = Tanh(a)
    h = Sub(t, k4))";
const char* kThreeConsts = ", float k = {1.7}, float[1,1,1,1] k4 = {0.25}";

std::vector<uint8_t> chainOutputBytes(const ir::Model& m, bool int8Input) {
  std::vector<uint8_t> x(256);
  for (int i = 0; i < 256; ++i) x[i] = static_cast<uint8_t>(i);
  ir::Tensor in = ir::Tensor::fromVector<uint8_t>(
      int8Input ? ir::DataType::kInt8 : ir::DataType::kUInt8, {1, 1, 16, 16}, x);
  auto ex = exec::Executor::create(m, {});
  EXPECT_TRUE(ex) << (ex ? "" : ex.error().message());
  if (!ex) return {};
  auto r = (*ex)->run({{"x", exec::Value(std::move(in))}});
  EXPECT_TRUE(r) << (r ? "" : r.error().message());
  if (!r) return {};
  auto p = r->outputs[0].data<uint8_t>();
  return {p.begin(), p.end()};
}

void expectChainBitExact(const std::string& text, bool int8Input) {
  auto before = io::parseModelText(text);
  ASSERT_TRUE(before) << before.error().message();
  PassOutcome after = runPass(kPass, text);
  EXPECT_EQ(countOps(after.model, "QLinearLookup"), 1) << text;
  EXPECT_EQ(after.model.graph().nodes().size(), 1u) << io::printModelText(after.model);
  const std::vector<uint8_t> want = chainOutputBytes(*before, int8Input);
  ASSERT_EQ(want.size(), 256u);
  EXPECT_EQ(chainOutputBytes(after.model, int8Input), want) << text;
}

TEST(FoldQdqUnaryIntoLookup, AWrittenOutHardSwishBecomesOneLookup) {
  PassOutcome out = runPass(kPass, chainUnit(kHardSwishDag, "uint8", "uint8", "0.05", "128", "0.03",
                                             "0", kHardSwishConsts));
  ASSERT_EQ(out.model.graph().nodes().size(), 1u) << io::printModelText(out.model);
  const ir::Node& n = *out.model.graph().nodes().front();
  EXPECT_EQ(n.opType(), "QLinearLookup");
  EXPECT_EQ(n.domain(), "ai.passlab");
  EXPECT_EQ(n.input(0)->name(), "x");
  const ir::Tensor* table = n.input(1)->initializer();
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->dtype(), ir::DataType::kUInt8);
  EXPECT_EQ(table->numel(), 256);
  // The same table as the HardSwish op's (the two agree on these scales):
  // x = 128 is 0 -> 0; x = 255: 6.35 -> 6.35 / 0.03 = 211.67 -> 212.
  EXPECT_EQ(table->valueAsDouble(128), 0);
  EXPECT_EQ(table->valueAsDouble(255), 212);
  EXPECT_EQ(out.model.graph().initializers().size(), 1u);  // the constants went with the chain
}

TEST(FoldQdqUnaryIntoLookup, ASiluAndAChainOfThreeBecomeOneLookup) {
  for (const auto& [body, consts] : {std::pair<const char*, const char*>{kSilu, ""},
                                     std::pair<const char*, const char*>{kThree, kThreeConsts}}) {
    PassOutcome out =
        runPass(kPass, chainUnit(body, "uint8", "uint8", "0.05", "128", "0.03", "0", consts));
    EXPECT_EQ(countOps(out.model, "QLinearLookup"), 1) << body;
    EXPECT_EQ(out.model.graph().nodes().size(), 1u) << io::printModelText(out.model);
  }
}

TEST(FoldQdqUnaryIntoLookup, EveryInputGivesTheChainsQdqResultBitForBit) {
  struct Case {
    const char* body;
    std::string consts;
  };
  const Case cases[] = {
      {kHardSwishDag, kHardSwishConsts},
      {kSilu, ""},
      {kThree, kThreeConsts},
      {"    h = Sigmoid(d)", ""},
      {"    e = Exp(d)\n    n = Neg(e)\n    a = Abs(n)\n    h = Sqrt(a)", ""},
      {"    p = Pow(d, two)\n    m = Min(p, nine)\n    h = Max(m, neg)",
       ", float two = {2}, float nine = {9}, float neg = {-1.5}"},
      {"    l = LeakyRelu <alpha = 0.1> (d)\n    g = HardSigmoid(d)\n    h = Mul(l, g)", ""},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.body);
    expectChainBitExact(chainUnit(c.body, "uint8", "uint8", "0.05", "128", "0.03", "0", c.consts),
                        false);
    expectChainBitExact(
        chainUnit(c.body, "uint8", "uint8", "0.0173", "97", "0.0091", "11", c.consts), false);
    expectChainBitExact(chainUnit(c.body, "int8", "int8", "0.031", "-5", "0.0077", "3", c.consts),
                        true);
    expectChainBitExact(chainUnit(c.body, "int8", "uint8", "0.2", "0", "0.004", "0", c.consts),
                        true);
  }
}

TEST(FoldQdqUnaryIntoLookup, AChainKeepsTheNodesReadElsewhere) {
  // c is an output too: Add and Clip stay for it (and the DQ for them); Mul, Div and Q go.
  PassOutcome out = runPass(kPass, chainUnit(kHardSwishDag, "uint8", "uint8", "0.05", "128", "0.03",
                                             "0", kHardSwishConsts, "", ", float[1,1,16,16] c"));
  EXPECT_EQ(countOps(out.model, "QLinearLookup"), 1);
  EXPECT_EQ(countOps(out.model, "Clip"), 1);
  EXPECT_EQ(countOps(out.model, "Add"), 1);
  EXPECT_EQ(countOps(out.model, "DequantizeLinear"), 1);
  EXPECT_EQ(countOps(out.model, "Mul"), 0);
  EXPECT_EQ(countOps(out.model, "Div"), 0);
  EXPECT_EQ(countOps(out.model, "QuantizeLinear"), 0);
}

TEST(FoldQdqUnaryIntoLookup, AChainConverges) {
  expectConverges(kPass, chainUnit(kHardSwishDag, "uint8", "uint8", "0.05", "128", "0.03", "0",
                                   kHardSwishConsts));
  expectConverges(kPass, chainUnit(kSilu));
}

TEST(FoldQdqUnaryIntoLookup, LeavesAChainWithPerChannelScales) {
  const std::string text = R"(<ir_version: 8, opset_import: ["" : 14]>
main (uint8[2,3] x) => (uint8[2,3] y)
    <float[2] sx = {0.05, 0.1}, uint8[2] zx = {128, 128}, float sy = {0.03}, uint8 zy = {0}> {
    d = DequantizeLinear <axis = 0> (x, sx, zx)
    s = Sigmoid(d)
    h = Mul(d, s)
    y = QuantizeLinear(h, sy, zy) })";
  expectUnchanged(kPass, text, "not one constant float32 value");
}

TEST(FoldQdqUnaryIntoLookup, LeavesAChainWithASecondVariableInput) {
  expectUnchanged(kPass,
                  chainUnit("    h = Mul(d, w)", "uint8", "uint8", "0.05", "128", "0.03", "0", "",
                            ", float[1,1,16,16] w"),
                  "'w' is a second variable input");
}

TEST(FoldQdqUnaryIntoLookup, LeavesAChainWithAConstantOfManyValues) {
  expectUnchanged(kPass,
                  chainUnit("    h = Mul(d, w)", "uint8", "uint8", "0.05", "128", "0.03", "0",
                            ", float[1,1,1,16] w = {1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16}"),
                  "holds more than one value");
}

TEST(FoldQdqUnaryIntoLookup, LeavesAChainWithANonElementwiseOp) {
  expectUnchanged(kPass, chainUnit("    s = Softmax(d)\n    h = Mul(d, s)"),
                  "is not an elementwise op");
}

TEST(FoldQdqUnaryIntoLookup, StandardOnlyPipelinesLeaveAChain) {
  ir::Model m = parse(chainUnit(kSilu));
  pipeline::PipelineOptions po;
  po.keepSnapshots = false;  // standardOnly stays on
  pipeline::PassManager pm(m, po);
  pm.setEvaluator(cpuEvaluator());
  auto step = pm.run({kPass, {}, {}});
  ASSERT_TRUE(step);
  EXPECT_TRUE((*step)->skipped);
  EXPECT_FALSE((*step)->changed);
  EXPECT_EQ(countOps(m, "QLinearLookup"), 0);
  EXPECT_EQ(countOps(m, "Sigmoid"), 1);
}

TEST(FoldQdqUnaryIntoLookup, LeavesAChainWithAConstantOfHigherRank) {
  expectUnchanged(kPass,
                  chainUnit("    h = Mul(d, k)", "uint8", "uint8", "0.05", "128", "0.03", "0",
                            ", float[1,1,1,1,1] k = {2}"),
                  "higher rank than the 8-bit input");
}

TEST(FoldQdqUnaryIntoLookup, TheFusedLevelRunsItAfterTheQLinearUnitsBeforeTheChains) {
  auto fused = passes::passesForLevel("fused");
  ASSERT_TRUE(fused);
  auto at = [&](const char* id) { return std::find(fused->begin(), fused->end(), id); };
  ASSERT_NE(at(kPass), fused->end());
  EXPECT_EQ(std::count(fused->begin(), fused->end(), kPass), 1);
  EXPECT_LT(at("fuse_qdq_into_qlinear"), at(kPass));
  EXPECT_LT(at(kPass), at("fuse_elementwise_chains"));
  EXPECT_LT(at(kPass), at("convert_int8_to_channels_last"));
  auto gpu = passes::passesForLevel("fused_gpu");  // no CUDA kernel for QLinearLookup
  ASSERT_TRUE(gpu);
  EXPECT_EQ(std::count(gpu->begin(), gpu->end(), kPass), 0);
}

TEST(FoldQdqUnaryIntoLookup, LeavesAChainReadingTwoDequantizeLinears) {
  const std::string text = R"(<ir_version: 8, opset_import: ["" : 14]>
main (uint8[4] x, uint8[4] z) => (uint8[4] y)
    <float sx = {0.05}, uint8 zx = {128}, float sy = {0.03}, uint8 zy = {0}> {
    d = DequantizeLinear(x, sx, zx)
    e = DequantizeLinear(z, sx, zx)
    h = Add(d, e)
    y = QuantizeLinear(h, sy, zy) })";
  expectUnchanged(kPass, text, "reads two DequantizeLinears");
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
