// When the compiler builds the kernels: ahead (the CPU executor: a bad
// attribute is an error of compile) or on first use (device backends, whose
// runner sends few steps to the CPU kernels).
#include <gtest/gtest.h>

#include "core/exec/backend.h"
#include "core/exec/compiled_graph.h"
#include "core/exec/compiler.h"
#include "tests/core/exec/exec_test_util.h"

namespace passlab::exec {
namespace {

// A Gelu whose `approximate` is neither "none" nor "tanh" parses; its
// kernel's factory refuses it.
const char* kBadAttribute = R"(<ir_version: 9, opset_import: ["" : 20]>
  main (float[2,3] x) => (float[2,3] a, float[2,3] y) {
    a = Relu(x)
    y = Gelu <approximate = "cubic"> (x)
  })";

TEST(CompilerBuildAhead, AheadReportsABadAttributeAtCompile) {
  ir::Model m = testutil::parseModel(kBadAttribute);
  auto backend = makeBackend("cpu");
  ASSERT_TRUE(backend);
  Compiler compiler(m, (*backend)->kernels(), false);
  auto plan = compiler.compile(m.graph(), nullptr);
  ASSERT_FALSE(plan);
  EXPECT_NE(plan.error().message().find("approximate"), std::string::npos)
      << plan.error().message();
}

TEST(CompilerBuildAhead, OnFirstUseBuildsNothingAtCompileAndReportsItThen) {
  ir::Model m = testutil::parseModel(kBadAttribute);
  auto backend = makeBackend("cpu");
  ASSERT_TRUE(backend);
  Compiler compiler(m, (*backend)->kernels(), false, /*buildAhead=*/false);
  auto plan = compiler.compile(m.graph(), nullptr);
  ASSERT_TRUE(plan) << plan.error().message();
  ASSERT_EQ((*plan)->steps.size(), 2u);
  for (const Step& s : (*plan)->steps) EXPECT_TRUE(s.instances.empty()) << s.node->opType();
  // The Relu builds when asked; the Gelu's factory refuses then.
  auto relu = compiler.instance(**plan, (*plan)->steps[0], ir::DataType::kFloat);
  ASSERT_TRUE(relu) << relu.error().message();
  EXPECT_EQ((*plan)->steps[0].instances.size(), 1u);
  auto gelu = compiler.instance(**plan, (*plan)->steps[1], ir::DataType::kFloat);
  ASSERT_FALSE(gelu);
  EXPECT_NE(gelu.error().message().find("approximate"), std::string::npos)
      << gelu.error().message();
}

TEST(CompilerBuildAhead, TheCpuBackendRunsNoGraphsItself) {
  auto backend = makeBackend("cpu");
  ASSERT_TRUE(backend);
  EXPECT_FALSE((*backend)->runsGraphs());
}

}  // namespace
}  // namespace passlab::exec
