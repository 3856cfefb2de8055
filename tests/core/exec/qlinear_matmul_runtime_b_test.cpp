// QLinearMatMul with B fed at run time (qlinear_matmul_runtime_b.cpp: an
// attention's Q * K^T and attn * V after quantize_static) against the
// reference kernel on seeded random operands: within one step (oneDNN
// requantizes in float32, the reference in double) and mostly equal; u8 and
// s8 operands with nonzero zero points, batch dims broadcast; scales fed at
// run time (not invariant) hand over to the reference: identical.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "tests/core/exec/kernel_test_util.h"

namespace passlab::exec {
namespace {

struct RuntimeBCase {
  std::string name;
  kt::Dims a, b;  // [..., M, K], [..., K, N]
  std::string aType = "uint8", bType = "uint8", yType = "uint8";
  bool scalesAreInputs = false;  // not invariant: the reference runs
};

void PrintTo(const RuntimeBCase& c, std::ostream* os) {
  *os << c.name;
}

std::string dimsText(const kt::Dims& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + std::to_string(d[i]);
  return s + "]";
}

std::string zeroOf(const std::string& type, bool second) {
  if (type == "uint8") return second ? "131" : "118";
  return second ? "-9" : "4";
}

// y_scale that keeps most outputs inside the 8-bit range: the sum of K
// products of two uniform 8-bit values centred near their zero points has a
// standard deviation of about 74 * 74 * sqrt(K).
float outputScale(const RuntimeBCase& c) {
  return 0.05f * 0.04f * 74 * 74 * std::sqrt(static_cast<float>(c.a.back())) / 40;
}

// The model text: a and b graph inputs, scales and zero points initializers
// (or, with scalesAreInputs, the scales graph inputs too).
std::string modelText(const RuntimeBCase& c, const kt::Dims& out) {
  const std::string scalesIn = c.scalesAreInputs ? ", float as, float bs, float ys" : std::string();
  const std::string scalesInit = c.scalesAreInputs
                                     ? std::string()
                                     : "float as = {0.05}, float bs = {0.04}, float ys = {" +
                                           std::to_string(outputScale(c)) + "}, ";
  return R"(<ir_version: 8, opset_import: ["" : 13]>
main ()" +
         c.aType + dimsText(c.a) + " a, " + c.bType + dimsText(c.b) + " b" + scalesIn + ") => (" +
         c.yType + dimsText(out) + " y) <" + scalesInit + c.aType + " az = {" +
         zeroOf(c.aType, false) + "}, " + c.bType + " bz = {" + zeroOf(c.bType, true) + "}, " +
         c.yType + " yz = {" + zeroOf(c.yType, false) +
         "}> { y = QLinearMatMul(a, as, az, b, bs, bz, ys, yz) }";
}

ir::Tensor random8(const kt::Dims& dims, const std::string& type, std::mt19937& rng) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  std::uniform_int_distribution<int> u(0, 255);
  std::vector<uint8_t> v(static_cast<size_t>(n));
  for (uint8_t& e : v) e = static_cast<uint8_t>(u(rng));
  if (type == "uint8") return kt::u8(dims, v);
  return kt::i8(dims, std::vector<int8_t>(v.begin(), v.end()));
}

// Profiled, so the kernels that ran are named.
RunResult runWith(const std::string& text, const NamedInputs& in, bool reference) {
  ExecutorOptions o;
  o.referenceKernels = reference;
  RunOptions run;
  run.profile = true;
  return testutil::runText(text, in, o, run);
}

kt::Dims outDims(const RuntimeBCase& c) {
  kt::Dims ab(c.a.begin(), c.a.end() - 2), bb(c.b.begin(), c.b.end() - 2);
  while (ab.size() < bb.size()) ab.insert(ab.begin(), 1);
  while (bb.size() < ab.size()) bb.insert(bb.begin(), 1);
  kt::Dims out;
  for (size_t i = 0; i < ab.size(); ++i) out.push_back(std::max(ab[i], bb[i]));
  out.push_back(c.a[c.a.size() - 2]);
  out.push_back(c.b.back());
  return out;
}

class QLinearMatMulRuntimeB : public ::testing::TestWithParam<RuntimeBCase> {};

TEST_P(QLinearMatMulRuntimeB, AgreesWithTheReference) {
  const RuntimeBCase& c = GetParam();
  std::mt19937 rng(11);
  const std::string text = modelText(c, outDims(c));
  NamedInputs in = {{"a", random8(c.a, c.aType, rng)}, {"b", random8(c.b, c.bType, rng)}};
  if (c.scalesAreInputs) {
    in.push_back({"as", kt::f32({}, {0.05f})});
    in.push_back({"bs", kt::f32({}, {0.04f})});
    in.push_back({"ys", kt::f32({}, {outputScale(c)})});
  }
  // Two runs of one executor (the second reuses the plan and the flipped B).
  ExecutorOptions o;
  auto ex = Executor::create(testutil::parseModel(text), o);
  ASSERT_TRUE(ex) << ex.error().message();
  RunOptions profiled;
  profiled.profile = true;
  auto first = (*ex)->run(in, profiled);
  ASSERT_TRUE(first) << first.error().message();
  auto second = (*ex)->run(in, profiled);
  ASSERT_TRUE(second) << second.error().message();
  const RunResult ref = runWith(text, in, true);
  EXPECT_EQ(first->profile[0].kernel, "onednn.QLinearMatMul");
  for (const RunResult* opt : {&*first, &*second}) {
    const ir::Tensor &x = opt->outputs[0], &y = ref.outputs[0];
    ASSERT_EQ(x.dims(), y.dims());
    ASSERT_EQ(x.dtype(), y.dtype());
    int64_t differ = 0, clamped = 0;
    const double lo = c.yType == "uint8" ? 0 : -128, hi = c.yType == "uint8" ? 255 : 127;
    for (int64_t i = 0; i < x.numel(); ++i) {
      ASSERT_NEAR(x.valueAsDouble(i), y.valueAsDouble(i), 1.0) << "element " << i;
      differ += x.valueAsDouble(i) != y.valueAsDouble(i);
      clamped += y.valueAsDouble(i) == lo || y.valueAsDouble(i) == hi;
    }
    if (c.scalesAreInputs) EXPECT_EQ(differ, 0) << "the reference ran: identical";
    EXPECT_LT(differ * 50, x.numel()) << "more than 2% one step apart";
    EXPECT_LT(clamped * 4, x.numel()) << "the case saturates: it tests little";
  }
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, QLinearMatMulRuntimeB,
    ::testing::Values(
        RuntimeBCase{"attention_scores_u8", {2, 3, 9, 16}, {2, 3, 16, 9}},
        RuntimeBCase{"attention_values_u8", {2, 3, 9, 9}, {2, 3, 9, 16}},
        RuntimeBCase{"s8_operands_s8_out", {4, 7, 24}, {4, 24, 5}, "int8", "int8", "int8"},
        RuntimeBCase{"u8_a_s8_b_u8_out", {5, 32}, {32, 11}, "uint8", "int8", "uint8"},
        RuntimeBCase{"s8_a_u8_b_s8_out", {3, 6, 20}, {3, 20, 7}, "int8", "uint8", "int8"},
        RuntimeBCase{"broadcast_batches", {2, 1, 6, 16}, {1, 3, 16, 5}},
        RuntimeBCase{"rank2_b_under_batched_a", {3, 6, 16}, {16, 8}},
        RuntimeBCase{"scales_fed_at_run_time_reference",
                     {2, 5, 12},
                     {2, 12, 4},
                     "uint8",
                     "uint8",
                     "uint8",
                     true}),
    [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace passlab::exec
