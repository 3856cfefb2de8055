// fuse_dynamic_quantize_into_conv: y, r = ai.passlab.FusedConvInteger(...);
// q, s, z = ai.passlab.RangedDynamicQuantizeLinear(y, r) ->
// q, s, z = ai.passlab.FusedConvInteger<quantize_output = 1>(...).
// Structural (one node with DynamicQuantizeLinear's three outputs, the
// convolution's inputs and attributes kept), numeric (q, s, z and what reads
// them the bytes of the unfused FusedConvInteger -> DynamicQuantizeLinear:
// activations none/Relu/LeakyRelu/Clip, channel counts 4/20/33, a zero point
// and padded borders, several runs of positions, 1 and 2 threads; the
// kernel's other paths: channels-first, Tanh, scales out of the fast loop's
// bounds, infinities; a NaN still the error), convergence, and what it must
// leave (another reader of y or r, channels-first, Tanh).
#include <gtest/gtest.h>

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

const char* kPass = "fuse_dynamic_quantize_into_conv";
const char* kRange = "fuse_dynamic_quantize_range";

std::string int8s(int64_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(-127, 127);
  std::string s;
  for (int64_t i = 0; i < n; ++i) s += (i ? ", " : "") + std::to_string(d(rng));
  return s;
}

struct Form {
  int64_t c = 3, m = 20, h = 12, w = 13, n = 2;
  bool channelsLast = true;
  bool pads = true;
  std::string act = "Relu";    // FusedConvInteger's activation ("" none)
  std::string actParams = "";  // e.g. "activation_params = [0.1]"
  // What follows a = FusedConvInteger(...): the unfused quantization by default.
  std::string tail =
      "q0, s0, z0 = DynamicQuantizeLinear(a)\n    y = DequantizeLinear(q0, s0, z0)\n"
      "    q = Identity(q0)\n    s = Identity(s0)\n    z = Identity(z0)";
  std::string outputs = "float[?,?,?,?] y, uint8[?,?,?,?] q, float s, uint8 z";
  std::string convOutputs = "a";
  std::string convAttrs = "";  // more attributes
};

std::string dims(const Form& f, int64_t ch) {
  const std::string n = std::to_string(f.n), h = std::to_string(f.h), w = std::to_string(f.w),
                    c = std::to_string(ch);
  return f.channelsLast ? "[" + n + "," + h + "," + w + "," + c + "]"
                        : "[" + n + "," + c + "," + h + "," + w + "]";
}

// x -> DynamicQuantizeLinear -> FusedConvInteger (W [m, c, 3, 3], Scale ws
// and B b graph inputs) -> a -> the tail.
std::string model(const Form& f) {
  std::string attrs = f.pads ? "pads = [1, 1, 1, 1]" : "pads = [0, 0, 0, 0]";
  if (f.channelsLast) attrs += ", channels_last = 1";
  if (!f.act.empty()) attrs += ", activation = \"" + f.act + "\"";
  if (!f.actParams.empty()) attrs += ", " + f.actParams;
  if (!f.convAttrs.empty()) attrs += ", " + f.convAttrs;
  const std::string m = std::to_string(f.m);
  return R"(<ir_version: 8, opset_import: ["" : 13, "ai.passlab" : 1]>
main (float)" +
         dims(f, f.c) + " x, float[" + m + "] ws, float[" + m + "] b) => (" + f.outputs +
         ")\n    <int8[" + m + "," + std::to_string(f.c) + ",3,3] wq = {" +
         int8s(f.m * f.c * 9, 5) + R"(}, int8 wz = {0}> {
    xq, xs, xz = DynamicQuantizeLinear(x)
    )" + f.convOutputs +
         R"( = ai.passlab.FusedConvInteger <)" + attrs + R"(> (xq, wq, xz, wz, ws, b)
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

// The two passes of the fused level on the unfused form.
PassOutcome fused(const std::string& text) {
  PassOutcome ranged = runPass(kRange, text);
  return runPass(kPass, std::move(ranged.model));
}

// Every output of `after` equals the unfused model's, byte for byte.
void expectSameBytes(const Form& f, const ir::Model& after, const Inputs& in,
                     const std::string& what) {
  const std::string text = model(f);
  auto before = io::parseModelText(text);
  ASSERT_TRUE(before) << before.error().message();
  for (int threads : {1, 2}) {
    auto want = run(*before, f, in, threads);
    auto got = run(after, f, in, threads);
    ASSERT_TRUE(want) << want.error().message();
    ASSERT_TRUE(got) << what << ": " << got.error().message();
    ASSERT_EQ(got->outputs.size(), want->outputs.size());
    for (size_t i = 0; i < got->outputs.size(); ++i)
      EXPECT_TRUE(sameBytes(got->outputs[i], want->outputs[i]))
          << what << ": output " << i << ", " << threads << " threads\n"
          << text;
  }
}

