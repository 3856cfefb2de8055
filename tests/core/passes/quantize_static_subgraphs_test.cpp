// quantize_static inside If branches and Loop bodies (#25): the values of a
// body are calibrated on every run of it (each branch taken, each Loop
// iteration), QDQ placed in the body as in the main graph with the body's
// inputs and outputs float32; a branch no calibration run takes stays
// float32; subgraphs=false and excluded nodes leave bodies as they are.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/analysis/shape_inference.h"
#include "core/io/text_format.h"
#include "core/ir/verifier.h"
#include "core/pipeline/calibration.h"
#include "core/pipeline/pass_manager.h"
#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

const char* kPass = "quantize_static";

// Two Convs in the then branch (a weight of the branch, a weight of the main
// graph), one in the else branch (the main graph's weight); both branches
// read the main graph's input x.
const char* kIfConvs = R"(<ir_version: 8, opset_import: ["" : 13]>
main (bool[] c, float[1,2,4,4] x) => (float[1,2,4,4] y)
    <float[2,2,3,3] w = {0.5, -0.25, 0.125, 1, -1, 0.75, 0.5, 0.25, -0.5,
                         0.25, 0.5, -0.75, 0.125, 0.5, 1, -0.25, 0.375, 0.625,
                         -0.5, 0.25, 0.75, -0.125, 1, 0.5, 0.25, -0.75, 0.5,
                         1, -0.5, 0.25, 0.5, -0.375, 0.125, 0.75, 0.5, -1}> {
    y = If <then_branch = g1 () => (float[1,2,4,4] a)
              <float[2,2,3,3] wt = {1, 0.5, -0.5, 0.25, -0.25, 0.75, 0.5, -1, 0.125,
                                    -0.5, 0.25, 0.5, 1, -0.75, 0.25, 0.5, 0.125, -0.25,
                                    0.75, -0.5, 0.25, 0.5, 1, -0.125, 0.25, 0.5, -0.75,
                                    0.5, 0.25, -1, 0.75, 0.5, 0.25, -0.5, 1, 0.125}> {
              t = Conv <pads = [1, 1, 1, 1]> (x, wt)
              r = Relu(t)
              a = Conv <pads = [1, 1, 1, 1]> (r, w) },
          else_branch = g2 () => (float[1,2,4,4] b) {
              b = Conv <pads = [1, 1, 1, 1]> (x, w) }> (c) })";

// Calibration sets of kIfConvs: x seeded in [-1, 1], c as given per set.
pipeline::CalibratingEvaluator ifSets(const std::vector<bool>& conditions) {
  std::vector<exec::NamedInputs> sets;
  unsigned seed = 7;
  for (bool c : conditions) {
    std::vector<float> x(32);
    for (float& v : x) {
      seed = seed * 1103515245u + 12345u;
      v = static_cast<float>((seed >> 8) % 2001) / 1000.0f - 1.0f;
    }
    sets.push_back(
        {{"c", exec::Value(
                   ir::Tensor::fromVector<uint8_t>(ir::DataType::kBool, {}, {uint8_t(c ? 1 : 0)}))},
         {"x", exec::Value(ir::Tensor::fromVector<float>(ir::DataType::kFloat, {1, 2, 4, 4}, x))}});
  }
  return pipeline::CalibratingEvaluator(std::move(sets));
}

const ir::Graph* branch(const ir::Model& m, const char* name) {
  for (const auto& n : m.graph().nodes())
    if (n->opType() == "If") return n->attr(name)->g.get();
  return nullptr;
}

size_t count(const ir::Graph& g, const std::string& op) {
  size_t k = 0;
  for (const auto& n : g.nodes()) k += n->opType() == op;
  return k;
}

bool readsDequantized(const ir::Node& n, size_t i) {
  const ir::Value* v = n.input(i);
  return v && v->producer() && v->producer()->opType() == "DequantizeLinear";
}

std::string printed(const ir::Model& m) {
  return io::printModelText(m);
}

ir::Model parsed(const char* text) {
  auto model = io::parseModelText(text);
  EXPECT_TRUE(model) << model.error().message();
  analysis::inferShapes(*model);
  return std::move(*model);
}

