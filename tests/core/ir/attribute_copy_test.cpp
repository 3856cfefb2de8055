// Attributes copied by value (attribute_copy.h): every field but the
// subgraphs, the name, type, reference name and doc string kept; an
// attribute that holds a subgraph is not copied.
#include "core/ir/attribute_copy.h"

#include <gtest/gtest.h>

#include <memory>

#include "core/ir/graph.h"

namespace passlab::ir {
namespace {

TEST(AttributeCopy, EveryFieldButTheSubgraphs) {
  Attribute a = Attribute::makeInts("pads", {1, 2, 3, 4});
  a.setRefAttrName("outer_pads");
  a.setDocString("the pads");
  a.f = 0.5f;
  a.i = 7;
  a.s = "same";
  a.floats = {1.5f};
  a.strings = {"x", "y"};
  a.t = Tensor::fromInt64s({5, 6});
  a.tensors = {Tensor::fromInt64s({8})};
  std::optional<Attribute> c = copyAttribute(a);
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->name(), "pads");
  EXPECT_EQ(c->type(), AttrType::kInts);
  EXPECT_EQ(c->refAttrName(), "outer_pads");
  EXPECT_EQ(c->docString(), "the pads");
  EXPECT_EQ(c->ints, (std::vector<int64_t>{1, 2, 3, 4}));
  EXPECT_EQ(c->f, 0.5f);
  EXPECT_EQ(c->i, 7);
  EXPECT_EQ(c->s, "same");
  EXPECT_EQ(c->floats, std::vector<float>{1.5f});
  EXPECT_EQ(c->strings, (std::vector<std::string>{"x", "y"}));
  ASSERT_EQ(c->t.numel(), 2);
  EXPECT_EQ(c->t.valueAsInt64(1), 6);
  EXPECT_EQ(c->t.bytes().data(), a.t.bytes().data());  // the data shared
  ASSERT_EQ(c->tensors.size(), 1u);
  EXPECT_EQ(c->tensors[0].valueAsInt64(0), 8);
  EXPECT_EQ(c->valueToString(), a.valueToString());

  Attribute into("other", AttrType::kInt);
  copyAttributeData(a, into);
  EXPECT_EQ(into.name(), "other");
  EXPECT_EQ(into.type(), AttrType::kInt);
  EXPECT_EQ(into.ints, a.ints);
  EXPECT_EQ(into.docString(), "the pads");
}

TEST(AttributeCopy, AnAttributeHoldingASubgraphIsNotCopied) {
  Graph g;
  Attribute body = Attribute::makeGraph("body", std::make_unique<Graph>(g.context()));
  EXPECT_FALSE(copyAttribute(body).has_value());
  Attribute branches("branches", AttrType::kGraphs);
  branches.graphs.push_back(std::make_unique<Graph>(g.context()));
  EXPECT_FALSE(copyAttribute(branches).has_value());
  // An empty list of graphs holds none: copied.
  Attribute none("branches", AttrType::kGraphs);
  EXPECT_TRUE(copyAttribute(none).has_value());
}

}  // namespace
}  // namespace passlab::ir
