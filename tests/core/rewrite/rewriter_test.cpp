// The Rewriter records every edit; the driver applies patterns to a fixpoint,
// honours node filters and keeps the last reason a pattern gave.
#include <gtest/gtest.h>

#include <thread>

#include "core/analysis/shape_inference.h"
#include "core/rewrite/driver.h"
#include "core/rewrite/match_utils.h"
#include "core/rewrite/rewriter.h"
#include "tests/support/test_support.h"

namespace passlab::rewrite {
namespace {

using testing::parse;

TEST(Rewriter, RecordsEditsAndNetSummary) {
  ir::Model m = parse("main (float[2] x) => (float[2] y) { a = Relu(x)\n y = Neg(a) }");
  EditLog log;
  Provenance prov;
  Rewriter rw(m, log, &prov, "test");
  ir::Graph& g = m.graph();
  ir::Node* relu = g.findValue("a")->producer();
  ir::Node* neg = g.findValue("y")->producer();
  ir::Node* abs = rw.addNode(g, "Abs", "", {g.findValue("x")}, 1, neg, "abs", {relu});
  rw.setInput(neg, 0, abs->output(0));
  rw.removeNode(relu);
  ir::Node* tmp = rw.addNode(g, "Relu", "", {g.findValue("x")}, 1, nullptr, "", {});
  rw.removeNode(tmp);  // added and removed: no net effect

  EditSummary s = log.summarize();
  EXPECT_EQ(s.added, (std::vector<ir::NodeId>{abs->id()}));
  EXPECT_EQ(s.removed.size(), 1u);
  EXPECT_EQ(s.rewired, (std::vector<ir::NodeId>{neg->id()}));
  EXPECT_EQ(s.toString(), "1 removed, 1 added, 1 rewired");
  EXPECT_EQ(prov.createdBy(abs->id()), "test");
  EXPECT_EQ(prov.origins(abs->id()).size(), 1u);
}

// Edits on a node the pass added and removed again, or on a node it removed,
// are not reported as rewiring; ids are listed once, in id order.
TEST(Rewriter, SummaryFoldsEditsOnTransientAndRemovedNodes) {
  EditLog log;
  log.record({EditKind::kInputRewired, 7, 0, 0, "a", "b", ""});
  log.record({EditKind::kNodeAdded, 9, 0, -1, "", "", "Relu"});
  log.record({EditKind::kInputRewired, 9, 0, 0, "a", "b", ""});
  log.record({EditKind::kNodeRemoved, 9, 0, -1, "", "", "Relu"});
  log.record({EditKind::kInputRewired, 3, 0, 1, "c", "d", ""});
  log.record({EditKind::kInputRewired, 7, 0, 1, "c", "d", ""});
  log.record({EditKind::kAttributeChanged, 4, 0, -1, "", "", "perm"});
  log.record({EditKind::kNodeRemoved, 4, 0, -1, "", "", "Transpose"});
  log.record({EditKind::kNodeAdded, 12, 0, -1, "", "", "Neg"});
  log.record({EditKind::kAttributeChanged, 12, 0, -1, "", "", "x"});
  EditSummary s = log.summarize();
  EXPECT_EQ(s.added, (std::vector<ir::NodeId>{12}));
  EXPECT_EQ(s.removed, (std::vector<ir::NodeId>{4}));
  EXPECT_EQ(s.rewired, (std::vector<ir::NodeId>{3, 7}));
  EXPECT_TRUE(s.attributeChanged.empty());
}

// Shape inference after a pass is skipped when the pass cannot have changed a
// type: it only removed nodes and rewired uses between values of the same float
// type whose contents inference cannot read.
TEST(Rewriter, TracksWhetherTypesMayHaveChanged) {
  const char* text =
      "main (float[2] x, int64[1] s) => (float[2] y, int64[1] t, float[2] u, float[2] v) "
      "<float[2] w0 = {1, 2}> {\n"
      " a = Identity(x)\n y = Neg(a)\n b = Identity(s)\n t = Neg(b)\n w = Relu(x)\n"
      " u = Neg(x)\n sh = Shape(x)\n f = Cast<to = 1>(sh)\n g = Identity(f)\n v = Neg(w0) }";
  struct Fixture {
    ir::Model m;
    std::vector<bool> known;
    EditLog log;
    Rewriter rw;
    explicit Fixture(const char* t) : m(parse(t)), rw(m, log) {
      auto report = analysis::inferShapes(m);
      known.assign(m.graph().valueIdBound(), false);
      for (const ir::Value* v : report.knownContents) known[v->denseId()] = true;
      rw.setKnownContents(&known);
    }
    ir::Value* val(const char* name) { return m.graph().findValue(name); }
    ir::Node* producer(const char* name) { return val(name)->producer(); }
  };
  {
    Fixture f(text);
    f.rw.setInput(f.producer("y"), 0, f.val("x"));
    f.rw.removeNode(f.producer("a"));
    f.rw.removeNode(f.producer("w"));
    EXPECT_FALSE(f.rw.typesMayHaveChanged());
  }
  {  // without the table of known contents every rewire counts
    Fixture f(text);
    f.rw.setKnownContents(nullptr);
    f.rw.setInput(f.producer("y"), 0, f.val("x"));
    EXPECT_TRUE(f.rw.typesMayHaveChanged());
  }
  {  // integer tensors carry shape data inference tracks: a rewire may refine it
    Fixture f(text);
    f.rw.setInput(f.producer("t"), 0, f.val("s"));
    EXPECT_TRUE(f.rw.typesMayHaveChanged());
  }
  {  // a float value whose contents inference knows (a cast of a shape)
    Fixture f(text);
    ASSERT_TRUE(f.known[f.val("f")->denseId()]);
    f.rw.setInput(f.producer("u"), 0, f.val("f"));
    EXPECT_TRUE(f.rw.typesMayHaveChanged());
  }
  {  // a float initializer: rules read constant inputs (Resize scales, ...)
    Fixture f(text);
    f.rw.setInput(f.producer("u"), 0, f.val("w0"));
    EXPECT_TRUE(f.rw.typesMayHaveChanged());
  }
  {  // a value of another type
    Fixture f(text);
    f.rw.setInput(f.producer("y"), 0, f.val("s"));
    EXPECT_TRUE(f.rw.typesMayHaveChanged());
  }
  {  // new nodes and attribute edits always may
    Fixture f(text);
    f.rw.addNode(f.m.graph(), "Abs", "", {f.val("x")}, 1, nullptr, "", {});
    EXPECT_TRUE(f.rw.typesMayHaveChanged());
    Fixture g(text);
    g.rw.setAttr(g.producer("w"), ir::Attribute::makeInt("k", 1));
    EXPECT_TRUE(g.rw.typesMayHaveChanged());
  }
}

// Use lists are sets; usesInNodeOrder gives the consumers by node id whatever
// order edits left the list in.
TEST(Rewriter, UsesInNodeOrderIgnoresEditHistory) {
  ir::Model m = parse(
      "main (float[2] x, float[2] z) => (float[2] a, float[2] b, float[2] c) {\n"
      " a = Relu(x)\n b = Neg(x)\n c = Abs(x) }");
  ir::Graph& g = m.graph();
  ir::Node* relu = g.findValue("a")->producer();
  ir::Node* neg = g.findValue("b")->producer();
  ir::Node* abs = g.findValue("c")->producer();
  // Move Relu's use away and back: it is now last in x's list.
  relu->setInput(0, g.findValue("z"));
  relu->setInput(0, g.findValue("x"));
  std::vector<ir::Use> ordered = usesInNodeOrder(g.findValue("x"));
  ASSERT_EQ(ordered.size(), 3u);
  EXPECT_EQ(ordered[0].node, relu);
  EXPECT_EQ(ordered[1].node, neg);
  EXPECT_EQ(ordered[2].node, abs);
  EXPECT_NE(g.findValue("x")->uses()[0].node, relu);
}

// ONNX Runtime refuses a file with two nodes of one name: a pass that names a
// new node after one it replaces gets a name no other node has.
TEST(Rewriter, NewNodesGetNamesNoOtherNodeHas) {
  ir::Model m = parse("main (float[2] x) => (float[2] y) { a = Relu(x)\n y = Neg(a) }");
  ir::Graph& g = m.graph();
  g.findValue("a")->producer()->setName("act");
  EditLog log;
  Rewriter rw(m, log, nullptr, "test");
  ir::Node* first = rw.addNode(g, "Abs", "", {g.findValue("x")}, 1, nullptr, "act", {});
  ir::Node* second = rw.addNode(g, "Abs", "", {g.findValue("x")}, 1, nullptr, "act", {});
  EXPECT_EQ(g.findValue("a")->producer()->name(), "act");
  EXPECT_NE(first->name(), "act");
  EXPECT_NE(second->name(), "act");
  EXPECT_NE(first->name(), second->name());
}

TEST(Rewriter, ProvenanceFlowsAcrossGenerations) {
  Provenance p;
  p.recordDerived(10, {1, 2}, "fuse_a");
  p.recordDerived(11, {10, 3}, "fuse_b");
  EXPECT_EQ(p.origins(11), (std::vector<ir::NodeId>{1, 2, 3}));
  EXPECT_EQ(p.origins(3), (std::vector<ir::NodeId>{3}));
  EXPECT_TRUE(p.isOriginal(3));
  EXPECT_FALSE(p.isOriginal(10));
}

TEST(Rewriter, ReplacingAModelOutputKeepsItsName) {
  ir::Model m = parse("main (float[2] x) => (float[2] y) { a = Relu(x)\n y = Identity(a) }");
  EditLog log;
  Rewriter rw(m, log);
  ir::Value* y = m.graph().findValue("y");
  ir::Value* a = m.graph().findValue("a");
  EXPECT_EQ(Rewriter::canReplace(y, a), "");
  rw.replaceAllUsesWith(y, a);
  rw.removeNode(y->producer());
  EXPECT_EQ(m.graph().outputs()[0]->name(), "y");
  EXPECT_EQ(m.graph().outputs()[0]->producer()->opType(), "Relu");
  // A model input cannot take an output's name.
  ir::Model m2 = parse("main (float[2] x) => (float[2] y) { y = Identity(x) }");
  EXPECT_NE(Rewriter::canReplace(m2.graph().findValue("y"), m2.graph().findValue("x")), "");
}

// A null replacement leaves node inputs omitted, and is refused, with nothing
// edited, for a value a graph returns (it used to be dereferenced there).
TEST(Rewriter, ReplacingWithNothing) {
  ir::Model m =
      parse("main (float[2] x, float lo) => (float[2] y) { a = Identity(lo)\n y = Clip(x, a) }");
  EditLog log;
  Rewriter rw(m, log);
  ir::Value* a = m.graph().findValue("a");
  ir::Value* y = m.graph().findValue("y");
  EXPECT_EQ(Rewriter::canReplace(a, nullptr), "");
  rw.replaceAllUsesWith(a, nullptr);
  EXPECT_EQ(y->producer()->input(1), nullptr);
  EXPECT_FALSE(a->hasUses());

  const size_t edits = log.edits().size();
  EXPECT_NE(Rewriter::canReplace(y, nullptr), "");
  EXPECT_THROW(rw.replaceAllUsesWith(y, nullptr), std::logic_error);
  EXPECT_EQ(log.edits().size(), edits);
  ASSERT_EQ(m.graph().outputs().size(), 1u);
  EXPECT_EQ(m.graph().outputs()[0], y);
  EXPECT_EQ(y->name(), "y");
}

// Neg(Neg(x)) -> x, to exercise the driver.
RulePattern doubleNeg() {
  return RulePattern(
      "double_neg", "Neg(Neg(x)) -> x", {{"", "Neg"}}, [](ir::Node& n, const MatchContext&) {
        ir::Node* inner = n.input(0) ? n.input(0)->producer() : nullptr;
        if (!inner || inner->opType() != "Neg")
          return MatchResult::failure("the input is not a Neg");
        if (auto why = whyNotSoleConsumer(inner->output(0)); !why.empty())
          return MatchResult::failure(why);
        if (auto why = Rewriter::canReplace(n.output(0), inner->input(0)); !why.empty())
          return MatchResult::failure(why);
        return MatchResult::success({&n, inner}, [&n, inner](Rewriter& rw) {
          rw.replaceAllUsesWith(n.output(0), inner->input(0));
          rw.removeNode(&n);
          rw.removeNode(inner);
        });
      });
}

TEST(Driver, ReachesAFixpointAndExplainsMisses) {
  ir::Model m = parse(R"(main (float[2] x) => (float[2] y, float[2] z) {
    a = Neg(x)
    b = Neg(a)
    c = Neg(b)
    d = Neg(c)
    y = Relu(d)
    z = Neg(x)
  })");
  EditLog log;
  Rewriter rw(m, log);
  RulePattern p = doubleNeg();
  ExplainLog explain;
  DriverOptions o;
  o.explain = &explain;
  MatchContext ctx;
  ctx.model = &m;
  DriverResult r = applyPatternsGreedily(rw, {&p}, ctx, o);
  EXPECT_TRUE(r.converged);
  EXPECT_EQ(r.rewrites, 2u);
  EXPECT_EQ(m.graph().nodeCount(), 2u);  // Relu and the lone Neg
  EXPECT_EQ(m.graph().findValue("y")->producer()->input(0)->name(), "x");
  ir::Node* lone = m.graph().findValue("z")->producer();
  ASSERT_NE(explain.reasons(lone->id()), nullptr);
  EXPECT_EQ(explain.reasons(lone->id())->at("double_neg"), "the input is not a Neg");
}

// A rewrite that removes a node holding subgraphs removes the candidates
// inside them too (without an undo log they are destroyed): the driver must
// not match them afterwards, though the edit log names only the outer node.
TEST(Driver, CandidatesInsideARemovedSubgraphAreSkipped) {
  ir::Model m = parse(R"(main (float[2] x, bool c) => (float[2] y) {
      a = Neg(x)
      u = If <then_branch = t () => (float[2] o) { r = Neg(x)
                                                  o = Neg(r) },
              else_branch = e () => (float[2] p) { p = Neg(x) }> (c)
      y = Neg(a) })");
  EditLog log;
  Rewriter rw(m, log);  // no undo log: removed nodes are destroyed at once
  RulePattern dropIf("drop_unused_if", "an If nobody reads goes", {{"", "If"}},
                     [](ir::Node& n, const MatchContext&) {
                       if (n.output(0)->hasUses() || n.output(0)->isGraphOutput())
                         return MatchResult::failure("its output is read");
                       return MatchResult::success({&n}, [&n](Rewriter& r) { r.removeNode(&n); });
                     });
  std::vector<ir::NodeId> negsSeen;
  RulePattern watchNegs("watch_negs", "records each Neg it is asked about", {{"", "Neg"}},
                        [&](ir::Node& n, const MatchContext&) {
                          negsSeen.push_back(n.id());
                          return MatchResult::failure("only watching");
                        });
  DriverOptions o;
  MatchContext ctx;
  ctx.model = &m;
  DriverResult r = applyPatternsGreedily(rw, {&dropIf, &watchNegs}, ctx, o);
  EXPECT_EQ(r.rewrites, 1u);
  EXPECT_EQ(m.graph().nodeCount(), 2u);
  std::vector<ir::NodeId> outer{m.graph().findValue("a")->producer()->id(),
                                m.graph().findValue("y")->producer()->id()};
  // Two sweeps (one rewrite, then the fixpoint), each asking only about the
  // two outer Negs: none of the three inside the removed If.
  std::vector<ir::NodeId> expected{outer[0], outer[1], outer[0], outer[1]};
  EXPECT_EQ(negsSeen, expected);
}

