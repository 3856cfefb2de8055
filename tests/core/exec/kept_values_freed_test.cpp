// Kept values freed once every reader holds its own packed copy
// (KernelContext::holdsOwnCopy, KeptValues::releaseHeld): the weights of the
// onnx_light_* pattern (ConstantOfShape * m) read by a oneDNN Conv are freed
// after the first run and the later runs give the same bytes as an executor
// that keeps nothing; a reader that does not pack, a graph output and a
// reader that runs afresh on runs overriding an initializer keep the value; a
// run that overrides an initializer leaves the held copy intact; a new input
// shape rebuilds the primitive from the held copy, not from the freed data.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/exec/cpu/onednn_util.h"
#include "core/exec/cpu/qlinear_onednn_requantization.h"
#include "core/exec/executor.h"
#include "core/exec/memory/input_shapes.h"
#include "core/support/cpu_isa.h"
#include "tests/core/exec/exec_test_util.h"
#include "tests/core/exec/kept_values_test_util.h"
#include "tests/core/exec/onednn_verbose_log.h"

namespace passlab::exec {
namespace {

using keptvalues::make;
using keptvalues::run;
using testutil::floats;

// "{1, 2, ..., n}" scaled, for m.
std::string values(int n, float scale) {
  std::string s = "{";
  for (int i = 0; i < n; ++i)
    s += (i ? ", " : "") + std::to_string(scale * static_cast<float>((i % 7) - 3));
  return s + "}";
}

// x [N,16,8,8] * w [32,16,3,3] (w = ConstantOfShape(s) * m), then `tail`.
// `inputs` and `outputs` extend the signature.
std::string convModel(const std::string& inputs, const std::string& outputs,
                      const std::string& tail) {
  return "main (float[N,16,8,8] x" + inputs + ") => (float[N,32,8,8] y" + outputs +
         ") <int64[4] s = {32, 16, 3, 3}, float[32,1,1,1] m = " + values(32, 0.125f) +
         "> {\n z = ConstantOfShape <value = float[1] {0.25}> (s)\n w = Mul(z, m)\n" +
         " y = Conv <pads = [1, 1, 1, 1]> (x, w)\n" + tail + "}";
}

ir::Tensor input(int64_t n, float shift) {
  std::vector<float> v(static_cast<size_t>(n * 16 * 8 * 8));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>((i * 37) % 101) / 50.0f - shift;
  return floats({n, 16, 8, 8}, v);
}

void expectSameBytes(const RunResult& a, const RunResult& b) {
  ASSERT_EQ(a.outputs.size(), b.outputs.size());
  for (size_t i = 0; i < a.outputs.size(); ++i) {
    ASSERT_EQ(a.outputs[i].bytes().size(), b.outputs[i].bytes().size()) << i;
    EXPECT_EQ(std::memcmp(a.outputs[i].bytes().data(), b.outputs[i].bytes().data(),
                          a.outputs[i].bytes().size()),
              0)
        << "output " << i;
  }
}

constexpr uint64_t kZBytes = 32 * 16 * 3 * 3 * 4;  // z and w: float[32,16,3,3]
// convModel's initializer m (float[32,1,1,1]): read only by the kept Mul, so
// released too after the first run; not s (int64[4]), which shape inference
// reads (ShapeInitializersStayForLaterInference).
constexpr uint64_t kConvInitBytes = 32 * 4;

TEST(KeptValuesFreed, PackedWeightsFreedOutputsUnchanged) {
  const std::string text = convModel("", "", "");
  auto kept = make(text, true);
  auto every = make(text, false);
  ASSERT_TRUE(kept && every);
  for (int round = 0; round < 3; ++round) {
    NamedInputs in = {{"x", input(1, 0.1f * static_cast<float>(round))}};
    RunResult a = run(*kept, in);
    expectSameBytes(a, run(*every, in));
    // z is read only by the kept Mul; w only by the Conv, which packed it.
    EXPECT_EQ(a.memory.keptFreedBytes, 2 * kZBytes + kConvInitBytes) << "round " << round;
    EXPECT_EQ(a.memory.keptBytes, 0u);
  }
}

// A reader that does not pack (Neg, run every time) keeps w; z is still freed.
TEST(KeptValuesFreed, ReaderThatDoesNotPackKeepsIt) {
  const std::string text =
      convModel(", float[32,16,3,3] q", ", float[32,16,3,3] u", " u = Add(w, q)\n");
  auto kept = make(text, true);
  auto every = make(text, false);
  ASSERT_TRUE(kept && every);
  std::vector<float> qv(32 * 16 * 9, 1.0f);
  for (int round = 0; round < 3; ++round) {
    NamedInputs in = {{"x", input(1, 0.0f)}, {"q", floats({32, 16, 3, 3}, qv)}};
    RunResult a = run(*kept, in);
    expectSameBytes(a, run(*every, in));
    EXPECT_EQ(a.memory.keptFreedBytes, kZBytes + kConvInitBytes) << "round " << round;
    EXPECT_EQ(a.memory.keptBytes, kZBytes);
  }
}

// Two Convs pack w: after the first one's step w is still read (the second
// has not packed it yet); once the second holds its copy, w is freed in the
// same run. (KeptValues asks again only when something changed: a holder
// noted must count as a change.)
TEST(KeptValuesFreed, FreedWhenTheLastOfTwoReadersPacksIt) {
  const std::string text =
      convModel("", ", float[N,32,8,8] y2", " y2 = Conv <pads = [1, 1, 1, 1]> (x, w)\n");
  auto kept = make(text, true);
  auto every = make(text, false);
  ASSERT_TRUE(kept && every);
  for (int round = 0; round < 3; ++round) {
    NamedInputs in = {{"x", input(1, 0.05f * static_cast<float>(round))}};
    RunResult a = run(*kept, in);
    expectSameBytes(a, run(*every, in));
    EXPECT_EQ(a.memory.keptFreedBytes, 2 * kZBytes + kConvInitBytes) << "round " << round;
    EXPECT_EQ(a.memory.keptBytes, 0u) << "round " << round;
  }
}

// A kept value the graph returns is never freed.
TEST(KeptValuesFreed, GraphOutputKept) {
  const std::string text = convModel("", ", float[32,16,3,3] w", "");
  auto kept = make(text, true);
  auto every = make(text, false);
  ASSERT_TRUE(kept && every);
  for (int round = 0; round < 3; ++round) {
    NamedInputs in = {{"x", input(1, 0.0f)}};
    RunResult a = run(*kept, in);
    expectSameBytes(a, run(*every, in));
    EXPECT_EQ(a.memory.keptFreedBytes, kZBytes + kConvInitBytes);
  }
}

// IR version 3 style: m is also a graph input. A run overriding it computes w
// afresh (the Conv packs it for that run only); the runs around it use the
// held copy, which the override must not have overwritten.
TEST(KeptValuesFreed, OverriddenInitializerLeavesHeldCopy) {
  std::string text = convModel(", float[32,1,1,1] m2 = " + values(32, 0.125f), "", "");
  // The Mul reads the overridable m2 instead of m.
  text.replace(text.find("w = Mul(z, m)"), 13, "w = Mul(z, m2)");
  auto kept = make(text, true);
  auto every = make(text, false);
  ASSERT_TRUE(kept && every);
  std::vector<float> other(32, -0.5f);
  // Both executors' Conv kernels keep packed weights: the first plain run is
  // the reference the later plain runs (after an override) must equal.
  RunResult first;
  for (int round = 0; round < 3; ++round) {
    NamedInputs plain = {{"x", input(1, 0.0f)}};
    RunResult a = run(*kept, plain);
    expectSameBytes(a, run(*every, plain));
    if (round == 0) first = a;
    expectSameBytes(a, first);
    // w is freed (the Conv holds it packed); z is not: the Mul reads it
    // afresh on the runs that override m2. m2, a graph input, is kept; s
    // and the unread m are released.
    EXPECT_EQ(a.memory.keptFreedBytes, kZBytes + kConvInitBytes);
    NamedInputs over = {{"x", input(1, 0.0f)}, {"m2", floats({32, 1, 1, 1}, other)}};
    RunResult b = run(*kept, over);
    expectSameBytes(b, run(*every, over));
  }
}

// A kAlways value also read by a step that runs afresh on runs overriding an
// initializer (v = w + m2) is not freed: that run reads it.
TEST(KeptValuesFreed, ReaderRunAfreshOnOverrideKeepsIt) {
  const std::string text = convModel(", float[32,16,3,3] m2 = " + values(32 * 16 * 9, 0.5f),
                                     ", float[32,16,3,3] r", " v = Add(w, m2)\n r = Neg(v)\n");
  auto kept = make(text, true);
  auto every = make(text, false);
  ASSERT_TRUE(kept && every);
  std::vector<float> other(32 * 16 * 9, 2.0f);
  for (int round = 0; round < 3; ++round) {
    NamedInputs plain = {{"x", input(1, 0.0f)}};
    RunResult a = run(*kept, plain);
    expectSameBytes(a, run(*every, plain));
    // z and v (read only by the kept Neg) are freed; w, which the Add reads
    // on the override runs, and the output r are not.
    EXPECT_EQ(a.memory.keptFreedBytes, 2 * kZBytes + kConvInitBytes);
    NamedInputs over = {{"x", input(1, 0.0f)}, {"m2", floats({32, 16, 3, 3}, other)}};
    RunResult b = run(*kept, over);
    expectSameBytes(b, run(*every, over));
  }
}

// Another batch size after the weights were freed: the Conv rebuilds its
// primitive and takes the held copy into it.
TEST(KeptValuesFreed, NewInputShapeUsesHeldCopy) {
  const std::string text = convModel("", "", "");
  auto kept = make(text, true);
  auto every = make(text, false);
  ASSERT_TRUE(kept && every);
  for (int64_t n : {1, 2, 3, 1}) {
    NamedInputs in = {{"x", input(n, 0.2f)}};
    RunResult a = run(*kept, in);
    expectSameBytes(a, run(*every, in));
    EXPECT_EQ(a.memory.keptFreedBytes, 2 * kZBytes + kConvInitBytes) << "batch " << n;
  }
}

// Gemm and MatMul on constant-only weights: freed when oneDNN packs them,
// outputs byte-identical either way.
TEST(KeptValuesFreed, GemmAndMatMulOutputsUnchanged) {
  const std::string text = R"(
    main (float[N,64] x) => (float[N,48] y, float[N,48] y2)
    <int64[2] s = {64, 48}, float[1] m = {0.5}> {
      z = ConstantOfShape <value = float[1] {0.25}> (s)
      w = Mul(z, m)
      b = ConstantOfShape <value = float[1] {0.125}> (s)
      y = Gemm(x, w)
      y2 = MatMul(x, b)
    })";
  auto kept = make(text, true);
  auto every = make(text, false);
  ASSERT_TRUE(kept && every);
  for (int64_t n : {1, 4, 1}) {
    std::vector<float> v(static_cast<size_t>(n * 64));
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i % 13) - 6.0f;
    NamedInputs in = {{"x", floats({n, 64}, v)}};
    RunResult a = run(*kept, in);
    expectSameBytes(a, run(*every, in));
    EXPECT_GE(a.memory.keptFreedBytes, 64u * 48 * 4);  // z, read only by the kept Mul
  }
}

