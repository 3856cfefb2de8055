// fuse_qdq_squeeze_excite_exact: the channels-last block f(DQ(xq)) ->
// ReduceMean(axes 1, 2) -> Q -> QLinearConv -> QLinearConv -> DQ ->
// HardSigmoid -> Mul -> Q into ai.passlab QLinearSqueezeExcite <exact = 1>.
// Structural (one node, 16 inputs: the table, the int8 weights as [M, C], the
// int32 biases, the block's own scales and zero points), numeric (the CPU
// executor's bytes equal the unfused form's on random inputs: uint8 / int8,
// HardSwish / Relu / none, 4 and 37 channels (AVX-512 tails), per-channel
// weight scales, no bias, the AVX-512 VBMI widths 8-200; run the binary
// under PASSLAB_MAX_ISA=avx2 and sse2 for the other paths), convergence, the
// fused level running it, and the blocks it must leave (NCHW
// GlobalAveragePool, a weight zero point not 0, a per-channel input scale, a
// float intermediate read elsewhere, an 8-bit intermediate that is a graph
// output) and the kernel's errors.
#include <gtest/gtest.h>

#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <random>

#include "core/exec/executor.h"
#include "core/io/text_format.h"
#include "core/passes/registry.h"
#include "tests/support/pass_harness.h"
#include "tests/support/test_support.h"

namespace passlab::testing {
namespace {

const char* kPass = "fuse_qdq_squeeze_excite_exact";

struct Block {
  std::string xType = "uint8";
  std::string act = "HardSwish";  // "" for none
  int c = 4, c1 = 2, h = 3, w = 5;
  bool last = true;         // false: NCHW GlobalAveragePool
  bool perChannelW = true;  // per-channel weight scales
  bool bias = true;
  std::string w1z = "0";      // the first convolution's weight zero point (each)
  std::string sx = "{0.05}";  // the input's DequantizeLinear scale
  std::string extraOut;       // more graph outputs
  unsigned seed = 7;          // the weights
  std::string sy = "{0.03}";  // the output's scale
  std::string zy;             // the output's zero point ("": -100 for int8, 10 for uint8)
  bool zeroW2 = false;        // W2 and B2 all 0: the gate is HardSigmoid(0) = 0.5 exactly
};

std::string list(const std::vector<int>& v) {
  std::string s = "{";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "}";
}

std::string floats(int n, float base, float step) {
  std::string s = "{";
  for (int i = 0; i < n; ++i) s += (i ? ", " : "") + std::to_string(base + step * (i % 5));
  return s + "}";
}

std::string dims(const Block& b) {
  return b.last ? "[2," + std::to_string(b.h) + "," + std::to_string(b.w) + "," +
                      std::to_string(b.c) + "]"
                : "[2," + std::to_string(b.c) + "," + std::to_string(b.h) + "," +
                      std::to_string(b.w) + "]";
}

std::string text(const Block& b) {
  std::mt19937 rng(b.seed);
  auto ints = [&](int n, int lo, int hi) {
    std::vector<int> v(static_cast<size_t>(n));
    for (int& x : v) x = lo + static_cast<int>(rng() % static_cast<unsigned>(hi - lo + 1));
    return v;
  };
  const bool s8 = b.xType == "int8";
  const std::string C = std::to_string(b.c), C1 = std::to_string(b.c1);
  const std::string hv = b.act.empty() ? "d" : "h";
  const std::string conv = b.last ? "com.microsoft.QLinearConv <channels_last = 1>" : "QLinearConv";
  const std::string pool = b.last ? "ReduceMean <axes = [1, 2], keepdims = 1> (" + hv + ")"
                                  : "GlobalAveragePool(" + hv + ")";
  const std::string w1s = b.perChannelW ? "float[" + C1 + "] w1s = " + floats(b.c1, 0.004f, 0.001f)
                                        : "float w1s = {0.005}";
  const std::string w2s = b.perChannelW ? "float[" + C + "] w2s = " + floats(b.c, 0.006f, 0.001f)
                                        : "float w2s = {0.007}";
  std::string w1z = "{";
  for (int i = 0; i < b.c1; ++i) w1z += (i ? ", " : "") + (i == 0 ? b.w1z : std::string("0"));
  w1z += "}";
  const std::string b1 = b.bias ? ", b1" : "", b2 = b.bias ? ", b2" : "";
  return R"(<ir_version: 8, opset_import: ["" : 14, "com.microsoft" : 1]>
main ()" +
         b.xType + dims(b) + " x) => (" + b.xType + dims(b) + " y" + b.extraOut + R"()
    <float)" +
         (b.sx.find(',') == std::string::npos ? "" : "[" + C + "]") + " sx = " + b.sx + ", " +
         b.xType + " zx = {" + (s8 ? "3" : "128") + R"(},
     float sg = {0.02}, uint8 zg = {100},
     int8[)" +
         C1 + "," + C + ",1,1] w1 = " + list(ints(b.c1 * b.c, -127, 127)) + ", " + w1s + ", int8[" +
         C1 + "] w1z = " + w1z + R"(,
     float st = {0.03}, uint8 zt = {0}, int32[)" +
         C1 + "] b1 = " + list(ints(b.c1, -400, 400)) + ",\n     int8[" + C + "," + C1 +
         ",1,1] w2 = " +
         list(b.zeroW2 ? std::vector<int>(b.c * b.c1, 0) : ints(b.c * b.c1, -127, 127)) + ", " +
         w2s + ", int8[" + C + "] w2z = " + list(std::vector<int>(b.c, 0)) +
         ", float su = {0.04}, uint8 zu = {128}, int32[" + C +
         "] b2 = " + list(b.zeroW2 ? std::vector<int>(b.c, 0) : ints(b.c, -300, 300)) +
         ",\n     float sy = " + b.sy + ", " + b.xType + " zy = {" +
         (!b.zy.empty() ? b.zy
          : s8          ? "-100"
                        : "10") +
         R"(}> {
    d = DequantizeLinear(x, sx, zx)
    )" + (b.act.empty() ? "" : "h = " + b.act + "(d)\n    ") +
         "g = " + pool + R"(
    gq = QuantizeLinear(g, sg, zg)
    t = )" +
         conv + "(gq, sg, zg, w1, w1s, w1z, st, zt" + b1 + R"()
    u = )" +
         conv + "(t, st, zt, w2, w2s, w2z, su, zu" + b2 + R"()
    ud = DequantizeLinear(u, su, zu)
    s = HardSigmoid(ud)
    m = Mul()" +
         hv + R"(, s)
    y = QuantizeLinear(m, sy, zy) })";
}

