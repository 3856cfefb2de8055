// If, Loop and Scan: bodies bound from the parent node, branches joined,
// loop-carried shapes that grow generalised.
#include <gtest/gtest.h>

#include "tests/core/analysis/infer_test_util.h"

namespace passlab::analysis {
namespace {

using testing::inferText;

TEST(ControlFlowInfer, IfJoinsItsBranches) {
  auto r = inferText(R"(
    main (bool c, float[N,3] x, float[N,5] y) => (float a, float b) {
      a, b = If <
        then_branch = t () => (float ta, float tb) { ta = Relu(x) tb = Identity(x) },
        else_branch = e () => (float ea, float eb) { ea = Neg(x) eb = Identity(y) }> (c)
    })");
  EXPECT_TRUE(r.report.failures.empty());
  EXPECT_EQ(r.type("ta"), "float[N,3]");  // values inside the branches are inferred too
  EXPECT_EQ(r.type("a"), "float[N,3]");
  EXPECT_EQ(r.type("b"), "float[N,?]");
}

TEST(ControlFlowInfer, IfWithAConditionKnownAtInferenceTimeTakesItsBranch) {
  auto r = inferText(R"(
    main (float[N,3] x, float[N,5] y) => (float b) <bool c = {1}, int64[2] bad = {-1, -1}> {
      b = If <
        then_branch = t () => (float tb) { tb = Identity(x) },
        else_branch = e () => (float eb) { eb = Reshape(y, bad) }> (c)
    })");
  EXPECT_EQ(r.type("b"), "float[N,3]");
  // The else branch never runs here: what would fail in it is not a failure of the model.
  EXPECT_TRUE(r.report.failures.empty()) << r.report.failures[0];
}

TEST(ControlFlowInfer, LoopBindsItsBodyAndGeneralisesGrowingState) {
  auto r = inferText(R"(
    main (int64 trip, bool cond, float[1,4] acc0, float[4] fixed0) => (float acc, float fixed, float scan) {
      acc, fixed, scan = Loop <body =
        body (int64 i, bool c_in, float a_in, float f_in) => (bool c_out, float a_out, float f_out, float s_out) {
          c_out = Identity(c_in)
          a_out = Concat <axis = 0> (a_in, a_in)
          f_out = Relu(f_in)
          s_out = Identity(f_out)
        }> (trip, cond, acc0, fixed0)
    })");
  EXPECT_TRUE(r.report.failures.empty()) << r.report.failures[0];
  // The accumulator doubles its first dim each iteration: that dim is unknown, the rank is not.
  EXPECT_EQ(r.type("a_in"), "float[?,4]");
  EXPECT_EQ(r.type("a_out"), "float[?,4]");
  EXPECT_EQ(r.type("acc"), "float[?,4]");
  EXPECT_EQ(r.type("f_out"), "float[4]");
  EXPECT_EQ(r.type("fixed"), "float[4]");
  EXPECT_EQ(r.type("scan"), "float[?,4]");
  EXPECT_EQ(r.type("i"), "int64[]");
}

TEST(ControlFlowInfer, ScanSlicesInputsAndStacksOutputs) {
  auto r = inferText(R"(
    <ir_version: 7, opset_import: ["" : 11]>
    main (float[2] h0, float[T,B,2] xs) => (float h, float ys) {
      h, ys = Scan <num_scan_inputs = 1, scan_output_axes = [1], body =
        step (float h_in, float x_in) => (float h_out, float y_out) {
          h_out = Add(h_in, x_in)
          y_out = Identity(h_out)
        }> (h0, xs)
    })");
  EXPECT_TRUE(r.report.failures.empty());
  EXPECT_EQ(r.type("x_in"), "float[B,2]");
  // h grows from [2] to [B,2] after one step: generalised, so its rank changes: unknown.
  EXPECT_EQ(r.type("h"), "float");
  EXPECT_EQ(r.type("y_out"), "float");
}

TEST(ControlFlowInfer, ScanWithSteadyState) {
  auto r = inferText(R"(
    <ir_version: 7, opset_import: ["" : 11]>
    main (float[B,2] h0, float[B,T,2] xs) => (float h, float ys) {
      h, ys = Scan <num_scan_inputs = 1, scan_input_axes = [1], body =
        step (float h_in, float x_in) => (float h_out, float y_out) {
          h_out = Add(h_in, x_in)
          y_out = Identity(h_out)
        }> (h0, xs)
    })");
  EXPECT_EQ(r.type("h"), "float[B,2]");
  EXPECT_EQ(r.type("ys"), "float[T,B,2]");
}

TEST(ControlFlowInfer, BodyWithWrongArityIsAFailure) {
  auto r = inferText(R"(
    main (int64 trip, bool cond, float[4] x0) => (float x) {
      [loop] x = Loop <body = body (int64 i, bool c) => (bool c2) { c2 = Identity(c) }> (trip, cond, x0)
    })");
  ASSERT_EQ(r.report.failures.size(), 1u);
  EXPECT_NE(r.report.failures[0].find("Loop 'loop'"), std::string::npos);
}

}  // namespace
}  // namespace passlab::analysis
