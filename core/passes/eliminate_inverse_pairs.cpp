// eliminate_inverse_pairs — redundancy kind 4: an op followed by its inverse.
//
// Before:  t = Transpose <perm = [0, 2, 1]> (x); y = Transpose <perm = [0, 2, 1]> (t)
// After:   y is x
// Rules (one row each, the rule as its comment). Conditions common to all:
// the outer node goes and its users read x; the inner node goes too when
// nothing else reads it (an intermediate with other consumers keeps its node,
// so the rule still removes one node and never adds one). If the outer result
// is a model output and x is a model input or constant, the pair stays.
// Exact: every enabled rule returns x bit for bit. Left out on purpose:
//   Exp(Log(x)), Log(Exp(x)): not exact (rounding; exp overflows to inf for
//     x > 88 in float, log of a negative x is NaN);
//   Sqrt(x*x): |x|, and rounds;
//   QuantizeLinear(DequantizeLinear(q)): exact only while (q-zp)*s/s rounds
//     back, which fails for tiny scales;
//   Reciprocal(Reciprocal(x)): rounds twice, 1/(1/x) != x for about 12% of
//     float32 values, and is 0 for subnormal x; behind the option
//     reciprocal_pairs (off by default);
//   Transpose pairs that compose to another permutation: merging them into one
//     Transpose is a fusion (fuse_consecutive_transposes).
// Opsets: 1-28; Squeeze/Unsqueeze axes attribute before 13, input from 13;
// DepthToSpace mode from 11 (DCR before).
#include <algorithm>

#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"
#include "core/passes/rule_helpers.h"

