// ai.passlab FusedConvInteger (core/exec/cpu/passlab_fused_conv_integer.cpp)
// against the unfused form it replaces (ConvInteger -> Cast -> Mul(Scale)
// [-> Add(B)] [-> activation]) on seeded random models: the float32 results
// must be equal bit for bit (the same integer sums, then the same float32
// operations in the same order), for uint8 and int8 activations, zero points
// fed at run time (as DynamicQuantizeLinear gives them), per-channel and
// per-tensor scales, with and without a bias and an activation, pads,
// strides, groups, depthwise, 1-D. Both the oneDNN row and the reference row
// are checked, on two runs with different activations and zero points; where
// the oneDNN row hands over (weights fed at run time) the result is still the
// unfused one's. Weight zero points (int8, and uint8 weights as a QDQ model
// has them, fuse_qdq_conv_integer: one value or one per output channel) run
// on the oneDNN row with their term taken out of the sums. Every case runs
// again with channels_last = 1 between Transposes (X and Y [N, spatial..., C]):
// the same result, bit for bit. Every case runs with full-range weights and
// with narrow ones (W', uint8 W as W - 128, in [-64, 64]: reduce_range), which
// a CPU without VNNI runs on oneDNN's int8 kernels and the AVX2 epilogue
// (full-range ones on the reference there; narrow_signed_weights.h).
#include <gtest/gtest.h>

#include <cstring>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "core/analysis/shape_inference.h"
#include "core/exec/cpu/int8_dot_exactness.h"
#include "core/exec/cpu/qlinear_onednn_requantization.h"
#include "core/exec/executor.h"
#include "core/ir/passlab_ops.h"
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
  bool perChannelScale = true;
  bool bias = true;
  std::string activation = "Relu";  // "" none; else Relu, LeakyRelu or Clip
  int weightZeroPoint = 0;          // of wType
  DataType wType = DataType::kInt8;
  bool perChannelWeightZeroPoints = false;  // weightZeroPoint + m % 5 for channel m
  bool weightsInput = false;                // W fed at run time: the reference path runs
  bool badScale = false;                    // a Scale of 4 values (not 1 or M)
  // Without VNNI oneDNN has no int8 kernel for it (its reference only), so the
  // oneDNN row runs PassLab's reference there too: no narrow-weight plan counted.
  bool onednnDeclines = false;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.name;
}

Dims perChannelDims(const Case& c) {
  Dims d(c.x.size() - 1, 1);  // [M, 1, ...] broadcasts over [N, M, spatial...]
  d[0] = c.w[0];
  return d;
}

// The feeds of one run: X, its zero point and the scale vary (as
// DynamicQuantizeLinear's outputs do); W is fed too when the case says so.
NamedInputs feedsFor(const Case& c, uint32_t seed, const ir::Tensor& w) {
  std::mt19937 rng(seed);
  NamedInputs f;
  f.emplace_back("x", activations(c.xType, c.x, rng));
  const bool u8 = c.xType == DataType::kUInt8;
  const int z = u8 ? std::uniform_int_distribution<int>(90, 160)(rng)
                   : std::uniform_int_distribution<int>(-30, 30)(rng);
  f.emplace_back("x_zero_point", zeroPoint(c.xType, z));
  const Dims sd = c.badScale ? Dims{4} : c.perChannelScale ? perChannelDims(c) : Dims{1};
  std::uniform_real_distribution<float> scale(1e-4f, 3e-3f);
  std::vector<float> s(static_cast<size_t>(numel(sd)));
  for (float& v : s) v = scale(rng);
  f.emplace_back("scale", ir::Tensor::fromVector<float>(DataType::kFloat, sd, s));
  if (c.weightsInput) f.emplace_back("w", Value(w));
  return f;
}

