// Dims: numbers, named symbols (interned) and unknowns.
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "core/ir/shape.h"

namespace passlab::ir {
namespace {

TEST(Dim, SymbolsWithTheSameNameAreEqualWhereverTheNameCameFrom) {
  std::string built = "bat";
  built += "ch";
  Dim a = Dim::symbol("batch");
  Dim b = Dim::symbol(built);
  EXPECT_TRUE(a.isSymbolic());
  EXPECT_EQ(a.param(), "batch");
  EXPECT_EQ(a, b);
  EXPECT_TRUE(a.sameAs(b));
  EXPECT_EQ(&a.param(), &b.param());  // one interned copy
  EXPECT_NE(a, Dim::symbol("batch2"));
  EXPECT_FALSE(a.sameAs(Dim::symbol("seq")));
  EXPECT_EQ(a.toString(), "batch");
}

TEST(Dim, AnEmptyNameIsUnknownAndUnknownsAreNeverTheSame) {
  Dim u = Dim::symbol("");
  EXPECT_TRUE(u.isUnknown());
  EXPECT_EQ(u.param(), "");
  EXPECT_EQ(u, Dim());
  EXPECT_FALSE(u.sameAs(Dim()));
  EXPECT_EQ(u.toString(), "?");
  Dim three(3);
  EXPECT_TRUE(three.isStatic());
  EXPECT_TRUE(three.sameAs(Dim(3)));
  EXPECT_NE(three, Dim::symbol("3"));
  EXPECT_EQ(three.toString(), "3");
}

TEST(Dim, DenotationsTakePartInEquality) {
  Dim a = Dim::symbol("N");
  Dim b = Dim::symbol("N");
  a.setDenotation("DATA_BATCH");
  EXPECT_EQ(a.denotation(), "DATA_BATCH");
  EXPECT_EQ(b.denotation(), "");
  EXPECT_NE(a, b);
  EXPECT_TRUE(a.sameAs(b));  // the same symbol all the same
  b.setDenotation(std::string("DATA_") + "BATCH");
  EXPECT_EQ(a, b);
  b.setDenotation("");
  EXPECT_EQ(b, Dim::symbol("N"));
}

// A Dim holds pointers to interned names: a rank-4 shape in two cache lines.
TEST(Dim, StaysSmall) {
  EXPECT_LE(sizeof(Dim), 3 * sizeof(void*));
}

TEST(Dim, ThreadsInterningTheSameNamesGetTheSameCopies) {
  constexpr int kThreads = 4, kNames = 500;
  std::vector<std::vector<const std::string*>> seen(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < kNames; ++i)
        seen[t].push_back(&Dim::symbol("dim_" + std::to_string(i)).param());
    });
  for (auto& th : threads) th.join();
  for (int t = 1; t < kThreads; ++t) EXPECT_EQ(seen[t], seen[0]);
  EXPECT_EQ(*seen[0][42], "dim_42");
}

}  // namespace
}  // namespace passlab::ir