// The same with B stored [N, K] (transB = 1): batch 1 runs the GEMV over the
// weights as they are (not packed, not freed); after a batch of 4 packed and
// freed them, batch 1 runs the GEMV again, over B unpacked from the held
// copy. Outputs byte-identical to an executor that keeps nothing, in that
// order of batches.
TEST(KeptValuesFreed, GemmTransposedWeightsBatchOneThenFour) {
  const std::string text = R"(
    main (float[N,64] x) => (float[N,48] y)
    <int64[2] s = {48, 64}, float[1] m = {0.5}> {
      z = ConstantOfShape <value = float[1] {0.25}> (s)
      w = Mul(z, m)
      y = Gemm <transB = 1> (x, w)
    })";
  auto kept = make(text, true);
  auto every = make(text, false);
  ASSERT_TRUE(kept && every);
  for (int64_t n : {1, 4, 1}) {
    std::vector<float> v(static_cast<size_t>(n * 64));
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i % 13) - 6.0f;
    NamedInputs in = {{"x", floats({n, 64}, v)}};
    RunResult a = run(*kept, in);
    expectSameBytes(a, run(*every, in));
    // Every weight is 0.125 and the inputs small integers: exact sums.
    const float* y = a.outputs[0].data<float>().data();
    for (int64_t r = 0; r < n; ++r) {
      float rowSum = 0;
      for (int64_t k = 0; k < 64; ++k) rowSum += v[static_cast<size_t>(r * 64 + k)];
      for (int64_t j = 0; j < 48; ++j) ASSERT_EQ(y[r * 48 + j], 0.125f * rowSum) << r << "," << j;
    }
  }
}

