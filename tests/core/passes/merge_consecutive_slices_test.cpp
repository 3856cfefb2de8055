// merge_consecutive_slices: Slice of Slice (same and different axes, steps,
// negative steps, attributes before opset 10), Slice of Concat, Slices to
// Split (inputs and attributes), the reasons each stays, numerics.
#include <gtest/gtest.h>

#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

const char* kPass = "merge_consecutive_slices";

TEST(MergeConsecutiveSlices, SliceOfSliceOnOneAxis) {
  // t = x[2:9], y = t[1:5:2] = x[3], x[5] = x[3:7:2]
  expectRewrite(
      kPass,
      R"(main (float[10,6] x) => (float[2,6] y) <int64[1] s1 = {2}, int64[1] e1 = {9}, int64[1] a = {0}, int64[1] s2 = {1}, int64[1] e2 = {5}, int64[1] st = {2}> {
      t = Slice(x, s1, e1, a)
      y = Slice(t, s2, e2, a, st) })",
      R"(main (float[10,6] x) => (float[2,6] y) <int64[1] s = {3}, int64[1] e = {7}, int64[1] a = {0}, int64[1] st = {2}> {
      y = Slice(x, s, e, a, st) })");
}

TEST(MergeConsecutiveSlices, SliceOfSliceOnTwoAxes) {
  // The outer Slice's axes come first, then the inner's.
  expectRewrite(
      kPass,
      R"(main (float[10,6] x) => (float[7,3] y) <int64[1] s1 = {2}, int64[1] e1 = {9}, int64[1] a1 = {0}, int64[1] s2 = {1}, int64[1] e2 = {4}, int64[1] a2 = {1}> {
      t = Slice(x, s1, e1, a1)
      y = Slice(t, s2, e2, a2) })",
      R"(main (float[10,6] x) => (float[7,3] y) <int64[2] s = {1, 2}, int64[2] e = {4, 9}, int64[2] a = {1, 0}, int64[2] st = {1, 1}> {
      y = Slice(x, s, e, a, st) })");
}

TEST(MergeConsecutiveSlices, SliceOfSliceWithAttributesBeforeOpset10) {
  const std::string h = R"(<ir_version: 4, opset_import: ["" : 9]>)";
  expectRewrite(kPass, h + R"(main (float[10,6] x) => (float[2,6] y) {
      t = Slice <starts = [1], ends = [5], axes = [0]> (x)
      y = Slice <starts = [1], ends = [3], axes = [0]> (t) })",
                h + R"(main (float[10,6] x) => (float[2,6] y) {
      y = Slice <axes = [0], ends = [4], starts = [2]> (x) })");
}

TEST(MergeConsecutiveSlices, NegativeStepsKeepTheElements) {
  // x[8:0:-1][1::3] = x[7], x[4], x[1]: the merged end lies before the front.
  expectSameOutputs(
      kPass,
      R"(main (float[10,3] x) => (float[3,3] y) <int64[1] s1 = {8}, int64[1] e1 = {0}, int64[1] a = {0}, int64[1] n = {-1}, int64[1] s2 = {1}, int64[1] e2 = {100}, int64[1] st = {3}> {
      t = Slice(x, s1, e1, a, n)
      y = Slice(t, s2, e2, a, st) })");
  expectSameOutputs(
      kPass,
      R"(main (float[10,3] x) => (float[3,3] y) <int64[1] s1 = {-2}, int64[1] e1 = {-100}, int64[1] a = {0}, int64[1] n = {-2}, int64[1] s2 = {-1}, int64[1] e2 = {-4}, int64[1] m = {-1}> {
      t = Slice(x, s1, e1, a, n)
      y = Slice(t, s2, e2, a, m) })");
}

TEST(MergeConsecutiveSlices, SliceOfExactlyOneConcatInput) {
  expectRewrite(
      kPass,
      R"(main (float[2,3] a, float[2,4] b, float[2,1] c) => (float[2,4] y) <int64[1] s = {3}, int64[1] e = {7}, int64[1] ax = {1}> {
      t = Concat <axis = 1> (a, b, c)
      u = Slice(t, s, e, ax)
      y = Relu(u) })",
      R"(main (float[2,3] a, float[2,4] b, float[2,1] c) => (float[2,4] y) {
      y = Relu(b) })");
}

TEST(MergeConsecutiveSlices, SlicesPartitioningAnAxisBecomeASplit) {
  expectRewrite(
      kPass,
      R"(main (float[2,6] x) => (float[2,2] y1, float[2,4] y2) <int64[1] s1 = {0}, int64[1] e1 = {2}, int64[1] a = {1}, int64[1] s2 = {2}, int64[1] e2 = {6}> {
      y1 = Slice(x, s1, e1, a)
      y2 = Slice(x, s2, e2, a) })",
      R"(main (float[2,6] x) => (float[2,2] y1, float[2,4] y2) <int64[2] sp = {2, 4}> {
      y1, y2 = Split <axis = 1> (x, sp) })");
}

TEST(MergeConsecutiveSlices, APartNoSliceReadsIsAnUnusedOutput) {
  const std::string h = R"(<ir_version: 6, opset_import: ["" : 11]>)";
  expectRewrite(
      kPass,
      h + R"(main (float[2,6] x) => (float[2,2] y1, float[2,1] y2) <int64[1] s1 = {0}, int64[1] e1 = {2}, int64[1] a = {1}, int64[1] s2 = {5}, int64[1] e2 = {6}> {
      y1 = Slice(x, s1, e1, a)
      y2 = Slice(x, s2, e2, a) })",
      h + R"(main (float[2,6] x) => (float[2,2] y1, float[2,1] y2) {
      y1, mid, y2 = Split <axis = 1, split = [2, 3, 1]> (x) })");
}

