// simplify_op_chains: one structural case per rule, negative cases (shared
// intermediate, graph output, subgraph use, wrong attributes) with their
// explanation, opset variants, convergence and numeric equivalence.
#include <gtest/gtest.h>

#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

const char* kPass = "simplify_op_chains";

TEST(SimplifyOpChains, ReshapeOfReshape) {
  expectRewrite(
      kPass, R"(main (float[2,3,4] x) => (float[4,6] y) <int64[2] a = {6, 4}, int64[2] b = {4, 6}> {
      t = Reshape(x, a)
      u = Reshape(t, b)
      y = Relu(u) })",
      R"(main (float[2,3,4] x) => (float[4,6] y) <int64[2] b = {4, 6}> {
      u = Reshape(x, b)
      y = Relu(u) })");
}

TEST(SimplifyOpChains, ReshapeOfSqueezeFlattenAndUnsqueeze) {
  expectRewrite(kPass,
                R"(main (float[2,1,4] x) => (float[8] y) <int64[1] a = {1}, int64[1] b = {-1}> {
      t = Squeeze(x, a)
      u = Reshape(t, b)
      y = Relu(u) })",
                R"(main (float[2,1,4] x) => (float[8] y) <int64[1] b = {-1}> {
      u = Reshape(x, b)
      y = Relu(u) })");
}

TEST(SimplifyOpChains, ReshapeCopyingADimTheInnerOpKept) {
  expectRewrite(
      kPass,
      R"(main (float[2,3,4] x) => (float[2,3,4] y) <int64[2] a = {2, 12}, int64[3] b = {0, 3, 4}> {
      t = Reshape(x, a)
      u = Reshape(t, b)
      y = Relu(u) })",
      R"(main (float[2,3,4] x) => (float[2,3,4] y) <int64[3] b = {0, 3, 4}> {
      u = Reshape(x, b)
      y = Relu(u) })");
}

TEST(SimplifyOpChains, KeepsReshapeCopyingADimTheInnerOpChanged) {
  expectUnchanged(
      kPass,
      R"(main (float[2,3,4] x) => (float[6,4] y) <int64[2] a = {6, 4}, int64[2] b = {0, -1}> {
      t = Reshape(x, a)
      u = Reshape(t, b)
      y = Relu(u) })",
      "copies dim 0");
}

TEST(SimplifyOpChains, KeepsChainWhoseIntermediateHasAnotherConsumer) {
  expectUnchanged(
      kPass,
      R"(main (float[2,3,4] x) => (float[4,6] y, float[6,4] z) <int64[2] a = {6, 4}, int64[2] b = {4, 6}> {
      t = Reshape(x, a)
      u = Reshape(t, b)
      y = Relu(u)
      z = Neg(t) })",
      "'t' has 2 consumers");
}

TEST(SimplifyOpChains, KeepsChainWhoseIntermediateIsAModelOutput) {
  expectUnchanged(
      kPass,
      R"(main (float[2,3,4] x) => (float[4,6] y, float[6,4] t) <int64[2] a = {6, 4}, int64[2] b = {4, 6}> {
      t = Reshape(x, a)
      u = Reshape(t, b)
      y = Relu(u) })",
      "'t' is a graph output");
}

TEST(SimplifyOpChains, KeepsChainWhoseIntermediateIsReadInASubgraph) {
  expectUnchanged(
      kPass,
      R"(main (float[2,3,4] x, bool c) => (float[4,6] y) <int64[2] a = {6, 4}, int64[2] b = {4, 6}> {
      t = Reshape(x, a)
      y = If <then_branch = g1 () => (float[4,6] o) { o = Reshape(t, b) },
              else_branch = g2 () => (float[4,6] p) { p = Reshape(x, b) }> (c) })",
      "'t' is used inside a subgraph");
}

TEST(SimplifyOpChains, FlattenOfReshapeBecomesOneReshape) {
  expectRewrite(kPass, R"(main (float[N,3,4] x) => (float[N,12] y) <int64[1] a = {1}> {
      t = Unsqueeze(x, a)
      u = Flatten <axis = 1> (t)
      y = Relu(u) })",
                R"(main (float[N,3,4] x) => (float[N,12] y) <int64[2] s = {-1, 12}> {
      u = Reshape(x, s)
      y = Relu(u) })");
}

