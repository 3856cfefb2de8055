// PassManager: steps, rollback of a pass that throws or breaks the graph,
// the numeric check naming the first diverging tensor, recipes.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "core/analysis/shape_inference.h"
#include "core/io/model_io.h"
#include "core/ir/graph_compare.h"
#include "core/passes/registry.h"
#include "core/pipeline/numeric_check.h"
#include "core/pipeline/pass_manager.h"
#include "core/pipeline/recipe.h"
#include "tests/support/test_support.h"

namespace passlab::pipeline {
namespace {

using testing::parse;

const char* kModel = R"(main (float[2,3] x) => (float[2,3] y) {
  a = Identity(x)
  b = Relu(a)
  c = Neg(b)
  y = Abs(c)
})";

class TestPass : public passes::Pass {
 public:
  explicit TestPass(std::function<Status(ir::Model&, passes::PassContext&)> fn)
      : fn_(std::move(fn)) {
    info_.id = "test_pass";
    info_.kind = "test";
    info_.summaryEn = info_.summaryZh = "test";
  }
  const passes::PassInfo& info() const override { return info_; }
  passes::PassInfo& info() { return info_; }
  Status run(passes::PassContext& ctx) const override { return fn_(ctx.model(), ctx); }

 private:
  passes::PassInfo info_;
  std::function<Status(ir::Model&, passes::PassContext&)> fn_;
};

TEST(PassManager, StepsRecordStatsAndEdits) {
  ir::Model m = parse(kModel);
  PassManager pm(m);
  auto step = pm.run({"eliminate_identity_ops", {}, {}});
  ASSERT_TRUE(step) << step.error().message();
  const Step& s = **step;
  EXPECT_TRUE(s.changed);
  EXPECT_EQ(s.before.nodes, 4u);
  EXPECT_EQ(s.after.nodes, 3u);
  EXPECT_EQ(s.summary.removed.size(), 1u);
  ASSERT_TRUE(s.snapshotBefore && s.snapshotAfter);
  EXPECT_EQ(s.snapshotBefore->graph().nodeCount(), 4u);
  EXPECT_EQ(s.snapshotAfter->graph().nodeCount(), 3u);
  auto again = pm.run({"eliminate_identity_ops", {}, {}});
  ASSERT_TRUE(again);
  EXPECT_FALSE((*again)->changed);
  EXPECT_EQ(pm.timeline().steps().size(), 2u);
}

// A step's `before` is the previous step's `after` (not recounted), and an
// edit made outside the manager is counted again once it is reported.
TEST(PassManager, StepStatsFollowTheModelAcrossStepsAndOutsideEdits) {
  ir::Model m = parse(kModel);
  PassManager pm(m);
  auto first = pm.run({"eliminate_identity_ops", {}, {}});
  ASSERT_TRUE(first);
  EXPECT_EQ((*first)->after.nodes, 3u);
  EXPECT_EQ((*first)->after.opCounts.count("Identity"), 0u);
  ir::Graph& g = m.graph();
  ir::Node* abs = g.outputs()[0]->producer();
  ir::Node* extra = g.addNode("Relu", "", {abs->output(0)}, 1);
  g.setOutput(0, extra->output(0));
  pm.modelChangedOutside();
  auto second = pm.run({"eliminate_dead_nodes", {}, {}});
  ASSERT_TRUE(second);
  EXPECT_EQ((*second)->before.nodes, 4u);  // counted again: 3 + the Relu added outside
  EXPECT_EQ((*second)->before.opCounts.at("Relu"), 2u);
  const Step* secondStep = *second;
  for (int i = 0; i < 40; ++i) ASSERT_TRUE(pm.run({"eliminate_identity_ops", {}, {}}));
  const Step* last = &pm.timeline().steps().back();
  // Earlier Step pointers stay valid as the timeline grows.
  EXPECT_EQ(secondStep->passId, "eliminate_dead_nodes");
  EXPECT_EQ(last->before.nodes, secondStep->after.nodes);
  EXPECT_EQ(last->before.opCounts, secondStep->after.opCounts);
}

// Statistics after a step come from the undo log's counts of added and
// removed nodes (no walk over the graph) unless a subgraph came or went; they
// must equal a full count after every pass, on models with subgraphs, fused
// ops and every kind of edit.
TEST(PassManager, StepStatsFromTheLogEqualAFullCount) {
  std::vector<std::pair<std::string, ir::Model>> models;
  models.emplace_back("if-inlined", parse(R"(main (float[2] x) => (float[2] y) <bool c = {1}> {
      a = Identity(x)
      t = If <then_branch = g1 () => (float[2] o) { r = Relu(a)
                                                   i = Identity(r)
                                                   o = Neg(i) },
              else_branch = g2 () => (float[2] p) { p = Neg(a) }> (c)
      y = Exp(t) })"));
  models.emplace_back("if-kept", parse(R"(main (float[2] x, bool c) => (float[2] y) {
      t = If <then_branch = g1 () => (float[2] o) { i = Identity(x)
                                                   o = Relu(i) },
              else_branch = g2 () => (float[2] p) { p = Neg(x) }> (c)
      y = Exp(t) })"));
  if (testing::corpusDir())
    for (const char* file :
         {"silero_vad_v4", "ultraface_rfb_320", "ort_gpt2_megatron", "ort_tiny_gpt2_beamsearch",
          "tract_nnsplit_bidi_lstm", "onnx_light_squeezenet"}) {
      auto r = io::loadModel(*testing::corpusDir() + "/models/" + file + ".onnx");
      ASSERT_TRUE(r) << file;
      models.emplace_back(file, std::move(r->model));
    }
  size_t compared = 0;
  for (auto& [name, m] : models) {
    analysis::inferShapes(m);
    PipelineOptions o;
    o.keepSnapshots = false;
    o.standardOnly = false;
    PassManager pm(m, o);
    pm.addAfterHook([&, name = name](const Step& step, const ir::Model& model) {
      if (step.rolledBack || !step.changed) return;
      ++compared;
      EXPECT_EQ(step.after, collectStats(model)) << name << " after " << step.passId;
    });
    for (const passes::Pass* p : passes::allPasses()) {
      auto step = pm.run({p->info().id, {}, {}});
      ASSERT_TRUE(step) << name << ": " << step.error().message();
    }
  }
  EXPECT_GE(compared, 20u) << "too few steps changed a model to compare their statistics";
}

