// fuse_conv_integer_epilogue: ConvInteger -> Cast -> Mul(scale) [-> Add(B)]
// [-> Relu|LeakyRelu|Clip] (quantize_dynamic's Conv form) into ai.passlab
// FusedConvInteger. Structural (one fused node with the ConvInteger's inputs,
// attributes, the scale, B and the activation; the DynamicQuantizeLinear and
// the scale's Mul stay), numeric (the fused model's outputs equal the
// original's bit for bit on the CPU executor, for several forms), convergence,
// and the chains it must leave or cut short (a Cast to double, a scale that
// broadcasts over the width instead of the channels, a Cast result read
// elsewhere, a B that is not a constant).
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "core/exec/executor.h"
#include "core/io/text_format.h"
#include "tests/support/pass_harness.h"
#include "tests/support/test_support.h"

namespace passlab::testing {
namespace {

const char* kPass = "fuse_conv_integer_epilogue";

// Seeded int8 values, as text.
std::string int8s(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(-127, 127);
  std::string s;
  for (int i = 0; i < n; ++i) s += (i ? ", " : "") + std::to_string(d(rng));
  return s;
}

struct Form {
  std::string act = "Relu";           // "" none, or the activation node's text
  bool bias = true;                   // Add(u, b)
  std::string scaleDims = "[4,1,1]";  // ws's dims
  std::string scaleValues = "0.011, 0.007, 0.02, 0.013";
  std::string convAttrs = "<pads = [1, 1, 1, 1]>";
  std::string outDims = "[1,4,6,6]";
  int castTo = 1;               // the Cast after ConvInteger (1: float)
  std::string extraOut = {};    // more graph outputs
  std::string extraIn = {};     // more graph inputs
  std::string biasValue = "b";  // what the Add adds
};

// x [1,3,6,6] -> DynamicQuantizeLinear -> ConvInteger (W [4,3,3,3]) -> Cast -> Mul(xs * ws)
// [-> Add] [-> act] -> y.
std::string model(const Form& f) {
  // A Cast to another type goes back to float before the Mul.
  const std::string cast = f.castTo == 1 ? "c = Cast <to = 1> (t)"
                                         : "c0 = Cast <to = " + std::to_string(f.castTo) +
                                               "> (t)\n    c = Cast <to = 1> (c0)";
  std::string body = R"(
    xq, xs, xz = DynamicQuantizeLinear(x)
    t = ConvInteger )" +
                     f.convAttrs + R"( (xq, wq, xz, wz)
    )" + cast + R"(
    s = Mul(xs, ws)
    u = Mul(c, s))";
  std::string last = "u";
  if (f.bias) {
    body += "\n    v = Add(u, " + f.biasValue + ")";
    last = "v";
  }
  if (!f.act.empty()) {
    body += "\n    a = " + f.act + "(" + last + ")";
    last = "a";
  }
  body += "\n    y = Identity(" + last + ")";
  return R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,3,6,6] x)" +
         f.extraIn + ") => (float" + f.outDims + " y" + f.extraOut + R"()
    <int8[4,3,3,3] wq = {)" +
         int8s(108, 5) + R"(}, int8 wz = {0}, )" + "float" + f.scaleDims + " ws = {" +
         f.scaleValues + R"(}, float[4,1,1] b = {0.1, -0.2, 0.05, 0}> {)" + body + " }";
}

// Output 0 of `m` on seeded random x (values in [-3, 5]).
std::vector<float> run(const ir::Model& m, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-3.0f, 5.0f);
  std::vector<float> x(108);
  for (float& v : x) v = d(rng);
  auto ex = exec::Executor::create(m, {});
  EXPECT_TRUE(ex) << (ex ? "" : ex.error().message());
  if (!ex) return {};
  auto r = (*ex)->run(
      {{"x", exec::Value(ir::Tensor::fromVector<float>(ir::DataType::kFloat, {1, 3, 6, 6}, x))}});
  EXPECT_TRUE(r) << (r ? "" : r.error().message());
  if (!r) return {};
  auto p = r->outputs[0].data<float>();
  return {p.begin(), p.end()};
}

