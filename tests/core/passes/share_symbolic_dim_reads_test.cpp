// share_symbolic_dim_reads: Gather(Shape(x), i) of a named dim reads the graph
// input declaring that name instead; Shape's start honoured; reasons where it
// must not fire; convergence; outputs unchanged.
#include <gtest/gtest.h>

#include "tests/core/passes/fusion_test_util.h"

namespace passlab::testing {
namespace {

const char* kPass = "share_symbolic_dim_reads";
const char* kOpset17 = R"(<ir_version: 8, opset_import: ["" : 17]>
)";

TEST(ShareSymbolicDimReads, ReadsTheDimFromTheDeclaringInput) {
  expectRewrite(kPass,
                std::string(kOpset17) + R"(main (float[N,4] x) => (int64 d) <int64 zero = {0}> {
      h = Relu(x)
      s = Shape(h)
      d = Gather(s, zero) })",
                std::string(kOpset17) + R"(main (float[N,4] x) => (int64 d) <int64 at = {0}> {
      h = Relu(x)
      s = Shape(x)
      d = Gather(s, at) })");  // h is left to eliminate_dead_nodes
}

TEST(ShareSymbolicDimReads, HonoursShapeStartAndAOneElementIndex) {
  expectRewrite(
      kPass, std::string(kOpset17) + R"(main (float[N,M] x) => (int64[1] d) <int64[1] zero = {0}> {
      h = Relu(x)
      s = Shape <start = 1> (h)
      d = Gather(s, zero) })",
      std::string(kOpset17) + R"(main (float[N,M] x) => (int64[1] d) <int64[1] at = {1}> {
      h = Relu(x)
      s = Shape(x)
      d = Gather(s, at) })");
}

// The first input declaring the name is the source, whichever value is read.
TEST(ShareSymbolicDimReads, TwoReadsOfOneNameShareTheSource) {
  expectRewrite(
      kPass,
      std::string(kOpset17) +
          R"(main (float[B,4] x, float[B,8] y) => (int64 d, int64 e) <int64 zero = {0}> {
      h = Relu(y)
      s = Shape(h)
      d = Gather(s, zero)
      t = Shape(y)
      e = Gather(t, zero) })",
      std::string(kOpset17) +
          R"(main (float[B,4] x, float[B,8] y) => (int64 d, int64 e) <int64 at = {0}, int64 at2 = {0}> {
      h = Relu(y)
      s = Shape(x)
      d = Gather(s, at)
      t = Shape(x)
      e = Gather(t, at2) })");
}

TEST(ShareSymbolicDimReads, KeepsAStaticDim) {
  expectUnchanged(kPass,
                  std::string(kOpset17) + R"(main (float[N,4] x) => (int64 d) <int64 one = {1}> {
      h = Relu(x)
      s = Shape(h)
      d = Gather(s, one) })",
                  "dim 1 is static");
}

TEST(ShareSymbolicDimReads, KeepsAReadOfTheSourceItself) {
  expectUnchanged(kPass,
                  std::string(kOpset17) + R"(main (float[N,4] x) => (int64 d) <int64 zero = {0}> {
      s = Shape(x)
      d = Gather(s, zero) })",
                  "already reads dim 'N' from input 'x'");
}

TEST(ShareSymbolicDimReads, KeepsANonConstantIndex) {
  expectUnchanged(kPass, std::string(kOpset17) + R"(main (float[N,4] x, int64 i) => (int64 d) {
      h = Relu(x)
      s = Shape(h)
      d = Gather(s, i) })",
                  "the Gather index is not constant");
}

TEST(ShareSymbolicDimReads, KeepsAGatherOfOtherData) {
  expectUnchanged(
      kPass, std::string(kOpset17) + R"(main (float[N,4] x) => (float[4] d) <int64 zero = {0}> {
      h = Relu(x)
      d = Gather(h, zero) })",
      "Gather does not read a Shape");
}

TEST(ShareSymbolicDimReads, Converges) {
  expectConverges(kPass,
                  std::string(kOpset17) + R"(main (float[N,4] x) => (int64 d) <int64 zero = {0}> {
      h = Relu(x)
      s = Shape(h)
      d = Gather(s, zero) })");
}

TEST(ShareSymbolicDimReads, OutputsStayTheSame) {
  expectSameOutputs(
      kPass,
      std::string(kOpset17) +
          R"(main (float[N,M] x) => (float[N,M,1] y) <int64 zero = {0}, int64 one = {1}, int64[1] ax = {0}, int64[1] tail = {1}> {
      h = Relu(x)
      s = Shape(h)
      a = Gather(s, zero)
      b = Gather(s, one)
      ua = Unsqueeze(a, ax)
      ub = Unsqueeze(b, ax)
      shape = Concat <axis = 0> (ua, ub, tail)
      y = Reshape(h, shape) })");
}

}  // namespace
}  // namespace passlab::testing
