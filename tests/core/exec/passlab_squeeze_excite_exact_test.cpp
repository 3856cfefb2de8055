// ai.passlab QLinearSqueezeExcite with exact = 1 (passlab_squeeze_excite_exact.cpp)
// against its contract written out here in plain scalar code (docs/precision.md;
// the comment at the top of the kernel): h = Table[x], each channel's mean
// as double sums row after row divided in double and rounded to float32,
// QuantizeLinear as quantizeRows (x / scale in float32, rounded half to
// even), the 1x1 convolutions with int32 sums and the reference's
// requantization, HardSigmoid in float32, y = QuantizeLinear(h * s[c]). Byte
// for byte on every instruction set: the suite is in the isa_* ctests' list
// (PassLabQLinearSqueezeExcite.*), so the AVX-512, AVX2 (+ AVX-VNNI) and
// plain paths all meet the same reference. Shapes leave tails for the 8-,
// 16-, 32- and 64-channel loops and the 8- and 32-element scale loops;
// output and squeezed channel counts that are no multiple of 8; a gate of
// 0.5 on a quarter-step table puts every other product at a rounding tie
// (the division-free scale form must send those lanes to the division); a
// tiny y_scale rules that form out.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "tests/core/exec/kernel_test_util.h"

namespace passlab::exec {
namespace {

struct Exact {
  int c = 8, c1 = 2, h = 3, w = 5, n = 1;
  bool int8 = false;       // x and y int8 (else uint8)
  bool tSigned = false;    // the squeezed values int8
  bool perChannel = true;  // per-channel weight scales
  bool ties = false;       // gate 0.5 and a quarter-step table: half-integer quotients
  float ys = 0.03f;
  unsigned seed = 1;
};

// The node's constants, drawn from the seed.
struct Params {
  std::vector<float> table, w1s, w2s;
  std::vector<int> w1, b1, w2, b2;
  float gs = 0.02f, ts = 0.03f, us = 0.04f, alpha = 0.2f, beta = 0.5f;
  int gz = 100, tz = 0, uz = 128, yz = 10;
};

Params paramsOf(const Exact& e) {
  std::mt19937 rng(e.seed);
  auto uniform = [&](int lo, int hi) { return lo + static_cast<int>(rng() % (hi - lo + 1)); };
  Params p;
  p.table.resize(256);
  for (float& v : p.table)
    v = e.ties ? static_cast<float>(uniform(-40, 80)) * 0.25f
               : static_cast<float>(uniform(-3000, 6000)) * 0.00137f;
  for (int i = 0; i < e.c1 * e.c; ++i) p.w1.push_back(uniform(-127, 127));
  for (int i = 0; i < e.c * e.c1; ++i) p.w2.push_back(e.ties ? 0 : uniform(-127, 127));
  for (int i = 0; i < e.c1; ++i) p.b1.push_back(uniform(-400, 400));
  for (int i = 0; i < e.c; ++i) p.b2.push_back(e.ties ? 0 : uniform(-300, 300));
  for (int i = 0; i < (e.perChannel ? e.c1 : 1); ++i) p.w1s.push_back(0.004f + 0.0007f * (i % 5));
  for (int i = 0; i < (e.perChannel ? e.c : 1); ++i) p.w2s.push_back(0.006f + 0.0009f * (i % 7));
  if (e.tSigned) p.tz = -20;
  if (e.int8) p.yz = -100;
  if (e.ties) p.yz = e.int8 ? -3 : 11;
  return p;
}

std::string floats(const std::vector<float>& v) {
  std::string s = "{";
  char buf[32];
  for (size_t i = 0; i < v.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(v[i]));
    s += (i ? ", " : "") + std::string(buf);
  }
  return s + "}";
}

std::string ints(const std::vector<int>& v) {
  std::string s = "{";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "}";
}

std::string model(const Exact& e, const Params& p) {
  const std::string x = e.int8 ? "int8" : "uint8", t = e.tSigned ? "int8" : "uint8";
  const std::string C = std::to_string(e.c), C1 = std::to_string(e.c1);
  const std::string shape = "[" + std::to_string(e.n) + "," + std::to_string(e.h) + "," +
                            std::to_string(e.w) + "," + C + "]";
  const std::string w1s = e.perChannel ? "float[" + C1 + "] w1s = " : "float w1s = ";
  const std::string w2s = e.perChannel ? "float[" + C + "] w2s = " : "float w2s = ";
  return R"(<ir_version: 8, opset_import: ["" : 13, "ai.passlab" : 1]>
    main ()" +
         x + shape + " x) => (" + x + shape + R"( y)
        <float[256] table = )" +
         floats(p.table) + ",\n int8[" + C1 + "," + C + "] w1 = " + ints(p.w1) + ", int32[" + C1 +
         "] b1 = " + ints(p.b1) + ",\n int8[" + C + "," + C1 + "] w2 = " + ints(p.w2) + ", int32[" +
         C + "] b2 = " + ints(p.b2) + ",\n float ys = " + floats({e.ys}) + ", " + x + " yz = {" +
         std::to_string(p.yz) + "}, float gs = " + floats({p.gs}) + ", uint8 gz = {" +
         std::to_string(p.gz) + "}, " + w1s + floats(p.w1s) + ", float ts = " + floats({p.ts}) +
         ", " + t + " tz = {" + std::to_string(p.tz) + "}, " + w2s + floats(p.w2s) +
         ", float us = " + floats({p.us}) + ", uint8 uz = {" + std::to_string(p.uz) + R"(}> {
      y = ai.passlab.QLinearSqueezeExcite <channels_last = 1, exact = 1, alpha = 0.2, beta = 0.5>
          (x, table, w1, b1, w2, b2, ys, yz, gs, gz, w1s, ts, tz, w2s, us, uz) })";
}

