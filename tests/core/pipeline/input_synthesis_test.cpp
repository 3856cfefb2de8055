// Input synthesis: dims that sliding windows accept, indices in range for the
// table they index, masks 0/1, scalars compared with a constant, unnamed '?'
// dims independent, a --dim too small for a window refused by name, and a
// reason for every choice.
#include <gtest/gtest.h>

#include "core/exec/executor.h"
#include "core/ir/graph.h"
#include "core/pipeline/input_synthesis.h"
#include "tests/support/test_support.h"

namespace passlab::pipeline {
namespace {

using testing::parse;

const InputPlan* find(const std::vector<InputPlan>& plan, const std::string& name) {
  for (const InputPlan& p : plan)
    if (p.name == name) return &p;
  return nullptr;
}

Status runsWith(const ir::Model& m, const InputSpec& spec) {
  auto inputs = makeInputs(m, spec);
  if (!inputs) return inputs.error();
  auto ex = exec::Executor::create(m);
  if (!ex) return ex.error();
  auto r = (*ex)->run(*inputs);
  if (!r) return r.error();
  return Status::ok();
}

// A 3x3 Conv, then a 3x3 Conv with stride 2, on dynamic H and W.
const char* kConvChain = R"(main (float[N,1,H,W] x) => (float[?,?,?,?] y)
    <float[1,1,3,3] w = {1, 2, 3, 4, 5, 6, 7, 8, 9}> {
      a = Conv <kernel_shape = [3, 3]> (x, w)
      r = Relu(a)
      y = Conv <kernel_shape = [3, 3], strides = [2, 2]> (r, w) })";

TEST(InputSynthesis, ConvWithDynamicSpatialDimsRunsWithNoInputGiven) {
  ir::Model m = parse(kConvChain);
  // What the old default (every dynamic dim 1) gave: a 1x1 image no 3x3 window fits.
  InputSpec ones;
  ones.dims = {{"N", 1}, {"H", 1}, {"W", 1}};
  EXPECT_FALSE(planInputs(m, ones)) << "a 1x1 image passed a 3x3 window";

  auto plan = planInputs(m, {});
  ASSERT_TRUE(plan) << plan.error().message();
  const InputPlan* x = find(*plan, "x");
  ASSERT_NE(x, nullptr);
  // Second Conv needs 3; the first, 3 + 2 = 5 before it; stride 2 rounds up to 6.
  EXPECT_EQ(x->shape(), (std::vector<int64_t>{1, 1, 6, 6}));
  Status st = runsWith(m, {});
  EXPECT_TRUE(st) << st.message();
}

TEST(InputSynthesis, EveryChoiceHasItsReason) {
  ir::Model m = parse(kConvChain);
  auto plan = planInputs(m, {});
  ASSERT_TRUE(plan) << plan.error().message();
  std::string d = plan->front().describe().str();
  EXPECT_NE(d.find("dim 0 = 1 (batch dim"), std::string::npos) << d;
  EXPECT_NE(d.find("dim 2 = 6 (smallest size Conv"), std::string::npos) << d;
  EXPECT_NE(d.find("kernel 3"), std::string::npos) << d;
  EXPECT_NE(d.find("stride 2"), std::string::npos) << d;
  EXPECT_NE(d.find("uniform in [-1, 1)"), std::string::npos) << d;
}

TEST(InputSynthesis, UserDimTooSmallForAWindowIsRefusedByName) {
  ir::Model m = parse(R"(main (float[1,1,H,W] x) => (float[?,?,?,?] y)
    <float[1,1,3,3] w = {1, 2, 3, 4, 5, 6, 7, 8, 9}> {
      y = Conv <kernel_shape = [3, 3], pads = [0, 0, 0, 0]> (x, w) })");
  InputSpec spec;
  spec.dims = {{"H", 2}, {"W", 8}};
  auto plan = planInputs(m, spec);
  ASSERT_FALSE(plan);
  const std::string& e = plan.error().message();
  EXPECT_NE(e.find("input 'x'"), std::string::npos) << e;
  EXPECT_NE(e.find("(H) = 2"), std::string::npos) << e;
  EXPECT_NE(e.find("Conv '"), std::string::npos) << e;
  EXPECT_NE(e.find("kernel 3"), std::string::npos) << e;
  EXPECT_NE(e.find("at least 3"), std::string::npos) << e;
  // A size the window accepts is taken as given.
  spec.dims["H"] = 3;
  auto ok = planInputs(m, spec);
  ASSERT_TRUE(ok) << ok.error().message();
  EXPECT_EQ(ok->front().shape(), (std::vector<int64_t>{1, 1, 3, 8}));
}

TEST(InputSynthesis, PaddingAndPoolingLowerTheMinimum) {
  ir::Model m = parse(R"(main (float[1,2,H,W] x) => (float[?,?,?,?] y) {
      y = MaxPool <kernel_shape = [5, 3], pads = [1, 1, 1, 1]> (x) })");
  auto plan = planInputs(m, {});
  ASSERT_TRUE(plan) << plan.error().message();
  EXPECT_EQ(plan->front().shape(), (std::vector<int64_t>{1, 2, 3, 1}));
  Status st = runsWith(m, {});
  EXPECT_TRUE(st) << st.message();
}

