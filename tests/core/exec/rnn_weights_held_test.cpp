// Recurrent layers on float16 and bfloat16 (rnn.cpp, computed in float): an
// invariant R held packed and an invariant W held converted to float serve
// every later run, so both originals are freed once the first run holds them
// (KernelContext::holdsOwnCopy); a run with a batch off the packed path reads
// R unpacked from the held copy. Outputs are byte-identical to an executor
// that frees nothing, and within float16 rounding of the float32 layer on the
// same (rounded) weights. A float32 W is read as stored and stays.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>

#include "core/exec/executor.h"
#include "core/support/float16.h"
#include "tests/core/exec/exec_test_util.h"

namespace passlab::exec {
namespace {

constexpr int64_t kT = 5, kI = 16, kH = 32;

// `v` rounded to `dtype` (float16 or bfloat16), as float.
float rounded(float v, ir::DataType dtype) {
  return dtype == ir::DataType::kFloat16 ? halfToFloat(floatToHalf(v))
                                         : bfloat16ToFloat(floatToBfloat16(v));
}

// `count` seeded values in [-0.5, 0.5), rounded to `dtype` (so the float32
// layer gets the same weights), as the text format's "{a, b, ...}" (9
// significant digits: exact).
std::string reals(int64_t count, uint32_t seed, ir::DataType dtype) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-0.5f, 0.5f);
  std::string s = "{";
  char buf[32];
  for (int64_t i = 0; i < count; ++i) {
    std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(rounded(u(rng), dtype)));
    s += (i ? ", " : "") + std::string(buf);
  }
  return s + "}";
}

// A bidirectional `op` (gates 4: LSTM, 3: GRU) over x [5, N, 16], hidden
// 32, with W, R and B rounded to `narrow`: float initializers, Cast to
// `type` when that is not "float" (the text format writes no float16
// constants; the Casts are constant-only steps whose outputs the executor
// keeps, kept_values.h).
std::string model(const std::string& op, int64_t gates, const std::string& type,
                  ir::DataType narrow) {
  const std::string gh = std::to_string(gates * kH);
  const bool cast = type != "float";
  const std::string to = type == "float16" ? "10" : "16";
  std::string body;
  if (cast)
    for (const char* v : {"w", "r", "b"})
      body += std::string("  ") + v + "n = Cast <to = " + to + "> (" + v + ")\n";
  const std::string args = cast ? "(x, wn, rn, bn)" : "(x, w, r, b)";
  return "<ir_version: 8, opset_import: [\"\" : 14]>\nmain (" + type + "[5,N,16] x) => (" + type +
         "[5,2,N,32] y, " + type + "[2,N,32] yh) <float[2," + gh +
         ",16] w = " + reals(2 * gates * kH * kI, 1, narrow) + ", float[2," + gh +
         ",32] r = " + reals(2 * gates * kH * kH, 2, narrow) + ", float[2," +
         std::to_string(2 * gates * kH) + "] b = " + reals(4 * gates * kH, 3, narrow) + "> {\n" +
         body + "  " + (op == "LSTM" ? "y, yh, yc" : "y, yh") + " = " + op +
         " <hidden_size = 32, direction = \"bidirectional\"> " + args + "\n}";
}

std::unique_ptr<Executor> make(const std::string& text, bool keep) {
  ExecutorOptions opts;
  opts.keepConstantSteps = keep;
  auto ex = Executor::create(testutil::parseModel(text), opts);
  EXPECT_TRUE(ex) << (ex ? "" : ex.error().message());
  return ex ? std::move(ex).value() : nullptr;
}

RunResult run(Executor& ex, const NamedInputs& in) {
  auto r = ex.run(in);
  EXPECT_TRUE(r) << (r ? "" : r.error().message());
  return r ? std::move(r).value() : RunResult{};
}

// x [5, n, 16] of element type `dtype` (float16 or bfloat16), seeded.
ir::Tensor input(ir::DataType dtype, int64_t n, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<uint16_t> x(static_cast<size_t>(kT * n * kI));
  for (uint16_t& v : x)
    v = dtype == ir::DataType::kFloat16 ? floatToHalf(u(rng)) : floatToBfloat16(u(rng));
  return ir::Tensor::fromVector<uint16_t>(dtype, {kT, n, kI}, x);
}

