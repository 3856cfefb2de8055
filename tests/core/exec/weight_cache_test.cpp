// Kernels keep prepared weights (oneDNN's reordered layout, folded batch-norm
// parameters) across runs only when the weight input is invariant: an
// initializer the caller cannot override, a Constant, or a value computed from
// such by deterministic nodes (Step::invariantInputs). These tests check the
// analysis and that a kept weight is never used once the weight changes.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/exec/backend.h"
#include "core/exec/compiled_graph.h"
#include "core/exec/compiler.h"
#include "tests/core/exec/exec_test_util.h"

namespace passlab::exec {
namespace {

using testutil::floats;
using testutil::toFloats;

constexpr int kC = 16, kH = 8;  // large enough that oneDNN picks a blocked weight layout

std::vector<float> pattern(size_t n, float scale, float offset) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = scale * static_cast<float>((i * 7) % 13) - offset;
  return v;
}

std::string literal(const std::vector<float>& v) {
  std::string s = "{";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "}";
}

// y = Conv(x, w), 1x1, C -> C channels, computed directly.
std::vector<float> conv1x1(const std::vector<float>& x, const std::vector<float>& w) {
  std::vector<float> y(static_cast<size_t>(kC * kH * kH), 0.0f);
  for (int m = 0; m < kC; ++m)
    for (int c = 0; c < kC; ++c)
      for (int p = 0; p < kH * kH; ++p) y[m * kH * kH + p] += w[m * kC + c] * x[c * kH * kH + p];
  return y;
}

const std::string kX = "float[1,16,8,8] x";
const std::string kY = "float[1,16,8,8] y";
const std::vector<int64_t> kXDims = {1, kC, kH, kH};
const std::vector<int64_t> kWDims = {kC, kC, 1, 1};

std::unique_ptr<Executor> make(const std::string& text) {
  auto ex = Executor::create(testutil::parseModel(text), {});
  EXPECT_TRUE(ex) << (ex ? "" : ex.error().message());
  return ex ? std::move(ex).value() : nullptr;
}

std::vector<float> runY(Executor& ex, const NamedInputs& in) {
  auto r = ex.run(in);
  EXPECT_TRUE(r) << (r ? "" : r.error().message());
  return r ? toFloats(r->outputs[0]) : std::vector<float>();
}

TEST(WeightCache, InvariantAnalysis) {
  const char* text = R"(
    main (float[4] x, float[4] wi, float[4] wo = {1, 2, 3, 4}) => (float[4] y)
    <float[4] w = {1, 2, 3, 4}, int64[1] s = {4}> {
      c = Constant <value = float[4] {1, 1, 1, 1}> ()
      z = ConstantOfShape <value = float[1] {0.5}> (s)
      d = Mul(w, z)
      e = Add(d, c)
      r = RandomUniformLike(w)
      f = Add(e, r)
      g = Add(e, wi)
      h = Add(e, wo)
      j = Neg(wo)
      k = Relu(j)
      y1 = Add(x, e)
      y2 = Add(y1, f)
      y3 = Add(y2, g)
      y = Add(y3, h)
    })";
  ir::Model m = testutil::parseModel(text);
  auto backend = makeBackend("cpu");
  ASSERT_TRUE(backend);
  Compiler compiler(m, (*backend)->kernels(), false);
  auto plan = compiler.compile(m.graph(), nullptr);
  ASSERT_TRUE(plan) << plan.error().message();
  auto flags = [&](const std::string& out) {
    for (const Step& s : (*plan)->steps)
      if (s.node->output(0)->name() == out) return s.invariantInputs;
    ADD_FAILURE() << "no node makes " << out;
    return std::vector<Invariance>();
  };
  using V = std::vector<Invariance>;
  constexpr Invariance kNo = Invariance::kNo, kAlways = Invariance::kAlways,
                       kUnless = Invariance::kUnlessOverridden;
  EXPECT_EQ(flags("z"), (V{kAlways}));
  EXPECT_EQ(flags("d"), (V{kAlways, kAlways}));
  EXPECT_EQ(flags("e"), (V{kAlways, kAlways}));
  EXPECT_EQ(flags("f"), (V{kAlways, kNo}));      // a random value
  EXPECT_EQ(flags("g"), (V{kAlways, kNo}));      // a graph input
  EXPECT_EQ(flags("h"), (V{kAlways, kUnless}));  // an initializer listed as an input
  EXPECT_EQ(flags("k"), (V{kUnless}));           // computed from one
  EXPECT_EQ(flags("y1"), (V{kNo, kAlways}));     // x
  EXPECT_EQ(flags("y2"), (V{kNo, kNo}));
}