// A waveform [B, T] as voice-activity detectors take it: inside an If branch,
// reshaped to [B, 1, T] by a shape built from Shape(x), padded by 5 + 5, a
// 16-wide Conv with stride 4, a mean over channels, then a 3-wide Conv. The
// walk follows T there: (3 - 1) * 4 + 16 - 10 = 14, rounded up to stride 4.
const char* kWaveform = R"(main (float[B,T] x, bool[] c) => (float[?,?,?] y)
    <int64[1] zero = {0}, int64[1] one = {1}, int64[] i0 = {0}, int64[] i1 = {1},
     int64[6] pads = {0, 0, 5, 0, 0, 5}, float[2,1,16] w = {-2, -1, 0, 1, 2, -2, -1, 0, 1, 2, -2, -1, 0, 1, 2, -2, -1, 0, 1, 2, -2, -1, 0, 1, 2, -2, -1, 0, 1, 2, -2, -1},
     float[1,1,3] v = {1, 2, 1}> {
      y = If <then_branch = g1 () => (float[?,?,?] t) {
                s = Shape(x)
                b = Gather(s, i0)
                n = Gather(s, i1)
                bb = Unsqueeze(b, zero)
                nn = Unsqueeze(n, zero)
                shape = Concat <axis = 0> (bb, one, nn)
                r = Reshape(x, shape)
                p = Pad <mode = "reflect"> (r, pads)
                f = Conv <kernel_shape = [16], strides = [4]> (p, w)
                m = ReduceMean <axes = [1]> (f)
                t = Conv <kernel_shape = [3]> (m, v) },
              else_branch = g2 () => (float[?,?,?] e) {
                e2 = Unsqueeze(x, one)
                e = Identity(e2) }> (c) })";

TEST(InputSynthesis, WindowWalkFollowsAnAxisThroughReshapeAndIntoIfBranches) {
  ir::Model m = parse(kWaveform);
  auto plan = planInputs(m, {});
  ASSERT_TRUE(plan) << plan.error().message();
  const InputPlan* x = find(*plan, "x");
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(x->shape(), (std::vector<int64_t>{1, 16})) << x->describe();
  const std::string d = x->describe().str();
  EXPECT_NE(d.find("Conv '"), std::string::npos) << d;
  EXPECT_NE(d.find("less the 5+5 of Pad"), std::string::npos) << d;
  InputSpec spec;  // c is random: both branches run on what the walk chose
  Status st = runsWith(m, spec);
  EXPECT_TRUE(st) << st.message();
  // 13 is one short of what the two Convs need: refused by name.
  spec.dims = {{"T", 13}};
  auto refused = planInputs(m, spec);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message().find("(T) = 13 is too small for Conv"), std::string::npos)
      << refused.error().message();
  spec.dims = {{"T", 14}};
  st = runsWith(m, spec);
  EXPECT_TRUE(st) << st.message();
}