// Output 0's bytes for random x (seed), on `threads` (0: every core).
std::vector<uint8_t> outputBytes(const ir::Model& m, const Block& b, unsigned seed,
                                 int threads = 0) {
  std::mt19937 rng(seed);
  const int64_t n = 2LL * b.c * b.h * b.w;
  std::vector<uint8_t> bytes(static_cast<size_t>(n));
  for (auto& v : bytes) v = static_cast<uint8_t>(rng() & 0xff);
  const std::vector<int64_t> d =
      b.last ? std::vector<int64_t>{2, b.h, b.w, b.c} : std::vector<int64_t>{2, b.c, b.h, b.w};
  ir::Tensor in = ir::Tensor::fromVector<uint8_t>(
      b.xType == "int8" ? ir::DataType::kInt8 : ir::DataType::kUInt8, d, bytes);
  auto ex = exec::Executor::create(m, {});
  EXPECT_TRUE(ex) << (ex ? "" : ex.error().message());
  if (!ex) return {};
  exec::RunOptions options;
  options.threads = threads;
  auto r = (*ex)->run({{"x", exec::Value(std::move(in))}}, options);
  EXPECT_TRUE(r) << (r ? "" : r.error().message());
  if (!r) return {};
  const ir::Tensor& t = r->outputs[0];
  std::vector<uint8_t> y;
  for (int64_t i = 0; i < t.numel(); ++i) y.push_back(static_cast<uint8_t>(t.valueAsInt64(i)));
  return y;
}