float valueAt(const ir::Tensor& t, size_t i) {
  if (t.dtype() == ir::DataType::kFloat) {
    float f;
    std::memcpy(&f, t.bytes().data() + 4 * i, 4);
    return f;
  }
  uint16_t h;
  std::memcpy(&h, t.bytes().data() + 2 * i, 2);
  return t.dtype() == ir::DataType::kFloat16 ? halfToFloat(h) : bfloat16ToFloat(h);
}

void expectWeightsHeld(const std::string& op, int64_t gates, const std::string& type,
                       ir::DataType dtype, float tolerance) {
  const std::string text = model(op, gates, type, dtype);
  auto kept = make(text, true);
  auto every = make(text, false);
  auto wide = make(model(op, gates, "float", dtype), true);  // the float32 layer
  ASSERT_TRUE(kept && every && wide);
  // Freed: the narrow W and R (kept Cast outputs the layer holds) and the
  // float initializers the Casts read (they do not run again); the narrow B
  // is read as stored and stays.
  const auto w = static_cast<uint64_t>(2 * gates * kH * kI);
  const auto r = static_cast<uint64_t>(2 * gates * kH * kH);
  const auto b = static_cast<uint64_t>(4 * gates * kH);
  const uint64_t weightBytes = 2 * (w + r) + 4 * (w + r + b);
  std::mt19937 rng(11);
  // 1 and 2 run on the packed R; 6 reads R as stored (unpacked from it).
  for (int64_t n : {1, 6, 2, 1, 6}) {
    SCOPED_TRACE(op + " " + type + ", batch " + std::to_string(n));
    ir::Tensor x = input(dtype, n, rng);
    std::vector<float> xf(static_cast<size_t>(x.numel()));
    for (size_t i = 0; i < xf.size(); ++i) xf[i] = valueAt(x, i);
    RunResult got = run(*kept, {{"x", x}});
    RunResult want = run(*every, {{"x", x}});
    RunResult ref = run(*wide, {{"x", testutil::floats({kT, n, kI}, xf)}});
    ASSERT_EQ(got.outputs.size(), 2u);
    ASSERT_EQ(want.outputs.size(), 2u);
    ASSERT_EQ(ref.outputs.size(), 2u);
    for (size_t o = 0; o < 2; ++o) {
      ASSERT_EQ(got.outputs[o].bytes().size(), want.outputs[o].bytes().size());
      EXPECT_EQ(std::memcmp(got.outputs[o].bytes().data(), want.outputs[o].bytes().data(),
                            got.outputs[o].bytes().size()),
                0)
          << "output " << o;
      ASSERT_EQ(got.outputs[o].numel(), ref.outputs[o].numel());
      float worst = 0;
      for (size_t i = 0; i < static_cast<size_t>(ref.outputs[o].numel()); ++i)
        worst = std::max(worst, std::abs(valueAt(got.outputs[o], i) - valueAt(ref.outputs[o], i)));
      EXPECT_LE(worst, tolerance) << "output " << o;
      EXPECT_GT(worst, 0.0f) << "output " << o << " (the narrow type rounds)";
    }
    // W and R go once the first run (batch 1) held them; B is read as stored.
    EXPECT_EQ(got.memory.keptFreedBytes, weightBytes);
    EXPECT_EQ(want.memory.keptFreedBytes, 0u);
  }
  // The float32 layer frees R (packed) but not W (read as stored).
  RunResult f = run(*wide, {{"x", testutil::floats({kT, 1, kI}, std::vector<float>(kT * kI))}});
  EXPECT_EQ(f.memory.keptFreedBytes, static_cast<uint64_t>(2 * gates * kH * kH * 4));
}

TEST(RnnWeightsHeld, Float16LstmHoldsWAndR) {
  expectWeightsHeld("LSTM", 4, "float16", ir::DataType::kFloat16, 2e-3f);
}

TEST(RnnWeightsHeld, Float16GruHoldsWAndR) {
  expectWeightsHeld("GRU", 3, "float16", ir::DataType::kFloat16, 2e-3f);
}

TEST(RnnWeightsHeld, Bfloat16LstmHoldsWAndR) {
  expectWeightsHeld("LSTM", 4, "bfloat16", ir::DataType::kBFloat16, 1.6e-2f);
}

}  // namespace
}  // namespace passlab::exec
