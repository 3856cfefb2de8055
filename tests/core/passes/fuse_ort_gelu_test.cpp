// fuse_ort_gelu: the erf and tanh GELU subgraphs (any association, Megatron's
// factored tanh argument) become com.microsoft Gelu / FastGelu, with a bias
// Add before them BiasGelu / FastGelu(x, bias); ONNX Gelu after a bias Add
// too; the reasons they stay; numerics.
#include <gtest/gtest.h>

#include <regex>

#include "tests/core/passes/fusion_test_util.h"
#include "tests/core/passes/ort_fusion_test_util.h"

namespace passlab::testing {
namespace {

const char* kPass = "fuse_ort_gelu";
const std::string kHeader = R"(<ir_version: 8, opset_import: ["" : 13]>)";
const std::string kMsHeader = R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>)";
const std::string kConsts =
    R"(float sq2 = {1.4142135}, float c = {0.7978845608}, float k = {0.044715}, float three = {3}, float one = {1}, float half = {0.5})";

// The declarations of kConsts that `body` reads (the pass leaves the others).
std::string constsFor(const std::string& body) {
  std::string out;
  for (const char* d :
       {"float sq2 = {1.4142135}", "float c = {0.7978845608}", "float k = {0.044715}",
        "float three = {3}", "float one = {1}", "float half = {0.5}"}) {
    std::string name = std::string(d).substr(6, std::string(d).find(' ', 6) - 6);
    if (std::regex_search(body, std::regex("[(, ]" + name + "[,)]")))
      out += (out.empty() ? "" : ", ") + std::string(d);
  }
  return out;
}

// A model reading x [2,3,4] (and m, b when `bias`), with `body` computing y.
std::string model(const std::string& body, bool bias = false,
                  const std::string& outputs = "float[2,3,4] y", const std::string& extra = "") {
  std::string inputs = "float[2,3,4] x";
  std::string inits = constsFor(body) + extra;
  if (bias) {
    inputs = "float[2,3,4] m";
    inits += ", float[4] b = {0.5, -1, 0.25, 2}";
  }
  return kHeader + "main (" + inputs + ") => (" + outputs + ") <" + inits + "> {\n" +
         (bias ? "x = Add(m, b)\n" : "") + body + " }";
}

const std::string kErf = R"(d = Div(x, sq2)
      e = Erf(d)
      p = Add(e, one)
      h = Mul(x, half)
      y = Mul(h, p))";

const std::string kTanh = R"(x3 = Pow(x, three)
      kx3 = Mul(k, x3)
      inner = Add(x, kx3)
      u = Mul(inner, c)
      t = Tanh(u)
      p = Add(t, one)
      xp = Mul(x, p)
      y = Mul(xp, half))";

// Megatron's form: sqrt(2/pi) * x * (1 + 0.044715 * x * x).
const std::string kMegatron = R"(h = Mul(x, half)
      cx = Mul(x, c)
      kx = Mul(x, k)
      kxx = Mul(kx, x)
      q = Add(kxx, one)
      u = Mul(cx, q)
      t = Tanh(u)
      p = Add(t, one)
      y = Mul(h, p))";

std::string expected(const std::string& node, bool bias = false) {
  return kMsHeader + "main (" + (bias ? "float[2,3,4] m" : "float[2,3,4] x") +
         ") => (float[2,3,4] y) " + (bias ? "<float[4] b = {0.5, -1, 0.25, 2}> " : "") + "{ " +
         node + " }";
}

TEST(FuseOrtGelu, ErfFormBecomesGelu) {
  expectRewrite(kPass, model(kErf), expected("y = com.microsoft.Gelu(x)"));
}

TEST(FuseOrtGelu, TanhFormBecomesFastGelu) {
  expectRewrite(kPass, model(kTanh), expected("y = com.microsoft.FastGelu(x)"));
}

TEST(FuseOrtGelu, MegatronTanhFormBecomesFastGelu) {
  expectRewrite(kPass, model(kMegatron), expected("y = com.microsoft.FastGelu(x)"));
}

TEST(FuseOrtGelu, BiasAddGoesIntoBiasGelu) {
  expectRewrite(kPass, model(kErf, true), expected("y = com.microsoft.BiasGelu(m, b)", true));
}

TEST(FuseOrtGelu, BiasAddGoesIntoFastGelu) {
  expectRewrite(kPass, model(kMegatron, true), expected("y = com.microsoft.FastGelu(m, b)", true));
}