// The form fused by the two passes: one quantizing FusedConvInteger, then the bytes.
void expectFusedSameBytes(const Form& f, const Inputs& in, const std::string& what) {
  PassOutcome after = fused(model(f));
  ASSERT_EQ(countOps(after.model, "RangedDynamicQuantizeLinear"), 0) << what;
  const ir::Node* conv = findOp(after.model, "FusedConvInteger");
  ASSERT_NE(conv, nullptr);
  ASSERT_EQ(conv->attrInt("quantize_output", 0), 1) << what;
  expectSameBytes(f, after.model, in, what);
}

// The same unfused model with the quantizing FusedConvInteger written by hand
// (a kernel path the pass does not choose).
void expectHandWrittenSameBytes(Form f, const Inputs& in, const std::string& what) {
  Form q = f;
  q.convOutputs = "q0, s0, z0";
  q.convAttrs = "quantize_output = 1";
  q.tail =
      "y = DequantizeLinear(q0, s0, z0)\n    q = Identity(q0)\n    s = Identity(s0)\n"
      "    z = Identity(z0)";
  auto after = io::parseModelText(model(q));
  ASSERT_TRUE(after) << after.error().message();
  expectSameBytes(f, *after, in, what);
}

TEST(FuseDynamicQuantizeIntoConv, TheConvolutionWritesTheQuantization) {
  PassOutcome out = fused(model({}));
  EXPECT_EQ(countOps(out.model, "RangedDynamicQuantizeLinear"), 0);
  EXPECT_EQ(countOps(out.model, "DynamicQuantizeLinear"), 1);  // x's, read from a graph input
  EXPECT_EQ(countOps(out.model, "FusedConvInteger"), 1);
  const ir::Node* conv = findOp(out.model, "FusedConvInteger");
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(conv->domain(), "ai.passlab");
  ASSERT_EQ(conv->outputCount(), 3u);
  EXPECT_EQ(conv->attrInt("quantize_output", 0), 1);
  EXPECT_EQ(conv->attrInt("channels_last", 0), 1);
  EXPECT_EQ(conv->attrString("activation", ""), "Relu");
  EXPECT_EQ(conv->attrInts("pads", {}), (std::vector<int64_t>{1, 1, 1, 1}));
  ASSERT_EQ(conv->inputCount(), 6u);
  EXPECT_EQ(conv->input(1)->name(), "wq");
  EXPECT_EQ(conv->input(4)->name(), "ws");
  EXPECT_EQ(conv->input(5)->name(), "b");
  EXPECT_EQ(conv->output(0)->type().elemType(), ir::DataType::kUInt8);
  EXPECT_EQ(conv->output(1)->type().elemType(), ir::DataType::kFloat);
  EXPECT_EQ(conv->output(2)->type().elemType(), ir::DataType::kUInt8);
  const ir::Node* dq = findOp(out.model, "DequantizeLinear");
  ASSERT_NE(dq, nullptr);
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(dq->input(i), conv->output(i));
}

TEST(FuseDynamicQuantizeIntoConv, QuantizedBytesEqualTheUnfusedFormBitForBit) {
  const std::pair<const char*, const char*> acts[] = {{"Relu", ""},
                                                      {"", ""},
                                                      {"LeakyRelu", "activation_params = [0.1]"},
                                                      {"Clip", "activation_params = [-0.5, 0.75]"}};
  for (const auto& [act, params] : acts)
    for (int64_t m : {4, 20, 33})
      for (unsigned seed : {1u, 2u}) {
        Form f{.m = m, .act = act, .actParams = params};
        const std::string what =
            std::string(act) + " m " + std::to_string(m) + " seed " + std::to_string(seed);
        expectFusedSameBytes(f, inputs(f, seed), what);
      }
  // No padding: S one value per channel (the interior everywhere).
  Form f{.m = 20, .pads = false, .act = ""};
  expectFusedSameBytes(f, inputs(f, 3), "no pads");
  // x with no negative value: its zero point 0, no zero-point term.
  Inputs positive = inputs(f, 4);
  for (float& v : positive.x) v = std::fabs(v);
  expectFusedSameBytes(f, positive, "x >= 0");
  // One image, few positions (a partial run).
  Form small{.m = 20, .h = 3, .w = 5, .n = 1, .act = ""};
  expectFusedSameBytes(small, inputs(small, 5), "15 positions");
}

TEST(FuseDynamicQuantizeIntoConv, SignedZerosAndAllNegative) {
  Form f{.act = ""};
  Inputs in = inputs(f, 6);
  Inputs negZeros = in;  // every value -0
  for (float& s : negZeros.ws) s = -0.0f;
  for (float& b : negZeros.b) b = -0.0f;
  expectFusedSameBytes(f, negZeros, "-0");
  Inputs negative = in;  // every value below 0: max is the 0 added
  for (float& s : negative.ws) s = 0.0f;
  for (float& b : negative.b) b = -1.5f;
  expectFusedSameBytes(f, negative, "negative");
}

