// ai.passlab QLinearSqueezeExcite against a reference written out here (the
// contract of core/ir/passlab_ops.h in double precision): NCHW and NHWC,
// uint8 and int8, batches, channel and plane lengths that leave tails for
// the 16-lane loop; within one quantization step of the reference (the
// kernel's float32 sums may round a tie the other way), and NHWC equal to
// NCHW on the transposed tensor within the same step; the mean's clip; the
// inputs it must refuse.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "tests/core/exec/kernel_test_util.h"

namespace passlab::exec {
namespace {

struct Case {
  int n, c, c1, h, w;
  bool int8;
};

// Exactly representable parameters (multiples of 1/64), so the text's values are the test's.
float tableAt(int i) {
  return static_cast<float>((i * 37) % 256 - 96) / 64.0f;
}
float w1At(int m, int k) {
  return static_cast<float>((m * 7 + k * 3) % 9 - 4) / 16.0f;
}
float b1At(int m) {
  return static_cast<float>(m % 3) / 8.0f;
}
float w2At(int k, int m) {
  return static_cast<float>((k * 5 + m) % 7 - 3) / 16.0f;
}
float b2At(int k) {
  return static_cast<float>(k % 5 - 2) / 8.0f;
}
constexpr float kLo1 = 0.0f, kHi1 = 4.0f, kLo2 = -3.0f, kHi2 = 3.0f, kAlpha = 0.25f, kBeta = 0.5f,
                kScale = 0.0625f;

std::string list(int count, const std::function<float(int)>& at) {
  std::string s = "{";
  for (int i = 0; i < count; ++i) s += (i ? ", " : "") + std::to_string(at(i));
  return s + "}";
}

std::string dims(const std::vector<int64_t>& d) {
  std::string s;
  for (size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + std::to_string(d[i]);
  return s;
}

int zeroOf(const Case& k) {
  return k.int8 ? -3 : 7;
}

std::vector<int64_t> shapeOf(const Case& k, bool last) {
  return last ? std::vector<int64_t>{k.n, k.h, k.w, k.c} : std::vector<int64_t>{k.n, k.c, k.h, k.w};
}

std::string model(const Case& k, bool last) {
  const std::string t = k.int8 ? "int8" : "uint8";
  const std::string shape = dims(shapeOf(k, last));
  return R"(<ir_version: 8, opset_import: ["" : 13, "ai.passlab" : 1]>
    main ()" +
         t + "[" + shape + "] x) => (" + t + "[" + shape + R"(] y)
        <float[256] t = )" +
         list(256, tableAt) + ", float[" + std::to_string(k.c1) + "," + std::to_string(k.c) +
         "] w1 = " + list(k.c1 * k.c, [&](int i) { return w1At(i / k.c, i % k.c); }) + ", float[" +
         std::to_string(k.c1) + "] b1 = " + list(k.c1, b1At) + ", float[" + std::to_string(k.c) +
         "," + std::to_string(k.c1) +
         "] w2 = " + list(k.c * k.c1, [&](int i) { return w2At(i / k.c1, i % k.c1); }) +
         ", float[" + std::to_string(k.c) + "] b2 = " + list(k.c, b2At) + ", float ys = {" +
         std::to_string(kScale) + "}, " + t + " yz = {" + std::to_string(zeroOf(k)) + R"(}> {
      y = ai.passlab.QLinearSqueezeExcite <channels_last = )" +
         std::to_string(last ? 1 : 0) + R"(, clip1 = [0.0, 4.0], clip2 = [-3.0, 3.0],
          clip0 = [-100.0, 100.0], alpha = 0.25, beta = 0.5> (x, t, w1, b1, w2, b2, ys, yz) })";
}

// X's bytes in NCHW order, random.
std::vector<uint8_t> randomBytes(const Case& k, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> x(static_cast<size_t>(k.n * k.c * k.h * k.w));
  for (auto& v : x) v = static_cast<uint8_t>(rng() & 0xff);
  return x;
}

std::vector<uint8_t> toLast(const Case& k, const std::vector<uint8_t>& x) {
  std::vector<uint8_t> y(x.size());
  const int hw = k.h * k.w;
  for (int b = 0; b < k.n; ++b)
    for (int c = 0; c < k.c; ++c)
      for (int p = 0; p < hw; ++p) y[(b * hw + p) * k.c + c] = x[(b * k.c + c) * hw + p];
  return y;
}

