// The dynamic INT8 form (quantize_dynamic: DynamicQuantizeLinear ->
// ConvInteger / MatMulInteger, fused: ai.passlab FusedConvInteger) on a CPU
// without VNNI (issue #25): uint8 activations times weights that oneDNN gets
// as W' (int8 W as it is, uint8 W as W - 128) all in [-64, 64] -- what
// `reduce_range` quantizers write -- run on oneDNN's int8 kernels, whose
// vpmaddubsw pair sums cannot saturate there (2 x 255 x 64 = 32640 <= 32767:
// core/exec/cpu/narrow_signed_weights.h); any other layer keeps the reference
// kernel. Checked against the reference kernel, element for element, at the
// saturation edge: W' at +-64 with one sign per output channel (every pair of
// products the largest it can be), raw activations mostly 255 (the kernels
// hand oneDNN X without its zero point, so those are the bytes it
// multiplies), the int32 sums (or their float32 values, Scale 1) compared as
// they are, so one saturated pair (383 off) shows. Which path ran:
// qlinear::narrowWeightInt8Plans(). W' of 65 or -65 anywhere, int8
// activations or weights fed at run time must not take the int8 path. On a
// CPU with VNNI every layer takes oneDNN's int8 kernels anyway and the counter
// does not move; ctest runs these again under PASSLAB_MAX_ISA=avx2 and sse2
// (the "ConvInteger*" and "MatMulInteger.*" patterns of tests/CMakeLists.txt).
#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "core/analysis/shape_inference.h"
#include "core/exec/cpu/int8_dot_exactness.h"
#include "core/exec/cpu/narrow_signed_weights.h"
#include "core/exec/cpu/qlinear_onednn_requantization.h"
#include "core/exec/executor.h"
#include "core/exec/tensor.h"
#include "core/ir/passlab_ops.h"
#include "tests/core/exec/int8_conv_test_util.h"

