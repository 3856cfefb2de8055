// oneDNN MatMul and Gemm kernels on shapes that alternate from run to run (a
// decoder's first step and the next ones): each kept primitive (the last
// four shapes') gives the reference kernel's results, with constant weights
// packed and held across the switches, and with weights given per run.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "tests/core/exec/exec_test_util.h"

namespace passlab::exec {
namespace {

using testutil::pattern;

std::string literal(const std::vector<float>& v) {
  std::string s = "{";
  char buf[32];
  for (size_t i = 0; i < v.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%.9g", v[i]);
    s += (i ? ", " : "") + std::string(buf);
  }
  return s + "}";
}

void expectNearAll(const RunResult& got, const RunResult& want, const std::string& what) {
  ASSERT_EQ(got.outputs.size(), 1u) << what;
  ASSERT_EQ(want.outputs.size(), 1u) << what;
  ASSERT_EQ(got.outputs[0].dims(), want.outputs[0].dims()) << what;
  auto g = testutil::toFloats(got.outputs[0]), w = testutil::toFloats(want.outputs[0]);
  for (size_t i = 0; i < g.size(); ++i)
    ASSERT_NEAR(g[i], w[i], 1e-4f * (1.0f + std::fabs(w[i]))) << what << " element " << i;
}

// MatMul [B, M, 32] x W [32, 128] (an initializer, or a graph input) and Gemm
// [M, 32] x W [32, 128]: M runs 3, 1, 1, 5, 3, 2, 1, 4, 3, ... (more shapes
// than are kept), the reference run on the same inputs each time.
TEST(MatMulShapes, AlternatingShapesMatchTheReference) {
  const int64_t K = 32, N = 128;
  const auto w = pattern(static_cast<size_t>(K * N), 1);
  const std::string init = "<float[32,128] w = " + literal(w) + ">";
  struct Model {
    std::string name, text;
    bool weightsInput, batched;
  };
  const std::vector<Model> models = {
      {"MatMul, constant W",
       "main (float[B,M,32] x) => (float[B,M,128] y) " + init + " { y = MatMul(x, w) }", false,
       true},
      {"MatMul, W given",
       "main (float[B,M,32] x, float[32,128] w) => (float[B,M,128] y) { y = MatMul(x, w) }", true,
       true},
      {"Gemm, constant W",
       "main (float[M,32] x) => (float[M,128] y) " + init + " { y = Gemm(x, w) }", false, false}};
  for (const Model& m : models) {
    auto fast = Executor::create(testutil::parseModel(m.text), ExecutorOptions{});
    ExecutorOptions refOptions;
    refOptions.referenceKernels = true;
    auto ref = Executor::create(testutil::parseModel(m.text), refOptions);
    ASSERT_TRUE(fast && ref) << m.name;
    int round = 0;
    for (int64_t M : {3, 1, 1, 5, 3, 2, 1, 4, 3, 6, 1, 3}) {
      const int64_t B = m.batched ? 6 : 1;
      std::vector<int64_t> xDims =
          m.batched ? std::vector<int64_t>{B, M, K} : std::vector<int64_t>{M, K};
      NamedInputs in = {{"x", testutil::floats(xDims, pattern(static_cast<size_t>(B * M * K),
                                                              10 + static_cast<uint32_t>(round)))}};
      if (m.weightsInput)
        in.emplace_back("w", testutil::floats({K, N}, pattern(static_cast<size_t>(K * N),
                                                              20 + static_cast<uint32_t>(round))));
      auto got = (*fast)->run(in);
      auto want = (*ref)->run(in);
      ASSERT_TRUE(got && want) << m.name << " M=" << M;
      expectNearAll(*got, *want,
                    m.name + " round " + std::to_string(round) + " M=" + std::to_string(M));
      ++round;
    }
  }
}

}  // namespace
}  // namespace passlab::exec
