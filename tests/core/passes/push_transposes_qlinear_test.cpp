// push_transposes through ONNX Runtime's com.microsoft QLinearConcat (rule
// transposes_through_concat, as through Concat): only the data inputs move,
// the scales and zero points stay. The rewrites exactly, where they must not
// fire (with the reason), outputs kept and convergence.
#include <gtest/gtest.h>

#include "core/io/text_format.h"
#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

const char* kPass = "push_transposes";

// Two transposed inputs, transposed back: all three Transposes go.
const char* kTwoTransposed = R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>
main (uint8[2,3,4] a, uint8[2,3,5] b) => (uint8[2,3,9] y)
    <float sy = {0.1}, uint8 zy = {128}, float s1 = {0.05}, uint8 z1 = {120},
     float s2 = {0.2}, uint8 z2 = {100}> {
    ta = Transpose <perm = [0, 2, 1]> (a)
    tb = Transpose <perm = [0, 2, 1]> (b)
    c = com.microsoft.QLinearConcat <axis = 1> (sy, zy, ta, s1, z1, tb, s2, z2)
    y = Transpose <perm = [0, 2, 1]> (c) })";

TEST(PushTransposesQLinearConcat, TransposedInputsTransposedBackLoseAllTransposes) {
  expectRewrite(kPass, kTwoTransposed,
                R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>
main (uint8[2,3,4] a, uint8[2,3,5] b) => (uint8[2,3,9] y)
    <float sy = {0.1}, uint8 zy = {128}, float s1 = {0.05}, uint8 z1 = {120},
     float s2 = {0.2}, uint8 z2 = {100}> {
    y = com.microsoft.QLinearConcat <axis = 2> (sy, zy, a, s1, z1, b, s2, z2) })");
  expectSameOutputs(kPass, kTwoTransposed);
  expectConverges(kPass, kTwoTransposed);
}

// A Transpose, a Reshape that moves only dims of 1 and a constant (int8,
// negative axis), and a reader besides the Transpose back: it keeps a
// Transpose by p of the new QLinearConcat.
const char* kMixed = R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>
main (int8[1,4,3] x, int8[4] k) => (int8[1,4,6] y, int8[1,6,4] g)
    <float sy = {0.1}, int8 zy = {0}, float s1 = {0.05}, int8 z1 = {-3},
     float s2 = {0.3}, int8 z2 = {5}, int64[3] shape = {1, 1, 4},
     int8[1,2,4] cst = {1, 2, 3, 4, 5, 6, 7, 8}> {
    t = Transpose <perm = [0, 2, 1]> (x)
    r = Reshape(k, shape)
    c = com.microsoft.QLinearConcat <axis = -2> (sy, zy, t, sy, zy, r, s1, z1, cst, s2, z2)
    y = Transpose <perm = [0, 2, 1]> (c)
    g = com.microsoft.QLinearSigmoid(c, sy, zy, sy, zy) })";

TEST(PushTransposesQLinearConcat, ReshapeConstantAndAnotherReader) {
  expectRewrite(kPass, kMixed, R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>
main (int8[1,4,3] x, int8[4] k) => (int8[1,4,6] y, int8[1,6,4] g)
    <float sy = {0.1}, int8 zy = {0}, float s1 = {0.05}, int8 z1 = {-3},
     float s2 = {0.3}, int8 z2 = {5}, int64[3] shape = {1, 4, 1},
     int8[1,4,2] cst = {1, 5, 2, 6, 3, 7, 4, 8}> {
    r = Reshape(k, shape)
    y = com.microsoft.QLinearConcat <axis = 2> (sy, zy, x, sy, zy, r, s1, z1, cst, s2, z2)
    t = Transpose <perm = [0, 2, 1]> (y)
    g = com.microsoft.QLinearSigmoid(t, sy, zy, sy, zy) })");
  expectSameOutputs(kPass, kMixed);
  expectConverges(kPass, kMixed);
}

