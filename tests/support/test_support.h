// Helpers shared by the test suites.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/ir/model.h"

namespace passlab::testing {

// The corpus folder: $PASSLAB_CORPUS_DIR, else the build's default
// (../shared/corpus). nullopt when it does not exist.
std::optional<std::string> corpusDir();
// Debian's libonnx-testdata folder ($PASSLAB_ONNX_TESTDATA_DIR or the default).
std::optional<std::string> onnxTestdataDir();
// Model files under corpus/models (sorted).
std::vector<std::string> corpusModels();
// A fresh temporary folder, removed at process exit (kept when
// $PASSLAB_KEEP_TEST_FILES is set, to look at what a test wrote).
std::string tempDir();

// Parses a text-format model; fails the current test on error.
ir::Model parse(const std::string& text);

// How many main-graph nodes of `m` are `op`, and the first of them (null: none).
int countOps(const ir::Model& m, const std::string& op);
const ir::Node* findOp(const ir::Model& m, const std::string& op);

}  // namespace passlab::testing

// Skips the current test when the corpus is absent.
#define PASSLAB_REQUIRE_CORPUS()                                                             \
  do {                                                                                       \
    if (!::passlab::testing::corpusDir())                                                    \
      GTEST_SKIP() << "corpus not found: set PASSLAB_CORPUS_DIR (default ../shared/corpus)"; \
  } while (0)
