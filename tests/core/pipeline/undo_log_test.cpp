// The undo log that rolls back a failed pass: every edit the Rewriter and shape
// inference make is reversed exactly (same nodes, ids, order, wiring, names,
// types, initializers and use lists), for each edit kind and for every
// registered pass, in sequence, on test graphs and on corpus models.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <thread>

#include "core/analysis/shape_inference.h"
#include "core/io/model_io.h"
#include "core/io/text_format.h"
#include "core/ir/deferred_free.h"
#include "core/ir/graph_compare.h"
#include "core/ir/undo_log.h"
#include "core/passes/registry.h"
#include "core/pipeline/pass_manager.h"
#include "core/rewrite/rewriter.h"
#include "tests/support/pass_harness.h"
#include "tests/support/test_support.h"

namespace passlab {
namespace {

// Node ids in order, recursively, and per graph the number of values: what
// firstDifference does not look at.
std::string identity(const ir::Graph& g) {
  std::string s = "[" + std::to_string(g.valueCount()) + ":";
  for (const auto& n : g.nodes()) {
    s += std::to_string(n->id()) + ",";
    for (const ir::Graph* sub : n->subgraphs()) s += identity(*sub);
  }
  for (const ir::Value* v : g.initializers()) s += v->name() + ";";
  return s + "]";
}

// Every use list agrees with the node inputs (the verifier checks it) and the
// errors are the same as the original's.
void expectSameModel(const ir::Model& original, const ir::Model& restored,
                     const std::string& what) {
  ir::GraphCompareOptions o;
  auto diff = ir::firstDifference(original.graph(), restored.graph(), o);
  EXPECT_FALSE(diff.has_value()) << what << ": " << diff.value_or("");
  EXPECT_EQ(identity(original.graph()), identity(restored.graph())) << what;
  EXPECT_EQ(pipeline::verifierErrorSet(original), pipeline::verifierErrorSet(restored)) << what;
  EXPECT_EQ(original.irVersion, restored.irVersion) << what;
}

ir::Model parse(const std::string& text) {
  auto m = io::parseModelText(text);
  EXPECT_TRUE(m) << (m ? "" : m.error().message());
  return std::move(*m);
}

// The nodes a step touched, for the verifier's schema checks: added, rewired
// and re-attributed nodes, every node of a subgraph that arrived with an
// attribute, the producer and readers of a retyped value; not removed nodes.
TEST(UndoLog, TouchedNodesAreTheOnesWhoseSchemaCheckMayChange) {
  ir::Model m = parse(R"(
    main (float[2] x, bool c) => (float[2] y, float[2] z) {
      a = Relu (x)
      b = Neg (a)
      d = Identity (b)
      e = Sigmoid (x)
      f = Tanh (e)
      y = Abs (d)
      z = Exp (f)
    })");
  ir::Graph& g = m.graph();
  ir::UndoLog undo;
  rewrite::EditLog log;
  rewrite::Rewriter rw(m, log, nullptr, "test");
  rw.setUndoLog(&undo);
  auto producer = [&](const char* v) { return g.findValue(v)->producer(); };
  ir::Node* abs = producer("y");
  ir::Node* identity = producer("d");
  ir::Node* tanh = producer("f");
  rw.setInput(abs, 0, g.findValue("b"));  // rewired
  rw.removeNode(identity);                // removed
  rw.setType(g.findValue("e"), ir::Type::tensor(ir::DataType::kDouble, ir::Shape::fromValues({2})));
  ir::Node* sq = rw.addNode(g, "Sqrt", "", {g.findValue("a")}, 1, nullptr, "sq", {});  // added
  auto branch = std::make_unique<ir::Graph>(g.context());
  ir::Value* one = branch->addInitializer(
      "one", ir::Tensor::fromVector<float>(ir::DataType::kFloat, {1}, {1.0f}));
  ir::Node* inner = branch->addNode("Identity", "", {one}, 1);
  branch->addOutput(inner->output(0));
  ir::Node* iff = rw.addNode(g, "If", "", {g.findValue("c")}, 1, nullptr, "iff", {});
  ir::Attribute then = ir::Attribute::makeGraph("then_branch", std::move(branch));
  rw.setAttr(iff, std::move(then));  // a subgraph arrives: its nodes are new

  auto touched = undo.touchedNodes();
  for (const ir::Node* n : {abs, producer("e"), tanh, sq, iff, inner})
    EXPECT_TRUE(touched.contains(n)) << n->describe();
  EXPECT_FALSE(touched.contains(identity));
  for (const char* v : {"a", "b", "z"}) EXPECT_FALSE(touched.contains(producer(v))) << v;
  undo.undo();
}

// Beyond the touched nodes, what the verifier checks after a step: the value
// a rewired input read before, the inputs of a removed node, a removed
// initializer, and the graph whose output was set (with the value it had).
TEST(UndoLog, StructureFootprintNamesWhatAStepMayHaveBroken) {
  ir::Model m = parse(R"(
    main (float[2] x) => (float[2] y, float[2] z) <float[2] w = {1, 2}> {
      a = Relu (x)
      b = Neg (a)
      d = Add (b, w)
      y = Abs (d)
      z = Exp (a)
    })");
  ir::Graph& g = m.graph();
  ir::UndoLog undo;
  rewrite::EditLog log;
  rewrite::Rewriter rw(m, log, nullptr, "test");
  rw.setUndoLog(&undo);
  auto value = [&](const char* v) { return g.findValue(v); };
  ir::Value* a = value("a");
  ir::Value* b = value("b");
  ir::Value* d = value("d");
  ir::Value* w = value("w");
  ir::Value* z = value("z");
  ir::Node* abs = value("y")->producer();
  ir::Node* add = d->producer();
  rw.setInput(abs, 0, b);  // d lost its reader
  rw.removeNode(add);      // b and w lost one each
  rw.removeInitializer(w);
  rw.setGraphOutput(g, 1, a);  // z was the output

  ir::UndoLog::StructureFootprint f = undo.structureFootprint();
  auto listed = [&](const ir::Value* v) {
    return std::find(f.values.begin(), f.values.end(), v) != f.values.end();
  };
  for (const ir::Value* v : {d, b, w, z}) EXPECT_TRUE(listed(v)) << v->name();
  EXPECT_FALSE(listed(a));
  ASSERT_EQ(f.outputsSet.size(), 1u);
  EXPECT_EQ(f.outputsSet[0], &g);
  undo.undo();
}

TEST(UndoLog, EveryEditKindIsReversed) {
  ir::Model m = parse(R"(
    main (float[2,3] x) => (float[2,3] y, float[2,3] z) {
      w = Constant <value = float[3] {1, 2, 3}> ()
      a = Relu (x)
      b = Add (a, w)
      c = Identity (b)
      y = Neg (c)
      z = Transpose <perm = [0, 1]> (a)
    }
  )");
  ir::Graph& g = m.graph();
  ir::Value* w = g.addInitializer(
      "w_init", ir::Tensor::fromVector<float>(ir::DataType::kFloat, {3}, {4, 5, 6}));
  g.addInput("w_init", w->type());
  analysis::inferShapes(m);
  ir::Model original = m.clone();

  rewrite::EditLog log;
  ir::UndoLog undo;
  rewrite::Rewriter rw(m, log);
  rw.setUndoLog(&undo);
  auto byOp = [&](const std::string& op) -> ir::Node* {
    for (const auto& n : g.nodes())
      if (n->opType() == op) return n.get();
    return nullptr;
  };
  ir::Node* identityNode = byOp("Identity");
  ir::Node* neg = byOp("Neg");
  ir::Node* add = byOp("Add");
  ir::Node* transpose = byOp("Transpose");
  // Identity removed (its output was read by Neg).
  rw.replaceAllUsesWith(identityNode->output(0), add->output(0));
  rw.removeNode(identityNode);
  // Attributes: replaced, added, removed.
  rw.setAttr(transpose, ir::Attribute::makeInts("perm", {1, 0}));
  rw.setAttr(neg, ir::Attribute::makeInt("extra", 1));
  rw.removeAttr(transpose, "perm");
  // A new node and initializer, a rewired output, a type change.
  ir::Value* k =
      rw.addInitializer(g, "k", ir::Tensor::fromVector<float>(ir::DataType::kFloat, {1}, {2.0f}));
  ir::Node* mul = rw.addNode(g, "Mul", "", {neg->output(0), k}, 1, nullptr, "", {neg});
  rw.setGraphOutput(g, 0, mul->output(0));
  rw.setType(add->output(0), ir::Type::tensor(ir::DataType::kFloat, ir::Shape::fromValues({6})));
  // Initializer data changed; an initializer that is an input frozen, then removed.
  rw.setInitializer(k, ir::Tensor::fromVector<float>(ir::DataType::kFloat, {1}, {3.0f}));
  rw.freezeInitializer(w);
  rw.removeInitializer(w);
  // The new node removed again, and a chain erased.
  rw.setGraphOutput(g, 0, neg->output(0));
  rw.removeNode(mul);
  rw.replaceAllUsesWith(transpose->output(0), byOp("Relu")->output(0));
  // Shape inference through the log too.
  analysis::ShapeInferenceOptions so;
  so.undo = &undo;
  so.replaceDeclared = true;
  analysis::inferShapes(m, so);
  ASSERT_FALSE(undo.empty());
  ASSERT_TRUE(ir::firstDifference(original.graph(), m.graph()).has_value());

  undo.undo();
  EXPECT_TRUE(undo.empty());
  expectSameModel(original, m, "after undo");
  // The restored graph is fully usable: edit it again.
  rewrite::Rewriter again(m, log);
  ir::Node* id2 = byOp("Identity");
  ASSERT_NE(id2, nullptr);
  again.replaceAllUsesWith(id2->output(0), id2->input(0));
  again.removeNode(id2);
  EXPECT_TRUE(pipeline::verifierErrorSet(m).empty());
}

// A buffer that notes which thread destroyed it.
class WatchedBuffer : public ir::Buffer {
 public:
  WatchedBuffer(std::atomic<bool>& gone, std::thread::id& by) : gone_(gone), by_(by) {}
  ~WatchedBuffer() override {
    by_ = std::this_thread::get_id();
    gone_ = true;
  }
  const std::byte* data() const override { return bytes_; }
  size_t size() const override { return sizeof bytes_; }
  std::string origin() const override { return "test"; }

