// Sequence operators (construct, insert, erase, at, length, split, concat,
// map over a subgraph) and optionals (wrap, test, unwrap).
#include <gtest/gtest.h>

#include "tests/core/exec/kernel_test_util.h"

namespace passlab::exec {
namespace {

using kt::f32;
using kt::i64;

TEST(Sequence, ConstructInsertEraseAtLength) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 17]>
    main (float[2] a, float[2] b, float[2] c, int64 p) => (float[2] last, int64 n, float[2] at1) {
      s = SequenceConstruct(a, b)
      t = SequenceInsert(s, c, p)
      last = SequenceAt(t, p)
      u = SequenceErase(t)
      n = SequenceLength(u)
      one = Constant <value = int64 {1}> ()
      at1 = SequenceAt(u, one)
    })";
  auto r = testutil::runText(text, {{"a", f32({2}, {1, 2})},
                                    {"b", f32({2}, {3, 4})},
                                    {"c", f32({2}, {5, 6})},
                                    {"p", i64({}, {-1})}});
  // Inserting at -1 puts c before the last element: [a, c, b]; the last is b.
  kt::expectNear(r.outputs[0], {3, 4});
  EXPECT_EQ(kt::values<int64_t>(r.outputs[1]), (std::vector<int64_t>{2}));
  kt::expectNear(r.outputs[2], {5, 6});
}

TEST(Sequence, PositionOutOfRangeIsAnError) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 17]>
    main (float[2] a, int64 p) => (float[2] y) {
      s = SequenceConstruct(a, a, a)
      y = SequenceAt(s, p)
    })";
  kt::expectError(text, {{"a", f32({2}, {1, 2})}, {"p", i64({}, {3})}},
                  {"position 3 is out of range [-3, 3)", "SequenceAt"});
  const char* erase = R"(<ir_version: 8, opset_import: ["" : 17]>
    main (float[2] a) => (int64 n) {
      s = SequenceEmpty <dtype = 1> ()
      t = SequenceErase(s)
      n = SequenceLength(t)
    })";
  kt::expectError(erase, {{"a", f32({2}, {1, 2})}}, {"position -1 is out of range [0, 0)"});
}

TEST(Sequence, SplitThenConcatRoundTrips) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 17]>
    main (float[2,3] x, int64[2] split) => (int64 n, float[2,3] back, float[3,2] stacked, int64 m) {
      s = SplitToSequence <axis = 1> (x, split)
      n = SequenceLength(s)
      back = ConcatFromSequence <axis = 1> (s)
      rows = SplitToSequence <axis = 0, keepdims = 0> (x)
      m = SequenceLength(rows)
      stacked = ConcatFromSequence <axis = 1, new_axis = 1> (rows)
    })";
  auto r = testutil::runText(text,
                             {{"x", f32({2, 3}, {1, 2, 3, 4, 5, 6})}, {"split", i64({2}, {1, 2})}});
  EXPECT_EQ(kt::values<int64_t>(r.outputs[0]), (std::vector<int64_t>{2}));
  kt::expectNear(r.outputs[1], {1, 2, 3, 4, 5, 6});
  // Rows [1,2,3] and [4,5,6] stacked on a new axis 1: [[1,4],[2,5],[3,6]].
  kt::expectNear(r.outputs[2], {1, 4, 2, 5, 3, 6});
  EXPECT_EQ(kt::values<int64_t>(r.outputs[3]), (std::vector<int64_t>{2}));
  kt::expectError(text, {{"x", f32({2, 3}, {1, 2, 3, 4, 5, 6})}, {"split", i64({2}, {1, 1})}},
                  {"split [1,1] sums to 2"});
}

TEST(Sequence, MapRunsTheBodyPerElement) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 17]>
    main (float[2] a, float[2] b, float[2] k) => (float[2] first, float[2] second) {
      s = SequenceConstruct(a, b)
      t = SequenceMap <body = g (float[2] e, float[2] kk) => (float[2] o) { o = Add(e, kk) }> (s, k)
      zero = Constant <value = int64 {0}> ()
      one = Constant <value = int64 {1}> ()
      first = SequenceAt(t, zero)
      second = SequenceAt(t, one)
    })";
  auto r = testutil::runText(
      text, {{"a", f32({2}, {1, 2})}, {"b", f32({2}, {3, 4})}, {"k", f32({2}, {10, 20})}});
  kt::expectNear(r.outputs[0], {11, 22});
  kt::expectNear(r.outputs[1], {13, 24});
}

TEST(Sequence, SequenceOutputsComeBackAsValues) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 17]>
    main (float[2] a) => (seq(float) s) { s = SequenceConstruct(a, a) })";
  auto r = testutil::runText(text, {{"a", f32({2}, {1, 2})}});
  ASSERT_EQ(r.values.size(), 1u);
  ASSERT_TRUE(r.values[0].isSequence());
  EXPECT_EQ(r.values[0].sequence().items.size(), 2u);
}

// The text format has no TYPE_PROTO attributes: set Optional's `type` here.
ir::Model withEmptyOptional(const std::string& text) {
  ir::Model m = testutil::parseModel(text);
  m.graph().forEachNodeRecursive([](ir::Node* n) {
    if (n->opType() != "Optional" || n->inputCount() > 0) return;
    ir::Attribute a("type", ir::AttrType::kTypeProto);
    a.tp = ir::Type::tensor(ir::DataType::kFloat);
    n->attributes().push_back(std::move(a));
  });
  return m;
}

Expected<RunResult> runModel(const ir::Model& m, const NamedInputs& inputs) {
  auto ex = Executor::create(m, {});
  if (!ex) return ex.error();
  return (*ex)->run(inputs);
}

TEST(Optional, WrapTestAndUnwrap) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 18]>
    main (float[2] a) => (bool has, float[2] got, bool empty) {
      o = Optional(a)
      has = OptionalHasElement(o)
      got = OptionalGetElement(o)
      e = Optional()
      empty = OptionalHasElement(e)
    })";
  auto r = runModel(withEmptyOptional(text), {{"a", f32({2}, {1, 2})}});
  ASSERT_TRUE(r) << r.error().message();
  EXPECT_EQ(kt::bools(r->outputs[0]), (std::vector<bool>{true}));
  kt::expectNear(r->outputs[1], {1, 2});
  EXPECT_EQ(kt::bools(r->outputs[2]), (std::vector<bool>{false}));
  const char* bad = R"(<ir_version: 8, opset_import: ["" : 18]>
    main (float[2] a) => (float[2] got) {
      e = Optional()
      got = OptionalGetElement(e)
    })";
  auto e = runModel(withEmptyOptional(bad), {{"a", f32({2}, {1, 2})}});
  ASSERT_FALSE(e);
  EXPECT_TRUE(kt::contains(e.error().message(), "the optional input is empty"))
      << e.error().message();
  // Without a type and an input the node is rejected when the executor is made.
  auto untyped = Executor::create(testutil::parseModel(bad), {});
  ASSERT_FALSE(untyped);
  EXPECT_TRUE(kt::contains(untyped.error().message(), "needs the type attribute"));
}

}  // namespace
}  // namespace passlab::exec