// Shape inference after a step runs when the step may have changed a type (a
// node added) and is skipped when it cannot (an Identity removed, its float
// consumer rewired to a value of the same type); the types stay what a fresh
// inference gives.
TEST(PassManager, ReinfersShapesOnlyWhenAStepMayHaveChangedAType) {
  ir::Model m = parse(kModel);
  analysis::inferShapes(m);
  PassManager pm(m);
  TestPass adds([](ir::Model& model, passes::PassContext& ctx) {
    ir::Graph& g = model.graph();
    ir::Node* abs = g.outputs()[0]->producer();
    ir::Node* sq = ctx.rewriter.addNode(g, "Sqrt", "", {abs->input(0)}, 1, abs, "sq", {});
    ctx.rewriter.setInput(abs, 0, sq->output(0));
    return Status::ok();
  });
  auto added = pm.run(adds, {"test_pass", {}, {}});
  ASSERT_TRUE(added) << added.error().message();
  EXPECT_TRUE((*added)->shapesInferred);
  const ir::Value* sqOut = m.graph().outputs()[0]->producer()->input(0);
  EXPECT_EQ(sqOut->type().toString(), "float[2,3]");

  auto removal = pm.run({"eliminate_identity_ops", {}, {}});
  ASSERT_TRUE(removal);
  EXPECT_TRUE((*removal)->changed);
  EXPECT_FALSE((*removal)->shapesInferred);
  ir::Model fresh = m.clone();
  analysis::inferShapes(fresh);
  for (const char* name : {"b", "c", "y"})
    EXPECT_EQ(m.graph().findValue(name)->type(), fresh.graph().findValue(name)->type()) << name;
}

// Where removing a node lets inference read contents it could not before, the
// step re-infers: Resize's scales behind an Identity (an initializer), and a
// cast of a shape behind a Dropout (contents inference tracks).
TEST(PassManager, ReinfersShapesWhenARewireExposesContents) {
  const char* models[] = {
      R"(main (float[1,3,4,4] x, float[2] e) => (float[2] y2, float[?,?,?,?] y)
         <float[4] s = {1, 1, 2, 2}> {
        y2 = Sqrt(e)
        t = Identity(s)
        r = Resize(x, , t)
        y = Relu(r) })",
      R"(main (float[2,3] x, float[3,2] z, float[2] e) => (float[2] y2, float[?,?] y) {
        y2 = Sqrt(e)
        s = Shape(x)
        f = Cast<to = 1>(s)
        d = Dropout(f)
        i = Cast<to = 7>(d)
        r = Reshape(z, i)
        y = Relu(r) })"};
  for (const char* text : models) {
    SCOPED_TRACE(text);
    ir::Model m = parse(text);
    analysis::inferShapes(m);
    PassManager pm(m);
    // A first step that re-infers, so the manager knows which contents are known.
    TestPass touch([](ir::Model& model, passes::PassContext& ctx) {
      ir::Node* sqrt = model.graph().findValue("y2")->producer();
      ctx.rewriter.setAttr(sqrt, ir::Attribute::makeInt("unused", 1));
      ctx.rewriter.removeAttr(sqrt, "unused");
      return Status::ok();
    });
    ASSERT_TRUE(pm.run(touch, {"test_pass", {}, {}}));
    auto removal = pm.run({"eliminate_identity_ops", {}, {}});
    ASSERT_TRUE(removal);
    ASSERT_TRUE((*removal)->changed);
    EXPECT_TRUE((*removal)->shapesInferred);
    ir::Model fresh = m.clone();
    analysis::inferShapes(fresh);
    const ir::Value* y = m.graph().findValue("r");
    EXPECT_TRUE(y->type().hasShape() && y->type().shape()->isStatic()) << y->type().toString();
    EXPECT_EQ(y->type(), fresh.graph().findValue("r")->type());
  }
}

TEST(PassManager, UnknownPassAndOptionAreErrors) {
  ir::Model m = parse(kModel);
  PassManager pm(m);
  auto unknown = pm.run({"make_it_fast", {}, {}});
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message().find("make_it_fast"), std::string::npos);
  auto badOption = pm.run({"eliminate_identity_ops", {{"speed", "11"}}, {}});
  ASSERT_FALSE(badOption);
  EXPECT_NE(badOption.error().message().find("speed"), std::string::npos);
}

// A value the option does not take is an error before the pass runs; the
// pass reads accepted values in one spelling (booleans as true/false).
TEST(PassManager, OptionValuesAreCheckedAndNormalized) {
  ir::Model m = parse(kModel);
  PassManager pm(m);
  auto bad = pm.run({"fold_constants", {{"max_growth", "lots"}}, {}});
  ASSERT_FALSE(bad);
  EXPECT_NE(
      bad.error().message().find(
          "pass 'fold_constants': option 'max_growth' takes a number >= 0 or inf, not 'lots'"),
      std::string::npos)
      << bad.error().message();
  EXPECT_TRUE(pm.timeline().steps().empty());

  TestPass reading([](ir::Model&, passes::PassContext& ctx) -> Status {
    if (ctx.option("flag") != "true") return invalidArgument("flag read as " + ctx.option("flag"));
    if (ctx.option("count") != "7") return invalidArgument("count read as " + ctx.option("count"));
    return Status::ok();
  });
  reading.info().options = {{"flag", "false", "h", passes::OptionKind::kBool},
                            {"count", "1", "h", passes::OptionKind::kCount}};
  auto step = pm.run(reading, {"test_pass", {{"flag", "Yes"}, {"count", "007"}}, {}});
  ASSERT_TRUE(step) << step.error().message();
  EXPECT_FALSE((*step)->rolledBack) << (*step)->error;
  auto full = effectiveOptions(reading, {{"flag", "on"}});
  ASSERT_TRUE(full);
  EXPECT_EQ(*full, (passes::Options{{"flag", "true"}, {"count", "1"}}));
}

TEST(PassManager, PassThatThrowsIsRolledBack) {
  ir::Model m = parse(kModel);
  PassManager pm(m);
  TestPass throwing([](ir::Model& model, passes::PassContext& ctx) -> Status {
    ir::Node* relu = model.graph().findValue("b")->producer();
    ctx.rewriter.removeNode(relu);  // still used: throws
    return Status::ok();
  });
  auto step = pm.run(throwing, {"test_pass", {}, {}});
  ASSERT_TRUE(step);
  EXPECT_TRUE((*step)->rolledBack);
  EXPECT_NE((*step)->error.str().find("still used"), std::string::npos) << (*step)->error;
  EXPECT_EQ(pm.model().graph().nodeCount(), 4u);
  EXPECT_NE(pm.model().graph().findValue("b"), nullptr);
  EXPECT_TRUE(pm.stopped());
  EXPECT_FALSE(skipsRejectedPass(**step));
}