// The perms from [N, C, spatial...] to [N, spatial..., C] and back.
std::vector<int64_t> toLast(size_t rank) {
  std::vector<int64_t> p{0};
  for (size_t i = 2; i < rank; ++i) p.push_back(static_cast<int64_t>(i));
  p.push_back(1);
  return p;
}
std::vector<int64_t> toFirst(size_t rank) {
  std::vector<int64_t> p{0, static_cast<int64_t>(rank) - 1};
  for (size_t i = 1; i + 1 < rank; ++i) p.push_back(static_cast<int64_t>(i));
  return p;
}

ir::Value* transposed(ir::Graph& g, ir::Value* v, const std::vector<int64_t>& perm,
                      const std::string& name) {
  ir::Node* t = g.addNode("Transpose", "", {v}, 1, nullptr, name);
  t->setAttr(ir::Attribute::makeInts("perm", perm));
  return t->output(0);
}

// The fused node (`fused`; with `channelsLast`, channels_last = 1 between
// Transposes) or the unfused chain, reading the same feeds and initializers.
ir::Model buildModel(const Case& c, const ir::Tensor& w, bool fused, bool channelsLast = false) {
  ir::Model m;
  m.irVersion = 8;
  m.opsets = {{"", 13}, {ir::passlab_ops::kDomain, 1}};
  ir::Graph& g = m.graph();
  NamedInputs types = feedsFor(c, 1, w);
  auto input = [&](const std::string& name) -> ir::Value* {
    for (const auto& [n, t] : types)
      if (n == name)
        return g.addInput(
            name, ir::Type::tensor(t.tensor().dtype(), ir::Shape::fromValues(t.tensor().dims())));
    return nullptr;
  };
  ir::Value* x = input("x");
  ir::Value* wv = c.weightsInput ? input("w") : g.addInitializer("w", w);
  ir::Value* xz = input("x_zero_point");
  ir::Tensor wzValue = zeroPoint(c.wType, c.weightZeroPoint);
  if (c.perChannelWeightZeroPoints) {
    std::vector<int> z(static_cast<size_t>(c.w[0]));
    for (size_t m = 0; m < z.size(); ++m) z[m] = c.weightZeroPoint + static_cast<int>(m % 5);
    wzValue = c.wType == DataType::kUInt8
                  ? ir::Tensor::fromVector<uint8_t>(c.wType, {c.w[0]},
                                                    std::vector<uint8_t>(z.begin(), z.end()))
                  : ir::Tensor::fromVector<int8_t>(c.wType, {c.w[0]},
                                                   std::vector<int8_t>(z.begin(), z.end()));
  }
  ir::Value* wz = g.addInitializer("w_zero_point", wzValue);
  ir::Value* scale = input("scale");
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> bd(-0.5f, 0.5f);
  std::vector<float> b(static_cast<size_t>(c.w[0]));
  for (float& v : b) v = bd(rng);
  ir::Value* bias = c.bias ? g.addInitializer("b", ir::Tensor::fromVector<float>(
                                                       DataType::kFloat, perChannelDims(c), b))
                           : nullptr;
  std::vector<float> params;
  if (c.activation == "LeakyRelu") params = {0.1f};
  if (c.activation == "Clip") params = {-0.2f, 0.3f};
  ir::Value* y = nullptr;
  if (fused) {
    const size_t rank = c.x.size();
    std::vector<ir::Value*> in{channelsLast ? transposed(g, x, toLast(rank), "to_last") : x, wv, xz,
                               wz, scale};
    if (bias) in.push_back(bias);
    ir::Node* n = g.addNode(ir::passlab_ops::kFusedConvInteger, ir::passlab_ops::kDomain, in, 1,
                            nullptr, "fused");
    setConvAttributes(*n, c);
    if (channelsLast) n->setAttr(ir::Attribute::makeInt(ir::passlab_ops::kChannelsLast, 1));
    if (!c.activation.empty())
      n->setAttr(ir::Attribute::makeString(ir::passlab_ops::kActivation, c.activation));
    if (!params.empty())
      n->setAttr(ir::Attribute::makeFloats(ir::passlab_ops::kActivationParams, params));
    y = channelsLast ? transposed(g, n->output(0), toFirst(rank), "to_first") : n->output(0);
  } else {
    ir::Node* conv = g.addNode("ConvInteger", "", {x, wv, xz, wz}, 1, nullptr, "conv");
    setConvAttributes(*conv, c);
    ir::Node* cast = g.addNode("Cast", "", {conv->output(0)}, 1, nullptr, "cast");
    cast->setAttr(ir::Attribute::makeInt("to", static_cast<int64_t>(DataType::kFloat)));
    y = g.addNode("Mul", "", {cast->output(0), scale}, 1, nullptr, "mul")->output(0);
    if (bias) y = g.addNode("Add", "", {y, bias}, 1, nullptr, "add")->output(0);
    if (c.activation == "Relu") y = g.addNode("Relu", "", {y}, 1, nullptr, "act")->output(0);
    if (c.activation == "LeakyRelu") {
      ir::Node* a = g.addNode("LeakyRelu", "", {y}, 1, nullptr, "act");
      a->setAttr(ir::Attribute::makeFloat("alpha", params[0]));
      y = a->output(0);
    }
    if (c.activation == "Clip") {
      ir::Value* lo =
          g.addInitializer("lo", ir::Tensor::fromVector<float>(DataType::kFloat, {}, {params[0]}));
      ir::Value* hi =
          g.addInitializer("hi", ir::Tensor::fromVector<float>(DataType::kFloat, {}, {params[1]}));
      y = g.addNode("Clip", "", {y, lo, hi}, 1, nullptr, "act")->output(0);
    }
  }
  g.addOutput(y);
  analysis::inferShapes(m);
  return m;
}

