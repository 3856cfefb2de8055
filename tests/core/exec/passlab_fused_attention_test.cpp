// ai.passlab FusedAttention against the chain it replaces (MatMul, scale,
// masks, Softmax, MatMul) on the reference kernels: the sgemm tiles and the
// small-problem loops, K as given or transposed, broadcast batch dims, every
// mask kind, causal rows, and the input checks.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "tests/core/exec/kernel_test_util.h"

namespace passlab::exec {
namespace {

const char* kHeader = R"(<ir_version: 8, opset_import: ["" : 17, "ai.passlab" : 1]>)";

ir::Tensor rnd(kt::Dims dims, unsigned seed, float scale = 2.0f) {
  return kt::uniformF32(std::move(dims), seed, scale);
}

ir::Tensor boolMask(kt::Dims dims, unsigned seed) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  std::mt19937 g(seed);
  std::vector<uint8_t> v(static_cast<size_t>(n));
  for (auto& x : v) x = (g() % 4) != 0;
  v[0] = 1;  // a row never fully masked in the cases below needs one kept key
  return kt::b8(std::move(dims), v);
}

ir::Tensor run(const std::string& body, const NamedInputs& inputs, bool reference) {
  return kt::runOneOutput(std::string(kHeader) + body, inputs, reference);
}

struct Shapes {
  kt::Dims q, kt, v, out;
};

// GPT-2's form: K given transposed (Kt [.., H, T]), scale as a Div after the product.
void checkCase(const Shapes& s, bool withAdd, bool withBool, bool withMul, const kt::Dims& md,
               unsigned seed) {
  NamedInputs in{{"q", rnd(s.q, seed)}, {"kt", rnd(s.kt, seed + 1)}, {"v", rnd(s.v, seed + 2)}};
  std::string sig = "float[" + kt::dimsText(s.q) + "] q, float[" + kt::dimsText(s.kt) +
                    "] kt, float[" + kt::dimsText(s.v) + "] v";
  std::string chain = "  s0 = MatMul(q, kt)\n  s1 = Div(s0, c)\n";
  std::string last = "s1";
  std::string fusedIns = "q, kt, v, ";
  if (withMul) {
    in.emplace_back("mm", rnd(md, seed + 3, 1.0f));
    sig += ", float[" + kt::dimsText(md) + "] mm";
    chain += "  s2 = Mul(" + last + ", mm)\n";
    last = "s2";
    fusedIns += "mm, ";
  } else {
    fusedIns += ", ";
  }
  if (withAdd) {
    in.emplace_back("ma", rnd(md, seed + 4, 3.0f));
    sig += ", float[" + kt::dimsText(md) + "] ma";
    chain += "  s3 = Sub(" + last + ", ma)\n";
    last = "s3";
    fusedIns += "ma, ";
  } else {
    fusedIns += ", ";
  }
  std::string attrs = "scale = 0.125, k_transposed = 1";
  if (withAdd) attrs += ", mask_subtract = 1";
  if (withBool) {
    in.emplace_back("mb", boolMask(md, seed + 5));
    sig += ", bool[" + kt::dimsText(md) + "] mb";
    chain += "  s4 = Where(mb, " + last + ", f)\n";
    last = "s4";
    fusedIns += "mb";
    attrs += ", mask_filter_value = -10000.0";
  }
  while (!fusedIns.empty() && (fusedIns.back() == ' ' || fusedIns.back() == ','))
    fusedIns.pop_back();
  const std::string head = "main (" + sig + ") => (float[" + kt::dimsText(s.out) + "] y) ";
  const std::string consts = "<float c = {8}, float f = {-10000}> ";
  std::string chainText = head + consts + "{\n" + chain + "  p = Softmax<axis = -1>(" + last +
                          ")\n  y = MatMul(p, v)\n}";
  std::string fusedText =
      head + "{\n  y = ai.passlab.FusedAttention<" + attrs + ">(" + fusedIns + ")\n}";
  ir::Tensor want = run(chainText, in, true);
  kt::expectClose(run(fusedText, in, false), want, fusedText);
}

TEST(PassLabFusedAttention, MatchesTheChainOnTilesAndSmallProblems) {
  // Decoder step (one row, loops), a 1x4 tiny head, and prompts long enough for sgemm tiles.
  for (auto [S, T, H] : std::vector<std::array<int64_t, 3>>{
           {1, 5, 8}, {1, 33, 64}, {4, 4, 2}, {7, 7, 16}, {64, 64, 64}, {130, 130, 64}})
    for (int masks = 0; masks < 8; ++masks) {
      Shapes s{{1, 3, S, H}, {1, 3, H, T}, {1, 3, T, H}, {1, 3, S, H}};
      const bool add = masks & 1, boolean = masks & 2, mul = masks & 4;
      checkCase(s, add, boolean, mul, {1, 1, S, T}, static_cast<unsigned>(S * 100 + masks));
    }
}

TEST(PassLabFusedAttention, BroadcastBatchDimsAndMasks) {
  // V shared by the heads, masks per batch row ([B, 1, 1, T]) and per key ([T]).
  Shapes s{{2, 3, 5, 8}, {2, 3, 8, 6}, {2, 1, 6, 4}, {2, 3, 5, 4}};
  checkCase(s, true, true, true, {2, 1, 1, 6}, 7);
  checkCase(s, true, false, false, {6}, 8);
  checkCase(s, false, true, false, {5, 1}, 9);
}

TEST(PassLabFusedAttention, KeysNotTransposedAndDefaultScale) {
  NamedInputs in{{"q", rnd({2, 5, 16}, 1)}, {"k", rnd({2, 9, 16}, 2)}, {"v", rnd({2, 9, 8}, 3)}};
  const std::string head =
      "main (float[2,5,16] q, float[2,9,16] k, float[2,9,8] v) => (float[2,5,8] y) ";
  ir::Tensor want = run(head + R"(<float c = {4}> {
      kt = Transpose<perm = [0, 2, 1]>(k)
      s0 = MatMul(q, kt)
      s1 = Div(s0, c)
      p = Softmax<axis = -1>(s1)
      y = MatMul(p, v) })",
                        in, true);
  kt::expectClose(run(head + "{ y = ai.passlab.FusedAttention(q, k, v) }", in, false), want,
                  "default scale 1/sqrt(16)");
}