 private:
  std::atomic<bool>& gone_;
  std::thread::id& by_;
  std::byte bytes_[4] = {};
};

// Removes `count` dead Constant nodes sharing one watched buffer, and an If
// that reads x inside its branches, then commits.
void removeConstantsAndCommit(size_t count, std::atomic<bool>& gone, std::thread::id& by) {
  ir::Model m = parse(R"(
    main (bool c, float[2] x) => (float[2] y) {
      y = Relu(x)
      z = If <then_branch = g1 () => (float[2] t) { t = Relu(x) },
              else_branch = g2 () => (float[2] e) { e = Neg(x) }> (c)
    }
  )");
  ir::Graph& g = m.graph();
  std::vector<ir::Node*> doomed{std::next(g.nodes().begin())->get()};  // the If
  {
    auto buffer = std::make_shared<WatchedBuffer>(gone, by);
    for (size_t i = 0; i < count; ++i) {
      ir::Node* n = g.addNode("Constant", "", {}, 1);
      n->setAttr(ir::Attribute::makeTensor("value", ir::Tensor(ir::DataType::kFloat, {1}, buffer)));
      doomed.push_back(n);
    }
  }
  ir::Value* x = g.inputs()[1];
  ASSERT_EQ(x->uses().size(), 3u);
  rewrite::EditLog log;
  ir::UndoLog undo;
  rewrite::Rewriter rw(m, log);
  rw.setUndoLog(&undo);
  for (ir::Node* n : doomed) rw.removeNode(n);
  undo.commit();
  // The If was freed here (it held subgraphs reading x): x keeps one use.
  EXPECT_EQ(x->uses().size(), 1u);
  EXPECT_EQ(g.nodeCount(), 1u);
  EXPECT_TRUE(pipeline::verifierErrorSet(m).empty());
}

// A commit that frees thousands of removed nodes hands them to a second
// thread (ir/deferred_free.h); a small one frees them at once on the caller's.
TEST(UndoLog, ManyRemovedNodesAreFreedOnAnotherThread) {
  std::atomic<bool> gone{false};
  std::thread::id by;
  removeConstantsAndCommit(ir::kDeferredFreeMinObjects, gone, by);
  ir::waitForDeferredFrees();
  EXPECT_TRUE(gone);
  EXPECT_NE(by, std::this_thread::get_id());

  std::atomic<bool> goneSmall{false};
  std::thread::id bySmall;
  removeConstantsAndCommit(10, goneSmall, bySmall);
  EXPECT_TRUE(goneSmall);  // no wait needed
  EXPECT_EQ(bySmall, std::this_thread::get_id());
}

TEST(UndoLog, SubgraphOuterReadsAreCutWhileHeld) {
  ir::Model m = parse(R"(
    main (bool c, float[2] x) => (float[2] y) {
      y = If <then_branch = g1 () => (float[2] t) { t = Relu(x) },
              else_branch = g2 () => (float[2] e) { e = Neg(x) }> (c)
    }
  )");
  ir::Model original = m.clone();
  ir::Graph& g = m.graph();
  ir::Value* x = g.inputs()[1];
  ASSERT_EQ(x->uses().size(), 2u);  // read inside both branches
  ir::Node* ifNode = g.nodes().front().get();
  rewrite::EditLog log;
  ir::UndoLog undo;
  rewrite::Rewriter rw(m, log);
  rw.setUndoLog(&undo);
  ir::Node* relu = rw.addNode(g, "Relu", "", {x}, 1, nullptr, "", {ifNode});
  rw.replaceAllUsesWith(ifNode->output(0), relu->output(0));
  rw.removeNode(ifNode);
  // The held If must not count as a reader of x.
  EXPECT_EQ(x->uses().size(), 1u);
  undo.undo();
  EXPECT_EQ(x->uses().size(), 2u);
  expectSameModel(original, m, "If restored");
}

// A branch that returns an outer value directly: while the If is held, that
// value is no graph output, so its producer can go too; undo and commit both work.
TEST(UndoLog, SubgraphReturningAnOuterValue) {
  const char* text = R"(
    main (bool c, float[2] a) => (float[2] y) {
      x = Neg(a)
      y = If <then_branch = g1 () => (float[2] x) { },
              else_branch = g2 () => (float[2] e) { e = Relu(x) }> (c)
    }
  )";
  for (bool keep : {false, true}) {
    ir::Model m = parse(text);
    ir::Model original = m.clone();
    ir::Graph& g = m.graph();
    ir::Value* x = g.findValue("x");
    ASSERT_TRUE(x->isGraphOutput());  // of the then branch
    ir::Node* ifNode = g.nodes().back().get();
    rewrite::EditLog log;
    ir::UndoLog undo;
    rewrite::Rewriter rw(m, log);
    rw.setUndoLog(&undo);
    ir::Node* relu = rw.addNode(g, "Relu", "", {g.inputs()[1]}, 1, nullptr, "", {ifNode});
    rw.replaceAllUsesWith(ifNode->output(0), relu->output(0));
    rw.removeNode(ifNode);
    EXPECT_FALSE(x->isGraphOutput());
    EXPECT_FALSE(x->hasUses());
    rw.removeNode(x->producer());  // would throw if the held branch still claimed x
    if (keep) {
      undo.commit();
      EXPECT_EQ(g.nodeCount(), 1u);
      EXPECT_TRUE(pipeline::verifierErrorSet(m).empty());
    } else {
      undo.undo();
      expectSameModel(original, m, "If returning an outer value restored");
      EXPECT_TRUE(g.findValue("x")->isGraphOutput());
    }
  }
}

// Runs `pass` on `m` through an undo log, then undoes it: `m` must be what it
// was. Then runs it for real, so the next pass sees a partly optimized graph.
// Returns whether the pass changed the model.
bool undoThenApply(const passes::Pass& pass, ir::Model& m, const std::string& where) {
  auto opts = pipeline::effectiveOptions(pass, {});
  EXPECT_TRUE(opts) << pass.info().id;
  if (!opts) return false;
  ir::Model original = m.clone();
  {
    rewrite::EditLog log;
    ir::UndoLog undo;
    rewrite::Rewriter rw(m, log);
    rw.setUndoLog(&undo);
    passes::PassContext ctx{rw, *opts};
    ctx.evaluator = testing::cpuEvaluator();
    ctx.standardOnly = false;
    const auto opsets = m.opsets;
    const int64_t irVersion = m.irVersion;
    Status s = pass.run(ctx);
    if (s.isOk() && !log.empty()) {
      analysis::ShapeInferenceOptions so;
      so.undo = &undo;
      analysis::inferShapes(m, so);
    }
    undo.undo();
    m.opsets = opsets;
    m.irVersion = irVersion;
    expectSameModel(original, m, where + ": " + pass.info().id + " undone");
  }
  rewrite::EditLog log;
  rewrite::Rewriter rw(m, log);
  passes::PassContext ctx{rw, *opts};
  ctx.evaluator = testing::cpuEvaluator();
  ctx.standardOnly = false;
  Status st = pass.run(ctx);
  if (!st.isOk() || log.empty()) return false;
  analysis::inferShapes(m);
  return true;
}

// The bench_pipeline block: Identity, CSE, dead branch, Transpose pair, x*1.
ir::Model blocks(int count) {
  std::string body;
  std::string cur = "x";
  for (int i = 0; i < count; ++i) {
    std::string p = "b" + std::to_string(i) + "_";
    body += p + "id = Identity (" + cur + ")\n";
    body += p + "r1 = Relu (" + p + "id)\n" + p + "r2 = Relu (" + p + "id)\n";
    body += p + "add = Add (" + p + "r1, " + p + "r2)\n";
    body += p + "dead = Neg (" + p + "add)\n";
    body += p + "t1 = Transpose <perm = [1, 0]> (" + p + "add)\n";
    body += p + "t2 = Transpose <perm = [1, 0]> (" + p + "t1)\n";
    body += p + "mul = Mul (" + p + "t2, one)\n";
    cur = p + "mul";
  }
  return parse("main (float[1,64] x) => (float[1,64] " + cur +
               ") {\n one = Constant <value = float[1] {1}> ()\n" + body + "}\n");
}

TEST(UndoLog, EveryPassIsUndoneExactlyOnTestGraphs) {
  std::vector<std::pair<std::string, ir::Model>> models;
  models.emplace_back("blocks", blocks(6));
  models.emplace_back("cnn", parse(R"(
    main (float[1,3,8,8] x) => (float[1,4,4,4] y) {
      w = Constant <value = float[4,3,3,3] {0.1, -0.2, 0.3, 0.05, 0.1, -0.2, 0.3, 0.05, 0.1, -0.2, 0.3, 0.05, 0.1, -0.2, 0.3, 0.05, 0.1, -0.2, 0.3, 0.05, 0.1, -0.2, 0.3, 0.05, 0.1, -0.2, 0.3, 0.05, 0.1, -0.2, 0.3, 0.05, 0.1, -0.2, 0.3, 0.05, 0.1, -0.2, 0.3, 0.05, 0.1, -0.2, 0.3, 0.05, 0.1, -0.2, 0.3, 0.05, 0.1, -0.2, 0.3, 0.05, 0.1, -0.2, 0.3, 0.05, 0.1, -0.2, 0.3, 0.05, 0.1, -0.2, 0.3, 0.05, 0.1, -0.2, 0.3, 0.05, 0.1, -0.2, 0.3, 0.05, 0.1, -0.2, 0.3, 0.05, 0.1, -0.2, 0.3, 0.05, 0.1, -0.2, 0.3, 0.05, 0.1, -0.2, 0.3, 0.05, 0.1, -0.2, 0.3, 0.05, 0.1, -0.2, 0.3, 0.05, 0.1, -0.2, 0.3, 0.05, 0.1, -0.2, 0.3, 0.05, 0.1, 0.2, -0.1, 0.4}> ()
      s = Constant <value = float[4] {1, 2, 0.5, 1}> ()
      b = Constant <value = float[4] {0, 0.1, 0.2, 0.3}> ()
      m = Constant <value = float[4] {0, 0, 0, 0}> ()
      v = Constant <value = float[4] {1, 1, 1, 1}> ()
      p = Pad <pads = [0, 0, 1, 1, 0, 0, 1, 1]> (x)
      c = Conv <kernel_shape = [3, 3]> (p, w)
      n = BatchNormalization (c, s, b, m, v)
      r = Relu (n)
      y = MaxPool <kernel_shape = [2, 2], strides = [2, 2]> (r)
    }
  )"));
  models.emplace_back("norm_gelu", parse(R"(
    main (float[2,4] x) => (float[2,4] y) {
      mean = ReduceMean <axes = [-1]> (x)
      d = Sub (x, mean)
      two = Constant <value = float[1] {2}> ()
      sq = Pow (d, two)
      var = ReduceMean <axes = [-1]> (sq)
      eps = Constant <value = float[1] {0.00001}> ()
      ve = Add (var, eps)
      sd = Sqrt (ve)
      nrm = Div (d, sd)
      half = Constant <value = float[1] {0.5}> ()
      one = Constant <value = float[1] {1}> ()
      rt = Constant <value = float[1] {1.4142135}> ()
      q = Div (nrm, rt)
      e = Erf (q)
      e1 = Add (e, one)
      h = Mul (nrm, e1)
      y = Mul (h, half)
    }
  )"));
  size_t changed = 0;
  for (auto& [name, m] : models) {
    analysis::inferShapes(m);
    for (const passes::Pass* p : passes::allPasses()) changed += undoThenApply(*p, m, name);
  }
  EXPECT_GE(changed, 10u) << "too few passes fired to test their undo";
}

TEST(UndoLog, EveryPassIsUndoneExactlyOnCorpusModels) {
  PASSLAB_REQUIRE_CORPUS();
  // Small and medium models with subgraphs, quantization, LSTMs, attention.
  size_t total = 0;
  for (const char* file : {"mnist8_cntk", "silero_vad_v4", "ultraface_rfb_320", "ort_gpt2_megatron",
                           "ort_gpt2_past_mask_one_layer", "ort_qdq_multi_consumer_dq",
                           "tract_nnsplit_bidi_lstm", "tract_snips_qlstm", "winml_squeezenet",
                           "ppocr_cls_mobile_v2", "ort_tiny_gpt2_beamsearch"}) {
    std::string path = *testing::corpusDir() + "/models/" + file + ".onnx";
    auto r = io::loadModel(path);
    ASSERT_TRUE(r) << path;
    ir::Model& m = r->model;
    analysis::inferShapes(m);
    size_t changed = 0;
    for (const passes::Pass* p : passes::allPasses()) changed += undoThenApply(*p, m, file);
    EXPECT_GE(changed, 1u) << file << ": no pass fired to test its undo";
    total += changed;
    std::printf("%s: %zu of %zu passes changed it, each undone exactly\n", file, changed,
                passes::allPasses().size());
  }
  EXPECT_GE(total, 40u);
}

}  // namespace
}  // namespace passlab