// After against before on random inputs, byte for byte; the output varies
// (unless `varied` is false).
void expectTheQdqFormsBytes(const Block& b, bool varied = true) {
  const std::string t = text(b);
  auto before = io::parseModelText(t);
  ASSERT_TRUE(before) << before.error().message();
  PassOutcome after = runPass(kPass, t);
  ASSERT_EQ(countOps(after.model, "QLinearSqueezeExcite"), 1) << t;
  for (unsigned seed = 1; seed <= 6; ++seed) {
    const std::vector<uint8_t> want = outputBytes(*before, b, seed),
                               got = outputBytes(after.model, b, seed);
    ASSERT_FALSE(want.empty());
    EXPECT_EQ(got, want) << "seed " << seed;
    int distinct = 0;
    for (size_t i = 1; i < want.size(); ++i) distinct += want[i] != want[0];
    if (varied)
      EXPECT_GT(distinct, static_cast<int>(want.size() / 4)) << "a saturated output tests little";
  }
}

TEST(FuseQdqSqueezeExciteExact, TheBlockBecomesOneExactNode) {
  PassOutcome out = runPass(kPass, text(Block{}));
  ASSERT_EQ(countOps(out.model, "QLinearSqueezeExcite"), 1);
  EXPECT_EQ(out.model.graph().nodes().size(), 1u);
  const ir::Node& n = *findOp(out.model, "QLinearSqueezeExcite");
  EXPECT_EQ(n.domain(), "ai.passlab");
  EXPECT_EQ(n.attrInt("exact", 0), 1);
  EXPECT_EQ(n.attrInt("channels_last", 0), 1);
  EXPECT_TRUE(n.attrFloats("clip0").empty());
  ASSERT_EQ(n.inputCount(), 16u);
  EXPECT_EQ(n.input(0)->name(), "x");
  const std::vector<std::string> names = {"sy", "zy", "sg",  "zg", "w1s",
                                          "st", "zt", "w2s", "su", "zu"};
  for (size_t i = 0; i < names.size(); ++i) EXPECT_EQ(n.input(6 + i)->name(), names[i]) << i;
  // Table[v] = HardSwish((v - 128) * 0.05) as the executor computes it.
  const ir::Tensor* table = n.input(1)->initializer();
  ASSERT_NE(table, nullptr);
  ASSERT_EQ(table->numel(), 256);
  EXPECT_EQ(table->valueAsDouble(128), 0.0);
  const float v = (200.0f - 128.0f) * 0.05f;
  EXPECT_EQ(static_cast<float>(table->valueAsDouble(200)), v * std::min(1.0f, v / 6.0f + 0.5f));
  // The weights as int8 [M, C], the biases int32, the values unchanged.
  const ir::Tensor* w1 = n.input(2)->initializer();
  const ir::Tensor* b2 = n.input(5)->initializer();
  ASSERT_NE(w1, nullptr);
  ASSERT_NE(b2, nullptr);
  EXPECT_EQ(w1->dtype(), ir::DataType::kInt8);
  EXPECT_EQ(w1->dims(), (std::vector<int64_t>{2, 4}));
  EXPECT_EQ(b2->dtype(), ir::DataType::kInt32);
  EXPECT_EQ(b2->dims(), (std::vector<int64_t>{4}));
}

TEST(FuseQdqSqueezeExciteExact, TheQdqFormsBytes) {
  for (const char* act : {"HardSwish", "Relu", ""})
    for (const char* type : {"uint8", "int8"}) {
      SCOPED_TRACE(std::string(act) + " " + type);
      Block b;
      b.act = act, b.xType = type;
      expectTheQdqFormsBytes(b);
    }
}

TEST(FuseQdqSqueezeExciteExact, TheQdqFormsBytesOnWiderBlocks) {
  for (bool perChannel : {true, false}) {
    SCOPED_TRACE(perChannel ? "per-channel weight scales" : "per-tensor, no biases");
    Block b;
    b.c = 37, b.c1 = 9, b.h = 7, b.w = 6, b.seed = 11;
    b.perChannelW = perChannel, b.bias = perChannel;
    expectTheQdqFormsBytes(b);
  }
}

