// com.microsoft transformer ops against ONNX Runtime's CPU kernels on small
// deterministic inputs: Attention (past/present, 1-D, 2-D and 3-D masks,
// unidirectional), SkipLayerNormalization, EmbedLayerNormalization and the
// GELU variants.
#include <gtest/gtest.h>

#include "tests/core/exec/kernel_test_util.h"

namespace passlab::exec {
namespace {

using kt::f32;
using kt::i32;

ir::Tensor pat(kt::Dims dims, int off, float scale = 1, float shift = 0) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  std::vector<float> v;
  for (int64_t i = 0; i < n; ++i)
    v.push_back(static_cast<float>(((i + off) * 7919) % 17 - 8) / 10.0f * scale + shift);
  return f32(std::move(dims), v);
}

const char* kHeader = R"(<ir_version: 8, opset_import: ["" : 17, "com.microsoft" : 1]>)";

TEST(ContribAttention, PastPresentRawMaskUnidirectional) {
  std::string text = std::string(kHeader) + R"(
    main (float[2,3,4] x, float[4,12] w, float[12] b, int32[2,5] mask, float[2,2,2,2,2] past)
        => (float[2,3,4] y, float[2,2,2,5,2] present) {
      y, present = com.microsoft.Attention <num_heads = 2, unidirectional = 1> (x, w, b, mask, past)
    })";
  auto r = testutil::runText(text, {{"x", pat({2, 3, 4}, 0)},
                                    {"w", pat({4, 12}, 1)},
                                    {"b", pat({12}, 2)},
                                    {"mask", i32({2, 5}, {1, 1, 1, 1, 0, 1, 0, 1, 1, 1})},
                                    {"past", pat({2, 2, 2, 2, 2}, 3)}});
  ASSERT_EQ(r.outputs.size(), 2u);
  kt::expectNear(
      r.outputs[0],
      {-0.209484f, -0.520106f, 0.971508f, 0.156275f, -0.380258f, -0.499446f, 1.010771f, 0.168992f,
       -0.500513f, -0.557804f, 1.015247f, 0.184648f, -0.464379f, -1.176404f, 0.234502f, 0.226468f,
       -0.498710f, -0.792380f, 0.500698f, 0.134623f, -0.530590f, -0.418608f, 0.484044f, 0.212757f},
      2e-5f);
  EXPECT_EQ(r.outputs[1].dims(), (kt::Dims{2, 2, 2, 5, 2}));
  auto present = kt::values<float>(r.outputs[1]);
  // The cache comes first, then the new keys (x·Wk + bk).
  EXPECT_NEAR(present[0], 0.0f, 1e-6f);
  EXPECT_NEAR(present[4], 1.01f, 1e-5f);
  EXPECT_NEAR(present[5], 0.34f, 1e-5f);
  EXPECT_NEAR(present[79], 0.15f, 1e-5f);
}

TEST(ContribAttention, OneAndThreeDimensionalMasks) {
  std::string text1 = std::string(kHeader) + R"(
    main (float[2,3,4] x, float[4,12] w, float[12] b, int32[2] mask) => (float[2,3,4] y) {
      y = com.microsoft.Attention <num_heads = 2> (x, w, b, mask)
    })";
  NamedInputs in = {{"x", pat({2, 3, 4}, 0)},
                    {"w", pat({4, 12}, 1)},
                    {"b", pat({12}, 2)},
                    {"mask", i32({2}, {2, 3})}};
  kt::expectNear(
      testutil::runText(text1, in).outputs[0],
      {-0.802958f, -0.732102f, 1.481655f, 0.202942f, -0.797973f, -0.740182f, 1.491829f, 0.203570f,
       -0.813961f, -0.714269f, 1.494256f, 0.203719f, -0.585696f, -0.278627f, 0.639417f, 0.231973f,
       -0.564534f, -0.356694f, 0.628985f, 0.271081f, -0.569330f, -0.335134f, 0.610761f, 0.348949f},
      2e-5f);
  std::string text3 = std::string(kHeader) + R"(
    main (float[2,3,4] x, float[4,12] w, float[12] b, int32[2,3,3] mask) => (float[2,3,4] y) {
      y = com.microsoft.Attention <num_heads = 2> (x, w, b, mask)
    })";
  in[3] = {"mask", i32({2, 3, 3}, {1, 0, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1})};
  kt::expectNear(
      testutil::runText(text3, in).outputs[0],
      {-0.191317f, -0.936546f, 1.176399f, 0.256557f, -0.797973f, -0.740182f, 1.491829f, 0.203570f,
       -0.459610f, -0.657216f, 0.657082f, 0.227261f, -0.585696f, -0.278627f, 0.639417f, 0.231973f,
       -0.564534f, -0.356694f, 0.628985f, 0.271081f, -0.570000f, 0.520000f,  0.420000f, 0.150000f},
      2e-5f);
  // A 3-D mask must be [batch, sequence, total sequence].
  std::string textBad = std::string(kHeader) + R"(
    main (float[2,3,4] x, float[4,12] w, float[12] b, int32[2,3,4] mask) => (float[2,3,4] y) {
      y = com.microsoft.Attention <num_heads = 2> (x, w, b, mask)
    })";
  in[3] = {"mask", i32({2, 3, 4}, std::vector<int32_t>(24, 1))};
  kt::expectError(textBad, in, {"mask_index", "int32[2,3,4]"});
}

