// `info`'s unknown-op list: PassLab's own fused ops are known, a made-up
// op in its domain or in an unknown domain is listed with its reason.
#include "core/analysis/model_summary.h"

#include <gtest/gtest.h>

#include "tests/core/analysis/infer_test_util.h"

namespace passlab::analysis {
namespace {

using testing::inferText;

TEST(ModelSummary, PassLabFusedOpsAreKnown) {
  auto r = inferText(R"(
    <ir_version: 8, opset_import: ["" : 17, "ai.passlab" : 1]>
    main (float[1,8,4,4] x) => (float y, float z)
    <float[8,8,1,1] w = {1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,
                         1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1}> {
      y = ai.passlab.FusedConv <activation = "Relu"> (x, w)
      z = ai.passlab.FusedElementwise <ops = ["Relu"], operands = [0, -1, -1]> (y)
    })");
  ModelSummary s = summarize(r.model);
  for (const auto& u : s.unknownOps) ADD_FAILURE() << u.domain << "." << u.op << ": " << u.reason;
}

TEST(ModelSummary, MadeUpOpsAreListedWithTheirReason) {
  auto r = inferText(R"(
    <ir_version: 8, opset_import: ["" : 17, "ai.passlab" : 1, "example.org" : 1]>
    main (float[4] x) => (float y, float z) {
      y = ai.passlab.NoSuchFusion (x)
      z = example.org.Thing (x)
    })");
  ModelSummary s = summarize(r.model);
  ASSERT_EQ(s.unknownOps.size(), 2u);
  for (const auto& u : s.unknownOps) {
    if (u.domain == "ai.passlab")
      EXPECT_EQ(u.reason, "no such operator in PassLab's own domain");
    else
      EXPECT_EQ(u.reason, "domain 'example.org' is unknown to PassLab");
  }
}

}  // namespace
}  // namespace passlab::analysis
