// The numeric check's noise floor: a correct Conv+BatchNormalization fold on a
// deep CNN passes although its rounding exceeds the fixed tolerance; planted
// bugs (a weight off by 1e-3, a swapped perm, a dropped bias, an off-by-one
// Slice) still fail; weights that are not arithmetic data are left alone.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <set>
#include <sstream>

#include "core/ir/graph.h"
#include "core/ir/node.h"
#include "core/pipeline/noise_floor.h"
#include "core/pipeline/numeric_check.h"
#include "core/pipeline/pass_manager.h"
#include "tests/support/test_support.h"

namespace passlab::pipeline {
namespace {

using testing::parse;

std::string tensorText(const char* type, const std::string& name, const std::vector<int>& dims,
                       const std::vector<float>& values) {
  std::ostringstream s;
  s << type << "[";
  for (size_t i = 0; i < dims.size(); ++i) s << (i ? "," : "") << dims[i];
  s << "] " << name << " = {";
  char buf[32];
  for (size_t i = 0; i < values.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%.9g", values[i]);
    s << (i ? ", " : "") << buf;
  }
  s << "}";
  return s.str();
}

// `layers` residual blocks (h + Relu(BatchNormalization(Conv 3x3 (h))), the
// BatchNormalization with random statistics) on 8 channels, then Transpose ->
// Slice -> ReduceMean -> Gemm with a bias -> Sigmoid: the shape of a
// detector's trunk and head.
std::string deepCnn(int layers) {
  const int c = 8;
  std::mt19937 rng(7);
  std::normal_distribution<float> weight(0.0f, 0.1f * std::sqrt(2.0f / (9 * c)));
  std::uniform_real_distribution<float> gamma(0.5f, 1.5f), beta(-0.1f, 0.1f), mean(-0.2f, 0.2f),
      var(0.5f, 2.0f), gemm(-0.05f, 0.05f);
  std::vector<std::string> inits;
  std::ostringstream body;
  std::string h = "x";
  for (int l = 0; l < layers; ++l) {
    const std::string k = std::to_string(l);
    std::vector<float> w(c * c * 9), g(c), b(c), m(c), v(c);
    for (float& x : w) x = weight(rng);
    for (int i = 0; i < c; ++i)
      g[i] = gamma(rng), b[i] = beta(rng), m[i] = mean(rng), v[i] = var(rng);
    inits.push_back(tensorText("float", "w" + k, {c, c, 3, 3}, w));
    inits.push_back(tensorText("float", "g" + k, {c}, g));
    inits.push_back(tensorText("float", "b" + k, {c}, b));
    inits.push_back(tensorText("float", "m" + k, {c}, m));
    inits.push_back(tensorText("float", "v" + k, {c}, v));
    body << "  conv" << k << " = Conv <pads = [1, 1, 1, 1]> (" << h << ", w" << k << ")\n";
    body << "  bn" << k << " = BatchNormalization (conv" << k << ", g" << k << ", b" << k << ", m"
         << k << ", v" << k << ")\n";
    body << "  act" << k << " = Relu (bn" << k << ")\n";
    body << "  res" << k << " = Add (" << h << ", act" << k << ")\n";
    h = "res" + k;
  }
  std::vector<float> gw(c * 4), gb(4);
  for (float& x : gw) x = gemm(rng);
  for (float& x : gb) x = gemm(rng);
  inits.push_back(tensorText("float", "gemm_w", {c, 4}, gw));
  inits.push_back(tensorText("float", "gemm_b", {4}, gb));
  inits.push_back("int64[1] starts = {1}");
  inits.push_back("int64[1] ends = {15}");
  inits.push_back("int64[1] axes = {1}");
  body << "  nhwc = Transpose <perm = [0, 2, 3, 1]> (" << h << ")\n";
  body << "  rows = Slice (nhwc, starts, ends, axes)\n";
  body << "  pooled = ReduceMean <axes = [1, 2], keepdims = 0> (rows)\n";
  body << "  logits = Gemm (pooled, gemm_w, gemm_b)\n";
  body << "  y = Sigmoid (logits)\n";
  std::ostringstream text;
  text << "main (float[1," << c << ",16,16] x) => (float[1,4] y)\n<";
  for (size_t i = 0; i < inits.size(); ++i) text << (i ? ",\n " : "") << inits[i];
  text << ">\n{\n" << body.str() << "}\n";
  return text.str();
}

const ir::Model& deepModel() {
  static const ir::Model m = parse(deepCnn(60));
  return m;
}

ir::Node* firstOf(ir::Model& m, const std::string& op) {
  for (const auto& n : m.graph().nodes())
    if (n->opType() == op) return n.get();
  return nullptr;
}

ir::Value* initializer(ir::Model& m, const std::string& name) {
  for (ir::Value* v : m.graph().initializers())
    if (v->name() == name) return v;
  return nullptr;
}

std::unique_ptr<ExecOutputChecker> checkerFor(const ir::Model& m, NoiseOptions noise = {}) {
  auto c = ExecOutputChecker::create(m, 2, {}, noise);
  EXPECT_TRUE(c) << c.error().message();
  return c ? std::move(c.value()) : nullptr;
}

TEST(NoiseFloor, DeepConvBatchNormFoldPassesWithinTheFloor) {
  ir::Model m = deepModel().clone();
  // The trunk's last feature map too: the sigmoid head can round the fold's
  // differences away, the trunk cannot.
  m.graph().addOutput(m.graph().findValue("res59"));
  auto checker = checkerFor(m);
  ASSERT_TRUE(checker);
  PassManager pm(m);
  pm.setChecker(checker.get());
  auto step = pm.run({"fuse_conv_batchnorm", {}, {}});
  ASSERT_TRUE(step) << step.error().message();
  const Step& s = **step;
  ASSERT_TRUE(s.changed);
  EXPECT_EQ(s.after.opCounts.count("BatchNormalization"), 0u);
  EXPECT_TRUE(s.check.ran);
  EXPECT_TRUE(s.check.passed) << s.check.detail;
  EXPECT_GT(s.check.noiseFloor, 0);
  EXPECT_EQ(s.check.noiseMultiple, NoiseOptions{}.multiple);
  EXPECT_LT(s.check.noiseRatio, s.check.noiseMultiple);
  EXPECT_GT(s.check.maxAbsError, 0);  // the fold does re-round the trunk
  std::printf("fold: max abs %.2e rel %.2e, %.2fx the noise floor %.2e\n", s.check.maxAbsError,
              s.check.maxRelError, s.check.noiseRatio, s.check.noiseFloor);
}

void scaleWeight(ir::Model& m, const std::string& name, float factor) {
  ir::Value* w = initializer(m, name);
  ir::Tensor t = *w->initializer();
  for (float& x : t.mutableData<float>()) x *= factor;
  m.graph().setInitializer(w, t);
}

TEST(NoiseFloor, CatchesABugTheFixedToleranceMisses) {
  // One weight of 60 layers off by 1e-3 moves the sigmoid output by about
  // 1e-5: inside rtol 1e-4, but hundreds of floors away.
  ir::Model bugged = deepModel().clone();
  scaleWeight(bugged, "w30", 1.001f);
  auto fixedOnly = checkerFor(deepModel(), NoiseOptions{.draws = 0});
  auto withFloor = checkerFor(deepModel());
  ASSERT_TRUE(fixedOnly && withFloor);
  NumericCheck fixed = fixedOnly->check(bugged);
  EXPECT_TRUE(fixed.passed);
  EXPECT_EQ(fixed.noiseMultiple, 0);
  NumericCheck floored = withFloor->check(bugged);
  EXPECT_FALSE(floored.passed);
  EXPECT_GT(floored.noiseRatio, 100);
}

TEST(NoiseFloor, AFloorReplacesTheFixedTolerance) {
  auto t = [](float v) { return ir::Tensor::fromVector<float>(ir::DataType::kFloat, {1}, {v}); };
  double ma = 0, mr = 0;
  Text why;
  // 1e-3 off 0.5: beyond rtol 1e-4 / atol 1e-5, within an allowance of 2e-3.
  EXPECT_FALSE(allClose(t(0.501f), t(0.5f), ma, mr, why));
  EXPECT_TRUE(allClose(t(0.501f), t(0.5f), ma, mr, why, 2e-3));
  // 2e-5 off 0.5: within the fixed tolerance, beyond an allowance of 1e-6.
  EXPECT_TRUE(allClose(t(0.50002f), t(0.5f), ma, mr, why));
  EXPECT_FALSE(allClose(t(0.50002f), t(0.5f), ma, mr, why, 1e-6));
}

// Each planted bug, applied to the original, must fail the check.
void expectPlantedBugFails(const char* what, const std::function<void(ir::Model&)>& plant) {
  SCOPED_TRACE(what);
  auto checker = checkerFor(deepModel());
  ASSERT_TRUE(checker);
  ir::Model bugged = deepModel().clone();
  plant(bugged);
  NumericCheck c = checker->check(bugged);
  EXPECT_TRUE(c.ran);
  EXPECT_FALSE(c.passed) << what;
  EXPECT_NE(c.detail.str().find("noise floor"), std::string::npos) << c.detail;
  std::printf("%s: max abs %.2e, %.0fx the noise floor\n", what, c.maxAbsError, c.noiseRatio);
}

TEST(NoiseFloor, PlantedBugsFail) {
  expectPlantedBugFails("weight x (1 + 1e-3)", [](ir::Model& m) { scaleWeight(m, "w30", 1.001f); });
  expectPlantedBugFails("swapped Transpose perm", [](ir::Model& m) {
    firstOf(m, "Transpose")->setAttr(ir::Attribute::makeInts("perm", {0, 3, 2, 1}));
  });
  expectPlantedBugFails("dropped bias", [](ir::Model& m) {
    ir::Value* b = initializer(m, "gemm_b");
    m.graph().setInitializer(b, ir::Tensor(ir::DataType::kFloat, {4}));
  });
  expectPlantedBugFails("off-by-one Slice", [](ir::Model& m) {
    ir::Value* s = initializer(m, "starts");
    m.graph().setInitializer(s, ir::Tensor::fromVector<int64_t>(ir::DataType::kInt64, {1}, {2}));
  });
}

TEST(NoiseFloor, TheFirstDivergingTensorUsesTheFloor) {
  // A bug in layer 30: the tensors before it are within their floors (the
  // fold's rounding alone would not stop the search there), the conv of layer
  // 30 is not.
  auto checker = checkerFor(deepModel());
  ASSERT_TRUE(checker);
  ir::Model bugged = deepModel().clone();
  scaleWeight(bugged, "w30", 1.001f);
  NumericCheck c = checker->check(bugged);
  ASSERT_FALSE(c.passed);
  EXPECT_EQ(c.firstDivergingTensor, "conv30") << c.detail;
}

TEST(NoiseFloor, ModelWithoutFloatWeightsKeepsTheFixedTolerance) {
  ir::Model m = parse(R"(main (float[4] x) => (float[4] y) {
  a = Relu(x)
  y = Neg(a)
})");
  auto checker = checkerFor(m);
  ASSERT_TRUE(checker);
  EXPECT_TRUE(checker->outputFloors().empty());
  ir::Model changed = parse(R"(main (float[4] x) => (float[4] y)
<float[1] k = {1.001}>
{
  a = Relu(x)
  b = Neg(a)
  y = Mul(b, k)
})");
  NumericCheck c = checker->check(changed);
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.noiseMultiple, 0);
}