// Two weights made by ConstantOfShape ahead of both Convs (as the onnx_light_*
// models list them): each runs just before its Conv (constant_steps_order.h),
// which packs it and frees it, so one weight is held at a time on the first
// run, not both; outputs byte-identical to an executor that keeps nothing.
TEST(KeptValuesFreed, ConstantStepsRunBeforeTheirFirstReader) {
  const std::string text = R"(
    main (float[N,16,8,8] x) => (float[N,16,8,8] y)
    <int64[4] s1 = {32, 16, 3, 3}, int64[4] s2 = {16, 32, 3, 3}> {
      w1 = ConstantOfShape <value = float[1] {0.25}> (s1)
      w2 = ConstantOfShape <value = float[1] {-0.125}> (s2)
      h = Conv <pads = [1, 1, 1, 1]> (x, w1)
      r = Relu(h)
      y = Conv <pads = [1, 1, 1, 1]> (r, w2)
    })";
  auto kept = make(text, true);
  auto every = make(text, false);
  ASSERT_TRUE(kept && every);
  for (int round = 0; round < 3; ++round) {
    NamedInputs in = {{"x", input(1, 0.1f * static_cast<float>(round))}};
    RunResult a = run(*kept, in);
    expectSameBytes(a, run(*every, in));
    // Not s1 and s2 (int64[4] each): shape inference reads them.
    EXPECT_EQ(a.memory.keptFreedBytes, 2 * kZBytes) << "round " << round;
    // Both up front held 2 * kZBytes at once.
    EXPECT_EQ(a.memory.keptPeakBytes, kZBytes) << "round " << round;
  }
}

// ai.passlab.FusedConv (--level fused): its oneDNN convolution holds the
// packed weights and says so, also after a rebuild for another batch size; its
// 1x1 path on plain NCHW (a matmul over W in place) does not, and keeps w.
TEST(KeptValuesFreed, FusedConvHoldsPackedWeights) {
  auto model = [](const std::string& k, const std::string& shape) {
    return R"(<ir_version: 8, opset_import: ["" : 13, "ai.passlab" : 1]>
      main (float[N,16,8,8] x) => (float[N,32,8,8] y)
      <int64[4] s = )" +
           shape + R"(, float[32] b = )" + values(32, 0.5f) + R"(> {
      w = ConstantOfShape <value = float[1] {0.25}> (s)
      y = ai.passlab.FusedConv <)" +
           k + R"(, activation = "Relu"> (x, w, b)
    })";
  };
  const std::string conv3 = model("kernel_shape = [3, 3], pads = [1, 1, 1, 1]", "{32, 16, 3, 3}");
  const std::string conv1 = model("kernel_shape = [1, 1]", "{32, 16, 1, 1}");
  for (const std::string* text : {&conv3, &conv1}) {
    const bool pointwise = text == &conv1;
    const uint64_t wBytes = pointwise ? 32 * 16 * 4 : kZBytes;
    auto kept = make(*text, true);
    auto every = make(*text, false);
    ASSERT_TRUE(kept && every);
    for (int64_t n : {1, 2, 1}) {
      NamedInputs in = {{"x", input(n, 0.3f)}};
      RunResult a = run(*kept, in);
      expectSameBytes(a, run(*every, in));
      // Not s (int64[4], shape inference reads it); the bias b, read in
      // place, is kept.
      EXPECT_EQ(a.memory.keptFreedBytes, pointwise ? 0 : wBytes) << "batch " << n;
      EXPECT_EQ(a.memory.keptBytes, pointwise ? wBytes : 0) << "batch " << n;
    }
  }
}

