// fuse_ort_attention: GPT-2 (Gemm projection, K transposed at once, cache,
// causal Where), Megatron (MatMul projection, cache, q and kᵀ scaled apart,
// s*m - 10000*(1-m) mask) and BERT (padding mask Add, no cache) attention
// become com.microsoft Attention; the reasons they stay; numerics.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>

#include "core/rewrite/rewriter.h"
#include "tests/core/passes/fusion_test_util.h"
#include "tests/core/passes/ort_fusion_test_util.h"

namespace passlab::testing {
namespace {

const char* kPass = "fuse_ort_attention";

// B = 2, S = 3, hidden 8 = 2 heads x 4, cache P = 2 (T = 5), masks up to M = 8.
struct Form {
  bool past = true;
  bool bias = true;
  bool gemm = false;          // Reshape -> Gemm -> Reshape projection
  std::string mask = "none";  // none, causal, megatron, padding, square (not causal)
  bool present = true;
  bool kDirect = false;     // K transposed to [B, N, H, S] by one Transpose [0, 2, 3, 1]
  bool scaleApart = false;  // q and kᵀ each divided by sqrt(sqrt(H)) (Megatron)
  std::string extraOutputs;
};

std::string tril(bool lower) {
  std::string s = "{";
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j)
      s += std::string(i || j ? ", " : "") + ((j <= i) == lower ? "1" : "0");
  return s + "}";
}

std::string attentionModel(const Form& f) {
  const int T = f.past ? 5 : 3;
  const std::string t = std::to_string(T);
  std::string inputs = "float[2,3,8] x";
  if (f.past) inputs += ", float[2,2,2,2,4] past";
  if (f.mask == "megatron") inputs += ", bool[2,1,8,8] mb";
  if (f.mask == "padding") inputs += ", bool[2," + t + "] pm";
  std::string outputs = "float[2,3,8] y";
  if (f.present) outputs += ", float[2,2,2," + t + ",4] present";
  outputs += f.extraOutputs;
  std::string body;
  if (f.gemm) {
    body += "xf = Reshape(x, flat)\n";
    body += f.bias ? "gm = Gemm(xf, w, b)\n" : "gm = Gemm(xf, w)\n";
    body += "qkv = Reshape(gm, unflat)\n";
  } else {
    body += f.bias ? "mm = MatMul(x, w)\n qkv = Add(mm, b)\n" : "qkv = MatMul(x, w)\n";
  }
  body += R"(q, k, v = Split <axis = 2> (qkv, split)
      qr = Reshape(q, hs)
      qt = Transpose <perm = [0, 2, 1, 3]> (qr)
      vr = Reshape(v, hs)
      vt = Transpose <perm = [0, 2, 1, 3]> (vr)
      kr = Reshape(k, hs)
)";
  std::string keyBnth, kT, vc, sm;
  if (f.kDirect) {
    body += "kdt = Transpose <perm = [0, 2, 3, 1]> (kr)\n";
    kT = "kdt";
    if (f.past) {
      body += "pk = Gather(past, zero)\n pkt = Transpose <perm = [0, 1, 3, 2]> (pk)\n";
      body += "kT = Concat <axis = -1> (pkt, kdt)\n";
      kT = "kT";
    }
    body += "kb = Transpose <perm = [0, 1, 3, 2]> (" + kT + ")\n";
    keyBnth = "kb";
  } else {
    body += "kt = Transpose <perm = [0, 2, 1, 3]> (kr)\n";
    keyBnth = "kt";
    if (f.past) {
      body += "pk = Gather(past, zero)\n kc = Concat <axis = -2> (pk, kt)\n";
      keyBnth = "kc";
    }
    body += "kT = Transpose <perm = [0, 1, 3, 2]> (" + keyBnth + ")\n";
    kT = "kT";
  }
  vc = "vt";
  if (f.past) {
    body += "pv = Gather(past, one)\n vc = Concat <axis = -2> (pv, vt)\n";
    vc = "vc";
  }
  if (f.scaleApart)
    body += "qs = Div(qt, sq)\n kTs = Div(" + kT + ", sq)\n ss = MatMul(qs, kTs)\n";
  else
    body += "s = MatMul(qt, " + kT + ")\n ss = Div(s, sc)\n";
  sm = "sm";
  if (f.mask == "none") {
    sm = "ss";
  } else if (f.mask == "causal" || f.mask == "square") {
    body += "m1 = Slice(" + std::string(f.mask == "causal" ? "tril" : "square") +
            ", rs, re, ax2)\n m2 = Slice(m1, cs, re, ax3)\n mbool = Cast <to = 9> (m2)\n"
            "sm = Where(mbool, ss, neg)\n";
  } else if (f.mask == "megatron") {
    body +=
        "mf = Cast <to = 1> (mb)\n m1 = Slice(mf, rs, re, ax2)\n m2 = Slice(m1, cs, re, ax3)\n"
        "a1 = Mul(ss, m2)\n c1 = Sub(onef, m2)\n c2 = Mul(c1, big)\n sm = Sub(a1, c2)\n";
  } else if (f.mask == "padding") {
    body +=
        "pf = Cast <to = 1> (pm)\n p4 = Unsqueeze(pf, un12)\n c1 = Sub(onef, p4)\n"
        "c2 = Mul(c1, neg)\n sm = Add(ss, c2)\n";
  }
  body += "p = Softmax <axis = 3> (" + sm + ")\n c = MatMul(p, " + vc + ")\n";
  body += R"(ct = Transpose <perm = [0, 2, 1, 3]> (c)
      y = Reshape(ct, ms)
)";
  if (f.present)
    body += "uk = Unsqueeze(" + keyBnth + ", ax0)\n uv = Unsqueeze(" + vc +
            ", ax0)\n present = Concat <axis = 0> (uk, uv)\n";
  // The constants the body reads.
  const std::vector<std::pair<std::string, std::string>> consts = {
      {"w", "float[8,24] w = " + someValues(192, 1, 0.3)},
      {"b", "float[24] b = " + someValues(24, 2, 0.1)},
      {"hs", "int64[4] hs = {2, 3, 2, 4}"},
      {"ms", "int64[3] ms = {2, 3, 8}"},
      {"split", "int64[3] split = {8, 8, 8}"},
      {"zero", "int64 zero = {0}"},
      {"one", "int64 one = {1}"},
      {"ax0", "int64[1] ax0 = {0}"},
      {"sc", "float sc = {2}"},
      {"sq", "float sq = {1.4142135}"},
      {"neg", "float neg = {-10000}"},
      {"big", "float big = {10000}"},
      {"onef", "float onef = {1}"},
      {"flat", "int64[2] flat = {6, 8}"},
      {"unflat", "int64[3] unflat = {2, 3, 24}"},
      {"un12", "int64[2] un12 = {1, 2}"},
      {"rs", "int64[1] rs = {" + std::to_string(T - 3) + "}"},
      {"re", "int64[1] re = {" + t + "}"},
      {"ax2", "int64[1] ax2 = {2}"},
      {"cs", "int64[1] cs = {0}"},
      {"ax3", "int64[1] ax3 = {3}"},
      {"tril", "float[1,1,8,8] tril = " + tril(true)},
      {"square", "float[1,1,8,8] square = " + tril(false)}};
  std::string inits;
  for (const auto& [name, decl] : consts)
    if (std::regex_search(body, std::regex("[(, ]" + name + "[,)]")))
      inits += (inits.empty() ? "" : ", ") + decl;
  return R"(<ir_version: 8, opset_import: ["" : 13]> main ()" + inputs + ") => (" + outputs +
         ") <" + inits + "> {\n" + body + "}";
}

