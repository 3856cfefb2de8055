// String operators, TfIdfVectorizer and ai.onnx.ml LabelEncoder.
#include <gtest/gtest.h>

#include "tests/core/exec/kernel_test_util.h"

namespace passlab::exec {
namespace {

using kt::f32;
using kt::i64;
using kt::strs;

using Strings = std::vector<std::string>;

TEST(StringNormalizer, StopWordsAndCase) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 10]>
    main (string[4] x) => (string[2] y) {
      y = StringNormalizer <case_change_action = "UPPER", stopwords = ["monday"]> (x)
    })";
  auto r =
      testutil::runText(text, {{"x", strs({4}, {"monday", "tuesday", "MONDAY", "wednesday"})}});
  EXPECT_EQ(kt::strings(r.outputs[0]), (Strings{"TUESDAY", "WEDNESDAY"}));
  const char* sensitive = R"(<ir_version: 8, opset_import: ["" : 10]>
    main (string[1,3] x) => (string[1,2] y) {
      y = StringNormalizer <case_change_action = "LOWER", is_case_sensitive = 1, stopwords = ["Ab"]> (x)
    })";
  r = testutil::runText(sensitive, {{"x", strs({1, 3}, {"Ab", "AB", "Ça"})}});
  EXPECT_EQ(kt::strings(r.outputs[0]), (Strings{"ab", "ça"}));
  const char* all = R"(<ir_version: 8, opset_import: ["" : 10]>
    main (string[2] x) => (string[1] y) { y = StringNormalizer <stopwords = ["a", "b"]> (x) })";
  r = testutil::runText(all, {{"x", strs({2}, {"a", "b"})}});
  EXPECT_EQ(kt::strings(r.outputs[0]), (Strings{""}));
}

TEST(StringConcat, Broadcasts) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 20]>
    main (string[2,1] a, string[2] b) => (string[2,2] y) { y = StringConcat(a, b) })";
  auto r = testutil::runText(text, {{"a", strs({2, 1}, {"x", "y"})}, {"b", strs({2}, {"1", "2"})}});
  EXPECT_EQ(kt::strings(r.outputs[0]), (Strings{"x1", "x2", "y1", "y2"}));
}

TEST(StringSplit, DelimiterWhitespaceAndMaxsplit) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 20]>
    main (string[3] x) => (string[3,3] y, int64[3] n) { y, n = StringSplit <delimiter = ","> (x) })";
  auto r = testutil::runText(text, {{"x", strs({3}, {"a,b,c", "d,,", ""})}});
  EXPECT_EQ(kt::strings(r.outputs[0]), (Strings{"a", "b", "c", "d", "", "", "", "", ""}));
  EXPECT_EQ(kt::values<int64_t>(r.outputs[1]), (std::vector<int64_t>{3, 3, 1}));
  const char* ws = R"(<ir_version: 8, opset_import: ["" : 20]>
    main (string[2] x) => (string[2,2] y, int64[2] n) { y, n = StringSplit <maxsplit = 1> (x) })";
  r = testutil::runText(ws, {{"x", strs({2}, {"  one  two three ", ""})}});
  EXPECT_EQ(kt::strings(r.outputs[0]), (Strings{"one", "two three ", "", ""}));
  EXPECT_EQ(kt::values<int64_t>(r.outputs[1]), (std::vector<int64_t>{2, 0}));
}

TEST(RegexFullMatch, MatchesWholeStrings) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 20]>
    main (string[3] x) => (bool[3] y) { y = RegexFullMatch <pattern = "www\\.[\\w.-]+\\.\\bcom\\b"> (x) })";
  auto r = testutil::runText(
      text, {{"x", strs({3}, {"www.google.com", "www.facebook.com", "www.bbc.co.uk"})}});
  EXPECT_EQ(kt::bools(r.outputs[0]), (std::vector<bool>{true, true, false}));
  const char* bad = R"(<ir_version: 8, opset_import: ["" : 20]>
    main (string[1] x) => (bool[1] y) { y = RegexFullMatch <pattern = "(unclosed"> (x) })";
  kt::expectError(bad, {{"x", strs({1}, {"a"})}},
                  {"'(unclosed' is not a valid regular expression"});
}

