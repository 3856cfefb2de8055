// fuse_dynamic_quantize_range: DynamicQuantizeLinear(y = ai.passlab.FusedConvInteger(...))
// -> ai.passlab.RangedDynamicQuantizeLinear(y, the FusedConvInteger's range).
// Structural (the convolution gains output 1, the quantization reads it, the
// rest unchanged), the range output itself against min/max with 0 computed
// here (channels-last epilogue, activations inline and not, channels-first
// scan, NaN, infinities, signed zeros, 1 and 2 threads), numeric (the
// quantized bytes, scale and zero point equal the DynamicQuantizeLinear's,
// bit for bit), convergence (two quantizations of one y share one range),
// and what it must leave (a Concat between, a graph input, a graph output of
// the quantization).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "core/exec/executor.h"
#include "core/io/text_format.h"
#include "tests/support/pass_harness.h"
#include "tests/support/test_support.h"

namespace passlab::testing {
namespace {

const char* kPass = "fuse_dynamic_quantize_range";

std::string int8s(int64_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(-127, 127);
  std::string s;
  for (int64_t i = 0; i < n; ++i) s += (i ? ", " : "") + std::to_string(d(rng));
  return s;
}

struct Form {
  int64_t c = 3, m = 4, h = 6, w = 6, n = 1;
  bool channelsLast = true;
  std::string act = "Relu";  // FusedConvInteger's activation ("" none)
  std::string tail = "q, s, z = DynamicQuantizeLinear(a)\n    y = DequantizeLinear(q, s, z)";
  std::string outputs = "float[?,?,?,?] y";  // graph outputs
  std::string extraInputs;
};

std::string dims(const Form& f, int64_t ch) {
  const std::string n = std::to_string(f.n), h = std::to_string(f.h), w = std::to_string(f.w),
                    c = std::to_string(ch);
  return f.channelsLast ? "[" + n + "," + h + "," + w + "," + c + "]"
                        : "[" + n + "," + c + "," + h + "," + w + "]";
}

// x -> DynamicQuantizeLinear -> FusedConvInteger (W [m, c, 3, 3], pads 1, Scale
// ws and B b graph inputs) -> a -> the tail.
std::string model(const Form& f) {
  std::string attrs = "pads = [1, 1, 1, 1]";
  if (f.channelsLast) attrs += ", channels_last = 1";
  if (!f.act.empty()) attrs += ", activation = \"" + f.act + "\"";
  const std::string m = std::to_string(f.m);
  return R"(<ir_version: 8, opset_import: ["" : 13, "ai.passlab" : 1]>
main (float)" +
         dims(f, f.c) + " x, float[" + m + "] ws, float[" + m + "] b" + f.extraInputs + ") => (" +
         f.outputs + ")\n    <int8[" + m + "," + std::to_string(f.c) + ",3,3] wq = {" +
         int8s(f.m * f.c * 9, 5) + R"(}, int8 wz = {0}> {
    xq, xs, xz = DynamicQuantizeLinear(x)
    a = ai.passlab.FusedConvInteger <)" +
         attrs + R"(> (xq, wq, xz, wz, ws, b)
    )" + f.tail +
         " }";
}

struct Inputs {
  std::vector<float> x, ws, b;
};

Inputs inputs(const Form& f, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-3.0f, 5.0f), s(0.001f, 0.02f);
  Inputs in;
  in.x.resize(static_cast<size_t>(f.n * f.c * f.h * f.w));
  for (float& v : in.x) v = d(rng);
  in.ws.resize(static_cast<size_t>(f.m));
  in.b.resize(static_cast<size_t>(f.m));
  for (float& v : in.ws) v = s(rng);
  for (float& v : in.b) v = 0.1f * d(rng);
  return in;
}

