// Every CNN model of the corpus runs end to end on seeded random inputs; the
// onnx_light_* models also match their expected outputs for arange(n)/n.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

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

Expected<RunResult> runModel(const std::string& path, Fill fill, bool reference = false) {
  auto loaded = io::loadModel(path);
  if (!loaded) return loaded.error();
  ExecutorOptions opts;
  opts.referenceKernels = reference;
  auto ex = Executor::create(loaded->model, opts);
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

class LightModel : public ::testing::TestWithParam<const char*> {};

TEST_P(LightModel, MatchesExpectedOutput) {
  PASSLAB_REQUIRE_CORPUS();
  std::string name = GetParam();
  std::string dir = *testing::corpusDir();
  auto r = runModel(dir + "/models/onnx_" + name + ".onnx", Fill::kArange);
  ASSERT_TRUE(r) << r.error().message();
  auto want = io::readTensorFile(dir + "/light-outputs/" + name + "_output_0.pb");
  ASSERT_TRUE(want) << want.error().message();
  ASSERT_EQ(r->outputs[0].dims(), want->dims());
  auto got = r->outputs[0].toDoubleVector();
  auto exp = want->toDoubleVector();
  double worst = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    double err = std::fabs(got[i] - exp[i]);
    worst = std::max(worst, err / (1e-5 + 1e-4 * std::fabs(exp[i])));
  }
  EXPECT_LE(worst, 1.0) << "worst error in units of (atol 1e-5 + rtol 1e-4 * |expected|)";
}

INSTANTIATE_TEST_SUITE_P(Corpus, LightModel,
                         ::testing::Values("light_bvlc_alexnet", "light_densenet121",
                                           "light_inception_v1", "light_inception_v2",
                                           "light_resnet50", "light_shufflenet", "light_squeezenet",
                                           "light_vgg19", "light_zfnet512"),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
}  // namespace passlab::exec
