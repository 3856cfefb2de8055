// Recurrent layers: directions, hidden size from the attribute or R, and the
// batch-first layout of opset 14.
#include <gtest/gtest.h>

#include "tests/core/analysis/infer_test_util.h"

namespace passlab::analysis {
namespace {

using testing::inferText;

TEST(RnnInfer, LstmBidirectional) {
  auto r = inferText(R"(
    <ir_version: 7, opset_import: ["" : 9]>
    main (float[T,B,32] x, float[2,64,32] w, float[2,64,16] rw) => (float y, float h, float c) {
      y, h, c = LSTM <hidden_size = 16, direction = "bidirectional"> (x, w, rw)
    })");
  EXPECT_TRUE(r.report.failures.empty());
  EXPECT_EQ(r.type("y"), "float[T,2,B,16]");
  EXPECT_EQ(r.type("h"), "float[2,B,16]");
  EXPECT_EQ(r.type("c"), "float[2,B,16]");
}

TEST(RnnInfer, GruHiddenFromRAndBatchFirstLayout) {
  auto r = inferText(R"(
    <ir_version: 8, opset_import: ["" : 14]>
    main (float[B,T,8] x, float[1,30,8] w, float[1,30,10] rw) => (float y, float h) {
      y, h = GRU <layout = 1> (x, w, rw)
    })");
  EXPECT_EQ(r.type("y"), "float[B,T,1,10]");
  EXPECT_EQ(r.type("h"), "float[B,1,10]");
}

TEST(RnnInfer, OmittedOutputsAndBadDirection) {
  auto r = inferText(R"(
    <ir_version: 7, opset_import: ["" : 9]>
    main (float[T,B,8] x, float[1,10,8] w, float[1,10,10] rw) => (float h, float z) {
      "", h = RNN <hidden_size = 10> (x, w, rw)
      [bad] z = RNN <hidden_size = 10, direction = "sideways"> (x, w, rw)
    })");
  EXPECT_EQ(r.type("h"), "float[1,B,10]");
  ASSERT_EQ(r.report.failures.size(), 1u);
  EXPECT_NE(r.report.failures[0].find("RNN 'bad'"), std::string::npos);
}

}  // namespace
}  // namespace passlab::analysis
