// MatMulInteger (matmul_integer_onednn.cpp) and QLinearMatMul with uint8 B or
// nonzero B zero points (qlinear_matmul_int32.cpp) on Int32MatMul
// (matmul_int32.h) against the reference kernels (qlinear.cpp) on seeded
// random one-node models: bit for bit, on two runs of one executor (the
// second reuses the plan, the packed B and its column sums) with A, the
// activation zero point and a B fed at run time changed between the runs.
// u8/s8 A and B, zero points absent, per tensor, per row of A and per column
// of B, batched and broadcast A, B constant or not, K and N off the vector
// widths. Cases the path declines (per-row scales, a zero point of the wrong
// size) give the reference's result or error.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <sstream>
#include <string>

#include "tests/core/exec/kernel_test_util.h"

namespace passlab::exec {
namespace {

enum class Zp { kNone, kScalar, kPerRowOrColumn };

struct IntCase {
  std::string name;
  kt::Dims a, b;  // [..., M, K], [..., K, N]
  std::string aType = "uint8", bType = "uint8";
  Zp za = Zp::kScalar, zb = Zp::kScalar;
  bool bConstant = true;
  bool qlinear = false;  // QLinearMatMul (else MatMulInteger)
  std::string yType = "uint8";
  bool scalePerColumn = false;
  bool scalePerRow = false;  // a_scale per row: the reference runs
  bool saturating = false;   // a tiny y_scale: the requantization's double path
  int64_t zbCount = 0;       // a b_zero_point of this many values (the error case)
};

void PrintTo(const IntCase& c, std::ostream* os) {
  *os << c.name;
}

std::string dimsText(const kt::Dims& d) {
  return "[" + kt::dimsText(d) + "]";
}

int64_t count(const kt::Dims& d) {
  int64_t n = 1;
  for (int64_t e : d) n *= e;
  return n;
}

// n 8-bit values of `type`, in [lo, hi] shifted by -128 for int8 when
// `centred` is false; zero points near the middle of the range when true.
std::vector<int> randomValues(int64_t n, const std::string& type, bool nearMiddle,
                              std::mt19937& rng) {
  const int base = type == "uint8" ? 0 : -128;
  std::uniform_int_distribution<int> u(nearMiddle ? 118 : 0, nearMiddle ? 138 : 255);
  std::vector<int> v(static_cast<size_t>(n));
  for (int& e : v) e = u(rng) + base;
  return v;
}

std::string listText(const std::vector<int>& v) {
  std::ostringstream s;
  for (size_t i = 0; i < v.size(); ++i) s << (i ? ", " : "") << v[i];
  return s.str();
}

ir::Tensor tensorOf(const kt::Dims& dims, const std::string& type, const std::vector<int>& v) {
  if (type == "uint8") return kt::u8(dims, std::vector<uint8_t>(v.begin(), v.end()));
  return kt::i8(dims, std::vector<int8_t>(v.begin(), v.end()));
}

struct Model {
  std::string text;
  kt::Dims out;
  int64_t M = 0;
};

Model modelText(const IntCase& c, std::mt19937& rng) {
  Model m;
  const int64_t K = c.a.back(), N = c.b.back();
  m.M = c.a[c.a.size() - 2];
  kt::Dims ab(c.a.begin(), c.a.end() - 2), bb(c.b.begin(), c.b.end() - 2);
  while (ab.size() < bb.size()) ab.insert(ab.begin(), 1);
  while (bb.size() < ab.size()) bb.insert(bb.begin(), 1);
  for (size_t i = 0; i < ab.size(); ++i) m.out.push_back(std::max(ab[i], bb[i]));
  m.out.push_back(m.M);
  m.out.push_back(N);

  const bool nearMiddle = c.qlinear;  // keeps the requantized outputs mostly in range
  std::string inputs = c.aType + dimsText(c.a) + " a";
  std::string inits;
  auto addInit = [&](const std::string& s) { inits += (inits.empty() ? "" : ", ") + s; };
  if (c.bConstant)
    addInit(c.bType + dimsText(c.b) + " b = {" +
            listText(randomValues(count(c.b), c.bType, false, rng)) + "}");
  else
    inputs += ", " + c.bType + dimsText(c.b) + " b";
  std::string az = "", bz = "";
  if (c.za != Zp::kNone) {
    // MatMulInteger's a_zero_point is fed at run time (DynamicQuantizeLinear's).
    const std::string dims = c.za == Zp::kScalar ? "" : "[" + std::to_string(m.M) + "]";
    if (c.qlinear)
      addInit(c.aType + dims + " az = {" +
              listText(randomValues(c.za == Zp::kScalar ? 1 : m.M, c.aType, true, rng)) + "}");
    else
      inputs += ", " + c.aType + dims + " az";
    az = "az";
  }
  if (c.zb != Zp::kNone || c.zbCount) {
    const int64_t n = c.zbCount ? c.zbCount : c.zb == Zp::kScalar ? 1 : N;
    const std::string dims = n == 1 ? "" : "[" + std::to_string(n) + "]";
    addInit(c.bType + dims + " bz = {" + listText(randomValues(n, c.bType, nearMiddle, rng)) + "}");
    bz = "bz";
  }
  const std::string y = c.qlinear ? c.yType : "int32";
  std::string node;
  if (c.qlinear) {
    std::uniform_real_distribution<float> s(0.03f, 0.05f);
    std::ostringstream as, bs;
    const int64_t aScales = c.scalePerRow ? m.M : 1, bScales = c.scalePerColumn ? N : 1;
    for (int64_t i = 0; i < aScales; ++i) as << (i ? ", " : "") << s(rng);
    for (int64_t i = 0; i < bScales; ++i) bs << (i ? ", " : "") << s(rng);
    // About 40 output steps per standard deviation of the sums.
    const float ys =
        c.saturating ? 1e-6f : 0.04f * 0.04f * 74 * 74 * std::sqrt(static_cast<float>(K)) / 40;
    addInit("float" + (aScales > 1 ? "[" + std::to_string(aScales) + "]" : std::string()) +
            " as = {" + as.str() + "}");
    addInit("float" + (bScales > 1 ? "[" + std::to_string(bScales) + "]" : std::string()) +
            " bs = {" + bs.str() + "}");
    addInit("float ys = {" + std::to_string(ys) + "}");
    addInit(c.yType + " yz = {" + (c.yType == "uint8" ? "117" : "-3") + "}");
    node = "y = QLinearMatMul(a, as, " + az + ", b, bs, " + bz + ", ys, yz)";
  } else {
    node = "y = MatMulInteger(a, b, " + az + ", " + bz + ")";
  }
  m.text = R"(<ir_version: 8, opset_import: ["" : 13]>
main ()" + inputs +
           ") => (" + y + dimsText(m.out) + " y) <" + inits + "> { " + node + " }";
  return m;
}

NamedInputs randomInputs(const IntCase& c, int64_t M, std::mt19937& rng) {
  NamedInputs in = {{"a", tensorOf(c.a, c.aType, randomValues(count(c.a), c.aType, false, rng))}};
  if (!c.bConstant)
    in.push_back({"b", tensorOf(c.b, c.bType, randomValues(count(c.b), c.bType, false, rng))});
  if (!c.qlinear && c.za != Zp::kNone) {
    const kt::Dims dims = c.za == Zp::kScalar ? kt::Dims{} : kt::Dims{M};
    in.push_back({"az", tensorOf(dims, c.aType, randomValues(count(dims), c.aType, false, rng))});
  }
  return in;
}

RunResult reference(const std::string& text, const NamedInputs& in) {
  ExecutorOptions o;
  o.referenceKernels = true;
  return testutil::runText(text, in, o);
}

class Int32MatMulExact : public ::testing::TestWithParam<IntCase> {};

TEST_P(Int32MatMulExact, EqualsTheReferenceBitForBit) {
  const IntCase& c = GetParam();
  std::mt19937 rng(29);
  const Model m = modelText(c, rng);
  auto ex = Executor::create(testutil::parseModel(m.text), ExecutorOptions{});
  ASSERT_TRUE(ex) << ex.error().message();
  RunOptions profiled;
  profiled.profile = true;
  for (int run = 0; run < 2; ++run) {
    const NamedInputs in = randomInputs(c, m.M, rng);
    auto got = (*ex)->run(in, profiled);
    ASSERT_TRUE(got) << got.error().message();
    EXPECT_EQ(got->profile[0].kernel, c.qlinear ? "onednn.QLinearMatMul" : "onednn.MatMulInteger");
    const RunResult ref = reference(m.text, in);
    const ir::Tensor &x = got->outputs[0], &y = ref.outputs[0];
    ASSERT_EQ(x.dims(), y.dims());
    ASSERT_EQ(x.dims(), m.out);
    ASSERT_EQ(x.dtype(), y.dtype());
    int64_t clamped = 0, zeros = 0;
    for (int64_t i = 0; i < x.numel(); ++i) {
      ASSERT_EQ(x.valueAsDouble(i), y.valueAsDouble(i)) << "run " << run << " element " << i;
      const double v = y.valueAsDouble(i);
      clamped +=
          c.qlinear && (v == -128 || v == 127 || (c.yType == "uint8" && (v == 0 || v == 255)));
      zeros += v == 0;
    }
    if (c.qlinear && !c.saturating) EXPECT_LT(clamped * 4, x.numel()) << "it tests little";
    if (c.saturating) EXPECT_GT(clamped * 2, x.numel()) << "meant to saturate";
    if (!c.saturating) EXPECT_LT(zeros * 2, x.numel()) << "mostly zeros: it tests little";
  }
}

INSTANTIATE_TEST_SUITE_P(
    MatMulInteger, Int32MatMulExact,
    ::testing::Values(
        IntCase{"u8_u8_dynamic_quint8", {9, 40}, {40, 23}},
        IntCase{
            "u8_s8_no_b_zero_point", {7, 64}, {64, 33}, "uint8", "int8", Zp::kScalar, Zp::kNone},
        IntCase{"s8_s8_per_row_per_column",
                {6, 36},
                {36, 19},
                "int8",
                "int8",
                Zp::kPerRowOrColumn,
                Zp::kPerRowOrColumn},
        IntCase{"s8_u8_no_a_zero_point",
                {5, 24},
                {24, 17},
                "int8",
                "uint8",
                Zp::kNone,
                Zp::kPerRowOrColumn},
        IntCase{"no_zero_points", {4, 32}, {32, 16}, "uint8", "uint8", Zp::kNone, Zp::kNone},
        IntCase{"odd_k_and_n", {5, 13}, {13, 7}},
        IntCase{
            "batched_a", {2, 5, 36}, {36, 19}, "uint8", "uint8", Zp::kScalar, Zp::kPerRowOrColumn},
        IntCase{"leading_one", {1, 7, 24}, {24, 20}, "uint8", "int8"},
        IntCase{"per_row_batched", {3, 4, 20}, {20, 9}, "uint8", "uint8", Zp::kPerRowOrColumn},
        IntCase{"runtime_b", {6, 30}, {30, 11}, "uint8", "uint8", Zp::kScalar, Zp::kScalar, false},
        IntCase{"runtime_b_batched",
                {3, 6, 24},
                {3, 24, 10},
                "int8",
                "uint8",
                Zp::kScalar,
                Zp::kPerRowOrColumn,
                false},
        IntCase{"runtime_b_broadcast",
                {2, 1, 6, 16},
                {3, 16, 5},
                "uint8",
                "int8",
                Zp::kPerRowOrColumn,
                Zp::kPerRowOrColumn,
                false},
        IntCase{
            "larger", {33, 130}, {130, 67}, "uint8", "uint8", Zp::kScalar, Zp::kPerRowOrColumn}),
    [](const auto& info) { return info.param.name; });

IntCase q(std::string name, kt::Dims a, kt::Dims b, std::string aType, std::string bType, Zp zb,
          std::string yType, bool perColumn, bool bConstant = true) {
  IntCase c{std::move(name), std::move(a), std::move(b), std::move(aType), std::move(bType)};
  c.zb = zb;
  c.qlinear = true;
  c.yType = std::move(yType);
  c.scalePerColumn = perColumn;
  c.bConstant = bConstant;
  return c;
}

IntCase variant(IntCase c, std::string name, bool perRow, bool saturating) {
  c.name = std::move(name);
  c.scalePerRow = perRow;
  c.saturating = saturating;
  return c;
}

IntCase withoutAZeroPoint(IntCase c) {
  c.za = Zp::kNone;
  return c;
}

INSTANTIATE_TEST_SUITE_P(
    QLinearMatMul, Int32MatMulExact,
    ::testing::Values(
        q("u8_b_zero_point", {12, 64}, {64, 40}, "uint8", "uint8", Zp::kScalar, "uint8", false),
        q("u8_b_per_column", {9, 48}, {48, 35}, "uint8", "uint8", Zp::kPerRowOrColumn, "int8",
          true),
        q("s8_b_nonzero_per_column", {8, 40}, {40, 21}, "int8", "int8", Zp::kPerRowOrColumn,
          "uint8", true),
        withoutAZeroPoint(q("s8_a_u8_b_no_zero_points", {6, 32}, {32, 18}, "int8", "uint8",
                            Zp::kNone, "int8", false)),
        q("batched_a", {1, 12, 40}, {40, 24}, "uint8", "uint8", Zp::kScalar, "uint8", true),
        q("runtime_b", {2, 3, 9, 16}, {2, 3, 16, 9}, "int8", "uint8", Zp::kScalar, "int8", false,
          false),
        q("odd_sizes", {5, 27}, {27, 13}, "uint8", "uint8", Zp::kPerRowOrColumn, "uint8", true),
        variant(q("", {10, 70}, {70, 33}, "uint8", "uint8", Zp::kScalar, "uint8", true),
                "saturating_double_path", false, true),
        variant(q("", {6, 20}, {20, 10}, "uint8", "uint8", Zp::kScalar, "uint8", false),
                "per_row_scale_reference", true, false)),
    [](const auto& info) { return info.param.name; });

// A b_zero_point of neither 1 nor N values: the reference's error.
TEST(Int32MatMulExact, ZeroPointOfTheWrongSizeFailsAsTheReference) {
  for (bool qlinear : {false, true}) {
    IntCase c{"wrong_size", {4, 16}, {16, 5}};
    c.zb = Zp::kNone;
    c.zbCount = 3;
    c.qlinear = qlinear;
    std::mt19937 rng(5);
    const Model m = modelText(c, rng);
    const NamedInputs in = randomInputs(c, m.M, rng);
    for (bool ref : {false, true}) {
      ExecutorOptions o;
      o.referenceKernels = ref;
      auto ex = Executor::create(testutil::parseModel(m.text), o);
      ASSERT_TRUE(ex) << ex.error().message();
      auto r = (*ex)->run(in, RunOptions{});
      ASSERT_FALSE(r) << (qlinear ? "QLinearMatMul" : "MatMulInteger") << (ref ? " ref" : "");
      EXPECT_TRUE(kt::contains(r.error().message(), "b_zero_point")) << r.error().message();
    }
  }
}

}  // namespace
}  // namespace passlab::exec
