// Nodes, values and types keep what few of them have out of line (extras,
// the rare part of a type): the records every pass walks stay within their
// cache-line budgets, and the out-of-line parts behave as plain fields did.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/io/text_format.h"
#include "core/ir/graph.h"
#include "core/ir/model.h"
#include "core/ir/undo_log.h"
#include "core/ir/verifier.h"

namespace passlab::ir {
namespace {

Type f32(std::vector<int64_t> dims) {
  return Type::tensor(DataType::kFloat, Shape::fromValues(dims));
}

// Budgets in 64-byte lines (libstdc++ layout; a walk over a graph larger
// than the cache pays for every line it touches). Allocators round a record
// up to a size class: 192 is one, and a multiple of 64, so every record
// starts on a line.
TEST(CompactRecords, WalkedRecordsStayWithinTheirBudgets) {
  EXPECT_LE(sizeof(Node), 192u);
  EXPECT_LE(sizeof(Value), 192u);
  EXPECT_LE(sizeof(Type), 64u - sizeof(void*));  // shares a line with the value's list link
}

TEST(CompactRecords, GraphOutputCountFollowsEveryEdit) {
  Graph g;
  Value* x = g.addInput("x", f32({2}));
  Node* a = g.addNode("Relu", "", {x}, {"a"});
  Node* b = g.addNode("Neg", "", {x}, {"b"});
  Value* av = a->output(0);
  Value* bv = b->output(0);
  EXPECT_FALSE(av->isGraphOutput());
  EXPECT_TRUE(av->outputOf().empty());
  g.addOutput(av);
  g.addOutput(av);  // listed twice: two entries, one per position
  EXPECT_TRUE(av->isGraphOutput());
  EXPECT_EQ(av->outputOf().size(), 2u);
  g.setOutput(0, bv);
  EXPECT_TRUE(av->isGraphOutput());
  EXPECT_EQ(av->outputOf().size(), 1u);
  EXPECT_TRUE(bv->isGraphOutput());
  g.replaceAllUsesWith(av, bv);  // position 1 now lists b as well
  EXPECT_FALSE(av->isGraphOutput());
  EXPECT_TRUE(av->outputOf().empty());
  EXPECT_EQ(bv->outputOf().size(), 2u);
  g.removeOutput(1);
  g.removeOutput(0);
  EXPECT_FALSE(bv->isGraphOutput());
  // Unlisted, unused: the node can go.
  EXPECT_NO_THROW(g.removeNode(b));
}

TEST(CompactRecords, SubgraphOutputsOfOuterValuesAreRestoredByUndo) {
  // Both branches output the outer value x itself.
  auto parsed = io::parseModelText(R"(
    main (bool c, float[2] x) => (float[2] y) {
      y = Relu(x)
      z = If <then_branch = g1 () => (float[2] x) { },
              else_branch = g2 () => (float[2] x) { }> (c)
    }
  )");
  ASSERT_TRUE(parsed) << parsed.error().message();
  Model& m = *parsed;
  Graph& g = m.graph();
  Value* x = g.inputs()[1];
  ASSERT_EQ(x->outputOf().size(), 2u);
  Node* iff = std::next(g.nodes().begin())->get();
  ASSERT_EQ(iff->opType(), "If");
  // The branches break ONNX Runtime's rule (an outer value returned
  // directly): the verifier says so, and says the same after the undo.
  auto messages = [&m] {
    std::vector<std::string> out;
    for (const auto& p : verifyModel(m)) out.push_back(p.message);
    return out;
  };
  const std::vector<std::string> before = messages();
  EXPECT_EQ(before.size(), 2u);
  {
    UndoLog undo;
    g.removeNode(iff, &undo);
    EXPECT_FALSE(x->isGraphOutput());  // the removed branches no longer list it
    EXPECT_TRUE(x->outputOf().empty());
    undo.undo();
  }
  EXPECT_TRUE(x->isGraphOutput());
  EXPECT_EQ(x->outputOf().size(), 2u);
  EXPECT_EQ(messages(), before);
}

TEST(CompactRecords, NodeAndValueExtrasReadAsEmptyUntilSetAndAreCloned) {
  Graph g;
  Value* x = g.addInput("x", f32({2}));
  Node* a = g.addNode("Relu", "", {x}, {"a"});
  EXPECT_EQ(a->docString(), "");
  EXPECT_EQ(a->overload(), "");
  EXPECT_EQ(a->unknownFields(), "");
  EXPECT_TRUE(a->metadata().empty());
  EXPECT_EQ(x->docString(), "");
  EXPECT_FALSE(x->isSparseInitializer());
  EXPECT_EQ(x->sparseInitializer(), nullptr);

  a->setDocString("doc");
  a->setOverload("o1");
  a->setUnknownFields(std::string("\x08\x01", 2));
  a->metadata().push_back({"k", "v"});
  x->setDocString("input doc");
  x->metadata().push_back({"kx", "vx"});
  SparseTensor s;
  s.dims = {4};
  s.values = Tensor::fromVector<float>(DataType::kFloat, {1}, {2.0f});
  s.indices = Tensor::fromVector<int64_t>(DataType::kInt64, {1}, {3});
  Value* sp = g.addSparseInitializer("sp", std::move(s));
  g.addOutput(a->output(0));

  auto copy = g.clone();
  const Node* ca = copy->nodes().front().get();
  EXPECT_EQ(ca->docString(), "doc");
  EXPECT_EQ(ca->overload(), "o1");
  EXPECT_EQ(ca->unknownFields(), std::string("\x08\x01", 2));
  ASSERT_EQ(ca->metadata().size(), 1u);
  EXPECT_EQ(ca->metadata()[0].second, "v");
  const Value* cx = copy->findValue("x");
  EXPECT_EQ(cx->docString(), "input doc");
  ASSERT_EQ(cx->metadata().size(), 1u);
  const Value* csp = copy->findValue("sp");
  ASSERT_TRUE(csp->isSparseInitializer());
  EXPECT_NE(csp->sparseInitializer(), sp->sparseInitializer());  // a copy, not shared
  EXPECT_EQ(csp->sparseInitializer()->dims, std::vector<int64_t>{4});
  // The clone's outputs are its own: the original's output is not listed twice.
  EXPECT_EQ(a->output(0)->outputOf().size(), 1u);
  EXPECT_EQ(copy->findValue("a")->outputOf().size(), 1u);
  EXPECT_EQ(copy->findValue("a")->outputOf()[0], copy.get());

  // Changing the copy leaves the original alone.
  copy->nodes().front()->setDocString("changed");
  EXPECT_EQ(a->docString(), "doc");
}

TEST(CompactRecords, TypeRarePartsCompareAndCopyAsValues) {
  Type seq = Type::sequence(f32({2}));
  ASSERT_NE(seq.inner(), nullptr);
  EXPECT_EQ(*seq.inner(), f32({2}));
  EXPECT_EQ(seq, Type::sequence(f32({2})));
  EXPECT_NE(seq, Type::sequence(f32({3})));
  EXPECT_NE(seq, Type::optional(f32({2})));
  EXPECT_EQ(seq.toString(), "seq(float[2])");

  Type op = Type::opaque("dom", "name");
  EXPECT_EQ(op.opaqueDomain(), "dom");
  EXPECT_EQ(op.opaqueName(), "name");
  EXPECT_NE(op, Type::opaque("dom", "other"));
  EXPECT_EQ(op, Type::opaque("dom", "name"));

  Type t = f32({1});
  EXPECT_EQ(t.inner(), nullptr);
  EXPECT_EQ(t.denotation(), "");
  Type denoted = t;
  denoted.setDenotation("IMAGE");
  EXPECT_EQ(t.denotation(), "");  // the copy's change stays in the copy
  EXPECT_EQ(denoted.denotation(), "IMAGE");
  EXPECT_NE(t, denoted);
  Type shared = denoted;
  shared.setDenotation("TEXT");
  EXPECT_EQ(denoted.denotation(), "IMAGE");
  denoted.setDenotation("");
  EXPECT_EQ(t, denoted);  // a cleared denotation equals none
  EXPECT_EQ(denoted, t);

  Type seqDenoted = seq;
  seqDenoted.setDenotation("SEQ");
  EXPECT_EQ(*seqDenoted.inner(), f32({2}));  // the setter keeps the inner type
  EXPECT_NE(seqDenoted, seq);
}

}  // namespace
}  // namespace passlab::ir