TEST(PassLabFusedAttention, CausalLeavesOutLaterKeys) {
  // Three query rows at the end of six keys: row s sees keys t <= s + 3.
  NamedInputs in{{"q", rnd({1, 3, 4}, 4)}, {"kt", rnd({1, 4, 6}, 5)}, {"v", rnd({1, 6, 4}, 6)}};
  const std::string head =
      "main (float[1,3,4] q, float[1,4,6] kt, float[1,6,4] v) => (float[1,3,4] y) ";
  ir::Tensor want =
      run(head + R"(<bool[3,6] m = {1,1,1,1,0,0, 1,1,1,1,1,0, 1,1,1,1,1,1}, float f = {-1e30}> {
      s0 = MatMul(q, kt)
      s1 = Where(m, s0, f)
      p = Softmax<axis = -1>(s1)
      y = MatMul(p, v) })",
          in, true);
  kt::expectClose(
      run(head + "{ y = ai.passlab.FusedAttention<scale = 1.0, k_transposed = 1, causal = "
                 "1>(q, kt, v) }",
          in, false),
      want, "causal");
  // mask_keep = 0: the mask marks the keys left out.
  ir::Tensor want2 =
      run(head + R"(<bool[3,6] m = {0,0,0,0,1,1, 0,0,0,0,0,1, 0,0,0,0,0,0}, float f = {-1e30}> {
      s0 = MatMul(q, kt)
      s1 = Where(m, f, s0)
      p = Softmax<axis = -1>(s1)
      y = MatMul(p, v) })",
          in, true);
  kt::expectClose(run(head + R"(<bool[3,6] m = {0,0,0,0,1,1, 0,0,0,0,0,1, 0,0,0,0,0,0}> {
      y = ai.passlab.FusedAttention<scale = 1.0, k_transposed = 1, mask_keep = 0, mask_filter_value = -1e30>(q, kt, v, , , m) })",
                      in, false),
                  want2, "mask_keep = 0");
}

TEST(PassLabFusedAttention, RejectsShapesThatDoNotChain) {
  NamedInputs in{{"q", rnd({1, 3, 4}, 4)}, {"kt", rnd({1, 5, 6}, 5)}, {"v", rnd({1, 6, 4}, 6)}};
  EXPECT_TRUE(kt::contains(
      testutil::errorOf(
          std::string(kHeader) +
              "main (float[1,3,4] q, float[1,5,6] kt, float[1,6,4] v) => (float[1,3,4] y) "
              "{ y = ai.passlab.FusedAttention<k_transposed = 1>(q, kt, v) }",
          in),
      "do not chain"));
}

}  // namespace
}  // namespace passlab::exec