TEST(Driver, FilterKeepsExcludedNodes) {
  ir::Model m =
      parse("main (float[2] x) => (float[2] y) { a = Neg(x)\n b = Neg(a)\n y = Relu(b) }");
  EditLog log;
  Rewriter rw(m, log);
  RulePattern p = doubleNeg();
  NodeFilter filter;
  filter.excluded.insert(m.graph().findValue("a")->producer()->id());
  ExplainLog explain;
  DriverOptions o;
  o.filter = &filter;
  o.explain = &explain;
  MatchContext ctx;
  ctx.model = &m;
  DriverResult r = applyPatternsGreedily(rw, {&p}, ctx, o);
  EXPECT_EQ(r.rewrites, 0u);
  EXPECT_EQ(m.graph().nodeCount(), 3u);
  ir::Node* b = m.graph().findValue("b")->producer();
  EXPECT_NE(explain.reasons(b->id())->at("double_neg").str().find("excluded"), std::string::npos);
}

// The log keeps the last reason per (node, pattern), forgets one on clear(),
// answers in node order, and survives copies and moves (the timeline moves
// steps, the GUI copies them) with reads from several threads.
TEST(ExplainLog, LastReasonPerNodeAndPatternInNodeOrder) {
  ExplainLog log;
  EXPECT_EQ(log.size(), 0u);
  log.note(7, "b_pattern", "first");
  log.note(3, "a_pattern", "input is not constant");
  log.note(7, "a_pattern", "wrong op");
  std::string pattern = "b_pattern";  // a name the caller stores elsewhere
  log.note(7, pattern, "second");
  EXPECT_EQ(log.size(), 3u);  // read, then written again: the view follows
  log.clear(3, "a_pattern");
  log.clear(9, "a_pattern");  // nothing to clear
  log.note(5, "c_pattern", "kept");
  auto all = log.all();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].first, 5u);
  EXPECT_EQ(all[1].first, 7u);
  EXPECT_EQ(all[1].second->at("b_pattern"), "second");
  EXPECT_EQ(all[1].second->at("a_pattern"), "wrong op");
  EXPECT_EQ(log.reasons(3), nullptr);
  EXPECT_EQ(log.size(), 3u);

  ExplainLog copy = log;
  copy.note(5, "c_pattern", "changed in the copy");
  copy.note(11, "new_pattern", "only in the copy");
  EXPECT_EQ(log.reasons(5)->at("c_pattern"), "kept");
  EXPECT_EQ(log.reasons(11), nullptr);
  EXPECT_EQ(copy.reasons(5)->at("c_pattern"), "changed in the copy");

  ExplainLog moved = std::move(copy);
  moved.note(11, "b_pattern", "after the move");  // pattern names still resolve
  EXPECT_EQ(moved.reasons(11)->size(), 2u);
  EXPECT_EQ(moved.reasons(11)->at("new_pattern"), "only in the copy");
  EXPECT_EQ(moved.size(), 5u);

  // Readers on several threads fold the notes once, under the lock.
  ExplainLog shared;
  for (ir::NodeId id = 1; id <= 2000; ++id) shared.note(id, "p", "reason " + std::to_string(id));
  std::vector<size_t> sizes(4);
  std::vector<std::thread> readers;
  for (size_t t = 0; t < sizes.size(); ++t)
    readers.emplace_back([&, t] { sizes[t] = shared.all().size(); });
  for (auto& r : readers) r.join();
  for (size_t s : sizes) EXPECT_EQ(s, 2000u);
}

TEST(MatchUtils, ConstantsAndBroadcasting) {
  ir::Model m = parse(
      R"(main (float[N,3] x) => (float[N,3] y) <float[3] one = {1, 1, 1}, float[2,3] big = {1,1,1,1,1,1}> {
    c = Constant <value = float[1] {1}> ()
    a = Mul(x, one)
    b = Mul(a, c)
    y = Add(b, big)
  })");
  const ir::Graph& g = m.graph();
  EXPECT_TRUE(isConstantFilledWith(g.findValue("one"), 1.0));
  EXPECT_TRUE(isConstantFilledWith(g.findValue("c"), 1.0));
  EXPECT_FALSE(isConstantFilledWith(g.findValue("one"), 0.0));
  EXPECT_FALSE(isConstant(g.findValue("x")));
  EXPECT_TRUE(broadcastKeepsShape(g.findValue("x"), g.findValue("one")));
  EXPECT_FALSE(broadcastKeepsShape(g.findValue("x"), g.findValue("big")));
}

}  // namespace
}  // namespace passlab::rewrite