// After the first run released what the packing Conv holds, the executor's
// model still gives shape inference what a fresh model gives it: the int64
// shape s stays (kept_values.h), so for another batch size w = ConstantOfShape(s)
// and everything after it have the dims a fresh executor infers. Without s,
// w's dims were unknown, the step threads took the Conv's work as unknown
// and ran it on every thread where a fresh executor ran it on one (under
// PASSLAB_MAX_ISA=avx2 oneDNN's gemm then differs from it by an ulp: the
// 1x1 case of FusedConvHoldsPackedWeights).
TEST(KeptValuesFreed, ShapeInitializersStayForLaterInference) {
  const std::string text = convModel("", "", "");
  auto kept = make(text, true);
  auto fresh = make(text, true);
  ASSERT_TRUE(kept && fresh);
  run(*kept, {{"x", input(1, 0.0f)}});
  ASSERT_GT(run(*kept, {{"x", input(1, 0.0f)}}).memory.keptFreedBytes, 0u);
  const NamedInputs two = {{"x", input(2, 0.0f)}};
  const memory::InputShapes reused = memory::shapesForInputs(kept->model(), kept->compiled(), two);
  const memory::InputShapes first = memory::shapesForInputs(fresh->model(), fresh->compiled(), two);
  const CompiledGraph& g = kept->compiled();
  ASSERT_EQ(reused.dims.size(), first.dims.size());
  bool sawW = false;
  for (size_t slot = 0; slot < g.slotValues.size() && slot < reused.dims.size(); ++slot) {
    const ir::Value* v = g.slotValues[slot];
    const std::string name = v != nullptr ? v->name() : "";
    EXPECT_EQ(reused.dims[slot], first.dims[slot]) << name;
    EXPECT_EQ(reused.bytes[slot], first.bytes[slot]) << name;
    if (name == "w") {
      sawW = true;
      EXPECT_EQ(reused.dims[slot], std::vector<int64_t>({32, 16, 3, 3}));
    }
  }
  EXPECT_TRUE(sawW);
}

// ---- Initializers released once their readers hold them packed ----

// x [N,16,8,8] * w [32,16,3,3], w an initializer (a model with real weights).
std::string convInitializerModel() {
  return "main (float[N,16,8,8] x) => (float[N,32,8,8] y) <float[32,16,3,3] w = " +
         values(32 * 16 * 9, 0.0625f) + "> {\n y = Conv <pads = [1, 1, 1, 1]> (x, w)\n}";
}

// The Conv packs w: the executor releases its references to w's data after
// the first run (its copy of the model's tensor too), later runs and other
// batch sizes (a rebuild from the held copy) give the bytes of an executor
// that keeps nothing; the caller's model keeps its data, and a second
// executor made from it after the first released w runs the same.
TEST(KeptValuesFreed, InitializerWeightsReleasedOnceHeld) {
  ir::Model model = testutil::parseModel(convInitializerModel());
  const std::vector<std::byte> before(
      model.graph().initializers()[0]->initializer()->bytes().begin(),
      model.graph().initializers()[0]->initializer()->bytes().end());
  ASSERT_EQ(before.size(), kZBytes);
  auto kept = Executor::create(model, {});
  ExecutorOptions noKeep;
  noKeep.keepConstantSteps = false;
  auto every = Executor::create(model, noKeep);
  ASSERT_TRUE(kept && every);
  for (int64_t n : {1, 2, 3, 1}) {
    NamedInputs in = {{"x", input(n, 0.15f)}};
    RunResult a = run(**kept, in);
    expectSameBytes(a, run(**every, in));
    EXPECT_EQ(a.memory.keptFreedBytes, kZBytes) << "batch " << n;
  }
  const ir::Tensor* w = model.graph().initializers()[0]->initializer();
  ASSERT_EQ(w->bytes().size(), before.size());
  EXPECT_EQ(std::memcmp(w->bytes().data(), before.data(), before.size()), 0);
  auto second = Executor::create(model, {});
  ASSERT_TRUE(second);
  for (int64_t n : {2, 1}) {
    NamedInputs in = {{"x", input(n, -0.2f)}};
    expectSameBytes(run(**second, in), run(**every, in));
  }
}

// Whether oneDNN's matmul for FusedGemm's problem below (`rows` x K times B
// [K, N], stored [N, K] with transB; C a bias row; Relu) takes B in a layout
// of its own, so that FusedGemm packs B and holds it (passlab_fused_gemm.cpp
// asks for the same primitive, and falls back to one without post-ops where
// oneDNN would run them on its reference matmul). oneDNN decides by its ISA:
// under PASSLAB_MAX_ISA=avx2 or sse2 it reads B [K, N] as stored.
bool oneDnnPacksB(int64_t rows, int64_t K, int64_t N, bool transB) {
  using dnnl::memory;
  const auto f32 = memory::data_type::f32;
  const memory::desc src({rows, K}, f32, memory::format_tag::ab);
  const memory::desc user({K, N}, f32, transB ? memory::format_tag::ba : memory::format_tag::ab);
  const memory::desc any({K, N}, f32, memory::format_tag::any);
  const memory::desc bias({1, N}, f32, memory::format_tag::ab);
  const memory::desc dst({rows, N}, f32, memory::format_tag::ab);
  const dnnl::matmul::desc d(src, any, bias, dst);
  dnnl::post_ops relu;
  relu.append_eltwise(1.0f, dnnl::algorithm::eltwise_relu, 0.0f, 0.0f);
  dnnl::primitive_attr attr;
  attr.set_post_ops(relu);
  dnnl::matmul::primitive_desc pd(d, attr, cpu::onednn::engine());
  if (std::string(pd.impl_info_str()).rfind("ref", 0) == 0)
    pd = dnnl::matmul::primitive_desc(d, cpu::onednn::engine());
  return pd.weights_desc() != user;
}