// The kernel's AVX-512 VBMI paths (passlab_squeeze_excite_exact.cpp): 8, 16
// and 32 channels 64 bytes (several positions) at a time, with a partial
// last chunk; 64-channel blocks, whole and masked (33, 104: 40 of 64), with
// the 16-channel loop for what is left (88: 24, 200: 8).
TEST(FuseQdqSqueezeExciteExact, TheQdqFormsBytesOnTheVbmiWidths) {
  struct Shape {
    int c, c1, h, w;
    const char* type;
  };
  for (const Shape& s :
       {Shape{8, 2, 3, 5, "uint8"}, Shape{16, 4, 7, 3, "int8"}, Shape{32, 8, 5, 5, "uint8"},
        Shape{33, 9, 4, 3, "int8"}, Shape{64, 16, 3, 3, "uint8"}, Shape{88, 22, 3, 4, "uint8"},
        Shape{104, 26, 2, 5, "int8"}, Shape{200, 50, 2, 3, "uint8"}}) {
    SCOPED_TRACE(std::to_string(s.c) + " channels, " + std::to_string(s.h * s.w) + " positions");
    Block b;
    b.c = s.c, b.c1 = s.c1, b.h = s.h, b.w = s.w, b.xType = s.type, b.seed = 13;
    expectTheQdqFormsBytes(b);
  }
}

// The last QuantizeLinear at ties: no activation, the gate 0.5 exactly,
// x_scale = y_scale = 0.25, so h * s / y_scale = (x - zx) / 2, half an
// integer for every odd x - zx; rounded half to even, then + y_zero_point
// (odd and even: the kernel's division-free form adds it before rounding
// and must send these lanes to the division). The output's bytes as the
// QDQ form's.
TEST(FuseQdqSqueezeExciteExact, TheQdqFormsBytesAtTies) {
  for (const char* type : {"uint8", "int8"})
    for (const char* zy : {"11", "-3", "0"}) {
      if (std::string(type) == "uint8" && zy[0] == '-') continue;
      SCOPED_TRACE(std::string(type) + ", y zero point " + zy);
      Block b;
      b.act = "", b.xType = type, b.zeroW2 = true, b.sx = "{0.25}", b.sy = "{0.25}", b.zy = zy;
      b.c = 40, b.c1 = 10, b.h = 5, b.w = 7;
      expectTheQdqFormsBytes(b);
    }
}

// Channel counts that are no multiple of 16 or 64 and positions that make
// the element count no multiple of 64 (the division-free loop's 64-element
// blocks and 16-lane tails, its per-channel constants' period lcm(C, 16)
// wrapping; the VBMI squeeze's blocks of 17-64 channels, 3 to 8 groups of
// 8 summed: 17, 28, 40, 48, 52, 120 = 64 + 56, 72 = 64 + 8), and scales that rule the division-free
// form out (y_scale so small that |h * s / y_scale| passes 2^21: every output saturates).
TEST(FuseQdqSqueezeExciteExact, TheQdqFormsBytesOnOddWidths) {
  struct Shape {
    int c, c1, h, w;
    const char* type;
  };
  for (const Shape& s :
       {Shape{3, 1, 7, 9, "uint8"}, Shape{17, 5, 9, 7, "int8"}, Shape{28, 7, 5, 9, "uint8"},
        Shape{40, 10, 7, 9, "uint8"}, Shape{48, 12, 5, 5, "int8"}, Shape{52, 13, 3, 7, "uint8"},
        Shape{72, 18, 5, 7, "int8"}, Shape{120, 30, 3, 5, "uint8"},
        Shape{200, 50, 3, 7, "uint8"}}) {
    SCOPED_TRACE(std::to_string(s.c) + " channels, " + std::to_string(s.h * s.w) + " positions");
    Block b;
    b.c = s.c, b.c1 = s.c1, b.h = s.h, b.w = s.w, b.xType = s.type, b.seed = 17;
    expectTheQdqFormsBytes(b);
    b.sy = "{0.000001}";
    expectTheQdqFormsBytes(b, false);
  }
}