TEST(TfIdfVectorizer, BigramsUnigramsAndWeights) {
  std::string attrs =
      R"(ngram_counts = [0, 4], ngram_indexes = [0, 1, 2, 3, 4, 5, 6],
         pool_int64s = [2, 3, 5, 4, 5, 6, 7, 8, 6, 7])";
  auto run = [&](const std::string& extra, const std::string& shape, const ir::Tensor& x) {
    std::string text = R"(<ir_version: 8, opset_import: ["" : 9]>
      main (int32)" + shape +
                       R"( x) => (float y) { y = TfIdfVectorizer <)" + attrs + ", " + extra +
                       R"(> (x) })";
    return testutil::runText(text, {{"x", x}}).outputs[0];
  };
  ir::Tensor batch = kt::i32({2, 6}, {1, 1, 3, 3, 3, 7, 8, 6, 7, 5, 6, 8});
  kt::expectNear(run(R"(mode = "TF", min_gram_length = 2, max_gram_length = 2, max_skip_count = 0)",
                     "[2,6]", batch),
                 {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1});
  kt::expectNear(run(R"(mode = "TF", min_gram_length = 1, max_gram_length = 2, max_skip_count = 5)",
                     "[12]", kt::i32({12}, {1, 1, 3, 3, 3, 7, 8, 6, 7, 5, 6, 8})),
                 {0, 3, 1, 0, 1, 3, 1});
  kt::expectNear(
      run(R"(mode = "TFIDF", min_gram_length = 1, max_gram_length = 2, max_skip_count = 5,
                        weights = [0.5, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0])",
          "[2,6]", batch),
      {0, 3, 0, 0, 0, 0, 0, 0, 0, 2, 0, 4, 5, 6});
}

TEST(LabelEncoder, StringsToIntsFloatsAndDefaults) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 17, "ai.onnx.ml" : 2]>
    main (string[4] x) => (int64[4] y) {
      y = ai.onnx.ml.LabelEncoder <keys_strings = ["a", "b", "c"], values_int64s = [7, 8, 9],
                                   default_int64 = -5> (x)
    })";
  auto r = testutil::runText(text, {{"x", strs({4}, {"c", "a", "zz", "b"})}});
  EXPECT_EQ(kt::values<int64_t>(r.outputs[0]), (std::vector<int64_t>{9, 7, -5, 8}));
  const char* floats = R"(<ir_version: 8, opset_import: ["" : 17, "ai.onnx.ml" : 2]>
    main (float[3] x) => (string[3] y) {
      y = ai.onnx.ml.LabelEncoder <keys_floats = [0.5, -1.0], values_strings = ["half", "minus"],
                                   default_string = "?"> (x)
    })";
  r = testutil::runText(floats, {{"x", f32({3}, {-1, 0.5f, 2})}});
  EXPECT_EQ(kt::strings(r.outputs[0]), (Strings{"minus", "half", "?"}));
  const char* v1 = R"(<ir_version: 8, opset_import: ["" : 17, "ai.onnx.ml" : 1]>
    main (int64[3] x) => (string[3] y) {
      y = ai.onnx.ml.LabelEncoder <classes_strings = ["x", "y"], default_string = "none"> (x)
    })";
  r = testutil::runText(v1, {{"x", i64({3}, {1, 0, 4})}});
  EXPECT_EQ(kt::strings(r.outputs[0]), (Strings{"y", "x", "none"}));
  const char* bad = R"(<ir_version: 8, opset_import: ["" : 17, "ai.onnx.ml" : 2]>
    main (string[1] x) => (int64[1] y) {
      y = ai.onnx.ml.LabelEncoder <keys_strings = ["a", "b"], values_int64s = [1]> (x)
    })";
  kt::expectError(bad, {{"x", strs({1}, {"a"})}},
                  {"keys and values have different lengths (2 and 1)"});
}

}  // namespace
}  // namespace passlab::exec