// QuantizeLinear as quantizeRows: x / s in float32, rounded half to even,
// + z, saturated; NaN gives 0.
int quantize(float v, float s, int z, int lo, int hi) {
  const float d = v / s;
  if (std::isnan(d)) return 0;
  const double r = std::nearbyint(static_cast<double>(d)) + z;
  return static_cast<int>(std::clamp(r, static_cast<double>(lo), static_cast<double>(hi)));
}

// The reference QLinearConv's requantization of an int32 sum.
int requantize(int64_t acc, float mult, int z, int lo, int hi) {
  const double v = std::nearbyint(static_cast<double>(acc) * static_cast<double>(mult)) + z;
  return static_cast<int>(std::clamp(v, static_cast<double>(lo), static_cast<double>(hi)));
}

// The contract, channels-last; values as ints.
std::vector<int> reference(const Exact& e, const Params& p, const std::vector<uint8_t>& x) {
  const int hw = e.h * e.w, ylo = e.int8 ? -128 : 0, yhi = e.int8 ? 127 : 255;
  const int tlo = e.tSigned ? -128 : 0, thi = e.tSigned ? 127 : 255;
  std::vector<int> y(x.size());
  for (int b = 0; b < e.n; ++b) {
    const uint8_t* xb = x.data() + static_cast<size_t>(b) * hw * e.c;
    auto h = [&](int r, int k) {
      return p.table[static_cast<uint8_t>(xb[r * e.c + k] ^ (e.int8 ? 0x80 : 0))];
    };
    std::vector<int> g(e.c), t(e.c1), u(e.c);
    for (int k = 0; k < e.c; ++k) {
      double sum = 0;
      for (int r = 0; r < hw; ++r) sum += static_cast<double>(h(r, k));
      g[k] = quantize(static_cast<float>(sum / hw), p.gs, p.gz, 0, 255);
    }
    for (int m = 0; m < e.c1; ++m) {
      int64_t acc = p.b1[m];
      for (int k = 0; k < e.c; ++k) acc += int64_t{g[k] - p.gz} * p.w1[m * e.c + k];
      const float mult = p.gs * p.w1s[e.perChannel ? m : 0] / p.ts;
      t[m] = requantize(acc, mult, p.tz, tlo, thi);
    }
    std::vector<float> s(e.c);
    for (int k = 0; k < e.c; ++k) {
      int64_t acc = p.b2[k];
      for (int m = 0; m < e.c1; ++m) acc += int64_t{t[m] - p.tz} * p.w2[k * e.c1 + m];
      const float mult = p.ts * p.w2s[e.perChannel ? k : 0] / p.us;
      const float du = static_cast<float>(requantize(acc, mult, p.uz, 0, 255) - p.uz) * p.us;
      const float v = p.alpha * du + p.beta;
      s[k] = std::clamp(v, 0.0f, 1.0f);
    }
    for (int r = 0; r < hw; ++r)
      for (int k = 0; k < e.c; ++k)
        y[static_cast<size_t>((b * hw + r) * e.c + k)] =
            quantize(h(r, k) * s[k], e.ys, p.yz, ylo, yhi);
  }
  return y;
}

// The kernel's output on x (channels-last bytes), as ints.
std::vector<int> run(const Exact& e, const Params& p, const std::vector<uint8_t>& x) {
  const std::vector<int64_t> d{e.n, e.h, e.w, e.c};
  ir::Tensor in = e.int8 ? kt::make<uint8_t>(ir::DataType::kInt8, d, x) : kt::u8(d, x);
  const ir::Tensor out = kt::runOneOutput(model(e, p), {{"x", std::move(in)}}, false);
  std::vector<int> y;
  for (int64_t i = 0; i < out.numel(); ++i) y.push_back(static_cast<int>(out.valueAsInt64(i)));
  return y;
}