// Anything thrown, not only a std::exception, rolls the step back: the edits
// made before the throw are undone and the step says what happened.
TEST(PassManager, PassThatThrowsANonStdExceptionIsRolledBack) {
  ir::Model m = parse(kModel);
  PassManager pm(m);
  TestPass throwing([](ir::Model& model, passes::PassContext& ctx) -> Status {
    ir::Graph& g = model.graph();
    ir::Node* neg = g.findValue("c")->producer();
    ctx.rewriter.setInput(neg, 0, g.findValue("a"));  // an edit made before the throw
    throw 42;
  });
  auto step = pm.run(throwing, {"test_pass", {}, {}});
  ASSERT_TRUE(step);
  EXPECT_TRUE((*step)->rolledBack);
  EXPECT_NE((*step)->error.str().find("test_pass threw"), std::string::npos) << (*step)->error;
  EXPECT_EQ(pm.model().graph().findValue("c")->producer()->input(0)->name(), "b");
  EXPECT_EQ(pm.model().graph().nodeCount(), 4u);
  EXPECT_TRUE(pm.stopped());
}

// A pattern pass the driver's cap stops before a fixpoint succeeds, and its
// step says it stopped early; one that reaches a fixpoint has no note.
TEST(PassManager, APatternPassStoppedByTheCapSaysSo) {
  // Neg(x) -> a fresh Neg(x): a rule that always matches again.
  std::vector<std::unique_ptr<rewrite::Pattern>> patterns;
  patterns.push_back(std::make_unique<rewrite::RulePattern>(
      "renew_neg", "Neg(x) -> Neg(x)", std::vector<rewrite::OpKey>{{"", "Neg"}},
      [](ir::Node& n, const rewrite::MatchContext&) {
        return rewrite::MatchResult::success({&n}, [&n](rewrite::Rewriter& rw) {
          ir::Node* fresh = rw.addNode(*n.owner(), "Neg", "", {n.input(0)}, 1, &n, "neg", {&n});
          rw.replaceAllUsesWith(n.output(0), fresh->output(0));
          rw.removeNode(&n);
        });
      }));
  passes::PassInfo info;
  info.id = "renew_neg";
  passes::PatternPass endless(info, std::move(patterns));
  ir::Model m = parse(kModel);
  PassManager pm(m);
  auto step = pm.run(endless, {"renew_neg", {}, {}});
  ASSERT_TRUE(step) << step.error().message();
  EXPECT_FALSE((*step)->rolledBack) << (*step)->error;
  EXPECT_TRUE((*step)->changed);
  EXPECT_NE((*step)->note.str().find("stopped before a fixpoint"), std::string::npos)
      << (*step)->note;

  auto done = pm.run({"eliminate_identity_ops", {}, {}});
  ASSERT_TRUE(done);
  EXPECT_TRUE((*done)->changed);
  EXPECT_EQ((*done)->note, "");
}

TEST(PassManager, PassThatBreaksTheVerifierIsRolledBack) {
  ir::Model m = parse(kModel);
  PassManager pm(m);
  TestPass cyclic([](ir::Model& model, passes::PassContext& ctx) -> Status {
    ir::Graph& g = model.graph();
    ir::Node* relu = g.findValue("b")->producer();
    ctx.rewriter.setInput(relu, 0, g.findValue("c"));  // b = Relu(c), c = Neg(b): a cycle
    return Status::ok();
  });
  auto step = pm.run(cyclic, {"test_pass", {}, {}});
  ASSERT_TRUE(step);
  EXPECT_TRUE((*step)->rolledBack);
  EXPECT_FALSE((*step)->verifierErrors.empty());
  EXPECT_EQ(pm.model().graph().findValue("b")->producer()->input(0)->name(), "a");
}

// A pass the verifier rejected is rolled back and left out; the passes after
// it go on (a throw, by contrast, stops the run: PassThatThrowsIsRolledBack).
TEST(PassManager, APassTheVerifierRejectedIsSkippedAndTheRunGoesOn) {
  ir::Model m = parse(kModel);
  PassManager pm(m);
  TestPass cyclic([](ir::Model& model, passes::PassContext& ctx) -> Status {
    ir::Graph& g = model.graph();
    ctx.rewriter.setInput(g.findValue("b")->producer(), 0, g.findValue("c"));
    return Status::ok();
  });
  auto step = pm.run(cyclic, {"test_pass", {}, {}});
  ASSERT_TRUE(step);
  ASSERT_TRUE((*step)->rolledBack);
  EXPECT_TRUE(skipsRejectedPass(**step));
  EXPECT_NE((*step)->error.str().find("test_pass left a graph the verifier rejects"),
            std::string::npos)
      << (*step)->error;
  EXPECT_FALSE(pm.stopped());

  Status status = pm.runAll({{"eliminate_identity_ops", {}, {}}});
  EXPECT_TRUE(status.isOk()) << status.message();
  ASSERT_EQ(pm.timeline().steps().size(), 2u);
  EXPECT_TRUE(pm.timeline().steps().back().changed);
  EXPECT_EQ(pm.model().graph().nodeCount(), 3u);  // the Identity went
  EXPECT_EQ(pm.model().graph().findValue("b")->producer()->input(0)->name(), "x");
}

