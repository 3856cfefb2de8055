// LSTM and GRU (rnn.cpp) hold an invariant R packed for every direction
// (KernelContext::holdsOwnCopy): an initializer R is released after a run
// that packed it, and later runs, a batch too large for the packed path
// (which reads R unpacked from the held copy) included, give the bytes of an
// executor that keeps nothing (which reads R as stored).
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/exec/executor.h"
#include "tests/core/exec/exec_test_util.h"
#include "tests/core/exec/kept_values_test_util.h"

namespace passlab::exec {
namespace {

using keptvalues::make;
using keptvalues::run;

// `count` seeded floats in [-0.5, 0.5) as the text format's "{a, b, ...}".
std::string reals(int64_t count, uint32_t seed) {
  return keptvalues::reals(count, -0.5f, 0.5f, seed);
}

constexpr int64_t kT = 5, kI = 16, kH = 32;

// A bidirectional `op` (gates 4: LSTM, 3: GRU) over x [5, N, 16], hidden 32.
std::string model(const std::string& op, int64_t gates) {
  const std::string gh = std::to_string(gates * kH), outs = op == "LSTM" ? "y, yh, yc" : "y, yh";
  return R"(<ir_version: 8, opset_import: ["" : 14]>
main (float[5,N,16] x) => (float[5,2,N,32] y, float[2,N,32] yh) <float[2,)" +
         gh + ",16] w = " + reals(2 * gates * kH * kI, 1) + ", float[2," + gh +
         ",32] r = " + reals(2 * gates * kH * kH, 2) + ", float[2," +
         std::to_string(2 * gates * kH) + "] b = " + reals(4 * gates * kH, 3) + R"(> {
  )" + outs +
         " = " + op +
         R"( <hidden_size = 32, direction = "bidirectional"> (x, w, r, b)
})";
}

void expectRHeldAndServing(const std::string& op, int64_t gates) {
  const std::string text = model(op, gates);
  auto kept = make(text, true);
  auto every = make(text, false);
  ASSERT_TRUE(kept && every);
  const uint64_t rBytes = static_cast<uint64_t>(2 * gates * kH * kH * 4);
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  // 1 and 2 run on the packed R; 6 on R as stored (here: unpacked).
  for (int64_t n : {1, 6, 2, 1, 6}) {
    std::vector<float> x(static_cast<size_t>(kT * n * kI));
    for (float& v : x) v = u(rng);
    NamedInputs in = {{"x", testutil::floats({kT, n, kI}, x)}};
    RunResult got = run(*kept, in);
    RunResult want = run(*every, in);
    ASSERT_EQ(got.outputs.size(), 2u);
    ASSERT_EQ(want.outputs.size(), 2u);
    for (size_t i = 0; i < 2; ++i) {
      ASSERT_EQ(got.outputs[i].bytes().size(), want.outputs[i].bytes().size());
      EXPECT_EQ(std::memcmp(got.outputs[i].bytes().data(), want.outputs[i].bytes().data(),
                            got.outputs[i].bytes().size()),
                0)
          << op << ", batch " << n << ", output " << i;
    }
    // R goes once the first run (batch 1) packed it; W and B are read as stored.
    EXPECT_EQ(got.memory.keptFreedBytes, rBytes) << op << ", batch " << n;
    EXPECT_EQ(want.memory.keptFreedBytes, 0u);
  }
}

TEST(KeptValuesFreedRnn, LstmHoldsRPacked) {
  expectRHeldAndServing("LSTM", 4);
}

TEST(KeptValuesFreedRnn, GruHoldsRPacked) {
  expectRHeldAndServing("GRU", 3);
}

}  // namespace
}  // namespace passlab::exec
