// ai.passlab FusedGemm with one row and B stored [N, K] (transB = 1), the
// GEMV path of the optimized kernel (passlab_fused_gemm.cpp): against the
// unfused Gemm (+ Z) + activation chain on the reference kernels, with C as a
// row, a scalar and absent, alpha and beta not 1, a residual, transA with A
// [K, 1], every kind of activation the epilogue applies, and a K and N off
// the vector widths; on 1 and 2 threads.
#include <gtest/gtest.h>

#include <string>

#include "tests/core/exec/kernel_test_util.h"

namespace passlab::exec {
namespace {

const char* kHeader = R"(<ir_version: 8, opset_import: ["" : 20, "ai.passlab" : 1]>)";

std::string dims(const kt::Dims& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + std::to_string(d[i]);
  return s + "]";
}

struct Case {
  const char* name;
  kt::Dims a, c;
  const char* attrs;  // Gemm's attributes, for both
};

TEST(FusedGemmGemv, OneRowTimesBStoredByRowsMatchesTheChain) {
  const int64_t K = 1037, N = 203;
  const Case cases[] = {
      {"row_c", {1, K}, {N}, "transB = 1"},
      {"scalar_c_alpha_beta", {1, K}, {1}, "transB = 1, alpha = 0.5, beta = -2.0"},
      {"trans_a", {K, 1}, {1, N}, "transA = 1, transB = 1, beta = 0.25"},
  };
  const std::pair<const char*, const char*> acts[] = {
      {R"(, activation = "Relu")", "y = Relu(u)"},
      {R"(, activation = "HardSigmoid", activation_params = [0.3, 0.4])",
       "y = HardSigmoid <alpha = 0.3, beta = 0.4> (u)"},
      {"", "y = Identity(u)"},
  };
  for (const Case& cs : cases)
    for (bool withC : {true, false})
      for (bool residual : {false, true})
        for (const auto& [fusedAct, chainAct] : acts)
          for (int threads : {1, 2}) {
            const std::string sig = std::string(kHeader) + "main (float" + dims(cs.a) +
                                    " a, float" + dims({N, K}) + " b, float" + dims(cs.c) +
                                    " c, float" + dims({1, N}) + " z) => (float" + dims({1, N}) +
                                    " y) {\n";
            const std::string in =
                std::string("a, b") + (withC ? ", c" : ", ") + (residual ? ", z" : "");
            const std::string fused =
                sig + "y = ai.passlab.FusedGemm <" + cs.attrs + fusedAct + "> (" + in + ") }";
            const std::string chain =
                sig + "t = Gemm <" + cs.attrs + "> (a, b" + (withC ? ", c" : "") + ")\n" +
                (residual ? "u = Add(t, z)\n" : "u = Identity(t)\n") + chainAct + " }";
            const NamedInputs inputs = {{"a", kt::uniformF32(cs.a, 1)},
                                        {"b", kt::uniformF32({N, K}, 2)},
                                        {"c", kt::uniformF32(cs.c, 3)},
                                        {"z", kt::uniformF32({1, N}, 4)}};
            const std::string what = std::string(cs.name) + (withC ? " C" : "") +
                                     (residual ? " Z " : " ") + chainAct + " threads " +
                                     std::to_string(threads);
            RunOptions run;
            run.threads = threads;
            const ir::Tensor want = kt::runOneOutput(chain, inputs, true);
            const RunResult got = testutil::runText(fused, inputs, {}, run);
            ASSERT_EQ(got.outputs.size(), 1u) << what;
            kt::expectClose(got.outputs[0], want, what, 1e-4f);
          }
}

}  // namespace
}  // namespace passlab::exec