// The contract in double precision (the product H * S rounded to float32
// first, as the QDQ form's Mul), NCHW; values as ints.
std::vector<int> reference(const Case& k, const std::vector<uint8_t>& x) {
  const int hw = k.h * k.w, lo = k.int8 ? -128 : 0, hi = k.int8 ? 127 : 255;
  auto h = [&](uint8_t byte) {
    const int v = k.int8 ? static_cast<int8_t>(byte) : byte;
    return static_cast<double>(tableAt(v - lo));
  };
  std::vector<int> y(x.size());
  for (int b = 0; b < k.n; ++b) {
    std::vector<double> g(k.c), t(k.c1);
    for (int c = 0; c < k.c; ++c) {
      for (int p = 0; p < hw; ++p) g[c] += h(x[(b * k.c + c) * hw + p]);
      g[c] /= hw;
    }
    for (int m = 0; m < k.c1; ++m) {
      double a = b1At(m);
      for (int c = 0; c < k.c; ++c) a += w1At(m, c) * g[c];
      t[m] = std::min(std::max(a, double{kLo1}), double{kHi1});
    }
    for (int c = 0; c < k.c; ++c) {
      double a = b2At(c);
      for (int m = 0; m < k.c1; ++m) a += w2At(c, m) * t[m];
      const double u = std::min(std::max(a, double{kLo2}), double{kHi2});
      const double s = std::min(std::max(kAlpha * u + kBeta, 0.0), 1.0);
      for (int p = 0; p < hw; ++p) {
        const size_t i = static_cast<size_t>((b * k.c + c) * hw + p);
        const float prod = static_cast<float>(h(x[i]) * s);
        const double q = std::nearbyint(prod / double{kScale}) + zeroOf(k);
        y[i] = static_cast<int>(
            std::min(std::max(q, static_cast<double>(lo)), static_cast<double>(hi)));
      }
    }
  }
  return y;
}

std::vector<int> run(const Case& k, bool last, const std::vector<uint8_t>& nchw) {
  const std::vector<uint8_t> bytes = last ? toLast(k, nchw) : nchw;
  ir::Tensor x = k.int8 ? kt::make<uint8_t>(ir::DataType::kInt8, shapeOf(k, last), bytes)
                        : kt::u8(shapeOf(k, last), bytes);
  auto r = testutil::runText(model(k, last), {{"x", std::move(x)}});
  if (r.outputs.empty()) return {};
  std::vector<int> y;
  if (k.int8)
    for (int8_t v : kt::values<int8_t>(r.outputs[0])) y.push_back(v);
  else
    for (uint8_t v : kt::values<uint8_t>(r.outputs[0])) y.push_back(v);
  if (!last) return y;
  std::vector<int> back(y.size());  // NHWC -> NCHW
  const int hw = k.h * k.w;
  for (int b = 0; b < k.n; ++b)
    for (int c = 0; c < k.c; ++c)
      for (int p = 0; p < hw; ++p) back[(b * k.c + c) * hw + p] = y[(b * hw + p) * k.c + c];
  return back;
}

// Largest |a - b| and how many differ.
std::pair<int, int> diff(const std::vector<int>& a, const std::vector<int>& b) {
  int most = 0, count = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    most = std::max(most, std::abs(a[i] - b[i]));
    count += a[i] != b[i];
  }
  return {most, count};
}

TEST(PassLabQLinearSqueezeExcite, WithinOneStepOfTheReferenceInBothLayouts) {
  const Case cases[] = {{1, 8, 4, 3, 5, false},
                        {2, 37, 9, 4, 7, false},
                        {1, 16, 4, 1, 1, true},
                        {2, 20, 5, 6, 3, true},
                        {1, 3, 2, 17, 19, false},
                        // NHWC 64 channels at a time (AVX-512 VBMI): tails of 24, 8 and 0
                        {1, 88, 22, 3, 4, true},
                        {1, 200, 50, 2, 5, false},
                        {2, 64, 16, 2, 2, true},
                        {1, 24, 6, 3, 3, false}};
  unsigned seed = 1;
  for (const Case& k : cases) {
    SCOPED_TRACE("n " + std::to_string(k.n) + " c " + std::to_string(k.c) + " hw " +
                 std::to_string(k.h) + "x" + std::to_string(k.w) + (k.int8 ? " int8" : " uint8"));
    const std::vector<uint8_t> x = randomBytes(k, seed++);
    const std::vector<int> want = reference(k, x);
    const std::vector<int> first = run(k, false, x), last = run(k, true, x);
    ASSERT_EQ(first.size(), want.size());
    ASSERT_EQ(last.size(), want.size());
    EXPECT_LE(diff(first, want).first, 1);
    EXPECT_LE(diff(last, want).first, 1);
    EXPECT_LE(diff(first, last).first, 1);
    // Ties are rare: almost every element equals the reference.
    EXPECT_LE(diff(first, want).second, static_cast<int>(want.size() / 100) + 1);
  }
}

// A table whose sums round (not multiples of a power of 2), as the model's
// text holds it: std::to_string's six decimals read back as float32.
float irregularAt(int i) {
  return static_cast<float>(std::stod(std::to_string(std::sin(0.37 * i) * 3.1)));
}