TEST(FuseOrtGelu, OnnxGeluAfterABiasAdd) {
  const std::string h20 = R"(<ir_version: 9, opset_import: ["" : 20]>)";
  const std::string h20ms = R"(<ir_version: 9, opset_import: ["" : 20, "com.microsoft" : 1]>)";
  expectRewrite(kPass, h20 + R"(main (float[2,3,4] m) => (float[2,3,4] y, float[2,3,4] z)
      <float[4] b = {0.5, -1, 0.25, 2}> {
      x = Add(m, b)
      y = Gelu(x)
      x2 = Add(b, m)
      z = Gelu <approximate = "tanh"> (x2) })",
                h20ms + R"(main (float[2,3,4] m) => (float[2,3,4] y, float[2,3,4] z)
      <float[4] b = {0.5, -1, 0.25, 2}> {
      y = com.microsoft.BiasGelu(m, b)
      z = com.microsoft.FastGelu(m, b) })");
}

TEST(FuseOrtGelu, KeepsABiasAddReadElsewhere) {
  // The Add stays for its other reader; the GELU still fuses, on x.
  expectRewrite(kPass, model(kErf, true, "float[2,3,4] y, float[2,3,4] x"),
                kMsHeader + R"(main (float[2,3,4] m) => (float[2,3,4] y, float[2,3,4] x)
      <float[4] b = {0.5, -1, 0.25, 2}> {
      x = Add(m, b)
      y = com.microsoft.Gelu(x) })");
}

TEST(FuseOrtGelu, KeepsAWrongTanhArgument) {
  expectUnchanged(kPass,
                  model(R"(x3 = Pow(x, three)
      kx3 = Mul(k2, x3)
      inner = Add(x, kx3)
      u = Mul(inner, c)
      t = Tanh(u)
      p = Add(t, one)
      xp = Mul(x, p)
      y = Mul(xp, half))",
                        false, "float[2,3,4] y", ", float k2 = {0.05}"),
                  "the Tanh input is not sqrt(2/pi) * (x + 0.044715 x^3)");
}

TEST(FuseOrtGelu, KeepsAnArgumentReadingAnotherTensor) {
  expectUnchanged(kPass, kHeader + R"(main (float[2,3,4] x, float[2,3,4] w) => (float[2,3,4] y)
      <float sq2 = {1.4142135}, float one = {1}, float half = {0.5}> {
      d = Div(w, sq2)
      e = Erf(d)
      p = Add(e, one)
      h = Mul(x, half)
      y = Mul(h, p) })",
                  "the Erf input is not built from x and scalar constants alone");
}

TEST(FuseOrtGelu, KeepsAnIntermediateThatIsAGraphOutput) {
  expectUnchanged(kPass, model(kTanh, false, "float[2,3,4] y, float[2,3,4] t"),
                  "'t' is a graph output");
}

TEST(FuseOrtGelu, KeepsAnOnnxGeluWithoutBias) {
  expectUnchanged(kPass, R"(<ir_version: 9, opset_import: ["" : 20]>
      main (float[2,3,4] x) => (float[2,3,4] y) { y = Gelu(x) })",
                  "the GELU input is not a bias Add");
}

TEST(FuseOrtGelu, SkippedInStandardOnlyMode) {
  expectSkippedWhenStandardOnly(kPass, model(kErf));
}

TEST(FuseOrtGelu, Converges) {
  expectConverges(kPass, model(kMegatron, true));
  expectConverges(kPass, model(kErf));
}

TEST(FuseOrtGelu, OutputsStayTheSame) {
  expectSameOutputs(kPass, kHeader +
                               R"(main (float[4,5] m) => (float[4,5] y, float[4,5] z, float[4,5] w)
      <float[5] b = {0.5, -1, 0.25, 2, -3}, )" +
                               kConsts + R"(> {
      x = Add(m, b)
      d = Div(x, sq2)
      e = Erf(d)
      p = Add(e, one)
      h = Mul(x, half)
      y = Mul(h, p)
      x3 = Pow(m, three)
      kx3 = Mul(k, x3)
      inner = Add(m, kx3)
      u = Mul(inner, c)
      t = Tanh(u)
      q = Add(t, one)
      mq = Mul(m, q)
      z = Mul(mq, half)
      x2 = Add(b, m)
      h2 = Mul(x2, half)
      cx = Mul(x2, c)
      kx = Mul(x2, k)
      kxx = Mul(kx, x2)
      q2 = Add(kxx, one)
      u2 = Mul(cx, q2)
      t2 = Tanh(u2)
      p2 = Add(t2, one)
      w = Mul(h2, p2) })");
}

}  // namespace
}  // namespace passlab::testing
