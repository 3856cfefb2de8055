// The fused level runs convert_int8_to_channels_last (issue #25, session 33):
// static INT8 convolution chains (QLinearConv, after fuse_qdq_into_qlinear)
// run channels-last between one Transpose in and one out, the outputs as the
// QDQ file's (every step checked); a float model gets no Transpose and no
// com.microsoft QLinearConv. Structural: where the pass sits in the level
// (after the blocked layout and the dynamic form's own conversion, so that a
// dynamic model's chains are converted by the exact pass first) and that the
// GPU level leaves it out (no GPU kernel for channels_last = 1).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "core/analysis/shape_inference.h"
#include "core/passes/registry.h"
#include "core/pipeline/numeric_check.h"
#include "core/pipeline/pass_manager.h"
#include "tests/core/pipeline/fused_level_test_util.h"
#include "tests/support/pass_harness.h"
#include "tests/support/test_support.h"

namespace passlab::pipeline {
namespace {

const char* kPass = "convert_int8_to_channels_last";

std::ptrdiff_t at(const std::vector<std::string>& ids, const char* id) {
  return std::find(ids.begin(), ids.end(), id) - ids.begin();
}

TEST(FusedLevelInt8ChannelsLast, TheFusedLevelRunsItAfterTheDynamicForm) {
  auto fused = passes::passesForLevel("fused");
  ASSERT_TRUE(fused);
  const auto n = static_cast<std::ptrdiff_t>(fused->size());
  ASSERT_LT(at(*fused, kPass), n);
  EXPECT_EQ(std::count(fused->begin(), fused->end(), kPass), 1);
  EXPECT_LT(at(*fused, "fuse_qdq_into_qlinear"), at(*fused, kPass));
  EXPECT_LT(at(*fused, "convert_to_blocked_layout"), at(*fused, kPass));
  EXPECT_LT(at(*fused, "convert_dynamic_int8_to_channels_last"), at(*fused, kPass));
  EXPECT_LT(at(*fused, "fuse_dynamic_quantize_range"), at(*fused, kPass));
  // The cleanup after it removes Transpose pairs between chains.
  EXPECT_LT(at(*fused, kPass), n - 1 -
                                   at(std::vector<std::string>(fused->rbegin(), fused->rend()),
                                      "eliminate_inverse_pairs"));
  for (const char* level : {"basic", "default", "ort", "fused_gpu"}) {
    auto ids = passes::passesForLevel(level);
    ASSERT_TRUE(ids);
    EXPECT_EQ(std::count(ids->begin(), ids->end(), kPass), 0) << level;
  }
}

TEST(FusedLevelInt8ChannelsLast, AStaticInt8ChainRunsChannelsLastWithTheSameOutputs) {
  const ir::Model qdq = testing::parse(kStaticQdqConvChain);
  std::vector<std::string> changed;
  const ir::Model out = runFusedLevel(qdq, &changed);
  EXPECT_NE(std::find(changed.begin(), changed.end(), kPass), changed.end());
  int channelsLast = 0, transposes = 0;
  for (const auto& n : out.graph().nodes()) {
    if (n->opType() == "QLinearConv") {
      EXPECT_EQ(n->domain(), "com.microsoft");
      channelsLast += n->attrInt("channels_last", 0) == 1;
    }
    transposes += n->opType() == "Transpose";
  }
  EXPECT_EQ(channelsLast, 2);
  EXPECT_EQ(transposes, 2);  // one in (uint8), one out
  // The outputs as the QDQ file's, and as the level without the pass (the
  // same integer kernels, permuted).
  const testing::NumericResult r = testing::compareOutputs(qdq, out, 3);
  EXPECT_TRUE(r.ran) << r.detail;
  EXPECT_TRUE(r.equal) << r.detail;
}

TEST(FusedLevelInt8ChannelsLast, AFloatModelGetsNoTransposes) {
  const ir::Model f = testing::parse(R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,6,6] x) => (float[1,2,6,6] y)
<float[2,2,3,3] w = {0.1, -0.2, 0.3, 0.05, 0.4, -0.1, 0.2, 0.1, -0.3, 0.25, -0.15, 0.05, 0.3,
   -0.2, 0.1, 0.15, -0.05, 0.2, -0.1, 0.3, 0.2, -0.25, 0.1, 0.05, 0.15, -0.3, 0.2, 0.1, 0.05,
   -0.1, 0.2, 0.3, -0.2, 0.1, 0.25, -0.15}, float[2,2,1,1] w2 = {0.5, -0.25, 0.125, 1}>
{
  c = Conv <pads = [1, 1, 1, 1]> (x, w)
  r = Relu(c)
  y = Conv(r, w2)
})");
  std::vector<std::string> changed;
  const ir::Model out = runFusedLevel(f, &changed);
  EXPECT_EQ(std::find(changed.begin(), changed.end(), kPass), changed.end());
  for (const auto& n : out.graph().nodes()) {
    EXPECT_NE(n->opType(), "Transpose");
    EXPECT_NE(n->domain(), "com.microsoft") << n->opType();
    EXPECT_EQ(n->attrInt("channels_last", 0), 0) << n->opType();
  }
}

}  // namespace
}  // namespace passlab::pipeline
