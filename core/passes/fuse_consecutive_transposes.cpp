// fuse_consecutive_transposes — two Transposes in a row become one.
//
// Before:  t = Transpose(x, perm = p1); y = Transpose(t, perm = p2)
// After:   y = Transpose(x, perm = q),  q[i] = p1[p2[i]]
// Algebra: t[..i..] = x permuted by p1 (dim i of t is dim p1[i] of x), so dim
// i of y is dim p2[i] of t, which is dim p1[p2[i]] of x. A missing perm
// reverses the axes (needs the rank).
// Conditions: t feeds only the second Transpose (not a graph output, not read
// in a subgraph). When q is the identity the pair is an inverse pair, which
// eliminate_inverse_pairs removes (this pass says so and leaves it). Exact.
// Opsets: 1-28 (Transpose 1, 13, 21 share the perm attribute).
#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"

namespace passlab::passes {

namespace {

fusion::Rules rules() {
  fusion::Rules r;
  // Transpose(Transpose(x, p1), p2) -> Transpose(x, q), q[i] = p1[p2[i]]
  fusion::addRule(
      r, "transpose_transpose", "Transpose(Transpose(x, p1), p2) -> Transpose(x, p1[p2])",
      {"Transpose"}, [](ir::Node& outer, const MatchContext&) {
        ir::Node* inner = producerOp(outer.input(0), "Transpose");
        if (!inner) return MatchResult::failure("the input is not produced by a Transpose");
        if (Text why = rewrite::whyNotSoleConsumer(outer.input(0)); !why.empty())
          return MatchResult::failure(Text::of("inner Transpose output %1", why));
        auto p1 = fusion::transposePerm(*inner);
        auto p2 = fusion::transposePerm(outer);
        if (!p1 || !p2) return MatchResult::failure("a perm is missing and the rank is unknown");
        if (p1->size() != p2->size()) return MatchResult::failure("the perms have different ranks");
        std::vector<int64_t> q(p2->size());
        bool identity = true;
        for (size_t i = 0; i < q.size(); ++i) {
          int64_t k = (*p2)[i];
          if (k < 0 || k >= static_cast<int64_t>(p1->size()))
            return MatchResult::failure("a perm is out of range");
          q[i] = (*p1)[k];
          identity = identity && q[i] == static_cast<int64_t>(i);
        }
        if (identity)
          return MatchResult::failure(
              "the perms compose to the identity (an inverse pair: eliminate_inverse_pairs)");
        return MatchResult::success({&outer, inner}, [&outer, inner, q](rewrite::Rewriter& rw) {
          ir::Node* n = fusion::addDerived(rw, "Transpose", {inner->input(0)}, &outer,
                                           {inner, &outer}, nullptr, {outer.output(0)});
          rw.setAttr(n, ir::Attribute::makeInts("perm", q));
          fusion::replaceAndErase(rw, outer.output(0), n->output(0), {&outer, inner});
        });
      });
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeFuseConsecutiveTransposes() {
  return std::make_unique<PatternPass>(catalogInfo("fuse_consecutive_transposes"), rules());
}

}  // namespace passlab::passes
