// CUPTI for kernel-exact per-node times (core/exec/cuda/cupti_api.h,
// cupti_timing.h): the library opens with dlopen and every function the
// backend calls resolves (no GPU needed), a bad path or a library without the
// functions is an error naming it; kernel and copy spans group under the step
// whose external correlation id was pushed when they were launched (synthetic
// records). On a GPU: a profiled run takes its device steps' times from
// CUPTI (no more than the CUDA events' spans, which include launch gaps), and
// with PASSLAB_CUDA_CUPTI=off from the events, saying so.
#include <gtest/gtest.h>

#include <cstdlib>

#include "core/exec/cuda/cupti_api.h"
#include "core/exec/cuda/cupti_timing.h"
#include "core/exec/executor.h"
#include "core/io/model_io.h"
#include "tests/support/cuda_test_context.h"
#include "tests/support/test_support.h"

namespace passlab::exec::cuda {
namespace {

TEST(CuptiLibrary, OpensAndResolvesEveryFunction) {
  auto api = openCupti(cuptiCandidates());
  ASSERT_TRUE(api) << api.error().message();
#define PASSLAB_CUPTI_CHECK(name) EXPECT_NE(api->name, nullptr) << #name;
  PASSLAB_CUPTI_FUNCTIONS(PASSLAB_CUPTI_CHECK)
#undef PASSLAB_CUPTI_CHECK
  uint32_t version = 0;
  ASSERT_EQ(api->cuptiGetVersion(&version), CUPTI_SUCCESS);
  // The library is the headers' major version (13xxxx for CUDA 13).
  EXPECT_EQ(version / 10000, static_cast<uint32_t>(CUPTI_API_VERSION) / 10000) << version;
  EXPECT_EQ(cuptiResultText(*api, CUPTI_ERROR_INVALID_PARAMETER), "CUPTI_ERROR_INVALID_PARAMETER");
  std::cerr << "CUPTI " << version << " from " << api->library.path() << "\n";
}

TEST(CuptiLibrary, OpenedOnceForTheProcess) {
  auto a = loadCupti();
  auto b = loadCupti();
  ASSERT_TRUE(a) << a.error().message();
  ASSERT_TRUE(b);
  EXPECT_EQ(*a, *b);
}

TEST(CuptiLibrary, ABadPathOrALibraryWithoutItsFunctionsIsAnErrorNamingIt) {
  auto missing = openCupti({"/nonexistent/libcupti.so.13"});
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message().find("CUPTI"), std::string::npos)
      << missing.error().message();
  EXPECT_NE(missing.error().message().find("/nonexistent/libcupti.so.13"), std::string::npos)
      << missing.error().message();
  auto other = openCupti({"libm.so.6"});
  ASSERT_FALSE(other);
  EXPECT_NE(other.error().message().find("cuptiGetVersion"), std::string::npos)
      << other.error().message();
}

TEST(CuptiCandidates, LookBesideTheToolkitThenBySoname) {
  std::vector<std::string> c = cuptiCandidates();
  ASSERT_FALSE(c.empty());
  EXPECT_EQ(c.back(), "libcupti.so");
  for (const std::string& p : c) EXPECT_NE(p.find("libcupti.so"), std::string::npos) << p;
}

TEST(CuptiGrouping, SpansGoUnderTheStepThatLaunchedThem) {
  // Steps 0..2; ids are step + 1. Nanoseconds.
  std::vector<ActivitySpan> spans = {
      {10, 1000, 3000, "gemm"},      // step 0
      {11, 3000, 3500, "epilogue"},  // step 0
      {12, 9000, 9250, "memcpy"},    // step 2
      {13, 100, 200, "orphan"},      // no link
      {14, 100, 300, "beyond"},      // a link to no step
      {15, 100, 400, "zero"},        // external id 0: never pushed
      {16, 500, 400, "backwards"},   // end before start: counted, 0 us
  };
  std::vector<ExternalLink> links = {{10, externalIdOfStep(0)},
                                     {11, externalIdOfStep(0)},
                                     {12, externalIdOfStep(2)},
                                     {14, 7},
                                     {15, 0},
                                     {16, externalIdOfStep(1)}};
  GroupedActivity g = groupByStep(spans, links, 3);
  ASSERT_EQ(g.steps.size(), 3u);
  EXPECT_EQ(g.steps[0].spans, 2);
  EXPECT_DOUBLE_EQ(g.steps[0].micros, 2.5);
  EXPECT_EQ(g.steps[1].spans, 1);
  EXPECT_DOUBLE_EQ(g.steps[1].micros, 0.0);
  EXPECT_EQ(g.steps[2].spans, 1);
  EXPECT_DOUBLE_EQ(g.steps[2].micros, 0.25);
  EXPECT_EQ(g.unattributed, 3);
}

TEST(CuptiGrouping, NoRecordsNoTimes) {
  GroupedActivity g = groupByStep({}, {}, 4);
  ASSERT_EQ(g.steps.size(), 4u);
  for (const StepActivity& s : g.steps) EXPECT_EQ(s.spans, 0);
  EXPECT_EQ(g.unattributed, 0);
}

// ---- on a GPU ----

double deviceMicros(const RunResult& r) {
  double sum = 0;
  for (const NodeProfile& p : r.profile)
    if (p.kernel.rfind("cpu-fallback:", 0) != 0 && p.kernel.rfind("host", 0) != 0) sum += p.micros;
  return sum;
}

Expected<RunResult> profiledRun(const ir::Model& m, const NamedInputs& in) {
  ExecutorOptions eo;
  eo.backend = "cuda";
  auto ex = Executor::create(m, eo);
  if (!ex) return ex.error();
  RunOptions ro;
  ro.profile = true;
  auto warm = (*ex)->run(in, ro);
  if (!warm) return warm.error();
  return (*ex)->run(in, ro);
}

TEST(CuptiTimingOnDevice, DeviceStepsAreTimedByTheirKernelsElseByEvents) {
  if (!test_support::haveCudaDevice())
    GTEST_SKIP() << "no CUDA device: CUPTI's activity records need a GPU";
  auto m =
      passlab::testing::parse(R"(main (float[256,256] a, float[256,256] b) => (float[256,256] y) {
    p = MatMul(a, b)
    r = Relu(p)
    y = Add(r, a)
  })");
  NamedInputs in;
  std::vector<float> v(256 * 256, 0.5f);
  in.emplace_back("a", Value(Tensor::fromVector<float>(ir::DataType::kFloat, {256, 256}, v)));
  in.emplace_back("b", Value(Tensor::fromVector<float>(ir::DataType::kFloat, {256, 256}, v)));
  unsetenv("PASSLAB_CUDA_CUPTI");
  auto cupti = profiledRun(m, in);
  ASSERT_TRUE(cupti) << cupti.error().message();
  EXPECT_EQ(cupti->device.timing.rfind("CUPTI kernel spans", 0), 0u) << cupti->device.timing;
  for (const NodeProfile& p : cupti->profile) EXPECT_GT(p.micros, 0.0) << p.op << " " << p.kernel;
  setenv("PASSLAB_CUDA_CUPTI", "off", 1);
  auto events = profiledRun(m, in);
  unsetenv("PASSLAB_CUDA_CUPTI");
  ASSERT_TRUE(events) << events.error().message();
  EXPECT_NE(events->device.timing.find("PASSLAB_CUDA_CUPTI=off"), std::string::npos)
      << events->device.timing;
  std::cerr << "device steps: CUPTI " << deviceMicros(*cupti) << " us, events "
            << deviceMicros(*events) << " us\n";
  // Kernel spans leave out the launch gaps the events include (2x slack: two runs).
  EXPECT_LE(deviceMicros(*cupti), 2.0 * deviceMicros(*events));
}

}  // namespace
}  // namespace passlab::exec::cuda
