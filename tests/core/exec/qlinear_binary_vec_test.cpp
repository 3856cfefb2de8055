// The vectorized com.microsoft QLinearAdd and QLinearMul
// (core/exec/cpu/qlinear_binary_vec.cpp): ONNX Runtime 1.32's outputs on
// elements where its numerics round differently from the reference kernel's
// float dequantize-compute-quantize (golden values from onnxruntime), and
// agreement within one step with the reference kernel on seeded random
// tensors in each broadcast form (same shape, scalar, per channel, both
// broadcast), uint8 and int8, lengths that are not a multiple of the vector;
// and same-shape Add bit for bit its formula on every byte pair.
// scripts/dev/qlinear_binary_cases.py checks 112 random cases against
// onnxruntime itself through `passlab-cli conformance` (all equal).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "tests/core/exec/kernel_test_util.h"

namespace passlab::exec {
namespace {

using kt::u8;

constexpr const char* kHeader = R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>)";

// `values` repeated `times` times (runs longer than one vector, with a tail).
std::vector<uint8_t> repeated(const std::vector<uint8_t>& values, int times) {
  std::vector<uint8_t> out;
  for (int i = 0; i < times; ++i) out.insert(out.end(), values.begin(), values.end());
  return out;
}

std::string binaryModel(const std::string& op, const std::string& type, const std::string& a,
                        const std::string& b, const std::string& c, const std::string& params) {
  return std::string(kHeader) + "\n main (" + type + a + " a, " + type + b + " b) => (" + type + c +
         " c) <" + params + "> { c = com.microsoft." + op + "(a, sa, za, b, sb, zb, sc, zc) }";
}

// Profiled, so the kernels that ran are named.
RunResult runWith(const std::string& text, const NamedInputs& in, bool reference) {
  ExecutorOptions o;
  o.referenceKernels = reference;
  RunOptions run;
  run.profile = true;
  return testutil::runText(text, in, o, run);
}

TEST(QLinearBinaryVec, AddRoundsAsOnnxRuntime) {
  const std::string text = binaryModel(
      "QLinearAdd", "uint8", "[40]", "[40]", "[40]",
      "float sa = {0.1}, uint8 za = {128}, float sb = {0.05}, uint8 zb = {0}, float sc = {0.1}, "
      "uint8 zc = {128}");
  const NamedInputs in = {{"a", u8({40}, repeated({0, 1, 16, 22, 47}, 8))},
                          {"b", u8({40}, repeated({217, 163, 161, 171, 165}, 8))}};
  const RunResult vec = runWith(text, in, false);
  EXPECT_EQ(vec.profile[0].kernel, "cpu.ms.QLinearAdd.vec");
  // onnxruntime 1.32 (MLAS, AVX2); the reference kernel gives 109, 83, 97, 107, 129.
  EXPECT_EQ(kt::values<uint8_t>(vec.outputs[0]), repeated({108, 82, 96, 108, 130}, 8));
  const RunResult ref = runWith(text, in, true);
  EXPECT_EQ(kt::values<uint8_t>(ref.outputs[0]), repeated({109, 83, 97, 107, 129}, 8));
}

TEST(QLinearBinaryVec, MulRoundsAsOnnxRuntime) {
  const std::string text =
      binaryModel("QLinearMul", "uint8", "[34]", "[34]", "[34]",
                  "float sa = {0.02}, uint8 za = {120}, float sb = {0.05}, uint8 zb = {130}, "
                  "float sc = {0.03}, uint8 zc = {128}");
  const NamedInputs in = {{"a", u8({34}, repeated({45, 57}, 17))},
                          {"b", u8({34}, repeated({171, 175}, 17))}};
  const RunResult vec = runWith(text, in, false);
  EXPECT_EQ(vec.profile[0].kernel, "cpu.ms.QLinearMul.vec");
  EXPECT_EQ(kt::values<uint8_t>(vec.outputs[0]), repeated({25, 33}, 17));  // reference: 26, 34
}

// Add of two same-shape tensors holding every (a, b) byte pair (65536, and
// 5 more for a tail that is not a whole vector), uint8 and int8, bit for bit
// the formula above written out here: fma(a, sa/sc, fma(b, sb/sc, zc -
// (sa/sc za + sb/sc zb))), rounded half to even, clamped, on every path
// (AVX-512 lanes, AVX2, plain; ctest runs it under the ISA caps too). Scale
// sets: arbitrary, exact .5 ties (powers of 2), and saturating both ends.
TEST(QLinearBinaryVec, SameShapeAddIsTheFormulaOnEveryBytePair) {
  struct Scales {
    float sa, sb, sc;
  };
  const Scales sets[] = {{0.031f, 0.0173f, 0.047f}, {0.5f, 0.25f, 1.0f}, {0.9f, 0.7f, 0.05f}};
  const int64_t n = 65536 + 5;
  for (const std::string t : {"uint8", "int8"}) {
    const bool u = t == "uint8";
    const int za = u ? 131 : 3, zb = u ? 7 : -121, zc = u ? 120 : -8;
    const float lo = u ? 0.0f : -128.0f, hi = u ? 255.0f : 127.0f;
    std::vector<uint8_t> a(static_cast<size_t>(n)), b(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      a[static_cast<size_t>(i)] = static_cast<uint8_t>(i % 256);
      b[static_cast<size_t>(i)] = static_cast<uint8_t>((i / 256) % 256 + i / 65536 * 77);
    }
    auto tensor = [&](const std::vector<uint8_t>& v) {
      return u ? u8({n}, v) : kt::i8({n}, std::vector<int8_t>(v.begin(), v.end()));
    };
    for (const Scales& sc : sets) {
      SCOPED_TRACE(t + " sa " + std::to_string(sc.sa) + " sc " + std::to_string(sc.sc));
      auto num = [](float v) { return std::to_string(v); };
      const std::string params = "float sa = {" + num(sc.sa) + "}, " + t + " za = {" +
                                 std::to_string(za) + "}, float sb = {" + num(sc.sb) + "}, " + t +
                                 " zb = {" + std::to_string(zb) + "}, float sc = {" + num(sc.sc) +
                                 "}, " + t + " zc = {" + std::to_string(zc) + "}";
      const std::string dims = "[" + std::to_string(n) + "]";
      const std::string text = binaryModel("QLinearAdd", t, dims, dims, dims, params);
      const RunResult vec = runWith(text, {{"a", tensor(a)}, {"b", tensor(b)}}, false);
      ASSERT_EQ(vec.profile[0].kernel, "cpu.ms.QLinearAdd.vec");
      // The scales as the model holds them (the text's decimal digits).
      const float sa = std::stof(num(sc.sa)), sb = std::stof(num(sc.sb)),
                  scc = std::stof(num(sc.sc));
      const float ra = sa / scc, rb = sb / scc;
      const float ra_za = ra * static_cast<float>(za);
      const float rb_zb = rb * static_cast<float>(zb);
      const float fixed = static_cast<float>(zc) - (ra_za + rb_zb);
      const ir::Tensor& c = vec.outputs[0];
      ASSERT_EQ(c.numel(), n);
      int64_t wrong = 0, low = 0, high = 0, ties = 0;
      for (int64_t i = 0; i < n; ++i) {
        const auto byte = [&](const std::vector<uint8_t>& v) {
          const uint8_t x = v[static_cast<size_t>(i)];
          return u ? static_cast<float>(x) : static_cast<float>(static_cast<int8_t>(x));
        };
        const float v = std::fma(byte(a), ra, std::fma(byte(b), rb, fixed));
        ties += v - std::floor(v) == 0.5f;
        const float want = std::clamp(std::nearbyint(v), lo, hi);
        low += want == lo;
        high += want == hi;
        if (c.valueAsDouble(i) != static_cast<double>(want) && ++wrong <= 5)
          ADD_FAILURE() << "element " << i << ": " << c.valueAsDouble(i) << ", want " << want;
      }
      EXPECT_EQ(wrong, 0);
      if (&sc == &sets[1]) {
        EXPECT_GT(ties, n / 8) << "the tie set makes no ties";
      }
      if (&sc == &sets[2]) {
        EXPECT_GT(std::min(low, high), n / 8) << "does not saturate both ends";
      }
    }
  }
}

struct Shapes {
  const char *a, *b, *c;
};

class QLinearBinaryVecRandom
    : public ::testing::TestWithParam<std::tuple<const char*, const char*, Shapes>> {};

// Seeded random 8-bit values of `type` for a tensor of `dims`.
ir::Tensor randomBytes(const std::string& type, const kt::Dims& dims, std::mt19937& rng) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  std::uniform_int_distribution<int> u(0, 255);
  std::vector<uint8_t> v(static_cast<size_t>(n));
  for (uint8_t& e : v) e = static_cast<uint8_t>(u(rng));
  if (type == "uint8") return u8(dims, v);
  return kt::i8(dims, std::vector<int8_t>(v.begin(), v.end()));
}