TEST(FuseDynamicQuantizeIntoConv, TheKernelsOtherPathsGiveTheSameBytes) {
  // Channels-first and a Tanh (the pass leaves both): Y into scratch, quantized.
  Form first{.channelsLast = false, .act = "Relu"};
  expectHandWrittenSameBytes(first, inputs(first, 7), "channels-first");
  Form tanh{.act = "Tanh"};
  expectHandWrittenSameBytes(tanh, inputs(tanh, 8), "Tanh");
  // A scale below the fast loop's 2^-100: the division on Y in scratch.
  Form f{.act = ""};
  Inputs tiny = inputs(f, 9);
  for (float& s : tiny.ws) s *= 1e-33f;
  for (float& b : tiny.b) b *= 1e-33f;
  expectFusedSameBytes(f, tiny, "tiny scale");
  // Infinities (a scale of infinity).
  Inputs huge = inputs(f, 10);
  huge.ws[5] = 3e38f;
  expectFusedSameBytes(f, huge, "inf");
}

TEST(FuseDynamicQuantizeIntoConv, ANaNIsStillAnError) {
  Form f{.act = ""};
  Inputs in = inputs(f, 11);
  in.b[2] = std::numeric_limits<float>::quiet_NaN();
  PassOutcome after = fused(model(f));
  ASSERT_EQ(countOps(after.model, "RangedDynamicQuantizeLinear"), 0);
  auto got = run(after.model, f, in, 1);
  ASSERT_FALSE(got);
  EXPECT_NE(got.error().message().find("NaN"), std::string::npos) << got.error().message();
}

// The ranged form written by hand, with `tail` reading a, r.
std::string ranged(Form f, const std::string& tail, const std::string& outputs) {
  f.convOutputs = "a, r";
  f.tail = tail;
  f.outputs = outputs;
  return model(f);
}

const char* kRangedTail =
    "q, s, z = ai.passlab.RangedDynamicQuantizeLinear(a, r)\n    y = DequantizeLinear(q, s, z)";

TEST(FuseDynamicQuantizeIntoConv, Converges) {
  PassOutcome once = fused(model({}));
  PassOutcome twice = runPass(kPass, once.model.clone());
  EXPECT_EQ(canonicalForm(twice.model.graph()), canonicalForm(once.model.graph()));
  EXPECT_EQ(countOps(twice.model, "FusedConvInteger"), 1);
  expectConverges(kPass, ranged({}, kRangedTail, "float[?,?,?,?] y"));
}

TEST(FuseDynamicQuantizeIntoConv, FusesTheHandWrittenRangedForm) {
  PassOutcome out = runPass(kPass, ranged({}, kRangedTail, "float[?,?,?,?] y"));
  EXPECT_EQ(countOps(out.model, "RangedDynamicQuantizeLinear"), 0);
  EXPECT_EQ(countOps(out.model, "FusedConvInteger"), 1);
}

TEST(FuseDynamicQuantizeIntoConv, LeavesAYOrRangeWithOtherReaders) {
  expectUnchanged(kPass,
                  ranged({}, std::string(kRangedTail) + "\n    a2 = Neg(a)",
                         "float[?,?,?,?] y, float[?,?,?,?] a2"),
                  "has other readers");
  expectUnchanged(kPass, ranged({}, kRangedTail, "float[?,?,?,?] y, float[?,?,?,?] a"),
                  "is a graph output");
  expectUnchanged(kPass, ranged({}, kRangedTail, "float[?,?,?,?] y, float[2] r"),
                  "is a graph output");
  // Through the fused level's first pass: y read by a Neg too.
  Form f;
  f.outputs = "float[?,?,?,?] y, float[?,?,?,?] a2";
  f.tail =
      "q, s, z = DynamicQuantizeLinear(a)\n    y = DequantizeLinear(q, s, z)\n"
      "    a2 = Neg(a)";
  PassOutcome out = fused(model(f));
  EXPECT_EQ(countOps(out.model, "RangedDynamicQuantizeLinear"), 1);
  EXPECT_EQ(countOps(out.model, "Neg"), 1);
}

TEST(FuseDynamicQuantizeIntoConv, LeavesChannelsFirstAndActivationsOutsideTheRegisters) {
  expectUnchanged(kPass, ranged({.channelsLast = false}, kRangedTail, "float[?,?,?,?] y"),
                  "channels-first");
  expectUnchanged(kPass, ranged({.act = "Tanh"}, kRangedTail, "float[?,?,?,?] y"),
                  "not computed in its epilogue's registers");
}

}  // namespace
}  // namespace passlab::testing
