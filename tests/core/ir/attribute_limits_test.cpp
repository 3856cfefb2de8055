// Attributes no kernel can honour are verifier errors naming the node and the
// attribute (and checkAttributeLimits refuses the model); and a subgraph may
// not return an outer-scope value directly (ONNX Runtime refuses it).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/ir/attribute_limits.h"
#include "core/ir/verifier.h"
#include "tests/support/test_support.h"

namespace passlab::ir {
namespace {

using testing::parse;

std::vector<std::string> errors(const Model& m) {
  std::vector<std::string> out;
  for (const auto& p : verifyModel(m))
    if (p.severity == VerifierProblem::Severity::kError) out.push_back(p.message);
  return out;
}

// The model has exactly one error, and it contains each fragment.
void expectOneError(const std::string& text, const std::vector<std::string>& fragments) {
  Model m = parse(text);
  auto errs = errors(m);
  ASSERT_EQ(errs.size(), 1u) << text << (errs.empty() ? "" : "\nfirst: " + errs[0]);
  for (const auto& f : fragments) EXPECT_NE(errs[0].find(f), std::string::npos) << errs[0];
  Status st = checkAttributeLimits(m);
  ASSERT_FALSE(st.isOk());
  EXPECT_EQ(st.message(), errs[0]);
}

std::string conv(const std::string& attrs) {
  return R"(main (float[1,1,8,8] x, float[1,1,3,3] w) => (float[1,1,6,6] y) {
    y = Conv <)" +
         attrs + R"(> (x, w) })";
}

TEST(AttributeLimits, ValidConvHasNoProblem) {
  Model m = parse(conv("strides = [1, 1], dilations = [1, 1], pads = [0, 0, 0, 0]"));
  EXPECT_TRUE(errors(m).empty());
  EXPECT_TRUE(checkAttributeLimits(m).isOk());
}

TEST(AttributeLimits, ConvDilationPast32Bits) {
  expectOneError(conv("dilations = [2147483648, 1]"), {"Conv", "'dilations'", "2147483648"});
}

TEST(AttributeLimits, ConvStrideAndPadPast32Bits) {
  expectOneError(conv("strides = [1, 2147483648]"), {"Conv", "'strides'"});
  expectOneError(conv("pads = [0, 2147483648, 0, 0]"), {"Conv", "'pads'"});
}

TEST(AttributeLimits, WindowSpanOverflows) {
  // Each value fits, the span (3 - 1) * 2^31-1 + 1 does not.
  expectOneError(R"(main (float[1,1,8,8] x) => (float[1,1,1,1] y) {
    y = MaxPool <kernel_shape = [3, 3], dilations = [2147483647, 1]> (x) })",
                 {"MaxPool", "dilations", "exceeds"});
}

TEST(AttributeLimits, ZeroAndNegativeSizes) {
  expectOneError(conv("strides = [0, 1]"), {"'strides'", "value 0"});
  expectOneError(conv("group = 0"), {"'group'"});
  expectOneError(R"(main (float[1,1,8,8] x) => (float[1,1,4,4] y) {
    y = AveragePool <kernel_shape = [-2, 2]> (x) })",
                 {"AveragePool", "'kernel_shape'"});
  expectOneError(R"(main (float[1,4,2,2] x) => (float[1,1,4,4] y) {
    y = DepthToSpace <blocksize = 0> (x) })",
                 {"DepthToSpace", "'blocksize'"});
}

TEST(AttributeLimits, WrongLengths) {
  expectOneError(conv("pads = [0, 0, 0]"), {"'pads' has 3 values, expected 4"});
}

TEST(AttributeLimits, TransposePermNotAPermutation) {
  expectOneError(R"(main (float[2,3] x) => (float[3,2] y) { y = Transpose <perm = [1, 1]> (x) })",
                 {"Transpose", "'perm'", "not a permutation"});
  expectOneError(
      R"(main (float[2,3] x) => (float[3,2] y) { y = Transpose <perm = [1, 0, 2]> (x) })",
      {"'perm'", "rank 2"});
}

TEST(AttributeLimits, AxisOutOfRange) {
  expectOneError(R"(main (float[2,3] x) => (float[2,3] y) { y = Softmax <axis = 2> (x) })",
                 {"Softmax", "'axis'", "[-2, 1]"});
  expectOneError(R"(main (float[2,3] x) => (float[2,3] y) { y = Concat <axis = -3> (x, x) })",
                 {"Concat", "'axis'"});
  // Flatten takes axis = r.
  Model m = parse(R"(main (float[2,3] x) => (float[6,1] y) { y = Flatten <axis = 2> (x) })");
  EXPECT_TRUE(errors(m).empty());
}

