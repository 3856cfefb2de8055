// replace_computed_reshape_shapes, rule reshape_shape_copying_input_dims
// (issue 24): a computed shape whose dims are read from the Reshape's own
// data at their own position becomes a constant with 0 ("copy") there;
// where it must not (allowzero = 1, a dim read at another position, a -1
// next to a copied dim that may be 0, two unknown dims); convergence;
// numerics.
#include <gtest/gtest.h>

#include "tests/core/passes/fusion_test_util.h"

namespace passlab::testing {
namespace {

const char* kPass = "replace_computed_reshape_shapes";
const char* kOpset17 = R"(<ir_version: 8, opset_import: ["" : 17]>
)";

// A head split with batch and sequence read at run time: [N, T, 8] -> [N, T, 2, 4].
const char* kHeadSplit = R"(main (float[N,T,8] x) => (float[N,T,2,4] y)
    <int64 zero = {0}, int64 one = {1}, int64[1] ax = {0}, int64[1] two = {2},
     int64[1] four = {4}> {
      s = Shape(x)
      b = Gather(s, zero)
      t = Gather(s, one)
      ub = Unsqueeze(b, ax)
      ut = Unsqueeze(t, ax)
      shape = Concat <axis = 0> (ub, ut, two, four)
      y = Reshape(x, shape) })";

TEST(ReshapeShapeCopyingInputDims, DimsReadFromTheDataAtTheirPositionBecomeZero) {
  expectRewrite(kPass, std::string(kOpset17) + kHeadSplit,
                std::string(kOpset17) + R"(main (float[N,T,8] x) => (float[N,T,2,4] y)
    <int64 zero = {0}, int64 one = {1}, int64[1] ax = {0}, int64[1] two = {2},
     int64[1] four = {4}, int64[4] c = {0, 0, 2, 4}> {
      s = Shape(x)
      b = Gather(s, zero)
      t = Gather(s, one)
      ub = Unsqueeze(b, ax)
      ut = Unsqueeze(t, ax)
      shape = Concat <axis = 0> (ub, ut, two, four)
      y = Reshape(x, c) })");  // the shape arithmetic is left to eliminate_dead_nodes
}

// Gather with a one-element index list (no Unsqueeze), and a merge of the heads.
const char* kHeadMerge = R"(main (float[N,T,2,4] x) => (float[N,T,8] y)
    <int64[1] i0 = {0}, int64[1] i1 = {1}, int64[1] eight = {8}> {
      s = Shape(x)
      b = Gather(s, i0)
      t = Gather(s, i1)
      shape = Concat <axis = 0> (b, t, eight)
      y = Reshape(x, shape) })";

TEST(ReshapeShapeCopyingInputDims, OneElementGathersWithoutUnsqueeze) {
  expectRewrite(kPass, std::string(kOpset17) + kHeadMerge,
                std::string(kOpset17) + R"(main (float[N,T,2,4] x) => (float[N,T,8] y)
    <int64[1] i0 = {0}, int64[1] i1 = {1}, int64[1] eight = {8}, int64[3] c = {0, 0, 8}> {
      s = Shape(x)
      b = Gather(s, i0)
      t = Gather(s, i1)
      shape = Concat <axis = 0> (b, t, eight)
      y = Reshape(x, c) })");
}

// Flatten: [N, H, W] -> [N, H*W]; H*W is computed, so it needs a -1.
const char* kFlatten = R"(main (float[N,H,W] x) => (float[N,?] y)
    <int64 zero = {0}, int64 one = {1}, int64 two = {2}, int64[1] ax = {0}> {
      s = Shape(x)
      b = Gather(s, zero)
      h = Gather(s, one)
      w = Gather(s, two)
      hw = Mul(h, w)
      ub = Unsqueeze(b, ax)
      uhw = Unsqueeze(hw, ax)
      shape = Concat <axis = 0> (ub, uhw)
      y = Reshape(x, shape) })";