// A step is verified where it touched the model: a node inserted before the
// producer of its input is rejected, with the very error the whole walk
// gives (PipelineOptions::verifyWholeModelAfterEachPass).
TEST(PassManager, AStepIsVerifiedWhereItTouchedTheModel) {
  std::vector<std::string> errors[2];
  for (bool wholeModel : {false, true}) {
    ir::Model m = parse(kModel);
    PipelineOptions o;
    o.verifyWholeModelAfterEachPass = wholeModel;
    o.wholeWalkShare = 0;  // a small graph: where the step touched it, however much
    PassManager pm(m, o);
    TestPass early([](ir::Model& model, passes::PassContext& ctx) -> Status {
      ir::Graph& g = model.graph();
      ir::Node* relu = g.findValue("b")->producer();
      ir::Node* neg = g.findValue("c")->producer();
      // Reads b, but is put before the Relu that makes it.
      ir::Node* abs = ctx.rewriter.addNode(g, "Abs", "", {g.findValue("b")}, 1, relu, "abs", {});
      ctx.rewriter.setInput(neg, 0, abs->output(0));
      return Status::ok();
    });
    auto step = pm.run(early, {"test_pass", {}, {}});
    ASSERT_TRUE(step);
    EXPECT_TRUE((*step)->rolledBack);
    EXPECT_EQ((*step)->verifiedWhole, wholeModel);
    errors[wholeModel] = (*step)->verifierErrors;
    EXPECT_EQ(pm.model().graph().findValue("c")->producer()->input(0)->name(), "b");
  }
  ASSERT_EQ(errors[0].size(), 1u);
  EXPECT_NE(errors[0][0].find("input 'b' is used before it is defined"), std::string::npos)
      << errors[0][0];
  EXPECT_EQ(errors[0], errors[1]);
}

// A step that touched a large share of the graph is verified by a walk of the
// whole structure (cheaper then); one that touched a small share, where it
// touched it.
TEST(PassManager, AStepThatTouchedMuchOfTheGraphIsVerifiedByAWholeWalk) {
  std::string text = "main (float[2] x) => (float[2] y) {\n  a0 = Identity(x)\n";
  for (int i = 1; i <= 40; ++i)
    text += "  a" + std::to_string(i) + " = Relu(a" + std::to_string(i - 1) + ")\n";
  text += "  y = Neg(a40)\n}";
  for (size_t share : {size_t{16}, size_t{2}}) {
    ir::Model m = parse(text);
    analysis::inferShapes(m);  // so that no re-inference touches every node
    PipelineOptions o;
    o.wholeWalkShare = share;
    PassManager pm(m, o);
    auto step = pm.run({"eliminate_identity_ops", {}, {}});  // touches one Relu of 42 nodes
    ASSERT_TRUE(step);
    EXPECT_TRUE((*step)->changed);
    EXPECT_EQ((*step)->verifiedWhole, share == 16) << share;
  }
}

// A model with structure errors of its own is verified by whole walks,
// which renew its known errors exactly: a step that meets an old error again
// is not blamed for it ...
TEST(PassManager, AnOldStructureErrorMetAgainIsNotBlamed) {
  ir::Model m = parse(R"(main (float[2] x) => (float[2] y, float[2] z) {
  a = Identity(x)
  b = Relu(a)
  c = Neg(b)
  y = Abs(c)
  z = Sigmoid(x)
})");
  ir::Graph& g = m.graph();
  g.moveBefore(g.findValue("c")->producer(), g.findValue("b")->producer());  // Neg before Relu
  ASSERT_EQ(verifierErrorSet(m).size(), 1u);
  PipelineOptions o;
  o.wholeWalkShare = 0;
  PassManager pm(m, o);
  // Rewires the Relu (Identity gone), whose reader is the misplaced Neg.
  auto step = pm.run({"eliminate_identity_ops", {}, {}});
  ASSERT_TRUE(step);
  EXPECT_TRUE((*step)->changed);
  EXPECT_TRUE((*step)->verifiedWhole);
  EXPECT_FALSE((*step)->rolledBack) << (*step)->error;
  EXPECT_EQ(verifierErrorSet(pm.model()).size(), 1u);
}

// ... and once a step has repaired it, the model is checked where steps touch
// it, and a step that brings the error back is blamed.
TEST(PassManager, AStructureErrorRepairedAndBroughtBackIsBlamed) {
  ir::Model m = parse(R"(main (bool c, float[2] a) => (float[2] y, float[2] z) {
  x0 = Neg(a)
  y = If <then_branch = g1 () => (float[2] t) { t = Relu(x0) },
          else_branch = g2 () => (float[2] e) { e = Abs(x0) }> (c)
  z = Sigmoid(x0)
})");
  analysis::inferShapes(m);
  ir::Graph& g = m.graph();
  ir::Graph& branch = *g.findValue("y")->producer()->subgraphs()[1];
  ir::Value* inner = branch.outputs()[0];
  ir::Value* later = g.findValue("z");  // defined after the If
  branch.setOutput(0, later);
  ASSERT_EQ(verifierErrorSet(m).size(), 1u);
  PipelineOptions o;
  o.wholeWalkShare = 0;
  PassManager pm(m, o);
  auto output = [&](ir::Value* v) {
    return TestPass([&branch, v](ir::Model&, passes::PassContext& ctx) -> Status {
      ctx.rewriter.setGraphOutput(branch, 0, v);
      return Status::ok();
    });
  };
  TestPass repair = output(inner), breakAgain = output(later);
  auto first = pm.run(repair, {"test_pass", {}, {}});
  ASSERT_TRUE(first);
  EXPECT_FALSE((*first)->rolledBack) << (*first)->error;
  EXPECT_TRUE((*first)->verifiedWhole);  // the model had a structure error
  ASSERT_TRUE(verifierErrorSet(pm.model()).empty());
  auto second = pm.run(breakAgain, {"test_pass", {}, {}});
  ASSERT_TRUE(second);
  EXPECT_FALSE((*second)->verifiedWhole);
  EXPECT_TRUE((*second)->rolledBack);
  ASSERT_FALSE((*second)->verifierErrors.empty());
  EXPECT_NE((*second)->verifierErrors.front().find("output 'z' is never defined"),
            std::string::npos)
      << (*second)->verifierErrors.front();
}

// After a step, schemas are checked only for the nodes it touched, but that
// includes a node the pass never edited whose input changed type: here the
// initializer Add reads becomes int64, so the untouched Add is rejected.
TEST(PassManager, SchemaOfAnUneditedReaderOfARetypedValueIsChecked) {
  ir::Model m = parse(R"(main (float[2] x) => (float[2] y) <float[2] w = {1, 2}> {
  a = Relu(x)
  y = Add(a, w)
})");
  PassManager pm(m);
  TestPass retype([](ir::Model& model, passes::PassContext& ctx) -> Status {
    ir::Value* w = model.graph().findValue("w");
    ctx.rewriter.setInitializer(w,
                                ir::Tensor::fromVector<int64_t>(ir::DataType::kInt64, {2}, {1, 2}));
    return Status::ok();
  });
  auto step = pm.run(retype, {"test_pass", {}, {}});
  ASSERT_TRUE(step);
  EXPECT_TRUE((*step)->rolledBack);
  ASSERT_FALSE((*step)->verifierErrors.empty());
  EXPECT_NE((*step)->verifierErrors.front().find("Add"), std::string::npos)
      << (*step)->verifierErrors.front();
  EXPECT_EQ(pm.model().graph().findValue("w")->initializer()->dtype(), ir::DataType::kFloat);
}

