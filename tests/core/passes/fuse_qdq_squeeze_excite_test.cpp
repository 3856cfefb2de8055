// fuse_qdq_squeeze_excite: f(DQ(xq)) -> GlobalAveragePool -> Q -> QLinearConv ->
// QLinearConv -> DQ -> HardSigmoid -> Mul -> Q into ai.passlab
// QLinearSqueezeExcite. Structural (one node, the block's nodes gone, the
// table, weights, biases and clips as the formulas give them), numeric (the
// CPU executor's output against the unfused QLinear form on random inputs:
// within 3 quantization steps everywhere and 1 step on average, uint8 and
// int8, HardSwish / Relu / no activation, NCHW with GlobalAveragePool and
// NHWC with ReduceMean and com.microsoft QLinearConv), convergence, and the
// blocks it must leave (the scaled tensor read elsewhere, a gate that is not
// HardSigmoid, a grouped convolution, a per-channel input scale).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/exec/executor.h"
#include "core/io/text_format.h"
#include "tests/support/pass_harness.h"
#include "tests/support/test_support.h"

namespace passlab::testing {
namespace {

const char* kPass = "fuse_qdq_squeeze_excite";

struct Block {
  std::string xType = "uint8";
  std::string act = "HardSwish";  // "" for none
  bool last = false;              // NHWC: ReduceMean and com.microsoft QLinearConv
  std::string gate = "HardSigmoid";
  std::string sx = "{0.05}";  // the input's DequantizeLinear scale
  int group = 1;
  std::string extraOut;  // more graph outputs
};

std::string shape(const Block& b) {
  return b.last ? "[2,3,5,4]" : "[2,4,3,5]";
}

std::string text(const Block& b) {
  const bool s8 = b.xType == "int8";
  const std::string zx = s8 ? "3" : "128";
  const std::string w1 = b.group == 1 ? "int8[2,4,1,1] w1 = {40, -25, 13, 60, -50, 31, 22, -7}"
                                      : "int8[2,2,1,1] w1 = {40, -25, 13, 60}";
  const std::string h = b.act.empty() ? "d" : "h";
  const std::string conv = b.last ? "com.microsoft.QLinearConv <channels_last = 1>" : "QLinearConv";
  const std::string conv1 =
      b.last
          ? "com.microsoft.QLinearConv <channels_last = 1, group = " + std::to_string(b.group) + ">"
          : "QLinearConv <group = " + std::to_string(b.group) + ">";
  const std::string pool = b.last ? "ReduceMean <axes = [1, 2], keepdims = 1> (" + h + ")"
                                  : "GlobalAveragePool(" + h + ")";
  return R"(<ir_version: 8, opset_import: ["" : 14, "com.microsoft" : 1]>
main ()" +
         b.xType + shape(b) + " x) => (" + b.xType + shape(b) + " y" + b.extraOut +
         R"()
    <float)" +
         (b.sx.find(',') == std::string::npos ? "" : "[4]") + " sx = " + b.sx + ", " + b.xType +
         " zx = {" + zx + R"(},
     float sg = {0.02}, uint8 zg = {100},
     )" + w1 +
         R"(, float[2] w1s = {0.01, 0.02}, int8[2] w1z = {0, 0},
     float st = {0.03}, uint8 zt = {0}, int32[2] b1 = {50, -20},
     int8[4,2,1,1] w2 = {50, -30, 20, 45, -60, 10, 33, -41}, float[4] w2s = {0.02, 0.015, 0.025, 0.02},
     int8[4] w2z = {0, 0, 0, 0}, float su = {0.04}, uint8 zu = {128}, int32[4] b2 = {300, -100, 0, 150},
     float sy = {0.03}, )" +
         b.xType + " zy = {" + (s8 ? "-100" : "10") + R"(}> {
    d = DequantizeLinear(x, sx, zx)
    )" + (b.act.empty() ? "" : "h = " + b.act + "(d)\n    ") +
         "g = " + pool + R"(
    gq = QuantizeLinear(g, sg, zg)
    t = )" +
         conv1 + R"((gq, sg, zg, w1, w1s, w1z, st, zt, b1)
    u = )" +
         conv + R"((t, st, zt, w2, w2s, w2z, su, zu, b2)
    ud = DequantizeLinear(u, su, zu)
    s = )" +
         b.gate + R"((ud)
    m = Mul()" +
         h + R"(, s)
    y = QuantizeLinear(m, sy, zy) })";
}

std::vector<int> outputInts(const ir::Model& m, const Block& b, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> bytes(2 * 4 * 3 * 5);
  for (auto& v : bytes) v = static_cast<uint8_t>(rng() & 0xff);
  const std::vector<int64_t> dims =
      b.last ? std::vector<int64_t>{2, 3, 5, 4} : std::vector<int64_t>{2, 4, 3, 5};
  const bool s8 = b.xType == "int8";
  ir::Tensor in =
      ir::Tensor::fromVector<uint8_t>(s8 ? ir::DataType::kInt8 : ir::DataType::kUInt8, dims, bytes);
  auto ex = exec::Executor::create(m, {});
  EXPECT_TRUE(ex) << (ex ? "" : ex.error().message());
  if (!ex) return {};
  auto r = (*ex)->run({{"x", exec::Value(std::move(in))}});
  EXPECT_TRUE(r) << (r ? "" : r.error().message());
  if (!r) return {};
  std::vector<int> y;
  const ir::Tensor& t = r->outputs[0];
  for (int64_t i = 0; i < t.numel(); ++i) y.push_back(static_cast<int>(t.valueAsInt64(i)));
  return y;
}