TEST(ReshapeShapeCopyingInputDims, KeepsAMinusOneNextToACopiedDimThatMayBeZero) {
  expectUnchanged(kPass, std::string(kOpset17) + kFlatten,
                  "and dim 0 may be 0 at run time, which would leave the -1 undetermined");
}

TEST(ReshapeShapeCopyingInputDims, WritesTheMinusOneWhenTensorsAreAssumedNonempty) {
  const passes::Options nonempty{{"assume_nonempty", "true"}};
  expectRewrite(kPass, std::string(kOpset17) + kFlatten,
                std::string(kOpset17) + R"(main (float[N,H,W] x) => (float[N,?] y)
    <int64 zero = {0}, int64 one = {1}, int64 two = {2}, int64[1] ax = {0},
     int64[2] c = {0, -1}> {
      s = Shape(x)
      b = Gather(s, zero)
      h = Gather(s, one)
      w = Gather(s, two)
      hw = Mul(h, w)
      ub = Unsqueeze(b, ax)
      uhw = Unsqueeze(hw, ax)
      shape = Concat <axis = 0> (ub, uhw)
      y = Reshape(x, c) })",
                nonempty);
  expectSameOutputs(kPass, std::string(kOpset17) + kFlatten, nonempty);
  expectConverges(kPass, std::string(kOpset17) + kFlatten, nonempty);
}

TEST(ReshapeShapeCopyingInputDims, KeepsAllowzeroOne) {
  std::string text = kHeadSplit;
  text.replace(text.find("y = Reshape(x, shape)"), 21, "y = Reshape <allowzero = 1> (x, shape)");
  expectUnchanged(kPass, std::string(kOpset17) + text, "allowzero = 1");
}

TEST(ReshapeShapeCopyingInputDims, KeepsADimReadFromAnotherPosition) {
  // [N, T, 8] -> [T, N, 8]: 0 would copy N where T belongs.
  expectUnchanged(kPass, std::string(kOpset17) + R"(main (float[N,T,8] x) => (float[T,N,8] y)
    <int64 zero = {0}, int64 one = {1}, int64[1] ax = {0}, int64[1] eight = {8}> {
      s = Shape(x)
      b = Gather(s, zero)
      t = Gather(s, one)
      ub = Unsqueeze(b, ax)
      ut = Unsqueeze(t, ax)
      shape = Concat <axis = 0> (ut, ub, eight)
      y = Reshape(x, shape) })",
                  "dim 0 is read from dim 1 of the data (0 copies only the same position)");
}

TEST(ReshapeShapeCopyingInputDims, KeepsASecondUnknownDim) {
  // [N, A, B, C] -> [N, A*B, C]: N copied, A*B computed and C read from dim 3 at position 2.
  expectUnchanged(
      kPass, std::string(kOpset17) + R"(main (float[N,A,B,C] x) => (float[N,?,C] y)
    <int64 zero = {0}, int64 one = {1}, int64 two = {2}, int64 three = {3}, int64[1] ax = {0}> {
      s = Shape(x)
      n = Gather(s, zero)
      a = Gather(s, one)
      b = Gather(s, two)
      c = Gather(s, three)
      ab = Mul(a, b)
      un = Unsqueeze(n, ax)
      uab = Unsqueeze(ab, ax)
      uc = Unsqueeze(c, ax)
      shape = Concat <axis = 0> (un, uab, uc)
      y = Reshape(x, shape) })",
      "2 dims are neither copied from the data at the same position nor static numbers");
}

TEST(ReshapeShapeCopyingInputDims, Converges) {
  expectConverges(kPass, std::string(kOpset17) + kHeadSplit);
  expectConverges(kPass, std::string(kOpset17) + kHeadMerge);
}

TEST(ReshapeShapeCopyingInputDims, OutputsStayTheSame) {
  expectSameOutputs(kPass, std::string(kOpset17) + kHeadSplit);
  expectSameOutputs(kPass, std::string(kOpset17) + kHeadMerge);
}

}  // namespace
}  // namespace passlab::testing