// ai.passlab.FusedGemm (--level fused) with B an initializer: where oneDNN
// packs B (oneDnnPacksB), its matmul holds B packed, across rebuilds for other
// row counts, and says so, and B is released; the rows 1 GEMV (transB) reads B
// as stored, so once B is released it reads B unpacked from the held copy.
// Where oneDNN reads B as stored (AVX2, SSE4.1) nothing is held and B stays.
// Outputs byte-identical to an executor that keeps nothing, and within float
// tolerance of the reference kernels, on every ISA.
TEST(KeptValuesFreed, FusedGemmInitializerReleasedOnceHeld) {
  constexpr int64_t K = 256, N = 192;
  for (bool transB : {false, true}) {
    const std::string bDims = transB ? "192,256" : "256,192";
    const std::string text = R"(<ir_version: 8, opset_import: ["" : 13, "ai.passlab" : 1]>
      main (float[R,256] a) => (float[R,192] y)
      <float[)" + bDims +
                             "] b = " + values(K * N, 0.03125f) +
                             ", float[192] c = " + values(N, 0.5f) + R"(> {
      y = ai.passlab.FusedGemm <transB = )" +
                             std::to_string(transB ? 1 : 0) +
                             R"(, activation = "Relu"> (a, b, c)
    })";
    auto kept = make(text, true);
    auto every = make(text, false);
    ExecutorOptions refOpts;
    refOpts.referenceKernels = true;
    auto ref = Executor::create(testutil::parseModel(text), refOpts);
    ASSERT_TRUE(kept && every && ref);
    // Uncapped on this CPU (AVX-512) oneDNN packs B, so the release is tested.
    if (cpu_isa::hasAvx512f()) EXPECT_TRUE(oneDnnPacksB(4, K, N, transB)) << "transB " << transB;
    bool held = false;  // whether a run so far packed B (held across rebuilds)
    for (int64_t r : {4, 1, 16, 4}) {
      const bool gemv = r == 1 && transB;
      held = held || (!gemv && oneDnnPacksB(r, K, N, transB));
      std::vector<float> v(static_cast<size_t>(r * K));
      for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>((i * 29) % 17) / 8.0f - 1.0f;
      NamedInputs in = {{"a", floats({r, K}, v)}};
      RunResult got = run(*kept, in);
      expectSameBytes(got, run(*every, in));
      RunResult want = run(**ref, in);
      const auto g = got.outputs[0].data<float>(), w = want.outputs[0].data<float>();
      testutil::expectNear(std::vector<float>(g.begin(), g.end()),
                           std::vector<float>(w.begin(), w.end()), 1e-3f);
      // b is released once packed (on AVX-512 the first run, 4 rows, packs
      // it); b read as stored stays; c, read in place, stays.
      EXPECT_EQ(got.memory.keptFreedBytes, held ? static_cast<uint64_t>(K * N * 4) : 0u)
          << "transB " << transB << ", rows " << r << ", oneDNN packs B: " << held << " ("
          << cpu_isa::isaName(cpu_isa::maxIsa()) << ")";
    }
  }
}

// B both a graph input and an initializer (IR version 3 style): the caller
// may give another B, so it is never released; a run that gives one packs
// it for that run only, and the runs around it use the held copy.
TEST(KeptValuesFreed, FusedGemmOverridableInitializerKept) {
  constexpr int64_t K = 256, N = 192;
  const std::string text = R"(<ir_version: 8, opset_import: ["" : 13, "ai.passlab" : 1]>
      main (float[R,256] a, float[256,192] b = )" +
                           values(K * N, 0.03125f) + R"() => (float[R,192] y) {
      y = ai.passlab.FusedGemm (a, b)
    })";
  auto kept = make(text, true);
  auto every = make(text, false);
  ASSERT_TRUE(kept && every);
  std::vector<float> v(static_cast<size_t>(8 * K));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i % 11) - 5.0f;
  std::vector<float> other(static_cast<size_t>(K * N), 0.25f);
  for (int round = 0; round < 2; ++round) {
    NamedInputs plain = {{"a", floats({8, K}, v)}};
    RunResult x = run(*kept, plain);
    expectSameBytes(x, run(*every, plain));
    EXPECT_EQ(x.memory.keptFreedBytes, 0u);
    NamedInputs over = {{"a", floats({8, K}, v)}, {"b", floats({K, N}, other)}};
    expectSameBytes(run(*kept, over), run(*every, over));
  }
}