Expected<exec::RunResult> run(const ir::Model& model, const Form& f, const Inputs& in,
                              int threads) {
  auto ex = exec::Executor::create(model, {});
  if (!ex) return ex.error();
  const std::vector<int64_t> xd = f.channelsLast ? std::vector<int64_t>{f.n, f.h, f.w, f.c}
                                                 : std::vector<int64_t>{f.n, f.c, f.h, f.w};
  return (*ex)->run(
      {{"x", exec::Value(ir::Tensor::fromVector<float>(ir::DataType::kFloat, xd, in.x))},
       {"ws", exec::Value(ir::Tensor::fromVector<float>(ir::DataType::kFloat, {f.m}, in.ws))},
       {"b", exec::Value(ir::Tensor::fromVector<float>(ir::DataType::kFloat, {f.m}, in.b))}},
      {.threads = threads});
}

bool sameBytes(const ir::Tensor& a, const ir::Tensor& b) {
  const auto x = a.bytes(), y = b.bytes();
  return a.dtype() == b.dtype() && a.dims() == b.dims() && x.size() == y.size() &&
         (x.empty() || std::memcmp(x.data(), y.data(), x.size()) == 0);
}

// Every output of the rewritten model equals the original's, byte for byte.
void expectSameBytes(const Form& f, const Inputs& in, const std::string& what,
                     int quantizations = 1) {
  const std::string text = model(f);
  auto before = io::parseModelText(text);
  ASSERT_TRUE(before) << before.error().message();
  PassOutcome after = runPass(kPass, text);
  ASSERT_EQ(countOps(after.model, "RangedDynamicQuantizeLinear"), quantizations) << text;
  for (int threads : {1, 2}) {
    auto want = run(*before, f, in, threads);
    auto got = run(after.model, f, in, threads);
    ASSERT_TRUE(want) << want.error().message();
    ASSERT_TRUE(got) << got.error().message();
    ASSERT_EQ(got->outputs.size(), want->outputs.size());
    for (size_t i = 0; i < got->outputs.size(); ++i)
      EXPECT_TRUE(sameBytes(got->outputs[i], want->outputs[i]))
          << what << ": output " << i << ", " << threads << " threads\n"
          << text;
  }
}

TEST(FuseDynamicQuantizeRange, TheQuantizationReadsTheConvolutionsRange) {
  PassOutcome out = runPass(kPass, model({}));
  EXPECT_EQ(countOps(out.model, "RangedDynamicQuantizeLinear"), 1);
  EXPECT_EQ(countOps(out.model, "DynamicQuantizeLinear"), 1);  // x's, read from a graph input
  EXPECT_EQ(countOps(out.model, "FusedConvInteger"), 1);
  const ir::Node* conv = findOp(out.model, "FusedConvInteger");
  const ir::Node* q = findOp(out.model, "RangedDynamicQuantizeLinear");
  ASSERT_NE(conv, nullptr);
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(q->domain(), "ai.passlab");
  ASSERT_EQ(conv->outputCount(), 2u);
  ASSERT_EQ(q->inputCount(), 2u);
  EXPECT_EQ(q->input(0), conv->output(0));
  EXPECT_EQ(q->input(1), conv->output(1));
  EXPECT_EQ(q->outputCount(), 3u);
  EXPECT_EQ(conv->attrInt("channels_last", 0), 1);
  EXPECT_EQ(conv->attrString("activation", ""), "Relu");
  EXPECT_EQ(conv->attrInts("pads", {}), (std::vector<int64_t>{1, 1, 1, 1}));
  ASSERT_EQ(conv->inputCount(), 6u);
  EXPECT_EQ(conv->input(4)->name(), "ws");
  const ir::Node* dq = findOp(out.model, "DequantizeLinear");
  ASSERT_NE(dq, nullptr);
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(dq->input(i), q->output(i));
}

