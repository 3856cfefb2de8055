// Each pass's documentation is its source header, compiled in: every
// registered pass has one that names it on its first line, and the lookup
// reads the names a header lists ("a, b — ..." or "a: ...").
#include "core/passes/pass_docs.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "core/passes/registry.h"

namespace passlab::passes {
namespace {

TEST(PassDocs, EveryPassIsDocumentedByItsSourceHeader) {
  for (const Pass* p : allPasses()) {
    const std::string& id = p->info().id;
    const std::string doc = passDocumentation(id);
    ASSERT_FALSE(doc.empty()) << id << " has no header comment naming it";
    EXPECT_NE(doc.substr(0, doc.find('\n')).find(id), std::string::npos) << doc;
    EXPECT_GE(std::count(doc.begin(), doc.end(), '\n'), 3) << id << ": a one-line header";
  }
  EXPECT_NE(passDocumentation("fuse_conv_batchnorm").find("Before:"), std::string::npos);
  EXPECT_EQ(passDocumentation("no_such_pass"), "");
  EXPECT_EQ(passDocumentation(""), "");
}

TEST(PassDocs, AHeaderDocumentsThePassesItsFirstLineNames) {
  const std::string docs =
      "@@ a.cpp\n"
      "alpha, beta \u2014 two passes\n"
      "Before: x\n"
      "@@ c.cpp\n"
      "gamma: one pass\n"
      "After: y\n"
      "@@ helpers.cpp\n"
      "Helpers shared by alpha and gamma.\n";
  EXPECT_EQ(passDocumentationIn(docs, "alpha"), "alpha, beta \u2014 two passes\nBefore: x");
  EXPECT_EQ(passDocumentationIn(docs, "beta"), passDocumentationIn(docs, "alpha"));
  EXPECT_EQ(passDocumentationIn(docs, "gamma"), "gamma: one pass\nAfter: y");
  EXPECT_EQ(passDocumentationIn(docs, "alph"), "");
  EXPECT_EQ(passDocumentationIn(docs, "Helpers shared by alpha and gamma."), "");
  EXPECT_EQ(passDocumentationIn("", "alpha"), "");
}

}  // namespace
}  // namespace passlab::passes