// A node that broke its schema in the input model keeps that error through
// steps that do not re-check it; a later step that touches it must not be
// blamed for it (known errors accumulate rather than being replaced).
TEST(PassManager, AnOldSchemaErrorIsNotBlamedOnALaterStepThatTouchesTheNode) {
  ir::Model m = parse(R"(main (float[2] x, int64[2] k) => (float[2] y, float[2] z) {
  a = Relu(x)
  b = Identity(a)
  y = Add(b, k)
  z = Neg(a)
})");
  analysis::inferShapes(m);  // types b, so the Add's error is there from the start
  ASSERT_EQ(verifierErrorSet(m).size(), 1u);
  PassManager pm(m);
  TestPass touchNeg([](ir::Model& model, passes::PassContext& ctx) -> Status {
    ir::Graph& g = model.graph();
    ir::Node* neg = g.findValue("z")->producer();
    ir::Node* abs = ctx.rewriter.addNode(g, "Abs", "", {g.findValue("a")}, 1, neg, "abs", {});
    ctx.rewriter.setInput(neg, 0, abs->output(0));
    return Status::ok();
  });
  auto first = pm.run(touchNeg, {"test_pass", {}, {}});
  ASSERT_TRUE(first);
  EXPECT_FALSE((*first)->rolledBack) << (*first)->error;
  auto second = pm.run({"eliminate_identity_ops", {}, {}});  // rewires the broken Add
  ASSERT_TRUE(second);
  EXPECT_TRUE((*second)->changed);
  EXPECT_FALSE((*second)->rolledBack) << (*second)->error;
}

// Known schema errors are kept per node: an error that went away with its
// node is not known any more, so a step that brings it back is rolled back.
TEST(PassManager, AnErrorThatCameBackWithANewNodeIsBlamed) {
  ir::Model m = parse(R"(main (float[2] x, int64[2] k) => (float[2] y) {
  a = Relu(x)
  bad = Add(a, k)
  y = Neg(a)
})");
  analysis::inferShapes(m);
  const std::set<std::string> original = verifierErrorSet(m);
  ASSERT_EQ(original.size(), 1u);
  PassManager pm(m);
  auto removed = pm.run({"eliminate_dead_nodes", {}, {}});
  ASSERT_TRUE(removed);
  EXPECT_TRUE((*removed)->changed);
  EXPECT_FALSE((*removed)->rolledBack) << (*removed)->error;
  ASSERT_TRUE(verifierErrorSet(pm.model()).empty());
  TestPass readd([](ir::Model& model, passes::PassContext& ctx) -> Status {
    ir::Graph& g = model.graph();
    ir::Node* neg = g.outputs()[0]->producer();
    ir::Node* add =
        ctx.rewriter.addNode(g, "Add", "", {g.findValue("a"), g.findValue("k")}, 1, neg, "Add", {});
    add->setName("");  // as the removed one was, so the error reads the same
    ctx.rewriter.setInput(neg, 0, add->output(0));
    return Status::ok();
  });
  auto back = pm.run(readd, {"test_pass", {}, {}});
  ASSERT_TRUE(back);
  EXPECT_TRUE((*back)->rolledBack);
  const auto& blamed = (*back)->verifierErrors;  // includes the very same text as before
  EXPECT_NE(std::find(blamed.begin(), blamed.end(), *original.begin()), blamed.end())
      << blamed.front();
}

// Without snapshots there is no copy of the model: the undo log alone restores
// it, after several edits and shape inference, to exactly what it was.
TEST(PassManager, RollbackWithoutSnapshotsRestoresTheModelExactly) {
  ir::Model m = parse(kModel);
  analysis::inferShapes(m);
  ir::Model original = m.clone();
  PipelineOptions options;
  options.keepSnapshots = false;
  PassManager pm(m, options);
  TestPass breaking([](ir::Model& model, passes::PassContext& ctx) -> Status {
    ir::Graph& g = model.graph();
    ir::Node* relu = g.findValue("b")->producer();
    ir::Node* sig = ctx.rewriter.addNode(g, "Sigmoid", "", {relu->input(0)}, 1, relu, "", {relu});
    ctx.rewriter.replaceAllUsesWith(relu->output(0), sig->output(0));
    ctx.rewriter.removeNode(relu);
    ctx.rewriter.setInput(sig, 0, g.findValue("c"));  // a cycle: the verifier rejects it
    return Status::ok();
  });
  auto step = pm.run(breaking, {"test_pass", {}, {}});
  ASSERT_TRUE(step);
  EXPECT_TRUE((*step)->rolledBack);
  EXPECT_FALSE((*step)->verifierErrors.empty());
  EXPECT_EQ(ir::firstDifference(original.graph(), pm.model().graph()), std::nullopt);
  EXPECT_TRUE(verifierErrorSet(pm.model()).empty());
}

