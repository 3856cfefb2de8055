// Range checks on device values (core/exec/cuda/device_checks.h): the host
// verdict over the words the kernels wrote (no GPU), and on a GPU, Gather
// with indices that change between runs fails the run with the CPU kernel's
// message when one is out of range, instead of a fault or silent zeros, and
// the next run with good indices succeeds.
#include <gtest/gtest.h>

#include "core/exec/cuda/device_checks.h"
#include "core/exec/executor.h"
#include "tests/support/cuda_test_context.h"
#include "tests/support/test_support.h"

namespace passlab::exec::cuda {
namespace {

std::vector<RangeCheck> twoChecks() {
  return {{"Gather 'g1'", 0, 4, "float[4,3] (cuda)"}, {"Gather 'g2'", 1, 3, "float[4,3] (cuda)"}};
}

TEST(RangeCheckVerdict, OkWhenNoWordIsSet) {
  EXPECT_TRUE(rangeCheckVerdict(twoChecks(), {0, 0, 0, 0}));
  EXPECT_TRUE(rangeCheckVerdict({}, {}));
}

TEST(RangeCheckVerdict, NamesTheFirstFailedCheckWithTheCpuMessage) {
  Status st = rangeCheckVerdict(twoChecks(), {0, 0, 1, -5});
  ASSERT_FALSE(st);
  const std::string& m = st.error().message();
  EXPECT_NE(m.find("index -5 is out of range for axis 1 of size 3"), std::string::npos) << m;
  EXPECT_NE(m.find("g2"), std::string::npos) << m;
  EXPECT_NE(m.find("found on the device"), std::string::npos) << m;
  EXPECT_EQ(st.error().code(), ErrorCode::kInvalidArgument);
  // Both failed: the first is named.
  st = rangeCheckVerdict(twoChecks(), {1, 9, 1, 7});
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message().find("index 9 is out of range for axis 0 of size 4"),
            std::string::npos)
      << st.error().message();
}

TEST(RangeCheckVerdict, MissingWordsAreAnErrorNotACrash) {
  Status st = rangeCheckVerdict(twoChecks(), {0, 0, 1});
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message().find("missing"), std::string::npos);
}

TEST(GatherRangeCheckOnDevice, VaryingIndicesOutOfRangeFailTheRunClearly) {
  if (!test_support::haveCudaDevice())
    GTEST_SKIP() << "no CUDA device: the range check's device test needs a GPU";
  auto m = passlab::testing::parse(
      "main (float[4,3] d, int64[2] i) => (float[2,3] y) { y = Gather<axis = 0>(d, i) }");
  ExecutorOptions eo;
  eo.backend = "cuda";
  auto ex = Executor::create(m, eo);
  ASSERT_TRUE(ex) << ex.error().message();
  std::vector<float> d(12);
  for (size_t k = 0; k < d.size(); ++k) d[k] = static_cast<float>(k);
  auto run = [&](std::vector<int64_t> idx) {
    NamedInputs in;
    in.emplace_back("d", Value(Tensor::fromVector<float>(ir::DataType::kFloat, {4, 3}, d)));
    in.emplace_back("i", Value(Tensor::fromVector<int64_t>(ir::DataType::kInt64, {2}, idx)));
    return (*ex)->run(in);
  };
  auto good = run({1, -4});
  ASSERT_TRUE(good) << good.error().message();
  EXPECT_EQ(good->outputs[0].toDoubleVector(), (std::vector<double>{3, 4, 5, 0, 1, 2}));
  EXPECT_GT(good->device.deviceSteps, 0);
  auto bad = run({1, 7});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message().find("index 7 is out of range for axis 0 of size 4"),
            std::string::npos)
      << bad.error().message();
  auto negative = run({-5, 0});
  ASSERT_FALSE(negative);
  EXPECT_NE(negative.error().message().find("index -5 is out of range"), std::string::npos)
      << negative.error().message();
  auto again = run({3, 0});
  ASSERT_TRUE(again) << again.error().message();
  EXPECT_EQ(again->outputs[0].toDoubleVector(), (std::vector<double>{9, 10, 11, 0, 1, 2}));
}

}  // namespace
}  // namespace passlab::exec::cuda