// The fused model: `nodes` computing y (and present) from the same inputs.
std::string fused(const Form& f, const std::string& nodes, bool keepBias = true) {
  const std::string t = f.past ? "5" : "3";
  std::string inputs = "float[2,3,8] x";
  if (f.past) inputs += ", float[2,2,2,2,4] past";
  if (f.mask == "megatron") inputs += ", bool[2,1,8,8] mb";
  if (f.mask == "padding") inputs += ", bool[2," + t + "] pm";
  std::string outputs = "float[2,3,8] y";
  if (f.present) outputs += ", float[2,2,2," + t + ",4] present";
  std::string inits = "float[8,24] w = " + someValues(192, 1, 0.3);
  if (keepBias) inits += ", float[24] b = " + someValues(24, 2, 0.1);
  return R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]> main ()" + inputs +
         ") => (" + outputs + ") <" + inits + "> {\n" + nodes + "\n}";
}

Form gpt2() {
  Form f;
  f.gemm = true;
  f.mask = "causal";
  f.kDirect = true;
  return f;
}

Form megatron() {
  Form f;
  f.mask = "megatron";
  f.scaleApart = true;
  return f;
}

Form bert() {
  Form f;
  f.past = false;
  f.present = false;
  f.mask = "padding";
  return f;
}

TEST(FuseOrtAttention, Gpt2WithCacheAndCausalMask) {
  Form f = gpt2();
  expectRewrite(
      kPass, attentionModel(f),
      fused(
          f,
          R"(y, present = com.microsoft.Attention <num_heads = 2, unidirectional = 1> (x, w, b, "", past))"));
}