// Scales and zero points that are graph inputs (not constants) stay as they are.
TEST(PushTransposesQLinearConcat, NonConstantScalesStay) {
  expectRewrite(kPass, R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>
main (uint8[2,3] a, uint8[2,3] b, float s, uint8 z) => (uint8[2,6] y) {
    ta = Transpose <perm = [1, 0]> (a)
    tb = Transpose <perm = [1, 0]> (b)
    c = com.microsoft.QLinearConcat <axis = 0> (s, z, ta, s, z, tb, s, z)
    y = Transpose <perm = [1, 0]> (c) })",
                R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>
main (uint8[2,3] a, uint8[2,3] b, float s, uint8 z) => (uint8[2,6] y) {
    y = com.microsoft.QLinearConcat <axis = 1> (s, z, a, s, z, b, s, z) })");
}

// ---- where it must not fire ----

TEST(PushTransposesQLinearConcat, KeepsADataInputThatIsNoTransposeReshapeOrConstant) {
  expectUnchanged(kPass, R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>
main (uint8[2,3] a, uint8[3,2] b) => (uint8[2,5] y) <float s = {0.1}, uint8 z = {0}> {
    ta = Transpose <perm = [1, 0]> (a)
    c = com.microsoft.QLinearConcat <axis = 0> (s, z, ta, s, z, b, s, z)
    y = Transpose <perm = [1, 0]> (c) })",
                  "input 5 is neither a Transpose, a Reshape nor a constant");
}

TEST(PushTransposesQLinearConcat, KeepsAnInputReadTwice) {
  expectUnchanged(kPass, R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>
main (uint8[2,3] a) => (uint8[3,4] y) <float s = {0.1}, uint8 z = {0}> {
    ta = Transpose <perm = [1, 0]> (a)
    c = com.microsoft.QLinearConcat <axis = 1> (s, z, ta, s, z, ta, s, z)
    y = Transpose <perm = [1, 0]> (c) })",
                  "'ta' has 2 consumers");
}

TEST(PushTransposesQLinearConcat, KeepsAResultNobodyTransposesBack) {
  expectUnchanged(kPass, R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>
main (uint8[2,3] a, uint8[2,3] b) => (uint8[6,2] y) <float s = {0.1}, uint8 z = {0}> {
    ta = Transpose <perm = [1, 0]> (a)
    tb = Transpose <perm = [1, 0]> (b)
    y = com.microsoft.QLinearConcat <axis = 0> (s, z, ta, s, z, tb, s, z) })",
                  "no reader transposes the result back");
}

TEST(PushTransposesQLinearConcat, KeepsAQLinearConcatWithAnInputTooFew) {
  expectUnchanged(kPass, R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>
main (uint8[2,3] a, uint8[2,3] b) => (uint8[3,4] y) <float s = {0.1}, uint8 z = {0}> {
    ta = Transpose <perm = [1, 0]> (a)
    tb = Transpose <perm = [1, 0]> (b)
    c = com.microsoft.QLinearConcat <axis = 1> (s, z, ta, s, z, tb, s)
    y = Transpose <perm = [1, 0]> (c) })",
                  "not 2 + 3 per data input");
}

// An op named QLinearConcat in the default domain is not ONNX Runtime's.
TEST(PushTransposesQLinearConcat, KeepsADefaultDomainOpNamedQLinearConcat) {
  PassOutcome out = runPassMayFail(kPass, R"(<ir_version: 8, opset_import: ["" : 13]>
main (uint8[2,3] a, uint8[2,3] b) => (uint8[3,4] y) <float s = {0.1}, uint8 z = {0}> {
    ta = Transpose <perm = [1, 0]> (a)
    tb = Transpose <perm = [1, 0]> (b)
    c = QLinearConcat <axis = 1> (s, z, ta, s, z, tb, s, z)
    y = Transpose <perm = [1, 0]> (c) })");
  EXPECT_FALSE(out.step.rolledBack) << out.step.error.str();
  EXPECT_FALSE(out.step.changed) << io::printModelText(out.model);
}

}  // namespace
}  // namespace passlab::testing