ir::Tensor run(const ir::Model& m, const NamedInputs& feeds, bool reference, std::string* kernel) {
  ExecutorOptions o;
  o.referenceKernels = reference;
  auto ex = Executor::create(m, o);
  EXPECT_TRUE(ex) << ex.error().message();
  if (!ex) return {};
  RunOptions ro;
  ro.profile = true;
  ro.threads = 1;
  ir::Tensor last;
  for (int i = 0; i < 2; ++i) {  // the second run reuses the kept primitive and packed weights
    auto r = (*ex)->run(feeds, ro);
    EXPECT_TRUE(r) << r.error().message();
    if (!r) return {};
    last = r->outputs[0];
    if (kernel)
      for (const auto& p : r->profile)
        if (p.kernel.find("FusedConvInteger") != std::string::npos) *kernel = p.kernel;
  }
  return last;
}

void expectBitEqual(const ir::Tensor& got, const ir::Tensor& want, const std::string& what) {
  ASSERT_EQ(got.dtype(), DataType::kFloat) << what;
  ASSERT_EQ(got.dims(), want.dims()) << what;
  ASSERT_GT(got.numel(), 0) << what;
  int bad = 0;
  for (int64_t i = 0; i < got.numel() && bad < 5; ++i) {
    const float a = got.data<float>()[i], b = want.data<float>()[i];
    if (std::memcmp(&a, &b, sizeof a) != 0) {
      ADD_FAILURE() << what << ": element " << i << " is " << a << ", unfused " << b;
      ++bad;
    }
  }
}

class FusedConvIntegerKernel : public ::testing::TestWithParam<Case> {};

