// The CUDA placement plan on the host (no GPU): corpus models keep every
// step that matters on the device, shape arithmetic and constant-only steps
// on the host, and name why the rest go to the CPU.
#include "core/exec/cuda/placement_plan.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "core/io/model_io.h"
#include "tests/support/test_support.h"

namespace passlab::exec::cuda {
namespace {

std::map<std::string, int> totals(const std::vector<StepPlacement>& plan) {
  std::map<std::string, int> t;
  for (const StepPlacement& p : plan) ++t[p.where];
  return t;
}

std::vector<StepPlacement> planOf(const std::string& model) {
  auto loaded = io::loadModel(*passlab::testing::corpusDir() + "/models/" + model);
  EXPECT_TRUE(loaded) << model;
  if (!loaded) return {};
  auto plan = planCudaPlacement(loaded->model);
  EXPECT_TRUE(plan) << model << ": " << plan.error().message();
  return plan ? *plan : std::vector<StepPlacement>{};
}

std::string cpuSteps(const std::vector<StepPlacement>& plan) {
  std::string s;
  for (const StepPlacement& p : plan)
    if (p.where == "cpu" || p.where == "run-time") s += p.op + " (" + p.reason + "); ";
  return s;
}

TEST(CudaPlacementPlan, CnnsRunEveryStepOnTheDeviceOrOnce) {
  PASSLAB_REQUIRE_CORPUS();
  for (const char* model :
       {"onnx_light_resnet50.onnx", "ultraface_rfb_320.onnx", "super_resolution.onnx",
        "ppocr_cls_mobile_v2.onnx", "onnx_light_densenet121.onnx", "picodet_s_320.onnx"}) {
    auto plan = planOf(model);
    auto t = totals(plan);
    EXPECT_EQ(t["cpu"], 0) << model << ": " << cpuSteps(plan);
    EXPECT_EQ(t["run-time"], 0) << model << ": " << cpuSteps(plan);
    EXPECT_GT(t["device"], 0) << model;
    for (const StepPlacement& p : plan)
      if (p.op == "Conv") EXPECT_EQ(p.kernel, "cudnn.Conv") << model << " " << p.node;
  }
}

TEST(CudaPlacementPlan, Gpt2KeepsShapeArithmeticOnTheHost) {
  PASSLAB_REQUIRE_CORPUS();
  auto plan = planOf("ort_gpt2_past.onnx");
  auto t = totals(plan);
  // Range (int64 positions) is the one op without a CUDA kernel.
  EXPECT_LE(t["cpu"], 1) << cpuSteps(plan);
  int matmulsOnDevice = 0, shapesOnHost = 0;
  for (const StepPlacement& p : plan) {
    if ((p.op == "Gemm" || p.op == "MatMul") && p.where == "device") ++matmulsOnDevice;
    if (p.op == "Shape" && p.where == "host") ++shapesOnHost;
  }
  EXPECT_EQ(matmulsOnDevice, 72);
  EXPECT_EQ(shapesOnHost, 328);
}

TEST(CudaPlacementPlan, AnOpWithoutAKernelIsNamedWithItsReason) {
  PASSLAB_REQUIRE_CORPUS();
  auto plan = planOf("winml_squeezenet.onnx");
  bool zipmap = false;
  for (const StepPlacement& p : plan)
    if (p.op == "ai.onnx.ml.ZipMap") {
      zipmap = true;
      EXPECT_EQ(p.where, "cpu");
      EXPECT_EQ(p.reason, "no CUDA kernel for ai.onnx.ml.ZipMap");
    }
  EXPECT_TRUE(zipmap);
}

TEST(CudaPlacementPlan, TheBackendRegistryOffersIt) {
  auto m = passlab::testing::parse("main (float[2] x) => (float[2] y) { y = Relu(x) }");
  auto plan = planPlacement("cuda", m);
  ASSERT_TRUE(plan) << plan.error().message();
  ASSERT_EQ(plan->size(), 1u);
  EXPECT_EQ((*plan)[0].where, "device");
  EXPECT_EQ((*plan)[0].kernel, "cuda.Relu");
  auto none = planPlacement("tpu", m);
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().message().find("offers no placement plan"), std::string::npos);
}

}  // namespace
}  // namespace passlab::exec::cuda
