// Helpers for the int8 convolution tests against the reference kernel
// (conv_integer_onednn_test, qlinear_conv_onednn_test,
// qlinear_conv_int32_test): seeded random integer tensors, 8-bit zero
// points, channels-last transposes, a one-node model with its feeds, and the
// convolution attributes of a case.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

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

}  // namespace passlab::exec::int8conv
