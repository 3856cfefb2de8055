// fuse_consecutive_transposes: two Transposes composed into one (explicit and
// default perms, chains), the inverse-pair case left to its pass, reasons.
#include <gtest/gtest.h>

#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

const char* kPass = "fuse_consecutive_transposes";

TEST(FuseConsecutiveTransposes, ComposesThePerms) {
  // q[i] = p1[p2[i]]
  expectRewrite(kPass, R"(main (float[2,3,4] x) => (float[3,4,2] y) {
      t = Transpose <perm = [1, 0, 2]> (x)
      y = Transpose <perm = [0, 2, 1]> (t) })",
                R"(main (float[2,3,4] x) => (float[3,4,2] y) {
      y = Transpose <perm = [1, 2, 0]> (x) })");
}

TEST(FuseConsecutiveTransposes, ADefaultPermReversesTheAxes) {
  expectRewrite(kPass, R"(main (float[2,3,4] x) => (float[3,4,2] y) {
      t = Transpose(x)
      u = Transpose <perm = [1, 0, 2]> (t)
      y = Relu(u) })",
                R"(main (float[2,3,4] x) => (float[3,4,2] y) {
      u = Transpose <perm = [1, 2, 0]> (x)
      y = Relu(u) })");
}

TEST(FuseConsecutiveTransposes, AChainOfThreeBecomesOne) {
  expectRewrite(kPass, R"(main (float[2,3,4,5] x) => (float[5,3,2,4] y) {
      a = Transpose <perm = [0, 2, 1, 3]> (x)
      b = Transpose <perm = [3, 0, 1, 2]> (a)
      y = Transpose <perm = [0, 3, 1, 2]> (b) })",
                R"(main (float[2,3,4,5] x) => (float[5,3,2,4] y) {
      y = Transpose <perm = [3, 1, 0, 2]> (x) })");
}

TEST(FuseConsecutiveTransposes, LeavesAnInversePairToItsPass) {
  expectUnchanged(kPass, R"(main (float[2,3,4] x) => (float[2,3,4] y) {
      t = Transpose <perm = [1, 2, 0]> (x)
      u = Transpose <perm = [2, 0, 1]> (t)
      y = Relu(u) })",
                  "the perms compose to the identity");
}

TEST(FuseConsecutiveTransposes, KeepsAnInnerResultWithASecondConsumer) {
  expectUnchanged(kPass, R"(main (float[2,3,4] x) => (float[3,4,2] y, float[3,2,4] z) {
      t = Transpose <perm = [1, 0, 2]> (x)
      y = Transpose <perm = [0, 2, 1]> (t)
      z = Relu(t) })",
                  "inner Transpose output 't' has 2 consumers");
}

TEST(FuseConsecutiveTransposes, KeepsAnInnerResultThatIsAGraphOutput) {
  expectUnchanged(kPass, R"(main (float[2,3,4] x) => (float[3,4,2] y, float[3,2,4] t) {
      t = Transpose <perm = [1, 0, 2]> (x)
      y = Transpose <perm = [0, 2, 1]> (t) })",
                  "'t' is a graph output");
}

TEST(FuseConsecutiveTransposes, Converges) {
  expectConverges(kPass, R"(main (float[2,3,4,5] x) => (float[5,3,2,4] y) {
      a = Transpose <perm = [0, 2, 1, 3]> (x)
      b = Transpose <perm = [3, 0, 1, 2]> (a)
      y = Transpose <perm = [0, 3, 1, 2]> (b) })");
}

TEST(FuseConsecutiveTransposes, OutputsStayTheSame) {
  expectSameOutputs(kPass, R"(main (float[2,3,4,5] x) => (float[5,3,2,4] y, float[4,2,5,3] z) {
      a = Transpose <perm = [0, 2, 1, 3]> (x)
      b = Transpose <perm = [3, 0, 1, 2]> (a)
      y = Transpose <perm = [0, 3, 1, 2]> (b)
      c = Transpose(x)
      z = Transpose <perm = [1, 3, 0, 2]> (c) })");
}

}  // namespace
}  // namespace passlab::testing