TEST(NoiseFloor, PerturbsArithmeticWeightsByAtMostOneUlp) {
  ir::Model m = parse(R"(main (float[1,2,4,4] x) => (float[1,2,8,8] y)
<float[2,2,1,1] w = {0.3, -1.7, 2.5, 1e-3}, float[1] e = {2},
 float[0] roi = {}, float[4] scales = {1, 1, 2, 2}>
{
  c = Conv(x, w)
  p = Pow(c, e)
  y = Resize(p, roi, scales)
})");
  size_t moved = 0;
  ir::Model p = perturbWeights(m, 1, 1.0, &moved);
  EXPECT_EQ(moved, 1u);  // only the Conv weight
  auto values = [](ir::Model& model, const std::string& name) {
    auto span = initializer(model, name)->initializer()->data<float>();
    return std::vector<float>(span.begin(), span.end());
  };
  std::vector<float> before = values(m, "w"), after = values(p, "w");
  bool anyMoved = false;
  for (size_t i = 0; i < before.size(); ++i) {
    EXPECT_LE(std::fabs(after[i] - before[i]), std::ldexp(std::fabs(before[i]), -23) * 1.01f);
    anyMoved = anyMoved || after[i] != before[i];
  }
  EXPECT_TRUE(anyMoved);
  EXPECT_EQ(values(p, "e"), values(m, "e"));
  EXPECT_EQ(values(p, "scales"), values(m, "scales"));
  // The original is untouched (clones share buffers until written).
  EXPECT_EQ(values(m, "w"), (std::vector<float>{0.3f, -1.7f, 2.5f, 1e-3f}));
}

