// The lookup-table com.microsoft QLinearSoftmax
// (core/exec/cpu/qlinear_softmax_lut.cpp): chosen for rows along the last
// axis (and for the 2-D view before opset 13), declined for another axis
// (the reference kernel runs); on seeded random inputs within one step of
// the reference kernel's float dequantize-Softmax-quantize, uint8 and int8,
// at input scales where the exps span little and where they underflow.
// scripts/dev/qlinear_softmax_cases.py compares it with onnxruntime.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "tests/core/exec/kernel_test_util.h"

namespace passlab::exec {
namespace {

constexpr const char* kHeader = R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>)";

std::string softmaxModel(const std::string& type, const std::string& dims, const std::string& attrs,
                         const std::string& params) {
  return std::string(kHeader) + "\n main (" + type + dims + " x) => (" + type + dims + " y) <" +
         params + "> { y = com.microsoft.QLinearSoftmax <" + attrs + "> (x, sx, zx, sy, zy) }";
}

RunResult runWith(const std::string& text, const NamedInputs& in, bool reference) {
  ExecutorOptions o;
  o.referenceKernels = reference;
  RunOptions run;
  run.profile = true;
  return testutil::runText(text, in, o, run);
}

ir::Tensor randomBytes(const std::string& type, const kt::Dims& dims, uint32_t seed) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> u(0, 255);
  std::vector<uint8_t> v(static_cast<size_t>(n));
  for (uint8_t& e : v) e = static_cast<uint8_t>(u(rng));
  if (type == "uint8") return kt::u8(dims, v);
  return kt::i8(dims, std::vector<int8_t>(v.begin(), v.end()));
}

struct Case {
  const char* type;
  float xScale;
  const char* yScale;
};

class QLinearSoftmaxLut : public ::testing::TestWithParam<Case> {};

TEST_P(QLinearSoftmaxLut, AgreesWithReferenceWithinOneStep) {
  const Case& c = GetParam();
  const std::string t = c.type;
  const std::string z =
      t == "uint8" ? "uint8 zx = {100}, uint8 zy = {0}" : "int8 zx = {-5}, int8 zy = {-128}";
  const std::string text = softmaxModel(
      t, "[3,4,77]", "opset = 13",
      "float sx = {" + std::to_string(c.xScale) + "}, float sy = {" + c.yScale + "}, " + z);
  const NamedInputs in = {{"x", randomBytes(t, {3, 4, 77}, 11)}};
  const RunResult lut = runWith(text, in, false);
  const RunResult ref = runWith(text, in, true);
  EXPECT_EQ(lut.profile[0].kernel, "cpu.ms.QLinearSoftmax.lut");
  EXPECT_EQ(ref.profile[0].kernel, "cpu.ms.QLinearSoftmax");
  const ir::Tensor &x = lut.outputs[0], &y = ref.outputs[0];
  ASSERT_EQ(x.dims(), y.dims());
  int64_t differ = 0, nonZero = 0;
  const double lowest = t == "uint8" ? 0 : -128;
  for (int64_t i = 0; i < x.numel(); ++i) {
    ASSERT_NEAR(x.valueAsDouble(i), y.valueAsDouble(i), 1.0) << "element " << i;
    differ += x.valueAsDouble(i) != y.valueAsDouble(i);
    nonZero += y.valueAsDouble(i) != lowest;
  }
  EXPECT_LT(differ * 50, x.numel()) << "rounding differs on more than 2% of the elements";
  EXPECT_GT(nonZero * 20, x.numel()) << "almost every output is 0: the case tests little";
}

INSTANTIATE_TEST_SUITE_P(
    Scales, QLinearSoftmaxLut,
    ::testing::Values(Case{"uint8", 0.02f, "0.00390625"}, Case{"uint8", 0.11f, "0.0021"},
                      Case{"int8", 0.02f, "0.00390625"}, Case{"int8", 0.11f, "0.0021"}),
    [](const auto& info) {
      return std::string(info.param.type) + "_" + std::to_string(info.index % 2);
    });