TEST(AttributeLimits, InsideSubgraphs) {
  Model m = parse(R"(main (float[2,3] x, bool c) => (float[3,2] y) {
      y = If <then_branch = t () => (float[3,2] o) { o = Transpose <perm = [0, 0]> (x) },
              else_branch = e () => (float[3,2] p) { p = Transpose <perm = [1, 0]> (x) }> (c)
    })");
  Status st = checkAttributeLimits(m);
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("'perm'"), std::string::npos) << st.message();
}

TEST(AttributeLimits, WindowAxisArithmetic) {
  EXPECT_EQ(windowAxisProblem(3, 1, 1, 1, 1, 8), "");
  EXPECT_NE(windowAxisProblem(3, 1, INT64_MAX / 2 + 1, 0, 0), "");  // (k-1)*d overflows int64
  EXPECT_NE(windowAxisProblem(1, 1, 1, INT64_MAX, 1), "");          // pads overflow int64
  EXPECT_NE(windowAxisProblem(1, 0, 1, 0, 0), "");
}

// ONNX Runtime: "Subgraph output (X) is an outer scope value being returned
// directly. Please update the model to add an Identity node".
TEST(VerifierOnnxRuntimeRules, SubgraphReturningOuterValueDirectly) {
  Model bad = parse(R"(main (float[2] x, bool c) => (float[2] y) {
      r = Relu(x)
      y = If <then_branch = t () => (float[2] r) { },
              else_branch = e () => (float[2] p) { p = Neg(r) }> (c)
    })");
  auto errs = errors(bad);
  ASSERT_EQ(errs.size(), 1u);
  EXPECT_NE(errs[0].find("outer scope value returned directly"), std::string::npos) << errs[0];
  EXPECT_NE(errs[0].find("'r'"), std::string::npos) << errs[0];
  Model good = parse(R"(main (float[2] x, bool c) => (float[2] y) {
      r = Relu(x)
      y = If <then_branch = t () => (float[2] o) { o = Identity(r) },
              else_branch = e () => (float[2] p) { p = Neg(r) }> (c)
    })");
  EXPECT_TRUE(errors(good).empty());
}

// ONNX Runtime: "Size mismatch validating subgraph inputs": an If branch
// takes no inputs and returns one value per If output.
TEST(VerifierOnnxRuntimeRules, IfBranchSignature) {
  Model m = parse(R"(main (float[2] x, bool c) => (float[2] y) {
      y = If <then_branch = t (float[2] z) => (float[2] o) { o = Neg(z) },
              else_branch = e () => (float[2] p, float[2] q) { p = Neg(x)
                q = Abs(x) }> (c)
    })");
  auto errs = errors(m);
  ASSERT_EQ(errs.size(), 2u);
  EXPECT_NE(errs[0].find("subgraph 'then_branch' has 1 inputs; If needs 0"), std::string::npos)
      << errs[0];
  EXPECT_NE(errs[1].find("subgraph 'else_branch' has 2 outputs; If needs 1"), std::string::npos)
      << errs[1];
}

TEST(VerifierOnnxRuntimeRules, LoopBodySignature) {
  // Loop(M, cond, v): the body takes (i, cond, v) and returns (cond, v).
  const char* kLoop = R"(main (int64 n, bool c, float[2] v) => (float[2] y) {
      y = Loop <body = b (int64 i, bool ci, float[2] vi) => (bool co, float[2] vo) {
        co = Identity(ci)
        vo = Neg(vi) }> (n, c, v)
    })";
  EXPECT_TRUE(errors(parse(kLoop)).empty());
  Model bad = parse(R"(main (int64 n, bool c, float[2] v) => (float[2] y) {
      y = Loop <body = b (int64 i, bool ci) => (bool co, float[2] vo) {
        co = Identity(ci)
        vo = Neg(v) }> (n, c, v)
    })");
  auto errs = errors(bad);
  ASSERT_EQ(errs.size(), 1u);
  EXPECT_NE(errs[0].find("subgraph 'body' has 2 inputs; Loop needs 3"), std::string::npos)
      << errs[0];
}

}  // namespace
}  // namespace passlab::ir
