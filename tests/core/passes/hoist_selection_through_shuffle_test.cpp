// hoist_selection_through_shuffle: Gather, Split and Slice that take whole
// groups of a channel shuffle select before its Transpose, which goes;
// not where the indices are not constant, the perm is not a shuffle, or a
// consumer needs the whole shuffled tensor; convergence; numerics.
#include <gtest/gtest.h>

#include "tests/core/passes/fusion_test_util.h"

namespace passlab::testing {
namespace {

const char* kPass = "hoist_selection_through_shuffle";
const char* kOpset17 = R"(<ir_version: 8, opset_import: ["" : 17]>
)";

// ShuffleNetV2's own channel split: [1, 8, 2, 3] -> [4, 2, 6] -> [2, 4, 6]
// -> [2, 1, 4, 2, 3], then the two halves with Gather on axis 0.
const char* kGatherHalves = R"(main (float[1,8,2,3] x) => (float[1,4,2,3] a, float[1,4,2,3] b)
    <int64[3] s1 = {4, 2, 6}, int64[5] s2 = {2, 1, 4, 2, 3}, int64 zero = {0}, int64 one = {1}> {
      r = Reshape(x, s1)
      t = Transpose <perm = [1, 0, 2]> (r)
      y = Reshape(t, s2)
      a = Gather <axis = 0> (y, zero)
      b = Gather <axis = 0> (y, one) })";

TEST(HoistSelectionThroughShuffle, GatherOfTheHalvesTakesThemBeforeTheTranspose) {
  expectRewrite(
      kPass, std::string(kOpset17) + kGatherHalves,
      std::string(kOpset17) + R"(main (float[1,8,2,3] x) => (float[1,4,2,3] a, float[1,4,2,3] b)
    <int64[3] s1 = {4, 2, 6}, int64 zero = {0}, int64 one = {1}, int64[4] c = {1, 4, 2, 3}> {
      r = Reshape(x, s1)
      ga = Gather <axis = 1> (r, zero)
      a = Reshape(ga, c)
      gb = Gather <axis = 1> (r, one)
      b = Reshape(gb, c) })");
}

// The same with Split into parts of 1 and groups of 3: [1, 6, 2] -> [2, 3, 2] -> [3, 2, 2].
const char* kSplitThree =
    R"(main (float[1,6,2] x) => (float[1,2,2] a, float[1,2,2] b, float[1,2,2] c)
    <int64[3] s1 = {2, 3, 2}, int64[4] s2 = {3, 1, 2, 2}, int64[3] ones = {1, 1, 1}, int64[3] s3 = {1, 2, 2}> {
      r = Reshape(x, s1)
      t = Transpose <perm = [1, 0, 2]> (r)
      y = Reshape(t, s2)
      pa, pb, pc = Split <axis = 0> (y, ones)
      a = Reshape(pa, s3)
      b = Reshape(pb, s3)
      c = Reshape(pc, s3) })";

TEST(HoistSelectionThroughShuffle, SplitIntoSingleGroupsOfThree) {
  expectRewrite(kPass, std::string(kOpset17) + kSplitThree,
                std::string(kOpset17) +
                    R"(main (float[1,6,2] x) => (float[1,2,2] a, float[1,2,2] b, float[1,2,2] c)
    <int64[3] s1 = {2, 3, 2}, int64[3] ones = {1, 1, 1}, int64[3] s3 = {1, 2, 2},
     int64[4] k = {1, 1, 2, 2}> {
      r = Reshape(x, s1)
      qa, qb, qc = Split <axis = 1> (r, ones)
      pa = Reshape(qa, k)
      pb = Reshape(qb, k)
      pc = Reshape(qc, k)
      a = Reshape(pa, s3)
      b = Reshape(pb, s3)
      c = Reshape(pc, s3) })");
}

// picodet's shuffle, [N, C, H, W] -> [N, 2, C/2, H, W] -> perm [0,2,1,3,4] ->
// [N, C, H, W], then every second channel with a stepped Slice.
const char* kSliceSteps = R"(main (float[1,8,2,2] x) => (float[1,4,2,2] e, float[1,4,2,2] o)
    <int64[5] s1 = {1, 2, 4, 2, 2}, int64[4] s2 = {1, 8, 2, 2}, int64[1] zero = {0},
     int64[1] one = {1}, int64[1] big = {8}, int64[1] two = {2}> {
      r = Reshape(x, s1)
      t = Transpose <perm = [0, 2, 1, 3, 4]> (r)
      y = Reshape(t, s2)
      e = Slice(y, zero, big, one, two)
      o = Slice(y, one, big, one, two) })";