// Outputs computed from a generator without a seed differ on every run: the
// check leaves them out (and says which), compares the others, and never names
// a random tensor as the first to diverge. With a seed they are compared.
TEST(NumericCheck, OutputsOfUnseededRandomOpsAreNotCompared) {
  ir::Model m = parse(R"(main (float[2,3] x) => (float[2,3] y, float[2,3] z, float[2,3] w) {
    r = RandomUniformLike(x)
    y = Add(r, x)
    z = Neg(x)
    s = RandomUniformLike <seed = 7.0> (x)
    w = Mul(s, x)
  })");
  analysis::inferShapes(m);
  EXPECT_EQ(unseededRandomValues(m), (std::set<std::string>{"r", "y"}));
  auto checker = ExecOutputChecker::create(m, 2, {});
  ASSERT_TRUE(checker) << checker.error().message();
  EXPECT_EQ((*checker)->uncomparedOutputs(), (std::vector<std::string>{"y"}));
  // The same model again: y's values differ from the reference run, but pass.
  ir::Model same = m.clone();
  NumericCheck c = (*checker)->check(same);
  EXPECT_TRUE(c.passed) << c.detail;
  // A real change to a deterministic output is still found, and named.
  ir::Model changed = m.clone();
  changed.graph().findValue("z")->producer()->setOpType("Abs");
  c = (*checker)->check(changed);
  EXPECT_FALSE(c.passed);
  EXPECT_NE(c.detail.str().find("output 'z'"), std::string::npos) << c.detail;
  EXPECT_EQ(c.firstDivergingTensor, "z");
  // A random output must stay random: a generator replaced by its input fails.
  ir::Model derandomized = m.clone();
  {
    ir::Graph& g = derandomized.graph();
    ir::Node* gen = g.findValue("r")->producer();
    ir::Node* id = g.addNode("Identity", "", {g.findValue("x")}, 1);
    g.findValue("y")->producer()->setInput(0, id->output(0));
    g.removeNode(gen);
  }
  c = (*checker)->check(derandomized);
  EXPECT_FALSE(c.passed);
  EXPECT_NE(c.detail.str().find("no longer does"), std::string::npos) << c.detail;
  // The seeded output is compared: changing what multiplies it is found.
  ir::Model seeded = m.clone();
  seeded.graph().findValue("w")->producer()->setOpType("Add");
  c = (*checker)->check(seeded);
  EXPECT_FALSE(c.passed);
  EXPECT_NE(c.detail.str().find("output 'w'"), std::string::npos) << c.detail;
}

TEST(NumericCheck, DropoutInTrainingModeIsRandomUnlessSeededOrOff) {
  ir::Model m = parse(R"(main (float[4] x, bool t) => (float[4] a, float[4] b, float[4] c)
  <float r = {0.5}, bool f = {0}> {
    a = Dropout(x, r, t)
    b = Dropout <seed = 3> (x, r, t)
    c = Dropout(x, r, f)
  })");
  EXPECT_EQ(unseededRandomValues(m), (std::set<std::string>{"a"}));
}

TEST(NumericCheck, ASubgraphReturningARandomValueMakesTheHolderRandom) {
  ir::Model m = parse(R"(main (bool c, float[2] x) => (float[2] z) {
    r = RandomUniformLike(x)
    z = If <then_branch = t () => (float[2] r) { },
            else_branch = e () => (float[2] b) { b = Neg(x) }> (c)
  })");
  EXPECT_EQ(unseededRandomValues(m), (std::set<std::string>{"r", "z"}));
}

TEST(NumericCheck, RandomnessInsideASubgraphMakesTheHolderRandom) {
  ir::Model m = parse(R"(main (bool c, float[2] x) => (float[2] z) {
    z = If <then_branch = t () => (float[2] a) { a = RandomUniformLike(x) },
            else_branch = e () => (float[2] b) { b = Neg(x) }> (c)
  })");
  EXPECT_EQ(unseededRandomValues(m), (std::set<std::string>{"z"}));
}

TEST(PassManager, NumericCheckStopsAtThePassThatChangesOutputsAndNamesTheTensor) {
  ir::Model m = parse(kModel);
  analysis::inferShapes(m);
  auto checker = ExecOutputChecker::create(m, 2, {});
  ASSERT_TRUE(checker) << checker.error().message();
  PassManager pm(m);
  pm.setChecker(checker->get());
  // Replaces Relu by Sigmoid: every later tensor changes; the first is 'b'.
  TestPass wrong([](ir::Model& model, passes::PassContext& ctx) -> Status {
    ir::Graph& g = model.graph();
    ir::Node* relu = g.findValue("b")->producer();
    ir::Node* sig =
        ctx.rewriter.addNode(g, "Sigmoid", "", {relu->input(0)}, 1, relu, "sig", {relu});
    ctx.rewriter.replaceAllUsesWith(relu->output(0), sig->output(0));
    ctx.rewriter.removeNode(relu);
    return Status::ok();
  });
  ASSERT_TRUE(pm.run({"eliminate_identity_ops", {}, {}}));
  EXPECT_TRUE(pm.timeline().steps()[0].check.passed) << pm.timeline().steps()[0].check.detail;
  auto step = pm.run(wrong, {"test_pass", {}, {}});
  ASSERT_TRUE(step);
  const NumericCheck& c = (*step)->check;
  EXPECT_TRUE(c.ran);
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.firstDivergingTensor, "sig_out") << c.detail;
  EXPECT_GT(c.maxAbsError, 0.0);
  EXPECT_TRUE(pm.stopped());
  // The pipeline stops: later passes do not run.
  Status rest = pm.runAll({{"eliminate_dead_nodes", {}, {}}});
  EXPECT_TRUE(rest.isOk());
  EXPECT_EQ(pm.timeline().steps().size(), 2u);
}

// An OutputChecker that records which check each step asked for.
class RecordingChecker : public OutputChecker {
 public:
  NumericCheck check(const ir::Model&, const StandIns&) override {
    calls.push_back("check");
    return passed();
  }
  NumericCheck checkWithinBudget(const ir::Model&, const AccuracyBudget&,
                                 const StandIns&) override {
    calls.push_back("budget");
    NumericCheck c = passed();
    c.lossy = true;
    return c;
  }
  void rebase(const ir::Model&) override {
    calls.push_back("rebase");
    isRebased = true;
  }
  bool rebased() const override { return isRebased; }
  std::vector<std::string> calls;
  bool isRebased = false;

 private:
  static NumericCheck passed() {
    NumericCheck c;
    c.ran = true;
    return c;
  }
};

// Replaces the Neg by a new one: a step that changes the model.
Status replaceNeg(ir::Model& model, passes::PassContext& ctx) {
  ir::Graph& g = model.graph();
  ir::Node* neg = nullptr;
  for (const auto& n : g.nodes())
    if (n->opType() == "Neg") neg = n.get();
  if (!neg) return internalError("no Neg");
  ir::Node* again = ctx.rewriter.addNode(g, "Neg", "", {neg->input(0)}, 1, neg, "", {neg});
  ctx.rewriter.replaceAllUsesWith(neg->output(0), again->output(0));
  ctx.rewriter.removeNode(neg);
  return Status::ok();
}