// Calibrated on sets that all take the then branch: its two Convs become
// QDQ node units inside it (int8 weights in the branch, x quantized in the
// branch, the branch's output float32); the else branch, which no
// calibration run took, stays float32 and the note says so.
TEST(QuantizeStaticSubgraphs, QdqInsideTheIfBranchCalibrationTook) {
  auto eval = ifSets({true, true, true});
  PassOutcome out = runPass(kPass, kIfConvs, {}, &eval);
  ASSERT_TRUE(out.step.changed) << out.step.error.str() << printed(out.model);
  const ir::Graph* then = branch(out.model, "then_branch");
  const ir::Graph* otherwise = branch(out.model, "else_branch");
  ASSERT_TRUE(then && otherwise);
  ASSERT_EQ(count(*then, "Conv"), 2u) << printed(out.model);
  for (const auto& n : then->nodes()) {
    if (n->opType() != "Conv") continue;
    EXPECT_TRUE(readsDequantized(*n, 0)) << n->describe() << printed(out.model);
    EXPECT_TRUE(readsDequantized(*n, 1)) << n->describe() << printed(out.model);
    const ir::Node* dq = n->input(1)->producer();
    ASSERT_TRUE(dq->input(0)->initializer());
    EXPECT_EQ(dq->input(0)->initializer()->dtype(), ir::DataType::kInt8);
    EXPECT_EQ(dq->owner(), then);  // the int8 weight is the branch's
  }
  // x (of the main graph) is quantized inside the branch; the main graph
  // has no Q/DQ and the branch's output stays float32.
  bool quantizesX = false;
  for (const auto& n : then->nodes())
    quantizesX |= n->opType() == "QuantizeLinear" && n->input(0)->name() == "x";
  EXPECT_TRUE(quantizesX) << printed(out.model);
  EXPECT_EQ(count(out.model.graph(), "QuantizeLinear"), 0u) << printed(out.model);
  EXPECT_EQ(then->outputs()[0]->type().elemType(), ir::DataType::kFloat);
  // The else branch as it was: its Conv reads x and the float weight w.
  ASSERT_EQ(count(*otherwise, "Conv"), 1u);
  EXPECT_EQ(count(*otherwise, "DequantizeLinear"), 0u) << printed(out.model);
  const ir::Node& elseConv = *otherwise->nodes().front();
  EXPECT_EQ(elseConv.input(1)->name(), "w");
  EXPECT_EQ(elseConv.input(1)->initializer()->dtype(), ir::DataType::kFloat);
  const std::string note = out.step.note.str();
  EXPECT_NE(note.find("2 of them inside subgraphs"), std::string::npos) << note;
  EXPECT_NE(note.find("1 ops inside subgraphs that no calibration run entered stay float32"),
            std::string::npos)
      << note;
  EXPECT_NE(explainNotes(out).find("no calibration run entered the subgraph"), std::string::npos)
      << explainNotes(out);
  EXPECT_TRUE(ir::verifyModelStatus(out.model).isOk()) << printed(out.model);
  ASSERT_TRUE(out.step.check.ran) << out.step.check.detail.str();
  EXPECT_TRUE(out.step.check.passed) << out.step.check.detail.str();
}

