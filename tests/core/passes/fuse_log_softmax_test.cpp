// fuse_log_softmax: Log(Softmax(x)) -> LogSoftmax(x) with the axis kept, in
// both Softmax semantics (before and from opset 13); reasons; numerics.
#include <gtest/gtest.h>

#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

const char* kPass = "fuse_log_softmax";

TEST(FuseLogSoftmax, LogOfSoftmaxKeepsTheAxis) {
  expectRewrite(kPass, R"(main (float[2,3,4] x) => (float[2,3,4] y) {
      t = Softmax <axis = 1> (x)
      y = Log(t) })",
                R"(main (float[2,3,4] x) => (float[2,3,4] y) {
      y = LogSoftmax <axis = 1> (x) })");
}

TEST(FuseLogSoftmax, DefaultAxis) {
  expectRewrite(kPass, R"(main (float[2,3,4] x) => (float[2,3,4] y) {
      t = Softmax(x)
      u = Log(t)
      y = Neg(u) })",
                R"(main (float[2,3,4] x) => (float[2,3,4] y) {
      u = LogSoftmax(x)
      y = Neg(u) })");
}

TEST(FuseLogSoftmax, CoercedSemanticsBeforeOpset13) {
  // Softmax-11 flattens to 2-D at `axis` (default 1); LogSoftmax-11 does too.
  const std::string h = R"(<ir_version: 6, opset_import: ["" : 11]>)";
  expectRewrite(kPass, h + R"(main (float[2,3,4] x) => (float[2,3,4] y) {
      t = Softmax(x)
      y = Log(t) })",
                h + R"(main (float[2,3,4] x) => (float[2,3,4] y) {
      y = LogSoftmax(x) })");
  expectSameOutputs(kPass, h + R"(main (float[2,3,4] x) => (float[2,3,4] y) {
      t = Softmax <axis = 2> (x)
      y = Log(t) })");
}

TEST(FuseLogSoftmax, KeepsASoftmaxWithASecondConsumer) {
  expectUnchanged(kPass, R"(main (float[2,3] x) => (float[2,3] y, float[2,3] z) {
      t = Softmax(x)
      y = Log(t)
      z = Neg(t) })",
                  "Softmax output 't' has 2 consumers");
}

TEST(FuseLogSoftmax, KeepsASoftmaxThatIsAGraphOutput) {
  expectUnchanged(kPass, R"(main (float[2,3] x) => (float[2,3] y, float[2,3] t) {
      t = Softmax(x)
      y = Log(t) })",
                  "Softmax output 't' is a graph output");
}

TEST(FuseLogSoftmax, KeepsALogOfAnotherOp) {
  expectUnchanged(kPass, R"(main (float[2,3] x) => (float[2,3] y) {
      t = Sigmoid(x)
      y = Log(t) })",
                  "the input is not produced by a Softmax");
}

TEST(FuseLogSoftmax, Converges) {
  expectConverges(kPass, R"(main (float[2,3,4] x) => (float[2,3,4] y) {
      t = Softmax <axis = 1> (x)
      y = Log(t) })");
}

TEST(FuseLogSoftmax, OutputsStayTheSame) {
  expectSameOutputs(kPass, R"(main (float[2,3,4] x) => (float[2,3,4] y, float[2,3,4] z) {
      t = Softmax <axis = 1> (x)
      y = Log(t)
      s = Softmax(x)
      z = Log(s) })");
}

}  // namespace
}  // namespace passlab::testing
