// replace_computed_reshape_shapes: a Reshape to a computed shape gets the
// constant shape inference knows (one dim -1), a Transpose of size-1 dims
// becomes a Reshape; reasons where they must not; convergence; numerics.
#include <gtest/gtest.h>

#include "tests/core/passes/fusion_test_util.h"

namespace passlab::testing {
namespace {

const char* kPass = "replace_computed_reshape_shapes";
const char* kOpset17 = R"(<ir_version: 8, opset_import: ["" : 17]>
)";

// GPT-2's head split: the batch size read at run time, the rest constant.
const char* kComputedShape = R"(main (float[N,12] x) => (float[N,1,12] y)
    <int64 zero = {0}, int64[1] ax = {0}, int64[1] one = {1}, int64[1] twelve = {12}> {
      s = Shape(x)
      b = Gather(s, zero)
      ub = Unsqueeze(b, ax)
      shape = Concat <axis = 0> (ub, one, twelve)
      y = Reshape(x, shape) })";

TEST(ReplaceComputedReshapeShapes, ComputedShapeBecomesAConstantWithOneMinusOne) {
  expectRewrite(kPass, std::string(kOpset17) + kComputedShape,
                std::string(kOpset17) + R"(main (float[N,12] x) => (float[N,1,12] y)
    <int64 zero = {0}, int64[1] ax = {0}, int64[1] one = {1}, int64[1] twelve = {12},
     int64[3] c = {-1, 1, 12}> {
      s = Shape(x)
      b = Gather(s, zero)
      ub = Unsqueeze(b, ax)
      shape = Concat <axis = 0> (ub, one, twelve)
      y = Reshape(x, c) })");  // the shape arithmetic is left to eliminate_dead_nodes
}

TEST(ReplaceComputedReshapeShapes, TransposeOfASizeOneDimBecomesAReshape) {
  expectRewrite(kPass, std::string(kOpset17) + R"(main (float[N,1,2,3] q) => (float[N,2,1,3] t) {
      t = Transpose <perm = [0, 2, 1, 3]> (q) })",
                std::string(kOpset17) + R"(main (float[N,1,2,3] q) => (float[N,2,1,3] t)
    <int64[4] c = {-1, 2, 1, 3}> {
      t = Reshape(q, c) })");
}

// Below IR version 4 constants are Constant nodes, and before opset 9 a
// Constant holds only floating-point types: the int64 shape becomes an
// initializer and the model IR version 4 (PyTorch 0.3's exports).
TEST(ReplaceComputedReshapeShapes, IntegerShapeAtOpset6BecomesAnInitializerAtIrVersion4) {
  expectRewrite(kPass, R"(<ir_version: 3, opset_import: ["" : 6]>
    main (float[1,1,1,1,1,1] q) => (float[1,1,1,1,1,1] t) {
      t = Transpose <perm = [5, 4, 3, 2, 1, 0]> (q) })",
                R"(<ir_version: 4, opset_import: ["" : 6]>
    main (float[1,1,1,1,1,1] q) => (float[1,1,1,1,1,1] t)
    <int64[6] c = {1, 1, 1, 1, 1, 1}> {
      t = Reshape(q, c) })");
}

// From opset 9 a Constant node holds any type, so IR version 3 keeps its
// Constant node and its version.
TEST(ReplaceComputedReshapeShapes, IntegerShapeAtOpset9AndIrVersion3StaysAConstantNode) {
  expectRewrite(kPass, R"(<ir_version: 3, opset_import: ["" : 9]>
    main (float[1,1,2] q) => (float[1,2,1] t) {
      t = Transpose <perm = [0, 2, 1]> (q) })",
                R"(<ir_version: 3, opset_import: ["" : 9]>
    main (float[1,1,2] q) => (float[1,2,1] t) {
      c = Constant <value = int64[3] {1, 2, 1}> ()
      t = Reshape(q, c) })");
}

TEST(ReplaceComputedReshapeShapes, KeepsATransposeThatMovesData) {
  expectUnchanged(kPass, std::string(kOpset17) + R"(main (float[N,4,2,3] q) => (float[N,2,4,3] t) {
      t = Transpose <perm = [0, 2, 1, 3]> (q) })",
                  "moves dim 1, which is not known to be 1, across another such dim");
}

TEST(ReplaceComputedReshapeShapes, KeepsATransposeWhosePermIsNotAPermutation) {
  expectUnchanged(kPass, std::string(kOpset17) + R"(main (float[N,1,2] q) => (float[N,1,2] t) {
      t = Transpose <perm = [0, 0, 2]> (q) })",
                  "perm is not a permutation");
}

TEST(ReplaceComputedReshapeShapes, KeepsAResultWithTwoUnknownDims) {
  expectUnchanged(kPass, std::string(kOpset17) + R"(main (float[N,1,M] q) => (float[N,M,1] t) {
      t = Transpose <perm = [0, 2, 1]> (q) })",
                  "the result has 2 dims that are not static numbers");
}

TEST(ReplaceComputedReshapeShapes, KeepsAConstantShape) {
  expectUnchanged(kPass, std::string(kOpset17) + R"(main (float[N,12] x) => (float[N,1,12] y)
    <int64[3] c = {-1, 1, 12}> {
      y = Reshape(x, c) })",
                  "the shape is already a constant");
}

TEST(ReplaceComputedReshapeShapes, KeepsAResultWithAZeroDim) {
  expectUnchanged(kPass,
                  std::string(kOpset17) + R"(main (float[N,0] x, int64[2] s) => (float[N,0] y) {
      y = Reshape(x, s) })",
                  "dim 1 of the result is 0");
}

TEST(ReplaceComputedReshapeShapes, Converges) {
  expectConverges(kPass, std::string(kOpset17) + kComputedShape);
}

TEST(ReplaceComputedReshapeShapes, OutputsStayTheSame) {
  expectSameOutputs(kPass, std::string(kOpset17) + R"(main (float[N,12] x) => (float[N,2,1,6] y)
    <int64 zero = {0}, int64[1] ax = {0}, int64[1] one = {1}, int64[1] six = {6}, int64[1] two = {2}> {
      s = Shape(x)
      b = Gather(s, zero)
      ub = Unsqueeze(b, ax)
      shape = Concat <axis = 0> (ub, one, two, six)
      r = Reshape(x, shape)
      y = Transpose <perm = [0, 2, 1, 3]> (r) })");
}

}  // namespace
}  // namespace passlab::testing
