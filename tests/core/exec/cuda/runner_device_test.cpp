// The CUDA runner end to end: corpus models run through the Executor with
// backend "cuda" against the CPU executor (float32: rtol 1e-3, atol 1e-4),
// with most steps on the device; a second run reuses the uploaded constants
// and kept steps, and runs on the device memory plan the first one recorded. Skipped where there is
// no CUDA device.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "core/exec/executor.h"
#include "core/exec/input_fill.h"
#include "core/io/model_io.h"
#include "tests/support/cuda_test_context.h"
#include "tests/support/test_support.h"

namespace passlab::exec {
namespace {

using ::passlab::exec::cuda::test_support::haveCudaDevice;

#define REQUIRE_DEVICE() \
  if (!haveCudaDevice()) GTEST_SKIP() << "no CUDA device: the runner's device tests need a GPU"

NamedInputs madeUpInputs(const Executor& ex) {
  NamedInputs in;
  FillOptions fill;
  for (const InputInfo& info : ex.inputs()) {
    if (info.optional) continue;
    auto t = makeInput(info, fill);
    EXPECT_TRUE(t) << info.name << ": " << (t ? "" : t.error().message());
    if (t) in.emplace_back(info.name, Value(Tensor::fromIr(*t).clone()));
  }
  return in;
}

void expectClose(const RunResult& gpu, const RunResult& cpu, const std::string& model) {
  ASSERT_EQ(gpu.outputs.size(), cpu.outputs.size());
  for (size_t o = 0; o < gpu.outputs.size(); ++o) {
    const ir::Tensor& a = gpu.outputs[o];
    const ir::Tensor& b = cpu.outputs[o];
    ASSERT_EQ(a.dims(), b.dims()) << model << " output " << o;
    ASSERT_EQ(a.dtype(), b.dtype()) << model << " output " << o;
    if (a.dtype() == ir::DataType::kString) continue;
    auto x = a.toDoubleVector(), y = b.toDoubleVector();
    size_t outside = 0;
    for (size_t i = 0; i < x.size(); ++i)
      if (!(std::fabs(x[i] - y[i]) <= 1e-4 + 1e-3 * std::fabs(y[i])) &&
          !(std::isnan(x[i]) && std::isnan(y[i])))
        ++outside;
    EXPECT_EQ(outside, 0u) << model << " output " << gpu.outputNames[o] << ": " << outside << " of "
                           << x.size() << " elements differ";
  }
}

class CudaRunnerCorpus : public ::testing::TestWithParam<std::string> {};

TEST_P(CudaRunnerCorpus, MatchesTheCpuExecutor) {
  REQUIRE_DEVICE();
  PASSLAB_REQUIRE_CORPUS();
  std::string path = *passlab::testing::corpusDir() + "/models/" + GetParam();
  auto loaded = io::loadModel(path);
  ASSERT_TRUE(loaded) << loaded.error().message();
  auto cpu = Executor::create(loaded->model);
  ASSERT_TRUE(cpu) << cpu.error().message();
  ExecutorOptions eo;
  eo.backend = "cuda";
  auto gpu = Executor::create(loaded->model, eo);
  ASSERT_TRUE(gpu) << gpu.error().message();
  NamedInputs in = madeUpInputs(**cpu);
  auto want = (*cpu)->run(in);
  ASSERT_TRUE(want) << want.error().message();
  RunOptions ro;
  ro.profile = true;
  uint64_t firstUpload = 0;
  for (int run = 0; run < 2; ++run) {
    auto got = (*gpu)->run(in, ro);
    ASSERT_TRUE(got) << got.error().message();
    expectClose(*got, *want, GetParam());
    EXPECT_GT(got->device.deviceSteps, 0) << GetParam();
    EXPECT_FALSE(got->profile.empty());
    // The second run uploads the inputs only: the weights stay on the device.
    if (run == 0) firstUpload = got->device.bytesToDevice;
    if (run == 1) {
      EXPECT_LT(got->device.bytesToDevice, firstUpload) << GetParam();
    }
    // The first run records the device values' sizes; the second runs on
    // their memory plan, one block (cuda/device_memory.h), with the same
    // outputs.
    if (run == 0) {
      EXPECT_EQ(got->device.blockBytes, 0u) << got->device.memoryNote;
    }
    if (run == 1) {
      EXPECT_GT(got->device.blockBytes, 0u) << GetParam() << ": " << got->device.memoryNote;
      EXPECT_GT(got->device.placedInBlock, 0) << GetParam();
      EXPECT_LE(got->device.blockBytes, got->device.plannedTensorBytes) << GetParam();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Models, CudaRunnerCorpus,
                         ::testing::Values("mnist8_cntk.onnx", "winml_squeezenet.onnx",
                                           "super_resolution.onnx", "ultraface_rfb_320.onnx",
                                           "ppocr_cls_mobile_v2.onnx", "ort_gpt2_past.onnx"),
                         [](const auto& info) {
                           std::string n = info.param.substr(0, info.param.find('.'));
                           for (char& c : n)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

TEST(CudaRunner, NamesTheMissingDeviceClearly) {
  if (haveCudaDevice()) GTEST_SKIP() << "a CUDA device is present";
  ExecutorOptions eo;
  eo.backend = "cuda";
  auto m = passlab::testing::parse("main (float[2] x) => (float[2] y) { y = Relu(x) }");
  auto ex = Executor::create(m, eo);
  ASSERT_FALSE(ex);
  const std::string& msg = ex.error().message();
  EXPECT_TRUE(msg.find("driver") != std::string::npos ||
              msg.find("no CUDA device") != std::string::npos ||
              msg.find("CUDA") != std::string::npos)
      << msg;
}

TEST(CudaRunner, AnUnknownDeviceIndexIsAnError) {
  REQUIRE_DEVICE();
  ExecutorOptions eo;
  eo.backend = "cuda:99";
  auto m = passlab::testing::parse("main (float[2] x) => (float[2] y) { y = Relu(x) }");
  auto ex = Executor::create(m, eo);
  ASSERT_FALSE(ex);
  EXPECT_NE(ex.error().message().find("cuda:99 does not exist"), std::string::npos)
      << ex.error().message();
}

}  // namespace
}  // namespace passlab::exec