TEST(NoiseFloor, ShapeArithmeticIsNotPerturbed) {
  ir::Model m = parse(R"(main (float[2,6] x) => (float[2,3] y)
<float[1] half = {0.5}>
{
  s = Shape(x)
  f = Cast <to = 1> (s)
  h = Mul(f, half)
  i = Cast <to = 7> (h)
  y = Reshape(x, i)
})");
  size_t moved = 0;
  perturbWeights(m, 1, 1.0, &moved);
  EXPECT_EQ(moved, 0u);
}

TEST(NoiseFloor, DataThroughACastIsStillData) {
  // An 8-bit image cast to float feeds a Conv and a scale: both weights are
  // arithmetic on data and are perturbed.
  ir::Model m = parse(R"(main (uint8[1,1,2,2] x) => (float[1,1,2,2] y)
<float[1,1,1,1] w = {0.5}, float[1] s = {0.25}>
{
  f = Cast <to = 1> (x)
  g = Mul(f, s)
  y = Conv(g, w)
})");
  size_t moved = 0;
  perturbWeights(m, 1, 1.0, &moved);
  EXPECT_EQ(moved, 2u);
}

// Weights spelled as a fill (models shipped without their weights, like the
// corpus's light SqueezeNet): every column of the MatMul is equal, so the 16
// logits are equal and huge, and their softmax is uniform only while every
// column rounds the same way. A kernel that rounds one column differently (a
// GEMM tail) moves a logit by an ulp of 1e9 and that softmax element to 0.
const char* kFilledWeightsSoftmax = R"(main (float[1,64] x) => (float[1,16] y)
<int64[2] shape = {64, 16}>
{
  w = ConstantOfShape <value = float[1] {3e7}> (shape)
  l = MatMul(x, w)
  y = Softmax <axis = 1> (l)
})";

