// hoist_slice_gather: Slice and Gather moved before the elementwise op they
// read (broadcast operands kept, constant operands selected and folded,
// scalar indices), the reasons they stay, numerics.
#include <gtest/gtest.h>

#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

const char* kPass = "hoist_slice_gather";

TEST(HoistSliceGather, SliceOfAnAxisTheConstantBroadcastsAlong) {
  expectRewrite(kPass, R"(main (float[4,6] x) => (float[2,6] y)
      <float[6] c = {1, 2, 3, 4, 5, 6}, int64[1] s = {1}, int64[1] e = {3}, int64[1] a = {0}> {
      t = Mul(x, c)
      y = Slice(t, s, e, a) })",
                R"(main (float[4,6] x) => (float[2,6] y)
      <float[6] c = {1, 2, 3, 4, 5, 6}, int64[1] s = {1}, int64[1] e = {3}, int64[1] a = {0}, int64[1] st = {1}> {
      u = Slice(x, s, e, a, st)
      y = Mul(u, c) })");
}

TEST(HoistSliceGather, SliceOfAnAxisTheConstantHasIsFoldedIntoIt) {
  expectRewrite(kPass, R"(main (float[4,6] x) => (float[4,3] y)
      <float[6] c = {1, 2, 3, 4, 5, 6}, int64[1] s = {2}, int64[1] e = {5}, int64[1] a = {1}> {
      t = Mul(x, c)
      y = Slice(t, s, e, a) })",
                R"(main (float[4,6] x) => (float[4,3] y)
      <float[3] c2 = {3, 4, 5}, int64[1] s = {2}, int64[1] e = {5}, int64[1] a = {1}, int64[1] st = {1}> {
      u = Slice(x, s, e, a, st)
      y = Mul(u, c2) })");
}

TEST(HoistSliceGather, SliceWithAttributesBeforeOpset10) {
  const std::string h = R"(<ir_version: 4, opset_import: ["" : 9]>)";
  expectRewrite(kPass, h + R"(main (float[4,6] x) => (float[2,6] y) {
      t = Relu(x)
      y = Slice <starts = [1], ends = [3], axes = [0]> (t) })",
                h + R"(main (float[4,6] x) => (float[2,6] y) {
      u = Slice <axes = [0], ends = [3], starts = [1]> (x)
      y = Relu(u) })");
}

TEST(HoistSliceGather, GatherBeforeAUnaryOp) {
  expectRewrite(kPass, R"(main (float[4,3] x) => (float[2,3] y) <int64[2] i = {2, 0}> {
      t = Relu(x)
      y = Gather <axis = 0> (t, i) })",
                R"(main (float[4,3] x) => (float[2,3] y) <int64[2] i = {2, 0}> {
      g = Gather <axis = 0> (x, i)
      y = Relu(g) })");
}

TEST(HoistSliceGather, ScalarIndexDropsTheAxisOfTheConstantToo) {
  expectRewrite(
      kPass, R"(main (float[4,3] x) => (float[3] y) <float[4,1] c = {1, 2, 3, 4}, int64 i = {2}> {
      t = Add(x, c)
      y = Gather <axis = 0> (t, i) })",
      R"(main (float[4,3] x) => (float[3] y) <float[1] c2 = {3}, int64 i = {2}> {
      g = Gather <axis = 0> (x, i)
      y = Add(g, c2) })");
}

TEST(HoistSliceGather, GatherAlongTheLastAxis) {
  expectRewrite(
      kPass,
      R"(main (float[4,3] x) => (float[4,2] y) <float[3] c = {1, 2, 3}, int64[2] i = {0, -1}> {
      t = Sub(c, x)
      y = Gather <axis = 1> (t, i) })",
      R"(main (float[4,3] x) => (float[4,2] y) <float[2] c2 = {1, 3}, int64[2] i = {0, -1}> {
      g = Gather <axis = 1> (x, i)
      y = Sub(c2, g) })");
}

TEST(HoistSliceGather, KeepsAnOpResultWithASecondConsumer) {
  expectUnchanged(kPass, R"(main (float[4,6] x) => (float[2,6] y, float[4,6] z)
      <float[6] c = {1, 2, 3, 4, 5, 6}, int64[1] s = {1}, int64[1] e = {3}, int64[1] a = {0}> {
      t = Mul(x, c)
      y = Slice(t, s, e, a)
      z = Neg(t) })",
                  "Mul output 't' has 2 consumers");
}

TEST(HoistSliceGather, KeepsTwoFullSizeInputs) {
  expectUnchanged(kPass, R"(main (float[4,6] x, float[4,6] w) => (float[2,6] y)
      <int64[1] s = {1}, int64[1] e = {3}, int64[1] a = {0}> {
      t = Add(x, w)
      y = Slice(t, s, e, a) })",
                  "two non-constant operands would each need a Slice");
}

TEST(HoistSliceGather, KeepsASliceOfEverything) {
  expectUnchanged(kPass, R"(main (float[4,6] x) => (float[4,6] y)
      <int64[1] s = {0}, int64[1] e = {4}, int64[1] a = {0}> {
      t = Relu(x)
      y = Slice(t, s, e, a) })",
                  "the Slice keeps every element");
}

TEST(HoistSliceGather, KeepsAGatherOfEveryIndex) {
  expectUnchanged(kPass, R"(main (float[4,3] x) => (float[4,3] y) <int64[4] i = {3, 2, 1, 0}> {
      t = Relu(x)
      y = Gather(t, i) })",
                  "the Gather selects as many elements as it reads");
}

TEST(HoistSliceGather, KeepsAScalarIndexThatWouldNeedASqueeze) {
  expectUnchanged(kPass, R"(main (float[4,3] x, float[1,3] z) => (float[3] y) <int64 i = {2}> {
      t = Add(x, z)
      y = Gather(t, i) })",
                  "it would need a Squeeze");
}

TEST(HoistSliceGather, KeepsALegacyBroadcast) {
  expectUnchanged(kPass, R"(<ir_version: 3, opset_import: ["" : 6]>
      main (float[4,6] x) => (float[2,6] y) {
      c = Constant <value = float[4] {1, 2, 3, 4}> ()
      t = Mul <broadcast = 1, axis = 0> (x, c)
      y = Slice <starts = [1], ends = [3], axes = [0]> (t) })",
                  "the input is not produced by an elementwise op");
}

TEST(HoistSliceGather, Converges) {
  expectConverges(kPass, R"(main (float[4,6] x) => (float[2,3] y)
      <float[6] c = {1, 2, 3, 4, 5, 6}, int64[2] s = {1, 2}, int64[2] e = {3, 5}, int64[2] a = {0, 1}> {
      t = Mul(x, c)
      r = Relu(t)
      y = Slice(r, s, e, a) })");
}

TEST(HoistSliceGather, OutputsStayTheSame) {
  expectSameOutputs(kPass, R"(main (float[4,6] x) => (float[2,3] y, float[4,2] w, float[6] v)
      <float[4,1] c = {1, -2, 3, 0.5}, int64[2] s = {3, 5}, int64[2] e = {0, 0}, int64[2] a = {0, -1}, int64[2] st = {-2, -2},
       int64[2] i = {5, 1}, int64 j = {3}, float h = {0.5}> {
      t = Mul(x, c)
      y = Slice(t, s, e, a, st)
      q = Clip(x)
      p = Sigmoid(q)
      w = Gather <axis = 1> (p, i)
      g = Greater(x, c)
      k = Where(g, c, h)
      v = Gather(k, j) })");
}

}  // namespace
}  // namespace passlab::testing
