// remove_dead_channels across Convs that pad: a constant channel folded into
// the next bias is exact only where the window never reads padding, so with
// several nonzero constant channels one of them stays (the carrier) and the
// padded Conv takes the others' constants into the carrier's weights (the
// same zeros at the border, the same constant inside). Structural, numeric
// (outputs equal on random inputs), convergence, and the negatives (one such
// channel alone, no channel nonzero wherever another is carried).
#include <gtest/gtest.h>

#include "core/io/text_format.h"
#include "tests/support/pass_harness.h"
#include "tests/support/test_support.h"

namespace passlab::testing {
namespace {

const char* kPass = "remove_dead_channels";

// n values in [-3, 3]: "-3, -2, -1, 0, 1, 2, 3, -3, ...", shifted by `start`.
std::string sequence(int n, int start = 0) {
  std::string s;
  for (int i = 0; i < n; ++i) s += (i ? ", " : "") + std::to_string((i + start) % 7 - 3);
  return s;
}

// h's channels 1 (bias 0.5), 3 (0.25) and 4 (-1, 0 after the Relu) are
// dead; the 3x3 Conv pads. Channel 4 goes as a zero; channel 1 stays and
// carries channel 3: w2[:, 1] += 0.25 / 0.5 * w2[:, 3].
std::string padded(const std::string& tail, const std::string& outputs) {
  return R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,4,4] x) => ()" +
         outputs + R"()
    <float[5,2,1,1] w = {1, 2,  0, 0,  -1, 0.5,  0, 0,  0, 0},
     float[5] b = {0.1, 0.5, 0.2, 0.25, -1},
     float[1,5,1,1] k1 = {0, 0, 0, -0.25, 0}, float[1,5,1,1] k2 = {0, -0.5, 0, 0, 0},
     float[2,5,3,3] w2 = {)" +
         sequence(90) + R"(}, float[2] b2 = {1, -1},
     float[2,5,3,3] w3 = {)" +
         sequence(90, 3) + R"(}> {
    h = Conv(x, w, b)
    r = Relu(h)
    )" + tail +
         " }";
}

const std::string kOnePadded =
    padded("y = Conv <pads = [1, 1, 1, 1]> (r, w2, b2)", "float[1,2,4,4] y");

TEST(RemoveDeadChannelsPadded, OneChannelCarriesTheOthersIntoAPaddedConv) {
  PassOutcome out = runPass(kPass, kOnePadded);
  ASSERT_TRUE(out.step.changed) << explainNotes(out);
  EXPECT_EQ(initializerInput(out.model, "h", 1)->dims(), (std::vector<int64_t>{3, 2, 1, 1}));
  EXPECT_EQ(initializerInput(out.model, "y", 1)->dims(), (std::vector<int64_t>{2, 3, 3, 3}));
  EXPECT_EQ(initializerInput(out.model, "y", 2)->toDoubleVector(), (std::vector<double>{1, -1}));
  // w2 without input channels 3 and 4, channel 1 plus 0.25 / 0.5 of channel 3.
  const ir::Model in = parse(kOnePadded);
  const std::vector<double> w2 = initializerInput(in, "y", 1)->toDoubleVector();
  std::vector<double> expected;
  for (size_t o = 0; o < 2; ++o)
    for (size_t c = 0; c < 3; ++c)
      for (size_t r = 0; r < 9; ++r)
        expected.push_back(w2[(o * 5 + c) * 9 + r] + (c == 1 ? 0.5 * w2[(o * 5 + 3) * 9 + r] : 0));
  EXPECT_EQ(initializerInput(out.model, "y", 1)->toDoubleVector(), expected);
  EXPECT_NE(explainNotes(out).find("2 of 3 dead channels removed; the others stay: channel 1 "
                                   "stays: it carries the constants of 1 other dead channels"),
            std::string::npos)
      << explainNotes(out);
  NumericResult num = compareOutputs(parse(kOnePadded), out.model, 3);
  ASSERT_TRUE(num.ran) << num.detail;
  EXPECT_TRUE(num.equal) << num.detail << "\n" << io::printModelText(out.model);
  expectConverges(kPass, kOnePadded);
}

TEST(RemoveDeadChannelsPadded, NoCarrierWhereEachIsZeroWhereTheOtherIsNot) {
  // Through k1 channel 3 is 0 (channel 1 0.5), through k2 channel 1 is 0
  // (channel 3 0.25): neither can carry the other into both Convs.
  // Channel 4 (zero) still goes.
  const std::string text = padded(
      "a1 = Add(r, k1)\n    y = Conv <pads = [1, 1, 1, 1]> (a1, w2, b2)\n"
      "    a2 = Add(r, k2)\n    z = Conv <pads = [1, 1, 1, 1]> (a2, w3)",
      "float[1,2,4,4] y, float[1,2,4,4] z");
  PassOutcome out = runPass(kPass, text);
  ASSERT_TRUE(out.step.changed) << explainNotes(out);
  EXPECT_EQ(initializerInput(out.model, "h", 1)->dims(), (std::vector<int64_t>{4, 2, 1, 1}));
  EXPECT_NE(explainNotes(out).find("1 of 3 dead channels removed; the others stay: Conv "
                                   "pads its input: channel 1 holds 0.5"),
            std::string::npos)
      << explainNotes(out);
  NumericResult num = compareOutputs(parse(text), out.model, 3);
  ASSERT_TRUE(num.ran) << num.detail;
  EXPECT_TRUE(num.equal) << num.detail;
  expectConverges(kPass, text);
}

}  // namespace
}  // namespace passlab::testing