// QLinearMatMul on oneDNN's int8 matmul (s8 B, zero point 0): B packed once,
// held across plans for other row counts and released; outputs
// byte-identical to an executor that keeps nothing (the same kernel path)
// and within 1 of the reference kernel, which never sees the held copy
// (oneDNN requantizes in float32, the reference in double: a near tie may
// round the other way). (Only where int8 dot products are exact does the
// oneDNN kernel run and pack.)
TEST(KeptValuesFreed, QLinearMatMulWeightsReleasedOnceHeld) {
  constexpr int64_t K = 128, N = 96;
  std::string b = "{";
  for (int64_t i = 0; i < K * N; ++i) b += (i ? ", " : "") + std::to_string((i * 37) % 255 - 127);
  b += "}";
  const std::string text = R"(<ir_version: 8, opset_import: ["" : 13]>
main (uint8[R,128] a) => (uint8[R,96] y) <int8[128,96] b = )" +
                           b + R"(, float as = {0.02}, uint8 az = {121}, float bs = {0.004},
  int8 bz = {0}, float ys = {0.3}, uint8 yz = {110}> {
  y = QLinearMatMul(a, as, az, b, bs, bz, ys, yz)
})";
  auto kept = make(text, true);
  auto every = make(text, false);
  ExecutorOptions refOpts;
  refOpts.referenceKernels = true;
  auto ref = Executor::create(testutil::parseModel(text), refOpts);
  ASSERT_TRUE(kept && every && ref);
  const uint64_t expected = cpu::qlinear::exactInt8DotProducts() ? static_cast<uint64_t>(K * N) : 0;
  for (int64_t r : {4, 1, 16, 4}) {
    std::vector<uint8_t> v(static_cast<size_t>(r * K));
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<uint8_t>((i * 53) % 256);
    ir::Tensor a(ir::DataType::kUInt8, {r, K});
    std::memcpy(a.mutableBytes().data(), v.data(), v.size());
    NamedInputs in = {{"a", a}};
    RunResult got = run(*kept, in);
    expectSameBytes(got, run(*every, in));
    RunResult want = run(**ref, in);
    ASSERT_EQ(got.outputs[0].dims(), want.outputs[0].dims());
    const uint8_t* g = got.outputs[0].data<uint8_t>().data();
    const uint8_t* w = want.outputs[0].data<uint8_t>().data();
    int64_t off = 0, distinct = 0;
    std::vector<bool> seen(256, false);
    for (int64_t i = 0; i < want.outputs[0].numel(); ++i) {
      EXPECT_LE(std::abs(int{g[i]} - int{w[i]}), 1) << "rows " << r << ", element " << i;
      off += g[i] != w[i];
      if (!seen[w[i]]) ++distinct;
      seen[w[i]] = true;
    }
    // Ties are rare: nearly every element is the reference's exactly, and the
    // outputs spread (equal saturated outputs would prove nothing).
    EXPECT_LE(off, want.outputs[0].numel() / 50) << "rows " << r;
    EXPECT_GE(distinct, 20) << "rows " << r;
    EXPECT_EQ(got.memory.keptFreedBytes, expected) << "rows " << r;
  }
}

// MatMulInteger (quantize_dynamic's transformers) on Int32MatMul: a constant
// uint8 B is flipped, packed and summed once, held across plans for other
// row counts and released; outputs equal to the reference kernel's bit for
// bit and to an executor that keeps nothing. (Only where int8 dot products
// are exact does Int32MatMul run.)
TEST(KeptValuesFreed, MatMulIntegerWeightsReleasedOnceHeld) {
  constexpr int64_t K = 128, N = 96;
  std::string b = "{";
  for (int64_t i = 0; i < K * N; ++i) b += (i ? ", " : "") + std::to_string((i * 41) % 256);
  b += "}";
  const std::string text = R"(<ir_version: 8, opset_import: ["" : 13]>
main (uint8[R,128] a) => (int32[R,96] y) <uint8[128,96] b = )" +
                           b + R"(, uint8 az = {121}, uint8 bz = {131}> {
  y = MatMulInteger(a, b, az, bz)
})";
  auto kept = make(text, true);
  auto every = make(text, false);
  ExecutorOptions refOpts;
  refOpts.referenceKernels = true;
  auto ref = Executor::create(testutil::parseModel(text), refOpts);
  ASSERT_TRUE(kept && every && ref);
  const uint64_t expected = cpu::qlinear::exactInt8DotProducts() ? static_cast<uint64_t>(K * N) : 0;
  for (int64_t r : {4, 1, 16, 4}) {
    std::vector<uint8_t> v(static_cast<size_t>(r * K));
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<uint8_t>((i * 53) % 256);
    ir::Tensor a(ir::DataType::kUInt8, {r, K});
    std::memcpy(a.mutableBytes().data(), v.data(), v.size());
    NamedInputs in = {{"a", a}};
    RunResult got = run(*kept, in);
    expectSameBytes(got, run(*every, in));
    expectSameBytes(got, run(**ref, in));
    EXPECT_EQ(got.memory.keptFreedBytes, expected) << "rows " << r;
  }
}

// ---- The direct paths after a shape change, once W was released ----

// Seeded values in [-1, 1) for `dims`.
ir::Tensor seededInput(std::vector<int64_t> dims, uint32_t seed) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  std::vector<float> v(static_cast<size_t>(n));
  uint32_t s = seed * 2654435761u + 1;
  for (float& x : v) {
    s = s * 1664525u + 1013904223u;
    x = static_cast<float>(s >> 8) / static_cast<float>(1u << 23) - 1.0f;
  }
  return floats(std::move(dims), v);
}

// A Conv whose first input shape runs on oneDNN (which holds W packed, so the
// executor releases the initializer) and whose second runs a direct kernel
// that reads W as stored (GEMV, few outputs, depthwise 3x3): the reused
// executor takes the direct kernel as a fresh one does (no oneDNN
// convolution in that run, W unpacked from the held copy), with the same
// bytes; back at the first shape the same bytes again.
TEST(KeptValuesFreed, DirectConvPathsAfterAShapeChangeAsOnAFreshExecutor) {
  if (!cpu_isa::hasAvx512f()) GTEST_SKIP() << "the few-outputs loop needs AVX-512";
  struct Case {
    const char* what;
    int64_t C, M, group, k, pad;
    int64_t oneDnnSide, directSide;  // H = W of X on oneDNN, then on the direct kernel
  };
  const Case cases[] = {
      {"GEMV: 1x1 on a 1x1 input", 16, 32, 1, 1, 0, 8, 1},
      {"few outputs: 8 outputs, 32x32", 16, 8, 1, 3, 1, 16, 32},
      {"depthwise 3x3, 24 channels, 14-wide rows", 24, 24, 24, 3, 1, 7, 14},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    const int64_t wCount = c.M * (c.C / c.group) * c.k * c.k;
    const std::string p = std::to_string(c.pad);
    const std::string text = "main (float[1," + std::to_string(c.C) + ",H,W] x) => (float[1," +
                             std::to_string(c.M) + ",H,W] y) <float[" + std::to_string(c.M) + "," +
                             std::to_string(c.C / c.group) + "," + std::to_string(c.k) + "," +
                             std::to_string(c.k) +
                             "] w = " + keptvalues::reals(wCount, -0.5f, 0.5f, 5) +
                             "> {\n y = Conv <group = " + std::to_string(c.group) + ", pads = [" +
                             p + ", " + p + ", " + p + ", " + p + "]> (x, w)\n}";
    const auto in = [&](int64_t side) {
      return NamedInputs{{"x", seededInput({1, c.C, side, side}, static_cast<uint32_t>(side))}};
    };
    auto reused = make(text, true);
    ASSERT_TRUE(reused);
    RunResult first = run(*reused, in(c.oneDnnSide));
    ASSERT_EQ(first.memory.keptFreedBytes, static_cast<uint64_t>(wCount * 4))
        << "oneDNN did not hold W on the first shape";
    RunResult direct;
    std::vector<std::string> execs =
        testutil::onednnExecs([&] { direct = run(*reused, in(c.directSide)); });
    for (const std::string& l : execs)
      EXPECT_EQ(l.find(",convolution,"), std::string::npos) << "oneDNN ran it: " << l;
    auto fresh = make(text, true);
    ASSERT_TRUE(fresh);
    expectSameBytes(direct, run(*fresh, in(c.directSide)));
    expectSameBytes(run(*reused, in(c.oneDnnSide)), first);
  }
}

