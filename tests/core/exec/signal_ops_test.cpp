// DFT, STFT, window functions and MelWeightMatrix against the ONNX reference.
#include <gtest/gtest.h>

#include "tests/core/exec/kernel_test_util.h"

namespace passlab::exec {
namespace {

using kt::f32;
using kt::i64;

TEST(Dft, ForwardOnesidedAndInverse) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 17]>
    main (float[1,4,1] x) => (float[1,4,2] y, float[1,3,2] half, float[1,4,2] back) {
      y = DFT <axis = 1> (x)
      half = DFT <axis = 1, onesided = 1> (x)
      back = DFT <axis = 1, inverse = 1> (y)
    })";
  auto r = testutil::runText(text, {{"x", f32({1, 4, 1}, {1, 2, 3, 4})}});
  kt::expectNear(r.outputs[0], {10, 0, -2, 2, -2, 0, -2, -2}, 1e-5f);
  kt::expectNear(r.outputs[1], {10, 0, -2, 2, -2, 0}, 1e-5f);
  kt::expectNear(r.outputs[2], {1, 0, 2, 0, 3, 0, 4, 0}, 1e-5f);
}

TEST(Dft, Opset20AxisInputAndLength) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 20]>
    main (float[4,1] x, int64 n, int64 a) => (float[2,2] y) { y = DFT(x, n, a) })";
  // The first two samples only: [1 + 2, 1 - 2].
  auto r = testutil::runText(
      text, {{"x", f32({4, 1}, {1, 2, 3, 4})}, {"n", i64({}, {2})}, {"a", i64({}, {0})}});
  kt::expectNear(r.outputs[0], {3, 0, -1, 0}, 1e-5f);
  kt::expectError(text,
                  {{"x", f32({4, 1}, {1, 2, 3, 4})}, {"n", i64({}, {2})}, {"a", i64({}, {1})}},
                  {"axis must not be the last"});
}

TEST(Stft, WindowedFrames) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 17]>
    main (float[1,8,1] s, int64 step, float[4] w) => (float[1,3,3,2] y) { y = STFT(s, step, w) })";
  auto r = testutil::runText(text, {{"s", f32({1, 8, 1}, {0, 1, 2, 3, 4, 5, 6, 7})},
                                    {"step", i64({}, {2})},
                                    {"w", f32({4}, {0.5f, 1, 1, 0.5f})}});
  kt::expectNear(
      r.outputs[0],
      {4.5f, 0, -2, 0.5f, -0.5f, 0, 10.5f, 0, -3, -0.5f, -0.5f, 0, 16.5f, 0, -4, -1.5f, -0.5f, 0},
      1e-5f);
}

TEST(Windows, SymmetricAndPeriodic) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 17]>
    main (int64 n) => (float[5] hann, float[5] hamming, float[5] blackman, double[4] periodic) {
      hann = HannWindow <periodic = 0> (n)
      hamming = HammingWindow <periodic = 0> (n)
      blackman = BlackmanWindow <periodic = 0> (n)
      four = Constant <value = int64 {4}> ()
      periodic = HannWindow <output_datatype = 11> (four)
    })";
  auto r = testutil::runText(text, {{"n", i64({}, {5})}});
  kt::expectNear(r.outputs[0], {0, 0.5f, 1, 0.5f, 0});
  kt::expectNear(r.outputs[1], {0.086957f, 0.543478f, 1, 0.543478f, 0.086957f});
  kt::expectNear(r.outputs[2], {0, 0.34f, 1, 0.34f, 0});
  ASSERT_EQ(r.outputs[3].dtype(), ir::DataType::kDouble);
  auto p = kt::values<double>(r.outputs[3]);
  ASSERT_EQ(p.size(), 4u);
  EXPECT_NEAR(p[1], 0.5, 1e-12);
  EXPECT_NEAR(p[2], 1.0, 1e-12);
}

TEST(MelWeightMatrix, TriangularFilters) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 17]>
    main (int64 m, int64 d, int64 r, float lo, float hi) => (float[9,4] y) {
      y = MelWeightMatrix(m, d, r, lo, hi)
    })";
  auto r = testutil::runText(text, {{"m", i64({}, {4})},
                                    {"d", i64({}, {16})},
                                    {"r", i64({}, {8000})},
                                    {"lo", f32({}, {100})},
                                    {"hi", f32({}, {3500})}});
  std::vector<float> want(36, 0.0f);
  want[0] = want[5] = want[10] = want[15] = 1;
  want[19] = 0.5f;
  kt::expectNear(r.outputs[0], want);
}

}  // namespace
}  // namespace passlab::exec