// The weight is a graph input: a tensor changed in place between runs (same
// address, new values) must be read again.
TEST(WeightCache, GraphInputWeightChangedInPlace) {
  auto ex = make("main (" + kX + ", float[16,16,1,1] w) => (" + kY + ") { y = Conv(x, w) }");
  ASSERT_TRUE(ex);
  auto xv = pattern(kC * kH * kH, 0.25f, 1.0f);
  Tensor w = Tensor::zeros(ir::DataType::kFloat, kWDims);
  for (int round = 0; round < 3; ++round) {
    auto wv = pattern(kC * kC, 0.5f + static_cast<float>(round), static_cast<float>(round));
    std::copy(wv.begin(), wv.end(), w.mutableData<float>());
    auto y = runY(*ex, {{"x", floats(kXDims, xv)}, {"w", Value(w)}});
    testutil::expectNear(y, conv1x1(xv, wv), 1e-3f);
  }
}

// The weight is computed from a graph input: not invariant, read every run.
TEST(WeightCache, WeightDerivedFromAnInput) {
  auto ex = make("main (" + kX + ", float[1] k) => (" + kY + ") <float[16,16,1,1] w0 = " +
                 literal(pattern(kC * kC, 1.0f, 3.0f)) + "> { w = Mul(w0, k)\n y = Conv(x, w) }");
  ASSERT_TRUE(ex);
  auto xv = pattern(kC * kH * kH, 0.25f, 1.0f);
  for (float k : {1.0f, -2.0f, 0.5f}) {
    auto wv = pattern(kC * kC, 1.0f, 3.0f);
    for (float& v : wv) v *= k;
    auto y = runY(*ex, {{"x", floats(kXDims, xv)}, {"k", floats({1}, {k})}});
    testutil::expectNear(y, conv1x1(xv, wv), 1e-3f);
  }
}

// The onnx_light_* case: weights made by ConstantOfShape (and a Mul) on every
// run are invariant; the results stay right over runs.
TEST(WeightCache, WeightFromConstantSubgraph) {
  auto ex =
      make("main (" + kX + ") => (" + kY + ") <int64[4] s = {16, 16, 1, 1}, float[16,16,1,1] m = " +
           literal(pattern(kC * kC, 1.0f, 3.0f)) +
           "> { z = ConstantOfShape <value = float[1] {0.5}> (s)\n w = Mul(z, m)\n"
           " y = Conv(x, w) }");
  ASSERT_TRUE(ex);
  auto wv = pattern(kC * kC, 0.5f, 1.5f);
  for (int round = 0; round < 3; ++round) {
    auto xv = pattern(kC * kH * kH, 0.25f, static_cast<float>(round));
    auto y = runY(*ex, {{"x", floats(kXDims, xv)}});
    testutil::expectNear(y, conv1x1(xv, wv), 1e-3f);
  }
}

// An initializer listed as a graph input: the caller's value when given, the
// initializer's otherwise, in any order of runs.
TEST(WeightCache, OverridableInitializer) {
  auto init = pattern(kC * kC, 1.0f, 3.0f);
  auto other = pattern(kC * kC, -0.5f, -2.0f);
  auto ex = make("main (" + kX + ", float[16,16,1,1] w = " + literal(init) + ") => (" + kY +
                 ") { y = Conv(x, w) }");
  ASSERT_TRUE(ex);
  auto xv = pattern(kC * kH * kH, 0.25f, 1.0f);
  for (int round = 0; round < 2; ++round) {
    testutil::expectNear(runY(*ex, {{"x", floats(kXDims, xv)}}), conv1x1(xv, init), 1e-3f);
    testutil::expectNear(runY(*ex, {{"x", floats(kXDims, xv)}, {"w", floats(kWDims, other)}}),
                         conv1x1(xv, other), 1e-3f);
  }
}