// A Gemm and a FusedGemm with B stored [N, K] (transB), an initializer: four
// rows run oneDNN's matmul (which holds B packed, so the executor releases
// it), then one row runs the GEMV over B as stored, as on a fresh executor
// (no oneDNN matmul in that run, B unpacked once from the held copy), with the
// same bytes; back at four rows the same bytes again, and again at one row
// (the unpacked copy kept, no reorder).
TEST(KeptValuesFreed, DirectGemmPathsAfterAShapeChangeAsOnAFreshExecutor) {
  constexpr int64_t K = 256, N = 192;
  for (const char* op : {"Gemm", "ai.passlab.FusedGemm"}) {
    SCOPED_TRACE(op);
    const std::string text = R"(<ir_version: 8, opset_import: ["" : 13, "ai.passlab" : 1]>
      main (float[R,256] a) => (float[R,192] y)
      <float[192,256] b = )" +
                             keptvalues::reals(K * N, -0.5f, 0.5f, 7) +
                             ", float[192] c = " + keptvalues::reals(N, -1.0f, 1.0f, 8) + R"(> {
      y = )" + op + R"( <transB = 1> (a, b, c)
    })";
    const auto in = [&](int64_t rows) {
      return NamedInputs{{"a", seededInput({rows, K}, static_cast<uint32_t>(rows))}};
    };
    auto reused = make(text, true);
    ASSERT_TRUE(reused);
    RunResult first = run(*reused, in(4));
    ASSERT_EQ(first.memory.keptFreedBytes, static_cast<uint64_t>(K * N * 4))
        << "oneDNN did not hold B on four rows";
    RunResult direct;
    std::vector<std::string> execs = testutil::onednnExecs([&] { direct = run(*reused, in(1)); });
    for (const std::string& l : execs)
      EXPECT_EQ(l.find(",matmul,"), std::string::npos) << "oneDNN ran it: " << l;
    auto fresh = make(text, true);
    ASSERT_TRUE(fresh);
    expectSameBytes(direct, run(*fresh, in(1)));
    expectSameBytes(run(*reused, in(4)), first);
    RunResult again;
    execs = testutil::onednnExecs([&] { again = run(*reused, in(1)); });
    EXPECT_TRUE(execs.empty()) << "the second one-row run ran " << execs.front();
    expectSameBytes(again, direct);
  }
}

