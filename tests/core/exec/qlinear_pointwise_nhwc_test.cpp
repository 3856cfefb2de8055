// PassLab's channels-last int8 pointwise QLinearConv
// (core/exec/cpu/qlinear_pointwise_nhwc.cpp) against the reference kernel
// (qlinear.cpp), bit for bit, on seeded random one-node com.microsoft
// QLinearConv models (channels_last = 1, 1x1 kernels): uint8/int8 in and
// out, per-tensor and per-channel scales, input and output channel counts
// that are not multiples of 4 or 16, zero points 0 and nonzero, with and
// without bias, batches, 1-D and 2-D; multipliers that make exact .5 ties
// (round half to even); the class called directly (1 and 2 threads) and
// through the executor (where it replaces oneDNN's primitive for layers
// that reduce the channels); and what it declines.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "core/analysis/shape_inference.h"
#include "core/exec/cpu/conv_geometry.h"
#include "core/exec/cpu/qlinear_pointwise_nhwc.h"
#include "core/exec/executor.h"
#include "tests/core/exec/int8_conv_test_util.h"

namespace passlab::exec {
namespace {

using ir::DataType;
using namespace int8conv;  // NOLINT(google-build-using-namespace)

struct PwCase {
  std::string name;
  Dims x;  // [N, C, spatial...] (fed channels-last)
  int64_t m = 16;
  DataType xType = DataType::kUInt8;
  DataType yType = DataType::kUInt8;
  bool perChannelScales = false;
  bool bias = false;
  int xZero = 0, yZero = 0;
  bool ties = false;    // scales whose multiplier is a power of 2: many exact .5 ties
  int weightMax = 127;  // weights in [-weightMax, weightMax]
  // setConvAttributes reads these (the op's defaults).
  int64_t group = 1;
  Dims strides = {}, pads = {}, dilations = {};
  std::string autoPad = {};
};

void PrintTo(const PwCase& c, std::ostream* os) {
  *os << c.name;
}

Dims lastDims(const Dims& d) {
  Dims r{d[0]};
  r.insert(r.end(), d.begin() + 2, d.end());
  r.push_back(d[1]);
  return r;
}

struct PwModel {
  Built built;
  ir::Tensor x, w, bias;
  float xScale = 1, yScale = 1;
  std::vector<float> wScales;
};

PwModel buildPointwise(const PwCase& c, uint32_t seed) {
  std::mt19937 rng(seed);
  const int64_t C = c.x[1], M = c.m;
  PwModel m;
  m.xScale = c.ties ? 0.5f : 0.02f;
  std::uniform_real_distribution<float> wScaleDist(0.002f, 0.01f);
  m.wScales.assign(c.perChannelScales ? static_cast<size_t>(M) : 1, 0.0f);
  for (size_t i = 0; i < m.wScales.size(); ++i)
    m.wScales[i] = c.ties ? std::ldexp(1.0f, -static_cast<int>(i % 4)) : wScaleDist(rng);
  // Outputs spread over the 8-bit range: sums of C products of ~74 * 73.
  m.yScale = c.ties ? 8.0f : m.xScale * 0.006f * 5400.0f * std::sqrt(float(C)) / 40.0f;

  Dims wDims{M, C};
  for (size_t i = 2; i < c.x.size(); ++i) wDims.push_back(1);
  ir::Tensor xNchw = activations(c.xType, c.x, rng);
  m.w = randomInts<int8_t>(DataType::kInt8, wDims, -c.weightMax, c.weightMax, rng);
  const int spread = static_cast<int>(5400 * std::sqrt(float(C)));
  m.bias = randomInts<int32_t>(DataType::kInt32, {M}, -2 * spread, 2 * spread, rng);
  const int64_t n = c.x[0], s = numel(c.x) / (c.x[0] * C);
  std::vector<uint8_t> v(static_cast<size_t>(numel(c.x)));
  auto in = xNchw.bytes();
  for (int64_t i = 0; i < n; ++i)
    for (int64_t ch = 0; ch < C; ++ch)
      for (int64_t p = 0; p < s; ++p)
        v[static_cast<size_t>((i * s + p) * C + ch)] =
            static_cast<uint8_t>(in[static_cast<size_t>((i * C + ch) * s + p)]);
  m.x = ir::Tensor::fromVector<uint8_t>(c.xType, lastDims(c.x), v);

  Built& b = m.built;
  b.model.irVersion = 8;
  b.model.opsets = {{"", 13}, {"com.microsoft", 1}};
  ir::Graph& g = b.model.graph();
  ir::Value* xIn = g.addInput("x", ir::Type::tensor(c.xType, ir::Shape::fromValues(m.x.dims())));
  b.feeds.emplace_back("x", m.x);
  auto floats = [](Dims dims, const std::vector<float>& f) {
    return ir::Tensor::fromVector<float>(DataType::kFloat, std::move(dims), f);
  };
  std::vector<ir::Value*> ins = {
      xIn,
      g.addInitializer("x_scale", floats({}, {m.xScale})),
      g.addInitializer("x_zero_point", zeroPoint(c.xType, c.xZero)),
      g.addInitializer("w", m.w),
      g.addInitializer("w_scale",
                       c.perChannelScales ? floats({M}, m.wScales) : floats({}, m.wScales)),
      g.addInitializer("w_zero_point", zeroPoint(DataType::kInt8, 0)),
      g.addInitializer("y_scale", floats({}, {m.yScale})),
      g.addInitializer("y_zero_point", zeroPoint(c.yType, c.yZero)),
  };
  if (c.bias) ins.push_back(g.addInitializer("b", m.bias));
  ir::Node* node = g.addNode("QLinearConv", "com.microsoft", ins, 1, nullptr, "pw");
  node->setAttr(ir::Attribute::makeInt("channels_last", 1));
  setConvAttributes(*node, c);
  g.addOutput(node->output(0));
  analysis::inferShapes(b.model);
  return m;
}

int valueAt(const ir::Tensor& t, int64_t i) {
  return t.dtype() == DataType::kUInt8 ? int(t.data<uint8_t>()[i]) : int(t.data<int8_t>()[i]);
}

void expectEqual(const ir::Tensor& got, const ir::Tensor& want, const std::string& what,
                 int tolerance = 0) {
  ASSERT_EQ(got.dtype(), want.dtype()) << what;
  ASSERT_EQ(got.dims(), want.dims()) << what;
  int bad = 0;
  for (int64_t i = 0; i < got.numel() && bad < 5; ++i)
    if (std::abs(valueAt(got, i) - valueAt(want, i)) > tolerance) {
      ADD_FAILURE() << what << ": element " << i << " is " << valueAt(got, i) << ", reference "
                    << valueAt(want, i);
      ++bad;
    }
}

size_t distinctValues(const ir::Tensor& t) {
  std::vector<bool> seen(256, false);
  size_t n = 0;
  for (int64_t i = 0; i < t.numel(); ++i) {
    const size_t k = static_cast<size_t>(valueAt(t, i) + 128) & 255;
    if (!seen[k]) ++n;
    seen[k] = true;
  }
  return n;
}

cpu::ConvGeometry geometryOf(const PwModel& m) {
  const ir::Node& node = *m.built.model.graph().nodes().front();
  auto attrs = cpu::parseConvAttrs(node);
  EXPECT_TRUE(attrs);
  Dims first{m.x.dims()[0], m.x.dims().back()};
  first.insert(first.end(), m.x.dims().begin() + 1, m.x.dims().end() - 1);
  auto g = cpu::convGeometry(*attrs, first, m.w.dims());
  EXPECT_TRUE(g);
  return *g;
}

cpu::qlinear::Requantization requantizationOf(const PwCase& c, const PwModel& m) {
  cpu::qlinear::Requantization r;
  r.xZeroPoint = c.xZero;
  r.yZeroPoint = c.yZero;
  r.yType = c.yType;
  for (float ws : m.wScales) r.outputScales.push_back(m.xScale * ws / m.yScale);
  return r;
}

class QLinearPointwiseNhwcTest : public ::testing::TestWithParam<PwCase> {};

TEST_P(QLinearPointwiseNhwcTest, ExecutorMatchesTheReference) {
  const PwCase& c = GetParam();
  PwModel m = buildPointwise(c, 23);
  Runs r = runPreferredAndReference(m.built, m.built.feeds);
  ASSERT_FALSE(r.first.outputs.empty());
  ASSERT_FALSE(r.reference.outputs.empty());
  EXPECT_EQ(r.reference.profile[0].kernel, "cpu.ms.QLinearConv");
  // This kernel (exact) runs layers with a nonzero zero point that reduce the
  // channels; oneDNN the others, whose float32 requantization may round a
  // near tie the other way.
  const cpu::ConvGeometry g = geometryOf(m);
  const bool own = cpu::QLinearPointwiseNhwc::covers(g) &&
                   cpu::QLinearPointwiseNhwc::preferred(g) && (c.xZero != 0 || c.yZero != 0);
  const int tolerance = own ? 0 : 1;
  expectEqual(r.first.outputs[0], r.reference.outputs[0], "first run", tolerance);
  expectEqual(r.second.outputs[0], r.reference.outputs[0], "second run", tolerance);
  EXPECT_GE(distinctValues(r.reference.outputs[0]),
            std::min<size_t>(20, static_cast<size_t>(r.reference.outputs[0].numel() / 4)));
}

TEST_P(QLinearPointwiseNhwcTest, KernelMatchesTheReferenceBitForBit) {
  const PwCase& c = GetParam();
  PwModel m = buildPointwise(c, 29);
  const cpu::ConvGeometry g = geometryOf(m);
  if (!cpu::QLinearPointwiseNhwc::covers(g)) GTEST_SKIP() << "no AVX-512 VNNI on this CPU";
  cpu::QLinearPointwiseNhwc k;
  ASSERT_TRUE(k.prepare(g, m.w.data<int8_t>().data(), requantizationOf(c, m), c.xType));

  ExecutorOptions referenceOnly;
  referenceOnly.referenceKernels = true;
  auto reference = Executor::create(m.built.model, referenceOnly);
  ASSERT_TRUE(reference) << reference.error().message();
  auto want = (*reference)->run(m.built.feeds);
  ASSERT_TRUE(want) << want.error().message();
  const ir::Tensor& y = want->outputs[0];
  EXPECT_GE(distinctValues(y), std::min<size_t>(20, static_cast<size_t>(y.numel() / 4)));

  for (int threads : {1, 2}) {
    std::vector<uint8_t> got(static_cast<size_t>(y.numel()), 0x5a);
    k.run(m.x.bytes().data(), c.bias ? m.bias.data<int32_t>().data() : nullptr, got.data(),
          threads);
    expectEqual(ir::Tensor::fromVector<uint8_t>(y.dtype(), y.dims(), got), y,
                "kernel, " + std::to_string(threads) + " threads");
  }
}

std::vector<PwCase> cases() {
  using DT = DataType;
  std::vector<PwCase> v;
  v.push_back({.name = "reduce_200_to_32_u8_per_channel_bias",
               .x = {1, 200, 2, 96},
               .m = 32,
               .perChannelScales = true,
               .bias = true,
               .xZero = 11,
               .yZero = 151});
  v.push_back({.name = "reduce_88_to_16_s8",
               .x = {1, 88, 3, 7},
               .m = 16,
               .xType = DT::kInt8,
               .yType = DT::kInt8,
               .bias = true,
               .xZero = -14,
               .yZero = 21});
  v.push_back({.name = "reduce_43_to_19_tails_s8_in_u8_out",
               .x = {2, 43, 5, 3},
               .m = 19,
               .xType = DT::kInt8,
               .perChannelScales = true,
               .xZero = 3,
               .yZero = 128});
  v.push_back({.name = "expand_8_to_72_u8_in_s8_out",
               .x = {1, 8, 6, 11},
               .m = 72,
               .yType = DT::kInt8,
               .bias = true,
               .xZero = 7,
               .yZero = -20});
  v.push_back({.name = "zero_points_0_reduce_64_to_16", .x = {1, 64, 4, 4}, .m = 16, .bias = true});
  v.push_back({.name = "conv1d_reduce_37_to_5",
               .x = {2, 37, 13},
               .m = 5,
               .xType = DT::kInt8,
               .bias = true,
               .xZero = -10,
               .yZero = 120});
  v.push_back({.name = "ties_half_to_even_per_channel",
               .x = {1, 48, 4, 5},
               .m = 20,
               .perChannelScales = true,
               .xZero = 128,
               .yZero = 128,
               .ties = true,
               .weightMax = 3});
  v.push_back({.name = "c3_to_1_one_pixel",
               .x = {1, 3, 1, 1},
               .m = 1,
               .bias = true,
               .xZero = 200,
               .yZero = 60});
  return v;
}

INSTANTIATE_TEST_SUITE_P(Shapes, QLinearPointwiseNhwcTest, ::testing::ValuesIn(cases()),
                         [](const auto& info) { return info.param.name; });

// Left to oneDNN: not 1x1, strided, padded, grouped, and int32 sums that might overflow.
TEST(QLinearPointwiseNhwc, DeclinesWhatItDoesNotCover) {
  PwCase c{.name = "base", .x = {1, 32, 4, 4}, .m = 16, .xZero = 5};
  PwModel m = buildPointwise(c, 5);
  const cpu::ConvGeometry g = geometryOf(m);
  if (!cpu::QLinearPointwiseNhwc::covers(g)) GTEST_SKIP() << "no AVX-512 VNNI on this CPU";
  EXPECT_TRUE(cpu::QLinearPointwiseNhwc::preferred(g));
  cpu::ConvGeometry k3 = g;
  k3.kernel = {3, 3};
  EXPECT_FALSE(cpu::QLinearPointwiseNhwc::covers(k3));
  cpu::ConvGeometry strided = g;
  strided.stride = {2, 2};
  EXPECT_FALSE(cpu::QLinearPointwiseNhwc::covers(strided));
  cpu::ConvGeometry padded = g;
  padded.padEnd = {0, 1};
  EXPECT_FALSE(cpu::QLinearPointwiseNhwc::covers(padded));
  cpu::ConvGeometry grouped = g;
  grouped.group = 2;
  EXPECT_FALSE(cpu::QLinearPointwiseNhwc::covers(grouped));
  cpu::ConvGeometry expand = g;
  expand.M = 17;
  EXPECT_FALSE(cpu::QLinearPointwiseNhwc::preferred(expand));

  cpu::QLinearPointwiseNhwc k;
  cpu::ConvGeometry wide = g;
  wide.C = 65537;  // 65537 * 255 * 128 > 2^31
  std::vector<int8_t> w(static_cast<size_t>(wide.C * wide.M), 1);
  EXPECT_FALSE(k.prepare(wide, w.data(), requantizationOf(c, m), c.xType));
  wide.C = 65536;
  EXPECT_TRUE(k.prepare(wide, w.data(), requantizationOf(c, m), c.xType));
}

}  // namespace
}  // namespace passlab::exec