// The last pass split over 2 threads (PASSLAB_SMALL_STEP_MICROS=0 splits
// every step): each thread scales its rows with this unit's plan. The plan
// lives in the calling thread's thread_local scratch; a lambda that names it
// reads each OpenMP thread's own, which on a worker that had run another
// unit (here on this thread's worker 1 first) held that unit's per-channel
// constants (d28da8e: 62018 of 172800 bytes wrong).
TEST(FuseQdqSqueezeExciteExact, EveryThreadScalesWithThisUnitsPlan) {
  ::setenv("PASSLAB_SMALL_STEP_MICROS", "0", 1);
  struct UnsetOnExit {
    ~UnsetOnExit() { ::unsetenv("PASSLAB_SMALL_STEP_MICROS"); }
  } unset;
  Block other, b;
  other.c = 72, other.c1 = 18, other.h = 6, other.w = 6, other.sy = "{0.011}", other.seed = 3;
  b.c = 24, b.c1 = 6, b.h = 60, b.w = 60, b.seed = 5;
  const PassOutcome fusedOther = runPass(kPass, text(other)), fused = runPass(kPass, text(b));
  ASSERT_EQ(countOps(fused.model, "QLinearSqueezeExcite"), 1);
  auto before = io::parseModelText(text(b));
  ASSERT_TRUE(before) << before.error().message();
  const std::vector<uint8_t> want = outputBytes(*before, b, 1, 1);
#pragma omp parallel num_threads(2)
  {
    if (omp_get_thread_num() == 1) (void)outputBytes(fusedOther.model, other, 2, 1);
  }
  const std::vector<uint8_t> got = outputBytes(fused.model, b, 1, 2);
  ASSERT_EQ(got.size(), want.size());
  size_t differ = 0;
  for (size_t i = 0; i < want.size(); ++i) differ += got[i] != want[i];
  EXPECT_EQ(differ, 0u) << "of " << want.size() << " bytes";
}

TEST(FuseQdqSqueezeExciteExact, Converges) {
  expectConverges(kPass, text(Block{}));
}

TEST(FuseQdqSqueezeExciteExact, TheFusedLevelRunsItAfterTheChannelsLastPass) {
  auto fused = passes::passesForLevel("fused");
  ASSERT_TRUE(fused);
  const std::vector<std::string>& p = *fused;
  auto at = std::find(p.begin(), p.end(), kPass);
  auto cl = std::find(p.begin(), p.end(), "convert_int8_to_channels_last");
  ASSERT_NE(at, p.end());
  ASSERT_NE(cl, p.end());
  EXPECT_LT(cl, at);
  auto gpu = passes::passesForLevel("fused_gpu");
  ASSERT_TRUE(gpu);
  EXPECT_EQ(std::find(gpu->begin(), gpu->end(), kPass), gpu->end());
  EXPECT_EQ(std::find(p.begin(), p.end(), "fuse_qdq_squeeze_excite"), p.end());
}

TEST(FuseQdqSqueezeExciteExact, LeavesTheNchwForm) {
  Block b;
  b.last = false;
  expectUnchanged(kPass, text(b), "channels-last");
}

TEST(FuseQdqSqueezeExciteExact, LeavesAWeightZeroPointThatIsNot0) {
  Block b;
  b.w1z = "2";
  expectUnchanged(kPass, text(b), "zero point is not 0");
}

TEST(FuseQdqSqueezeExciteExact, LeavesAPerChannelInputScale) {
  Block b;
  b.sx = "{0.05, 0.04, 0.03, 0.05}";
  expectUnchanged(kPass, text(b), "one constant scale and zero point");
}

TEST(FuseQdqSqueezeExciteExact, LeavesAFloatIntermediateReadElsewhere) {
  Block b;
  b.extraOut = ", float[2,1,1,4] g";
  expectUnchanged(kPass, text(b), "other readers");
}

TEST(FuseQdqSqueezeExciteExact, LeavesAnIntermediateThatIsAGraphOutput) {
  Block b;
  b.extraOut = ", uint8[2,1,1,2] t";
  expectUnchanged(kPass, text(b), "other readers");
}

// The kernel's errors: the NCHW form and weights of another type.
TEST(FuseQdqSqueezeExciteExact, TheKernelRefusesWhatItCannotDoExactly) {
  PassOutcome out = runPass(kPass, text(Block{}));
  ir::Node* n = const_cast<ir::Node*>(findOp(out.model, "QLinearSqueezeExcite"));
  ASSERT_NE(n, nullptr);
  n->setAttr(ir::Attribute::makeInt("channels_last", 0));
  auto ex = exec::Executor::create(out.model, {});
  std::string why = ex ? "" : ex.error().message();
  if (ex) {
    ir::Tensor in = ir::Tensor(ir::DataType::kUInt8, {2, 3, 5, 4});
    auto r = (*ex)->run({{"x", exec::Value(std::move(in))}});
    ASSERT_FALSE(r);
    why = r.error().message();
  }
  EXPECT_NE(why.find("only the channels-last form"), std::string::npos) << why;
}

}  // namespace
}  // namespace passlab::testing
