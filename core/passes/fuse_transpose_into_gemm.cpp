// fuse_transpose_into_gemm — a 2-D Transpose feeding a Gemm becomes its transA/transB flag.
//
// Before:  t = Transpose(A, perm = [1, 0]); y = Gemm(t, B, C, transA = 0)
// After:   y = Gemm(A, B, C, transA = 1)
//          (and the same for B; a 2-D MatMul(Transpose(A), B) becomes Gemm(A, B, transA = 1))
// Algebra: Gemm computes op(A)·op(B) with op = transpose when the flag is
// set, so Transpose(A) with flag f is A with flag !f.
// Conditions: the Transpose is 2-D with perm [1, 0] (or no perm on a 2-D
// input) and its result feeds only this operand (not a graph output, not
// read in a subgraph, not both operands). For MatMul: both operands 2-D and a
// type Gemm takes (float, double, float16; bfloat16 from opset 13); opset >= 11
// so a Gemm needs no C (C is a required input of Gemm 1-10). Exact.
// Opsets: Gemm 1-28 (transA/transB exist in every version); MatMul 11-28.
#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"

namespace passlab::passes {

namespace {

// The reason an operand gives when nothing transposes it: the other operand's
// reason is the more telling one then.
constexpr const char* kNoTransposeOperand = "no operand is produced by a Transpose";

// The 2-D Transpose producing operand `i` of `n`, or nullptr with `why`.
ir::Node* transposed2d(const ir::Node& n, size_t i, Text& why) {
  ir::Node* t = producerOp(n.input(i), "Transpose");
  if (!t) {
    why = kNoTransposeOperand;
    return nullptr;
  }
  auto perm = fusion::transposePerm(*t);
  if (!perm || *perm != std::vector<int64_t>{1, 0}) {
    why = "the Transpose is not a 2-D transpose (perm [1, 0])";
    return nullptr;
  }
  if (n.input(0) == n.input(1)) {
    why = "the Transpose feeds both operands";
    return nullptr;
  }
  if (Text w = rewrite::whyNotSoleConsumer(n.input(i)); !w.empty()) {
    why = Text::of("Transpose output %1", w);
    return nullptr;
  }
  return t;
}

fusion::Rules rules() {
  fusion::Rules r;
  // Gemm(Transpose(A), B, transA) -> Gemm(A, B, !transA); the same for B
  fusion::addRule(
      r, "transpose_gemm", "Gemm(Transpose(A), Transpose(B)) -> Gemm(A, B) with transA/transB",
      {"Gemm"}, [](ir::Node& g, const MatchContext& c) {
        Text why;
        ir::Node* ta = transposed2d(g, 0, why);
        Text whyB;
        ir::Node* tb = transposed2d(g, 1, whyB);
        if (!ta && !tb)
          return MatchResult::failure(why.templ() == kNoTransposeOperand ? whyB : why);
        std::vector<ir::Node*> nodes{&g};
        if (ta) nodes.push_back(ta);
        if (tb) nodes.push_back(tb);
        return MatchResult::success(nodes, [&g, ta, tb](rewrite::Rewriter& rw) {
          std::vector<ir::Value*> ins = g.inputs();
          if (ta) ins[0] = ta->input(0);
          if (tb) ins[1] = tb->input(0);
          std::vector<const ir::Node*> from{&g};
          if (ta) from.push_back(ta);
          if (tb) from.push_back(tb);
          ir::Node* n = fusion::addDerived(rw, "Gemm", ins, &g, from, &g, {g.output(0)});
          if (ta) rw.setAttr(n, ir::Attribute::makeInt("transA", g.attrInt("transA", 0) ? 0 : 1));
          if (tb) rw.setAttr(n, ir::Attribute::makeInt("transB", g.attrInt("transB", 0) ? 0 : 1));
          fusion::replaceAndErase(rw, g.output(0), n->output(0), {&g, ta, tb});
        });
      });
  // MatMul(Transpose(A), B) -> Gemm(A, B, transA = 1); the same for B   (2-D)
  fusion::addRule(
      r, "transpose_matmul", "MatMul(Transpose(A), B) -> Gemm(A, B, transA=1) for 2-D operands",
      {"MatMul"}, [](ir::Node& mm, const MatchContext& c) {
        if (Text why = fusion::whyNotOpset(c, 7, 28, "MatMul -> Gemm"); !why.empty())
          return MatchResult::failure(why);
        Text why, whyB;
        ir::Node* ta = transposed2d(mm, 0, why);
        ir::Node* tb = transposed2d(mm, 1, whyB);
        if (!ta && !tb)
          return MatchResult::failure(why.templ() == kNoTransposeOperand ? whyB : why);
        if (rankOf(mm.input(0)) != 2 || rankOf(mm.input(1)) != 2)
          return MatchResult::failure("MatMul operands are not both 2-D");
        // Gemm's C is optional only from opset 11 (a Gemm without C is invalid before).
        if (c.opset < 11)
          return MatchResult::failure(Text::of(
              "Gemm needs a C input before opset 11 (model has %1)", std::to_string(c.opset)));
        ir::DataType dt = elemTypeOf(mm.output(0));
        bool ok = dt == ir::DataType::kFloat || dt == ir::DataType::kDouble ||
                  dt == ir::DataType::kFloat16 || (dt == ir::DataType::kBFloat16 && c.opset >= 13);
        if (!ok)
          return MatchResult::failure(Text::of("Gemm does not take %1", typeText(mm.output(0))));
        std::vector<ir::Node*> nodes{&mm};
        if (ta) nodes.push_back(ta);
        if (tb) nodes.push_back(tb);
        return MatchResult::success(nodes, [&mm, ta, tb](rewrite::Rewriter& rw) {
          ir::Value* a = ta ? ta->input(0) : mm.input(0);
          ir::Value* b = tb ? tb->input(0) : mm.input(1);
          std::vector<const ir::Node*> from{&mm};
          if (ta) from.push_back(ta);
          if (tb) from.push_back(tb);
          ir::Node* n = fusion::addDerived(rw, "Gemm", {a, b}, &mm, from, nullptr, {mm.output(0)});
          if (ta) rw.setAttr(n, ir::Attribute::makeInt("transA", 1));
          if (tb) rw.setAttr(n, ir::Attribute::makeInt("transB", 1));
          fusion::replaceAndErase(rw, mm.output(0), n->output(0), {&mm, ta, tb});
        });
      });
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeFuseTransposeIntoGemm() {
  return std::make_unique<PatternPass>(catalogInfo("fuse_transpose_into_gemm"), rules());
}

}  // namespace passlab::passes
