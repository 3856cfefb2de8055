// quantize_dynamic: MatMul and Gemm weights to int8 with activations
// quantized at run time: the rewrite and its weights exactly, outputs within
// the accuracy budget, convergence, and where it must not fire.
#include <gtest/gtest.h>

#include "core/io/text_format.h"
#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

const char* kPass = "quantize_dynamic";

std::string opsOf(const ir::Model& m) {
  std::string out;
  for (const auto& n : m.graph().nodes()) out += (out.empty() ? "" : ", ") + n->opType();
  return out;
}

const ir::Value* initializer(const ir::Model& m, const std::string& suffix) {
  for (const ir::Value* v : m.graph().initializers())
    if (v->name().size() >= suffix.size() &&
        v->name().compare(v->name().size() - suffix.size(), suffix.size(), suffix) == 0)
      return v;
  return nullptr;
}

const char* kMatMul = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2,4] x) => (float[2,2] y)
    <float[4,2] w = {127, -127, 63.5, 64, -127, 0, 0, -254}> {
    y = MatMul(x, w) })";

TEST(QuantizeDynamic, MatMulWeightsBecomeInt8PerColumn) {
  PassOutcome out = runPass(kPass, kMatMul);
  ASSERT_TRUE(out.step.changed);
  EXPECT_EQ(opsOf(out.model), "DynamicQuantizeLinear, MatMulInteger, Cast, Mul, Mul")
      << io::printModelText(out.model);
  // Column 0: max |w| 127 -> scale 1: {127, 64 (63.5 to even), -127, 0}.
  // Column 1: max |w| 254 -> scale 2: {-64 (-63.5 to even), 32, 0, -127}.
  const ir::Value* wq = initializer(out.model, "_wq");
  ASSERT_NE(wq, nullptr) << io::printModelText(out.model);
  ASSERT_EQ(wq->initializer()->dtype(), ir::DataType::kInt8);
  std::vector<double> got;
  for (int64_t i = 0; i < wq->initializer()->numel(); ++i)
    got.push_back(wq->initializer()->valueAsDouble(i));
  EXPECT_EQ(got, (std::vector<double>{127, -64, 64, 32, -127, 0, 0, -127}));
  const ir::Value* ws = initializer(out.model, "_ws");
  ASSERT_NE(ws, nullptr);
  ASSERT_EQ(ws->initializer()->numel(), 2);
  EXPECT_EQ(ws->initializer()->valueAsDouble(0), 1);
  EXPECT_EQ(ws->initializer()->valueAsDouble(1), 2);
  EXPECT_TRUE(out.step.check.passed) << out.step.check.detail.str();
}

TEST(QuantizeDynamic, PerTensorHasOneScale) {
  PassOutcome out = runPass(kPass, kMatMul, {{"per_channel", "false"}});
  ASSERT_TRUE(out.step.changed);
  const ir::Value* ws = initializer(out.model, "_ws");
  ASSERT_NE(ws, nullptr);
  ASSERT_EQ(ws->initializer()->numel(), 1);
  EXPECT_EQ(ws->initializer()->valueAsDouble(0), 2);
}

const char* kMlp = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[3,8] x) => (float[3,4] y)
    <float[8,6] w1 = {0.3, -0.2, 0.1, 0.5, -0.4, 0.2, 0.3, -0.1, 0.2, 0.1, -0.3, 0.4,
                      0.1, 0.5, -0.2, 0.3, -0.1, 0.3, 0.2, -0.5, 0.4, -0.3, 0.1, 0.2,
                      0.2, 0.1, 0.4, -0.2, -0.3, 0.2, -0.1, 0.1, 0.3, 0.2, -0.2, 0.1,
                      0.4, -0.3, 0.2, 0.1, 0.1, -0.2, -0.2, 0.3, 0.1, -0.4, 0.2, 0.3},
     float[4,6] w2 = {0.2, -0.1, 0.3, 0.1, -0.2, 0.4, -0.3, 0.2, 0.1, 0.4, 0.1, -0.1,
                      0.1, 0.3, -0.2, 0.2, 0.3, 0.1, 0.4, -0.2, 0.2, -0.1, 0.1, 0.2},
     float[4] c = {0.1, -0.2, 0.3, 0.05}> {
    h = MatMul(x, w1)
    r = Relu(h)
    y = Gemm <transB = 1, alpha = 0.5, beta = 2.0> (r, w2, c) })";

TEST(QuantizeDynamic, AnMlpStaysWithinTheBudget) {
  PassOutcome out = runPass(kPass, kMlp);
  ASSERT_TRUE(out.step.changed);
  EXPECT_EQ(opsOf(out.model),
            "DynamicQuantizeLinear, MatMulInteger, Cast, Mul, Mul, Relu, DynamicQuantizeLinear, "
            "MatMulInteger, Cast, Mul, Mul, Mul, Add")
      << io::printModelText(out.model);
  ASSERT_TRUE(out.step.check.ran);
  EXPECT_TRUE(out.step.check.passed) << out.step.check.detail.str();
  ASSERT_EQ(out.step.check.accuracy.size(), 1u);
  EXPECT_GT(out.step.check.accuracy[0].snrDb, 25);
  expectSameOutputs(kPass, kMlp);  // within the default budget
  expectConverges(kPass, kMlp);
}

TEST(QuantizeDynamic, KeepsWhatItCannotQuantize) {
  expectUnchanged(kPass, R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2,4] x, float[4,2] w) => (float[2,2] y) { y = MatMul(x, w) })",
                  "the weight is not a constant initializer");
  expectUnchanged(kPass, R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2,2,4] x) => (float[2,2,2] y) <float[2,4,2] w = {1, 2, 3, 4, 5, 6, 7, 8,
                                                            1, 2, 3, 4, 5, 6, 7, 8}> {
    y = MatMul(x, w) })",
                  "not a float32 matrix");
  expectUnchanged(kPass, kMatMul, "fewer than min_weights", {{"min_weights", "100"}});
  expectUnchanged(kPass, R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[4,2] x) => (float[2,2] y) <float[4,2] w = {1, 2, 3, 4, 5, 6, 7, 8}> {
    y = Gemm <transA = 1> (x, w) })",
                  "Gemm transposes A");
  expectUnchanged(kPass, R"(<ir_version: 8, opset_import: ["" : 13]>
main (int32[2,4] x) => (int32[2,2] y) <int32[4,2] w = {1, 2, 3, 4, 5, 6, 7, 8}> {
    y = MatMul(x, w) })",
                  "A is not float32");
}

}  // namespace
}  // namespace passlab::testing