TEST(NoiseFloor, PerturbsWeightsSpelledAsAFillElementByElement) {
  ir::Model m = parse(kFilledWeightsSoftmax);
  size_t moved = 0;
  ir::Model p = perturbWeights(m, 1, 1.0, &moved);
  EXPECT_EQ(moved, 1u);
  ir::Value* w = initializer(p, "w");
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->initializer()->dims(), (std::vector<int64_t>{64, 16}));
  auto values = w->initializer()->data<float>();
  std::set<std::vector<float>> columns;  // element by element, not one factor: columns differ
  for (int j = 0; j < 16; ++j) {
    std::vector<float> column;
    for (int k = 0; k < 64; ++k) column.push_back(values[k * 16 + j]);
    columns.insert(column);
  }
  EXPECT_EQ(columns.size(), 16u);
  const float ulp = std::nextafter(3e7f, 1e9f) - 3e7f;  // 2: the factor rounds to it
  for (float v : values) EXPECT_LE(std::fabs(v - 3e7f), 2 * ulp);
  ASSERT_NE(firstOf(p, "MatMul"), nullptr);
  EXPECT_EQ(firstOf(p, "MatMul")->input(1), w);
  EXPECT_EQ(firstOf(p, "ConstantOfShape"), nullptr);
  EXPECT_NE(firstOf(m, "ConstantOfShape"), nullptr);  // the original is untouched
}

