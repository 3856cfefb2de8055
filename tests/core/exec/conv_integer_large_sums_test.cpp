// ConvInteger and FusedConvInteger whose int32 sums pass 2^24 (issue #25):
// below AVX-512 VNNI oneDNN's int8 convolution passes its sums through
// float32 on the way out (AVX2, AVX-VNNI, AVX-512 without VNNI, SSE4.1), so
// such a layer must run the reference there (measured before the fix: 573 of
// 784 sums 1-2 off under PASSLAB_MAX_ISA=avx2, avx2vnni, avx512core, sse2);
// with AVX-512 VNNI it keeps oneDNN, exact. The layers: 512 input channels
// of a 3x3 kernel, weights W' in [40, 64] (narrow, so that the int8 path is
// open without VNNI too), activations 200-255: sums about 5.5 x 10^7, not
// multiples of float32's step there. The "ConvInteger" prefix runs these
// under every ISA cap (tests/CMakeLists.txt).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/analysis/shape_inference.h"
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

struct Layer {
  Op op = Op::kConvInteger;
  DataType wType = DataType::kInt8;  // uint8: W = W' + 128, w_zero_point 128
  int xZero = 0;                     // x_zero_point, fed at run time
  int64_t channels = 512;            // input channels (3x3 kernel, 8 outputs)
  std::vector<int64_t> pads = {1, 1, 1, 1};
  int64_t group = 1;
  std::vector<int64_t> strides = {}, dilations = {};
  std::string autoPad = {};
};

// W' in [40, 64] stored as wType, X in [200, 255].
Built largeSums(const Layer& l, uint32_t seed) {
  std::mt19937 rng(seed);
  const Dims xDims = {1, l.channels, 7, 7}, wDims = {8, l.channels, 3, 3};
  std::uniform_int_distribution<int> wv(40, 64), xv(200, 255);
  std::vector<uint8_t> xs(static_cast<size_t>(numel(xDims)));
  for (uint8_t& v : xs) v = static_cast<uint8_t>(xv(rng));
  ir::Tensor xt = ir::Tensor::fromVector<uint8_t>(DataType::kUInt8, xDims, xs);
  const bool last = l.op == Op::kFusedChannelsLast;
  if (last) xt = swapChannels(xt, true);
  std::vector<int> ws(static_cast<size_t>(numel(wDims)));
  for (int& v : ws) v = wv(rng);
  ir::Tensor w;
  if (l.wType == DataType::kUInt8) {
    std::vector<uint8_t> u(ws.size());
    for (size_t i = 0; i < ws.size(); ++i) u[i] = static_cast<uint8_t>(ws[i] + 128);
    w = ir::Tensor::fromVector<uint8_t>(DataType::kUInt8, wDims, u);
  } else {
    w = ir::Tensor::fromVector<int8_t>(DataType::kInt8, wDims,
                                       std::vector<int8_t>(ws.begin(), ws.end()));
  }
  Built b;
  b.model.irVersion = 8;
  b.model.opsets = {{"", 13}, {ir::passlab_ops::kDomain, 1}};
  ir::Graph& g = b.model.graph();
  ir::Value* x =
      g.addInput("x", ir::Type::tensor(DataType::kUInt8, ir::Shape::fromValues(xt.dims())));
  b.feeds.emplace_back("x", xt);
  ir::Value* xz =
      g.addInput("x_zero_point", ir::Type::tensor(DataType::kUInt8, ir::Shape::fromValues(Dims{})));
  b.feeds.emplace_back("x_zero_point", zeroPoint(DataType::kUInt8, l.xZero));
  ir::Value* wz =
      g.addInitializer("w_zero_point", zeroPoint(l.wType, l.wType == DataType::kUInt8 ? 128 : 0));
  std::vector<ir::Value*> in = {x, g.addInitializer("w", w), xz, wz};
  ir::Node* n = nullptr;
  if (l.op == Op::kConvInteger) {
    n = g.addNode("ConvInteger", "", in, 1, nullptr, "conv");
  } else {
    in.push_back(g.addInitializer("scale", floats({}, {1.0f})));
    n = g.addNode(ir::passlab_ops::kFusedConvInteger, ir::passlab_ops::kDomain, in, 1, nullptr,
                  "fused");
    if (last) n->setAttr(ir::Attribute::makeInt(ir::passlab_ops::kChannelsLast, 1));
  }
  setConvAttributes(*n, l);
  g.addOutput(n->output(0));
  analysis::inferShapes(b.model);
  return b;
}

