// Lossy passes that do not enter subgraphs (prune_magnitude,
// factorize_low_rank; quantize_static with subgraphs=false) count the nodes
// they leave inside If/Loop/Scan bodies in their step's note (#25): a model
// whose layers are all inside If branches (silero_vad) must not read as
// quantized, pruned or factorized. quantize_static enters them by default
// (session 34: quantize_static_subgraphs_test.cpp).
#include <gtest/gtest.h>

#include <string>

#include "core/io/text_format.h"
#include "core/pipeline/calibration.h"
#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

// One MatMul in the main graph, one in each branch and one in an If nested
// in the then branch: three left inside subgraphs.
const char* kBranches = R"(<ir_version: 8, opset_import: ["" : 13]>
main (bool[] c, float[2,4] x) => (float[2,4] y, float[2,4] z)
    <float[4,4] w = {10, 0.001, -11, 0.002,  0.003, 12, -0.004, 13,
                     14, -0.005, 15, 0.006,  -0.007, 16, 0.008, 17},
     float[4,4] w0 = {10, 0.001, -11, 0.002,  0.003, 12, -0.004, 13,
                      14, -0.005, 15, 0.006,  -0.007, 16, 0.008, 17}> {
    z = MatMul(x, w0)
    y = If <then_branch = g1 () => (float[2,4] a) {
               t = MatMul(x, w)
               a = If <then_branch = g3 () => (float[2,4] p) { p = MatMul(t, w) },
                       else_branch = g4 () => (float[2,4] q) { q = Neg(t) }> (c) },
            else_branch = g2 () => (float[2,4] b) { b = MatMul(x, w) }> (c) })";

// Only the branches hold MatMuls.
const char* kOnlyBranches = R"(<ir_version: 8, opset_import: ["" : 13]>
main (bool[] c, float[2,4] x) => (float[2,4] y)
    <float[4,4] w = {10, 0.001, -11, 0.002,  0.003, 12, -0.004, 13,
                     14, -0.005, 15, 0.006,  -0.007, 16, 0.008, 17}> {
    y = If <then_branch = g1 () => (float[2,4] a) { a = MatMul(x, w) },
            else_branch = g2 () => (float[2,4] b) { b = MatMul(x, w) }> (c) })";

// The step's note; quantize_static calibrates on synthesized input sets.
std::string noteOf(const std::string& pass, const char* model,
                   const passes::Options& options = {}) {
  pipeline::CalibratingEvaluator eval(
      [](const ir::Model& m) {
        return pipeline::synthesizedCalibrationSets(m, pipeline::InputSpec{}, 4);
      },
      4);
  PassOutcome out = runPass(pass, model, options, &eval);
  EXPECT_FALSE(out.step.rolledBack) << pass << ": " << out.step.error.str();
  return out.step.note.str();
}

TEST(SubgraphSkips, QuantizeStaticCountsTheNodesLeftInBodies) {
  const std::string note = noteOf("quantize_static", kBranches, {{"subgraphs", "false"}});
  EXPECT_NE(note.find("1 ops quantized"), std::string::npos) << note;
  EXPECT_NE(note.find("3 nodes of the ops it rewrites are inside subgraphs"), std::string::npos)
      << note;
  EXPECT_NE(note.find("(subgraphs=false, or their If/Loop/Scan node is excluded)"),
            std::string::npos)
      << note;
}

TEST(SubgraphSkips, QuantizeStaticSaysSoWhenOnlyBodiesHoldCandidates) {
  const std::string note = noteOf("quantize_static", kOnlyBranches, {{"subgraphs", "false"}});
  EXPECT_NE(note.find("2 nodes of the ops it rewrites are inside subgraphs"), std::string::npos)
      << note;
}

// By default it enters the bodies: no node is left there unsaid; each body
// node is quantized or counted as in a body no calibration run entered.
TEST(SubgraphSkips, QuantizeStaticEntersTheBodiesByDefault) {
  const std::string note = noteOf("quantize_static", kBranches);
  EXPECT_EQ(note.find("stay as they are"), std::string::npos) << note;
  EXPECT_NE(note.find("inside subgraphs"), std::string::npos) << note;
}

TEST(SubgraphSkips, PruneMagnitudeCountsTheNodesLeftInBodies) {
  const std::string note = noteOf("prune_magnitude", kBranches);
  EXPECT_NE(note.find("1 layers pruned"), std::string::npos) << note;
  EXPECT_NE(note.find("3 nodes of the ops it rewrites are inside subgraphs"), std::string::npos)
      << note;
  const std::string only = noteOf("prune_magnitude", kOnlyBranches);
  EXPECT_NE(only.find("2 nodes of the ops it rewrites are inside subgraphs"), std::string::npos)
      << only;
}

TEST(SubgraphSkips, FactorizeLowRankCountsTheNodesLeftInBodies) {
  const std::string note = noteOf("factorize_low_rank", kOnlyBranches);
  EXPECT_NE(note.find("2 nodes of the ops it rewrites are inside subgraphs"), std::string::npos)
      << note;
  EXPECT_NE(note.find("does not enter If/Loop/Scan bodies"), std::string::npos) << note;
}

TEST(SubgraphSkips, NoNoteAboutSubgraphsWithoutThem) {
  const char* plain = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2,4] x) => (float[2,4] y)
    <float[4,4] w = {10, 0.001, -11, 0.002,  0.003, 12, -0.004, 13,
                     14, -0.005, 15, 0.006,  -0.007, 16, 0.008, 17}> {
    y = MatMul(x, w) })";
  for (const char* pass : {"quantize_static", "prune_magnitude", "factorize_low_rank"}) {
    const std::string note = noteOf(pass, plain);
    EXPECT_EQ(note.find("subgraphs"), std::string::npos) << pass << ": " << note;
  }
}

}  // namespace
}  // namespace passlab::testing