// The range output as the contract says: {min(0, min a), max(0, max a)}, or
// {NaN, NaN}.
void expectRange(const Form& f, const Inputs& in, const std::string& what) {
  Form g = f;
  g.tail = "";
  g.outputs = "float[?,?,?,?] a, float[2] r";
  std::string text = model(g);
  const std::string plain = "a = ai.passlab.FusedConvInteger";
  text.replace(text.find(plain), plain.size(), "a, r = ai.passlab.FusedConvInteger");
  auto m = io::parseModelText(text);
  ASSERT_TRUE(m) << m.error().message();
  for (int threads : {1, 2}) {
    auto r = run(*m, g, in, threads);
    ASSERT_TRUE(r) << r.error().message();
    auto a = r->outputs[0].data<float>();
    auto got = r->outputs[1].data<float>();
    ASSERT_EQ(got.size(), 2u);
    float mn = 0, mx = 0;
    bool nan = false;
    for (float v : a) {
      nan = nan || std::isnan(v);
      if (v < mn) mn = v;
      if (v > mx) mx = v;
    }
    if (nan) {
      EXPECT_TRUE(std::isnan(got[0]) && std::isnan(got[1])) << what;
      continue;
    }
    // Equal as values (a zero's sign does not reach the scale or zero point).
    EXPECT_EQ(got[0], mn) << what << ", " << threads << " threads";
    EXPECT_EQ(got[1], mx) << what << ", " << threads << " threads";
  }
}

TEST(FuseDynamicQuantizeRange, TheRangeOutputIsTheMinimumAndMaximumWithZero) {
  for (bool last : {true, false})
    for (const char* act : {"Relu", "", "LeakyRelu", "Tanh"})
      for (int64_t m : {4, 20, 33})
        for (unsigned seed : {1u, 2u}) {
          Form f{.m = m, .h = 7, .w = 9, .n = 2, .channelsLast = last, .act = act};
          const std::string what = std::string(last ? "channels-last " : "channels-first ") + act +
                                   " m " + std::to_string(m);
          expectRange(f, inputs(f, seed), what);
        }
}

TEST(FuseDynamicQuantizeRange, TheRangeOfNaNInfinitiesAndNegativeZeros) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (bool last : {true, false}) {
    Form f{.m = 20, .channelsLast = last, .act = ""};
    Inputs in = inputs(f, 3);
    Inputs huge = in;  // +-inf where the sums are not 0
    for (float& s : huge.ws) s = 3e38f;
    expectRange(f, huge, "infinities");
    Inputs nans = in;
    nans.b[7] = nan;
    expectRange(f, nans, "NaN");
    Inputs negZeros = in;  // every value -0: the sums times -0
    for (float& s : negZeros.ws) s = -0.0f;
    for (float& b : negZeros.b) b = -0.0f;
    expectRange(f, negZeros, "-0");
    Inputs negative = in;  // every value below 0: max is the 0 added
    for (float& s : negative.ws) s = 0.0f;
    for (float& b : negative.b) b = -1.5f;
    expectRange(f, negative, "negative");
  }
}

TEST(FuseDynamicQuantizeRange, QuantizedBytesEqualTheDynamicQuantizeLinearsBitForBit) {
  for (bool last : {true})
    for (const char* act : {"Relu", "", "Tanh"})
      for (unsigned seed : {1u, 2u, 3u}) {
        Form f{.m = 20, .h = 7, .w = 9, .n = 2, .channelsLast = last, .act = act};
        f.outputs = "float[?,?,?,?] y, uint8[?,?,?,?] q, float s, uint8 z";
        f.tail =
            "q0, s0, z0 = DynamicQuantizeLinear(a)\n    y = DequantizeLinear(q0, s0, z0)\n"
            "    q = Identity(q0)\n    s = Identity(s0)\n    z = Identity(z0)";
        expectSameBytes(f, inputs(f, seed), std::string(act) + " seed " + std::to_string(seed));
      }
  Form f{.m = 20, .act = ""};
  Inputs in = inputs(f, 4);
  for (float& b : in.b) b = -0.0f;
  in.ws[3] = -0.0f;
  expectSameBytes(f, in, "-0");
  in.ws[5] = 3e38f;
  expectSameBytes(f, in, "inf");
}

