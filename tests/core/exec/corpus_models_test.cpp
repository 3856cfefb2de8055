// Every CNN model of the corpus runs end to end on seeded random inputs; the
// onnx_light_* models also match their expected outputs for arange(n)/n.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <filesystem>
#include <optional>
#include <vector>

#include "core/exec/executor.h"
#include "core/exec/input_fill.h"
#include "core/io/model_io.h"
#include "core/io/tensor_file.h"
#include "tests/support/test_support.h"

namespace passlab::exec {
namespace {

const char* const kCnnModels[] = {
    "mnist8_cntk",
    "onnx_light_bvlc_alexnet",
    "onnx_light_densenet121",
    "onnx_light_inception_v1",
    "onnx_light_inception_v2",
    "onnx_light_resnet50",
    "onnx_light_shufflenet",
    "onnx_light_squeezenet",
    "onnx_light_vgg19",
    "onnx_light_zfnet512",
    "winml_squeezenet",
    "starry_night_fp16",
    "super_resolution",
    "ultraface_rfb_320",
    "ultraface_rfb_320_simplified",
};

Expected<RunResult> runLoaded(const ir::Model& model, Fill fill) {
  auto ex = Executor::create(model, {});
  if (!ex) return ex.error();
  NamedInputs inputs;
  FillOptions fo;
  fo.fill = fill;
  fo.seed = 42;
  for (const InputInfo& in : (*ex)->inputs()) {
    if (in.optional) continue;
    auto t = makeInput(in, fo);
    if (!t) return t.error();
    inputs.emplace_back(in.name, *t);
  }
  return (*ex)->run(inputs);
}

Expected<RunResult> runModel(const std::string& path, Fill fill) {
  auto loaded = io::loadModel(path);
  if (!loaded) return loaded.error();
  return runLoaded(loaded->model, fill);
}

class CnnModel : public ::testing::TestWithParam<const char*> {};

TEST_P(CnnModel, RunsOnSeededRandomInputs) {
  PASSLAB_REQUIRE_CORPUS();
  std::string path = *testing::corpusDir() + "/models/" + GetParam() + ".onnx";
  auto r = runModel(path, Fill::kRandom);
  ASSERT_TRUE(r) << r.error().message();
  ASSERT_FALSE(r->values.empty());
  for (size_t i = 0; i < r->outputs.size(); ++i) {
    const ir::Tensor& t = r->outputs[i];
    if (t.dtype() != ir::DataType::kFloat) continue;
    for (double v : t.toDoubleVector()) ASSERT_TRUE(std::isfinite(v)) << r->outputNames[i];
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, CnnModel, ::testing::ValuesIn(kCnnModels),
                         [](const auto& info) { return std::string(info.param); });

// starry_night_fp16 (IR version 1, opset 7, PyTorch 0.2) is not valid as
// written: its bias Adds pair [1,C,H,W] with [C] (the pre-opset-7 broadcast=1,
// axis=1 attributes were lost) and its two Upsample nodes carry two scales
// (Upsample-1's height and width) for 4-D inputs. ONNX Runtime refuses to load
// it ("Incompatible dimensions" on the first Add). The executor repairs both,
// says so, and runs it.
TEST(CorpusStarryNight, RunsAfterReportedLegacyRepairs) {
  PASSLAB_REQUIRE_CORPUS();
  auto loaded = io::loadModel(*testing::corpusDir() + "/models/starry_night_fp16.onnx");
  ASSERT_TRUE(loaded) << loaded.error().message();
  auto ex = Executor::create(loaded->model, {});
  ASSERT_TRUE(ex) << ex.error().message();
  int adds = 0, upsamples = 0;
  for (const std::string& r : (*ex)->repairs()) {
    adds += r.find("legacy channel broadcast (broadcast=1, axis=1) for IR version 1") !=
            std::string::npos;
    upsamples += r.find("two Upsample scales read as NCHW height and width") != std::string::npos;
  }
  EXPECT_EQ(adds, 16);
  EXPECT_EQ(upsamples, 2);
  FillOptions fo;
  fo.seed = 42;
  auto x = makeInput((*ex)->inputs()[0], fo);
  ASSERT_TRUE(x) << x.error().message();
  auto r = (*ex)->run({{(*ex)->inputs()[0].name, *x}});
  ASSERT_TRUE(r) << r.error().message();
  ASSERT_EQ(r->outputs.size(), 1u);
  EXPECT_EQ(r->outputs[0].dtype(), ir::DataType::kFloat16);
  EXPECT_EQ(r->outputs[0].dims(), (std::vector<int64_t>{1, 3, 224, 224}));
  for (double v : r->outputs[0].toDoubleVector()) ASSERT_TRUE(std::isfinite(v));
}

// How the onnx_light_* outputs are judged. All but densenet121 end in a
// Softmax, and most of these models are degenerate: identical logits of
// 1e9-1e31 for every class (alexnet, inception_v1, resnet50, squeezenet,
// vgg19, zfnet512), so their expected output is 1/1000 everywhere. Such a
// softmax is ill-conditioned: its output moves by up to 2 p_i |dx| (relative
// 2 |dx|) when its inputs move by dx, and float32 knows an input x only to
// one rounding step, eps |x| (eps = 2^-23). One step of 9.5e9 is 1024, which
// turns squeezenet's 0.001s into 0.25 for the four classes oneDNN's AVX2
// kernels put one step higher. The rule:
//  - well-conditioned (2 eps max|x| <= rtol, i.e. max|x| <= ~420, as
//    shufflenet's 3.5 and inception_v2's 0.47): the softmax outputs against
//    the expected ones, |got - want| <= atol + rtol |want|, as always;
//  - ill-conditioned: the softmax's inputs, the logits, at the same atol and
//    rtol taken on the logits' scale (max|x|, the scale float32 computes
//    them at). A softmax does not change when its inputs shift, so the
//    expected output tells each logit's distance below the top class,
//    log(p_i / p_max); ours, x_i - max x, must match it within atol + rtol
//    max|x|. Where the expected p_i is below float32's smallest normal
//    (underflowed, its log not exact) ours must only be as far below:
//    x_i - max x <= ln(FLT_MIN) + ln(row length) + that tolerance.
constexpr double kAtol = 1e-5, kRtol = 1e-4;

// Worst |got - want| in units of (kAtol + kRtol |want|); at most 1 passes.
double worstError(const std::vector<double>& got, const std::vector<double>& want) {
  double worst = 0;
  for (size_t i = 0; i < got.size(); ++i)
    worst = std::max(worst, std::fabs(got[i] - want[i]) / (kAtol + kRtol * std::fabs(want[i])));
  return worst;
}

double maxAbs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::fabs(x));
  return m;
}

bool softmaxIllConditioned(const std::vector<double>& logits) {
  const double eps = std::ldexp(1.0, -23);
  return 2 * eps * maxAbs(logits) > kRtol;
}

// Worst error of `logits` against log(want_i / want_max), per row of `row`
// values, in units of (kAtol + kRtol max|logits|); at most 1 passes.
double worstLogitError(const std::vector<double>& logits, const std::vector<double>& want,
                       size_t row) {
  const double tolerance = kAtol + kRtol * maxAbs(logits);
  const double floor = std::log(double(FLT_MIN)) + std::log(double(row));
  double worst = 0;
  for (size_t start = 0; start + row <= logits.size(); start += row) {
    auto x = logits.begin() + start, p = want.begin() + start;
    const double top = *std::max_element(x, x + row), pTop = *std::max_element(p, p + row);
    for (size_t i = 0; i < row; ++i) {
      const double ours = x[i] - top;
      const double err =
          p[i] >= FLT_MIN ? std::fabs(ours - std::log(p[i] / pTop)) : std::max(0.0, ours - floor);
      worst = std::max(worst, err / tolerance);
    }
  }
  return worst;
}

// When `model`'s first output is a Softmax: its input becomes a further
// output, and the length of the rows it normalizes (opset 13 and later: its
// axis, which must be the last; before: every dim from the axis on) for
// outputs of `dims`. nullopt otherwise (then the outputs are compared).
struct SoftmaxTail {
  const ir::Node* node = nullptr;
  int64_t opset = 0;
  std::optional<size_t> rowLength(const std::vector<int64_t>& dims) const {
    const auto rank = static_cast<int64_t>(dims.size());
    int64_t axis = node->attrInt("axis", opset >= 13 ? -1 : 1);
    if (axis < 0) axis += rank;
    if (axis < 0 || axis >= rank || (opset >= 13 && axis != rank - 1)) return std::nullopt;
    int64_t n = 1;
    for (int64_t d = axis; d < rank; ++d) n *= dims[size_t(d)];
    return size_t(n);
  }
};

std::optional<SoftmaxTail> exposeSoftmaxInput(ir::Model& model) {
  ir::Graph& g = model.graph();
  const ir::Node* last = g.outputs().empty() ? nullptr : g.outputs()[0]->producer();
  if (last == nullptr || last->opType() != "Softmax" || !last->domain().empty()) return {};
  g.addOutput(last->input(0));
  return SoftmaxTail{last, model.opsetVersion("").value_or(1)};
}

class LightModel : public ::testing::TestWithParam<const char*> {};

TEST_P(LightModel, MatchesExpectedOutput) {
  PASSLAB_REQUIRE_CORPUS();
  std::string name = GetParam();
  std::string dir = *testing::corpusDir();
  auto loaded = io::loadModel(dir + "/models/onnx_" + name + ".onnx");
  ASSERT_TRUE(loaded) << loaded.error().message();
  const std::optional<SoftmaxTail> softmax = exposeSoftmaxInput(loaded->model);
  auto r = runLoaded(loaded->model, Fill::kArange);
  ASSERT_TRUE(r) << r.error().message();
  auto want = io::readTensorFile(dir + "/light-outputs/" + name + "_output_0.pb");
  ASSERT_TRUE(want) << want.error().message();
  ASSERT_EQ(r->outputs[0].dims(), want->dims());
  auto got = r->outputs[0].toDoubleVector();
  auto exp = want->toDoubleVector();
  std::optional<size_t> row = softmax ? softmax->rowLength(want->dims()) : std::nullopt;
  if (row && softmaxIllConditioned(r->outputs[1].toDoubleVector())) {
    std::vector<double> logits = r->outputs[1].toDoubleVector();
    ASSERT_EQ(logits.size(), exp.size());
    EXPECT_LE(worstLogitError(logits, exp, *row), 1.0)
        << "ill-conditioned softmax (max |logit| " << maxAbs(logits)
        << "): worst logit error, against log(p_i / p_max) of the expected output, in units of "
           "(atol 1e-5 + rtol 1e-4 * max |logit|)";
  } else {
    EXPECT_LE(worstError(got, exp), 1.0)
        << "worst error in units of (atol 1e-5 + rtol 1e-4 * |expected|)";
  }
}

// The rule above on made-up rows: a float32 step of huge equal logits
// passes, a real difference between classes does not; well-conditioned
// logits keep the comparison of the outputs.
TEST(LightModelRule, IllConditionedLogitsPassOneStepAndFailARealError) {
  const std::vector<double> uniform(1000, 1e-3);
  std::vector<double> logits(1000, 9.476e9);
  EXPECT_TRUE(softmaxIllConditioned(logits));
  for (size_t i : {10, 200, 431, 999}) logits[i] = std::nextafter(float(9.476e9), 1e10f);
  EXPECT_LE(worstLogitError(logits, uniform, 1000), 1.0);  // AVX2's squeezenet
  std::vector<double> wrong(1000, 9.476e9);
  wrong[431] *= 1.001;  // one class 0.1% off
  EXPECT_GT(worstLogitError(wrong, uniform, 1000), 1.0);
  // The expected output puts class 7 far above the rest (they underflow).
  std::vector<double> peaked(1000, 0.0);
  peaked[7] = 1.0;
  std::vector<double> apart(1000, 9.476e9);
  apart[7] *= 1.01;
  EXPECT_LE(worstLogitError(apart, peaked, 1000), 1.0);
  apart[7] = 9.476e9 * 0.99;  // class 7 below the rest
  EXPECT_GT(worstLogitError(apart, peaked, 1000), 1.0);
  // Within rtol of the logits' scale, equal logits are as good as a top class
  // 80 above the rest: the expected output cannot tell them apart.
  EXPECT_LE(worstLogitError(std::vector<double>(1000, 9.476e9), peaked, 1000), 1.0);
  EXPECT_FALSE(softmaxIllConditioned(std::vector<double>(1000, 3.5)));  // shufflenet's scale
  EXPECT_FALSE(softmaxIllConditioned(std::vector<double>(1000, 400.0)));
  EXPECT_TRUE(softmaxIllConditioned(std::vector<double>(1000, 900.0)));
}

INSTANTIATE_TEST_SUITE_P(Corpus, LightModel,
                         ::testing::Values("light_bvlc_alexnet", "light_densenet121",
                                           "light_inception_v1", "light_inception_v2",
                                           "light_resnet50", "light_shufflenet", "light_squeezenet",
                                           "light_vgg19", "light_zfnet512"),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
}  // namespace passlab::exec