// Calibrated on both branches: all three Convs are quantized, each branch
// with int8 copies of its own; the main graph's float w, read by no float
// node any more, goes. Within the budget on inputs of both branches, and a
// second run changes nothing.
TEST(QuantizeStaticSubgraphs, BothBranchesTakenAreBothQuantizedAndItConverges) {
  auto eval = ifSets({true, false, true, false});
  PassOutcome out = runPass(kPass, kIfConvs, {}, &eval);
  ASSERT_TRUE(out.step.changed) << out.step.error.str() << printed(out.model);
  const ir::Graph* otherwise = branch(out.model, "else_branch");
  ASSERT_TRUE(otherwise);
  const ir::Node* elseConv = nullptr;
  for (const auto& n : otherwise->nodes())
    if (n->opType() == "Conv") elseConv = n.get();
  ASSERT_TRUE(elseConv);
  EXPECT_TRUE(readsDequantized(*elseConv, 0)) << printed(out.model);
  EXPECT_TRUE(readsDequantized(*elseConv, 1)) << printed(out.model);
  EXPECT_EQ(out.model.graph().findValue("w"), nullptr) << printed(out.model);
  EXPECT_NE(out.step.note.str().find("3 of them inside subgraphs"), std::string::npos)
      << out.step.note.str();
  EXPECT_EQ(out.step.note.str().find("no calibration run entered"), std::string::npos)
      << out.step.note.str();
  EXPECT_TRUE(ir::verifyModelStatus(out.model).isOk()) << printed(out.model);
  // Within budget on each branch (the check's synthesized c may take either).
  ir::Model original = parsed(kIfConvs);
  for (bool c : {true, false}) {
    SCOPED_TRACE(c ? "then" : "else");
    auto ex0 = exec::Executor::create(original);
    auto ex1 = exec::Executor::create(out.model);
    ASSERT_TRUE(ex0 && ex1);
    std::vector<float> x(32);
    for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.7f * static_cast<float>(i) + 0.3f);
    exec::NamedInputs in{
        {"c", exec::Value(
                  ir::Tensor::fromVector<uint8_t>(ir::DataType::kBool, {}, {uint8_t(c ? 1 : 0)}))},
        {"x", exec::Value(ir::Tensor::fromVector<float>(ir::DataType::kFloat, {1, 2, 4, 4}, x))}};
    auto r0 = (*ex0)->run(in);
    auto r1 = (*ex1)->run(in);
    ASSERT_TRUE(r0 && r1);
    const auto a = r0->outputs[0].data<float>();
    const auto b = r1->outputs[0].data<float>();
    double signal = 0, noise = 0;
    for (size_t i = 0; i < a.size(); ++i) {
      signal += double(a[i]) * a[i];
      noise += double(a[i] - b[i]) * (a[i] - b[i]);
    }
    ASSERT_GT(noise, 0.0);  // quantized: not the float32 result
    EXPECT_GT(10 * std::log10(signal / noise), 20.0) << "SNR";
  }
  auto eval2 = ifSets({true, false, true, false});
  PassOutcome twice = runPass(kPass, out.model.clone(), {}, &eval2);
  EXPECT_FALSE(twice.step.changed) << printed(twice.model);
}

// subgraphs=false leaves both branches as they are; the note counts the
// Convs left there.
TEST(QuantizeStaticSubgraphs, WithoutSubgraphsTheBranchesStay) {
  auto eval = ifSets({true, false});
  PassOutcome out = runPass(kPass, kIfConvs, {{"subgraphs", "false"}}, &eval);
  EXPECT_FALSE(out.step.changed) << printed(out.model);
  EXPECT_EQ(count(*branch(out.model, "then_branch"), "QuantizeLinear"), 0u);
  EXPECT_EQ(count(*branch(out.model, "else_branch"), "QuantizeLinear"), 0u);
  EXPECT_NE(out.step.note.str().find("3 nodes of the ops it rewrites are inside subgraphs and stay "
                                     "as they are (subgraphs=false"),
            std::string::npos)
      << out.step.note.str();
}

// --exclude-node of a node inside a branch keeps that node float32 (its
// weight and input as they were); excluding the If keeps both branches.
TEST(QuantizeStaticSubgraphs, ExcludedNodesInsideAndAroundTheBranchesStay) {
  for (bool excludeIf : {false, true}) {
    SCOPED_TRACE(excludeIf ? "the If excluded" : "the branch's first Conv excluded");
    ir::Model model = parsed(kIfConvs);
    ir::Node* ifNode = model.graph().findValue("y")->producer();
    ir::Graph& then = *ifNode->attr("then_branch")->g;
    ir::Node* first = then.nodes().front().get();
    ASSERT_EQ(first->output(0)->name(), "t");
    auto eval = ifSets({true, false});
    pipeline::PassManager pm(model);
    pm.setEvaluator(&eval);
    pipeline::PassSpec spec{kPass, {}, {}};
    spec.filter.excluded.insert(excludeIf ? ifNode->id() : first->id());
    auto step = pm.run(spec);
    ASSERT_TRUE(step) << step.error().message();
    const ir::Model& out = pm.model();
    const ir::Graph* t = branch(out, "then_branch");
    const ir::Node* conv = t->nodes().front().get();
    for (const auto& n : t->nodes())
      if (n->output(0)->name() == "t") conv = n.get();
    ASSERT_EQ(conv->opType(), "Conv");
    EXPECT_EQ(conv->input(0)->name(), "x") << printed(out);
    EXPECT_EQ(conv->input(1)->name(), "wt") << printed(out);
    EXPECT_EQ(conv->input(1)->initializer()->dtype(), ir::DataType::kFloat);
    if (excludeIf) {
      EXPECT_FALSE((*step)->changed) << printed(out);
      EXPECT_NE((*step)->note.str().find("3 nodes of the ops it rewrites are inside subgraphs"),
                std::string::npos)
          << (*step)->note.str();
    } else {
      ASSERT_TRUE((*step)->changed) << (*step)->error << printed(out);
      // The other Conv of the branch and the else branch's are quantized.
      EXPECT_NE((*step)->note.str().find("2 of them inside subgraphs"), std::string::npos)
          << (*step)->note.str();
    }
  }
}

