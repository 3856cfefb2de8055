// Reductions across the opsets that moved their axes: ReduceSum at 13, the
// other Reduce* ops at 18.
#include <gtest/gtest.h>

#include "tests/core/analysis/infer_test_util.h"

namespace passlab::analysis {
namespace {

using testing::inferText;

TEST(ReductionInfer, ReduceSumAxesAttributeAtOpset11) {
  auto r = inferText(R"(
    <ir_version: 7, opset_import: ["" : 11]>
    main (float[N,3,5] x) => (float a, float b, float c) {
      a = ReduceSum <axes = [1]> (x)
      b = ReduceSum <axes = [-1], keepdims = 0> (x)
      c = ReduceSum (x)
    })");
  EXPECT_TRUE(r.report.failures.empty());
  EXPECT_EQ(r.type("a"), "float[N,1,5]");
  EXPECT_EQ(r.type("b"), "float[N,3]");
  EXPECT_EQ(r.type("c"), "float[1,1,1]");
}

TEST(ReductionInfer, ReduceSumAxesInputAtOpset13) {
  auto r = inferText(R"(
    <ir_version: 8, opset_import: ["" : 13]>
    main (float[N,3,5] x, int64[1] dynamic) => (float a, float b, float c, float d)
    <int64[1] axes = {1}> {
      a = ReduceSum(x, axes)
      b = ReduceSum <keepdims = 0> (x, axes)
      c = ReduceSum <noop_with_empty_axes = 1> (x)
      d = ReduceSum <keepdims = 0> (x, dynamic)
    })");
  EXPECT_TRUE(r.report.failures.empty());
  EXPECT_EQ(r.type("a"), "float[N,1,5]");
  EXPECT_EQ(r.type("b"), "float[N,5]");
  EXPECT_EQ(r.type("c"), "float[N,3,5]");
  // Axes known only at run time: the rank is known (one axis goes), the dims are not.
  EXPECT_EQ(r.type("d"), "float[?,?]");
}

TEST(ReductionInfer, ReduceMeanMovesItsAxesAtOpset18) {
  auto v17 = inferText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    main (float[N,3,5] x) => (float a) { a = ReduceMean <axes = [2]> (x) })");
  EXPECT_EQ(v17.type("a"), "float[N,3,1]");
  auto v18 = inferText(R"(
    <ir_version: 8, opset_import: ["" : 18]>
    main (float[N,3,5] x) => (float a, float b) <int64[1] axes = {2}> {
      a = ReduceMean(x, axes)
      b = ReduceMean <axes = [2]> (x)
    })");
  EXPECT_EQ(v18.type("a"), "float[N,3,1]");
  // At opset 18 an axes attribute means nothing: everything is reduced.
  EXPECT_EQ(v18.type("b"), "float[1,1,1]");
}

TEST(ReductionInfer, BadAxisIsReported) {
  auto r = inferText(R"(
    <ir_version: 7, opset_import: ["" : 11]>
    main (float[2,3] x) => (float a) { [r] a = ReduceMax <axes = [2]> (x) })");
  ASSERT_EQ(r.report.failures.size(), 1u);
  EXPECT_NE(r.report.failures[0].find("ReduceMax 'r'"), std::string::npos);
  EXPECT_NE(r.report.failures[0].find("out of range"), std::string::npos);
}

TEST(ReductionInfer, ArgMaxGivesInt64) {
  auto r = inferText(R"(
    main (float[N,10] x) => (int64 a, int64 b) {
      a = ArgMax <axis = 1> (x)
      b = ArgMin <axis = 1, keepdims = 0> (x)
    })");
  EXPECT_EQ(r.type("a"), "int64[N,1]");
  EXPECT_EQ(r.type("b"), "int64[N]");
}

}  // namespace
}  // namespace passlab::analysis