// The IR version 3 case (onnx_light_*): weights computed from initializers
// that are also graph inputs; overriding one of them on a run changes the
// weights of that run only.
TEST(WeightCache, WeightFromOverridableInitializer) {
  auto init = pattern(kC * kC, 1.0f, 3.0f);
  auto ex = make("main (" + kX + ", float[16,16,1,1] m = " + literal(init) +
                 ", int64[4] s = {16, 16, 1, 1}) => (" + kY +
                 ") { z = ConstantOfShape <value = float[1] {0.5}> (s)\n w = Mul(z, m)\n"
                 " y = Conv(x, w) }");
  ASSERT_TRUE(ex);
  auto half = [](std::vector<float> v) {
    for (float& f : v) f *= 0.5f;
    return v;
  };
  auto other = pattern(kC * kC, -0.5f, -2.0f);
  auto xv = pattern(kC * kH * kH, 0.25f, 1.0f);
  for (int round = 0; round < 2; ++round) {
    testutil::expectNear(runY(*ex, {{"x", floats(kXDims, xv)}}), conv1x1(xv, half(init)), 1e-3f);
    testutil::expectNear(runY(*ex, {{"x", floats(kXDims, xv)}, {"m", floats(kWDims, other)}}),
                         conv1x1(xv, half(other)), 1e-3f);
  }
}

// Two executors of two models with same-shaped, different weights, run in turn.
TEST(WeightCache, TwoExecutorsDifferentWeights) {
  auto wa = pattern(kC * kC, 1.0f, 3.0f), wb = pattern(kC * kC, -0.75f, -1.0f);
  auto model = [&](const std::vector<float>& w) {
    return "main (" + kX + ") => (" + kY + ") <float[16,16,1,1] w = " + literal(w) +
           "> { y = Conv(x, w) }";
  };
  auto a = make(model(wa)), b = make(model(wb));
  ASSERT_TRUE(a && b);
  auto xv = pattern(kC * kH * kH, 0.25f, 1.0f);
  for (int round = 0; round < 2; ++round) {
    testutil::expectNear(runY(*a, {{"x", floats(kXDims, xv)}}), conv1x1(xv, wa), 1e-3f);
    testutil::expectNear(runY(*b, {{"x", floats(kXDims, xv)}}), conv1x1(xv, wb), 1e-3f);
  }
}

// Gemm and MatMul with the right-hand side a graph input, changed between runs.
TEST(WeightCache, GemmAndMatMulInputWeights) {
  auto ex = make(R"(main (float[4,64] a, float[64,32] b) => (float[4,32] y, float[4,32] z) {
      y = Gemm(a, b)
      z = MatMul(a, b)
    })");
  ASSERT_TRUE(ex);
  auto av = pattern(4 * 64, 0.125f, 0.5f);
  Tensor b = Tensor::zeros(ir::DataType::kFloat, {64, 32});
  for (int round = 0; round < 3; ++round) {
    auto bv = pattern(64 * 32, 0.25f * static_cast<float>(round + 1), static_cast<float>(round));
    std::copy(bv.begin(), bv.end(), b.mutableData<float>());
    std::vector<float> want(4 * 32, 0.0f);
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 32; ++j)
        for (int k = 0; k < 64; ++k) want[i * 32 + j] += av[i * 64 + k] * bv[k * 32 + j];
    auto r = ex->run({{"a", floats({4, 64}, av)}, {"b", Value(b)}});
    ASSERT_TRUE(r) << r.error().message();
    testutil::expectNear(toFloats(r->outputs[0]), want, 1e-3f);
    testutil::expectNear(toFloats(r->outputs[1]), want, 1e-3f);
  }
}

