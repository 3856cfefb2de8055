// com.microsoft transformer ops and ai.onnx.ml ops found in the corpus.
#include <gtest/gtest.h>

#include "tests/core/analysis/infer_test_util.h"

namespace passlab::analysis {
namespace {

using testing::inferText;

TEST(ContribInfer, AttentionWithPastGrowsThePresent) {
  auto r = inferText(R"(
    <ir_version: 7, opset_import: ["" : 12, "com.microsoft" : 1]>
    main (float[B,S,64] x, float[64,192] w, float[192] b, int32[B,T] mask, float[2,B,4,P,16] past)
      => (float y, float present) {
      y, present = com.microsoft.Attention <num_heads = 4> (x, w, b, mask, past)
    })");
  EXPECT_TRUE(r.report.failures.empty());
  EXPECT_EQ(r.type("y"), "float[B,S,64]");
  EXPECT_EQ(r.type("present"), "float[2,B,4,P + S,16]");
}

TEST(ContribInfer, EmbedSkipLayerNormAndGelus) {
  auto r = inferText(R"(
    <ir_version: 7, opset_import: ["" : 12, "com.microsoft" : 1]>
    main (int32[B,S] ids, int32[B,S] seg, float[100,32] we, float[64,32] pe, float[2,32] se,
          float[32] g, float[32] bt, float[B,S,32] skip)
      => (float e, int32 mi, float s, float fg, float bg) {
      e, mi = com.microsoft.EmbedLayerNormalization (ids, seg, we, pe, se, g, bt)
      s = com.microsoft.SkipLayerNormalization (e, skip, g, bt)
      fg = com.microsoft.FastGelu (s, bt)
      bg = com.microsoft.BiasGelu (fg, bt)
    })");
  EXPECT_TRUE(r.report.failures.empty());
  EXPECT_EQ(r.type("e"), "float[B,S,32]");
  EXPECT_EQ(r.type("mi"), "int32[B]");
  EXPECT_EQ(r.type("s"), "float[B,S,32]");
  EXPECT_EQ(r.type("bg"), "float[B,S,32]");
}

TEST(ContribInfer, BeamSearchOutputsFromTrackedInputs) {
  auto r = inferText(R"(
    <ir_version: 8, opset_import: ["" : 11, "com.microsoft" : 1]>
    main (int32[B,L] ids) => (int32 seqs, float scores)
    <int32[1] maxlen = {20}, int32[1] minlen = {1}, int32[1] beams = {4}, int32[1] ret = {2}, float[1] lp = {1}> {
      seqs, scores = com.microsoft.BeamSearch <decoder = dec (int32[B,L] input_ids) => (float[B,L,10] logits) {
          logits = Identity(input_ids) }, eos_token_id = 0, pad_token_id = 0> (ids, maxlen, minlen, beams, ret, lp)
    })");
  EXPECT_EQ(r.type("seqs"), "int32[B,2,20]");
  EXPECT_EQ(r.type("scores"), "float[B,2]");
}

TEST(MlInfer, ZipMapAndArrayFeatureExtractor) {
  auto r = inferText(R"(
    <ir_version: 3, opset_import: ["" : 7, "ai.onnx.ml" : 1]>
    main (float[1,1000] p, string[1000] labels) => (seq(map(string, float)) z, string l) <int64[1] idx = {3}> {
      z = ai.onnx.ml.ZipMap <classlabels_strings = ["a", "b"]> (p)
      l = ai.onnx.ml.ArrayFeatureExtractor (labels, idx)
    })");
  EXPECT_EQ(r.type("z"), "seq(map(string, float))");
  EXPECT_EQ(r.type("l"), "string[1,1]");
}

TEST(MlInfer, ClassifierShapes) {
  auto r = inferText(R"(
    <ir_version: 3, opset_import: ["" : 7, "ai.onnx.ml" : 1]>
    main (float[N,4] x) => (int64 label, float probs) {
      label, probs = ai.onnx.ml.LinearClassifier <classlabels_ints = [0, 1, 2], coefficients = [1.0, 2.0, 3.0, 4.0, 1.0, 2.0, 3.0, 4.0, 1.0, 2.0, 3.0, 4.0]> (x)
    })");
  EXPECT_EQ(r.type("label"), "int64[N]");
  EXPECT_EQ(r.type("probs"), "float[N,3]");
}

}  // namespace
}  // namespace passlab::analysis