// After against before on random inputs: every element within 3 steps, 1 on average.
void expectNearTheQdqForm(const Block& b) {
  const std::string t = text(b);
  auto before = io::parseModelText(t);
  ASSERT_TRUE(before) << before.error().message();
  PassOutcome after = runPass(kPass, t);
  ASSERT_EQ(countOps(after.model, "QLinearSqueezeExcite"), 1) << t;
  for (unsigned seed = 1; seed <= 4; ++seed) {
    const std::vector<int> want = outputInts(*before, b, seed),
                           got = outputInts(after.model, b, seed);
    ASSERT_EQ(got.size(), want.size());
    ASSERT_FALSE(got.empty());
    int most = 0;
    double sum = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      most = std::max(most, std::abs(got[i] - want[i]));
      sum += std::abs(got[i] - want[i]);
    }
    EXPECT_LE(most, 3) << "seed " << seed;
    EXPECT_LE(sum / static_cast<double>(got.size()), 1.0) << "seed " << seed;
  }
}

TEST(FuseQdqSqueezeExcite, TheBlockBecomesOneNode) {
  PassOutcome out = runPass(kPass, text(Block{}));
  ASSERT_EQ(countOps(out.model, "QLinearSqueezeExcite"), 1);
  EXPECT_EQ(out.model.graph().nodes().size(), 1u);
  const ir::Node& n = *findOp(out.model, "QLinearSqueezeExcite");
  EXPECT_EQ(n.domain(), "ai.passlab");
  ASSERT_EQ(n.inputCount(), 8u);
  EXPECT_EQ(n.input(0)->name(), "x");
  EXPECT_EQ(n.attrInt("channels_last", -1), 0);
  // clip0: the pooled mean's range, (0 - 100) * 0.02 .. (255 - 100) * 0.02;
  // clip1: t's range, (0 - 0) * 0.03 .. (255 - 0) * 0.03; clip2: u's, (0 - 128) * 0.04 ..
  EXPECT_EQ(n.attrFloats("clip0"), (std::vector<float>{-100 * 0.02f, 155 * 0.02f}));
  EXPECT_EQ(n.attrFloats("clip1"), (std::vector<float>{0.0f, 255 * 0.03f}));
  EXPECT_EQ(n.attrFloats("clip2"), (std::vector<float>{-128 * 0.04f, 127 * 0.04f}));
  EXPECT_FLOAT_EQ(n.attrFloat("alpha", 0), 0.2f);
  // Table[v] = HardSwish((v - 128) * 0.05): v = 128 -> 0, v = 255 -> 6.35.
  const ir::Tensor* table = n.input(1)->initializer();
  ASSERT_NE(table, nullptr);
  ASSERT_EQ(table->numel(), 256);
  EXPECT_EQ(table->valueAsDouble(128), 0.0);
  EXPECT_FLOAT_EQ(static_cast<float>(table->valueAsDouble(255)), 6.35f);
  EXPECT_FLOAT_EQ(static_cast<float>(table->valueAsDouble(0)), 0.0f);  // -6.4: HardSwish 0
  // W1 = w1 * w1s[m], B1 = b1 * sg * w1s[m].
  const ir::Tensor* w1 = n.input(2)->initializer();
  const ir::Tensor* b1 = n.input(3)->initializer();
  ASSERT_NE(w1, nullptr);
  ASSERT_NE(b1, nullptr);
  EXPECT_EQ(w1->dims(), (std::vector<int64_t>{2, 4}));
  EXPECT_FLOAT_EQ(static_cast<float>(w1->valueAsDouble(0)), 0.4f);
  EXPECT_FLOAT_EQ(static_cast<float>(w1->valueAsDouble(4)), -1.0f);
  EXPECT_FLOAT_EQ(static_cast<float>(b1->valueAsDouble(1)), -20 * 0.02f * 0.02f);
  EXPECT_EQ(n.input(6)->name(), "sy");
}

TEST(FuseQdqSqueezeExcite, WithinThreeStepsOfTheQLinearForm) {
  for (const char* act : {"HardSwish", "Relu", ""})
    for (const char* type : {"uint8", "int8"}) {
      SCOPED_TRACE(std::string(act) + " " + type);
      Block b;
      b.act = act, b.xType = type;
      expectNearTheQdqForm(b);
    }
}

TEST(FuseQdqSqueezeExcite, ChannelsLastBlockWithReduceMean) {
  Block b;
  b.last = true;
  PassOutcome out = runPass(kPass, text(b));
  const ir::Node* n = findOp(out.model, "QLinearSqueezeExcite");
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->attrInt("channels_last", -1), 1);
  expectNearTheQdqForm(b);
}

TEST(FuseQdqSqueezeExcite, Converges) {
  expectConverges(kPass, text(Block{}));
}

TEST(FuseQdqSqueezeExcite, LeavesAScaledTensorReadElsewhere) {
  Block b;
  b.extraOut = ", float[2,4,3,5] h";
  expectUnchanged(kPass, text(b), "other readers");
}

TEST(FuseQdqSqueezeExcite, LeavesAGateThatIsNotHardSigmoid) {
  Block b;
  b.gate = "Sigmoid";
  expectUnchanged(kPass, text(b), "HardSigmoid gate");
}

TEST(FuseQdqSqueezeExcite, LeavesAGroupedConvolution) {
  Block b;
  b.group = 2;
  expectUnchanged(kPass, text(b), "grouped");
}

TEST(FuseQdqSqueezeExcite, LeavesAPerChannelInputScale) {
  Block b;
  b.sx = "{0.05, 0.04, 0.03, 0.05}";
  expectUnchanged(kPass, text(b), "one constant scale and zero point");
}

}  // namespace
}  // namespace passlab::testing
