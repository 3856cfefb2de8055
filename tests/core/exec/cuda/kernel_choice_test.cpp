// Where the CUDA backend places a node (no GPU needed): the table's rows are
// found by (domain, op, opset, type), Shape and Size read dims on the host,
// control flow and ops without rows go to the CPU with a reason that names
// the op (and the types the rows take).
#include "core/exec/cuda/kernel_choice.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/ir/graph.h"
#include "tests/support/test_support.h"

namespace passlab::exec::cuda {
namespace {

using ir::DataType;

// The node of a one-node model.
struct OneNode {
  ir::Model model;
  const ir::Node* node = nullptr;
};

OneNode parseOne(const std::string& text) {
  OneNode o{passlab::testing::parse(text)};
  o.node = o.model.graph().nodes().begin()->get();
  return o;
}

TEST(CudaKernelChoice, EveryRowIsFoundByItsOwnKeys) {
  ASSERT_FALSE(cudaKernelRows().empty());
  std::set<std::string> names;
  for (const CudaKernelDef* def : cudaKernelRows()) {
    EXPECT_TRUE(names
                    .insert(std::string(def->name) + "@" + std::to_string(def->since) + "/" +
                            def->types.toString())
                    .second)
        << "two rows " << def->name << " with the same opsets and types";
    EXPECT_LE(def->since, def->until) << def->name;
    EXPECT_NE(def->create, nullptr) << def->name;
    ir::DataType t = DataType::kUndefined;
    for (int i = 0; i < 32 && def->typeInput != kAnyType; ++i)
      if (def->types.contains(static_cast<DataType>(i))) {
        t = static_cast<DataType>(i);
        break;
      }
    auto found = findCudaKernels(def->domain, def->op, def->since, t);
    bool hit = false;
    for (const CudaKernelDef* f : found) hit = hit || f == def;
    EXPECT_TRUE(hit) << def->name << " is not found by its own domain, op, opset and type";
  }
}

TEST(CudaKernelChoice, ShapeAndSizeReadDimsOnTheHost) {
  auto o = parseOne("main (float[2] x) => (int64[1] s) { s = Shape(x) }");
  RowChoice c = chooseRows(*o.node, 17, DataType::kFloat);
  EXPECT_EQ(c.placement, Placement::kHostDims);
  EXPECT_TRUE(readsDimsOnly(*o.node));
}

TEST(CudaKernelChoice, AnOpWithoutRowsFallsBackNamingIt) {
  auto o = parseOne("main (float[2,2] x) => (float y) { y = Det(x) }");
  RowChoice c = chooseRows(*o.node, 17, DataType::kFloat);
  EXPECT_EQ(c.placement, Placement::kCpuFallback);
  EXPECT_EQ(c.reason, "no CUDA kernel for Det");
  EXPECT_TRUE(c.rows.empty());
}

TEST(CudaKernelChoice, ATypeTheRowsDoNotTakeNamesTheTypesTheyDo) {
  // Relu has float rows; a string tensor is no element type any row takes.
  auto o = parseOne("main (float[2] x) => (float[2] y) { y = Relu(x) }");
  RowChoice onFloat = chooseRows(*o.node, 17, DataType::kFloat);
  ASSERT_EQ(onFloat.placement, Placement::kDevice);
  EXPECT_FALSE(onFloat.rows.empty());
  RowChoice onString = chooseRows(*o.node, 17, DataType::kString);
  EXPECT_EQ(onString.placement, Placement::kCpuFallback);
  EXPECT_NE(onString.reason.find("no CUDA kernel for Relu on string"), std::string::npos)
      << onString.reason;
  EXPECT_NE(onString.reason.find("float"), std::string::npos) << onString.reason;
}

TEST(CudaKernelChoice, ControlFlowRunsOnTheCpu) {
  auto o = parseOne(R"(
    main (bool c, float[2] x) => (float[2] y) {
      y = If <then_branch = g1 () => (float[2] a) { a = Relu(x) },
              else_branch = g2 () => (float[2] b) { b = Neg(x) }> (c)
    })");
  RowChoice c = chooseRows(*o.node, 17, DataType::kBool);
  EXPECT_EQ(c.placement, Placement::kCpuFallback);
  EXPECT_NE(c.reason.find("If has a subgraph"), std::string::npos) << c.reason;
}

}  // namespace
}  // namespace passlab::exec::cuda
