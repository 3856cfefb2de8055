// ai.passlab QLinearLookup: Y[i] = Table[X[i] - lowest(X's type)], for uint8
// and int8 X and tables of either type; the inputs it must refuse.
#include <gtest/gtest.h>

#include "tests/core/exec/kernel_test_util.h"

namespace passlab::exec {
namespace {

using kt::i8;
using kt::u8;

// A model reading X of `xType` [n] through a 256-entry table of `tType`
// whose entry i is `entry(i)` (written out as the text format's list).
std::string lookupModel(const std::string& xType, const std::string& tType, int n,
                        int (*entry)(int), int entries = 256) {
  std::string values;
  for (int i = 0; i < entries; ++i) values += (i ? ", " : "") + std::to_string(entry(i));
  return R"(<ir_version: 8, opset_import: ["" : 13, "ai.passlab" : 1]>
    main ()" +
         xType + "[" + std::to_string(n) + "] x) => (" + tType + "[" + std::to_string(n) + R"(] y)
        <)" +
         tType + "[" + std::to_string(entries) + "] t = {" + values + R"(}> {
      y = ai.passlab.QLinearLookup(x, t) })";
}

TEST(PassLabQLinearLookup, Uint8IndexesTheTableByItsValue) {
  // Entry i = 255 - i: every value of X maps to its mirror.
  std::vector<uint8_t> x(256);
  for (int i = 0; i < 256; ++i) x[i] = static_cast<uint8_t>(i);
  auto r = testutil::runText(lookupModel("uint8", "uint8", 256, [](int i) { return 255 - i; }),
                             {{"x", u8({256}, x)}});
  auto y = kt::values<uint8_t>(r.outputs[0]);
  ASSERT_EQ(y.size(), 256u);
  for (int i = 0; i < 256; ++i) EXPECT_EQ(y[i], 255 - i) << "at " << i;
}

TEST(PassLabQLinearLookup, Int8IndexesFromMinus128) {
  // Table of int8: entry i = i - 128 halved (toward zero); X = -128, -1, 0, 127
  // reads entries 0, 127, 128, 255.
  auto r = testutil::runText(lookupModel("int8", "int8", 4, [](int i) { return (i - 128) / 2; }),
                             {{"x", i8({4}, {-128, -1, 0, 127})}});
  EXPECT_EQ(kt::values<int8_t>(r.outputs[0]), (std::vector<int8_t>{-64, 0, 0, 63}));
}

TEST(PassLabQLinearLookup, Int8ThroughWholeVectorsAndATail) {
  // 130 values -128..1 (two vectors of 64 and a tail of 2) through the identity
  // table: entry i holds i - 128.
  std::vector<int8_t> x(130);
  for (int i = 0; i < 130; ++i) x[i] = static_cast<int8_t>(i - 128);
  auto r = testutil::runText(lookupModel("int8", "int8", 130, [](int i) { return i - 128; }),
                             {{"x", i8({130}, x)}});
  EXPECT_EQ(kt::values<int8_t>(r.outputs[0]), x);
}

TEST(PassLabQLinearLookup, Int8InUint8Out) {
  auto r = testutil::runText(lookupModel("int8", "uint8", 3, [](int i) { return i; }),
                             {{"x", i8({3}, {-128, 0, 127})}});
  EXPECT_EQ(kt::values<uint8_t>(r.outputs[0]), (std::vector<uint8_t>{0, 128, 255}));
}

TEST(PassLabQLinearLookup, KeepsTheShape) {
  auto r = testutil::runText(
      R"(<ir_version: 8, opset_import: ["" : 13, "ai.passlab" : 1]>
    main (uint8[2,1,3] x) => (uint8[2,1,3] y) <uint8[256] t = )" +
          [] {
            std::string v = "{";
            for (int i = 0; i < 256; ++i) v += (i ? ", " : "") + std::to_string((i + 1) % 256);
            return v + "}";
          }() +
          R"(> {
      y = ai.passlab.QLinearLookup(x, t) })",
      {{"x", u8({2, 1, 3}, {0, 1, 2, 253, 254, 255})}});
  EXPECT_EQ(r.outputs[0].dims(), (kt::Dims{2, 1, 3}));
  EXPECT_EQ(kt::values<uint8_t>(r.outputs[0]), (std::vector<uint8_t>{1, 2, 3, 254, 255, 0}));
}

