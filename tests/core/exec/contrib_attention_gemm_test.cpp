// com.microsoft Attention's sgemm kernel (contrib_attention_gemm.cpp) against
// the reference kernel (contrib_attention.cpp) on seeded inputs: several
// sizes, heads, qkv_hidden_sizes, every mask_index form, unidirectional,
// scale, attention_bias, past/present; the profile names the kernel that ran.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "tests/core/exec/kernel_test_util.h"

namespace passlab::exec {
namespace {

using kt::uniformF32;

struct Case {
  int64_t B, S, Hin, heads;
  int64_t Dq, Dv;        // Dk = Dq
  std::string attrs;     // extra attributes (", unidirectional = 1")
  std::string maskType;  // "" (none) or the mask_index type, e.g. "int32[2]"
  ir::Tensor mask;       // its value
  int64_t P = 0;         // past positions (0: no past/present)
  bool attentionBias = false;
  bool present = true;  // with a past: whether present is an output
};

std::string dims(std::initializer_list<int64_t> d) {
  std::string s;
  for (int64_t v : d) s += (s.empty() ? "" : ",") + std::to_string(v);
  return s;
}

std::string modelText(const Case& c) {
  const int64_t T = c.P + c.S, hq = c.Dq / c.heads;
  std::string sizes = c.Dq != c.Dv ? ", qkv_hidden_sizes = [" + dims({c.Dq, c.Dq, c.Dv}) + "]" : "";
  std::string in = "float[" + dims({c.B, c.S, c.Hin}) + "] x, float[" +
                   dims({c.Hin, 2 * c.Dq + c.Dv}) + "] w, float[" +
                   std::to_string(2 * c.Dq + c.Dv) + "] b";
  std::string args = "x, w, b";
  if (!c.maskType.empty()) in += ", " + c.maskType + " mask";
  args += c.maskType.empty() ? ", " : ", mask";
  if (c.P) in += ", float[" + dims({2, c.B, c.heads, c.P, hq}) + "] past";
  args += c.P ? ", past" : ", ";
  if (c.attentionBias) in += ", float[" + dims({c.B, c.heads, c.S, T}) + "] ab";
  args += c.attentionBias ? ", ab" : "";
  while (!args.empty() && (args.back() == ' ' || args.back() == ',')) args.pop_back();
  std::string out = "float[" + dims({c.B, c.S, c.Dv}) + "] y";
  std::string outs = "y";
  if (c.P && c.present) {
    out += ", float[" + dims({2, c.B, c.heads, T, hq}) + "] present";
    outs += ", present";
  }
  return std::string(R"(<ir_version: 8, opset_import: ["" : 17, "com.microsoft" : 1]>)") +
         "\nmain (" + in + ") => (" + out + ") {\n  " + outs +
         " = com.microsoft.Attention <num_heads = " + std::to_string(c.heads) + sizes + c.attrs +
         "> (" + args + ")\n}";
}

NamedInputs feeds(const Case& c) {
  const int64_t D3 = 2 * c.Dq + c.Dv, T = c.P + c.S;
  NamedInputs in = {{"x", uniformF32({c.B, c.S, c.Hin}, 1, 1.0f)},
                    {"w", uniformF32({c.Hin, D3}, 2, 0.3f)},
                    {"b", uniformF32({D3}, 3, 0.5f)}};
  if (!c.maskType.empty()) in.push_back({"mask", c.mask});
  if (c.P) in.push_back({"past", uniformF32({2, c.B, c.heads, c.P, c.Dq / c.heads}, 4, 1.0f)});
  if (c.attentionBias) in.push_back({"ab", uniformF32({c.B, c.heads, c.S, T}, 5, 2.0f)});
  return in;
}

// Runs c on the preferred kernels and on the reference ones; outputs within
// float rounding (the reference sums in double).
void expectMatchesReference(const Case& c) {
  const std::string text = modelText(c);
  SCOPED_TRACE(text);
  RunOptions profiled;
  profiled.profile = true;
  RunResult fast = testutil::runText(text, feeds(c), {}, profiled);
  ExecutorOptions ref;
  ref.referenceKernels = true;
  RunResult slow = testutil::runText(text, feeds(c), ref, profiled);
  ASSERT_EQ(fast.outputs.size(), slow.outputs.size());
  ASSERT_FALSE(fast.profile.empty());
  EXPECT_EQ(fast.profile[0].kernel, "cpu.ms.AttentionGemm");
  EXPECT_EQ(slow.profile[0].kernel, "cpu.ms.Attention");
  for (size_t o = 0; o < fast.outputs.size(); ++o) {
    ASSERT_EQ(fast.outputs[o].dims(), slow.outputs[o].dims());
    auto got = kt::values<float>(fast.outputs[o]);
    auto want = kt::values<float>(slow.outputs[o]);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i)
      ASSERT_NEAR(got[i], want[i], 2e-5f * (1.0f + std::fabs(want[i])))
          << "output " << o << " at " << i;
  }
}

TEST(ContribAttentionGemm, PlainSizesAndHeads) {
  expectMatchesReference({1, 7, 16, 2, 16, 16, "", "", {}});
  expectMatchesReference({2, 33, 24, 3, 24, 24, "", "", {}});
  expectMatchesReference({1, 1, 8, 1, 8, 8, "", "", {}});
  // More than one tile of query rows (16K scores / T = 1).
  expectMatchesReference({1, 130, 16, 2, 16, 16, ", scale = 0.3", "", {}});
}

TEST(ContribAttentionGemm, QkvHiddenSizesAndUnidirectional) {
  expectMatchesReference({2, 9, 16, 2, 16, 8, "", "", {}});
  expectMatchesReference({2, 9, 16, 4, 16, 16, ", unidirectional = 1", "", {}});
}

TEST(ContribAttentionGemm, EveryMaskIndexForm) {
  using kt::i32;
  expectMatchesReference({2, 5, 8, 2, 8, 8, "", "int32[2]", i32({2}, {3, 5})});
  expectMatchesReference({2, 5, 8, 2, 8, 8, "", "int32[4]", i32({4}, {4, 5, 1, 2})});
  expectMatchesReference({2, 3, 8, 2, 8, 8, ", mask_filter_value = -5.0", "int32[2,3]",
                          i32({2, 3}, {1, 0, 1, 1, 1, 0})});
  expectMatchesReference(
      {1, 2, 8, 2, 8, 8, ", unidirectional = 1", "int32[1,2,2]", i32({1, 2, 2}, {1, 0, 1, 1})});
  expectMatchesReference({1, 2, 8, 2, 8, 8, "", "int32[1,1,4,4]",
                          i32({1, 1, 4, 4}, {1, 0, 0, 0, 1, 1, 0, 0, 1, 1, 1, 0, 1, 1, 1, 1})});
}

TEST(ContribAttentionGemm, PastPresentAndAttentionBias) {
  expectMatchesReference({2, 3, 8, 2, 8, 8, ", unidirectional = 1", "", {}, 4});
  expectMatchesReference({1, 1, 16, 4, 16, 16, "", "", {}, 6, true});
  expectMatchesReference({2, 4, 8, 2, 8, 8, "", "", {}, 0, true});
  // A past without present: the cache is laid out in the kernel's own buffer.
  expectMatchesReference({2, 3, 8, 2, 8, 8, ", unidirectional = 1", "", {}, 4, false, false});
}

// Per (batch, head, tile) the products below 2048 multiply-adds run as plain
// loops, the others on sgemm: both, with a past, a mask and present.
TEST(ContribAttentionGemm, PlainLoopAndSgemmProducts) {
  using kt::i32;
  // tiny_gpt2's decoding step: 6 x 4 heads of 8, one query row, T = 6 (48 each).
  expectMatchesReference(
      {6, 1, 32, 4, 32, 32, ", unidirectional = 1", "int32[6]", i32({6}, {6, 5, 6, 4, 6, 6}), 5});
  // 40 query rows x T = 48 x head 32 = 61440 each: sgemm.
  expectMatchesReference(
      {2, 40, 64, 2, 64, 64, ", unidirectional = 1", "int32[2]", i32({2}, {48, 30}), 8});
  // 40 x 48 x 32 without present, and a head of 64 with no past (64 x 64 x 64).
  expectMatchesReference({1, 40, 64, 2, 64, 64, "", "", {}, 8, false, false});
  expectMatchesReference({1, 64, 64, 1, 64, 64, ", unidirectional = 1", "", {}});
  // Either side of 2048: one row x T 31 x head 64 (plain), T 32 (sgemm).
  expectMatchesReference({2, 1, 64, 1, 64, 64, ", unidirectional = 1", "", {}, 30});
  expectMatchesReference({2, 1, 64, 1, 64, 64, ", unidirectional = 1", "", {}, 31});
}

TEST(ContribAttentionGemm, BadShapesAreStillRejected) {
  std::string text = R"(<ir_version: 8, opset_import: ["" : 17, "com.microsoft" : 1]>
    main (float[1,2,4] x, float[4,10] w) => (float[1,2,4] y) {
      y = com.microsoft.Attention <num_heads = 2> (x, w)
    })";
  EXPECT_NE(
      testutil::errorOf(text, {{"x", uniformF32({1, 2, 4}, 1)}, {"w", uniformF32({4, 10}, 2)}}),
      "");
}

}  // namespace
}  // namespace passlab::exec
