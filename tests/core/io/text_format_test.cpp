// The text format: parse, print, parse again gives the same graph.
#include <gtest/gtest.h>

#include "core/io/text_format.h"
#include "tests/support/test_support.h"

namespace passlab::io {
namespace {

const char* kModel = R"(
<ir_version: 8, opset_import: ["" : 17, "com.microsoft" : 1]>
main (float[N,3] X, bool c) => (float[N,3] Y, float[N,3] Z)
<float[3] B = {1.5, -2, 3e-3}, int64[2] shape = {-1, 3}>
{
  [add] T = Add(X, B)
  R = Reshape(T, shape)
  Y = Relu(R)
  Q = com.microsoft.FastGelu(Y, B)
  S, "" = Dropout <seed = 3> (Q)
  Z = If <
    then_branch = then_g () => (float[N,3] a) { a = Identity(S) },
    else_branch = else_g () => (float[N,3] b) { b = Neg(S) }> (c)
  P = Transpose <perm = [1, 0]> (X)
  V = Clip(X, , B)
}
)";

TEST(TextFormat, ParsesNodesAttributesAndSubgraphs) {
  auto m = parseModelText(kModel);
  ASSERT_TRUE(m) << m.error().message();
  const auto& g = m->graph();
  EXPECT_EQ(g.nodeCount(), 8u);
  EXPECT_EQ(g.inputs().size(), 2u);
  EXPECT_EQ(g.initializers().size(), 2u);
  const ir::Node* add = g.nodes().front().get();
  EXPECT_EQ(add->name(), "add");
  EXPECT_EQ(add->opType(), "Add");
  const ir::Value* b = g.findValue("B");
  ASSERT_TRUE(b && b->isInitializer());
  EXPECT_FLOAT_EQ(b->initializer()->data<float>()[1], -2.0f);
  const ir::Value* y = g.findValue("Y");
  ASSERT_NE(y, nullptr);
  ir::Node* gelu = y->uses()[0].node;
  EXPECT_EQ(gelu->domain(), "com.microsoft");
  const ir::Node* drop = g.findValue("S")->producer();
  EXPECT_EQ(drop->outputCount(), 2u);
  EXPECT_EQ(drop->output(1), nullptr);
  EXPECT_EQ(drop->attrInt("seed", 0), 3);
  const ir::Node* iff = g.findValue("Z")->producer();
  ASSERT_EQ(iff->subgraphs().size(), 2u);
  // The branches read S from the enclosing graph.
  EXPECT_EQ(g.findValue("S")->uses().size(), 2u);
  EXPECT_EQ(g.findValue("P")->producer()->attrInts("perm"), (std::vector<int64_t>{1, 0}));
  const ir::Node* clip = g.findValue("V")->producer();
  EXPECT_EQ(clip->input(1), nullptr);
  EXPECT_EQ(clip->input(2), b);
}

TEST(TextFormat, PrintThenParseIsStable) {
  auto m = parseModelText(kModel);
  ASSERT_TRUE(m) << m.error().message();
  std::string once = printModelText(*m);
  auto again = parseModelText(once);
  ASSERT_TRUE(again) << again.error().message() << "\n" << once;
  EXPECT_EQ(printModelText(*again), once);
}

// An omitted output keeps its position whether written "" or left empty
// between commas; the printer writes "" and reads it back the same.
TEST(TextFormat, OmittedOutputsKeepTheirPosition) {
  for (const char* outs : {"a, , c", "a, \"\", c", ", b, c"}) {
    SCOPED_TRACE(outs);
    std::string text = std::string("main (float[6] x) => (float[2] y) {\n  ") + outs +
                       " = Split<num_outputs = 3>(x)\n  y = Neg(c)\n}";
    auto m = parseModelText(text);
    ASSERT_TRUE(m) << m.error().message();
    const ir::Node* split = m->graph().findValue("c")->producer();
    ASSERT_EQ(split->outputCount(), 3u);
    EXPECT_EQ(split->output(2)->name(), "c");
    const size_t omitted = outs[0] == ',' ? 0 : 1;
    EXPECT_EQ(split->output(omitted), nullptr);
    EXPECT_NE(split->output(1 - omitted), nullptr);
  }
}

// Every comma separates two slots, in inputs and outputs alike: a trailing
// one leaves the last slot omitted (it was dropped from inputs and kept as
// an empty name only when the list began with a comma).
TEST(TextFormat, ATrailingCommaLeavesTheLastSlotOmitted) {
  auto m = parseModelText(R"(main (float[6] x) => (float[3] y) {
  a, = Split<num_outputs = 2>(x)
  y = Relu(a,)
})");
  ASSERT_TRUE(m) << m.error().message();
  const ir::Node* split = m->graph().findValue("a")->producer();
  ASSERT_EQ(split->outputCount(), 2u);
  EXPECT_EQ(split->output(1), nullptr);
  const ir::Node* relu = m->graph().findValue("y")->producer();
  ASSERT_EQ(relu->inputs().size(), 2u);
  EXPECT_EQ(relu->input(0)->name(), "a");
  EXPECT_EQ(relu->input(1), nullptr);
  auto again = parseModelText(printModelText(*m));  // written with "" and read the same
  ASSERT_TRUE(again) << again.error().message();
  EXPECT_EQ(printModelText(*again), printModelText(*m));
}

TEST(TextFormat, ErrorsGiveLineAndColumn) {
  auto m = parseModelText("main (float[2] x) => (float[2] y) {\n  y = Relu(x\n}");
  ASSERT_FALSE(m);
  EXPECT_NE(m.error().message().find("line 3"), std::string::npos) << m.error().message();
}

TEST(TextFormat, UndefinedValueIsRejected) {
  auto m = parseModelText("main (float[2] x) => (float[2] y) { y = Add(x, nowhere) }");
  ASSERT_FALSE(m);
  EXPECT_NE(m.error().message().find("nowhere"), std::string::npos) << m.error().message();
}

TEST(TextFormat, MissingCommasBetweenNamesAreErrors) {
  // Two names in a row used to be read as two outputs (or inputs).
  struct Case {
    const char* body;
    const char* mentions;
  };
  for (const Case& c :
       {Case{"a b = Split<num_outputs = 2>(x)\n  y = Neg(a)", "after output 'a'"},
        Case{"y = Add(x x)", "after 'x'"},
        Case{"a, \"\" c = Split<num_outputs = 3>(x)\n  y = Neg(a)", "after output ''"}}) {
    SCOPED_TRACE(c.body);
    auto m =
        parseModelText(std::string("main (float[2] x) => (float[2] y) {\n  ") + c.body + "\n}");
    ASSERT_FALSE(m);
    EXPECT_NE(m.error().message().find(c.mentions), std::string::npos) << m.error().message();
    EXPECT_NE(m.error().message().find("line 2"), std::string::npos) << m.error().message();
  }
  // With the commas, the same lines parse.
  EXPECT_TRUE(
      parseModelText("main (float[2] x) => (float[2] y) {\n  a, b = "
                     "Split<num_outputs = 2>(x)\n  y = Add(a, b)\n}"));
}

}  // namespace
}  // namespace passlab::io
