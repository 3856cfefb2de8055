// reassociate_constant_chains: (x * c1) * c2 -> x * (c1 * c2) and the same
// for Add, operand order, reasons where it must not fire, numerics.
#include <gtest/gtest.h>

#include "tests/core/passes/fusion_test_util.h"

namespace passlab::testing {
namespace {

const char* kPass = "reassociate_constant_chains";

TEST(ReassociateConstantChains, TwoMulsByConstantsBecomeOne) {
  expectRewrite(kPass,
                R"(main (float[2,3] x) => (float[2,3] y) <float a = {0.5}, float[3] b = {1, 2, 4}> {
      t = Mul(a, x)
      y = Mul(t, b) })",
                R"(main (float[2,3] x) => (float[2,3] y) <float[3] k = {0.5, 1, 2}> {
      y = Mul(x, k) })");
}

TEST(ReassociateConstantChains, TwoAddsByConstantsBecomeOne) {
  expectRewrite(
      kPass,
      R"(main (float[2,3] x) => (float[2,3] y) <float[3] a = {1, 2, 3}, float[3] b = {10, 20, 30}> {
      t = Add(x, a)
      y = Add(b, t) })",
      R"(main (float[2,3] x) => (float[2,3] y) <float[3] k = {11, 22, 33}> {
      y = Add(x, k) })");
}

TEST(ReassociateConstantChains, KeepsAFoldThatWouldGrow) {
  expectUnchanged(
      kPass,
      R"(main (float[4,4] x) => (float[4,4] y) <float[4,1] a = {1, 2, 3, 4}, float[1,4] b = {1, 2, 3, 4}> {
      t = Mul(x, a)
      y = Mul(t, b) })",
      "the folded constant would have 16 elements");
}

TEST(ReassociateConstantChains, KeepsAnIntermediateWithASecondConsumer) {
  expectUnchanged(kPass,
                  R"(main (float[3] x) => (float[3] y, float[3] z) <float a = {2}, float b = {3}> {
      t = Mul(x, a)
      y = Mul(t, b)
      z = Relu(t) })",
                  "the inner Mul's result 't' has 2 consumers");
}

TEST(ReassociateConstantChains, KeepsIntegerConstants) {
  expectUnchanged(kPass, R"(main (int64[3] x) => (int64[3] y) <int64 a = {2}, int64 b = {3}> {
      t = Mul(x, a)
      y = Mul(t, b) })",
                  "the constants are not of one float type");
}

TEST(ReassociateConstantChains, KeepsANonConstantOperand) {
  expectUnchanged(kPass, R"(main (float[3] x, float[3] w) => (float[3] y) <float b = {3}> {
      t = Mul(x, w)
      y = Mul(t, b) })",
                  "the inner Mul has no constant operand");
}

TEST(ReassociateConstantChains, Converges) {
  expectConverges(
      kPass, R"(main (float[3] x) => (float[3] y) <float a = {2}, float b = {3}, float c = {5}> {
      t = Mul(x, a)
      u = Mul(t, b)
      y = Mul(u, c) })");
}

TEST(ReassociateConstantChains, OutputsStayTheSame) {
  expectSameOutputs(kPass, R"(main (float[2,4,3] x) => (float[2,4,3] y)
      <float[4,1] a = {0.1, 0.2, -0.3, 0.7}, float[4,3] b = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12},
       float c = {0.5}, float[3] d = {1, -1, 2}> {
      t = Mul(x, a)
      u = Mul(t, b)
      v = Add(u, c)
      y = Add(d, v) })");
}

}  // namespace
}  // namespace passlab::testing