TEST(QLinearSoftmaxLutChoice, FlattenedBeforeOpset13AgreesWithReference) {
  const std::string text =
      softmaxModel("uint8", "[2,3,5]", "opset = 11, axis = 1",
                   "float sx = {0.05}, uint8 zx = {0}, float sy = {0.00390625}, uint8 zy = {0}");
  const NamedInputs in = {{"x", randomBytes("uint8", {2, 3, 5}, 3)}};
  const RunResult lut = runWith(text, in, false);
  const RunResult ref = runWith(text, in, true);
  EXPECT_EQ(lut.profile[0].kernel, "cpu.ms.QLinearSoftmax.lut");
  for (int64_t i = 0; i < lut.outputs[0].numel(); ++i)
    ASSERT_NEAR(lut.outputs[0].valueAsDouble(i), ref.outputs[0].valueAsDouble(i), 1.0) << i;
}

TEST(QLinearSoftmaxLutChoice, AnotherAxisRunsOnTheReferenceKernel) {
  const std::string text =
      softmaxModel("uint8", "[2,3,5]", "opset = 13, axis = 1",
                   "float sx = {0.05}, uint8 zx = {0}, float sy = {0.00390625}, uint8 zy = {0}");
  const RunResult r = runWith(text, {{"x", randomBytes("uint8", {2, 3, 5}, 3)}}, false);
  EXPECT_EQ(r.profile[0].kernel, "cpu.ms.QLinearSoftmax");
}

// The error of running `text` on the lookup-table kernel (reference false)
// or the reference one; empty when it runs.
std::string errorWith(const std::string& text, const NamedInputs& in, bool reference) {
  ExecutorOptions o;
  o.referenceKernels = reference;
  auto ex = Executor::create(testutil::parseModel(text), o);
  if (!ex) return ex.error().message();
  auto r = (*ex)->run(in, {});
  return r ? std::string() : r.error().message();
}

// Both kernels check X's and Y's quantization in one place
// (qlinearSoftmaxQuantization): the same inputs refused with the same words.
TEST(QLinearSoftmaxLutChoice, BothKernelsRefuseTheSameInputsAlike) {
  struct Bad {
    const char* params;
    const char* inputs;
    std::vector<std::string> parts;
  };
  const std::vector<Bad> bad = {
      {"float[2] sx = {1, 2}, uint8 zx = {0}, float sy = {1}, uint8 zy = {0}",
       "x, sx, zx, sy, zy",
       {"X scale", "must be one float (per tensor)"}},
      {"float sx = {1}, int8 zx = {0}, float sy = {1}, uint8 zy = {0}",
       "x, sx, zx, sy, zy",
       {"X zero point", "must be one uint8"}},
      {"float sx = {1}, uint8 zx = {0}, float[2] sy = {1, 2}, uint8 zy = {0}",
       "x, sx, zx, sy, zy",
       {"Y scale", "must be one float (per tensor)"}},
      {"float sx = {1}, uint8 zx = {0}, float sy = {1}, uint8[2] zy = {0, 1}",
       "x, sx, zx, sy, zy",
       {"Y zero point", "must be one uint8"}},
      {"float sx = {1}, uint8 zx = {0}, float sy = {1}, uint8 zy = {0}",
       "x, sx, zx, sy, \"\"",
       {"Y zero point is missing"}},
  };
  const NamedInputs in = {{"x", randomBytes("uint8", {2, 5}, 4)}};
  for (const Bad& b : bad) {
    const std::string text = std::string(kHeader) + "\n main (uint8[2,5] x) => (uint8[2,5] y) <" +
                             b.params + "> { y = com.microsoft.QLinearSoftmax <opset = 13> (" +
                             b.inputs + ") }";
    const std::string lut = errorWith(text, in, false), ref = errorWith(text, in, true);
    EXPECT_EQ(lut, ref) << b.params;
    for (const std::string& p : b.parts) {
      EXPECT_NE(lut.find(p), std::string::npos) << lut << "\n  lacks: " << p;
    }
  }
  // The same model with good quantization runs on the lookup table.
  const std::string good =
      softmaxModel("uint8", "[2,5]", "opset = 13",
                   "float sx = {1}, uint8 zx = {0}, float sy = {1}, uint8 zy = {0}");
  EXPECT_EQ(runWith(good, in, false).profile[0].kernel, "cpu.ms.QLinearSoftmax.lut");
}

}  // namespace
}  // namespace passlab::exec