TEST(InputSynthesis, EmbeddingIndicesStayBelowTheRowCount) {
  // Three rows: the old default [0, 4) would index row 3 among 64 ids.
  ir::Model g = parse(R"(main (int64[64] ids, int64[8] pos) => (float[64,2] y, float[3,8] z)
    <float[3,2] table = {1, 2, 3, 4, 5, 6}> {
      y = Gather(table, ids)
      z = Gather <axis = 1> (table, pos) })");
  auto plan = planInputs(g, {});
  ASSERT_TRUE(plan) << plan.error().message();
  const InputPlan* ids = find(*plan, "ids");
  const InputPlan* pos = find(*plan, "pos");
  ASSERT_TRUE(ids && pos);
  EXPECT_EQ(ids->lo, 0);
  EXPECT_EQ(ids->hi, 3);
  EXPECT_EQ(pos->hi, 2) << "axis 1 of a [3,2] table has 2 entries";
  EXPECT_NE(ids->describe().str().find("3 rows"), std::string::npos) << ids->describe();
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    InputSpec spec;
    spec.seed = seed;
    auto in = makeInputs(g, spec);
    ASSERT_TRUE(in) << in.error().message();
    ir::Tensor t = (*in)[0].second.tensor().toIr();
    for (int64_t v : t.toInt64Vector()) {
      EXPECT_GE(v, 0);
      EXPECT_LT(v, 3);
    }
    Status st = runsWith(g, spec);
    EXPECT_TRUE(st) << st.message();
  }
}

TEST(InputSynthesis, MasksAreZeroOrOneAndEqualScalarsTakeTheConstant) {
  ir::Model m =
      parse(R"(main (int64[16] attention_mask, int64[] sr, float[4] x) => (int64[16] y, bool e)
    <int64 k8 = {8000}, int64 k16 = {16000}> {
      y = Neg(attention_mask)
      e8 = Equal(sr, k8)
      e16 = Equal(sr, k16)
      e = Or(e8, e16) })");
  auto plan = planInputs(m, {});
  ASSERT_TRUE(plan) << plan.error().message();
  const InputPlan* mask = find(*plan, "attention_mask");
  const InputPlan* sr = find(*plan, "sr");
  ASSERT_TRUE(mask && sr);
  EXPECT_EQ(mask->hi, 2);
  ASSERT_TRUE(sr->constant);
  EXPECT_EQ(*sr->constant, 16000);
  EXPECT_NE(sr->describe().str().find("Equal with 8000, 16000"), std::string::npos)
      << sr->describe();
  auto in = makeInputs(m, {});
  ASSERT_TRUE(in) << in.error().message();
  EXPECT_EQ((*in)[1].second.tensor().toIr().toInt64Vector(), (std::vector<int64_t>{16000}));
}

TEST(InputSynthesis, DimUnifiedWithAConstantOperand) {
  ir::Model m = parse(R"(main (float[B,K] x) => (float[?,2] y)
    <float[3,2] w = {1, 2, 3, 4, 5, 6}> {
      y = MatMul(x, w) })");
  auto plan = planInputs(m, {});
  ASSERT_TRUE(plan) << plan.error().message();
  EXPECT_EQ(plan->front().shape(), (std::vector<int64_t>{1, 3}));
  EXPECT_NE(plan->front().describe().str().find("unified with the weight's rows of MatMul"),
            std::string::npos)
      << plan->front().describe();
  Status st = runsWith(m, {});
  EXPECT_TRUE(st) << st.message();
}