TEST(SimplifyOpChains, KeepsFlattenWithTwoDynamicDims) {
  expectUnchanged(kPass, R"(main (float[N,M,4] x) => (float[N,M4] y) <int64[1] a = {1}> {
      t = Unsqueeze(x, a)
      u = Flatten <axis = 1> (t)
      y = Relu(u) })",
                  "both result dims are dynamic");
}

TEST(SimplifyOpChains, UnsqueezeOfUnsqueeze) {
  expectRewrite(kPass,
                R"(main (float[2,3] x) => (float[1,2,3,1] y) <int64[1] a = {0}, int64[1] b = {3}> {
      t = Unsqueeze(x, a)
      u = Unsqueeze(t, b)
      y = Relu(u) })",
                R"(main (float[2,3] x) => (float[1,2,3,1] y) <int64[2] axes = {0, 3}> {
      u = Unsqueeze(x, axes)
      y = Relu(u) })");
  expectRewrite(kPass, R"(main (float[2,3] x) => (float[2,1,1,3] y) <int64[1] a = {1}> {
      t = Unsqueeze(x, a)
      u = Unsqueeze(t, a)
      y = Relu(u) })",
                R"(main (float[2,3] x) => (float[2,1,1,3] y) <int64[2] axes = {1, 2}> {
      u = Unsqueeze(x, axes)
      y = Relu(u) })");
}

TEST(SimplifyOpChains, UnsqueezeOfUnsqueezeWithAttributesBeforeOpset13) {
  const char* h = R"(<ir_version: 6, opset_import: ["" : 11]>)";
  expectRewrite(kPass, std::string(h) + R"(main (float[2,3] x) => (float[1,2,1,3] y) {
      t = Unsqueeze <axes = [0]> (x)
      u = Unsqueeze <axes = [-2]> (t)
      y = Relu(u) })",
                std::string(h) + R"(main (float[2,3] x) => (float[1,2,1,3] y) {
      u = Unsqueeze <axes = [0, 2]> (x)
      y = Relu(u) })");
}

TEST(SimplifyOpChains, SqueezeOfSqueeze) {
  expectRewrite(kPass,
                R"(main (float[1,2,1,3] x) => (float[2,3] y) <int64[1] a = {0}, int64[1] b = {1}> {
      t = Squeeze(x, a)
      u = Squeeze(t, b)
      y = Relu(u) })",
                R"(main (float[1,2,1,3] x) => (float[2,3] y) <int64[2] axes = {0, 2}> {
      u = Squeeze(x, axes)
      y = Relu(u) })");
}

TEST(SimplifyOpChains, KeepsSqueezeWithoutAxes) {
  expectUnchanged(kPass, R"(main (float[1,2,1,3] x) => (float[2,3] y) <int64[1] a = {0}> {
      t = Squeeze(x, a)
      u = Squeeze(t)
      y = Relu(u) })",
                  "removes every dim of size 1");
}

TEST(SimplifyOpChains, IdempotentOpTwice) {
  expectRewrite(kPass, R"(main (float[2] x) => (float[2] y) {
      a = Relu(x)
      b = Relu(a)
      c = Floor(b)
      d = Floor(c)
      e = Abs(d)
      f = Abs(e)
      y = Neg(f) })",
                R"(main (float[2] x) => (float[2] y) {
      a = Relu(x)
      c = Floor(a)
      e = Abs(c)
      y = Neg(e) })");
}

TEST(SimplifyOpChains, IdempotentOpTwiceKeepsTheOutputs) {
  expectSameOutputs(kPass, R"(main (float[2,3] x) => (float[2,3] y) { a = Relu(x)
      b = Relu(a)
      y = Neg(b) })");
}

TEST(SimplifyOpChains, IdempotentOpKeepsInnerForOtherConsumers) {
  expectRewrite(kPass, R"(main (float[2] x) => (float[2] y, float[2] z) {
      a = Relu(x)
      b = Relu(a)
      y = Neg(b)
      z = Exp(a) })",
                R"(main (float[2] x) => (float[2] y, float[2] z) {
      a = Relu(x)
      y = Neg(a)
      z = Exp(a) })");
}

