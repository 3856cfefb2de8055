// The fixture of the per-layer search tests (sensitivity, shared
// calibration, low-rank and sparsity searches): a model parsed from text with
// its shapes inferred, and a checker of its outputs on two input sets without
// noise draws (so a budget compares against the exact outputs).
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "core/analysis/shape_inference.h"
#include "core/io/text_format.h"
#include "core/pipeline/accuracy.h"
#include "core/pipeline/numeric_check.h"

namespace passlab::pipeline {

class CheckedModelTest : public ::testing::Test {
 protected:
  // Call from SetUp, under ASSERT_NO_FATAL_FAILURE.
  void load(const std::string& text) {
    auto parsed = io::parseModelText(text);
    ASSERT_TRUE(parsed) << parsed.error().message();
    model_ = std::move(*parsed);
    analysis::inferShapes(model_);
    NoiseOptions quiet;
    quiet.draws = 0;
    auto checker = ExecOutputChecker::create(model_, 2, {}, quiet);
    ASSERT_TRUE(checker) << checker.error().message();
    checker_ = std::move(*checker);
  }
  // A budget on the SNR alone (any cosine).
  static AccuracyBudget snr(double db) {
    AccuracyBudget b;
    b.minSnrDb = db;
    b.minCosine = -1;
    return b;
  }

  ir::Model model_;
  std::unique_ptr<ExecOutputChecker> checker_;
};

}  // namespace passlab::pipeline