TEST(InputSynthesis, UnnamedQuestionMarkDimsAreIndependent) {
  // Exporters write an unnamed dynamic dim as dim_param "?": a [1,3,640,480]
  // image is one, not a clash between "? = 640" and "? = 480".
  ir::Model m = parse(R"(main (float["?",3,"?","?"] x) => (float["?",3,"?","?"] y) {
      y = Relu(x) })");
  ASSERT_TRUE(m.graph().inputs()[0]->type().shape()->dims()[0].isSymbolic());
  auto ex = exec::Executor::create(m);
  ASSERT_TRUE(ex) << ex.error().message();
  exec::NamedInputs in;
  in.emplace_back("x", exec::Value(ir::Tensor(ir::DataType::kFloat, {1, 3, 640, 480})));
  auto r = (*ex)->run(in);
  EXPECT_TRUE(r) << r.error().message();
  // A named symbol still binds: two different values for N are refused.
  ir::Model named = parse(R"(main (float[N] a, float[N] b) => (float[N] y) { y = Add(a, b) })");
  auto ex2 = exec::Executor::create(named);
  ASSERT_TRUE(ex2) << ex2.error().message();
  exec::NamedInputs bad;
  bad.emplace_back("a", exec::Value(ir::Tensor(ir::DataType::kFloat, {2})));
  bad.emplace_back("b", exec::Value(ir::Tensor(ir::DataType::kFloat, {3})));
  EXPECT_FALSE((*ex2)->run(bad));
}

TEST(InputSynthesis, ScalarValueForAnInput) {
  ir::Model m = parse(R"(main (int64[] beams, float[N,2] x) => (float[N,2] y) { y = Relu(x) })");
  auto t = parseInputValues(m, "beams", "4", {});
  ASSERT_TRUE(t) << t.error().message();
  EXPECT_EQ(t->rank(), 0u);
  EXPECT_EQ(t->toInt64Vector(), (std::vector<int64_t>{4}));
  InputSpec spec;
  spec.dims = {{"N", 2}};
  auto x = parseInputValues(m, "x", "1,2,3,4", spec);
  ASSERT_TRUE(x) << x.error().message();
  EXPECT_EQ(x->dims(), (std::vector<int64_t>{2, 2}));
  EXPECT_FALSE(parseInputValues(m, "x", "1,2,3", spec));
  EXPECT_FALSE(parseInputValues(m, "nope", "1", spec));
}

// An 8-bit chain as convert_int8_to_channels_last leaves it: Transpose to
// NHWC, com.microsoft QLinearConv with channels_last = 1 (3x3, stride 2),
// NhwcMaxPool (2x2), Transpose back. The walk follows H and W through the
// Transposes to the NHWC windows: the pool needs 2, the conv (2 - 1) * 2 + 3
// = 5 before it, rounded up to the stride: 6.
const char* kChannelsLastInt8 = R"(<ir_version: 9, opset_import: ["" : 19, "com.microsoft" : 1]>
main (float[1,2,H,W] x) => (float[?,?,?,?] y)
    <float[] s = {0.1}, uint8[] z = {128}, float[] ws = {0.05}, int8[] wz = {0},
     int8[2,2,3,3] w = {-2, 0, 2, -1, 1, -2, 0, 2, -1, 1, -2, 0, 2, -1, 1, -2, 0, 2, -1, 1, -2, 0, 2, -1, 1, -2, 0, 2, -1, 1, -2, 0, 2, -1, 1, -2}> {
      q = QuantizeLinear(x, s, z)
      t = Transpose <perm = [0, 2, 3, 1]> (q)
      c = com.microsoft.QLinearConv <channels_last = 1, kernel_shape = [3, 3], strides = [2, 2]> (t, s, z, w, ws, wz, s, z)
      p = com.microsoft.NhwcMaxPool <kernel_shape = [2, 2]> (c)
      b = Transpose <perm = [0, 3, 1, 2]> (p)
      y = DequantizeLinear(b, s, z) })";