// A Transpose whose result only an If's branches read keeps reading the
// float value (no Q/DQ pair before it): ONNX Runtime 1.32 aborts the session
// on DQ -> Transpose -> (read inside a branch) in its
// QDQPropagationTransformer (silero_vad's Relu -> Transpose -> LSTM). The
// Conv is still a QDQ unit.
TEST(QuantizeStaticSubgraphs, ATransposeABranchReadsKeepsTheFloatValue) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 13]>
main (bool[] c, float[1,2,4,4] x) => (float[1,4,4,2] y)
    <float[2,2,1,1] w = {0.5, -0.25, 1, 0.75}> {
    t = Conv (x, w)
    u = Transpose <perm = [0, 2, 3, 1]> (t)
    y = If <then_branch = g1 () => (float[1,4,4,2] a) { a = Neg(u) },
            else_branch = g2 () => (float[1,4,4,2] b) { b = Identity(u) }> (c) })";
  auto eval = ifSets({true, false});
  PassOutcome out = runPass(kPass, text, {}, &eval);
  ASSERT_TRUE(out.step.changed) << out.step.error.str() << printed(out.model);
  const ir::Node* transpose = out.model.graph().findValue("u")->producer();
  EXPECT_EQ(transpose->input(0)->name(), "t") << printed(out.model);
  const ir::Node* conv = transpose->input(0)->producer();
  ASSERT_EQ(conv->opType(), "Conv");
  EXPECT_TRUE(readsDequantized(*conv, 0)) << printed(out.model);
  EXPECT_TRUE(readsDequantized(*conv, 1)) << printed(out.model);
}

// The same through a chain of such ops (Reshape -> Transpose -> a branch),
// which ONNX Runtime 1.32 follows too and aborts on.
TEST(QuantizeStaticSubgraphs, AChainOfValuePreservingOpsABranchReadsKeepsTheFloatValue) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 13]>
main (bool[] c, float[1,2,4,4] x) => (float[1,16,1,2] y)
    <float[2,2,1,1] w = {0.5, -0.25, 1, 0.75}, int64[4] shape = {1, 2, 16, 1}> {
    t = Conv (x, w)
    r = Reshape(t, shape)
    u = Transpose <perm = [0, 2, 3, 1]> (r)
    y = If <then_branch = g1 () => (float[1,16,1,2] a) { a = Neg(u) },
            else_branch = g2 () => (float[1,16,1,2] b) { b = Identity(u) }> (c) })";
  auto eval = ifSets({true, false});
  PassOutcome out = runPass(kPass, text, {}, &eval);
  ASSERT_TRUE(out.step.changed) << out.step.error.str() << printed(out.model);
  const ir::Node* reshape = out.model.graph().findValue("r")->producer();
  EXPECT_EQ(reshape->input(0)->name(), "t") << printed(out.model);
  EXPECT_EQ(reshape->input(0)->producer()->opType(), "Conv") << printed(out.model);
}

