// QLinearMatMul on oneDNN (core/exec/cpu/qlinear_matmul_onednn.cpp) against
// the reference kernel (qlinear.cpp) on seeded random one-node models whose B,
// scales and zero points are initializers: within one step (oneDNN
// requantizes in float32, the reference in double) and mostly equal; where
// the kernel hands over to the reference (a nonzero B zero point) the outputs
// are identical.
#include <gtest/gtest.h>

#include <random>
#include <sstream>
#include <string>

#include "tests/core/exec/kernel_test_util.h"

namespace passlab::exec {
namespace {

struct MatMulCase {
  std::string name;
  kt::Dims a;  // [..., M, K]
  int64_t N;
  std::string aType = "uint8", yType = "uint8";
  bool perColumn = false;
  int bZeroPoint = 0;  // nonzero: oneDNN cannot take it, the reference runs
};

void PrintTo(const MatMulCase& c, std::ostream* os) {
  *os << c.name;
}

std::string dimsText(const kt::Dims& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + std::to_string(d[i]);
  return s + "]";
}

// The model text: B, scales and zero points seeded initializers.
std::string modelText(const MatMulCase& c, std::mt19937& rng) {
  const int64_t K = c.a.back();
  std::uniform_int_distribution<int> w(-127, 127);
  std::ostringstream b, bs, bz;
  for (int64_t i = 0; i < K * c.N; ++i) b << (i ? ", " : "") << w(rng);
  const int64_t scales = c.perColumn ? c.N : 1;
  std::uniform_real_distribution<float> s(0.002f, 0.01f);
  for (int64_t i = 0; i < scales; ++i) {
    bs << (i ? ", " : "") << s(rng);
    bz << (i ? ", " : "") << c.bZeroPoint;
  }
  kt::Dims out = c.a;
  out.back() = c.N;
  const std::string sd = c.perColumn ? "[" + std::to_string(c.N) + "]" : "";
  const std::string az = c.aType == "uint8" ? "121" : "-7";
  const std::string yz = c.yType == "uint8" ? "110" : "5";
  return R"(<ir_version: 8, opset_import: ["" : 13]>
main ()" +
         c.aType + dimsText(c.a) + " a) => (" + c.yType + dimsText(out) + " y) <int8[" +
         std::to_string(K) + "," + std::to_string(c.N) + "] b = {" + b.str() +
         "}, float as = {0.02}, " + c.aType + " az = {" + az + "}, float" + sd + " bs = {" +
         bs.str() + "}, int8" + sd + " bz = {" + bz.str() + "}, float ys = {0.3}, " + c.yType +
         " yz = {" + yz + "}> { y = QLinearMatMul(a, as, az, b, bs, bz, ys, yz) }";
}

ir::Tensor randomA(const MatMulCase& c, std::mt19937& rng) {
  int64_t n = 1;
  for (int64_t d : c.a) n *= d;
  std::uniform_int_distribution<int> u(0, 255);
  std::vector<uint8_t> v(static_cast<size_t>(n));
  for (uint8_t& e : v) e = static_cast<uint8_t>(u(rng));
  if (c.aType == "uint8") return kt::u8(c.a, v);
  return kt::i8(c.a, std::vector<int8_t>(v.begin(), v.end()));
}

// Profiled, so the kernels that ran are named.
RunResult runWith(const std::string& text, const NamedInputs& in, bool reference) {
  ExecutorOptions o;
  o.referenceKernels = reference;
  RunOptions run;
  run.profile = true;
  return testutil::runText(text, in, o, run);
}

class QLinearMatMulOneDnn : public ::testing::TestWithParam<MatMulCase> {};

TEST_P(QLinearMatMulOneDnn, AgreesWithTheReference) {
  const MatMulCase& c = GetParam();
  std::mt19937 rng(3);
  const std::string text = modelText(c, rng);
  const NamedInputs in = {{"a", randomA(c, rng)}};
  const RunResult opt = runWith(text, in, false);
  const RunResult ref = runWith(text, in, true);
  EXPECT_EQ(opt.profile[0].kernel, "onednn.QLinearMatMul");
  const ir::Tensor &x = opt.outputs[0], &y = ref.outputs[0];
  ASSERT_EQ(x.dims(), y.dims());
  ASSERT_EQ(x.dtype(), y.dtype());
  int64_t differ = 0, clamped = 0;
  const double lo = c.yType == "uint8" ? 0 : -128, hi = c.yType == "uint8" ? 255 : 127;
  for (int64_t i = 0; i < x.numel(); ++i) {
    ASSERT_NEAR(x.valueAsDouble(i), y.valueAsDouble(i), 1.0) << "element " << i;
    differ += x.valueAsDouble(i) != y.valueAsDouble(i);
    clamped += y.valueAsDouble(i) == lo || y.valueAsDouble(i) == hi;
  }
  if (c.bZeroPoint != 0) EXPECT_EQ(differ, 0) << "the reference ran: identical";
  EXPECT_LT(differ * 50, x.numel()) << "more than 2% one step apart";
  EXPECT_LT(clamped * 4, x.numel()) << "the case saturates: it tests little";
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, QLinearMatMulOneDnn,
    ::testing::Values(MatMulCase{"u8_per_tensor", {7, 64}, 33},
                      MatMulCase{"u8_per_column", {5, 48}, 40, "uint8", "uint8", true},
                      MatMulCase{"s8_in_s8_out", {9, 32}, 17, "int8", "int8", true},
                      MatMulCase{"u8_in_s8_out", {4, 24}, 8, "uint8", "int8"},
                      MatMulCase{"batched", {2, 3, 6, 40}, 12, "uint8", "uint8", true},
                      MatMulCase{
                          "b_zero_point_reference", {6, 16}, 10, "uint8", "uint8", false, 3}),
    [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace passlab::exec