namespace passlab::passes {

namespace {

using rewrite::addRule;
using rewrite::Rules;

// The pair root(inner(x)) is x: forward x, drop the inner node if it became dead.
MatchResult pairIsIdentity(ir::Node& root, ir::Node* inner) {
  return forwardValue(root, inner->input(0), 0, {inner});
}

// The producer of root's input 0 when it is `op`, else a failure reason.
ir::Node* innerOp(ir::Node& root, const char* op, Text& why) {
  ir::Node* p = producerOp(root.input(0), op);
  if (!p) why = Text::of("the input is not produced by %1", op);
  return p;
}

std::optional<std::vector<int64_t>> permOf(const ir::Node& t, std::optional<int64_t> rank) {
  if (t.hasAttr("perm")) return t.attrInts("perm");
  if (!rank) return std::nullopt;
  std::vector<int64_t> p;
  for (int64_t i = *rank - 1; i >= 0; --i) p.push_back(i);
  return p;
}

bool isReshapeLike(const ir::Node* n) {
  if (!n || !n->domain().empty()) return false;
  const std::string& op = n->opType();
  return op == "Reshape" || op == "Flatten" || op == "Squeeze" || op == "Unsqueeze";
}

std::vector<int64_t> sorted(std::vector<int64_t> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// Axis and shape changes undone by their inverse.
void addLayoutInverses(Rules& r) {
  // Transpose(Transpose(x, p1), p2) -> x when p1[p2[i]] == i for every i
  addRule(r, "transpose_pair", "Transpose(Transpose(x, p1), p2) -> x if p2 undoes p1",
          {"Transpose"}, [](ir::Node& n, const MatchContext&) {
            Text why;
            ir::Node* inner = innerOp(n, "Transpose", why);
            if (!inner) return MatchResult::failure(why);
            auto rank = rankOf(inner->input(0));
            auto p1 = permOf(*inner, rank), p2 = permOf(n, rank);
            if (!p1 || !p2)
              return MatchResult::failure("a perm is implicit and the rank is unknown");
            if (p1->size() != p2->size())
              return MatchResult::failure("the perms have different lengths");
            std::vector<int64_t> composed;
            for (int64_t i : *p2) {
              if (i < 0 || i >= static_cast<int64_t>(p1->size()))
                return MatchResult::failure("a perm is out of range");
              composed.push_back((*p1)[static_cast<size_t>(i)]);
            }
            for (size_t i = 0; i < composed.size(); ++i)
              if (composed[i] != static_cast<int64_t>(i))
                return MatchResult::failure(Text::of(
                    "the perms compose to %1, not the identity (one Transpose would do: a fusion)",
                    intsText(composed)));
            return pairIsIdentity(n, inner);
          });
  // Unsqueeze(Squeeze(x, a), a) -> x   (the same axes, as positions of x)
  addRule(
      r, "unsqueeze_of_squeeze", "Unsqueeze(Squeeze(x, a), a) -> x", {"Unsqueeze"},
      [](ir::Node& n, const MatchContext&) {
        Text why;
        ir::Node* inner = innerOp(n, "Squeeze", why);
        if (!inner) return MatchResult::failure(why);
        ir::Value* x = inner->input(0);
        auto rank = rankOf(x);
        auto as = rewrite::intsFromAttrOrInput(*inner, "axes", 1);
        auto au = rewrite::intsFromAttrOrInput(n, "axes", 1);
        if (!as || !au) return MatchResult::failure("the axes are not constant");
        if (as->empty()) {
          // Squeeze without axes removes every dim that is 1: needs every dim known.
          auto dims = rewrite::staticDims(x);
          if (!dims)
            return MatchResult::failure("Squeeze has no axes and the input shape is not static");
          for (size_t i = 0; i < dims->size(); ++i)
            if ((*dims)[i] == 1) as->push_back(static_cast<int64_t>(i));
        }
        auto ns = normalizeAxes(*as, rank), nu = normalizeAxes(*au, rank);
        if (!ns || !nu) return MatchResult::failure("the axes cannot be resolved");
        if (sorted(*ns) != sorted(*nu))
          return MatchResult::failure(Text::of("Squeeze axes %1 and Unsqueeze axes %2 differ",
                                               intsText(*ns), intsText(*nu)));
        return pairIsIdentity(n, inner);
      });
  // Squeeze(Unsqueeze(x, a), a) -> x   (Squeeze with explicit axes)
  addRule(r, "squeeze_of_unsqueeze", "Squeeze(Unsqueeze(x, a), a) -> x", {"Squeeze"},
          [](ir::Node& n, const MatchContext&) {
            Text why;
            ir::Node* inner = innerOp(n, "Unsqueeze", why);
            if (!inner) return MatchResult::failure(why);
            auto au = rewrite::intsFromAttrOrInput(*inner, "axes", 1);
            auto as = rewrite::intsFromAttrOrInput(n, "axes", 1);
            if (!as || !au) return MatchResult::failure("the axes are not constant");
            if (as->empty())
              return MatchResult::failure("Squeeze without axes also removes x's own 1s");
            std::optional<int64_t> mid = rankOf(inner->output(0));
            if (!mid)
              if (auto r0 = rankOf(inner->input(0))) mid = *r0 + static_cast<int64_t>(au->size());
            auto nu = normalizeAxes(*au, mid), ns = normalizeAxes(*as, mid);
            if (!ns || !nu) return MatchResult::failure("the axes cannot be resolved");
            if (sorted(*ns) != sorted(*nu))
              return MatchResult::failure(Text::of("Unsqueeze axes %1 and Squeeze axes %2 differ",
                                                   intsText(*nu), intsText(*ns)));
            return pairIsIdentity(n, inner);
          });
  // reshape-like(reshape-like(x)) -> x when the result has x's shape
  // (Reshape, Flatten, Squeeze and Unsqueeze keep the element order)
  addRule(r, "reshape_back", "Reshape(Reshape(x)) back to x's shape -> x",
          {"Reshape", "Flatten", "Squeeze", "Unsqueeze"}, [](ir::Node& n, const MatchContext&) {
            ir::Node* inner = n.input(0) ? n.input(0)->producer() : nullptr;
            if (!isReshapeLike(inner))
              return MatchResult::failure(
                  "the input is not produced by Reshape/Flatten/Squeeze/Unsqueeze");
            if (!rewrite::sameTensorType(inner->input(0), n.output(0)))
              return MatchResult::failure(
                  Text::of("the result %1 is not known to equal the original %2",
                           typeText(n.output(0)), typeText(inner->input(0))));
            return pairIsIdentity(n, inner);
          });
}

// Elementwise ops, casts, block rearrangements and optionals undone by their inverse.
void addValueInverses(Rules& r) {
  // Neg(Neg(x)) -> x
  addRule(r, "neg_pair", "Neg(Neg(x)) -> x", {"Neg"}, [](ir::Node& n, const MatchContext&) {
    Text why;
    ir::Node* inner = innerOp(n, "Neg", why);
    return inner ? pairIsIdentity(n, inner) : MatchResult::failure(why);
  });
  // Not(Not(x)) -> x
  addRule(r, "not_pair", "Not(Not(x)) -> x", {"Not"}, [](ir::Node& n, const MatchContext&) {
    Text why;
    ir::Node* inner = innerOp(n, "Not", why);
    return inner ? pairIsIdentity(n, inner) : MatchResult::failure(why);
  });
  // Reciprocal(Reciprocal(x)) -> x   (only with reciprocal_pairs=true: it rounds, see above)
  addRule(r, "reciprocal_pair", "Reciprocal(Reciprocal(x)) -> x (option reciprocal_pairs)",
          {"Reciprocal"}, [](ir::Node& n, const MatchContext& c) {
            Text why;
            ir::Node* inner = innerOp(n, "Reciprocal", why);
            if (!inner) return MatchResult::failure(why);
            if (!c.boolOption("reciprocal_pairs", false))
              return MatchResult::failure(
                  "1/(1/x) rounds twice and differs from x in the last bit for some x (0 for "
                  "subnormal x); set reciprocal_pairs=true to remove it anyway");
            return pairIsIdentity(n, inner);
          });
  // Cast(Cast(x: A, to=B), to=A) -> x when B holds every value of A (a widening cast and back)
  addRule(r, "cast_round_trip", "Cast(Cast(x: A, B), A) -> x when A fits in B", {"Cast"},
          [](ir::Node& n, const MatchContext&) {
            Text why;
            ir::Node* inner = innerOp(n, "Cast", why);
            if (!inner) return MatchResult::failure(why);
            ir::DataType a = elemTypeOf(inner->input(0));
            auto b = static_cast<ir::DataType>(inner->attrInt("to", 0));
            auto back = static_cast<ir::DataType>(n.attrInt("to", 0));
            if (a == ir::DataType::kUndefined)
              return MatchResult::failure("the source type is unknown");
            if (back != a) return MatchResult::failure("it does not cast back to the source type");
            if (!castIsExact(a, b))
              return MatchResult::failure(Text::of("%1 -> %2 loses values",
                                                   std::string(ir::dtypeName(a)),
                                                   std::string(ir::dtypeName(b))));
            return pairIsIdentity(n, inner);
          });
  // DepthToSpace(SpaceToDepth(x, b), b, mode=DCR) -> x; SpaceToDepth(DepthToSpace(x, b, DCR), b) ->
  // x (SpaceToDepth lays blocks out as DCR does; CRD is a different permutation)
  addRule(r, "depth_space_pair", "DepthToSpace(SpaceToDepth(x, b), b, DCR) -> x, and back",
          {"DepthToSpace", "SpaceToDepth"}, [](ir::Node& n, const MatchContext&) {
            bool d2s = n.opType() == "DepthToSpace";
            Text why;
            ir::Node* inner = innerOp(n, d2s ? "SpaceToDepth" : "DepthToSpace", why);
            if (!inner) return MatchResult::failure(why);
            const ir::Node& dts = d2s ? n : *inner;
            if (dts.attrString("mode", "DCR") != "DCR")
              return MatchResult::failure("DepthToSpace in CRD mode is not SpaceToDepth's inverse");
            if (n.attrInt("blocksize", 0) != inner->attrInt("blocksize", -1))
              return MatchResult::failure("the block sizes differ");
            return pairIsIdentity(n, inner);
          });
  // OptionalGetElement(Optional(x)) -> x
  addRule(r, "optional_pair", "OptionalGetElement(Optional(x)) -> x", {"OptionalGetElement"},
          [](ir::Node& n, const MatchContext&) {
            Text why;
            ir::Node* inner = innerOp(n, "Optional", why);
            if (!inner) return MatchResult::failure(why);
            if (!inner->input(0)) return MatchResult::failure("the Optional is empty");
            return pairIsIdentity(n, inner);
          });
}

Rules rules() {
  Rules r;
  addLayoutInverses(r);
  addValueInverses(r);
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeEliminateInversePairs() {
  return std::make_unique<PatternPass>(catalogInfo("eliminate_inverse_pairs"), rules());
}

}  // namespace passlab::passes
