// ConvInteger on oneDNN (core/exec/cpu/conv_integer_onednn.cpp) against the
// reference kernel (qlinear.cpp) on seeded random one-node models: the int32
// results must be equal (integer arithmetic on both sides), for uint8 and
// int8 activations, zero points fed at run time (as DynamicQuantizeLinear
// gives them) or stored, groups, pads, strides, dilations, uint8 and int8
// weights with weight zero points (one or one per channel). Where the kernel
// hands over to the reference (weights fed at run time) the profile names
// the oneDNN row and the result is the reference's.
#include <gtest/gtest.h>

#include <cstdlib>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "core/analysis/shape_inference.h"
#include "core/exec/executor.h"
#include "tests/core/exec/int8_conv_test_util.h"

namespace passlab::exec {
namespace {

using ir::DataType;
using namespace int8conv;  // NOLINT(google-build-using-namespace)

struct Case {
  std::string name;
  Dims x, w;  // X [N, C, spatial...], W [M, C/group, k...]
  DataType xType = DataType::kUInt8;
  int64_t group = 1;
  Dims strides = {}, pads = {}, dilations = {};
  std::string autoPad = {};
  bool zeroPointInput = true;  // x_zero_point fed at run time (else an initializer)
  bool noZeroPoint = false;    // no x_zero_point at all
  int weightZeroPoint = 0;     // of the weights' type (uint8 weights: 0 means none)
  bool weightsInput = false;   // W fed at run time: not invariant, the reference runs
  DataType wType = DataType::kInt8;
  bool perChannelWeightZeroPoints = false;  // random ones around weightZeroPoint
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.name;
}

Built buildModel(const Case& c, uint32_t seed) {
  std::mt19937 rng(seed);
  Built b;
  b.model.irVersion = 8;
  b.model.opsets = {{"", 13}};
  ir::Graph& g = b.model.graph();
  auto feed = [&](const std::string& name, ir::Tensor t) -> ir::Value* {
    ir::Value* v = g.addInput(name, ir::Type::tensor(t.dtype(), t.shape()));
    b.feeds.emplace_back(name, std::move(t));
    return v;
  };
  std::vector<ir::Value*> in;
  in.push_back(feed("x", activations(c.xType, c.x, rng)));
  ir::Tensor w = c.wType == DataType::kUInt8 ? randomInts<uint8_t>(c.wType, c.w, 0, 255, rng)
                                             : randomInts<int8_t>(c.wType, c.w, -127, 127, rng);
  in.push_back(c.weightsInput ? feed("w", std::move(w)) : g.addInitializer("w", std::move(w)));
  const bool u8 = c.xType == DataType::kUInt8;
  const int xZero = u8 ? std::uniform_int_distribution<int>(90, 160)(rng)
                       : std::uniform_int_distribution<int>(-30, 30)(rng);
  if (!c.noZeroPoint) {
    ir::Tensor z = zeroPoint(c.xType, xZero);
    in.push_back(c.zeroPointInput ? feed("x_zero_point", std::move(z))
                                  : g.addInitializer("x_zero_point", std::move(z)));
  }
  if (c.weightZeroPoint != 0) {
    if (c.noZeroPoint) in.push_back(nullptr);
    ir::Tensor zw = zeroPoint(c.wType, c.weightZeroPoint);
    if (c.perChannelWeightZeroPoints) {
      const int64_t m = c.w[0];
      zw = c.wType == DataType::kUInt8 ? randomInts<uint8_t>(c.wType, {m}, c.weightZeroPoint - 20,
                                                             c.weightZeroPoint + 20, rng)
                                       : randomInts<int8_t>(c.wType, {m}, c.weightZeroPoint - 20,
                                                            c.weightZeroPoint + 20, rng);
    }
    in.push_back(g.addInitializer("w_zero_point", std::move(zw)));
  }
  ir::Node* n = g.addNode("ConvInteger", "", in, 1, nullptr, "conv");
  setConvAttributes(*n, c);
  g.addOutput(n->output(0));
  analysis::inferShapes(b.model);
  return b;
}

void expectEqual(const ir::Tensor& got, const ir::Tensor& want, const std::string& what) {
  ASSERT_EQ(got.dtype(), DataType::kInt32) << what;
  ASSERT_EQ(got.dims(), want.dims()) << what;
  int bad = 0;
  for (int64_t i = 0; i < got.numel() && bad < 5; ++i)
    if (got.data<int32_t>()[i] != want.data<int32_t>()[i]) {
      ADD_FAILURE() << what << ": element " << i << " is " << got.data<int32_t>()[i]
                    << ", the reference " << want.data<int32_t>()[i];
      ++bad;
    }
}

class ConvIntegerOneDnn : public ::testing::TestWithParam<Case> {};

TEST_P(ConvIntegerOneDnn, EqualsTheReference) {
  const Case& c = GetParam();
  Built b = buildModel(c, 23);
  // The second run takes another activation and zero point (a DynamicQuantizeLinear's next run).
  NamedInputs second = buildModel(c, 24).feeds;
  if (c.weightsInput)  // the same weights in both runs, so only the activation changes
    for (auto& [name, t] : second)
      if (name == "w")
        for (auto& [n0, t0] : b.feeds)
          if (n0 == "w") t = t0;
  Runs r = runPreferredAndReference(b, second);
  ASSERT_FALSE(r.first.outputs.empty());
  ASSERT_FALSE(r.second.outputs.empty());
  ASSERT_FALSE(r.reference.outputs.empty());
  EXPECT_EQ(r.first.profile[0].kernel, "onednn.ConvInteger");
  EXPECT_EQ(r.reference.profile[0].kernel, "cpu.ConvInteger");
  expectEqual(r.second.outputs[0], r.reference.outputs[0], "second run");
  // And the first run against the reference on the first inputs.
  ExecutorOptions referenceOnly;
  referenceOnly.referenceKernels = true;
  auto ref = Executor::create(b.model, referenceOnly);
  ASSERT_TRUE(ref);
  auto first = (*ref)->run(b.feeds, {});
  ASSERT_TRUE(first);
  expectEqual(r.first.outputs[0], first->outputs[0], "first run");
}

std::vector<Case> cases() {
  using DT = DataType;
  std::vector<Case> v;
  v.push_back({.name = "pointwise_u8", .x = {1, 16, 7, 7}, .w = {24, 16, 1, 1}});
  v.push_back(
      {.name = "pointwise_s8_batch2", .x = {2, 16, 5, 6}, .w = {8, 16, 1, 1}, .xType = DT::kInt8});
  // S one value per channel (no tap in the padding) against S per position
  // (a 1x1 with pads: 0 on the border, the channel's sum inside).
  v.push_back({.name = "k3_no_pads_u8_batch2", .x = {2, 8, 9, 7}, .w = {12, 8, 3, 3}});
  v.push_back(
      {.name = "pointwise_pads_u8", .x = {1, 16, 6, 5}, .w = {8, 16, 1, 1}, .pads = {1, 0, 1, 2}});
  v.push_back({.name = "k3_pads_stride2_u8",
               .x = {1, 8, 11, 13},
               .w = {16, 8, 3, 3},
               .strides = {2, 2},
               .pads = {1, 1, 1, 1}});
  v.push_back({.name = "k3_asymmetric_pads_s8",
               .x = {2, 8, 12, 12},
               .w = {16, 8, 3, 3},
               .xType = DT::kInt8,
               .strides = {2, 2},
               .pads = {1, 0, 1, 2}});
  v.push_back({.name = "k3_dilated_pads_u8",
               .x = {1, 4, 12, 12},
               .w = {6, 4, 3, 3},
               .pads = {2, 2, 2, 2},
               .dilations = {2, 2}});
  v.push_back({.name = "depthwise_u8_pads",
               .x = {1, 32, 10, 10},
               .w = {32, 1, 3, 3},
               .group = 32,
               .pads = {1, 1, 1, 1}});
  v.push_back({.name = "depthwise_s8_same_upper_stride2",
               .x = {1, 16, 9, 9},
               .w = {16, 1, 3, 3},
               .xType = DT::kInt8,
               .group = 16,
               .strides = {2, 2},
               .autoPad = "SAME_UPPER"});
  v.push_back({.name = "grouped_u8_pads",
               .x = {1, 8, 6, 6},
               .w = {12, 2, 3, 3},
               .group = 4,
               .pads = {1, 1, 1, 1}});
  v.push_back(
      {.name = "conv1d_s8", .x = {2, 6, 20}, .w = {5, 6, 3}, .xType = DT::kInt8, .pads = {1, 1}});
  v.push_back({.name = "k5_stored_zero_point",
               .x = {1, 3, 17, 15},
               .w = {8, 3, 5, 5},
               .pads = {2, 2, 2, 2},
               .zeroPointInput = false});
  v.push_back({.name = "no_zero_point",
               .x = {1, 8, 9, 9},
               .w = {8, 8, 3, 3},
               .pads = {1, 1, 1, 1},
               .noZeroPoint = true});
  // Weight zero points (taken out after the convolution) and uint8 weights
  // (run as W - 128), as older quantize_dynamic writes them.
  v.push_back({.name = "weight_zero_point",
               .x = {1, 8, 9, 9},
               .w = {8, 8, 3, 3},
               .pads = {1, 1, 1, 1},
               .weightZeroPoint = 3});
  v.push_back({.name = "u8_weights_zero_point_pads_stride2",
               .x = {1, 16, 11, 13},
               .w = {24, 16, 3, 3},
               .strides = {2, 2},
               .pads = {1, 0, 1, 2},
               .weightZeroPoint = 131,
               .wType = DT::kUInt8});
  v.push_back({.name = "u8_weights_per_channel_s8_x_grouped",
               .x = {2, 8, 7, 7},
               .w = {12, 2, 3, 3},
               .xType = DT::kInt8,
               .group = 4,
               .pads = {1, 1, 1, 1},
               .weightZeroPoint = 120,
               .wType = DT::kUInt8,
               .perChannelWeightZeroPoints = true});
  v.push_back({.name = "s8_weights_per_channel_depthwise",
               .x = {1, 32, 10, 10},
               .w = {32, 1, 3, 3},
               .group = 32,
               .pads = {1, 1, 1, 1},
               .weightZeroPoint = 5,
               .perChannelWeightZeroPoints = true});
  v.push_back({.name = "u8_weights_no_zero_points_pointwise",
               .x = {1, 24, 6, 6},
               .w = {16, 24, 1, 1},
               .wType = DT::kUInt8});
  v.push_back({.name = "fallback_runtime_weights",
               .x = {1, 8, 9, 9},
               .w = {8, 8, 3, 3},
               .pads = {1, 1, 1, 1},
               .weightsInput = true});
  // Channels from 16 on: the u8 source goes to channels-last through
  // toChannelsLastBytes (16x16 blocks, the rest of the channels and
  // positions one by one) instead of oneDNN's reorder.
  v.push_back({.name = "pointwise_u8_c40_tails", .x = {2, 40, 7, 9}, .w = {24, 40, 1, 1}});
  v.push_back({.name = "k3_s8_c48_pads",
               .x = {1, 48, 11, 10},
               .w = {16, 48, 3, 3},
               .xType = DT::kInt8,
               .pads = {1, 1, 1, 1}});
  v.push_back({.name = "depthwise_u8_c48_stride2",
               .x = {1, 48, 13, 17},
               .w = {48, 1, 3, 3},
               .group = 48,
               .strides = {2, 2},
               .pads = {1, 1, 1, 1}});
  v.push_back({.name = "conv1d_u8_c32", .x = {1, 32, 37}, .w = {16, 32, 3}, .pads = {1, 1}});
  return v;
}

INSTANTIATE_TEST_SUITE_P(Shapes, ConvIntegerOneDnn, ::testing::ValuesIn(cases()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace passlab::exec