TEST(ContribAttention, BadWeights) {
  std::string text = std::string(kHeader) + R"(
    main (float[1,2,4] x, float[4,10] w) => (float[1,2,4] y) {
      y = com.microsoft.Attention <num_heads = 2> (x, w)
    })";
  kt::expectError(text, {{"x", pat({1, 2, 4}, 0)}, {"w", pat({4, 10}, 1)}},
                  {"do not split into Q, K and V"});
}

TEST(ContribSkipLayerNorm, NormalizesTheSumAndReturnsIt) {
  std::string text = std::string(kHeader) + R"(
    main (float[2,3,4] x, float[2,3,4] skip, float[4] g, float[4] be, float[4] bias)
        => (float[2,3,4] y, float[2,3,4] s) {
      y, mean, inv, s = com.microsoft.SkipLayerNormalization <epsilon = 0.00001> (x, skip, g, be, bias)
    })";
  auto r = testutil::runText(text, {{"x", pat({2, 3, 4}, 0)},
                                    {"skip", pat({2, 3, 4}, 5)},
                                    {"g", pat({4}, 1, 1, 1)},
                                    {"be", pat({4}, 2)},
                                    {"bias", pat({4}, 3)}});
  kt::expectNear(r.outputs[0],
                 {-2.297553f, 1.136430f, -0.324976f, -0.058011f, -0.153845f, -1.316962f,
                  -0.664697f, 0.562979f, 2.620203f,  0.050950f,  -1.671741f, -0.682305f,
                  -1.089146f, 1.451162f, -1.416278f, 0.007752f,  -0.656144f, -1.679036f,
                  0.336145f,  0.277108f, 1.150386f,  -0.552751f, -1.681876f, 0.292905f},
                 2e-5f);
  kt::expectNear(r.outputs[1],
                 {-1.4f, 1.1f, 0.2f,  1.0f, -0.4f, -1.3f, -0.5f, 2.0f, 0.6f, -0.3f, -1.2f, -0.4f,
                  -0.1f, 0.7f, -0.2f, 0.6f, -0.8f, -1.7f, 0.8f,  1.6f, 0.2f, -0.7f, -1.6f, 0.9f},
                 1e-5f);
}

TEST(ContribEmbedLayerNorm, WordPositionSegmentAndMaskIndex) {
  std::string text = std::string(kHeader) + R"(
    main (int32[2,3] ids, int32[2,3] seg, float[5,4] we, float[6,4] pe, float[2,4] se, float[4] g,
          float[4] be, int32[2,3] mask) => (float[2,3,4] y, int32[2] mi, float[2,3,4] s) {
      y, mi, s = com.microsoft.EmbedLayerNormalization <epsilon = 0.00001> (ids, seg, we, pe, se, g, be, mask)
    })";
  NamedInputs in = {{"ids", i32({2, 3}, {1, 3, 0, 2, 2, 4})},
                    {"seg", i32({2, 3}, {0, 1, 1, 1, 0, 0})},
                    {"we", pat({5, 4}, 0)},
                    {"pe", pat({6, 4}, 1)},
                    {"se", pat({2, 4}, 2)},
                    {"g", pat({4}, 3, 1, 1)},
                    {"be", pat({4}, 4)},
                    {"mask", i32({2, 3}, {1, 1, 0, 1, 1, 1})}};
  auto r = testutil::runText(text, in);
  kt::expectNear(
      r.outputs[0],
      {0.804288f,  -1.218401f, 1.153372f, -1.487719f, -0.182422f, 0.360219f,  0.784323f, -2.110228f,
       -1.168216f, 0.181395f,  0.353489f, 2.062789f,  1.041634f,  -0.286952f, 0.621115f, -1.914941f,
       -0.182422f, 0.360219f,  0.784323f, -2.110228f, -0.167806f, -1.617892f, 0.782374f, 2.958803f},
      2e-5f);
  EXPECT_EQ(kt::values<int32_t>(r.outputs[1]), (std::vector<int32_t>{2, 3}));
  kt::expectNear(r.outputs[2],
                 {0.6f, -0.3f, 0.5f,  -0.4f, 0.9f,  1.7f, 0.8f,  -0.1f, -0.1f, 0.7f,  -0.2f, 0.6f,
                  1.6f, 0.7f,  -0.2f, -1.1f, -0.1f, 0.7f, -0.2f, -1.1f, -0.3f, -1.2f, -0.4f, 0.4f},
                 1e-5f);
  in[0] = {"ids", i32({2, 3}, {1, 3, 0, 2, 5, 4})};
  kt::expectError(text, in, {"input id 5 is out of range [0, 5)"});
}

TEST(ContribGelu, ThreeForms) {
  std::string text = std::string(kHeader) + R"(
    main (float[2,3] x, float[3] b) => (float[2,3] fast, float[2,3] bias, float[2,3] plain) {
      fast = com.microsoft.FastGelu(x, b)
      bias = com.microsoft.BiasGelu(x, b)
      plain = com.microsoft.Gelu(x)
    })";
  auto r = testutil::runText(
      text, {{"x", f32({2, 3}, {-2.4f, 1.8f, 0.9f, 0, -0.9f, -1.8f})}, {"b", pat({3}, 1)}});
  kt::expectNear(r.outputs[0],
                 {-0.064740f, 2.062669f, 0.734229f, 0.435415f, -0.164585f, -0.064740f});
  kt::expectNear(r.outputs[1],
                 {-0.064675f, 2.062485f, 0.734346f, 0.435448f, -0.164552f, -0.064675f});
  kt::expectNear(r.outputs[2], {-0.019674f, 1.735325f, 0.734346f, 0.0f, -0.165654f, -0.064675f});
}

}  // namespace
}  // namespace passlab::exec