// The kernel's own float32 arithmetic in its order for NHWC
// (passlab_squeeze_excite.cpp): each channel's H summed position after
// position from 0, the mean clipped, the gate's dot products in 8 partial
// sums, S / y_scale, then round(clip(H * S)) + zero point. Values as ints,
// NCHW order.
float dot8(const std::function<float(int)>& a, const std::vector<float>& b) {
  float p[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  const int n = static_cast<int>(b.size());
  int i = 0;
  for (; i + 8 <= n; i += 8)
    for (int j = 0; j < 8; ++j) p[j] += a(i + j) * b[i + j];
  float s = 0;
  for (; i < n; ++i) s += a(i) * b[i];
  return s + (((p[0] + p[1]) + (p[2] + p[3])) + ((p[4] + p[5]) + (p[6] + p[7])));
}

std::vector<int> float32Nhwc(const Case& k, const std::vector<uint8_t>& x) {
  const int hw = k.h * k.w, lo = k.int8 ? -128 : 0, hi = k.int8 ? 127 : 255, z = zeroOf(k);
  auto h = [&](uint8_t byte) { return irregularAt(k.int8 ? (byte ^ 0x80) : byte); };
  auto clip = [](float v, float a, float b) { return std::min(std::max(v, a), b); };
  std::vector<int> y(x.size());
  for (int b = 0; b < k.n; ++b) {
    std::vector<float> g(k.c, 0.0f), t(k.c1);
    for (int p = 0; p < hw; ++p)
      for (int c = 0; c < k.c; ++c) g[c] += h(x[(b * k.c + c) * hw + p]);
    for (float& v : g) v = clip(v / static_cast<float>(hw), -100.0f, 100.0f);
    for (int m = 0; m < k.c1; ++m)
      t[m] = clip(b1At(m) + dot8([&](int c) { return w1At(m, c); }, g), kLo1, kHi1);
    for (int c = 0; c < k.c; ++c) {
      const float u = clip(b2At(c) + dot8([&](int m) { return w2At(c, m); }, t), kLo2, kHi2);
      const float s = clip(kAlpha * u + kBeta, 0.0f, 1.0f) / kScale;
      for (int p = 0; p < hw; ++p) {
        const size_t i = static_cast<size_t>((b * k.c + c) * hw + p);
        const float v = clip(h(x[i]) * s, static_cast<float>(lo - z), static_cast<float>(hi - z));
        y[i] = static_cast<int>(std::nearbyint(v)) + z;
      }
    }
  }
  return y;
}

TEST(PassLabQLinearSqueezeExcite, ChannelsLastEqualsItsFloat32ArithmeticBitForBit) {
  // Channel counts for the 16-lane loop (8, 16) and the 64-channel one
  // (24, 88, 200: tails of 24, 24 and 8; 64), uint8 and int8.
  const Case cases[] = {{1, 8, 4, 12, 9, false},  {1, 16, 4, 3, 5, true},
                        {1, 24, 6, 7, 5, false},  {2, 64, 16, 3, 3, true},
                        {1, 88, 22, 3, 8, false}, {1, 200, 50, 2, 9, true},
                        {1, 200, 50, 2, 9, false}};
  unsigned seed = 40;
  for (const Case& k : cases) {
    SCOPED_TRACE("c " + std::to_string(k.c) + (k.int8 ? " int8" : " uint8"));
    std::string text = model(k, true);
    const std::string t = "float[256] t = " + list(256, tableAt);
    text.replace(text.find(t), t.size(), "float[256] t = " + list(256, irregularAt));
    const std::vector<uint8_t> x = randomBytes(k, seed++);
    const std::vector<uint8_t> last = toLast(k, x);
    ir::Tensor in = k.int8 ? kt::make<uint8_t>(ir::DataType::kInt8, shapeOf(k, true), last)
                           : kt::u8(shapeOf(k, true), last);
    auto r = testutil::runText(text, {{"x", std::move(in)}});
    ASSERT_EQ(r.outputs.size(), 1u);
    std::vector<int> got;
    if (k.int8)
      for (int8_t v : kt::values<int8_t>(r.outputs[0])) got.push_back(v);
    else
      for (uint8_t v : kt::values<uint8_t>(r.outputs[0])) got.push_back(v);
    const std::vector<int> want = float32Nhwc(k, x);
    ASSERT_EQ(got.size(), want.size());
    const int hw = k.h * k.w;
    int bad = 0, distinct = 0;
    std::vector<bool> seen(256, false);
    for (int b = 0; b < k.n; ++b)
      for (int p = 0; p < hw; ++p)
        for (int c = 0; c < k.c; ++c) {
          const int g = got[static_cast<size_t>((b * hw + p) * k.c + c)];
          const int w = want[static_cast<size_t>((b * k.c + c) * hw + p)];
          if (!seen[static_cast<size_t>(g + 128) & 255]) ++distinct;
          seen[static_cast<size_t>(g + 128) & 255] = true;
          if (g != w && bad++ < 5)
            ADD_FAILURE() << "position " << p << " channel " << c << ": " << g << ", want " << w;
        }
    EXPECT_GE(distinct, 20);  // the outputs spread: not all saturated
  }
}

TEST(PassLabQLinearSqueezeExcite, TheGateScalesEachChannel) {
  // All-zero weights: S = HardSigmoid(clip2(B2)) per channel, so a constant
  // plane of value v gives Q(Table[v] * (0.25 * b2[c] + 0.5)) exactly.
  Case k{1, 5, 2, 2, 2, false};
  std::string text = model(k, false);
  const std::string w1 = "w1 = " + list(k.c1 * k.c, [&](int i) { return w1At(i / k.c, i % k.c); });
  const std::string w2 =
      "w2 = " + list(k.c * k.c1, [&](int i) { return w2At(i / k.c1, i % k.c1); });
  text.replace(text.find(w1), w1.size(), "w1 = " + list(k.c1 * k.c, [](int) { return 0.0f; }));
  text.replace(text.find(w2), w2.size(), "w2 = " + list(k.c * k.c1, [](int) { return 0.0f; }));
  std::vector<uint8_t> x(20);
  for (int c = 0; c < 5; ++c)
    for (int p = 0; p < 4; ++p) x[c * 4 + p] = static_cast<uint8_t>(200 + c);
  auto r = testutil::runText(text, {{"x", kt::u8({1, 5, 2, 2}, x)}});
  auto y = kt::values<uint8_t>(r.outputs[0]);
  ASSERT_EQ(y.size(), 20u);
  for (int c = 0; c < 5; ++c) {
    const float s = std::min(std::max(kAlpha * b2At(c) + kBeta, 0.0f), 1.0f);
    const float q = std::nearbyint(tableAt(200 + c) * s / kScale) + 7.0f;
    EXPECT_EQ(y[c * 4], static_cast<uint8_t>(std::min(std::max(q, 0.0f), 255.0f))) << c;
  }
}

TEST(PassLabQLinearSqueezeExcite, TheMeanIsClippedToClip0) {
  // One channel, H = 2 everywhere, identity gate weights: G = clip0(2) = 1,
  // S = 0.25 * 1 + 0.5 = 0.75, Y = 2 * 0.75 / 0.0625 + 7 = 31 (without the
  // clip S = 1 and Y = 39).
  const std::string two = list(256, [](int) { return 2.0f; });
  const std::string text = R"(<ir_version: 8, opset_import: ["" : 13, "ai.passlab" : 1]>
    main (uint8[1,1,2,3] x) => (uint8[1,1,2,3] y)
        <float[256] t = )" +
                           two +
                           R"(, float[1,1] w1 = {1.0}, float[1] b1 = {0.0}, float[1,1] w2 = {1.0},
         float[1] b2 = {0.0}, float ys = {0.0625}, uint8 yz = {7}> {
      y = ai.passlab.QLinearSqueezeExcite <clip0 = [-1.0, 1.0], alpha = 0.25, beta = 0.5>
          (x, t, w1, b1, w2, b2, ys, yz) })";
  auto r = testutil::runText(text, {{"x", kt::u8({1, 1, 2, 3}, {0, 50, 100, 150, 200, 250})}});
  EXPECT_EQ(kt::values<uint8_t>(r.outputs[0]), (std::vector<uint8_t>(6, 31)));
}

TEST(PassLabQLinearSqueezeExcite, RefusesATableOfAnotherSize) {
  Case k{1, 4, 2, 2, 2, false};
  std::string text = model(k, false);
  const std::string t = "float[256] t = " + list(256, tableAt);
  text.replace(text.find(t), t.size(), "float[255] t = " + list(255, tableAt));
  kt::expectError(text, {{"x", kt::u8({1, 4, 2, 2}, randomBytes(k, 3))}}, {"Table", "256"});
}

TEST(PassLabQLinearSqueezeExcite, RefusesWeightsOfOtherChannels) {
  Case k{1, 4, 2, 2, 2, false};
  Case wide{1, 6, 2, 2, 2, false};  // the weights of 6 channels for an X of 4
  std::string text = model(wide, false);
  const std::string from = "uint8[1,6,2,2]";
  for (size_t at; (at = text.find(from)) != std::string::npos;)
    text.replace(at, from.size(), "uint8[1,4,2,2]");
  kt::expectError(text, {{"x", kt::u8({1, 4, 2, 2}, randomBytes(k, 4))}}, {"W1", "4 channels"});
}

}  // namespace
}  // namespace passlab::exec