// The checks after a lossy step go on in a new PassManager that continues
// from the steps of another (the GUI starts one after a change of the
// budget, an edit or an undo): later exact steps against the budget, not
// the original's outputs. A new one without that history checks exactly.
TEST(PassManager, ANewManagerGoesOnFromALossyStepOfAnother) {
  ir::Model m = parse(kModel);
  TestPass lossy(replaceNeg);
  lossy.info().lossy = true;
  TestPass exact(replaceNeg);
  RecordingChecker first;
  PassManager pm(m);
  pm.setChecker(&first);
  ASSERT_TRUE(pm.run(lossy, {"test_pass", {}, {}}));
  ASSERT_TRUE(pm.run(exact, {"test_pass", {}, {}}));
  EXPECT_EQ(first.calls, (std::vector<std::string>{"budget", "budget"}));
  EXPECT_TRUE(pm.history().lossy);
  EXPECT_FALSE(pm.history().unitExact);

  RecordingChecker second;
  PassManager next(m);
  next.setChecker(&second);
  next.continueAfter(pm.history());
  ASSERT_TRUE(next.run(exact, {"test_pass", {}, {}}));
  EXPECT_EQ(second.calls, std::vector<std::string>{"budget"});

  RecordingChecker third;
  PassManager fresh(m);
  fresh.setChecker(&third);
  ASSERT_TRUE(fresh.run(exact, {"test_pass", {}, {}}));
  EXPECT_EQ(third.calls, std::vector<std::string>{"check"});
  EXPECT_FALSE(fresh.history().lossy);
}

// After a step exact per node unit the checker of a new PassManager is
// re-based on the model as it stands, once, whichever of continueAfter and
// setChecker comes first; a checker re-based already is left as it is. A
// rolled-back step or one that changed nothing leaves no history.
TEST(PassManager, ANewManagerReBasesItsCheckerAfterAUnitExactStep) {
  ir::Model m = parse(kModel);
  passes::PassInfo unitExact;
  unitExact.exactPerUnit = true;
  Step accepted;
  accepted.changed = true;
  CheckHistory history;
  Step rolledBack = accepted;
  rolledBack.rolledBack = true;
  Step unchanged;
  history.add(rolledBack, unitExact);
  history.add(unchanged, unitExact);
  EXPECT_FALSE(history.unitExact);
  history.add(accepted, unitExact);
  EXPECT_TRUE(history.unitExact);
  EXPECT_FALSE(history.lossy);

  RecordingChecker a;
  PassManager pmA(m);
  pmA.continueAfter(history);
  EXPECT_TRUE(a.calls.empty());
  pmA.setChecker(&a);
  EXPECT_EQ(a.calls, std::vector<std::string>{"rebase"});
  EXPECT_TRUE(pmA.rebased());

  RecordingChecker b;
  PassManager pmB(m);
  pmB.setChecker(&b);
  pmB.continueAfter(history);
  pmB.setChecker(&b);
  EXPECT_EQ(b.calls, std::vector<std::string>{"rebase"});

  RecordingChecker c;
  c.isRebased = true;
  PassManager pmC(m);
  pmC.continueAfter(history);
  pmC.setChecker(&c);
  EXPECT_TRUE(c.calls.empty());

  RecordingChecker d;
  PassManager pmD(m);
  pmD.setChecker(&d);
  pmD.continueAfter(CheckHistory{});
  EXPECT_TRUE(d.calls.empty());
}

TEST(PassManager, FilterKeepsAPassAwayFromANode) {
  ir::Model m = parse(kModel);
  PassManager pm(m);
  PassSpec spec{"eliminate_identity_ops", {}, {}};
  spec.filter.excluded.insert(m.graph().findValue("a")->producer()->id());
  auto step = pm.run(spec);
  ASSERT_TRUE(step);
  EXPECT_FALSE((*step)->changed);
  EXPECT_EQ(pm.model().graph().nodeCount(), 4u);
}

// Issue #25: a node excluded when the plan was made stays excluded in what
// an earlier pass made of it: the MatMul fused into a Gemm by one step is not
// quantized by a later step that excludes the MatMul (it was; without the
// exclusion the Gemm is).
TEST(PassManager, AnExclusionFollowsWhatAFusionMadeOfTheNode) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2,4] x) => (float[2,2] y)
    <float[4,2] w = {0.5, -0.25, 0.75, 0.1, -0.5, 0.3, 0.2, -0.6}, float[2] c = {0.1, -0.2}> {
    t = MatMul(x, w)
    y = Add(t, c) })";
  auto ops = [](const ir::Model& m) {
    std::multiset<std::string> out;
    m.graph().forEachNodeRecursive([&](ir::Node* n) { out.insert(n->opType()); });
    return out;
  };
  for (bool exclude : {true, false}) {
    ir::Model m = parse(text);
    analysis::inferShapes(m);  // the fusion takes 2-D products only
    const ir::NodeId matmul = m.graph().findValue("t")->producer()->id();
    PassManager pm(m);
    auto fused = pm.run({"fuse_matmul_add_into_gemm", {}, {}});
    ASSERT_TRUE(fused) << fused.error().message();
    ASSERT_TRUE((*fused)->changed);
    ASSERT_EQ(ops(pm.model()).count("Gemm"), 1u);
    PassSpec quantize{"quantize_dynamic", {}, {}};
    if (exclude) quantize.filter.excluded.insert(matmul);
    auto step = pm.run(quantize);
    ASSERT_TRUE(step) << step.error().message();
    EXPECT_EQ((*step)->changed, !exclude) << "exclude " << exclude;
    EXPECT_EQ(ops(pm.model()).count("Gemm"), exclude ? 1u : 0u) << "exclude " << exclude;
  }
}

// Issue #25: a recipe's `only_nodes` names nodes of the model the plan was
// made on; a later step limited to a MatMul reaches the Gemm an earlier step
// fused from it (it matched nothing and changed nothing), and not the other
// MatMul's Gemm.
TEST(PassManager, AnOnlyFilterFollowsWhatAFusionMadeOfTheNode) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2,4] x) => (float[2,2] y, float[2,2] z)
    <float[4,2] w = {0.5, -0.25, 0.75, 0.1, -0.5, 0.3, 0.2, -0.6}, float[2] c = {0.1, -0.2},
     float[4,2] v = {0.4, -0.35, 0.15, 0.9, -0.25, 0.6, 0.7, -0.1}> {
    t = MatMul(x, w)
    y = Add(t, c)
    u = MatMul(x, v)
    z = Add(u, c) })";
  auto count = [](const ir::Model& m, const std::string& op) {
    size_t k = 0;
    m.graph().forEachNodeRecursive([&](ir::Node* n) { k += n->opType() == op; });
    return k;
  };
  ir::Model m = parse(text);
  analysis::inferShapes(m);
  const ir::NodeId first = m.graph().findValue("t")->producer()->id();
  PassManager pm(m);
  auto fused = pm.run({"fuse_matmul_add_into_gemm", {}, {}});
  ASSERT_TRUE(fused) << fused.error().message();
  ASSERT_EQ(count(pm.model(), "Gemm"), 2u);
  PassSpec quantize{"quantize_dynamic", {}, {}};
  quantize.filter.only.insert(first);
  auto step = pm.run(quantize);
  ASSERT_TRUE(step) << step.error().message();
  EXPECT_TRUE((*step)->changed);
  EXPECT_EQ(count(pm.model(), "Gemm"), 1u);  // the other MatMul's Gemm stays float
  EXPECT_EQ(count(pm.model(), "MatMulInteger"), 1u);
}

