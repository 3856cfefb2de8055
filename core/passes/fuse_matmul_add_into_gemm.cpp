// fuse_matmul_add_into_gemm — a 2-D MatMul followed by an Add becomes one Gemm.
//
// Before:  t = MatMul(A, B); y = Add(t, C)            (A: [M, K], B: [K, N])
// After:   y = Gemm(A, B, C)                          (alpha = beta = 1, no transposes)
// Algebra: Gemm computes alpha * A·B + beta * C with C broadcast to [M, N]
// (unidirectionally, from opset 7), which is MatMul then Add when C's shape
// broadcasts to [M, N] without widening the result.
// Conditions: t feeds only the Add (not a graph output, not read in a
// subgraph); A and B are 2-D (known ranks) and C has rank <= 2 and
// broadcasts to t's shape; the element type is one Gemm takes (float,
// double, float16; bfloat16 from opset 13). Exact: Gemm's kernel adds C to
// the same products (no reassociation), so results match within rounding of
// the accumulation order, which the MatMul kernel shares.
// Not fused, with the reason given: the batched case (A or B of rank > 2, or
// 1-D): Gemm only takes 2-D operands, and flattening A to 2-D would need a
// Reshape before and after (two nodes for one), so MatMul + Add stays — the
// PassLab fused kernels (issue 5, ai.passlab FusedGemm) cover it there.
// Opsets: 7-28 (before 7 Gemm's C needs the legacy broadcast attribute).
#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"

namespace passlab::passes {

namespace {

fusion::Rules rules() {
  fusion::Rules r;
  // Add(MatMul(A, B), C) -> Gemm(A, B, C)   (2-D A and B; C broadcasts to [M, N])
  fusion::addRule(
      r, "matmul_add", "Add(MatMul(A, B), C) -> Gemm(A, B, C) for 2-D A, B", {"Add"},
      [](ir::Node& add, const MatchContext& c) {
        if (Text why = fusion::whyNotOpset(c, 7, 28, "MatMul + Add -> Gemm"); !why.empty())
          return MatchResult::failure(why);
        size_t side = 0;
        ir::Node* mm = producerOp(add.input(0), "MatMul");
        if (!mm) {
          mm = producerOp(add.input(1), "MatMul");
          side = 1;
        }
        if (!mm) return MatchResult::failure("no input is produced by a MatMul");
        ir::Value* t = add.input(side);
        ir::Value* cv = add.input(1 - side);
        if (Text why = rewrite::whyNotSoleConsumer(t); !why.empty())
          return MatchResult::failure(Text::of("MatMul output %1", why));
        auto ra = rankOf(mm->input(0)), rb = rankOf(mm->input(1)), rc = rankOf(cv);
        if (!ra || !rb) return MatchResult::failure("the MatMul operand ranks are unknown");
        if (*ra != 2 || *rb != 2)
          return MatchResult::failure(
              Text::of("batched MatMul (A rank %1, B rank %2): Gemm takes 2-D operands only, so "
                       "MatMul + Add is kept",
                       std::to_string(*ra), std::to_string(*rb)));
        if (!rc || *rc > 2 || !rewrite::broadcastKeepsShape(t, cv))
          return MatchResult::failure(
              Text::of("the Add operand %1 does not broadcast to the MatMul result %2",
                       typeText(cv), typeText(t)));
        ir::DataType dt = elemTypeOf(t);
        bool ok = dt == ir::DataType::kFloat || dt == ir::DataType::kDouble ||
                  dt == ir::DataType::kFloat16 || (dt == ir::DataType::kBFloat16 && c.opset >= 13);
        if (!ok) return MatchResult::failure(Text::of("Gemm does not take %1", typeText(t)));
        return MatchResult::success({&add, mm}, [&add, mm, cv](rewrite::Rewriter& rw) {
          ir::Node* g = fusion::addDerived(rw, "Gemm", {mm->input(0), mm->input(1), cv}, &add,
                                           {mm, &add}, nullptr, {add.output(0)});
          fusion::replaceAndErase(rw, add.output(0), g->output(0), {&add, mm});
        });
      });
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeFuseMatmulAddIntoGemm() {
  return std::make_unique<PatternPass>(catalogInfo("fuse_matmul_add_into_gemm"), rules());
}

}  // namespace passlab::passes