// A Loop whose carried value goes down by 1 on each of its 3 iterations:
// the MatMul in the body reads h = x, x - 1, x - 2. Calibrated on x =
// (1, -1), its input's range is the union over the iterations, [-3, 1]
// (the first iteration alone: [-1, 1]; the last: [-3, 0]): scale 4/255,
// zero point round(3 * 255 / 4) = 191.
TEST(QuantizeStaticSubgraphs, ALoopBodyIsCalibratedOverEveryIteration) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2] x) => (float[1,2] y)
    <int64 M = {3}, bool yes = {1}> {
    y = Loop <body = b (int64 i, bool cin, float[1,2] h) => (bool cout, float[1,2] h2)
                <float[2,2] w = {1, 0, 0, 1}, float[1] one = {1}> {
               cout = Identity(cin)
               p = MatMul(h, w)
               h2 = Sub(p, one) }> (M, yes, x) })";
  std::vector<exec::NamedInputs> sets;
  sets.push_back({{"x", exec::Value(ir::Tensor::fromVector<float>(ir::DataType::kFloat, {1, 2},
                                                                  {1.0f, -1.0f}))}});
  pipeline::CalibratingEvaluator eval(std::move(sets));
  PassOutcome out = runPass(kPass, text, {}, &eval);
  ASSERT_TRUE(out.step.changed) << out.step.error.str() << printed(out.model);
  const ir::Node* loop = out.model.graph().findValue("y")->producer();
  const ir::Graph& body = *loop->attr("body")->g;
  const ir::Node* q = nullptr;
  for (const auto& n : body.nodes())
    if (n->opType() == "QuantizeLinear" && n->input(0)->name() == "h") q = n.get();
  ASSERT_TRUE(q) << printed(out.model);
  ASSERT_TRUE(q->input(1)->initializer() && q->input(2)->initializer()) << printed(out.model);
  EXPECT_NEAR(q->input(1)->initializer()->valueAsDouble(0), 4.0 / 255.0, 1e-7);
  EXPECT_EQ(q->input(2)->initializer()->valueAsDouble(0), 191.0);
  // The body's interface stays float32.
  EXPECT_EQ(body.inputs()[2]->type().elemType(), ir::DataType::kFloat);
  EXPECT_EQ(body.outputs()[1]->type().elemType(), ir::DataType::kFloat);
  EXPECT_TRUE(ir::verifyModelStatus(out.model).isOk()) << printed(out.model);
}

// A Scan body sees one row of xs per step: its MatMul's input (a body
// input) is calibrated over the 3 rows (1, 0), (0, -2), (3, 0): [-2, 3],
// scale 5/255, zero point round(2 * 255 / 5) = 102 (a row alone gives [0, 1],
// [-2, 0] or [0, 3]).
TEST(QuantizeStaticSubgraphs, AScanBodyIsCalibratedOverEveryStep) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[3,2] xs) => (float[2] last, float[3,2] ys)
    <float[2] init = {0, 0}> {
    last, ys = Scan <body = b (float[2] s, float[2] x) => (float[2] s2, float[2] y)
                       <float[2,2] w = {1, 0.5, -0.5, 1}> {
                     y = MatMul(x, w)
                     s2 = Add(s, y) }, num_scan_inputs = 1> (init, xs) })";
  std::vector<exec::NamedInputs> sets;
  sets.push_back({{"xs", exec::Value(ir::Tensor::fromVector<float>(ir::DataType::kFloat, {3, 2},
                                                                   {1, 0, 0, -2, 3, 0}))}});
  pipeline::CalibratingEvaluator eval(std::move(sets));
  PassOutcome out = runPass(kPass, text, {}, &eval);
  ASSERT_TRUE(out.step.changed) << out.step.error.str() << printed(out.model);
  const ir::Node* scan = out.model.graph().findValue("ys")->producer();
  const ir::Graph& body = *scan->attr("body")->g;
  const ir::Node* q = nullptr;
  for (const auto& n : body.nodes())
    if (n->opType() == "QuantizeLinear" && n->input(0)->name() == "x") q = n.get();
  ASSERT_TRUE(q) << printed(out.model);
  ASSERT_TRUE(q->input(1)->initializer() && q->input(2)->initializer()) << printed(out.model);
  EXPECT_NEAR(q->input(1)->initializer()->valueAsDouble(0), 5.0 / 255.0, 1e-7);
  EXPECT_EQ(q->input(2)->initializer()->valueAsDouble(0), 102.0);
  EXPECT_EQ(body.inputs()[1]->type().elemType(), ir::DataType::kFloat);
  EXPECT_TRUE(ir::verifyModelStatus(out.model).isOk()) << printed(out.model);
}