TEST(NoiseFloor, FillsThatAreNotWeightsStayFills) {
  // A zero fill (no factor moves it), a fill from a run-time shape, and a
  // fill that a shape op reads.
  ir::Model m = parse(R"(main (float[2,3] x, int64[2] s) => (float[2,3] y, float[2,3] z, int64[2] t)
<int64[2] shape = {2, 3}>
{
  zeros = ConstantOfShape <value = float[1] {0}> (shape)
  y = Add(x, zeros)
  ones = ConstantOfShape <value = float[1] {1}> (s)
  z = Mul(x, ones)
  halves = ConstantOfShape <value = float[1] {0.5}> (shape)
  t = Shape(halves)
})");
  size_t moved = 0;
  ir::Model p = perturbWeights(m, 1, 1.0, &moved);
  EXPECT_EQ(moved, 0u);
  size_t fills = 0;
  for (const auto& n : p.graph().nodes()) fills += n->opType() == "ConstantOfShape";
  EXPECT_EQ(fills, 3u);
}

TEST(NoiseFloor, AFillWhoseShapeIsAlsoAGraphInputIsPerturbed) {
  // IR-3 files list every initializer as a graph input, the fills' shapes
  // too (light SqueezeNet): the check's runs leave them at their values, so
  // the fill is a weight like any other.
  ir::Model m = parse(R"(main (float[2,3] x, int64[2] o = {2, 3}) => (float[2,3] u) {
  twos = ConstantOfShape <value = float[1] {2}> (o)
  u = Mul(x, twos)
})");
  size_t moved = 0;
  ir::Model p = perturbWeights(m, 1, 1.0, &moved);
  EXPECT_EQ(moved, 1u);
  EXPECT_EQ(firstOf(p, "ConstantOfShape"), nullptr);
}

TEST(NoiseFloor, AnIllConditionedOutputOfFilledWeightsGetsAFloor) {
  // Without the fill perturbed there is no float weight to move, no floor,
  // and one column rounded differently fails the check at the softmax.
  ir::Model m = parse(kFilledWeightsSoftmax);
  auto checker = checkerFor(m);
  ASSERT_TRUE(checker);
  ASSERT_TRUE(checker->outputFloors().count("y"));
  EXPECT_GT(checker->outputFloors().at("y"), 1e-3);
  ir::Model reordered = m.clone();
  {  // the weight as data with one column an ulp off: what a tail kernel's rounding does
    std::vector<float> w(64 * 16, 3e7f);
    for (int k = 0; k < 64; ++k) w[k * 16 + 13] = std::nextafter(3e7f, 1e9f);
    ir::Graph& g = reordered.graph();
    ir::Node* fill = firstOf(reordered, "ConstantOfShape");
    ir::Value* data = g.addInitializer(
        "w_data", ir::Tensor::fromVector<float>(ir::DataType::kFloat, {64, 16}, w));
    g.replaceAllUsesWith(fill->outputs()[0], data);
    g.removeNode(fill);
  }
  NumericCheck c = checker->check(reordered);
  EXPECT_GT(c.maxAbsError, 1e-3);  // the softmax did move
  EXPECT_TRUE(c.passed) << c.detail;
  EXPECT_GT(c.noiseFloor, 0);
}

TEST(NoiseFloor, FloorsTakeTheMaximumAndDropUncomparableTensors) {
  NoiseFloors floors;
  auto t = [](std::vector<float> v) {
    return ir::Tensor::fromVector<float>(ir::DataType::kFloat, {int64_t(v.size())}, v);
  };
  std::map<std::string, ir::Tensor> ref{{"a", t({1, 2})}, {"b", t({1, 2})}};
  accumulateFloors(floors, ref, {{"a", t({1.5f, 2})}, {"b", t({1, 2, 3})}});
  accumulateFloors(floors, ref, {{"a", t({1.25f, 1})}, {"b", t({1, 2})}});
  EXPECT_DOUBLE_EQ(floors.at("a"), 1.0);
  EXPECT_LT(floors.at("b"), 0);  // a shape change once makes it unusable
  EXPECT_LT(maxAbsDifference(t({1, NAN}), t({1, 2})), 0);
  EXPECT_EQ(maxAbsDifference(t({1, NAN}), t({1, NAN})), 0);
}

}  // namespace
}  // namespace passlab::pipeline
