// Helpers for the int8 convolution tests against the reference kernel
// (conv_integer_onednn_test, qlinear_conv_onednn_test,
// qlinear_conv_int32_test, qlinear_pointwise_nhwc_test,
// qlinear_depthwise_nhwc_test, passlab_fused_conv_integer_test): seeded
// random integer tensors, 8-bit zero points, channels-last transposes, a
// one-node model with its feeds, the convolution attributes of a case,
// 8-bit outputs compared element by element, and the channels-last
// QLinearConv models of PassLab's own NHWC kernels.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "core/analysis/shape_inference.h"
#include "core/exec/cpu/conv_geometry.h"
#include "core/exec/cpu/qlinear_onednn_requantization.h"
#include "core/exec/executor.h"
#include "core/ir/model.h"

namespace passlab::exec::int8conv {

using Dims = std::vector<int64_t>;

inline int64_t numel(const Dims& d) {
  int64_t n = 1;
  for (int64_t v : d) n *= v;
  return n;
}

// A seeded random tensor of integers in [lo, hi].
template <class T>
ir::Tensor randomInts(ir::DataType dt, const Dims& dims, int lo, int hi, std::mt19937& rng) {
  std::uniform_int_distribution<int> u(lo, hi);
  std::vector<T> v(static_cast<size_t>(numel(dims)));
  for (T& e : v) e = static_cast<T>(u(rng));
  return ir::Tensor::fromVector<T>(dt, dims, v);
}

// Random activations over the whole range of uint8 or int8.
inline ir::Tensor activations(ir::DataType dt, const Dims& dims, std::mt19937& rng) {
  return dt == ir::DataType::kUInt8 ? randomInts<uint8_t>(dt, dims, 0, 255, rng)
                                    : randomInts<int8_t>(dt, dims, -128, 127, rng);
}

// A float32 tensor.
inline ir::Tensor floats(Dims dims, const std::vector<float>& v) {
  return ir::Tensor::fromVector<float>(ir::DataType::kFloat, std::move(dims), v);
}

// A scalar zero point of uint8 or int8.
inline ir::Tensor zeroPoint(ir::DataType dt, int v) {
  return dt == ir::DataType::kUInt8 ? ir::Tensor::fromVector<uint8_t>(dt, {}, {uint8_t(v)})
                                    : ir::Tensor::fromVector<int8_t>(dt, {}, {int8_t(v)});
}

// [N, C, S...] as [N, S..., C].
inline Dims channelsLastDims(const Dims& d) {
  Dims r{d[0]};
  r.insert(r.end(), d.begin() + 2, d.end());
  r.push_back(d[1]);
  return r;
}

// An 8-bit tensor [N, C, S...] as [N, S..., C], or back (`toLast` false: t is [N, S..., C]).
inline ir::Tensor swapChannels(const ir::Tensor& t, bool toLast) {
  const Dims& d = t.dims();
  const int64_t n = d[0], c = toLast ? d[1] : d.back(), s = numel(d) / (n * c);
  Dims out = toLast ? channelsLastDims(d) : Dims{};
  if (!toLast) {
    out = {d[0], d.back()};
    out.insert(out.end(), d.begin() + 1, d.end() - 1);
  }
  auto in = t.bytes();
  std::vector<uint8_t> v(in.size());
  for (int64_t i = 0; i < n; ++i)
    for (int64_t ch = 0; ch < c; ++ch)
      for (int64_t p = 0; p < s; ++p) {
        const int64_t first = (i * c + ch) * s + p, last = (i * s + p) * c + ch;
        v[toLast ? last : first] = static_cast<uint8_t>(in[toLast ? first : last]);
      }
  return ir::Tensor::fromVector<uint8_t>(t.dtype(), out, v);
}

// A one-node model and the inputs it is fed with.
struct Built {
  ir::Model model;
  NamedInputs feeds;
};

// The model run with the preferred kernels (twice: the second run uses the
// kept primitive and packed weights) and with the reference ones.
struct Runs {
  RunResult first, second, reference;
};

// `first` on b.feeds, `second` and `reference` on `secondFeeds`, one thread,
// profiled (to name the kernels that ran).
inline Runs runPreferredAndReference(const Built& b, const NamedInputs& secondFeeds) {
  ExecutorOptions referenceOnly;
  referenceOnly.referenceKernels = true;
  auto preferred = Executor::create(b.model, {});
  auto reference = Executor::create(b.model, referenceOnly);
  EXPECT_TRUE(preferred) << preferred.error().message();
  EXPECT_TRUE(reference) << reference.error().message();
  if (!preferred || !reference) return {};
  RunOptions ro;
  ro.profile = true;
  ro.threads = 1;
  Runs r;
  auto one = [&](Executor& ex, const NamedInputs& feeds, RunResult& out) {
    auto run = ex.run(feeds, ro);
    EXPECT_TRUE(run) << run.error().message();
    if (run) out = std::move(run).value();
  };
  one(**preferred, b.feeds, r.first);
  one(**preferred, secondFeeds, r.second);
  one(**reference, secondFeeds, r.reference);
  return r;
}

// The attributes a case sets (none: the op's defaults).
template <class Case>
void setConvAttributes(ir::Node& n, const Case& c) {
  if (c.group != 1) n.setAttr(ir::Attribute::makeInt("group", c.group));
  if (!c.strides.empty()) n.setAttr(ir::Attribute::makeInts("strides", c.strides));
  if (!c.pads.empty()) n.setAttr(ir::Attribute::makeInts("pads", c.pads));
  if (!c.dilations.empty()) n.setAttr(ir::Attribute::makeInts("dilations", c.dilations));
  if (!c.autoPad.empty()) n.setAttr(ir::Attribute::makeString("auto_pad", c.autoPad));
}

// The byte at i of an 8-bit tensor (uint8 or int8), as an int.
inline int valueAt(const ir::Tensor& t, int64_t i) {
  return t.dtype() == ir::DataType::kUInt8 ? int(t.data<uint8_t>()[i]) : int(t.data<int8_t>()[i]);
}

// Every value of an 8-bit tensor within `tolerance` of want's (0: bit for
// bit), the same type and dims; the first 5 that differ are reported.
inline void expectEqual(const ir::Tensor& got, const ir::Tensor& want, const std::string& what,
                        int tolerance = 0) {
  ASSERT_EQ(got.dtype(), want.dtype()) << what;
  ASSERT_EQ(got.dims(), want.dims()) << what;
  int bad = 0;
  for (int64_t i = 0; i < want.numel() && bad < 5; ++i)
    if (std::abs(valueAt(got, i) - valueAt(want, i)) > tolerance) {
      ADD_FAILURE() << what << ": element " << i << " is " << valueAt(got, i) << ", the reference "
                    << valueAt(want, i);
      ++bad;
    }
}

// How many different values an 8-bit tensor holds: random scales must
// spread the outputs, or equal saturated outputs prove nothing.
inline size_t distinctValues(const ir::Tensor& t) {
  std::vector<int> v(static_cast<size_t>(t.numel()));
  for (size_t i = 0; i < v.size(); ++i) v[i] = valueAt(t, static_cast<int64_t>(i));
  std::sort(v.begin(), v.end());
  return static_cast<size_t>(std::unique(v.begin(), v.end()) - v.begin());
}

// At least 20 distinct values (or a quarter of them, for small outputs).
inline void expectSpread(const ir::Tensor& t) {
  EXPECT_GE(distinctValues(t), std::min<size_t>(20, static_cast<size_t>(t.numel() / 4)));
}

// ---- channels-last QLinearConv models (qlinear_pointwise_nhwc_test,
// qlinear_depthwise_nhwc_test) ----

// A one-node com.microsoft QLinearConv (channels_last = 1, int8 weights of
// zero point 0) and its pieces, kept for calling a kernel class directly.
struct ChannelsLastModel {
  Built built;
  ir::Tensor x, w, bias;  // x as fed: [N, spatial..., C]
  float xScale = 1, yScale = 1;
  std::vector<float> wScales;
};

// The model of a case (x [N, C, spatial...], xType, yType, perChannelScales,
// bias, xZero, yZero, ties, weightMax and the convolution attributes) with
// weights of dims wDims [M, C/group, k...] named `name`. Scales spread the
// outputs over the 8-bit range (the sum of K products of about 74 * 73 has a
// spread of 5400 * sqrt(K)); `ties`: multipliers that are powers of 2, so
// many sums land on exact .5 ties.
template <class Case>
ChannelsLastModel channelsLastQLinearConv(const Case& c, const Dims& wDims, uint32_t seed,
                                          const std::string& name) {
  using ir::DataType;
  std::mt19937 rng(seed);
  const int64_t M = wDims[0], K = numel(wDims) / M;
  ChannelsLastModel m;
  m.xScale = c.ties ? 0.5f : 0.02f;
  std::uniform_real_distribution<float> wScaleDist(0.002f, 0.01f);
  m.wScales.assign(c.perChannelScales ? static_cast<size_t>(M) : 1, 0.0f);
  for (size_t i = 0; i < m.wScales.size(); ++i)
    m.wScales[i] = c.ties ? std::ldexp(1.0f, -static_cast<int>(i % 4)) : wScaleDist(rng);
  m.yScale = c.ties ? 8.0f : m.xScale * 0.006f * 5400.0f * std::sqrt(float(K)) / 40.0f;

  const ir::Tensor xNchw = activations(c.xType, c.x, rng);
  m.w = randomInts<int8_t>(DataType::kInt8, wDims, -c.weightMax, c.weightMax, rng);
  const int spread = static_cast<int>(5400 * std::sqrt(float(K)));
  m.bias = randomInts<int32_t>(DataType::kInt32, {M}, -2 * spread, 2 * spread, rng);
  m.x = swapChannels(xNchw, true);

  Built& b = m.built;
  b.model.irVersion = 8;
  b.model.opsets = {{"", 13}, {"com.microsoft", 1}};
  ir::Graph& g = b.model.graph();
  ir::Value* xIn = g.addInput("x", ir::Type::tensor(c.xType, ir::Shape::fromValues(m.x.dims())));
  b.feeds.emplace_back("x", m.x);
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
  ir::Node* node = g.addNode("QLinearConv", "com.microsoft", ins, 1, nullptr, name);
  node->setAttr(ir::Attribute::makeInt("channels_last", 1));
  setConvAttributes(*node, c);
  g.addOutput(node->output(0));
  analysis::inferShapes(b.model);
  return m;
}

// The kernels' geometry: X [N, C, spatial...] and the model's W.
inline exec::cpu::ConvGeometry geometryOf(const ChannelsLastModel& m) {
  const ir::Node& node = *m.built.model.graph().nodes().front();
  auto attrs = exec::cpu::parseConvAttrs(node);
  EXPECT_TRUE(attrs);
  Dims first{m.x.dims()[0], m.x.dims().back()};
  first.insert(first.end(), m.x.dims().begin() + 1, m.x.dims().end() - 1);
  auto g = exec::cpu::convGeometry(*attrs, first, m.w.dims());
  EXPECT_TRUE(g);
  return *g;
}

// The requantization a kernel class is prepared with: xScale * wScale / yScale per channel.
template <class Case>
exec::cpu::qlinear::Requantization requantizationOf(const Case& c, const ChannelsLastModel& m) {
  exec::cpu::qlinear::Requantization r;
  r.xZeroPoint = c.xZero;
  r.yZeroPoint = c.yZero;
  r.yType = c.yType;
  for (float ws : m.wScales) r.outputScales.push_back(m.xScale * ws / m.yScale);
  return r;
}

// A kernel class prepared for m, run on m's input at 1 and 2 threads, bit
// for bit against the reference kernels (whose outputs must be spread).
template <class Kernel, class Case>
void expectKernelMatchesReference(Kernel& k, const Case& c, const ChannelsLastModel& m) {
  ExecutorOptions referenceOnly;
  referenceOnly.referenceKernels = true;
  auto reference = Executor::create(m.built.model, referenceOnly);
  ASSERT_TRUE(reference) << reference.error().message();
  auto want = (*reference)->run(m.built.feeds);
  ASSERT_TRUE(want) << want.error().message();
  const ir::Tensor& y = want->outputs[0];
  expectSpread(y);
  for (int threads : {1, 2}) {
    std::vector<uint8_t> got(static_cast<size_t>(y.numel()), 0x5a);
    k.run(m.x.bytes().data(), c.bias ? m.bias.data<int32_t>().data() : nullptr, got.data(),
          threads);
    expectEqual(ir::Tensor::fromVector<uint8_t>(y.dtype(), y.dims(), got), y,
                "kernel, " + std::to_string(threads) + " threads");
  }
}

}  // namespace passlab::exec::int8conv