TEST(SimplifyOpChains, KeepsIdempotentPairWhenBothAreModelOutputs) {
  expectUnchanged(kPass, R"(main (float[2] x) => (float[2] a, float[2] b) { a = Relu(x)
      b = Relu(a) })",
                  "are both model outputs");
}

TEST(SimplifyOpChains, ClipTwiceWithTheSameBounds) {
  expectRewrite(kPass, R"(main (float[2] x) => (float[2] y) <float lo = {0}, float hi = {6}> {
      a = Clip(x, lo, hi)
      b = Clip(a, lo, hi)
      y = Neg(b) })",
                R"(main (float[2] x) => (float[2] y) <float lo = {0}, float hi = {6}> {
      a = Clip(x, lo, hi)
      y = Neg(a) })");
  expectUnchanged(
      kPass, R"(main (float[2] x) => (float[2] y) <float lo = {0}, float hi = {6}, float h2 = {5}> {
      a = Clip(x, lo, hi)
      b = Clip(a, lo, h2)
      y = Neg(b) })",
      "the bounds are not the same");
}

TEST(SimplifyOpChains, ExactCastChains) {
  expectRewrite(kPass, R"(main (int8[2] x) => (float[2] y) { a = Cast <to = 6> (x)
      b = Cast <to = 1> (a)
      y = Neg(b) })",
                R"(main (int8[2] x) => (float[2] y) { b = Cast <to = 1> (x)
      y = Neg(b) })");
}

TEST(SimplifyOpChains, KeepsTruncatingCastChains) {
  expectUnchanged(kPass, R"(main (float[2] x) => (int64[2] y) { a = Cast <to = 6> (x)
      b = Cast <to = 7> (a)
      y = Neg(b) })",
                  "float -> int32 is not exact");
  expectUnchanged(kPass, R"(main (float[2] x) => (float[2] y) { a = Cast <to = 11> (x)
      b = Cast <to = 1> (a)
      y = Neg(b) })",
                  "an inverse pair");
}

TEST(SimplifyOpChains, AbsOfNeg) {
  expectRewrite(kPass, R"(main (float[2] x) => (float[2] y) { a = Neg(x)
      b = Abs(a)
      y = Relu(b) })",
                R"(main (float[2] x) => (float[2] y) { b = Abs(x)
      y = Relu(b) })");
}

TEST(SimplifyOpChains, ConcatOfConcat) {
  expectRewrite(kPass, R"(main (float[2] a, float[2] b, float[2] c, float[2] d) => (float[8] y) {
      t = Concat <axis = 0> (b, c)
      u = Concat <axis = -1> (a, t, d)
      y = Relu(u) })",
                R"(main (float[2] a, float[2] b, float[2] c, float[2] d) => (float[8] y) {
      u = Concat <axis = -1> (a, b, c, d)
      y = Relu(u) })");
}

TEST(SimplifyOpChains, KeepsConcatOfConcatOnAnotherAxis) {
  expectUnchanged(kPass, R"(main (float[2,2] a, float[2,2] b) => (float[4,4] y) {
      t = Concat <axis = 1> (a, b)
      u = Concat <axis = 0> (t, t)
      y = Relu(u) })",
                  "'t' has 2 consumers");
  expectUnchanged(kPass, R"(main (float[2,2] a, float[2,2] b, float[2,4] c) => (float[4,4] y) {
      t = Concat <axis = 1> (a, b)
      u = Concat <axis = 0> (t, c)
      y = Relu(u) })",
                  "another axis");
}

TEST(SimplifyOpChains, Converges) {
  expectConverges(
      kPass,
      R"(main (float[2,3,4] x) => (float[24] y) <int64[2] a = {6, 4}, int64[1] b = {-1}, int64[1] c = {0}> {
      t = Reshape(x, a)
      u = Reshape(t, b)
      v = Unsqueeze(u, c)
      w = Unsqueeze(v, c)
      z = Reshape(w, b)
      r = Relu(z)
      y = Relu(r) })");
}

}  // namespace
}  // namespace passlab::testing