TEST(MergeConsecutiveSlices, KeepsAnInnerSliceWithASecondConsumer) {
  expectUnchanged(
      kPass,
      R"(main (float[10,6] x) => (float[2,6] y, float[7,6] z) <int64[1] s1 = {2}, int64[1] e1 = {9}, int64[1] a = {0}, int64[1] s2 = {1}, int64[1] e2 = {3}> {
      t = Slice(x, s1, e1, a)
      y = Slice(t, s2, e2, a)
      z = Relu(t) })",
      "inner Slice output 't' has 2 consumers");
}

TEST(MergeConsecutiveSlices, KeepsSlicesOfADynamicAxisCutTwice) {
  expectUnchanged(
      kPass,
      R"(main (float[N,6] x) => (float[M,6] y) <int64[1] s1 = {2}, int64[1] e1 = {9}, int64[1] a = {0}, int64[1] s2 = {1}, int64[1] e2 = {3}> {
      t = Slice(x, s1, e1, a)
      y = Slice(t, s2, e2, a) })",
      "whose size is not static");
}

TEST(MergeConsecutiveSlices, KeepsOverlappingSlices) {
  expectUnchanged(
      kPass,
      R"(main (float[2,6] x) => (float[2,4] y1, float[2,4] y2) <int64[1] s1 = {0}, int64[1] e1 = {4}, int64[1] a = {1}, int64[1] s2 = {2}, int64[1] e2 = {6}> {
      y1 = Slice(x, s1, e1, a)
      y2 = Slice(x, s2, e2, a) })",
      "the Slices of this input overlap");
}

TEST(MergeConsecutiveSlices, KeepsASliceAcrossTwoConcatInputs) {
  expectUnchanged(
      kPass,
      R"(main (float[2,3] a, float[2,4] b) => (float[2,3] y) <int64[1] s = {2}, int64[1] e = {5}, int64[1] ax = {1}> {
      t = Concat <axis = 1> (a, b)
      u = Slice(t, s, e, ax)
      y = Relu(u) })",
      "the Slice range is not exactly one Concat input");
}

TEST(MergeConsecutiveSlices, KeepsAModelOutputThatWouldBeRenamed) {
  expectUnchanged(
      kPass,
      R"(main (float[2,3] a, float[2,4] b) => (float[2,4] y) <int64[1] s = {3}, int64[1] e = {7}, int64[1] ax = {1}> {
      t = Concat <axis = 1> (a, b)
      y = Slice(t, s, e, ax) })",
      "'y' is a model output and 'b' is a model input or constant");
}

TEST(MergeConsecutiveSlices, ANegativeStepOnAnEmptySlice) {
  // The inner Slice is empty; resolving the outer one against size 0 gives nothing.
  expectRewrite(
      kPass,
      R"(main (float[4,3] x) => (float[0,3] y) <int64[1] s1 = {2}, int64[1] a = {0}, int64[1] s2 = {-1}, int64[1] e2 = {-100}, int64[1] n = {-1}> {
      t = Slice(x, s1, s1, a)
      y = Slice(t, s2, e2, a, n) })",
      R"(main (float[4,3] x) => (float[0,3] y) <int64[1] z = {0}, int64[1] z2 = {0}, int64[1] a = {0}, int64[1] one = {1}> {
      y = Slice(x, z, z2, a, one) })");
}

TEST(MergeConsecutiveSlices, Converges) {
  expectConverges(
      kPass,
      R"(main (float[10,6] x) => (float[2,3] y, float[10,6] z) <int64[1] s1 = {2}, int64[1] e1 = {9}, int64[1] a = {0}, int64[1] s2 = {1}, int64[1] e2 = {5}, int64[1] st = {2}, int64[1] b = {1}, int64[1] c = {3}> {
      t = Slice(x, s1, e1, a)
      u = Slice(t, s2, e2, a, st)
      y = Slice(u, a, c, b)
      z = Relu(x) })");
}

TEST(MergeConsecutiveSlices, OutputsStayTheSame) {
  expectSameOutputs(
      kPass,
      R"(main (float[10,6] x, float[2,3] p, float[2,4] q) => (float[2,3] y, float[2,2] y1, float[2,2] y2, float[2,4] w)
      <int64[1] s1 = {2}, int64[1] e1 = {9}, int64[1] a = {0}, int64[1] s2 = {1}, int64[1] e2 = {5}, int64[1] st = {2},
       int64[1] b = {1}, int64[1] c = {3}, int64[1] z = {0}, int64[1] k = {2}, int64[1] six = {6}, int64[1] seven = {7}> {
      t = Slice(x, s1, e1, a)
      u = Slice(t, s2, e2, a, st)
      y = Slice(u, a, c, b)
      y1 = Slice(p, z, k, b)
      g = Concat <axis = 1> (p, q)
      h = Slice(g, c, seven, b)
      w = Neg(h)
      v1 = Slice(q, z, k, b)
      v2 = Slice(q, k, six, b)
      y2 = Mul(v1, v2) })");
}

}  // namespace
}  // namespace passlab::testing