// The calibration hands over the values of a body on each run of it: a
// Loop of 3 iterations on 2 sets shows its body's value 6 times, a
// main-graph value twice; a name nowhere in the model is an error naming it.
TEST(QuantizeStaticSubgraphs, CalibrationSeesABodyValueOnEveryIteration) {
  ir::Model model = parsed(R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2] x) => (float[2] y)
    <int64 M = {3}, bool yes = {1}> {
    z = Neg(x)
    y = Loop <body = b (int64 i, bool cin, float[2] h) => (bool cout, float[2] h2) {
               cout = Identity(cin)
               h2 = Add(h, h) }> (M, yes, z) })");
  std::vector<exec::NamedInputs> sets(2);
  for (auto& s : sets)
    s = {{"x", exec::Value(ir::Tensor::fromVector<float>(ir::DataType::kFloat, {2}, {1, 2}))}};
  pipeline::CalibratingEvaluator eval(std::move(sets));
  std::vector<size_t> seen(2);
  std::vector<float> lastH2;
  Status s = eval.observeValues(
      model, {"h2", "z"},
      [&](size_t k, const ir::Tensor& t) -> Status {
        ++seen[k];
        if (k == 0) lastH2.assign(t.data<float>().begin(), t.data<float>().end());
        return Status::ok();
      },
      nullptr);
  ASSERT_TRUE(s.isOk()) << s.message();
  EXPECT_EQ(seen[0], 6u);
  EXPECT_EQ(seen[1], 2u);
  EXPECT_EQ(lastH2, (std::vector<float>{-8, -16}));
  Status unknown = eval.observeValues(
      model, {"nowhere"}, [](size_t, const ir::Tensor&) { return Status::ok(); }, nullptr);
  ASSERT_FALSE(unknown.isOk());
  EXPECT_NE(unknown.message().find("no value 'nowhere'"), std::string::npos) << unknown.message();
}

// Both branches of an If name their Conv's output t (legal: sibling bodies
// may reuse names). The calibration finds a body's values by name, so it
// cannot tell the two apart: the then branch's statistics went to the else
// branch, which no calibration run took, and that one was quantized while
// the then branch stayed float32. Now both stay float32 and the note and
// explain say why; a branch with names of its own is still quantized.
TEST(QuantizeStaticSubgraphs, BranchesThatShareValueNamesStayFloat) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 13]>
main (bool[] c, float[1,2,4,4] x) => (float[1,2,4,4] y)
    <float[2,2,1,1] w = {0.5, -0.25, 1, 0.75}, float[2,2,1,1] v = {40, -20, 10, 30}> {
    y = If <then_branch = g1 () => (float[1,2,4,4] a) {
              t = Conv (x, w)
              a = Relu(t) },
          else_branch = g2 () => (float[1,2,4,4] b) {
              t = Conv (x, v)
              b = Neg(t) }> (c) })";
  auto eval = ifSets({true, true, true});
  PassOutcome out = runPass(kPass, text, {}, &eval);
  const ir::Graph* then = branch(out.model, "then_branch");
  const ir::Graph* otherwise = branch(out.model, "else_branch");
  ASSERT_TRUE(then && otherwise);
  EXPECT_EQ(count(*then, "DequantizeLinear"), 0u) << printed(out.model);
  EXPECT_EQ(count(*otherwise, "DequantizeLinear"), 0u) << printed(out.model);
  const std::string note = out.step.note.str();
  EXPECT_NE(note.find("calibration cannot tell them apart"), std::string::npos) << note;
  EXPECT_NE(explainNotes(out).find("has the name of another value of the model"), std::string::npos)
      << explainNotes(out);
  // The same model with the else branch's value renamed: the then branch is
  // quantized, the else branch (not taken) stays float32.
  std::string renamed = text;
  for (const char* from : {"t = Conv (x, v)", "Neg(t)"}) {
    const size_t at = renamed.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    renamed.replace(renamed.find('t', at + (from[0] == 't' ? 0 : 4)), 1, "u");
  }
  PassOutcome fine = runPass(kPass, renamed, {}, &eval);
  ASSERT_TRUE(fine.step.changed) << fine.step.error.str() << printed(fine.model);
  EXPECT_GT(count(*branch(fine.model, "then_branch"), "DequantizeLinear"), 0u)
      << printed(fine.model);
  EXPECT_EQ(count(*branch(fine.model, "else_branch"), "DequantizeLinear"), 0u)
      << printed(fine.model);
}

}  // namespace
}  // namespace passlab::testing