TEST_P(FusedConvIntegerKernel, EqualsTheUnfusedFormBitForBit) {
  const Case& c = GetParam();
  for (bool narrow : {false, true}) {
    SCOPED_TRACE(narrow ? "weights in [-64, 64]" : "full-range weights");
    std::mt19937 rng(11);
    const ir::Tensor w =
        c.wType == DataType::kUInt8
            ? randomInts<uint8_t>(DataType::kUInt8, c.w, narrow ? 64 : 0, narrow ? 192 : 255, rng)
            : randomInts<int8_t>(DataType::kInt8, c.w, narrow ? -64 : -127, narrow ? 64 : 127, rng);
    const ir::Model unfused = buildModel(c, w, false);
    for (bool channelsLast : {false, true}) {
      SCOPED_TRACE(channelsLast ? "channels_last" : "channels-first");
      const ir::Model fused = buildModel(c, w, true, channelsLast);
      for (uint32_t seed : {23u, 24u}) {
        SCOPED_TRACE(seed);
        const NamedInputs feeds = feedsFor(c, seed, w);
        const ir::Tensor want = run(unfused, feeds, false, nullptr);
        std::string kernel;
        const uint64_t plans = cpu::qlinear::narrowWeightInt8Plans();
        expectBitEqual(run(fused, feeds, false, &kernel), want, "oneDNN row");
        EXPECT_EQ(kernel, "onednn.passlab.FusedConvInteger");
        // Without VNNI the narrow weights (uint8 X, constant W) take oneDNN's int8 kernels.
        if (narrow && !cpu::qlinear::exactInt8DotProducts() && c.xType == DataType::kUInt8 &&
            !c.weightsInput && !c.onednnDeclines)
          EXPECT_GT(cpu::qlinear::narrowWeightInt8Plans(), plans) << "oneDNN did not run";
        expectBitEqual(run(fused, feeds, true, &kernel), want, "reference row");
        EXPECT_EQ(kernel, "cpu.passlab.FusedConvInteger");
      }
    }
  }
}

