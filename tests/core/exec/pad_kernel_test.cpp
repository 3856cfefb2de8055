// Pad (cpu.Pad): every mode against a naive per-element reference, with pads
// that exceed the input, crop it (negative pads) or leave the last axis alone
// (the kernel copies the last axis's interior as one block and maps only the
// pads through the mode); strings take the same path.
#include <gtest/gtest.h>

#include <string>

#include "tests/core/exec/kernel_test_util.h"

namespace passlab::exec {
namespace {

using kt::f32;
using kt::i64;

// Source index of output position o on an axis of size n with `begin` pads; -1: constant.
int64_t naiveSource(const std::string& mode, int64_t o, int64_t begin, int64_t n) {
  int64_t i = o - begin;
  if (i >= 0 && i < n) return i;
  if (mode == "constant") return -1;
  if (mode == "edge") return i < 0 ? 0 : n - 1;
  if (mode == "wrap") return ((i % n) + n) % n;
  if (n == 1) return 0;  // reflect
  int64_t period = 2 * (n - 1), m = ((i % period) + period) % period;
  return m >= n ? period - m : m;
}

std::string dimsText(const std::vector<int64_t>& d) {
  std::string s;
  for (size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + std::to_string(d[i]);
  return s;
}

// Runs Pad(mode) of a [2,3,5] input with `pads` (begin..., end...) and
// compares every element with naiveSource.
void checkPad(const std::string& mode, const std::vector<int64_t>& pads) {
  const std::vector<int64_t> in = {2, 3, 5};
  std::vector<int64_t> out(3);
  for (size_t d = 0; d < 3; ++d) out[d] = in[d] + pads[d] + pads[d + 3];
  std::vector<float> x(30);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i + 1);
  const std::string text = R"(<ir_version: 8, opset_import: ["" : 18]>
    main (float[2,3,5] x, int64[6] p, float c) => (float[)" +
                           dimsText(out) + R"(] y) { y = Pad <mode = ")" + mode +
                           R"("> (x, p, c) })";
  auto r =
      testutil::runText(text, {{"x", f32(in, x)}, {"p", i64({6}, pads)}, {"c", f32({}, {-7})}});
  ASSERT_EQ(r.outputs.size(), 1u);
  auto y = kt::values<float>(r.outputs[0]);
  ASSERT_EQ(static_cast<int64_t>(y.size()), out[0] * out[1] * out[2]);
  size_t k = 0;
  for (int64_t a = 0; a < out[0]; ++a)
    for (int64_t b = 0; b < out[1]; ++b)
      for (int64_t c = 0; c < out[2]; ++c, ++k) {
        int64_t i0 = naiveSource(mode, a, pads[0], in[0]),
                i1 = naiveSource(mode, b, pads[1], in[1]),
                i2 = naiveSource(mode, c, pads[2], in[2]);
        float want =
            i0 < 0 || i1 < 0 || i2 < 0 ? -7.0f : x[static_cast<size_t>((i0 * 3 + i1) * 5 + i2)];
        ASSERT_EQ(y[k], want) << mode << " at [" << a << "," << b << "," << c << "]";
      }
}

TEST(PadKernel, EveryModeMatchesTheNaiveReference) {
  const std::vector<std::vector<int64_t>> padSets = {
      {0, 1, 2, 0, 1, 3},    // both ends of every inner axis
      {1, 0, 0, 1, 0, 0},    // the last axis untouched: whole-row copies
      {0, 0, 4, 0, 0, 4},    // last-axis pads close to the input's size
      {0, 1, -2, 0, 0, 1},   // crop the last axis's start, pad its end
      {0, 0, 1, 0, 0, -3},   // pad the start, crop the end
      {0, 0, -2, 0, 0, -3},  // nothing of the last axis left
  };
  for (const char* mode : {"constant", "edge", "reflect", "wrap"})
    for (const auto& pads : padSets) {
      if (std::string(mode) != "constant" && pads[2] + pads[5] == -5) continue;
      checkPad(mode, pads);
    }
}

TEST(PadKernel, ConstantPadsLargerThanTheRowFillBeforeAndAfter) {
  // Begin pads past the output's end: every element is the constant.
  const char* text = R"(<ir_version: 8, opset_import: ["" : 18]>
    main (float[1,2] x, int64[4] p) => (float[1,3] y) { y = Pad (x, p) })";
  auto r = testutil::runText(text, {{"x", f32({1, 2}, {5, 6})}, {"p", i64({4}, {0, 3, 0, -2})}});
  kt::expectNear(r.outputs[0], {0, 0, 0});
}

TEST(PadKernel, StringsCopyTheInteriorAndFillThePads) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 18]>
    main (string[2,2] x, int64[4] p) => (string[2,5] y) { y = Pad <mode = "edge"> (x, p) })";
  auto r = testutil::runText(
      text, {{"x", kt::strs({2, 2}, {"a", "b", "c", "d"})}, {"p", i64({4}, {0, 1, 0, 2})}});
  EXPECT_EQ(kt::strings(r.outputs[0]),
            (std::vector<std::string>{"a", "a", "b", "b", "b", "c", "c", "d", "d", "d"}));
}

}  // namespace
}  // namespace passlab::exec
