// The pass catalogue is complete and consistent.
#include <gtest/gtest.h>

#include <set>

#include "core/passes/registry.h"

namespace passlab::passes {
namespace {

TEST(Registry, IdsUniqueAndMetadataComplete) {
  std::set<std::string> ids;
  ASSERT_FALSE(allPasses().empty());
  for (const Pass* p : allPasses()) {
    const PassInfo& i = p->info();
    EXPECT_TRUE(ids.insert(i.id).second) << "duplicate id " << i.id;
    EXPECT_FALSE(i.summaryEn.empty()) << i.id;
    EXPECT_FALSE(i.summaryZh.empty()) << i.id;
    EXPECT_FALSE(i.kind.empty()) << i.id;
    EXPECT_LE(i.minOpset, i.maxOpset) << i.id;
    EXPECT_EQ(findPass(i.id), p);
    // Verb-first snake_case ids.
    EXPECT_EQ(i.id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_"), std::string::npos)
        << i.id;
  }
}

TEST(Registry, LevelsNameKnownPasses) {
  for (const auto& level : levelNames()) {
    auto ids = passesForLevel(level);
    ASSERT_TRUE(ids) << level;
    for (const auto& id : *ids) EXPECT_NE(findPass(id), nullptr) << level << ": " << id;
  }
  EXPECT_FALSE(passesForLevel("turbo"));
}

}  // namespace
}  // namespace passlab::passes
