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

// x -> Q -> DQ -> Conv 3x3 -> Relu -> Q -> DQ -> Conv 1x1 -> Q -> DQ -> y:
// a static INT8 chain (calibrated QuantizeLinear scales between the
// convolutions), int8 weights in [-64, 64] (reduce_range), uint8
// activations: two QLinearConvs after fuse_qdq_into_qlinear, one reading
// the other.
inline constexpr const char* kStaticQdqConvChain = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,3,6,6] x) => (float[1,2,6,6] y)
    <float xs = {0.02}, uint8 xz = {128},
     int8[4,3,3,3] w1q = {12, -40, 64, 3, -64, 7, 22, -9, 31, 5, -17, 44, -28, 9, 60, -3, 14, -50,
       33, -6, 18, 41, -22, 0, 8, -37, 25, -12, 40, -64, 30, 2, -7, 21, 9, -31, 15, 17, -44, 28,
       -9, 6, 3, -14, 50, -33, 6, -18, 11, 22, 10, -8, 37, -25, 7, 7, -7, 19, -19, 36, 1, -2, 3,
       -45, 45, 0, 26, -26, 13, 57, -57, 4, -1, 2, 64, -64, 48, -48, 16, -16, 32, 9, -10, 11, -12,
       13, -14, 15, -16, 17, 18, -19, 20, -21, 22, -23, 24, -25, 26, -27, 28, -29, 30, -31, 32,
       -33, 34, -35},
     float[4] w1s = {0.01, 0.02, 0.015, 0.005}, int8[4] w1z = {0, 0, 0, 0},
     float s1 = {0.03}, uint8 z1 = {0},
     int8[2,4,1,1] w2q = {50, -30, 64, -64, 12, 34, -56, 7}, float[2] w2s = {0.02, 0.01},
     int8[2] w2z = {0, 0}, float s2 = {0.05}, uint8 z2 = {120}> {
    q = QuantizeLinear(x, xs, xz)
    d = DequantizeLinear(q, xs, xz)
    w1 = DequantizeLinear <axis = 0> (w1q, w1s, w1z)
    c1 = Conv <pads = [1, 1, 1, 1]> (d, w1)
    r1 = Relu(c1)
    q1 = QuantizeLinear(r1, s1, z1)
    d1 = DequantizeLinear(q1, s1, z1)
    w2 = DequantizeLinear <axis = 0> (w2q, w2s, w2z)
    c2 = Conv(d1, w2)
    q2 = QuantizeLinear(c2, s2, z2)
    y = DequantizeLinear(q2, s2, z2) })";

}  // namespace passlab::pipeline
