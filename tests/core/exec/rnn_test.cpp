// RNN, GRU and LSTM against ONNX Runtime (layout 0) and the ONNX reference
// implementation (layout 1), on small deterministic inputs.
#include <gtest/gtest.h>

#include "tests/core/exec/kernel_test_util.h"

namespace passlab::exec {
namespace {

using kt::f32;
using kt::i32;

// The same values as the generator script: ((i + off) * 7919 % 17 - 8) / 10.
ir::Tensor pat(kt::Dims dims, int off) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  std::vector<float> v;
  for (int64_t i = 0; i < n; ++i)
    v.push_back(static_cast<float>(((i + off) * 7919) % 17 - 8) / 10.0f);
  return f32(std::move(dims), v);
}

TEST(Lstm, BidirectionalWithPeepholesAndSequenceLengths) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 14]>
    main (float[3,2,2] X, float[2,8,2] W, float[2,8,2] R, float[2,16] B, int32[2] L,
          float[2,2,2] H0, float[2,2,2] C0, float[2,6] P)
        => (float[3,2,2,2] Y, float[2,2,2] Yh, float[2,2,2] Yc) {
      Y, Yh, Yc = LSTM <hidden_size = 2, direction = "bidirectional"> (X, W, R, B, L, H0, C0, P)
    })";
  auto r = testutil::runText(text, {{"X", pat({3, 2, 2}, 0)},
                                    {"W", pat({2, 8, 2}, 1)},
                                    {"R", pat({2, 8, 2}, 2)},
                                    {"B", pat({2, 16}, 3)},
                                    {"L", i32({2}, {3, 2})},
                                    {"H0", pat({2, 2, 2}, 4)},
                                    {"C0", pat({2, 2, 2}, 5)},
                                    {"P", pat({2, 6}, 6)}});
  ASSERT_EQ(r.outputs.size(), 3u);
  // Batch entry 1 has length 2: its step 2 is zero in both directions.
  kt::expectNear(r.outputs[0],
                 {-0.269507f, 0.412639f,  -0.106660f, -0.134600f, -0.314609f, -0.173555f,
                  -0.258810f, -0.131454f, -0.164562f, 0.256088f,  -0.112224f, -0.075516f,
                  -0.228364f, -0.155420f, -0.185750f, -0.035855f, -0.170767f, 0.132543f,
                  0.000000f,  0.000000f,  -0.069866f, -0.223044f, 0.000000f,  0.000000f},
                 2e-6f);
  kt::expectNear(r.outputs[1],
                 {-0.170767f, 0.132543f, -0.112224f, -0.075516f, -0.314609f, -0.173555f, -0.258810f,
                  -0.131454f},
                 2e-6f);
  kt::expectNear(r.outputs[2],
                 {-0.488036f, 0.188491f, -0.305221f, -0.094389f, -0.640009f, -0.527489f, -0.474779f,
                  -0.270084f},
                 2e-6f);
}

TEST(Gru, LinearBeforeResetBatchMajorLayout) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 14]>
    main (float[2,3,2] X, float[1,6,2] W, float[1,6,2] R, float[1,12] B, float[2,1,2] H0)
        => (float[2,3,1,2] Y, float[2,1,2] Yh) {
      Y, Yh = GRU <hidden_size = 2, linear_before_reset = 1, layout = 1> (X, W, R, B, , H0)
    })";
  auto r = testutil::runText(text, {{"X", pat({2, 3, 2}, 0)},
                                    {"W", pat({1, 6, 2}, 1)},
                                    {"R", pat({1, 6, 2}, 2)},
                                    {"B", pat({1, 12}, 3)},
                                    {"H0", pat({2, 1, 2}, 4)}});
  ASSERT_EQ(r.outputs.size(), 2u);
  EXPECT_EQ(r.outputs[0].dims(), (kt::Dims{2, 3, 1, 2}));
  kt::expectNear(r.outputs[0],
                 {0.225880f, 0.200375f, 0.338637f, 0.248417f, 0.527174f, 0.296922f, 0.583811f,
                  0.611532f, 0.503743f, 0.565221f, 0.587471f, 0.497137f},
                 2e-6f);
  kt::expectNear(r.outputs[1], {0.527174f, 0.296922f, 0.587471f, 0.497137f}, 2e-6f);
}