// BatchNormalization's folded parameters: kept for invariant ones, read again
// when they are graph inputs.
TEST(WeightCache, BatchNormParametersFromInput) {
  auto ex = make(R"(main (float[1,2,2] x, float[2] s) => (float[1,2,2] y)
      <float[2] b = {0, 1}, float[2] m = {0, 0}, float[2] v = {1, 1}> {
      y = BatchNormalization <epsilon = 0.0> (x, s, b, m, v)
    })");
  ASSERT_TRUE(ex);
  Tensor s = Tensor::zeros(ir::DataType::kFloat, {2});
  for (float k : {1.0f, 2.0f, -1.0f}) {
    s.mutableData<float>()[0] = k;
    s.mutableData<float>()[1] = 2 * k;
    auto y = runY(*ex, {{"x", floats({1, 2, 2}, {1, 2, 3, 4})}, {"s", Value(s)}});
    testutil::expectNear(y, {k, 2 * k, 6 * k + 1, 8 * k + 1});
  }
}

// ai.passlab FusedConv (strided, so oneDNN's blocked weights) and FusedGemm
// keep packed weights by the same rule: a weight fed by the caller and
// changed in place between runs is read again every run.
TEST(WeightCache, FusedConvAndGemmInputWeights) {
  const std::string head = R"(<ir_version: 8, opset_import: ["" : 17, "ai.passlab" : 1]>)";
  auto conv = make(head + "main (" + kX +
                   ", float[16,16,1,1] w) => (float[1,16,4,4] y) { y = "
                   "ai.passlab.FusedConv<kernel_shape = [1, 1], strides = [2, 2], activation = "
                   "\"Relu\">(x, w) }");
  auto gemm = make(head +
                   "main (float[8,16] a, float[16,16] b) => (float[8,16] y) { y = "
                   "ai.passlab.FusedGemm<activation = \"Relu\">(a, b) }");
  ASSERT_TRUE(conv && gemm);
  auto xv = pattern(kC * kH * kH, 0.25f, 1.0f);
  std::vector<float> xs;  // x[:, :, ::2, ::2]
  for (int c = 0; c < kC; ++c)
    for (int i = 0; i < kH; i += 2)
      for (int j = 0; j < kH; j += 2) xs.push_back(xv[(c * kH + i) * kH + j]);
  auto av = pattern(8 * 16, 0.5f, 2.0f);
  Tensor w = Tensor::zeros(ir::DataType::kFloat, kWDims);
  Tensor b = Tensor::zeros(ir::DataType::kFloat, {16, 16});
  for (int round = 0; round < 3; ++round) {
    auto wv = pattern(kC * kC, 0.5f + static_cast<float>(round), static_cast<float>(round));
    std::copy(wv.begin(), wv.end(), w.mutableData<float>());
    std::copy(wv.begin(), wv.end(), b.mutableData<float>());
    std::vector<float> want(static_cast<size_t>(kC * 16), 0.0f);
    for (int m = 0; m < kC; ++m)
      for (int c = 0; c < kC; ++c)
        for (int p = 0; p < 16; ++p) want[m * 16 + p] += wv[m * kC + c] * xs[c * 16 + p];
    for (float& v : want) v = std::max(v, 0.0f);
    testutil::expectNear(runY(*conv, {{"x", floats(kXDims, xv)}, {"w", Value(w)}}), want, 1e-3f);
    std::vector<float> wantG(8 * 16, 0.0f);
    for (int r = 0; r < 8; ++r)
      for (int n = 0; n < 16; ++n) {
        float acc = 0;
        for (int k = 0; k < 16; ++k) acc += av[r * 16 + k] * wv[k * 16 + n];
        wantG[r * 16 + n] = std::max(acc, 0.0f);
      }
    testutil::expectNear(runY(*gemm, {{"a", floats({8, 16}, av)}, {"b", Value(b)}}), wantG, 1e-3f);
  }
}

}  // namespace
}  // namespace passlab::exec