// A table whose 16 rows of 16 all differ and have no pattern the vector paths
// could lean on (the AVX2 path XORs neighbouring rows; AVX-512 BW blends rows).
int scrambled(int i) {
  return (i * 167 + 89 + ((i * i * 13) >> 3)) & 255;
}

// Every length from 1 to 200 and some longer ones (not multiples of the
// 32- or 64-byte vectors: the scalar tail after whole vectors), X cycling
// through all 256 values from an offset; each output checked against the
// table. Run under every ISA cap (ctests isa_*_kernels): VBMI, AVX-512 BW,
// AVX2 and scalar paths.
TEST(PassLabQLinearLookup, EveryValueAndLengthMatchesTheTable) {
  std::vector<int> lengths;
  for (int n = 1; n <= 200; ++n) lengths.push_back(n);
  for (int n : {255, 256, 257, 511, 1000, 4133}) lengths.push_back(n);
  for (int n : lengths) {
    std::vector<uint8_t> x(n);
    for (int i = 0; i < n; ++i) x[i] = static_cast<uint8_t>((i + 7 * n) & 255);
    auto r = testutil::runText(lookupModel("uint8", "uint8", n, scrambled), {{"x", u8({n}, x)}});
    auto y = kt::values<uint8_t>(r.outputs[0]);
    ASSERT_EQ(y.size(), static_cast<size_t>(n));
    for (int i = 0; i < n; ++i)
      ASSERT_EQ(y[i], scrambled(x[i])) << "length " << n << ", x[" << i << "] = " << int(x[i]);
  }
}

TEST(PassLabQLinearLookup, Int8EveryValueThroughAScrambledTable) {
  // int8 X reads entry x + 128; an int8 table holds scrambled(i) - 128.
  for (int n : {256, 300, 1027}) {
    std::vector<int8_t> x(n);
    for (int i = 0; i < n; ++i) x[i] = static_cast<int8_t>(((i * 5 + 3) & 255) - 128);
    auto r =
        testutil::runText(lookupModel("int8", "int8", n, [](int i) { return scrambled(i) - 128; }),
                          {{"x", i8({n}, x)}});
    auto y = kt::values<int8_t>(r.outputs[0]);
    ASSERT_EQ(y.size(), static_cast<size_t>(n));
    for (int i = 0; i < n; ++i)
      ASSERT_EQ(y[i], scrambled(x[i] + 128) - 128)
          << "length " << n << ", x[" << i << "] = " << int(x[i]);
  }
}

TEST(PassLabQLinearLookup, RefusesATableOfAnotherSize) {
  kt::expectError(lookupModel(
                      "uint8", "uint8", 2, [](int i) { return i; }, 255),
                  {{"x", u8({2}, {1, 2})}}, {"Table", "256"});
}

TEST(PassLabQLinearLookup, RefusesAFloatInput) {
  std::string values;
  for (int i = 0; i < 256; ++i) values += (i ? ", " : "") + std::to_string(i);
  const std::string text = R"(<ir_version: 8, opset_import: ["" : 13, "ai.passlab" : 1]>
    main (float[2] x) => (uint8[2] y) <uint8[256] t = {)" +
                           values + R"(}> {
      y = ai.passlab.QLinearLookup(x, t) })";
  const std::string e = testutil::errorOf(text, {{"x", kt::f32({2}, {1, 2})}});
  EXPECT_FALSE(e.empty());
}

}  // namespace
}  // namespace passlab::exec