TEST(InputSynthesis, ChannelsLastContribWindowsThroughTransposes) {
  ir::Model m = parse(kChannelsLastInt8);
  auto plan = planInputs(m, {});
  ASSERT_TRUE(plan) << plan.error().message();
  const InputPlan* x = find(*plan, "x");
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(x->shape(), (std::vector<int64_t>{1, 2, 6, 6})) << x->describe();
  const std::string d = x->describe().str();
  EXPECT_NE(d.find("QLinearConv 'c'"), std::string::npos) << d;
  Status st = runsWith(m, {});
  EXPECT_TRUE(st) << st.message();
  // W = 4 gives the pool a 1-wide image: refused by name before running.
  InputSpec spec;
  spec.dims = {{"W", 4}};
  auto refused = planInputs(m, spec);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message().find("(W) = 4 is too small for QLinearConv 'c'"),
            std::string::npos)
      << refused.error().message();
}

// kConvChain as the fused level writes it: ai.passlab FusedConv, then a
// FusedElementwise between them (the walk goes through both).
const char* kFusedChain = R"(<ir_version: 9, opset_import: ["" : 19, "ai.passlab" : 1]>
main (float[N,1,H,W] x) => (float[?,?,?,?] y)
    <float[1,1,3,3] w = {1, 2, 3, 4, 5, 6, 7, 8, 9}> {
      a = ai.passlab.FusedConv <activation = "Relu", kernel_shape = [3, 3]> (x, w)
      r = ai.passlab.FusedElementwise <ops = ["Sigmoid"], operands = [0, -1, -1]> (a)
      y = ai.passlab.FusedConv <kernel_shape = [3, 3], strides = [2, 2]> (r, w) })";

TEST(InputSynthesis, FusedWindowsOfTheFusedLevel) {
  ir::Model m = parse(kFusedChain);
  auto plan = planInputs(m, {});
  ASSERT_TRUE(plan) << plan.error().message();
  const InputPlan* x = find(*plan, "x");
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(x->shape(), (std::vector<int64_t>{1, 1, 6, 6})) << x->describe();
  Status st = runsWith(m, {});
  EXPECT_TRUE(st) << st.message();
}

// The fused level's Split of a Conv's output along the channels (for the
// Slices it replaced): the walk goes through it to the Conv after it. Before,
// silero_vad_v4's fused file got a sequence of 64 against 512 for the plain
// one, too short for a Conv in its If.
const char* kSplitBetween = R"(<ir_version: 9, opset_import: ["" : 18]>
main (float[N,1,T] x) => (float[?,?,?] y)
    <float[2,1,4] w1 = {1, 2, 3, 4, 5, 6, 7, 8}, float[1,1,5] w2 = {1, 1, 1, 1, 1},
     int64[2] parts = {1, 1}> {
      a = Conv <kernel_shape = [4], strides = [2]> (x, w1)
      l, r = Split <axis = 1> (a, parts)
      s = Add(l, r)
      y = Conv <kernel_shape = [5]> (s, w2) })";

TEST(InputSynthesis, WindowWalkGoesThroughASplitOfOtherAxes) {
  ir::Model m = parse(kSplitBetween);
  auto plan = planInputs(m, {});
  ASSERT_TRUE(plan) << plan.error().message();
  const InputPlan* x = find(*plan, "x");
  ASSERT_NE(x, nullptr);
  // The second Conv needs 5; the first (kernel 4, stride 2) 4 + 4 * 2 = 12.
  EXPECT_EQ(x->shape(), (std::vector<int64_t>{1, 1, 12})) << x->describe();
  EXPECT_NE(x->describe().str().find("with 5 out for the ops after it"), std::string::npos)
      << x->describe();
  Status st = runsWith(m, {});
  EXPECT_TRUE(st) << st.message();
  // Split along the axis itself: no constraint through it (the first Conv's 4).
  std::string text = kSplitBetween;
  text.replace(text.find("axis = 1"), 8, "axis = 2");
  text.replace(text.find("int64[2] parts = {1, 1}"), 23, "int64[2] parts = {1, 0}");
  ir::Model alongT = parse(text);
  auto along = planInputs(alongT, {});
  ASSERT_TRUE(along) << along.error().message();
  EXPECT_EQ(find(*along, "x")->shape(), (std::vector<int64_t>{1, 1, 4}))
      << find(*along, "x")->describe();
}

}  // namespace
}  // namespace passlab::pipeline