namespace passlab::exec {
namespace {

using ir::DataType;
using namespace int8conv;  // NOLINT(google-build-using-namespace)

enum class Op { kConvInteger, kFused, kFusedChannelsLast };

struct Case {
  std::string name;
  Dims x, w;  // X [N, C, spatial...], W [M, C/group, k...]
  int64_t group = 1;
  Dims strides = {}, pads = {}, dilations = {};
  std::string autoPad = {};
  Op op = Op::kConvInteger;
  DataType wType = DataType::kInt8;  // uint8: W' = W - 128, w_zero_point 128 + 3
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.name;
}

struct Layer {
  int weightMax = 64;       // |W'| at the edge (64 or 65)
  int oddWeight = 0;        // nonzero: one W' set to this value
  bool int8X = false;       // int8 activations instead of uint8
  int xZero = 255;          // x_zero_point, fed at run time as DynamicQuantizeLinear's
  bool weightsFed = false;  // W a graph input (not invariant)
  // A weight zero point per output channel, far from W' (W - zw up to 164
  // away from 0; oneDNN gets W' all the same): channelZeros().
  bool channelZeros = false;
};

// Per output channel zero points of wType for M channels: int8 in
// [-100, 100], uint8 in [40, 220] (the sums stay below 2^24, exact in the
// fused kernels' float32 output).
ir::Tensor channelZeros(DataType wType, int64_t M) {
  std::vector<int> z(static_cast<size_t>(M));
  for (int64_t m = 0; m < M; ++m)
    z[static_cast<size_t>(m)] = static_cast<int>((m * 67) % 201) - 100;
  if (wType == DataType::kUInt8) {
    std::vector<uint8_t> u(z.size());
    for (size_t i = 0; i < z.size(); ++i) u[i] = static_cast<uint8_t>(130 + z[i] * 9 / 10);
    return ir::Tensor::fromVector<uint8_t>(wType, {M}, u);
  }
  return ir::Tensor::fromVector<int8_t>(wType, {M}, std::vector<int8_t>(z.begin(), z.end()));
}

// W' [M, K...] of one sign per output channel, 80% at +-weightMax, the rest
// in [-64, 64]; stored as W of wType (uint8: W' + 128).
ir::Tensor edgeWeights(const Dims& dims, DataType wType, const Layer& layer, std::mt19937& rng) {
  const int64_t M = dims[0], K = numel(dims) / M;
  std::uniform_int_distribution<int> pct(0, 99), any(-64, 64);
  std::vector<int> w(static_cast<size_t>(numel(dims)));
  for (int64_t m = 0; m < M; ++m) {
    const int sign = (m % 3 == 1) ? -1 : 1;
    for (int64_t k = 0; k < K; ++k)
      w[static_cast<size_t>(m * K + k)] = pct(rng) < 80 ? sign * layer.weightMax : any(rng);
  }
  if (layer.oddWeight != 0) w[w.size() / 2] = layer.oddWeight;
  if (wType == DataType::kUInt8) {
    std::vector<uint8_t> u(w.size());
    for (size_t i = 0; i < w.size(); ++i) u[i] = static_cast<uint8_t>(w[i] + 128);
    return ir::Tensor::fromVector<uint8_t>(wType, dims, u);
  }
  return ir::Tensor::fromVector<int8_t>(wType, dims, std::vector<int8_t>(w.begin(), w.end()));
}

// Raw activations: 95% at the top of the type (255 or 127), else 0-40 below.
ir::Tensor edgeActivations(const Dims& dims, bool int8X, std::mt19937& rng) {
  std::uniform_int_distribution<int> pct(0, 99), below(0, 40);
  std::vector<uint8_t> x(static_cast<size_t>(numel(dims)));
  for (uint8_t& v : x) v = static_cast<uint8_t>(pct(rng) < 95 ? 255 : 255 - below(rng));
  if (!int8X) return ir::Tensor::fromVector<uint8_t>(DataType::kUInt8, dims, x);
  std::vector<int8_t> s(x.size());
  for (size_t i = 0; i < x.size(); ++i) s[i] = static_cast<int8_t>(x[i] - 128);
  return ir::Tensor::fromVector<int8_t>(DataType::kInt8, dims, s);
}

// One ConvInteger or FusedConvInteger node (Scale 1, no B, no activation:
// Y is the float32 value of the int32 sum, exact at these magnitudes).
Built convModel(const Case& c, const Layer& layer, uint32_t seed) {
  std::mt19937 rng(seed);
  const DataType xType = layer.int8X ? DataType::kInt8 : DataType::kUInt8;
  const bool last = c.op == Op::kFusedChannelsLast;
  ir::Tensor xt = edgeActivations(c.x, layer.int8X, rng);
  if (last) xt = swapChannels(xt, true);
  const ir::Tensor w = edgeWeights(c.w, c.wType, layer, rng);
  Built b;
  b.model.irVersion = 8;
  b.model.opsets = {{"", 13}, {ir::passlab_ops::kDomain, 1}};
  ir::Graph& g = b.model.graph();
  ir::Value* xIn = g.addInput("x", ir::Type::tensor(xType, ir::Shape::fromValues(xt.dims())));
  b.feeds.emplace_back("x", xt);
  ir::Value* xz =
      g.addInput("x_zero_point", ir::Type::tensor(xType, ir::Shape::fromValues(Dims{})));
  b.feeds.emplace_back("x_zero_point", zeroPoint(xType, layer.int8X ? 127 : layer.xZero));
  ir::Value* wv = nullptr;
  if (layer.weightsFed) {
    wv = g.addInput("w", ir::Type::tensor(c.wType, ir::Shape::fromValues(w.dims())));
    b.feeds.emplace_back("w", w);
  } else {
    wv = g.addInitializer("w", w);
  }
  ir::Value* wz =
      g.addInitializer("w_zero_point", layer.channelZeros            ? channelZeros(c.wType, c.w[0])
                                       : c.wType == DataType::kUInt8 ? zeroPoint(c.wType, 131)
                                                                     : zeroPoint(c.wType, 0));
  std::vector<ir::Value*> in = {xIn, wv, xz, wz};
  ir::Node* n = nullptr;
  if (c.op == Op::kConvInteger) {
    n = g.addNode("ConvInteger", "", in, 1, nullptr, "conv");
  } else {
    in.push_back(g.addInitializer("scale", floats({}, {1.0f})));
    n = g.addNode(ir::passlab_ops::kFusedConvInteger, ir::passlab_ops::kDomain, in, 1, nullptr,
                  "fused");
    if (last) n->setAttr(ir::Attribute::makeInt(ir::passlab_ops::kChannelsLast, 1));
  }
  setConvAttributes(*n, c);
  g.addOutput(n->output(0));
  analysis::inferShapes(b.model);
  return b;
}

bool withoutVnni() {
  return !cpu::qlinear::exactInt8DotProducts();
}

// Every element of got equal to want's (int32 or float32), the first 5 that differ reported.
void expectSame(const ir::Tensor& got, const ir::Tensor& want, const std::string& what) {
  ASSERT_EQ(got.dtype(), want.dtype()) << what;
  ASSERT_EQ(got.dims(), want.dims()) << what;
  int bad = 0;
  for (int64_t i = 0; i < want.numel() && bad < 5; ++i)
    if (got.valueAsDouble(i) != want.valueAsDouble(i)) {
      ADD_FAILURE() << what << ": element " << i << " is " << got.valueAsDouble(i)
                    << ", the reference " << want.valueAsDouble(i);
      ++bad;
    }
}

struct Outcome {
  Runs runs;
  uint64_t narrowPlans = 0;  // plans that took the narrow-weights int8 path
};

Outcome runModel(const Built& b) {
  const uint64_t before = cpu::qlinear::narrowWeightInt8Plans();
  Outcome o;
  o.runs = runPreferredAndReference(b, b.feeds);
  o.narrowPlans = cpu::qlinear::narrowWeightInt8Plans() - before;
  return o;
}

// Both preferred runs equal the reference, element for element.
void expectReference(const Outcome& o, const std::string& what) {
  ASSERT_FALSE(o.runs.reference.outputs.empty()) << what;
  ASSERT_FALSE(o.runs.first.outputs.empty()) << what;
  ASSERT_FALSE(o.runs.second.outputs.empty()) << what;
  expectSame(o.runs.first.outputs[0], o.runs.reference.outputs[0], what + " first run");
  expectSame(o.runs.second.outputs[0], o.runs.reference.outputs[0], what + " second run");
}

class ConvIntegerNarrowWeights : public ::testing::TestWithParam<Case> {};

// W' at +-64: the int8 path (without VNNI), element for element the reference.
TEST_P(ConvIntegerNarrowWeights, AtTheEdgeTakesTheInt8PathExactly) {
  const Case& c = GetParam();
  for (int xZero : {255, 0}) {
    SCOPED_TRACE("x_zero_point " + std::to_string(xZero));
    Layer layer;
    layer.xZero = xZero;
    Outcome o = runModel(convModel(c, layer, 11));
    expectReference(o, c.name);
    if (withoutVnni())
      EXPECT_GE(o.narrowPlans, 1u) << "oneDNN's int8 convolution did not run";
    else
      EXPECT_EQ(o.narrowPlans, 0u);
  }
}

// Weight zero points per output channel, int8 ones too, with W - zw far
// outside [-64, 64]: oneDNN multiplies W' (the zero points come out of the
// sums afterwards), so the int8 path is taken and exact all the same.
TEST_P(ConvIntegerNarrowWeights, PerChannelWeightZeroPointsTakeTheInt8PathExactly) {
  const Case& c = GetParam();
  Layer layer;
  layer.channelZeros = true;
  layer.xZero = 0;  // X - zx = X: mostly 255
  Outcome o = runModel(convModel(c, layer, 16));
  expectReference(o, c.name);
  if (withoutVnni())
    EXPECT_GE(o.narrowPlans, 1u) << "oneDNN's int8 convolution did not run";
  else
    EXPECT_EQ(o.narrowPlans, 0u);
}

// One W' of 65 or -65: a pair of 255 x 65 may saturate, so the reference
// runs (still exact).
TEST_P(ConvIntegerNarrowWeights, OneWeightPastSixtyFourKeepsTheReference) {
  const Case& c = GetParam();
  for (int odd : {65, -65}) {
    SCOPED_TRACE("one weight " + std::to_string(odd));
    Layer layer;
    layer.oddWeight = odd;
    Outcome o = runModel(convModel(c, layer, 12));
    expectReference(o, c.name);
    EXPECT_EQ(o.narrowPlans, 0u);
  }
}

// Every edge W' at +-65: the reference (oneDNN's int8 kernels would be off
// by the saturated pairs here: the mutation check of this test).
TEST_P(ConvIntegerNarrowWeights, WeightsAtSixtyFiveKeepTheReference) {
  const Case& c = GetParam();
  Layer layer;
  layer.weightMax = 65;
  Outcome o = runModel(convModel(c, layer, 13));
  expectReference(o, c.name);
  EXPECT_EQ(o.narrowPlans, 0u);
}

// int8 activations: oneDNN shifts them by 128 and halves the weights
// without VNNI, never exact there, whatever the weights.
TEST_P(ConvIntegerNarrowWeights, Int8ActivationsKeepTheReference) {
  const Case& c = GetParam();
  Layer layer;
  layer.int8X = true;
  Outcome o = runModel(convModel(c, layer, 14));
  expectReference(o, c.name);
  EXPECT_EQ(o.narrowPlans, 0u);
}

// Weights fed at run time: not invariant, so never oneDNN's kernel.
TEST_P(ConvIntegerNarrowWeights, WeightsFedAtRunTimeKeepTheReference) {
  const Case& c = GetParam();
  Layer layer;
  layer.weightsFed = true;
  Outcome o = runModel(convModel(c, layer, 15));
  expectReference(o, c.name);
  EXPECT_EQ(o.narrowPlans, 0u);
}

std::vector<Case> cases() {
  std::vector<Case> v;
  for (Op op : {Op::kConvInteger, Op::kFused}) {
    const std::string p = op == Op::kConvInteger ? "conv_integer_" : "fused_";
    v.push_back({.name = p + "conv3x3_pad1",
                 .x = {1, 16, 10, 12},
                 .w = {32, 16, 3, 3},
                 .pads = {1, 1, 1, 1},
                 .op = op});
    v.push_back({.name = p + "conv3x3_stride2",
                 .x = {1, 8, 13, 11},
                 .w = {16, 8, 3, 3},
                 .strides = {2, 2},
                 .pads = {1, 1, 1, 1},
                 .op = op});
    v.push_back({.name = p + "pointwise", .x = {1, 64, 7, 9}, .w = {40, 64, 1, 1}, .op = op});
    v.push_back({.name = p + "odd_channels", .x = {1, 3, 9, 9}, .w = {5, 3, 3, 3}, .op = op});
    v.push_back({.name = p + "grouped",
                 .x = {1, 16, 8, 8},
                 .w = {16, 4, 3, 3},
                 .group = 4,
                 .pads = {1, 1, 1, 1},
                 .op = op});
    v.push_back({.name = p + "depthwise",
                 .x = {1, 24, 9, 10},
                 .w = {24, 1, 3, 3},
                 .group = 24,
                 .pads = {1, 1, 1, 1},
                 .op = op});
    v.push_back({.name = p + "batch2", .x = {2, 32, 6, 6}, .w = {16, 32, 3, 3}, .op = op});
    v.push_back({.name = p + "uint8_weights",
                 .x = {1, 16, 8, 9},
                 .w = {24, 16, 3, 3},
                 .pads = {1, 1, 1, 1},
                 .op = op,
                 .wType = DataType::kUInt8});
  }
  v.push_back({.name = "fused_channels_last",
               .x = {1, 32, 8, 7},
               .w = {32, 32, 3, 3},
               .pads = {1, 1, 1, 1},
               .op = Op::kFusedChannelsLast});
  v.push_back({.name = "fused_channels_last_pointwise",
               .x = {1, 48, 6, 6},
               .w = {24, 48, 1, 1},
               .op = Op::kFusedChannelsLast});
  return v;
}

// The "ConvInteger" prefix puts these under the ISA caps' "ConvInteger*" filter.
INSTANTIATE_TEST_SUITE_P(ConvInteger, ConvIntegerNarrowWeights, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& i) { return i.param.name; });

// MatMulInteger (matmul_integer_onednn.cpp, Int32MatMul) the same way: uint8
// A [a...] mostly 255 with a_zero_point fed at run time, a constant B [K, N]
// of one sign per column, 80% at +-weightMax (int8, or uint8 as B' + 128).
struct MatMulLayer {
  Dims a = {9, 96};
  int weightMax = 64;
  int oddWeight = 0;
  DataType bType = DataType::kInt8;
  bool int8A = false;
  bool columnZeros = false;  // b_zero_point per column, far from B' (channelZeros)
  int aZero = 255;           // a_zero_point (uint8 A)
};

Built matMulModel(const MatMulLayer& l, uint32_t seed) {
  std::mt19937 rng(seed);
  const int64_t K = l.a.back(), N = 24;
  std::uniform_int_distribution<int> pct(0, 99), any(-64, 64);
  std::vector<int> bv(static_cast<size_t>(K * N));
  for (int64_t k = 0; k < K; ++k)
    for (int64_t n = 0; n < N; ++n)
      bv[static_cast<size_t>(k * N + n)] =
          pct(rng) < 80 ? (n % 3 == 1 ? -1 : 1) * l.weightMax : any(rng);
  if (l.oddWeight != 0) bv[bv.size() / 2] = l.oddWeight;
  ir::Tensor bt;
  if (l.bType == DataType::kUInt8) {
    std::vector<uint8_t> u(bv.size());
    for (size_t i = 0; i < bv.size(); ++i) u[i] = static_cast<uint8_t>(bv[i] + 128);
    bt = ir::Tensor::fromVector<uint8_t>(l.bType, {K, N}, u);
  } else {
    bt = ir::Tensor::fromVector<int8_t>(l.bType, {K, N}, std::vector<int8_t>(bv.begin(), bv.end()));
  }
  const DataType aType = l.int8A ? DataType::kInt8 : DataType::kUInt8;
  const ir::Tensor at = edgeActivations(l.a, l.int8A, rng);
  Built m;
  m.model.irVersion = 8;
  m.model.opsets = {{"", 13}};
  ir::Graph& g = m.model.graph();
  ir::Value* aIn = g.addInput("a", ir::Type::tensor(aType, ir::Shape::fromValues(at.dims())));
  m.feeds.emplace_back("a", at);
  ir::Value* az =
      g.addInput("a_zero_point", ir::Type::tensor(aType, ir::Shape::fromValues(Dims{})));
  m.feeds.emplace_back("a_zero_point", zeroPoint(aType, l.int8A ? 127 : l.aZero));
  ir::Value* bz =
      g.addInitializer("b_zero_point", l.columnZeros                 ? channelZeros(l.bType, N)
                                       : l.bType == DataType::kUInt8 ? zeroPoint(l.bType, 125)
                                                                     : zeroPoint(l.bType, 0));
  ir::Node* node = g.addNode("MatMulInteger", "", {aIn, g.addInitializer("b", bt), az, bz}, 1,
                             nullptr, "matmul");
  g.addOutput(node->output(0));
  analysis::inferShapes(m.model);
  return m;
}

TEST(MatMulIntegerNarrowWeights, AtTheEdgeTakesTheInt8PathExactly) {
  for (DataType bType : {DataType::kInt8, DataType::kUInt8})
    for (const Dims& a : {Dims{9, 96}, Dims{2, 5, 64}}) {
      SCOPED_TRACE(std::string(bType == DataType::kInt8 ? "int8" : "uint8") + " B, A rank " +
                   std::to_string(a.size()));
      MatMulLayer l;
      l.a = a;
      l.bType = bType;
      Outcome o = runModel(matMulModel(l, 21));
      expectReference(o, "matmul");
      if (withoutVnni())
        EXPECT_GE(o.narrowPlans, 1u) << "oneDNN's int8 matmul did not run";
      else
        EXPECT_EQ(o.narrowPlans, 0u);
    }
}

// b_zero_point per column (int8 and uint8 B), B - zb far outside [-64, 64]:
// the int8 path, exact.
TEST(MatMulIntegerNarrowWeights, PerColumnZeroPointsTakeTheInt8PathExactly) {
  for (DataType bType : {DataType::kInt8, DataType::kUInt8}) {
    SCOPED_TRACE(bType == DataType::kInt8 ? "int8 B" : "uint8 B");
    MatMulLayer l;
    l.bType = bType;
    l.columnZeros = true;
    l.aZero = 0;  // A - za = A: mostly 255
    Outcome o = runModel(matMulModel(l, 23));
    expectReference(o, "matmul");
    if (withoutVnni())
      EXPECT_GE(o.narrowPlans, 1u) << "oneDNN's int8 matmul did not run";
    else
      EXPECT_EQ(o.narrowPlans, 0u);
  }
}

// B' at +-65 everywhere, one B' of +-65, or int8 A: the reference.
TEST(MatMulIntegerNarrowWeights, WiderWeightsOrInt8ActivationsKeepTheReference) {
  MatMulLayer wide;
  wide.weightMax = 65;
  MatMulLayer odd;
  odd.oddWeight = -65;
  MatMulLayer oddUnsigned;
  oddUnsigned.oddWeight = 65;
  oddUnsigned.bType = DataType::kUInt8;
  MatMulLayer signedA;
  signedA.int8A = true;
  int i = 0;
  for (const MatMulLayer& l : {wide, odd, oddUnsigned, signedA}) {
    SCOPED_TRACE("layer " + std::to_string(i++));
    Outcome o = runModel(matMulModel(l, 22));
    expectReference(o, "matmul");
    EXPECT_EQ(o.narrowPlans, 0u);
  }
}

// The predicate: int8 W' = W, uint8 W' = W - 128, each in [-64, 64].
TEST(MatMulIntegerNarrowWeights, SignedWeightsPredicate) {
  using cpu::qlinear::narrowSignedWeights;
  auto s8 = [](std::vector<int8_t> v) {
    const auto n = static_cast<int64_t>(v.size());
    return Tensor::fromVector<int8_t>(DataType::kInt8, {n}, v);
  };
  auto u8 = [](std::vector<uint8_t> v) {
    const auto n = static_cast<int64_t>(v.size());
    return Tensor::fromVector<uint8_t>(DataType::kUInt8, {n}, v);
  };
  EXPECT_TRUE(narrowSignedWeights(s8({-64, 0, 64})));
  EXPECT_FALSE(narrowSignedWeights(s8({-64, 65})));
  EXPECT_FALSE(narrowSignedWeights(s8({-65, 64})));
  EXPECT_FALSE(narrowSignedWeights(s8({127, -128})));
  EXPECT_TRUE(narrowSignedWeights(u8({64, 128, 192})));
  EXPECT_FALSE(narrowSignedWeights(u8({63, 128})));
  EXPECT_FALSE(narrowSignedWeights(u8({128, 193})));
  EXPECT_FALSE(narrowSignedWeights(u8({0, 127})));  // reduce_range uint8 [0, 127]: W' < -64
}

}  // namespace
}  // namespace passlab::exec
