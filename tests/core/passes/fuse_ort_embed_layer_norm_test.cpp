// fuse_ort_embed_layer_norm: summed embedding lookups (word + position, and
// segment) and the layer norm after them become com.microsoft
// EmbedLayerNormalization, with the sum as output 2 when something else reads
// it; the reasons it stays; numerics.
#include <gtest/gtest.h>

#include "tests/core/passes/fusion_test_util.h"
#include "tests/core/passes/ort_fusion_test_util.h"

namespace passlab::testing {
namespace {

const char* kPass = "fuse_ort_embed_layer_norm";
const std::string kH17 = R"(<ir_version: 8, opset_import: ["" : 17]>)";
const std::string kH17ms = R"(<ir_version: 8, opset_import: ["" : 17, "com.microsoft" : 1]>)";
const std::string kH13 = R"(<ir_version: 8, opset_import: ["" : 13]>)";
const std::string kH13ms = R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>)";

std::string tables() {
  return "float[6,4] word = " + someValues(24, 1) + ", float[5,4] pos = " + someValues(20, 2) +
         ", float[2,4] seg = " + someValues(8, 3) +
         ", float[4] g = {1, 2, 3, 4}, float[4] be = {0.5, 0, -0.5, 1}";
}

TEST(FuseOrtEmbedLayerNorm, WordAndPositionLookups) {
  expectRewrite(
      kPass,
      kH17 + R"(main (int64[2,3] ids, int64[2,3] pids) => (float[2,3,4] y) <)" + tables() + R"(> {
      w = Gather(word, ids)
      p = Gather(pos, pids)
      e = Add(w, p)
      y = LayerNormalization <epsilon = 1e-5> (e, g, be) })",
      kH17ms + R"(main (int64[2,3] ids, int64[2,3] pids) => (float[2,3,4] y) <)" + tables() + R"(> {
      ids32 = Cast <to = 6> (ids)
      pids32 = Cast <to = 6> (pids)
      y = com.microsoft.EmbedLayerNormalization <epsilon = 1e-5> (ids32, "", word, pos, "", g, be, "", pids32) })");
}

TEST(FuseOrtEmbedLayerNorm, SegmentsAndTheSumReadElsewhere) {
  expectRewrite(
      kPass,
      kH13 + R"(main (int32[2,3] ids, int32[2,3] pids, int32[2,3] sids) => (float[2,3,4] z) <)" +
          tables() + R"(, float two = {2}, float eps = {1e-5}> {
      w = Gather(word, ids)
      p = Gather(pos, pids)
      wp = Add(w, p)
      sg = Gather(seg, sids)
      e = Add(wp, sg)
      mean = ReduceMean <axes = [-1]> (e)
      d = Sub(e, mean)
      sq = Pow(d, two)
      var = ReduceMean <axes = [-1]> (sq)
      ve = Add(var, eps)
      sd = Sqrt(ve)
      n = Div(d, sd)
      gm = Mul(n, g)
      y = Add(gm, be)
      z = Add(e, y) })",
      kH13ms + R"(main (int32[2,3] ids, int32[2,3] pids, int32[2,3] sids) => (float[2,3,4] z) <)" +
          tables() + R"(> {
      y, mi, e = com.microsoft.EmbedLayerNormalization <epsilon = 1e-5> (ids, sids, word, pos, seg, g, be, "", pids)
      z = Add(e, y) })");
}

TEST(FuseOrtEmbedLayerNorm, SkippedInStandardOnlyMode) {
  expectSkippedWhenStandardOnly(
      kPass, kH17 + R"(main (int64[2,3] ids, int64[2,3] pids) => (float[2,3,4] y) <)" + tables() +
                 R"(> {
      w = Gather(word, ids)
      p = Gather(pos, pids)
      e = Add(w, p)
      y = LayerNormalization(e, g, be) })");
}

TEST(FuseOrtEmbedLayerNorm, KeepsComputedIds) {
  expectUnchanged(kPass,
                  kH17 + R"(main (int64[2,3] ids, int64[2,3] pids) => (float[2,3,4] y) <)" +
                      tables() + R"(, int64 one = {1}> {
      ids2 = Add(ids, one)
      w = Gather(word, ids2)
      p = Gather(pos, pids)
      e = Add(w, p)
      y = LayerNormalization(e, g, be) })",
                  "are not an integer model input");
}

TEST(FuseOrtEmbedLayerNorm, KeepsALookupReadElsewhere) {
  expectUnchanged(
      kPass,
      kH17 + R"(main (int64[2,3] ids, int64[2,3] pids) => (float[2,3,4] y, float[2,3,4] w) <)" +
          tables() + R"(> {
      w = Gather(word, ids)
      p = Gather(pos, pids)
      e = Add(w, p)
      y = LayerNormalization(e, g, be) })",
      "the lookup 'w' has other readers");
}

TEST(FuseOrtEmbedLayerNorm, KeepsAnInputThatIsNoLookup) {
  expectUnchanged(
      kPass,
      kH17 + R"(main (int64[2,3] ids, float[2,3,4] x) => (float[2,3,4] y) <)" + tables() + R"(> {
      w = Gather(word, ids)
      e = Add(w, x)
      y = LayerNormalization(e, g, be) })",
      "'x' is not a Gather along axis 0");
}

TEST(FuseOrtEmbedLayerNorm, Converges) {
  expectConverges(kPass, kH17 + R"(main (int64[2,3] ids, int64[2,3] pids) => (float[2,3,4] y) <)" +
                             tables() + R"(> {
      w = Gather(word, ids)
      p = Gather(pos, pids)
      e = Add(w, p)
      y = LayerNormalization(e, g, be) })");
}

TEST(FuseOrtEmbedLayerNorm, OutputsStayTheSame) {
  // Random ids are in [0, 4): inside every table but the segment one, so no segments here.
  expectSameOutputs(
      kPass, kH17 +
                 R"(main (int64[2,3] ids, int64[2,3] pids) => (float[2,3,4] y, float[2,3,4] z) <)" +
                 tables() + R"(> {
      w = Gather(word, ids)
      p = Gather(pos, pids)
      e = Add(w, p)
      y = LayerNormalization(e, g, be)
      z = Mul(e, y) })");
}

}  // namespace
}  // namespace passlab::testing