std::vector<Case> cases() {
  using DT = DataType;
  std::vector<Case> v;
  v.push_back({.name = "pointwise_u8", .x = {1, 16, 7, 7}, .w = {24, 16, 1, 1}});
  v.push_back({.name = "pointwise_s8_batch2_no_bias",
               .x = {2, 16, 5, 6},
               .w = {8, 16, 1, 1},
               .xType = DT::kInt8,
               .bias = false});
  // No pads: every row of S is one value, kept per channel (compactSums);
  // with pads a 1x1 keeps S per position.
  v.push_back({.name = "k3_no_pads_u8_batch2", .x = {2, 16, 9, 10}, .w = {24, 16, 3, 3}});
  v.push_back(
      {.name = "pointwise_pads_u8", .x = {1, 16, 6, 7}, .w = {24, 16, 1, 1}, .pads = {1, 0, 1, 2}});
  v.push_back({.name = "k3_pads_stride2_per_tensor",
               .x = {1, 8, 11, 13},
               .w = {16, 8, 3, 3},
               .strides = {2, 2},
               .pads = {1, 1, 1, 1},
               .perChannelScale = false});
  v.push_back({.name = "k3_asymmetric_pads_s8_leaky",
               .x = {2, 8, 12, 12},
               .w = {16, 8, 3, 3},
               .xType = DT::kInt8,
               .strides = {2, 2},
               .pads = {1, 0, 1, 2},
               .activation = "LeakyRelu"});
  // uint8 activations and 16 channels: with narrow weights a CPU without VNNI
  // runs these on its AVX2 epilogue's lanes (LeakyRelu, Clip), channels-last
  // and channels-first.
  v.push_back({.name = "k3_u8_leaky",
               .x = {1, 8, 10, 11},
               .w = {16, 8, 3, 3},
               .pads = {1, 1, 1, 1},
               .activation = "LeakyRelu"});
  v.push_back({.name = "pointwise_u8_clip_batch2",
               .x = {2, 24, 7, 9},
               .w = {16, 24, 1, 1},
               .activation = "Clip"});
  v.push_back({.name = "k3_dilated_clip",
               .x = {1, 4, 12, 12},
               .w = {6, 4, 3, 3},
               .pads = {2, 2, 2, 2},
               .dilations = {2, 2},
               .activation = "Clip"});
  v.push_back({.name = "depthwise_pads_no_activation",
               .x = {1, 32, 10, 10},
               .w = {32, 1, 3, 3},
               .group = 32,
               .pads = {1, 1, 1, 1},
               .activation = ""});
  v.push_back({.name = "grouped_same_upper",
               .x = {1, 8, 9, 9},
               .w = {12, 2, 3, 3},
               .group = 4,
               .strides = {2, 2},
               .autoPad = "SAME_UPPER",
               .onednnDeclines = true});  // 2 input channels per group: declined on AVX2
  v.push_back({.name = "large_plane_k3",  // more than one tile of positions per channel
               .x = {1, 24, 30, 40},
               .w = {40, 24, 3, 3},
               .pads = {1, 1, 1, 1}});
  v.push_back(
      {.name = "conv1d_s8", .x = {2, 6, 20}, .w = {5, 6, 3}, .xType = DT::kInt8, .pads = {1, 1}});
  v.push_back({.name = "weight_zero_point",
               .x = {1, 8, 9, 9},
               .w = {8, 8, 3, 3},
               .pads = {1, 1, 1, 1},
               .weightZeroPoint = 3});
  // A QDQ model's uint8 weights (fuse_qdq_conv_integer): the full 0-255 range
  // with zero points that put W - zw outside int8.
  v.push_back({.name = "u8_weights_k3_pads",
               .x = {1, 32, 14, 14},
               .w = {48, 32, 3, 3},
               .pads = {1, 1, 1, 1},
               .activation = "",
               .weightZeroPoint = 108,
               .wType = DT::kUInt8});
  v.push_back({.name = "u8_weights_pointwise_per_channel_zero_points_no_bias",
               .x = {2, 40, 6, 7},
               .w = {24, 40, 1, 1},
               .bias = false,
               .weightZeroPoint = 127,
               .wType = DT::kUInt8,
               .perChannelWeightZeroPoints = true});
  v.push_back({.name = "u8_weights_s8_x_grouped_stride2_asymmetric_pads",
               .x = {1, 8, 11, 10},
               .w = {12, 2, 3, 3},
               .xType = DT::kInt8,
               .group = 4,
               .strides = {2, 2},
               .pads = {0, 1, 2, 1},
               .weightZeroPoint = 139,
               .wType = DT::kUInt8});
  v.push_back({.name = "s8_weights_per_channel_zero_points_dilated",
               .x = {1, 6, 12, 12},
               .w = {10, 6, 3, 3},
               .pads = {2, 2, 2, 2},
               .dilations = {2, 2},
               .weightZeroPoint = -2,
               .perChannelWeightZeroPoints = true});
  v.push_back({.name = "odd_channels_stride2_pads",
               .x = {1, 13, 9, 7},
               .w = {19, 13, 3, 3},
               .strides = {2, 2},
               .pads = {1, 0, 2, 1}});
  v.push_back({.name = "three_channel_image_first_layer",  // ultraface's first convolution
               .x = {1, 3, 24, 32},
               .w = {16, 3, 3, 3},
               .strides = {2, 2},
               .pads = {1, 1, 1, 1}});
  v.push_back({.name = "fallback_runtime_weights",
               .x = {1, 8, 9, 9},
               .w = {8, 8, 3, 3},
               .pads = {1, 1, 1, 1},
               .weightsInput = true});
  return v;
}

INSTANTIATE_TEST_SUITE_P(Shapes, FusedConvIntegerKernel, ::testing::ValuesIn(cases()),
                         [](const auto& info) { return info.param.name; });

TEST(FusedConvIntegerKernel, RejectsAScaleOfTheWrongLength) {
  Case c{.name = "bad_scale", .x = {1, 4, 5, 5}, .w = {6, 4, 1, 1}, .badScale = true};
  std::mt19937 rng(3);
  const ir::Tensor w = randomInts<int8_t>(DataType::kInt8, c.w, -127, 127, rng);
  const ir::Model m = buildModel(c, w, true);
  const NamedInputs feeds = feedsFor(c, 5, w);
  for (bool reference : {false, true}) {
    ExecutorOptions o;
    o.referenceKernels = reference;
    auto ex = Executor::create(m, o);
    ASSERT_TRUE(ex) << ex.error().message();
    auto r = (*ex)->run(feeds, {});
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message().find("Scale must be float32 with 1 or 6 values"),
              std::string::npos)
        << r.error().message();
  }
}

}  // namespace
}  // namespace passlab::exec
