// passlab::Text (core/support/text.h): a message as a template and its
// arguments renders the English it stands for; empty() agrees with the
// rendered text without rendering it; Status holds no Error when it succeeds.
#include <gtest/gtest.h>

#include "core/support/error.h"
#include "core/support/text.h"

namespace passlab {
namespace {

TEST(Text, RendersTheTemplateWithItsArguments) {
  const Text t = Text::of("'%1' has %2 consumers", "conv_out", std::string("2"));
  EXPECT_EQ(t.str(), "'conv_out' has 2 consumers");
  EXPECT_EQ(t.templ(), "'%1' has %2 consumers");
  ASSERT_EQ(t.args().size(), 2u);
  EXPECT_EQ(t.args()[0].str(), "conv_out");
}

TEST(Text, ALiteralTemplateAndAnOwnedOneAreTheSame) {
  // A literal is kept by pointer; a template built at run time is owned, and
  // a copy of it outlives the string it was made from.
  std::string built = std::string("'%1' has ") + "%2 consumers";
  Text owned = Text::of(built, "x", "2");
  built.assign(40, '?');
  const Text literal = Text::of("'%1' has %2 consumers", "x", "2");
  const Text copy = owned;
  owned = Text();
  EXPECT_EQ(copy.templ(), literal.templ());
  EXPECT_EQ(copy.str(), literal.str());
  EXPECT_EQ(copy.str(), "'x' has 2 consumers");
  EXPECT_TRUE(owned.empty());
  EXPECT_FALSE(literal.empty());
}

TEST(Text, NestedMessagesRenderInPlace) {
  const Text inner = Text::of("'%1' has %2 consumers", "p", "3");
  const Text outer = Text::of("AveragePool output %1", inner);
  EXPECT_EQ(outer.str(), "AveragePool output 'p' has 3 consumers");
  EXPECT_EQ(outer.args()[0].templ(), "'%1' has %2 consumers");
}

TEST(Text, PlaceholdersAreFilledInOneScan) {
  // An argument holding "%1" stays as it is; placeholders out of range and
  // percent signs that are not placeholders are kept as written.
  EXPECT_EQ(Text::of("'%1' and %2", "%1x", "%2").str(), "'%1x' and %2");
  EXPECT_EQ(Text::of("%1 and %3", "a").str(), "a and %3");
  EXPECT_EQ(Text::of("100% of %1", "it").str(), "100% of it");
  EXPECT_EQ(Text::of("%10, %1", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j").str(), "j, a");
  // Without arguments a text is literal: "%1" in a name is not a placeholder.
  EXPECT_EQ(Text("layer %1").str(), "layer %1");
}

TEST(Text, JoinSeparatesItsParts) {
  EXPECT_EQ(Text::join({Text("a"), Text::of("b %1", "c"), Text("d")}, "; ").str(), "a; b c; d");
  EXPECT_EQ(Text::join({}, "; ").str(), "");
  EXPECT_TRUE(Text::join({}, "; ").empty());
}

TEST(Text, EmptyAgreesWithTheRenderedText) {
  const std::vector<Text> cases = {
      Text(),
      Text(""),
      Text("x"),
      Text::of("%1", ""),
      Text::of("%1", "a"),
      Text::of("%1%2", "", ""),
      Text::of("%1%2", "", "b"),
      Text::of("%1", Text::of("%1", "")),
      Text::of("%2", "a"),  // kept as written
      Text::of("a %1", ""),
      Text::join({Text(""), Text("")}, ""),
      Text::join({Text(""), Text("")}, "; "),
  };
  for (const Text& t : cases) EXPECT_EQ(t.empty(), t.str().empty()) << "'" << t.templ() << "'";
}

TEST(Status, ASuccessHasNoMessageAndAnErrorKeepsItsText) {
  Status ok;
  EXPECT_TRUE(ok.isOk());
  EXPECT_EQ(ok.message(), "");
  EXPECT_TRUE(ok.text().empty());
  Status bad = invalidArgument(Text::of("input '%1' is missing", "x"));
  EXPECT_FALSE(bad.isOk());
  EXPECT_EQ(bad.message(), "input 'x' is missing");
  EXPECT_EQ(bad.text().templ(), "input '%1' is missing");
  const Error wrapped = bad.error().withContext("reading the model");
  EXPECT_EQ(wrapped.message(), "reading the model: input 'x' is missing");
  EXPECT_EQ(wrapped.text().args()[1].templ(), "input '%1' is missing");
}

}  // namespace
}  // namespace passlab
