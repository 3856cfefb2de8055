// com.microsoft QGemm: the reference kernel (qlinear.cpp) against a direct
// computation written here (int32 sums of (A' - za)(B' - zb[n]), the bias,
// the multiplier alpha * a_scale * b_scale[n] / y_scale in float32 as ONNX
// Runtime takes it, round half to even, + y_zero_point, saturation; the float
// output without y_scale): equal. The oneDNN kernel
// (qlinear_matmul_onednn.cpp) against the reference: within one step (float32
// requantization against double), the float output within float32 rounding,
// and identical where it hands over to the reference (a u8 B, a nonzero B
// zero point, a bias of one value per element). Seeded random cases:
// transA / transB, per-tensor and per-column B, u8 / s8, bias or not, alpha.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "tests/core/exec/kernel_test_util.h"

namespace passlab::exec {
namespace {

struct GemmCase {
  std::string name;
  int64_t M, K, N;
  bool transA = false, transB = false, perColumn = false;
  std::string aType = "uint8", bType = "int8";
  std::string yType = "uint8";  // "float": no y_scale and y_zero_point
  std::string bias = "column";  // "", "column" ([N]) or "full" ([M, N])
  float alpha = 1;
  int bZeroPoint = 0;
  bool oneDnn = true;  // the oneDNN kernel takes it (else it hands over)
};

void PrintTo(const GemmCase& c, std::ostream* os) {
  *os << c.name;
}

// One random case: every operand's values, as the model holds them.
struct Operands {
  std::vector<int32_t> a, b, c, bz;  // a, b in their stored layout
  std::vector<float> bs;
  float as = 0.02f, ys = 0;
  int32_t az = 0, yz = 0;
};

Operands randomOperands(const GemmCase& c, std::mt19937& rng) {
  Operands o;
  const bool aU8 = c.aType == "uint8", bU8 = c.bType == "uint8";
  std::uniform_int_distribution<int> av(aU8 ? 0 : -128, aU8 ? 255 : 127);
  std::uniform_int_distribution<int> bv(bU8 ? 0 : -127, bU8 ? 255 : 127);
  std::uniform_int_distribution<int> cv(-6000, 6000);
  std::uniform_real_distribution<float> s(0.003f, 0.009f);
  for (int64_t i = 0; i < c.M * c.K; ++i) o.a.push_back(av(rng));
  for (int64_t i = 0; i < c.K * c.N; ++i) o.b.push_back(bv(rng));
  const int64_t biasCount = c.bias == "column" ? c.N : c.bias == "full" ? c.M * c.N : 0;
  for (int64_t i = 0; i < biasCount; ++i) o.c.push_back(cv(rng));
  for (int64_t i = 0; i < (c.perColumn ? c.N : 1); ++i) {
    o.bs.push_back(s(rng));
    o.bz.push_back(bU8 ? 128 + c.bZeroPoint : c.bZeroPoint);
  }
  o.az = aU8 ? 121 : -7;
  o.yz = c.yType == "uint8" ? 110 : 5;
  // About 40 output steps per standard deviation of the sums.
  o.ys = c.alpha * o.as * 0.006f * std::sqrt(static_cast<float>(c.K)) * 128.0f;
  return o;
}

template <class T>
std::string join(const std::vector<T>& v) {
  std::ostringstream s;
  s << std::setprecision(9);
  for (size_t i = 0; i < v.size(); ++i) s << (i ? ", " : "") << v[i];
  return s.str();
}

std::string dims(int64_t r, int64_t c) {
  return "[" + std::to_string(r) + "," + std::to_string(c) + "]";
}

std::string modelText(const GemmCase& c, const Operands& o) {
  const bool floatOut = c.yType == "float";
  const std::string sd = c.perColumn ? "[" + std::to_string(c.N) + "]" : "";
  std::ostringstream t;
  t << std::setprecision(9);
  t << R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>
main ()"
    << c.aType << (c.transA ? dims(c.K, c.M) : dims(c.M, c.K)) << " a) => (" << c.yType
    << dims(c.M, c.N) << " y) <" << c.bType << (c.transB ? dims(c.N, c.K) : dims(c.K, c.N))
    << " b = {" << join(o.b) << "}, float as = {" << o.as << "}, " << c.aType << " az = {" << o.az
    << "}, float" << sd << " bs = {" << join(o.bs) << "}, " << c.bType << sd << " bz = {"
    << join(o.bz) << "}";
  if (!c.bias.empty())
    t << ", int32" << (c.bias == "full" ? dims(c.M, c.N) : "[" + std::to_string(c.N) + "]")
      << " c = {" << join(o.c) << "}";
  if (!floatOut) t << ", float ys = {" << o.ys << "}, " << c.yType << " yz = {" << o.yz << "}";
  // std::to_string: "2.000000", a float attribute (the text "2" would be an int).
  t << "> { y = com.microsoft.QGemm <alpha = " << std::to_string(c.alpha)
    << ", transA = " << c.transA << ", transB = " << c.transB << "> (a, as, az, b, bs, bz"
    << (c.bias.empty() ? ", " : ", c") << (floatOut ? ")" : ", ys, yz)") << " }";
  return t.str();
}

// The expected output, computed directly.
std::vector<double> expected(const GemmCase& c, const Operands& o) {
  std::vector<double> y;
  const double lo = c.yType == "uint8" ? 0 : -128, hi = c.yType == "uint8" ? 255 : 127;
  for (int64_t m = 0; m < c.M; ++m)
    for (int64_t n = 0; n < c.N; ++n) {
      int64_t acc = 0;
      const size_t col = c.perColumn ? static_cast<size_t>(n) : 0;
      for (int64_t k = 0; k < c.K; ++k) {
        const int32_t a = o.a[static_cast<size_t>(c.transA ? k * c.M + m : m * c.K + k)];
        const int32_t b = o.b[static_cast<size_t>(c.transB ? n * c.K + k : k * c.N + n)];
        acc += int64_t{a - o.az} * (b - o.bz[col]);
      }
      if (c.bias == "column") acc += o.c[static_cast<size_t>(n)];
      if (c.bias == "full") acc += o.c[static_cast<size_t>(m * c.N + n)];
      float mult = c.alpha * o.as * o.bs[col];
      if (c.yType == "float") {
        y.push_back(static_cast<float>(static_cast<double>(acc) * mult));
        continue;
      }
      mult /= o.ys;
      const double v = std::nearbyint(static_cast<double>(acc) * mult) + o.yz;
      y.push_back(std::clamp(v, lo, hi));
    }
  return y;
}

ir::Tensor inputA(const GemmCase& c, const Operands& o) {
  const kt::Dims d = c.transA ? kt::Dims{c.K, c.M} : kt::Dims{c.M, c.K};
  if (c.aType == "uint8") return kt::u8(d, std::vector<uint8_t>(o.a.begin(), o.a.end()));
  return kt::i8(d, std::vector<int8_t>(o.a.begin(), o.a.end()));
}

// Profiled, so the kernels that ran are named.
RunResult runWith(const std::string& text, const NamedInputs& in, bool reference) {
  ExecutorOptions opts;
  opts.referenceKernels = reference;
  RunOptions run;
  run.profile = true;
  return testutil::runText(text, in, opts, run);
}

class QGemmKernels : public ::testing::TestWithParam<GemmCase> {};

TEST_P(QGemmKernels, TheReferenceEqualsTheDirectComputation) {
  const GemmCase& c = GetParam();
  std::mt19937 rng(7);
  const Operands o = randomOperands(c, rng);
  const RunResult ref = runWith(modelText(c, o), {{"a", inputA(c, o)}}, true);
  EXPECT_EQ(ref.profile[0].kernel, "cpu.ms.QGemm");
  const ir::Tensor& y = ref.outputs[0];
  ASSERT_EQ(y.dims(), (kt::Dims{c.M, c.N}));
  const std::vector<double> want = expected(c, o);
  int64_t clamped = 0;
  for (int64_t i = 0; i < y.numel(); ++i) {
    ASSERT_EQ(y.valueAsDouble(i), want[static_cast<size_t>(i)]) << "element " << i;
    clamped +=
        c.yType != "float" && (want[static_cast<size_t>(i)] == (c.yType == "uint8" ? 0 : -128) ||
                               want[static_cast<size_t>(i)] == (c.yType == "uint8" ? 255 : 127));
  }
  EXPECT_LT(clamped * 4, y.numel()) << "the case saturates: it tests little";
}

TEST_P(QGemmKernels, OneDnnAgreesWithTheReference) {
  const GemmCase& c = GetParam();
  std::mt19937 rng(7);
  const Operands o = randomOperands(c, rng);
  const std::string text = modelText(c, o);
  const NamedInputs in = {{"a", inputA(c, o)}};
  const RunResult opt = runWith(text, in, false);
  const RunResult ref = runWith(text, in, true);
  EXPECT_EQ(opt.profile[0].kernel, "onednn.ms.QGemm");
  const ir::Tensor &x = opt.outputs[0], &y = ref.outputs[0];
  ASSERT_EQ(x.dims(), y.dims());
  ASSERT_EQ(x.dtype(), y.dtype());
  int64_t differ = 0;
  for (int64_t i = 0; i < x.numel(); ++i) {
    const double got = x.valueAsDouble(i), want = y.valueAsDouble(i);
    if (c.yType == "float")
      ASSERT_NEAR(got, want, 1e-6 * std::fabs(want) + 1e-6) << "element " << i;
    else
      ASSERT_NEAR(got, want, 1.0) << "element " << i;
    differ += got != want;
  }
  if (!c.oneDnn) EXPECT_EQ(differ, 0) << "the reference ran: identical";
  if (c.yType != "float") EXPECT_LT(differ * 50, x.numel()) << "more than 2% one step apart";
}

INSTANTIATE_TEST_SUITE_P(
    Forms, QGemmKernels,
    ::testing::Values(
        GemmCase{"u8_per_tensor_bias", 7, 64, 33},
        GemmCase{"u8_per_column_transB", 5, 48, 40, false, true, true},
        GemmCase{"s8_in_s8_out_transA", 9, 32, 17, true, false, true, "int8", "int8", "int8"},
        GemmCase{"u8_in_s8_out_no_bias", 4, 24, 8, false, false, false, "uint8", "int8", "int8",
                 ""},
        GemmCase{"alpha_no_bias", 6, 40, 12, false, true, true, "uint8", "int8", "uint8", "", 0.5f},
        GemmCase{"float_output", 3, 96, 80, false, true, true, "uint8", "int8", "float"},
        GemmCase{"float_output_alpha_transA", 5, 20, 9, true, false, false, "int8", "int8", "float",
                 "", 2.0f},
        GemmCase{"b_zero_point_reference", 6, 16, 10, false, false, false, "uint8", "int8", "uint8",
                 "column", 1.0f, 3, false},
        GemmCase{"u8_b_reference", 6, 16, 10, false, true, true, "uint8", "uint8", "uint8",
                 "column", 1.0f, 0, false},
        GemmCase{"full_bias_reference", 4, 16, 6, false, false, true, "uint8", "int8", "uint8",
                 "full", 1.0f, 0, false}),
    [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace passlab::exec