kt::Dims dimsOf(const std::string& s) {
  kt::Dims d;
  for (size_t i = 1; i < s.size();) {
    size_t j = s.find_first_of(",]", i);
    d.push_back(std::stoll(s.substr(i, j - i)));
    i = j + 1;
  }
  return d;
}

TEST_P(QLinearBinaryVecRandom, AgreesWithReferenceWithinOneStep) {
  const auto& [op, type, shapes] = GetParam();
  const std::string t = type;
  const std::string z = t == "uint8" ? "uint8 za = {131}, uint8 zb = {7}, uint8 zc = {120}"
                                     : "int8 za = {3}, int8 zb = {-121}, int8 zc = {-8}";
  const std::string text = binaryModel(op, t, shapes.a, shapes.b, shapes.c,
                                       "float sa = {0.031}, float sb = {0.0173}, float sc = "
                                       "{0.047}, " +
                                           z);
  std::mt19937 rng(5);
  const NamedInputs in = {{"a", randomBytes(t, dimsOf(shapes.a), rng)},
                          {"b", randomBytes(t, dimsOf(shapes.b), rng)}};
  const RunResult vec = runWith(text, in, false);
  const RunResult ref = runWith(text, in, true);
  EXPECT_EQ(vec.profile[0].kernel, std::string("cpu.ms.") + op + ".vec");
  const ir::Tensor &x = vec.outputs[0], &y = ref.outputs[0];
  ASSERT_EQ(x.dims(), y.dims());
  int64_t differ = 0, saturated = 0;
  for (int64_t i = 0; i < x.numel(); ++i) {
    ASSERT_NEAR(x.valueAsDouble(i), y.valueAsDouble(i), 1.0) << "element " << i;
    differ += x.valueAsDouble(i) != y.valueAsDouble(i);
    saturated += y.valueAsDouble(i) == (t == "uint8" ? 255 : 127);
  }
  EXPECT_LT(differ * 20, x.numel()) << "rounding differs on more than 5% of the elements";
  EXPECT_LT(saturated * 2, x.numel()) << "the case saturates: it tests little";
}

INSTANTIATE_TEST_SUITE_P(
    Broadcasts, QLinearBinaryVecRandom,
    ::testing::Combine(::testing::Values("QLinearAdd", "QLinearMul"),
                       ::testing::Values("uint8", "int8"),
                       ::testing::Values(Shapes{"[2,16,9,9]", "[2,16,9,9]", "[2,16,9,9]"},
                                         Shapes{"[3,37]", "[1]", "[3,37]"},
                                         Shapes{"[1]", "[5,33]", "[5,33]"},
                                         Shapes{"[1,24,7,7]", "[1,24,1,1]", "[1,24,7,7]"},
                                         Shapes{"[4,1,33]", "[1,6,1]", "[4,6,33]"})),
    [](const auto& info) {
      return std::string(std::get<0>(info.param)) + "_" + std::get<1>(info.param) + "_" +
             std::to_string(info.index % 5);
    });

}  // namespace
}  // namespace passlab::exec