void expectBitExact(const Form& f) {
  const std::string text = model(f);
  auto before = io::parseModelText(text);
  ASSERT_TRUE(before) << before.error().message();
  PassOutcome after = runPass(kPass, text);
  ASSERT_EQ(countOps(after.model, "FusedConvInteger"), 1) << text;
  for (unsigned seed : {1u, 2u, 3u}) {
    const std::vector<float> want = run(*before, seed), got = run(after.model, seed);
    ASSERT_EQ(got.size(), want.size());
    ASSERT_FALSE(got.empty());
    EXPECT_EQ(std::memcmp(got.data(), want.data(), got.size() * sizeof(float)), 0)
        << "seed " << seed << "\n"
        << text;
  }
}

TEST(FuseConvIntegerEpilogue, TheChainBecomesOneFusedNode) {
  PassOutcome out = runPass(kPass, model({}));
  EXPECT_EQ(countOps(out.model, "FusedConvInteger"), 1);
  for (const char* gone : {"ConvInteger", "Cast", "Add", "Relu"})
    EXPECT_EQ(countOps(out.model, gone), 0) << gone;
  EXPECT_EQ(countOps(out.model, "DynamicQuantizeLinear"), 1);
  EXPECT_EQ(countOps(out.model, "Mul"), 1);  // xs * ws stays
  const ir::Node* n = findOp(out.model, "FusedConvInteger");
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->domain(), "ai.passlab");
  ASSERT_EQ(n->inputCount(), 6u);
  EXPECT_EQ(n->input(0)->name(), "xq");
  EXPECT_EQ(n->input(1)->name(), "wq");
  EXPECT_EQ(n->input(2)->name(), "xz");
  EXPECT_EQ(n->input(3)->name(), "wz");
  EXPECT_EQ(n->input(4)->name(), "s");
  EXPECT_EQ(n->input(5)->name(), "b");
  EXPECT_EQ(n->attrString("activation", ""), "Relu");
  EXPECT_EQ(n->attrInts("pads", {}), (std::vector<int64_t>{1, 1, 1, 1}));
}

TEST(FuseConvIntegerEpilogue, OutputsEqualTheUnfusedFormBitForBit) {
  expectBitExact({});
  expectBitExact({.act = "", .bias = false});
  expectBitExact({.act = "LeakyRelu <alpha = 0.1>", .scaleDims = "[1]", .scaleValues = "0.009"});
  expectBitExact({.act = "Clip <min = -0.5, max = 0.75>"});
  expectBitExact(
      {.scaleDims = "[1,4,1,1]", .convAttrs = "<strides = [2, 2]>", .outDims = "[1,4,2,2]"});
}

TEST(FuseConvIntegerEpilogue, AnActivationItCannotComputeExactlyStaysAfterIt) {
  PassOutcome out = runPass(kPass, model({.act = "Sigmoid"}));
  EXPECT_EQ(countOps(out.model, "FusedConvInteger"), 1);
  EXPECT_EQ(countOps(out.model, "Sigmoid"), 1);
  EXPECT_EQ(findOp(out.model, "FusedConvInteger")->attrString("activation", ""), "");
}

TEST(FuseConvIntegerEpilogue, ABiasThatIsNotAConstantStays) {
  PassOutcome out = runPass(kPass, model({.extraIn = ", float[4,1,1] bin", .biasValue = "bin"}));
  EXPECT_EQ(countOps(out.model, "FusedConvInteger"), 1);
  EXPECT_EQ(countOps(out.model, "Add"), 1);
  EXPECT_EQ(countOps(out.model, "Relu"), 1);  // the activation follows the Add, not the fused node
  EXPECT_EQ(findOp(out.model, "FusedConvInteger")->inputCount(), 5u);
}

TEST(FuseConvIntegerEpilogue, Converges) {
  expectConverges(kPass, model({}));
}

TEST(FuseConvIntegerEpilogue, LeavesACastToDouble) {
  expectUnchanged(kPass, model({.act = "", .castTo = 11}), "not to float32");
}

TEST(FuseConvIntegerEpilogue, LeavesAScaleThatBroadcastsOverTheWidth) {
  // ws [4] lines up with the last axis (width 4 here), not the channels.
  expectUnchanged(
      kPass,
      model({.scaleDims = "[4]", .convAttrs = "<pads = [0, 0, 0, 0]>", .outDims = "[1,4,4,4]"}),
      "not float32 with one value or one per output channel");
}

TEST(FuseConvIntegerEpilogue, LeavesACastResultReadElsewhere) {
  expectUnchanged(kPass, model({.extraOut = ", float[1,4,6,6] c"}));
}

}  // namespace
}  // namespace passlab::testing