TEST(FuseOrtAttention, MegatronMaskBecomesAFourDimensionalMaskIndex) {
  Form f = megatron();
  expectRewrite(kPass, attentionModel(f), fused(f, R"(mf = Cast <to = 1> (mb)
      mi = Cast <to = 6> (mf)
      y, present = com.microsoft.Attention <num_heads = 2, unidirectional = 0> (x, w, b, mi, past))"));
}

TEST(FuseOrtAttention, BertPaddingMaskWithoutCache) {
  Form f = bert();
  expectRewrite(kPass, attentionModel(f), fused(f, R"(mi = Cast <to = 6> (pm)
      y = com.microsoft.Attention <num_heads = 2, unidirectional = 0> (x, w, b, mi))"));
}

TEST(FuseOrtAttention, NoBiasNoMask) {
  Form f;
  f.bias = false;
  expectRewrite(
      kPass, attentionModel(f),
      fused(
          f,
          R"(y, present = com.microsoft.Attention <num_heads = 2, unidirectional = 0> (x, w, "", "", past))",
          false));
}

TEST(FuseOrtAttention, SkippedInStandardOnlyMode) {
  expectSkippedWhenStandardOnly(kPass, attentionModel(gpt2()));
}

TEST(FuseOrtAttention, KeepsAMaskThatIsNotCausal) {
  Form f = gpt2();
  f.mask = "square";  // upper-triangular: not what unidirectional masks
  expectUnchanged(kPass, attentionModel(f), "the Where condition is not triangular");
}

TEST(FuseOrtAttention, KeepsAFloatMaskUnlessItIsAssumedBinary) {
  expectUnchanged(kPass, attentionModel(megatron()), "assume_binary_mask = false",
                  {{"assume_binary_mask", "false"}});
}

TEST(FuseOrtAttention, KeepsScoresThatAreAGraphOutput) {
  Form f = gpt2();
  f.extraOutputs = ", float[2,2,3,5] s";
  expectUnchanged(kPass, attentionModel(f), "'s' is a graph output");
}

TEST(FuseOrtAttention, KeepsProbabilitiesReadElsewhere) {
  Form f = gpt2();
  f.extraOutputs = ", float[2,2,3,5] p";
  expectUnchanged(kPass, attentionModel(f),
                  "the probabilities are not multiplied by V in one MatMul");
}

TEST(FuseOrtAttention, Converges) {
  expectConverges(kPass, attentionModel(gpt2()));
  expectConverges(kPass, attentionModel(megatron()));
}

// The edit log of a fusion with Shape nodes reading the subgraph (removed
// with it) is the same whatever the addresses of those nodes: they used to
// be removed in pointer order. Two models alike but for where the Shape nodes
// were allocated: freed slots are reused last-freed-first, so freeing three
// dummy nodes in one order or the other gives the Shape nodes ascending or
// descending addresses, with the same ids.
std::string editLogText(bool reverseAddresses) {
  auto parsed = io::parseModelText(attentionModel(gpt2()));
  EXPECT_TRUE(parsed) << parsed.error().message();
  ir::Model model = std::move(parsed.value());
  ir::Graph& g = model.graph();
  {
    rewrite::EditLog scratch;
    rewrite::Rewriter rw(model, scratch);
    std::vector<ir::Node*> dummies;
    for (int i = 0; i < 4; ++i)
      dummies.push_back(rw.addNode(g, "Relu", "", {g.findValue("x")}, 1, nullptr, "", {}));
    if (reverseAddresses) std::reverse(dummies.begin(), dummies.end());
    for (ir::Node* d : dummies) rw.removeNode(d);
    for (const char* v : {"qt", "vt", "kr", "p"})
      rw.addNode(g, "Shape", "", {g.findValue(v)}, 1, nullptr, "", {});
  }
  analysis::inferShapes(model);
  pipeline::PipelineOptions po;
  po.keepSnapshots = false;
  po.standardOnly = false;
  pipeline::PassManager pm(model, po);
  auto step = pm.run({kPass, {}, {}});
  EXPECT_TRUE(step) << step.error().message();
  if (!step) return "";
  EXPECT_TRUE((*step)->changed) << (*step)->error;
  std::string text;
  for (const rewrite::Edit& e : (*step)->log.edits())
    text += std::to_string(static_cast<int>(e.kind)) + " #" + std::to_string(e.node) + " " +
            e.from + " -> " + e.to + " " + e.detail + "\n";
  return text;
}

TEST(FuseOrtAttention, EditLogDoesNotDependOnNodeAddresses) {
  const std::string ascending = editLogText(false);
  const std::string descending = editLogText(true);
  EXPECT_NE(ascending.find("Shape"), std::string::npos) << ascending;
  EXPECT_EQ(ascending, descending);
}

TEST(FuseOrtAttention, OutputsStayTheSame) {
  expectSameOutputs(kPass, attentionModel(gpt2()));
  expectSameOutputs(kPass, attentionModel(megatron()));
  expectSameOutputs(kPass, attentionModel(bert()));
}

}  // namespace
}  // namespace passlab::testing
