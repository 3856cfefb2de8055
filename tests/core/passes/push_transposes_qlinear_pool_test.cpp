// push_transposes through ONNX Runtime's com.microsoft QLinearAveragePool and
// QLinearGlobalAveragePool (a chain that moves channels last to first, or
// back, passes by flipping channels_last) and QLinearReduceMean (like
// ReduceMean: its axes attribute mapped; reduce_absorbs_transpose too). The
// rewrites exactly, outputs kept (the executor runs the QLinear ops),
// convergence, and where they must not fire (with the reason).
#include <gtest/gtest.h>

#include "core/io/text_format.h"
#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

const char* kPass = "push_transposes";

// NHWC -> NCHW, a channels-first pool, back to NHWC: the pool reads NHWC.
const char* kAveragePool = R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>
main (uint8[1,4,4,3] x) => (uint8[1,2,2,3] y)
    <float sx = {0.05}, uint8 zx = {128}, float sy = {0.04}, uint8 zy = {120}> {
    t = Transpose <perm = [0, 3, 1, 2]> (x)
    p = com.microsoft.QLinearAveragePool <kernel_shape = [2, 2], strides = [2, 2]> (t, sx, zx, sy, zy)
    y = Transpose <perm = [0, 2, 3, 1]> (p) })";

TEST(PushTransposesQLinearPool, AveragePoolReadsChannelsLastAndBothTransposesGo) {
  expectRewrite(kPass, kAveragePool,
                R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>
main (uint8[1,4,4,3] x) => (uint8[1,2,2,3] y)
    <float sx = {0.05}, uint8 zx = {128}, float sy = {0.04}, uint8 zy = {120}> {
    y = com.microsoft.QLinearAveragePool <kernel_shape = [2, 2], strides = [2, 2], channels_last = 1>
        (x, sx, zx, sy, zy) })");
  expectSameOutputs(kPass, kAveragePool);
  expectConverges(kPass, kAveragePool);
}

// NCHW -> NHWC, a channels-last global pool, back to NCHW: the pool reads NCHW.
const char* kGlobalPool = R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>
main (int8[2,3,4,5] x) => (int8[2,3,1,1] y)
    <float sx = {0.1}, int8 zx = {-3}, float sy = {0.02}, int8 zy = {4}> {
    t = Transpose <perm = [0, 2, 3, 1]> (x)
    p = com.microsoft.QLinearGlobalAveragePool <channels_last = 1> (t, sx, zx, sy, zy)
    y = Transpose <perm = [0, 3, 1, 2]> (p) })";

TEST(PushTransposesQLinearPool, ChannelsLastGlobalPoolReadsChannelsFirst) {
  expectRewrite(kPass, kGlobalPool, R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>
main (int8[2,3,4,5] x) => (int8[2,3,1,1] y)
    <float sx = {0.1}, int8 zx = {-3}, float sy = {0.02}, int8 zy = {4}> {
    y = com.microsoft.QLinearGlobalAveragePool <channels_last = 0> (x, sx, zx, sy, zy) })");
  expectSameOutputs(kPass, kGlobalPool);
  expectConverges(kPass, kGlobalPool);
}

// A channels-last island of a QOperator model: NHWC -> NCHW, QLinearLeakyRelu,
// a pool, QLinearReduceMean over the channels (keepdims), back to NHWC. The
// chain runs on x as it is; no Transpose is left.
const char* kIsland = R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>
main (uint8[1,6,6,4] x) => (uint8[1,3,3,1] y)
    <float s = {0.05}, uint8 z = {128}, float s2 = {0.03}, uint8 z2 = {100}> {
    t = Transpose <perm = [0, 3, 1, 2]> (x)
    a = com.microsoft.QLinearLeakyRelu <alpha = 0.1> (t, s, z, s, z)
    p = com.microsoft.QLinearAveragePool <kernel_shape = [3, 3], strides = [2, 2], pads = [1, 1, 1, 1]>
        (a, s, z, s2, z2)
    m = com.microsoft.QLinearReduceMean <axes = [1], keepdims = 1> (p, s2, z2, s, z)
    y = Transpose <perm = [0, 2, 3, 1]> (m) })";

TEST(PushTransposesQLinearPool, ChannelsLastIslandLosesBothTransposes) {
  expectRewrite(kPass, kIsland, R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>
main (uint8[1,6,6,4] x) => (uint8[1,3,3,1] y)
    <float s = {0.05}, uint8 z = {128}, float s2 = {0.03}, uint8 z2 = {100}> {
    a = com.microsoft.QLinearLeakyRelu <alpha = 0.1> (x, s, z, s, z)
    p = com.microsoft.QLinearAveragePool <kernel_shape = [3, 3], strides = [2, 2], pads = [1, 1, 1, 1],
        channels_last = 1> (a, s, z, s2, z2)
    y = com.microsoft.QLinearReduceMean <axes = [3], keepdims = 1> (p, s2, z2, s, z) })");
  expectSameOutputs(kPass, kIsland);
  expectConverges(kPass, kIsland);
}

