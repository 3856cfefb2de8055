// The fused level run the way the level tests want it: every step checked
// on 3 synthesized input sets, none rolled back.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/analysis/shape_inference.h"
#include "core/passes/registry.h"
#include "core/pipeline/numeric_check.h"
#include "core/pipeline/pass_manager.h"

namespace passlab::pipeline {

// The fused level on `original` with every step checked (3 input sets),
// each check passed and no step rolled back (EXPECTs); the passes that
// changed the model in *changed when given. Returns the model as the level
// left it.
inline ir::Model runFusedLevel(const ir::Model& original,
                               std::vector<std::string>* changed = nullptr) {
  ir::Model m = original.clone();
  analysis::inferShapes(m);
  auto c = ExecOutputChecker::create(m, 3, InputSpec{});
  EXPECT_TRUE(c) << c.error().message();
  if (!c) return m;
  PipelineOptions po;
  po.standardOnly = false;
  PassManager pm(m, po);
  pm.setChecker(c.value().get());
  auto fused = passes::passesForLevel("fused");
  EXPECT_TRUE(fused);
  std::vector<PassSpec> specs;
  for (const std::string& id : *fused) specs.push_back({id, {}, {}});
  EXPECT_TRUE(pm.runAll(specs).isOk());
  for (const Step& s : pm.timeline().steps()) {
    EXPECT_TRUE(!s.check.ran || s.check.passed) << s.passId << ": " << s.check.detail;
    EXPECT_FALSE(s.rolledBack) << s.passId << ": " << s.error;
    if (changed && s.changed) changed->push_back(s.passId);
  }
  return pm.model().clone();
}

}  // namespace passlab::pipeline