// ai.passlab.FusedConv (--level fused): W an initializer, its oneDNN
// convolution on the first shape holds it packed (the executor releases it),
// then a shape that takes a direct path (or the 1x1 matmul) reads W unpacked
// once from the held copy: no oneDNN convolution, the bytes of a fresh
// executor; back on the first shape the same bytes; a second run on the
// direct shape runs no reorder (the unpacked copy kept) and no convolution.
TEST(KeptValuesFreed, DirectFusedConvPathsAfterAShapeChangeAsOnAFreshExecutor) {
  if (!cpu_isa::hasAvx512f()) GTEST_SKIP() << "the few-outputs loop needs AVX-512";
  struct Case {
    const char* what;
    int64_t C, M, group, k, pad, block;
    int64_t oneDnnSide, directSide;  // H = W of X on oneDNN, then on the direct path
  };
  const Case cases[] = {
      {"GEMV: 1x1 on a 1x1 input", 16, 32, 1, 1, 0, 0, 4, 1},
      {"matmul: 1x1 on 16x16", 16, 32, 1, 1, 0, 0, 4, 16},
      {"depthwise 3x3, 24 channels, 14-wide rows", 24, 24, 24, 3, 1, 0, 7, 14},
      {"blocked GEMV: 1x1 on a 1x1 input", 16, 32, 1, 1, 0, 16, 4, 1},
      {"blocked few outputs: 8 outputs, 32x32", 16, 8, 1, 3, 1, 16, 16, 32},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    const int64_t wCount = c.M * (c.C / c.group) * c.k * c.k;
    const std::string p = std::to_string(c.pad), k = std::to_string(c.k);
    const std::string yDims = c.block ? "1," + std::to_string((c.M + c.block - 1) / c.block) +
                                            ",H,W," + std::to_string(c.block)
                                      : "1," + std::to_string(c.M) + ",H,W";
    const std::string text =
        R"(<ir_version: 8, opset_import: ["" : 13, "ai.passlab" : 1]>
      main (float[1,)" +
        std::to_string(c.C) + ",H,W] x) => (float[" + yDims + "] y) <float[" + std::to_string(c.M) +
        "," + std::to_string(c.C / c.group) + "," + k + "," + k +
        "] w = " + keptvalues::reals(wCount, -0.5f, 0.5f, 5) + ", float[" + std::to_string(c.M) +
        "] b = " + keptvalues::reals(c.M, -1.0f, 1.0f, 6) +
        "> {\n y = ai.passlab.FusedConv <kernel_shape = [" + k + ", " + k +
        "], group = " + std::to_string(c.group) + ", pads = [" + p + ", " + p + ", " + p + ", " +
        p + "], activation = \"Relu\"" +
        (c.block ? ", block = " + std::to_string(c.block) : std::string()) + "> (x, w, b)\n}";
    const auto in = [&](int64_t side) {
      return NamedInputs{{"x", seededInput({1, c.C, side, side}, static_cast<uint32_t>(side))}};
    };
    auto reused = make(text, true);
    ASSERT_TRUE(reused);
    RunResult first = run(*reused, in(c.oneDnnSide));
    ASSERT_EQ(first.memory.keptFreedBytes, static_cast<uint64_t>(wCount * 4))
        << "oneDNN did not hold W on the first shape";
    RunResult direct;
    std::vector<std::string> execs =
        testutil::onednnExecs([&] { direct = run(*reused, in(c.directSide)); });
    for (const std::string& l : execs)
      EXPECT_EQ(l.find(",convolution,"), std::string::npos) << "oneDNN ran it: " << l;
    auto fresh = make(text, true);
    ASSERT_TRUE(fresh);
    expectSameBytes(direct, run(*fresh, in(c.directSide)));
    expectSameBytes(run(*reused, in(c.oneDnnSide)), first);
    RunResult again;
    execs = testutil::onednnExecs([&] { again = run(*reused, in(c.directSide)); });
    for (const std::string& l : execs) {
      EXPECT_EQ(l.find(",convolution,"), std::string::npos) << "oneDNN ran it: " << l;
      EXPECT_EQ(l.find(",reorder,"), std::string::npos) << "W unpacked again: " << l;
    }
    expectSameBytes(again, direct);
  }
}

// A blocked 3x3 64 -> 32 on 108 x 108 takes oneDNN's Winograd kernel on one
// thread (blockedConvWinograd), whose weight layout oneDNN cannot reorder out
// of; W is freed after the first run. Plans for 2 threads (the direct kernel)
// and for 1 thread again take the held weights through the plain copy
// (ConvPrimitive::plainWei, 81f7a40): every one-thread run gives the first
// run's bytes, every two-thread one its values within rounding.
TEST(KeptValuesFreed, WinogradFusedConvAcrossThreadCountsKeepsItsWeights) {
  if (!testutil::onednnRunsAvx512() || !cpu_isa::hasAvx512f())
    GTEST_SKIP() << "Winograd is taken with AVX-512 only";
  const int64_t C = 64, M = 32, side = 108, wCount = M * C * 9;
  const std::string text = R"(<ir_version: 8, opset_import: ["" : 13, "ai.passlab" : 1]>
      main (float[1,64,108,108] x) => (float[1,2,108,108,16] y) <float[32,64,3,3] w = )" +
                           keptvalues::reals(wCount, -0.1f, 0.1f, 7) +
                           ", float[32] b = " + keptvalues::reals(M, -1.0f, 1.0f, 8) + R"(> {
        xb = ai.passlab.ReorderToBlocked <block = 16> (x)
        y = ai.passlab.FusedConv <kernel_shape = [3, 3], pads = [1, 1, 1, 1], activation = "Relu", block = 16> (xb, w, b)
      })";
  const NamedInputs in{{"x", seededInput({1, C, side, side}, 9)}};
  auto ex = make(text, true);
  ASSERT_TRUE(ex);
  const auto runOn = [&](int threads, std::string* conv) {
    RunOptions options;
    options.threads = threads;
    Expected<RunResult> r = RunResult{};
    for (const std::string& l : testutil::onednnExecs([&] { r = ex->run(in, options); }))
      if (l.find(",convolution,") != std::string::npos) *conv = l;
    EXPECT_TRUE(r) << threads << " threads: " << (r ? "" : r.error().message());
    return r ? std::move(r).value() : RunResult{};
  };
  std::string conv;
  const RunResult first = runOn(1, &conv);
  ASSERT_EQ(first.memory.keptFreedBytes, static_cast<uint64_t>(wCount * 4))
      << "oneDNN did not hold W";
  EXPECT_NE(conv.find(",jit_wino_4x3:"), std::string::npos) << conv;
  bool direct = false;
  for (int threads : {2, 1, 2, 1, 2, 1}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    conv.clear();
    const RunResult r = runOn(threads, &conv);
    ASSERT_EQ(r.outputs.size(), 1u);
    direct = direct || conv.find(",jit:") != std::string::npos;
    if (threads == 1) {
      EXPECT_NE(conv.find(",jit_wino_4x3:"), std::string::npos) << conv;
      expectSameBytes(r, first);
    } else {
      const float* a = r.outputs[0].data<float>().data();
      const float* b = first.outputs[0].data<float>().data();
      double worst = 0;
      for (int64_t i = 0; i < r.outputs[0].numel(); ++i)
        worst = std::max(worst, static_cast<double>(std::abs(a[i] - b[i])));
      EXPECT_LT(worst, 2e-4);
    }
  }
  EXPECT_TRUE(direct) << "no run took the direct kernel on 2 threads: nothing was inherited";
}

}  // namespace
}  // namespace passlab::exec
