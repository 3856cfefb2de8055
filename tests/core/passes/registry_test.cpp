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

// Every default is a value of its option's kind, spelled as the pass reads
// it; options a pass reads as true/false are declared kBool (so "yes" and
// "1" mean the same to every pass).
TEST(Registry, OptionDefaultsAreValuesOfTheirKind) {
  size_t options = 0;
  for (const Pass* p : allPasses())
    for (const PassOption& o : p->info().options) {
      ++options;
      auto normal = normalizeOptionValue(o, o.defaultValue);
      ASSERT_TRUE(normal) << p->info().id << "." << o.name << ": " << normal.error().message();
      EXPECT_EQ(*normal, o.defaultValue) << p->info().id << "." << o.name;
      if (o.defaultValue == "true" || o.defaultValue == "false")
        EXPECT_EQ(o.kind, OptionKind::kBool) << p->info().id << "." << o.name;
      EXPECT_FALSE(o.help.empty()) << p->info().id << "." << o.name;
    }
  EXPECT_GE(options, 11u);
}

// The accepted value as the pass reads it, or the error.
std::string normalized(const PassOption& o, const std::string& v) {
  auto r = normalizeOptionValue(o, v);
  return r ? r.value() : "error: " + r.error().message();
}

TEST(OptionValues, NormalizedByKind) {
  PassOption flag{"flag", "false", "h", OptionKind::kBool};
  for (const char* yes : {"true", "TRUE", "1", "yes", "On"})
    EXPECT_EQ(normalized(flag, yes), "true") << yes;
  for (const char* no : {"false", "0", "No", "off"}) EXPECT_EQ(normalized(flag, no), "false") << no;
  for (const char* bad : {"", "maybe", "2", "truee"}) {
    auto r = normalizeOptionValue(flag, bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_NE(r.error().message().find("option 'flag' takes true or false, not '" +
                                       std::string(bad) + "'"),
              std::string::npos)
        << r.error().message();
  }

  PassOption count{"count", "3", "h", OptionKind::kCount};
  EXPECT_EQ(normalized(count, "0"), "0");
  EXPECT_EQ(normalized(count, "0042"), "42");
  for (const char* bad : {"", "-1", "1.5", "3x", " 3", "99999999999999999999", "inf"})
    EXPECT_FALSE(normalizeOptionValue(count, bad)) << bad;

  PassOption number{"number", "1", "h", OptionKind::kNumber};
  EXPECT_EQ(normalized(number, "1.5"), "1.5");
  EXPECT_EQ(normalized(number, "0"), "0");
  EXPECT_EQ(normalized(number, "INF"), "inf");
  EXPECT_EQ(normalized(number, "infinity"), "inf");
  EXPECT_EQ(normalized(number, "1.50"), "1.5");  // one spelling
  EXPECT_EQ(normalized(number, "2e3"), "2000");
  EXPECT_EQ(normalized(number, "100000"), "100000");
  EXPECT_EQ(normalized(number, "-0"), "0");
  EXPECT_EQ(normalized(number, "0.000001"), "1e-06");
  for (const char* bad : {"", "-2", "nan", "1e999", "2x", "lots", " 2", "0x10"})
    EXPECT_FALSE(normalizeOptionValue(number, bad)) << bad;

  // A minimum below which the pass would not do what was asked.
  PassOption atLeastTwo{"min", "3", "h", OptionKind::kCount, 2};
  EXPECT_EQ(normalized(atLeastTwo, "2"), "2");
  EXPECT_EQ(normalized(atLeastTwo, "1"), "error: option 'min' takes a whole number >= 2, not '1'");
  PassOption half{"half", "1", "h", OptionKind::kNumber, 0.5};
  EXPECT_EQ(normalized(half, "0.25"),
            "error: option 'half' takes a number >= 0.5 or inf, not '0.25'");

  PassOption text{"text", "", "h"};
  EXPECT_EQ(text.kind, OptionKind::kText);
  EXPECT_EQ(normalized(text, "a, b"), "a, b");
}

}  // namespace
}  // namespace passlab::passes