// Kernel against reference on three random inputs; the output must vary
// (a saturated one tests little) unless `varied` is false.
void expectTheContractsBytes(const Exact& e, bool varied = true) {
  const Params p = paramsOf(e);
  for (unsigned seed = 1; seed <= 3; ++seed) {
    std::mt19937 rng(seed * 977 + e.seed);
    std::vector<uint8_t> x(static_cast<size_t>(e.n * e.h * e.w * e.c));
    for (auto& v : x) v = static_cast<uint8_t>(rng() & 0xff);
    const std::vector<int> want = reference(e, p, x), got = run(e, p, x);
    ASSERT_EQ(got.size(), want.size());
    size_t differ = 0, first = want.size();
    for (size_t i = 0; i < want.size(); ++i)
      if (got[i] != want[i]) differ += 1, first = std::min(first, i);
    EXPECT_EQ(differ, 0u) << "of " << want.size() << " (seed " << seed << "; first at " << first
                          << ": " << (first < want.size() ? got[first] : 0) << " for "
                          << (first < want.size() ? want[first] : 0) << ")";
    if (varied) {
      const auto distinct =
          std::count_if(want.begin(), want.end(), [&](int v) { return v != want[0]; });
      EXPECT_GT(distinct, static_cast<long>(want.size() / 4)) << "a saturated output tests little";
    }
  }
}

TEST(PassLabQLinearSqueezeExcite, ExactFormEqualsItsContractOnEveryWidth) {
  struct Shape {
    int c, c1, h, w;
  };
  // c: below 8 (tail only), 8/16/32 (one group kind), 12/17/28/52 (groups and
  // tails), 40/88/120/200 (32-channel groups and the rest), 64/104 (VBMI
  // blocks); positions leave 8- and 32-element tails in the scale pass.
  for (const Shape& s :
       {Shape{3, 1, 7, 9}, Shape{8, 2, 5, 7}, Shape{12, 5, 3, 5}, Shape{16, 4, 7, 3},
        Shape{17, 5, 9, 7}, Shape{28, 7, 5, 9}, Shape{32, 8, 5, 5}, Shape{40, 10, 7, 9},
        Shape{52, 13, 3, 7}, Shape{64, 16, 3, 3}, Shape{88, 22, 3, 4}, Shape{104, 26, 2, 5},
        Shape{120, 30, 3, 5}, Shape{200, 50, 3, 7}})
    for (bool int8 : {false, true}) {
      SCOPED_TRACE(std::to_string(s.c) + " channels, " + std::to_string(s.c1) + " squeezed, " +
                   std::to_string(s.h * s.w) + " positions, " + (int8 ? "int8" : "uint8"));
      Exact e;
      e.c = s.c, e.c1 = s.c1, e.h = s.h, e.w = s.w, e.int8 = int8, e.seed = 5 + s.c;
      e.tSigned = int8;
      expectTheContractsBytes(e);
    }
}

TEST(PassLabQLinearSqueezeExcite, ExactFormEqualsItsContractWithPerTensorScalesAndBatches) {
  Exact e;
  e.c = 37, e.c1 = 9, e.h = 6, e.w = 7, e.n = 3, e.perChannel = false, e.seed = 3;
  expectTheContractsBytes(e);
}

// Gate 0.5 (W2 and B2 0: u = its zero point, HardSigmoid(0) = beta) on a
// table of quarter steps with y_scale 0.25: h * s / y_scale = 2h, half an
// integer for every odd 4h, rounded half to even; odd and even zero points.
TEST(PassLabQLinearSqueezeExcite, ExactFormEqualsItsContractAtTies) {
  for (bool int8 : {false, true})
    for (int c : {13, 40, 200}) {
      SCOPED_TRACE(std::to_string(c) + " channels, " + (int8 ? "int8" : "uint8"));
      Exact e;
      e.c = c, e.c1 = 5, e.h = 5, e.w = 7, e.int8 = int8, e.ties = true, e.ys = 0.25f;
      expectTheContractsBytes(e);
    }
}

// y_scale so small that |h * s / y_scale| passes 2^21: no division-free
// form; every output saturates.
TEST(PassLabQLinearSqueezeExcite, ExactFormEqualsItsContractWithoutTheDivisionFreeForm) {
  for (int c : {9, 48}) {
    Exact e;
    e.c = c, e.c1 = 4, e.h = 4, e.w = 5, e.ys = 0.000001f;
    expectTheContractsBytes(e, false);
  }
}

}  // namespace
}  // namespace passlab::exec