TEST(Recipe, RoundTripsThroughJson) {
  Recipe r;
  r.checkInputSets = 3;
  r.passes.push_back({"eliminate_identity_ops", {}, {}});
  PassSpec withFilter{"eliminate_dead_nodes", {}, {}};
  withFilter.filter.excluded = {4, 9};
  r.passes.push_back(withFilter);
  auto back = recipeFromJson(recipeToJson(r));
  ASSERT_TRUE(back) << back.error().message();
  EXPECT_EQ(back->checkInputSets, 3);
  ASSERT_EQ(back->passes.size(), 2u);
  EXPECT_EQ(back->passes[1].filter.excluded, withFilter.filter.excluded);
  EXPECT_EQ(back->passlabVersion, PASSLAB_VERSION);
}

// Issue #25: the calibration source (a folder, or a count of synthesized
// sets) goes through JSON; a recipe without one (written before it was
// recorded) loads with none; a count below 1 or a non-object is refused.
TEST(Recipe, RecordsTheCalibrationSource) {
  for (const RecipeCalibration& c :
       {RecipeCalibration{"/data/calib", 0}, RecipeCalibration{"", 4}}) {
    Recipe r;
    r.calibration = c;
    r.passes.push_back({"quantize_static", {{"method", "percentile"}}, {}});
    const std::string json = recipeToJson(r);
    EXPECT_NE(json.find("\"calibration\""), std::string::npos) << json;
    auto back = recipeFromJson(json);
    ASSERT_TRUE(back) << back.error().message();
    EXPECT_EQ(back->calibration, c) << json;
  }
  Recipe none;
  none.passes.push_back({"fold_constants", {}, {}});
  EXPECT_EQ(recipeToJson(none).find("\"calibration\""), std::string::npos);
  auto old =
      recipeFromJson(R"({"format": "passlab-recipe", "passes": [{"id": "quantize_static"}]})");
  ASSERT_TRUE(old) << old.error().message();
  EXPECT_FALSE(old->calibration.recorded());
  for (const char* bad : {R"("calibration": {"sets": 0})", R"("calibration": {"sets": -2})",
                          R"("calibration": 4)", R"("calibration": {"sets": "four"})"}) {
    auto r = recipeFromJson(std::string(R"({"format": "passlab-recipe", )") + bad +
                            R"(, "passes": [{"id": "quantize_static"}]})");
    ASSERT_FALSE(r) << bad;
    EXPECT_NE(r.error().message().find("calibration"), std::string::npos) << r.error().message();
  }
}

TEST(Recipe, RejectsOptionValuesTheOptionDoesNotTake) {
  Recipe r;
  r.passes.push_back({"fold_constants", {{"size_budget_bytes", "4k"}}, {}});
  Status s = validateRecipe(r);
  ASSERT_FALSE(s.isOk());
  EXPECT_NE(s.message().find("option 'size_budget_bytes' takes a whole number >= 0, not '4k'"),
            std::string::npos)
      << s.message();
  r.passes[0].options = {{"size_budget_bytes", "8192"}, {"fold_dequantize_linear", "1"}};
  EXPECT_TRUE(validateRecipe(r).isOk());
}

TEST(Recipe, RejectsUnknownPassesAndBadJson) {
  EXPECT_FALSE(recipeFromJson("{not json"));
  EXPECT_FALSE(recipeFromJson(R"({"format": "something-else", "passes": []})"));
  auto unknown = recipeFromJson(R"({"format": "passlab-recipe", "passes": [{"id": "nope"}]})");
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message().find("nope"), std::string::npos);
}

// A negative check count switched the check of a lossy step off (optimize
// saved the model unchecked): refused, naming the key; 0 and more load.
TEST(Recipe, RejectsANegativeCheckCountNamingTheKey) {
  auto recipe = [](int sets) {
    return recipeFromJson(R"({"format": "passlab-recipe", "check_input_sets": )" +
                          std::to_string(sets) + R"(, "passes": [{"id": "fold_constants"}]})");
  };
  auto negative = recipe(-3);
  ASSERT_FALSE(negative);
  EXPECT_NE(negative.error().message().find("check_input_sets is -3"), std::string::npos)
      << negative.error().message();
  for (int sets : {0, 2}) {
    auto ok = recipe(sets);
    ASSERT_TRUE(ok) << ok.error().message();
    EXPECT_EQ(ok->checkInputSets, sets);
  }
  Recipe r;
  r.checkInputSets = -1;
  EXPECT_FALSE(validateRecipe(r));
}

TEST(NumericCheck, AllCloseUsesDtypeTolerances) {
  ir::Tensor a = ir::Tensor::fromVector<float>(ir::DataType::kFloat, {2}, {1.0f, 2.0f});
  ir::Tensor b = ir::Tensor::fromVector<float>(ir::DataType::kFloat, {2}, {1.0f, 2.00001f});
  ir::Tensor c = ir::Tensor::fromVector<float>(ir::DataType::kFloat, {2}, {1.0f, 2.01f});
  double ma = 0, mr = 0;
  Text why;
  EXPECT_TRUE(allClose(a, b, ma, mr, why));
  EXPECT_FALSE(allClose(a, c, ma, mr, why));
  EXPECT_NE(why.str().find("element 1"), std::string::npos);
  ir::Tensor i1 = ir::Tensor::fromInt64s({1, 2});
  ir::Tensor i2 = ir::Tensor::fromInt64s({1, 3});
  EXPECT_FALSE(allClose(i1, i2, ma, mr, why));
}

}  // namespace
}  // namespace passlab::pipeline