TEST(FuseDynamicQuantizeRange, ANaNIsStillAnError) {
  Form f{.m = 20, .act = ""};
  Inputs in = inputs(f, 5);
  in.b[2] = std::numeric_limits<float>::quiet_NaN();
  PassOutcome after = runPass(kPass, model(f));
  ASSERT_EQ(countOps(after.model, "RangedDynamicQuantizeLinear"), 1);
  auto before = io::parseModelText(model(f));
  ASSERT_TRUE(before);
  auto want = run(*before, f, in, 1);
  auto got = run(after.model, f, in, 1);
  ASSERT_FALSE(want);
  ASSERT_FALSE(got);
  EXPECT_NE(got.error().message().find("NaN"), std::string::npos) << got.error().message();
}

TEST(FuseDynamicQuantizeRange, AYWithOtherReadersKeepsThemAndStaysExact) {
  Form f{.m = 20, .h = 7, .w = 9};
  f.outputs = "float[?,?,?,?] y, float[?,?,?,?] a2";
  f.tail =
      "q, s, z = DynamicQuantizeLinear(a)\n    y = DequantizeLinear(q, s, z)\n"
      "    a2 = Neg(a)";
  PassOutcome out = runPass(kPass, model(f));
  EXPECT_EQ(countOps(out.model, "RangedDynamicQuantizeLinear"), 1);
  EXPECT_EQ(countOps(out.model, "Neg"), 1);
  expectSameBytes(f, inputs(f, 6), "other readers");
}

TEST(FuseDynamicQuantizeRange, Converges) {
  expectConverges(kPass, model({}));
  // Two quantizations of one y: both read the one range.
  Form f;
  f.outputs = "float[?,?,?,?] y, float[?,?,?,?] y2";
  f.tail =
      "q, s, z = DynamicQuantizeLinear(a)\n    y = DequantizeLinear(q, s, z)\n"
      "    q2, s2, z2 = DynamicQuantizeLinear(a)\n    y2 = DequantizeLinear(q2, s2, z2)";
  PassOutcome out = runPass(kPass, model(f));
  EXPECT_EQ(countOps(out.model, "RangedDynamicQuantizeLinear"), 2);
  EXPECT_EQ(countOps(out.model, "FusedConvInteger"), 1);
  expectConverges(kPass, model(f));
  expectSameBytes(f, inputs(f, 7), "two quantizations", 2);
}

TEST(FuseDynamicQuantizeRange, LeavesAChannelsFirstConvolution) {
  expectUnchanged(kPass, model({.channelsLast = false}), "channels-first");
}

TEST(FuseDynamicQuantizeRange, LeavesAConcatBetween) {
  Form f;
  f.tail =
      "c = Concat <axis = 3> (a, a)\n    q, s, z = DynamicQuantizeLinear(c)\n"
      "    y = DequantizeLinear(q, s, z)";
  expectUnchanged(kPass, model(f), "not written by a FusedConvInteger");
}

TEST(FuseDynamicQuantizeRange, LeavesAGraphInputAndAQuantizedGraphOutput) {
  Form f;
  f.outputs = "float[?,?,?,?] y, uint8[?,?,?,?] q";
  f.tail = "q, s, z = DynamicQuantizeLinear(a)\n    y = DequantizeLinear(q, s, z)";
  expectUnchanged(kPass, model(f), "is a graph output");
  Form g;
  g.extraInputs = ", float[1,6,6,4] g";
  g.tail = "q, s, z = DynamicQuantizeLinear(g)\n    y = DequantizeLinear(q, s, z)";
  g.outputs = "float[?,?,?,?] y, float[?,?,?,?] a";
  // x's quantization reads a graph input too: nothing changes.
  expectUnchanged(kPass, model(g), "not written by a FusedConvInteger");
}

}  // namespace
}  // namespace passlab::testing
