// replace_einsum_with_matmul — an Einsum that is a (batched) matrix product becomes MatMul.
//
// Before:  y = Einsum(a, b, equation = "bij,bjk->bik")      (also "...ij,...jk->...ik",
// "ij,jk->ik",
//          "ij,j->i", "j,jk->k", and with an operand transposed: "bij,bkj->bik", "bji,bjk->bik")
// After:   y = MatMul(a, b)       (a transposed operand gets a Transpose of its last two axes;
//                                  a constant one is transposed in place, as a new initializer)
// Algebra: y[P, i, k] = sum_j a[P, i, j] * b[P, j, k] is MatMul with batch
// dims P (broadcast alike: Einsum's "..." and MatMul both broadcast numpy-style;
// named batch letters must then appear in the same order in all three terms).
// The MatMul kernel sums in its own order (changesNumerics: last bits).
// Conditions: two inputs; an explicit "->" output; each letter once per term;
// the output is P + i + k (a transposed output, P + k + i, is not a MatMul and
// stays); i and k may be absent only without batch letters (1-D operands).
// Opsets: 12-28 (Einsum).
#include <algorithm>

#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"

namespace passlab::passes {

namespace {

struct Plan {
  bool transA = false, transB = false;
};

// "" and the plan when the equation is a matrix product; else the reason.
std::string planFor(std::string eq, Plan& plan) {
  eq.erase(std::remove(eq.begin(), eq.end(), ' '), eq.end());
  size_t arrow = eq.find("->");
  if (arrow == std::string::npos) return "the equation has no explicit output";
  std::string lhs = eq.substr(0, arrow), out = eq.substr(arrow + 2);
  size_t comma = lhs.find(',');
  if (comma == std::string::npos || lhs.find(',', comma + 1) != std::string::npos)
    return "the equation does not have two operands";
  std::string a = lhs.substr(0, comma), b = lhs.substr(comma + 1);
  // a shared "..." prefix is a batch prefix
  auto strip = [](std::string& s) {
    if (s.rfind("...", 0) == 0) {
      s = s.substr(3);
      return true;
    }
    return false;
  };
  bool ea = strip(a), eb = strip(b), eo = strip(out);
  if (ea != eb || eb != eo) return "\"...\" is not a prefix of every term";
  for (const std::string* t : {&a, &b, &out}) {
    std::string s = *t;
    std::sort(s.begin(), s.end());
    if (std::adjacent_find(s.begin(), s.end()) != s.end() || s.find('.') != std::string::npos)
      return "a letter repeats within a term (a trace or diagonal)";
  }
  // The contracted letter: in a and b, not in out; exactly one.
  std::string j;
  for (char ch : a)
    if (b.find(ch) != std::string::npos && out.find(ch) == std::string::npos) j += ch;
  if (j.size() != 1) return "not exactly one contracted index";
  // batch letters: in all three
  std::string pa, pb, po;
  for (char ch : a)
    if (b.find(ch) != std::string::npos && out.find(ch) != std::string::npos) pa += ch;
  for (char ch : b)
    if (a.find(ch) != std::string::npos && out.find(ch) != std::string::npos) pb += ch;
  for (char ch : out)
    if (a.find(ch) != std::string::npos && b.find(ch) != std::string::npos) po += ch;
  if (pa != pb || pa != po) return "batch indices appear in different orders";
  size_t p = pa.size();
  if (a.substr(0, p) != pa || b.substr(0, p) != pb || out.substr(0, p) != po)
    return "batch indices are not leading";
  std::string ra = a.substr(p), rb = b.substr(p), ro = out.substr(p);
  if (ra.size() > 2 || rb.size() > 2 || ra.empty() || rb.empty())
    return "an operand has more than two non-batch indices";
  // a: [i] j or j i ; b: j [k] or k j
  std::string i = ra.size() == 2 ? std::string(1, ra[0] == j[0] ? ra[1] : ra[0]) : "";
  std::string k = rb.size() == 2 ? std::string(1, rb[0] == j[0] ? rb[1] : rb[0]) : "";
  if (i.empty() != (ra == j) || k.empty() != (rb == j)) return "an operand does not hold j";
  if ((i.empty() || k.empty()) && (p > 0 || ea))
    return "a 1-D operand with batch indices is not a MatMul";
  if (ro != i + k) return "the output is not [batch, i, k] (a transposed output)";
  plan.transA = ra.size() == 2 && ra[0] == j[0];
  plan.transB = rb.size() == 2 && rb[1] == j[0];
  return "";
}

fusion::Rules rules() {
  fusion::Rules r;
  // Einsum("...ij,...jk->...ik", a, b) -> MatMul(a, b)
  fusion::addRule(
      r, "einsum_matmul", "Einsum(\"Pij,Pjk->Pik\", a, b) -> MatMul(a, b)", {"Einsum"},
      [](ir::Node& n, const MatchContext& c) {
        if (Text why = fusion::whyNotOpset(c, 12, 28, "Einsum"); !why.empty())
          return MatchResult::failure(why);
        if (n.inputCount() != 2) return MatchResult::failure("Einsum does not have two inputs");
        Plan plan;
        if (Text why = planFor(n.attrString("equation", ""), plan); !why.empty())
          return MatchResult::failure(why);
        ir::Value* ops[2] = {n.input(0), n.input(1)};
        bool trans[2] = {plan.transA, plan.transB};
        for (size_t i = 0; i < 2; ++i)
          if (trans[i] && !rankOf(ops[i]))
            return MatchResult::failure("a transposed operand has unknown rank");
        return MatchResult::success({&n}, [&n, ops, trans](rewrite::Rewriter& rw) {
          std::vector<ir::Value*> ins{ops[0], ops[1]};
          for (size_t i = 0; i < 2; ++i) {
            if (!trans[i]) continue;
            int64_t rk = *rankOf(ops[i]);
            std::vector<int64_t> perm;
            for (int64_t a = 0; a < rk; ++a) perm.push_back(a);
            std::swap(perm[rk - 1], perm[rk - 2]);
            auto t = rewrite::constantValue(ops[i]);
            auto tt = t ? fusion::transposeTensor(*t, perm) : std::nullopt;
            if (tt) {
              ins[i] = addConstant(rw, *n.owner(), &n, ops[i]->name() + "_t", std::move(*tt), {&n});
            } else {
              ir::Node* tr = fusion::addDerived(rw, "Transpose", {ops[i]}, &n, {&n});
              rw.setAttr(tr, ir::Attribute::makeInts("perm", perm));
              ins[i] = tr->output(0);
            }
          }
          ir::Node* mm = fusion::addDerived(rw, "MatMul", ins, &n, {&n}, nullptr, {n.output(0)});
          fusion::replaceAndErase(rw, n.output(0), mm->output(0), {&n});
        });
      });
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeReplaceEinsumWithMatmul() {
  return std::make_unique<PatternPass>(catalogInfo("replace_einsum_with_matmul"), rules());
}

}  // namespace passlab::passes
