// fuse_qdq_into_qlinear on softmax units: DQ(x) -> Softmax -> Q into
// com.microsoft QLinearSoftmax (opset 13, the Softmax's axis). Structural
// (one QLinearSoftmax, the float ops gone), numeric (on seeded random 8-bit
// inputs, uint8 and int8, the rewritten model's outputs within one step of
// the QDQ form's, few elements moved), convergence, and the units it must
// leave (an axis that is not the last, Softmax before opset 13, a
// non-constant scale, an output read twice, two 8-bit types).
#include <gtest/gtest.h>

#include <random>

#include "core/exec/executor.h"
#include "core/io/text_format.h"
#include "tests/support/pass_harness.h"
#include "tests/support/test_support.h"

namespace passlab::testing {
namespace {

const char* kPass = "fuse_qdq_into_qlinear";

struct UnitText {
  std::string type = "uint8", yType = "uint8";
  std::string dims = "[6,40]";
  std::string softmaxAttrs = "";
  int opset = 13;
  std::string sx = "sx", zx = "128", zy = "0", extra = "", extraOut = "";
};

// x (8-bit) -> DQ(sx, zx) -> Softmax -> Q(1/256, zy) -> y.
std::string unit(const UnitText& u) {
  return "<ir_version: 8, opset_import: [\"\" : " + std::to_string(u.opset) + "]>\nmain (" +
         u.type + u.dims + " x" + (u.sx == "sx" ? "" : ", float " + u.sx) + ") => (" + u.yType +
         u.dims + " y" + u.extraOut + ")\n    <float sx = {0.07}, " + u.type + " zx = {" + u.zx +
         "}, float sy = {0.00390625}, " + u.yType + " zy = {" + u.zy + "}> {\n" +
         "    d = DequantizeLinear(x, " + u.sx + ", zx)\n    s = Softmax " + u.softmaxAttrs +
         " (d)\n    y = QuantizeLinear(s, sy, zy)" + u.extra + " }";
}

UnitText int8Unit() {
  UnitText u;
  u.type = u.yType = "int8";
  u.zx = "-3";
  u.zy = "-128";
  return u;
}

ir::Tensor randomBytes(const ir::Model& m, ir::DataType type, uint32_t seed) {
  const auto dims = m.graph().inputs()[0]->type().shape()->dims();
  std::vector<int64_t> d;
  int64_t n = 1;
  for (const auto& dim : dims) {
    d.push_back(dim.value());
    n *= dim.value();
  }
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> u(0, 255);
  std::vector<uint8_t> v(static_cast<size_t>(n));
  for (uint8_t& e : v) e = static_cast<uint8_t>(u(rng));
  return ir::Tensor::fromVector<uint8_t>(type, d, v);
}

ir::Tensor run(const ir::Model& m, const ir::Tensor& x) {
  auto ex = exec::Executor::create(m, {});
  EXPECT_TRUE(ex) << (ex ? "" : ex.error().message());
  if (!ex) return {};
  auto r = (*ex)->run({{"x", exec::Value(x)}});
  EXPECT_TRUE(r) << (r ? "" : r.error().message());
  if (!r) return {};
  return r->outputs[0];
}

TEST(FuseQdqSoftmax, ASoftmaxUnitBecomesOneQLinearSoftmax) {
  PassOutcome out = runPass(kPass, unit(UnitText{}));
  EXPECT_EQ(countOps(out.model, "QLinearSoftmax"), 1);
  EXPECT_EQ(countOps(out.model, "Softmax"), 0);
  EXPECT_EQ(countOps(out.model, "QuantizeLinear"), 0);
  EXPECT_EQ(countOps(out.model, "DequantizeLinear"), 0);
  ASSERT_EQ(out.model.graph().nodes().size(), 1u);
  const ir::Node& n = *out.model.graph().nodes().front();
  EXPECT_EQ(n.domain(), "com.microsoft");
  EXPECT_EQ(n.attrInt("opset", 0), 13);
  EXPECT_EQ(n.attrInt("axis", 0), -1);
  ASSERT_EQ(n.inputCount(), 5u);
  EXPECT_EQ(n.input(0)->name(), "x");
}

TEST(FuseQdqSoftmax, TheLastAxisNamedPositivelyFusesToo) {
  UnitText u;
  u.softmaxAttrs = "<axis = 1>";
  PassOutcome out = runPass(kPass, unit(u));
  ASSERT_EQ(countOps(out.model, "QLinearSoftmax"), 1);
  EXPECT_EQ(out.model.graph().nodes().front()->attrInt("axis", 0), 1);
}

// The rewritten unit against the QDQ form on the CPU executor: within one
// output step everywhere, and few elements a step apart (float32 rounding).
void expectWithinOneStep(const UnitText& u, ir::DataType type) {
  const std::string text = unit(u);
  auto before = io::parseModelText(text);
  ASSERT_TRUE(before) << before.error().message();
  PassOutcome after = runPass(kPass, text);
  ASSERT_EQ(countOps(after.model, "QLinearSoftmax"), 1) << text;
  int64_t moved = 0, nonZero = 0, total = 0;
  for (uint32_t seed : {1u, 2u, 3u}) {
    const ir::Tensor x = randomBytes(*before, type, seed);
    const ir::Tensor a = run(*before, x), b = run(after.model, x);
    ASSERT_EQ(a.numel(), b.numel());
    for (int64_t i = 0; i < a.numel(); ++i) {
      ASSERT_NEAR(a.valueAsDouble(i), b.valueAsDouble(i), 1.0) << "element " << i;
      moved += a.valueAsDouble(i) != b.valueAsDouble(i);
      nonZero += a.valueAsDouble(i) != (type == ir::DataType::kUInt8 ? 0 : -128);
    }
    total += a.numel();
  }
  EXPECT_LT(moved * 50, total) << "more than 2% of the elements moved";
  EXPECT_GT(nonZero * 4, total) << "most outputs are 0: the case tests little";
}

TEST(FuseQdqSoftmax, OutputsWithinOneStepOfTheQdqForm) {
  expectWithinOneStep(UnitText{}, ir::DataType::kUInt8);
  expectWithinOneStep(int8Unit(), ir::DataType::kInt8);
}

TEST(FuseQdqSoftmax, Converges) {
  expectConverges(kPass, unit(UnitText{}));
}

TEST(FuseQdqSoftmax, LeavesASoftmaxAlongAnotherAxis) {
  UnitText u;
  u.softmaxAttrs = "<axis = 0>";
  expectUnchanged(kPass, unit(u), "axis is not the last");
}

TEST(FuseQdqSoftmax, LeavesASoftmaxBeforeOpset13) {
  UnitText u;
  u.opset = 12;
  expectUnchanged(kPass, unit(u), "before opset 13");
}

TEST(FuseQdqSoftmax, LeavesAScaleThatIsNotConstant) {
  UnitText u;
  u.sx = "sxin";
  expectUnchanged(kPass, unit(u), "not one float32 constant");
}

TEST(FuseQdqSoftmax, LeavesASoftmaxWhoseOutputIsReadTwice) {
  UnitText u;
  u.extraOut = ", float[6,40] e";
  u.extra = "\n    e = Identity(s)";
  expectUnchanged(kPass, unit(u), "Softmax output");
}

TEST(FuseQdqSoftmax, LeavesTwoEightBitTypes) {
  UnitText u;
  u.yType = "int8";
  u.zy = "-128";
  expectUnchanged(kPass, unit(u), "one 8-bit type");
}

}  // namespace
}  // namespace passlab::testing
