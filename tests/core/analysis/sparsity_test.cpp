// The weights' sparsity report (core/analysis/sparsity.h) on hand-made
// weights: zero shares, all-zero output channels along the right axis for
// Conv, MatMul and Gemm with transB, and the 2:4 share along the reduction.
#include "core/analysis/sparsity.h"

#include <gtest/gtest.h>

#include "core/io/text_format.h"

namespace passlab::analysis {
namespace {

std::vector<LayerSparsity> reportOf(const char* text) {
  auto m = io::parseModelText(text);
  EXPECT_TRUE(m) << (m ? "" : m.error().message());
  return m ? sparsityReport(*m) : std::vector<LayerSparsity>{};
}

TEST(Sparsity, MatMulChannelsAreColumnsReducingDownTheRows) {
  // B [4, 3]: column 1 all zero; column 0 has 2 zeros in its group of 4.
  auto r = reportOf(R"(main (float[2,4] x) => (float[2,3] y)
      <float[4,3] w = {0, 0, 1,  2, 0, 1,  0, 0, 1,  3, 0, 1}> { y = MatMul(x, w) })");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].elements, 12);
  EXPECT_EQ(r[0].zeros, 6);
  EXPECT_EQ(r[0].channels, 3);
  EXPECT_EQ(r[0].zeroChannels, 1);
  EXPECT_EQ(r[0].groupsOfFour, 3);
  EXPECT_EQ(r[0].twoFourGroups, 2);  // columns 0 and 1; column 2 has none
  EXPECT_EQ(r[0].weight, "w");
}

TEST(Sparsity, GemmWithTransBHasChannelsAsRows) {
  // B [N=2, K=4] with transB: row 0 all zero.
  auto r = reportOf(R"(main (float[3,4] x) => (float[3,2] y)
      <float[2,4] w = {0, 0, 0, 0,  1, 0, 2, 0}> { y = Gemm <transB = 1> (x, w) })");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].channels, 2);
  EXPECT_EQ(r[0].zeroChannels, 1);
  EXPECT_EQ(r[0].twoFourGroups, 2);
}

TEST(Sparsity, ConvChannelsAreTheFirstAxis) {
  // W [2, 1, 2, 2]: filter 1 all zero.
  auto r = reportOf(R"(main (float[1,1,3,3] x) => (float[1,2,2,2] y)
      <float[2,1,2,2] w = {1, 2, 3, 4,  0, 0, 0, 0}> { y = Conv(x, w) })");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].channels, 2);
  EXPECT_EQ(r[0].zeroChannels, 1);
  EXPECT_DOUBLE_EQ(r[0].zeroShare(), 0.5);
  EXPECT_DOUBLE_EQ(r[0].twoFourShare(), 0.5);
}

TEST(Sparsity, ReadsStoredWeightsAndLeavesOutComputedOnes) {
  // A weight fed at run time has nothing stored: left out.
  EXPECT_TRUE(reportOf(R"(main (float[2,4] x, float[4,3] w) => (float[2,3] y) {
      y = MatMul(x, w) })")
                  .empty());
  // IR version 3: the initializer is a graph input too; its stored values count.
  auto r = reportOf(R"(<ir_version: 3, opset_import: ["" : 9]>
main (float[2,4] x, float[4,3] w) => (float[2,3] y) <float[4,3] w = {0,0,0,0,0,0,0,0,0,0,0,0}> {
      y = MatMul(x, w) })");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].zeroChannels, 3);
  // A Constant node's value is a stored weight.
  auto c = reportOf(R"(main (float[2,2] x) => (float[2,2] y) {
      w = Constant <value = float[2,2] {0, 1, 0, 2}> ()
      y = MatMul(x, w) })");
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].zeroChannels, 1);
}

}  // namespace
}  // namespace passlab::analysis