// QLinearReduceMean without keepdims changes the rank: the Transposes merge
// into one on the smaller result.
const char* kReduceRank = R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>
main (int8[2,3,4] x) => (int8[3,2] y) <float s = {0.1}, int8 z = {1}> {
    t = Transpose <perm = [2, 0, 1]> (x)
    m = com.microsoft.QLinearReduceMean <axes = [0], keepdims = 0> (t, s, z, s, z)
    y = Transpose <perm = [1, 0]> (m) })";

TEST(PushTransposesQLinearReduceMean, WithoutKeepdimsTheTransposesMerge) {
  expectRewrite(kPass, kReduceRank, R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>
main (int8[2,3,4] x) => (int8[3,2] y) <float s = {0.1}, int8 z = {1}> {
    m = com.microsoft.QLinearReduceMean <axes = [2], keepdims = 0> (x, s, z, s, z)
    y = Transpose <perm = [1, 0]> (m) })");
  expectSameOutputs(kPass, kReduceRank);
  expectConverges(kPass, kReduceRank);
}

// reduce_absorbs_transpose: the kept axes stay in order, so no Transpose follows.
const char* kAbsorbed = R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>
main (uint8[2,3,4] x) => (uint8[2,3] y) <float s = {0.1}, uint8 z = {7}> {
    t = Transpose <perm = [0, 2, 1]> (x)
    y = com.microsoft.QLinearReduceMean <axes = [1], keepdims = 0> (t, s, z, s, z) })";

TEST(PushTransposesQLinearReduceMean, AbsorbsATransposeThatKeepsTheKeptAxesInOrder) {
  expectRewrite(kPass, kAbsorbed, R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>
main (uint8[2,3,4] x) => (uint8[2,3] y) <float s = {0.1}, uint8 z = {7}> {
    y = com.microsoft.QLinearReduceMean <axes = [2], keepdims = 0> (x, s, z, s, z) })");
  expectSameOutputs(kPass, kAbsorbed);
  expectConverges(kPass, kAbsorbed);
}

// ---- where it must not fire ----

// A channels-first pool on a value moved NCHW -> NHWC: flipping channels_last
// cannot undo that move.
TEST(PushTransposesQLinearPool, KeepsAPoolWhoseLayoutTheChainDoesNotFlip) {
  expectUnchanged(kPass, R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>
main (uint8[1,3,4,4] x) => (uint8[1,1,4,1] y) <float s = {0.1}, uint8 z = {0}> {
    t = Transpose <perm = [0, 2, 3, 1]> (x)
    p = com.microsoft.QLinearGlobalAveragePool(t, s, z, s, z)
    y = Transpose <perm = [0, 3, 1, 2]> (p) })",
                  "with channels_last = 0 reads the chain transposed by [0, 2, 3, 1], not by "
                  "[0, 3, 1, 2]");
}

// Only the move of the channels: a perm that also swaps H and W does not pass.
TEST(PushTransposesQLinearPool, KeepsAPoolBehindAPermThatAlsoSwapsSpatialDims) {
  expectUnchanged(kPass, R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>
main (uint8[1,4,5,3] x) => (uint8[1,2,2,3] y) <float s = {0.1}, uint8 z = {0}> {
    t = Transpose <perm = [0, 3, 2, 1]> (x)
    p = com.microsoft.QLinearAveragePool <kernel_shape = [2, 2], strides = [2, 2]> (t, s, z, s, z)
    y = Transpose <perm = [0, 3, 2, 1]> (p) })",
                  "not by [0, 3, 1, 2]");
}

TEST(PushTransposesQLinearReduceMean, KeepsOneWithoutAnAxesAttribute) {
  expectUnchanged(kPass, R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>
main (uint8[2,3,4] x) => (uint8[4,3,2] y) <float s = {0.1}, uint8 z = {0}> {
    t = Transpose <perm = [2, 1, 0]> (x)
    m = com.microsoft.QLinearReduceMean <keepdims = 1> (t, s, z, s, z)
    y = Transpose <perm = [2, 1, 0]> (m) })",
                  "QLinearReduceMean has no axes attribute");
}

// An op named QLinearAveragePool in the default domain is not ONNX Runtime's.
TEST(PushTransposesQLinearPool, KeepsADefaultDomainOpNamedQLinearAveragePool) {
  PassOutcome out = runPassMayFail(kPass, R"(<ir_version: 8, opset_import: ["" : 13]>
main (uint8[1,4,4,3] x) => (uint8[1,2,2,3] y) <float s = {0.1}, uint8 z = {0}> {
    t = Transpose <perm = [0, 3, 1, 2]> (x)
    p = QLinearAveragePool <kernel_shape = [2, 2], strides = [2, 2]> (t, s, z, s, z)
    y = Transpose <perm = [0, 2, 3, 1]> (p) })");
  EXPECT_FALSE(out.step.rolledBack) << out.step.error.str();
  EXPECT_FALSE(out.step.changed) << io::printModelText(out.model);
}

}  // namespace
}  // namespace passlab::testing
