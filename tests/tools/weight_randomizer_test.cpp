// randomize_weights (tests/tools/weight_randomizer.h, #26): fills replaced
// with the shapes kept, the same weights for the same seed, outputs that
// depend on the input afterwards (they do not on the fills), finite and not
// saturated through a deep residual model with BatchNormalization, and a
// planted channel swap that changes the outputs of the randomized model where
// it changes nothing in the original.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/exec/executor.h"
#include "core/exec/input_fill.h"
#include "core/io/model_io.h"
#include "core/io/text_format.h"
#include "core/ir/verifier.h"
#include "tests/tools/weight_randomizer.h"

namespace passlab::testtools {
namespace {

// The onnx_light_* pattern: every weight a ConstantOfShape of 0.02. `blocks`
// residual blocks x + Relu(BN(Conv(x))) on 8 channels, then
// GlobalAveragePool, a Gemm to 10 classes and Softmax.
std::string lightModel(int blocks) {
  std::string t =
      "<ir_version: 8, opset_import: [\"\" : 13]>\n"
      "main (float[1,3,8,8] data) => (float[1,10] prob)\n"
      "<int64[4] sw0 = {8, 3, 3, 3}, int64[4] sw = {8, 8, 3, 3}, int64[1] sc = {8},"
      " int64[2] sfc = {10, 8}, int64[1] sfb = {10}>\n{\n"
      "  w0 = ConstantOfShape <value = float[1] {0.02}> (sw0)\n"
      "  b0 = ConstantOfShape <value = float[1] {0.02}> (sc)\n"
      "  x0 = Conv <pads = [1, 1, 1, 1]> (data, w0, b0)\n";
  for (int i = 0; i < blocks; ++i) {
    const std::string s = std::to_string(i), n = std::to_string(i + 1);
    t += "  w" + n + " = ConstantOfShape <value = float[1] {0.02}> (sw)\n";
    for (const char* p : {"g", "be", "m", "v"})
      t += "  " + std::string(p) + s + " = ConstantOfShape <value = float[1] {0.02}> (sc)\n";
    t += "  c" + s + " = Conv <pads = [1, 1, 1, 1]> (x" + s + ", w" + n + ")\n";
    t += "  n" + s + " = BatchNormalization (c" + s + ", g" + s + ", be" + s + ", m" + s + ", v" +
         s + ")\n";
    t += "  r" + s + " = Relu (n" + s + ")\n";
    t += "  x" + n + " = Add (x" + s + ", r" + s + ")\n";
  }
  const std::string last = "x" + std::to_string(blocks);
  t += "  p = GlobalAveragePool (" + last +
       ")\n"
       "  f = Flatten (p)\n"
       "  wf = ConstantOfShape <value = float[1] {0.02}> (sfc)\n"
       "  bf = ConstantOfShape <value = float[1] {0.02}> (sfb)\n"
       "  l = Gemm <transB = 1> (f, wf, bf)\n"
       "  prob = Softmax (l)\n}\n";
  return t;
}

ir::Model parse(const std::string& text) {
  auto m = io::parseModelText(text);
  EXPECT_TRUE(m.isOk()) << (m.isOk() ? "" : m.error().message());
  return std::move(*m);
}

size_t countOp(const ir::Model& m, const std::string& op) {
  size_t n = 0;
  for (const auto& node : m.graph().nodes()) n += node->opType() == op ? 1 : 0;
  return n;
}

// The model's only output on seeded random inputs (uniform in [-1, 1)).
std::vector<float> runOn(const ir::Model& model, uint64_t seed) {
  auto executor = exec::Executor::create(model);
  EXPECT_TRUE(executor.isOk()) << (executor.isOk() ? "" : executor.error().message());
  if (!executor.isOk()) return {};
  exec::NamedInputs inputs;
  exec::FillOptions fill;
  fill.seed = seed;
  for (const exec::InputInfo& info : (*executor)->inputs()) {
    if (info.optional) continue;
    auto t = exec::makeInput(info, fill);
    EXPECT_TRUE(t.isOk());
    inputs.emplace_back(info.name, exec::Value(*t));
  }
  auto result = (*executor)->run(inputs);
  EXPECT_TRUE(result.isOk()) << (result.isOk() ? "" : result.error().message());
  if (!result.isOk() || result->outputs.empty()) return {};
  auto data = result->outputs[0].data<float>();
  return {data.begin(), data.end()};
}

double maxAbsDiff(const std::vector<float>& a, const std::vector<float>& b) {
  EXPECT_EQ(a.size(), b.size());
  double d = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i)
    d = std::max(d, std::fabs(static_cast<double>(a[i]) - b[i]));
  return d;
}

std::string bytesOf(const ir::Model& m) {
  auto s = io::serializeModel(m);
  EXPECT_TRUE(s.isOk());
  return s.isOk() ? *s : std::string();
}

TEST(WeightRandomizer, FillsBecomeInitializersOfTheSameShape) {
  ir::Model m = parse(lightModel(2));
  const size_t fills = countOp(m, "ConstantOfShape");
  ASSERT_EQ(fills, 2u + 2u * 5u + 2u);
  auto report = randomizeWeights(m, {});
  ASSERT_TRUE(report.isOk()) << report.error().message();
  EXPECT_EQ(report->fillsReplaced, fills);
  EXPECT_EQ(countOp(m, "ConstantOfShape"), 0u);
  EXPECT_TRUE(ir::verifyModelStatus(m).isOk());
  const ir::Graph& g = m.graph();
  struct Want {
    const char* name;
    std::vector<int64_t> dims;
  };
  for (const Want& w : {Want{"w0", {8, 3, 3, 3}}, Want{"w2", {8, 8, 3, 3}}, Want{"v1", {8}},
                        Want{"wf", {10, 8}}, Want{"bf", {10}}}) {
    const ir::Value* v = g.findValue(w.name);
    ASSERT_NE(v, nullptr) << w.name;
    ASSERT_TRUE(v->isInitializer()) << w.name;
    EXPECT_EQ(v->initializer()->dims(), w.dims) << w.name;
    EXPECT_EQ(v->initializer()->dtype(), ir::DataType::kFloat) << w.name;
    // Not a fill any more: the elements differ.
    auto d = v->initializer()->data<float>();
    EXPECT_NE(*std::min_element(d.begin(), d.end()), *std::max_element(d.begin(), d.end()))
        << w.name;
  }
  // The shapes the fills read are gone with them.
  EXPECT_EQ(g.findValue("sw"), nullptr);
  // A variance stays positive.
  for (float x : g.findValue("v0")->initializer()->data<float>()) EXPECT_GE(x, 0.0f);
}

TEST(WeightRandomizer, SameSeedSameWeightsOtherSeedOthers) {
  ir::Model a = parse(lightModel(3)), b = parse(lightModel(3)), c = parse(lightModel(3));
  RandomizeOptions seven;
  seven.seed = 7;
  RandomizeOptions eight;
  eight.seed = 8;
  ASSERT_TRUE(randomizeWeights(a, seven).isOk());
  ASSERT_TRUE(randomizeWeights(b, seven).isOk());
  ASSERT_TRUE(randomizeWeights(c, eight).isOk());
  EXPECT_EQ(bytesOf(a), bytesOf(b));
  EXPECT_NE(bytesOf(a), bytesOf(c));
}

TEST(WeightRandomizer, OutputsDependOnTheInputOnlyAfterwards) {
  ir::Model m = parse(lightModel(2));
  // The fills: every channel equal, one output whatever the input.
  std::vector<float> before1 = runOn(m, 1), before2 = runOn(m, 2);
  ASSERT_EQ(before1.size(), 10u);
  EXPECT_EQ(maxAbsDiff(before1, before2), 0.0);
  ASSERT_TRUE(randomizeWeights(m, {}).isOk());
  std::vector<float> after1 = runOn(m, 1), after2 = runOn(m, 2);
  ASSERT_EQ(after1.size(), 10u);
  EXPECT_GT(maxAbsDiff(after1, after2), 1e-3);
  // And the classes differ from each other (not all 0.1).
  EXPECT_GT(*std::max_element(after1.begin(), after1.end()) -
                *std::min_element(after1.begin(), after1.end()),
            1e-3);
}

// 40 residual blocks: the sum doubles its variance every block and on the
// random weights alone the Softmax saturates (one class 1, the rest 0,
// whatever the input); with the last layer scaled on the data the logits have
// an rms of 1.
TEST(WeightRandomizer, DeepResidualModelStaysFiniteAndUnsaturated) {
  ir::Model scaled = parse(lightModel(40)), unscaled = parse(lightModel(40));
  auto report = randomizeWeights(scaled, {});
  ASSERT_TRUE(report.isOk()) << report.error().message();
  EXPECT_EQ(report->layersScaled, 1u);  // the Gemm
  RandomizeOptions heOnly;
  heOnly.scaleLastLayers = false;
  ASSERT_TRUE(randomizeWeights(unscaled, heOnly).isOk());
  std::vector<float> u = runOn(unscaled, 1);
  ASSERT_FALSE(u.empty());
  EXPECT_GT(*std::max_element(u.begin(), u.end()), 0.999f) << "the premise: saturated";

  std::vector<float> a = runOn(scaled, 1), b = runOn(scaled, 2);
  ASSERT_FALSE(a.empty());
  for (float x : a) EXPECT_TRUE(std::isfinite(x));
  EXPECT_LT(*std::max_element(a.begin(), a.end()), 0.9f);
  EXPECT_GT(*std::min_element(a.begin(), a.end()), 1e-4f);
  EXPECT_GT(maxAbsDiff(a, b), 1e-3);
}

// The planted bug: output channels 0 and 1 of one Conv swapped, as a channel
// mix-up in a rewritten chain would. Invisible on the fills (the two channels
// are equal), seen on the randomized weights far beyond a check's tolerance.
TEST(WeightRandomizer, APlantedChannelSwapShowsOnlyOnRandomWeights) {
  ir::Model original = parse(lightModel(4));
  RandomizeOptions keep;
  keep.random = false;
  ASSERT_TRUE(randomizeWeights(original, keep).isOk());
  EXPECT_EQ(countOp(original, "ConstantOfShape"), 0u);
  ir::Model plantedOriginal = original.clone();
  ASSERT_TRUE(swapConvOutputChannels(plantedOriginal, 2).isOk());
  EXPECT_EQ(maxAbsDiff(runOn(original, 1), runOn(plantedOriginal, 1)), 0.0);

  ir::Model randomized = parse(lightModel(4));
  ASSERT_TRUE(randomizeWeights(randomized, {}).isOk());
  ir::Model planted = randomized.clone();
  auto conv = swapConvOutputChannels(planted, 2);
  ASSERT_TRUE(conv.isOk()) << conv.error().message();
  std::vector<float> good = runOn(randomized, 1), bad = runOn(planted, 1);
  ASSERT_FALSE(good.empty());
  EXPECT_GT(maxAbsDiff(good, bad), 1e-3);
}

TEST(WeightRandomizer, InitializersOnlyWhenAskedAndOnlyWeights) {
  const std::string text =
      "<ir_version: 8, opset_import: [\"\" : 13]>\n"
      "main (float[1,4] x) => (float[1,2] y)\n"
      "<float[2,4] w = {0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5}, float[2] b = {0.1, 0.1},"
      " int64[2] shape = {1, 2}>\n{\n"
      "  g = Gemm <transB = 1> (x, w, b)\n"
      "  y = Reshape (g, shape)\n}\n";
  ir::Model kept = parse(text);
  auto none = randomizeWeights(kept, {});
  ASSERT_TRUE(none.isOk());
  EXPECT_EQ(none->initializersReplaced, 0u);
  EXPECT_EQ(kept.graph().findValue("w")->initializer()->data<float>()[1], 0.5f);

  ir::Model m = parse(text);
  RandomizeOptions all;
  all.initializers = true;
  auto report = randomizeWeights(m, all);
  ASSERT_TRUE(report.isOk()) << report.error().message();
  EXPECT_EQ(report->initializersReplaced, 2u);  // w and b, not the shape
  auto w = m.graph().findValue("w")->initializer()->data<float>();
  EXPECT_NE(w[0], w[1]);
  EXPECT_EQ(m.graph().findValue("shape")->initializer()->toInt64Vector(),
            (std::vector<int64_t>{1, 2}));
}

TEST(WeightRandomizer, NoSuchConvIsAnError) {
  ir::Model m = parse(lightModel(1));
  // Before randomizing the weights are fills, not initializers.
  EXPECT_FALSE(swapConvOutputChannels(m, 0).isOk());
  ASSERT_TRUE(randomizeWeights(m, {}).isOk());
  EXPECT_TRUE(swapConvOutputChannels(m, 1).isOk());
  EXPECT_FALSE(swapConvOutputChannels(m, 2).isOk());
}

}  // namespace
}  // namespace passlab::testtools
