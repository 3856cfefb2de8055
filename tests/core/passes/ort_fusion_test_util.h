// Helpers shared by the tests of the passes that emit ONNX Runtime's contrib
// ops (fuse_ort_*).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "core/analysis/shape_inference.h"
#include "core/io/text_format.h"
#include "core/pipeline/pass_manager.h"
#include "tests/support/pass_harness.h"

namespace passlab::testing {

// The PassManager skips `passId` on `text` when only standard ONNX may be
// emitted (the step's note says so).
inline void expectSkippedWhenStandardOnly(const std::string& passId, const std::string& text) {
  auto parsed = io::parseModelText(text);
  ASSERT_TRUE(parsed) << parsed.error().message();
  ir::Model model = std::move(parsed.value());
  analysis::inferShapes(model);
  pipeline::PipelineOptions po;
  po.keepSnapshots = false;
  po.standardOnly = true;
  pipeline::PassManager pm(model, po);
  auto step = pm.run({passId, {}, {}});
  ASSERT_TRUE(step) << step.error().message();
  EXPECT_TRUE((*step)->skipped) << passId << " ran in standard-only mode";
  EXPECT_FALSE((*step)->changed);
  EXPECT_NE((*step)->note.str().find("non-standard"), std::string::npos) << (*step)->note;
}

// `n` deterministic values in [-scale, scale] as the text format writes a
// tensor's data: "{0.1, -0.2, ...}".
inline std::string someValues(int n, int seed, double scale = 0.5) {
  std::string s = "{";
  for (int i = 0; i < n; ++i) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%s%.4f", i ? ", " : "",
                  scale * std::sin(1.7 * (i + 1) + 0.37 * seed));
    s += buf;
  }
  return s + "}";
}

// The decomposed layer norm of s into y over the last axis, as exporters write
// it (GPT-2 at opset 11-13): reads the constants two, eps, g and be.
inline const std::string kDecomposedLayerNorm = R"(
      mean = ReduceMean <axes = [-1]> (s)
      d = Sub(s, mean)
      sq = Pow(d, two)
      var = ReduceMean <axes = [-1]> (sq)
      ve = Add(var, eps)
      sd = Sqrt(ve)
      n = Div(d, sd)
      gm = Mul(n, g)
      y = Add(gm, be))";

}  // namespace passlab::testing
