// The exact QLinearMatMul (qlinear_matmul_int32.h: uint8 B, or int8 B with
// zero points other than 0) on Int32MatMul: a constant B packed and summed
// once is held across plans for other row counts, so the kernel says
// holdsOwnCopy and the executor frees B; outputs bit for bit the reference
// kernel's and an executor's that keeps nothing. (Int32MatMul runs only where
// int8 dot products are exact; elsewhere nothing is freed.)
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "core/exec/cpu/qlinear_onednn_requantization.h"
#include "core/exec/executor.h"
#include "tests/core/exec/exec_test_util.h"
#include "tests/core/exec/kept_values_test_util.h"

namespace passlab::exec {
namespace {

using keptvalues::make;
using keptvalues::run;

constexpr int64_t kK = 128, kN = 96;

// y = QLinearMatMul(a [R,128] uint8, b [128,96] of `bType` with zero point
// `bZero`).
std::string model(const std::string& bType, int bLo, int bHi, int bZero) {
  return std::string(R"(<ir_version: 8, opset_import: ["" : 13]>
main (uint8[R,128] a) => (uint8[R,96] y) <)") +
         bType + "[128,96] b = " + keptvalues::ints(kK * kN, bLo, bHi, 5) +
         ", float as = {0.02}, uint8 az = {121}, float bs = {0.004}, " + bType + " bz = {" +
         std::to_string(bZero) + R"(}, float ys = {0.3}, uint8 yz = {110}> {
  y = QLinearMatMul(a, as, az, b, bs, bz, ys, yz)
})";
}

void expectHeldAndExact(const std::string& text) {
  auto kept = make(text, true);
  auto every = make(text, false);
  auto ref = make(text, false, /*reference=*/true);
  ASSERT_TRUE(kept && every && ref);
  const uint64_t expected = cpu::qlinear::exactInt8DotProducts() ? uint64_t{kK * kN} : 0;
  for (int64_t r : {4, 1, 16, 4}) {
    std::vector<uint8_t> v(static_cast<size_t>(r * kK));
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<uint8_t>((i * 53) % 256);
    ir::Tensor a(ir::DataType::kUInt8, {r, kK});
    std::memcpy(a.mutableBytes().data(), v.data(), v.size());
    NamedInputs in = {{"a", a}};
    RunResult got = run(*kept, in);
    RunResult all = run(*every, in);
    RunResult want = run(*ref, in);
    ASSERT_EQ(got.outputs.size(), 1u);
    ASSERT_EQ(want.outputs.size(), 1u);
    ASSERT_EQ(all.outputs.size(), 1u);
    ASSERT_EQ(got.outputs[0].dims(), want.outputs[0].dims());
    const auto g = got.outputs[0].bytes(), w = want.outputs[0].bytes(), e = all.outputs[0].bytes();
    ASSERT_EQ(g.size(), w.size());
    ASSERT_EQ(g.size(), e.size());
    EXPECT_EQ(std::memcmp(g.data(), w.data(), g.size()), 0) << "rows " << r;
    EXPECT_EQ(std::memcmp(g.data(), e.data(), g.size()), 0) << "rows " << r;
    // The outputs spread (all saturated would prove nothing).
    std::vector<bool> seen(256, false);
    int distinct = 0;
    for (std::byte x : w) {
      auto u = static_cast<uint8_t>(x);
      if (!seen[u]) ++distinct;
      seen[u] = true;
    }
    EXPECT_GE(distinct, 20) << "rows " << r;
    EXPECT_EQ(got.memory.keptFreedBytes, expected) << "rows " << r;
    EXPECT_EQ(all.memory.keptFreedBytes, 0u);
  }
}

TEST(QLinearMatMulExactHeld, Uint8WeightsReleasedOnceHeld) {
  expectHeldAndExact(model("uint8", 0, 255, 131));
}

TEST(QLinearMatMulExactHeld, Int8WeightsWithAZeroPointReleasedOnceHeld) {
  expectHeldAndExact(model("int8", -127, 127, 3));
}

}  // namespace
}  // namespace passlab::exec