TEST(HoistSelectionThroughShuffle, SliceWithStepTakesAGroupBeforeTheTranspose) {
  expectRewrite(
      kPass, std::string(kOpset17) + kSliceSteps,
      std::string(kOpset17) + R"(main (float[1,8,2,2] x) => (float[1,4,2,2] e, float[1,4,2,2] o)
    <int64[5] s1 = {1, 2, 4, 2, 2}, int64[1] b0 = {0}, int64[1] e0 = {1}, int64[1] a0 = {1},
     int64[1] t0 = {1}, int64[1] b1 = {1}, int64[1] e1 = {2}, int64[1] a1 = {1}, int64[1] t1 = {1},
     int64[4] c = {1, 4, 2, 2}> {
      r = Reshape(x, s1)
      se = Slice(r, b0, e0, a0, t0)
      e = Reshape(se, c)
      so = Slice(r, b1, e1, a1, t1)
      o = Reshape(so, c) })");  // deduplicate_initializers merges the constants
}

TEST(HoistSelectionThroughShuffle, Converges) {
  expectConverges(kPass, std::string(kOpset17) + kGatherHalves);
  expectConverges(kPass, std::string(kOpset17) + kSplitThree);
  expectConverges(kPass, std::string(kOpset17) + kSliceSteps);
}

TEST(HoistSelectionThroughShuffle, OutputsStayTheSame) {
  expectSameOutputs(kPass, std::string(kOpset17) + kGatherHalves);
  expectSameOutputs(kPass, std::string(kOpset17) + kSplitThree);
  expectSameOutputs(kPass, std::string(kOpset17) + kSliceSteps);
}

// Without a Reshape after the Transpose, and Split with its sizes as an
// attribute (opset 11): the groups come straight off r's axis 1.
const char* kOpset11 = R"(<ir_version: 6, opset_import: ["" : 11]>
)";
const char* kSplitAttr = R"(main (float[2,2,3] r) => (float[1,2,3] a, float[1,2,3] b) {
      t = Transpose <perm = [1, 0, 2]> (r)
      a, b = Split <axis = 0, split = [1, 1]> (t) })";

TEST(HoistSelectionThroughShuffle, SplitOfTheTransposeItselfAtOpset11) {
  expectRewrite(kPass, std::string(kOpset11) + kSplitAttr,
                std::string(kOpset11) + R"(main (float[2,2,3] r) => (float[1,2,3] a, float[1,2,3] b)
    <int64[3] c = {1, 2, 3}> {
      p, q = Split <axis = 1, split = [1, 1]> (r)
      a = Reshape(p, c)
      b = Reshape(q, c) })");
  expectSameOutputs(kPass, std::string(kOpset11) + kSplitAttr);
  expectConverges(kPass, std::string(kOpset11) + kSplitAttr);
}

TEST(HoistSelectionThroughShuffle, KeepsNonConstantGatherIndices) {
  expectUnchanged(kPass,
                  std::string(kOpset17) + R"(main (float[1,8,2,3] x, int64 i) => (float[1,4,2,3] a)
    <int64[3] s1 = {4, 2, 6}, int64[5] s2 = {2, 1, 4, 2, 3}> {
      r = Reshape(x, s1)
      t = Transpose <perm = [1, 0, 2]> (r)
      y = Reshape(t, s2)
      a = Gather <axis = 0> (y, i) })",
                  "the indices are not one constant");
}

TEST(HoistSelectionThroughShuffle, KeepsAPermThatIsNotAShuffle) {
  // Taking one index of axis 2 leaves axes 1 and 0 swapped.
  expectUnchanged(kPass, std::string(kOpset17) + R"(main (float[2,3,4] r) => (float[3,2] a)
    <int64 zero = {0}> {
      t = Transpose <perm = [1, 0, 2]> (r)
      a = Gather <axis = 2> (t, zero) })",
                  "still moves data (not a shuffle of that axis)");
}

TEST(HoistSelectionThroughShuffle, KeepsAShuffleAConsumerNeedsWhole) {
  expectUnchanged(
      kPass,
      std::string(kOpset17) + R"(main (float[1,8,2,2] x) => (float[1,4,2,2] e, float[1,8,2,2] z)
    <int64[5] s1 = {1, 2, 4, 2, 2}, int64[4] s2 = {1, 8, 2, 2}, int64[1] zero = {0},
     int64[1] one = {1}, int64[1] big = {8}, int64[1] two = {2}> {
      r = Reshape(x, s1)
      t = Transpose <perm = [0, 2, 1, 3, 4]> (r)
      y = Reshape(t, s2)
      e = Slice(y, zero, big, one, two)
      z = Relu(y) })",
      "Relu");
}

TEST(HoistSelectionThroughShuffle, KeepsASplitIntoContiguousHalves) {
  // picodet's spelling: the halves of a shuffle are themselves interleaved.
  expectUnchanged(
      kPass,
      std::string(kOpset17) + R"(main (float[1,8,2,2] x) => (float[1,4,2,2] a, float[1,4,2,2] b)
    <int64[5] s1 = {1, 2, 4, 2, 2}, int64[4] s2 = {1, 8, 2, 2}, int64[2] halves = {4, 4}> {
      r = Reshape(x, s1)
      t = Transpose <perm = [0, 2, 1, 3, 4]> (r)
      y = Reshape(t, s2)
      a, b = Split <axis = 1> (y, halves) })",
      "contiguous parts of shuffled channels interleave the groups");
}

}  // namespace
}  // namespace passlab::testing
