// FusedElementwise's one op table (core/ir/passlab_ops.h), row by row: the
// pass encodes the row's op, the kernel evaluates the program it becomes
// (numerically against the unfused ONNX op on the reference kernels), and
// shape inference types the fused node.
#include <gtest/gtest.h>

#include "core/analysis/shape_inference.h"
#include "core/ir/passlab_ops.h"
#include "tests/support/pass_harness.h"
#include "tests/support/test_support.h"

namespace passlab::testing {
namespace {

namespace ops = ir::passlab_ops;

const std::string kHeader = R"(<ir_version: 9, opset_import: ["" : 20]>)";

// The ONNX node of a row, reading a = Abs(x) (so that Log, Sqrt and Pow see
// positive values) and z, writing y; with its constant nodes.
std::string rowNode(const ops::ElementwiseOp& row) {
  const std::string op(row.onnxOp);
  if (op == "Gelu") return "y = Gelu <approximate = \"" + std::string(row.approximate) + "\"> (a)";
  if (op == "LeakyRelu") return "y = LeakyRelu <alpha = 0.2> (a)";
  if (op == "Elu") return "y = Elu <alpha = 0.7> (a)";
  if (op == "HardSigmoid") return "y = HardSigmoid <alpha = 0.3, beta = 0.4> (a)";
  if (op == "Clip")
    return "lo = Constant <value = float {0.25}> ()\n hi = Constant <value = float {1.5}> ()\n "
           "y = Clip(a, lo, hi)";
  if (row.lowering != ops::EwLowering::kSingle) return "y = " + op + "(a, z, x)";
  if (row.operands == ops::EwOperands::kTwo) return "y = " + op + "(a, z)";
  return "y = " + op + "(a)";
}

std::string rowModel(const ops::ElementwiseOp& row) {
  return kHeader + "main (float[5,4,6] x, float[4,1] z) => (float[5,4,6] y) {\n a = Abs(x)\n " +
         rowNode(row) + " }";
}

const ir::Node* onlyFusedNode(const ir::Graph& g) {
  const ir::Node* found = nullptr;
  for (const auto& n : g.nodes()) {
    if (n->opType() == "Constant") continue;
    if (found || n->domain() != ops::kDomain) return nullptr;
    found = n.get();
  }
  return found;
}

TEST(PassLabOpsTable, EveryInstructionRowIsItsOwnInstruction) {
  for (const ops::ElementwiseOp& row : ops::elementwiseOps()) {
    const ops::ElementwiseOp* instr = ops::findInstruction(row.instr);
    ASSERT_NE(instr, nullptr) << row.name;
    EXPECT_EQ(instr->code, row.code) << row.name;
    EXPECT_EQ(instr->operands, row.operands) << row.name;
    EXPECT_EQ(ops::findOnnxOp(row.onnxOp, row.approximate.empty() ? "none" : row.approximate), &row)
        << row.name;
  }
}

// Sin, Cos, Erf and Gelu's erf form run vectorized rows (trig_rows.h,
// erf_rows.h), fused or not: no scalar libm calls, so their rows are not
// libm (fuse_elementwise_chains gives their groups the vectorized-row
// reason, not the libm one; it worked around the wrong flags before).
TEST(PassLabOpsTable, VectorizedTrigAndErfRowsAreNotLibm) {
  for (auto [op, approximate] : {std::pair{"Sin", "none"}, std::pair{"Cos", "none"},
                                 std::pair{"Erf", "none"}, std::pair{"Gelu", "none"}}) {
    const ops::ElementwiseOp* row = ops::findOnnxOp(op, approximate);
    ASSERT_NE(row, nullptr) << op;
    EXPECT_FALSE(row->libm) << op;
  }
}

// Exp, Log, Softplus, Gelu's tanh form and Elu run vectorized rows fused or
// not too (expRow, logRow, softplusRow, geluTanhRow, eluRow since 6f5a4a6):
// none of the table's rows is a libm row.
TEST(PassLabOpsTable, VectorizedExpFamilyRowsAreNotLibm) {
  for (auto [op, approximate] :
       {std::pair{"Exp", "none"}, std::pair{"Log", "none"}, std::pair{"Softplus", "none"},
        std::pair{"Gelu", "tanh"}, std::pair{"Elu", "none"}}) {
    const ops::ElementwiseOp* row = ops::findOnnxOp(op, approximate);
    ASSERT_NE(row, nullptr) << op;
    EXPECT_FALSE(row->libm) << op;
  }
  for (const ops::ElementwiseOp& row : ops::elementwiseOps()) EXPECT_FALSE(row.libm) << row.name;
}

TEST(PassLabOpsTable, PassEncodesKernelEvaluatesInferenceTypesEveryRow) {
  for (const ops::ElementwiseOp& row : ops::elementwiseOps()) {
    SCOPED_TRACE(std::string(row.name));
    const std::string text = rowModel(row);
    ir::Model before = parse(text);
    PassOutcome out = runPass("fuse_elementwise_chains", text);
    // The pass: Abs and the row's op became one FusedElementwise running row.instr.
    const ir::Node* fused = onlyFusedNode(out.model.graph());
    ASSERT_NE(fused, nullptr) << canonicalForm(out.model.graph());
    EXPECT_EQ(fused->opType(), ops::kFusedElementwise);
    EXPECT_TRUE(ops::whyNotValid(*fused).empty()) << ops::whyNotValid(*fused);
    const std::vector<std::string>& prog = fused->attr(ops::kOps)->strings;
    EXPECT_NE(std::find(prog.begin(), prog.end(), std::string(row.instr)), prog.end());
    // The kernel: the same outputs as the unfused ops.
    NumericResult num = compareOutputs(before, out.model);
    EXPECT_TRUE(num.ran) << num.detail;
    EXPECT_TRUE(num.equal) << num.detail;
    // Shape inference: the fused node's result typed again from scratch.
    for (const auto& n : out.model.graph().nodes())
      for (ir::Value* v : n->outputs())
        if (v) v->setType(ir::Type());
    auto report = analysis::inferShapes(out.model);
    EXPECT_TRUE(report.failures.empty());
    EXPECT_TRUE(report.opsWithoutRule.empty());
    EXPECT_EQ(fused->output(0)->type().toString(), "float[5,4,6]");
  }
}

TEST(PassLabOpsTable, VerifierChecksTheSchema) {
  ir::Model m = parse(
      R"(<ir_version: 9, opset_import: ["" : 20, "ai.passlab" : 1]>
      main (float[2] x) => (float[2] y) {
      y = ai.passlab.FusedElementwise <operands = [0, -1, -1]> (x) })");
  const ir::Node* n = m.graph().nodes().front().get();
  EXPECT_EQ(ops::whyNotValid(*n), "required attribute 'ops' is missing");
  for (const ops::OpSchema& s : ops::opSchemas()) EXPECT_NE(ops::findSchema(s.op), nullptr);
}

}  // namespace
}  // namespace passlab::testing
