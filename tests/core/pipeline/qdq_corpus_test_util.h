// Corpus models for the pipeline tests on QDQ models (unit_check_test,
// unit_exact_step_test, quant_steps_test): a corpus model with its shapes
// inferred, and a QDQ model (ONNX Runtime's as it is, or PassLab's own
// quantize_static output of a float model).
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "core/analysis/shape_inference.h"
#include "core/io/model_io.h"
#include "core/pipeline/calibration.h"
#include "core/pipeline/input_synthesis.h"
#include "core/pipeline/pass_manager.h"
#include "tests/support/pass_harness.h"
#include "tests/support/test_support.h"

namespace passlab::pipeline::qdqcorpus {

// corpus/models/<name>.onnx, shapes inferred; fails the current test when it
// does not load.
inline ir::Model loadCorpus(const std::string& name) {
  auto loaded = io::loadModel(*testing::corpusDir() + "/models/" + name + ".onnx");
  EXPECT_TRUE(loaded) << name;
  ir::Model m = std::move(loaded->model);
  analysis::inferShapes(m);
  return m;
}

// ONNX Runtime's QDQ models (ort_qdq*) as they are; PassLab's own
// quantize_static output of float models (raise_opset first), calibrated on 4
// synthesized sets. Without a checker: the accuracy budget does not matter
// here (the tests judge the rewrites on whatever QDQ model they are given).
inline ir::Model qdqModel(const std::string& name) {
  ir::Model m = loadCorpus(name);
  if (name.rfind("ort_qdq", 0) == 0) return m;
  m = testing::runPass("raise_opset", std::move(m)).model;
  CalibratingEvaluator eval(
      [](const ir::Model& model) { return synthesizedCalibrationSets(model, InputSpec{}, 4); }, 4);
  PipelineOptions po;
  po.keepSnapshots = false;
  PassManager pm(m, po);
  pm.setEvaluator(&eval);
  auto step = pm.run({"quantize_static", {}, {}});
  EXPECT_TRUE(step && (*step)->changed) << (step ? (*step)->error.str() : step.error().message());
  return m;
}

}  // namespace passlab::pipeline::qdqcorpus
