// Helpers shared by the tests of the fusion, substitution and hoisting passes.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "tests/support/pass_harness.h"

namespace passlab::testing {

// The PassManager skips `passId` on `text` because the model's opset lies
// outside the pass's range (the step's note says so, no node is explained).
inline void expectSkippedForOpset(const std::string& passId, const std::string& text) {
  PassOutcome out = runPass(passId, text);
  EXPECT_FALSE(out.step.changed);
  EXPECT_TRUE(out.step.skipped) << passId << " was not skipped";
  EXPECT_NE(out.step.note.str().find("written for opsets"), std::string::npos) << out.step.note;
}

}  // namespace passlab::testing