// Every element equal to the reference's (int32, or float32 of exact integers).
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

double largestMagnitude(const ir::Tensor& t) {
  double m = 0;
  for (int64_t i = 0; i < t.numel(); ++i) m = std::max(m, std::abs(t.valueAsDouble(i)));
  return m;
}

void expectReference(const Layer& l, const std::string& what, double atLeast) {
  const uint64_t before = cpu::qlinear::narrowWeightInt8Plans();
  const Built b = largeSums(l, 7);
  const Runs r = runPreferredAndReference(b, b.feeds);
  ASSERT_FALSE(r.reference.outputs.empty()) << what;
  ASSERT_FALSE(r.first.outputs.empty()) << what;
  ASSERT_FALSE(r.second.outputs.empty()) << what;
  // The case is what it claims: outputs that large.
  EXPECT_GE(largestMagnitude(r.reference.outputs[0]), atLeast) << what;
  expectSame(r.first.outputs[0], r.reference.outputs[0], what + " first run");
  expectSame(r.second.outputs[0], r.reference.outputs[0], what + " second run");
  // Without VNNI the narrow weights would have opened oneDNN's int8 path
  // (narrowWeightInt8Plans counts it): these sums keep the reference.
  if (!cpu::qlinear::int8ConvSumsExactPastFloat32()) {
    EXPECT_EQ(cpu::qlinear::narrowWeightInt8Plans() - before, 0u) << what;
  }
}

// ConvInteger's output is oneDNN's sum itself, past 2^25 here.
TEST(ConvIntegerLargeSums, ConvIntegerEqualsTheReference) {
  for (DataType wType : {DataType::kInt8, DataType::kUInt8}) {
    Layer l;
    l.wType = wType;
    expectReference(l, wType == DataType::kInt8 ? "int8 W" : "uint8 W", 1 << 25);
  }
}

// FusedConvInteger (Scale 1) with x_zero_point 255: Y = conv(X - 255, W')
// stays below 2^24 and exact in float32, but oneDNN's sum conv(X, W') does
// not: its float32 rounding shows in Y.
TEST(ConvIntegerLargeSums, FusedConvIntegerEqualsTheReference) {
  for (Op op : {Op::kFused, Op::kFusedChannelsLast}) {
    Layer l;
    l.op = op;
    l.xZero = 255;
    expectReference(l, op == Op::kFused ? "channels-first" : "channels-last", 1 << 20);
  }
}

// Small sums keep oneDNN without VNNI (the bound is not a blanket refusal):
// 64 input channels, 255 x 64 x 576 < 2^24.
TEST(ConvIntegerLargeSums, SumsBelowTwoToTheTwentyFourKeepTheInt8Path) {
  Layer l;
  l.channels = 64;
  const uint64_t before = cpu::qlinear::narrowWeightInt8Plans();
  const Built b = largeSums(l, 8);
  const Runs r = runPreferredAndReference(b, b.feeds);
  ASSERT_FALSE(r.first.outputs.empty());
  ASSERT_FALSE(r.reference.outputs.empty());
  expectSame(r.first.outputs[0], r.reference.outputs[0], "64 channels");
  if (!cpu::qlinear::exactInt8DotProducts()) {
    EXPECT_GE(cpu::qlinear::narrowWeightInt8Plans() - before, 1u);
  }
}

// The bound: 255 x the largest sum of |W'| of a channel below 2^24
// (65793 x 255 = 2^24 - 1); W' = W - 128 for uint8 W.
TEST(ConvIntegerLargeSums, Bound) {
  using cpu::qlinear::int8ConvSumsExact;
  using cpu::qlinear::largestSignedWeightSum;
  EXPECT_TRUE(int8ConvSumsExact(65793));
  EXPECT_EQ(int8ConvSumsExact(65794), cpu::qlinear::int8ConvSumsExactPastFloat32());
  EXPECT_EQ(largestSignedWeightSum(
                Tensor::fromVector<int8_t>(DataType::kInt8, {2, 3}, {-128, 1, 2, 127, 127, -1})),
            255);
  EXPECT_EQ(largestSignedWeightSum(
                Tensor::fromVector<uint8_t>(DataType::kUInt8, {3, 2}, {10, 200, 128, 129, 1, 1})),
            254);
  EXPECT_EQ(largestSignedWeightSum(Tensor::fromVector<float>(DataType::kFloat, {1}, {5.0f})), 0);
}

}  // namespace
}  // namespace passlab::exec