TEST(Gru, ReverseDirection) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 14]>
    main (float[3,2,2] X, float[1,6,2] W, float[1,6,2] R, float[1,12] B)
        => (float[3,1,2,2] Y, float[1,2,2] Yh) {
      Y, Yh = GRU <hidden_size = 2, direction = "reverse"> (X, W, R, B)
    })";
  auto r = testutil::runText(text, {{"X", pat({3, 2, 2}, 0)},
                                    {"W", pat({1, 6, 2}, 1)},
                                    {"R", pat({1, 6, 2}, 2)},
                                    {"B", pat({1, 12}, 3)}});
  kt::expectNear(r.outputs[0],
                 {0.546792f, 0.725216f, 0.557970f, 0.222262f, 0.621605f, 0.127678f, 0.515413f,
                  0.171485f, 0.364763f, 0.059375f, 0.532455f, 0.055659f},
                 2e-6f);
  kt::expectNear(r.outputs[1], {0.546792f, 0.725216f, 0.557970f, 0.222262f}, 2e-6f);
}

TEST(Rnn, ReluActivationWithClip) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 14]>
    main (float[3,2,2] X, float[1,2,2] W, float[1,2,2] R, float[1,4] B)
        => (float[3,1,2,2] Y, float[1,2,2] Yh) {
      Y, Yh = RNN <hidden_size = 2, activations = ["Relu"], clip = 0.5> (X, W, R, B)
    })";
  auto r = testutil::runText(text, {{"X", pat({3, 2, 2}, 0)},
                                    {"W", pat({1, 2, 2}, 1)},
                                    {"R", pat({1, 2, 2}, 2)},
                                    {"B", pat({1, 4}, 3)}});
  kt::expectNear(r.outputs[0],
                 {0.0f, 0.32f, 0.0f, 0.5f, 0.0f, 0.488f, 0.03f, 0.05f, 0.0f, 0.2372f, 0.0f, 0.5f});
  kt::expectNear(r.outputs[1], {0.0f, 0.2372f, 0.0f, 0.5f});
}

TEST(Rnn, BadInputsAreNamed) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 14]>
    main (float[3,2,2] X, float[1,2,3] W, float[1,2,2] R) => (float[3,1,2,2] Y) {
      Y = RNN <hidden_size = 2> (X, W, R)
    })";
  kt::expectError(text,
                  {{"X", pat({3, 2, 2}, 0)}, {"W", pat({1, 2, 3}, 1)}, {"R", pat({1, 2, 2}, 2)}},
                  {"W is float[1,2,3]", "expected [1,2,2]"});
  const char* lens = R"(<ir_version: 8, opset_import: ["" : 14]>
    main (float[3,2,2] X, float[1,2,2] W, float[1,2,2] R, int32[2] L) => (float[3,1,2,2] Y) {
      Y = RNN <hidden_size = 2> (X, W, R, , L)
    })";
  kt::expectError(lens,
                  {{"X", pat({3, 2, 2}, 0)},
                   {"W", pat({1, 2, 2}, 1)},
                   {"R", pat({1, 2, 2}, 2)},
                   {"L", i32({2}, {3, 4})}},
                  {"sequence length 4 is out of range [0, 3]"});
  const char* act = R"(<ir_version: 8, opset_import: ["" : 14]>
    main (float[3,2,2] X, float[1,2,2] W, float[1,2,2] R) => (float[3,1,2,2] Y) {
      Y = RNN <hidden_size = 2, activations = ["Frobnicate"]> (X, W, R)
    })";
  kt::expectError(act,
                  {{"X", pat({3, 2, 2}, 0)}, {"W", pat({1, 2, 2}, 1)}, {"R", pat({1, 2, 2}, 2)}},
                  {"unknown activation function 'Frobnicate'"});
}

TEST(Lstm, EmptyBatch) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 14]>
    main (float[3,0,2] X, float[1,8,2] W, float[1,8,2] R) => (float[3,1,0,2] Y, float[1,0,2] Yh) {
      Y, Yh = LSTM <hidden_size = 2> (X, W, R)
    })";
  auto r = testutil::runText(
      text, {{"X", f32({3, 0, 2}, {})}, {"W", pat({1, 8, 2}, 1)}, {"R", pat({1, 8, 2}, 2)}});
  ASSERT_EQ(r.outputs.size(), 2u);
  EXPECT_EQ(r.outputs[0].dims(), (kt::Dims{3, 1, 0, 2}));
  EXPECT_EQ(r.outputs[1].dims(), (kt::Dims{1, 0, 2}));
}

}  // namespace
}  // namespace passlab::exec
