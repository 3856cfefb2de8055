// simplify_op_chains — redundancy kind 3: ops made meaningless by their position.
//
// Before:  t = Reshape(x, s1); y = Reshape(t, s2)
// After:   y = Reshape(x, s2)
// Rules (one row each, the rule as its comment). Unused results (dead nodes,
// unused initializers) are the other half of this kind: eliminate_dead_nodes.
// Conditions: a rule that consumes the inner node of a chain needs that node's
// result to have no other consumer, not to be a graph output and not to be
// read inside a subgraph (so the pass only ever removes nodes); the
// idempotent-op rule keeps the inner node and drops the outer one, so it needs
// neither. A reshape-like op only depends on the element order and count,
// which Reshape/Flatten/Squeeze/Unsqueeze all keep, so the inner one can be
// skipped, except where the outer Reshape copies a dim (a 0 in its target).
// Exact: every rule computes the same bits. Cast chains merge only when the
// intermediate type holds every value of the source type (int8 -> int32 ->
// float is int8 -> float; float -> int32 -> int64 truncates and is kept).
// Opsets: 1-28; Squeeze/Unsqueeze axes are an attribute before 13 and an
// input from 13 (read and written accordingly); Reshape takes its shape as an
// input from opset 5 (Flatten chains need it); Clip bounds are inputs from 11.
#include <algorithm>
#include <string_view>

#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"
#include "core/passes/rule_helpers.h"

namespace passlab::passes {

namespace {

using rewrite::addRule;
using rewrite::Rules;

bool isReshapeLike(const ir::Node* n) {
  if (!n || !n->domain().empty()) return false;
  const std::string& op = n->opType();
  return op == "Reshape" || op == "Flatten" || op == "Squeeze" || op == "Unsqueeze";
}

// The inner node of a chain: the producer of `root`'s input 0 when `accept`
// says yes and its result feeds only `root`.
ir::Node* innerNode(ir::Node& root, const std::function<bool(const ir::Node*)>& accept, Text& why) {
  ir::Value* t = root.input(0);
  ir::Node* inner = t ? t->producer() : nullptr;
  if (!inner || !accept(inner)) {
    why = "the input is not produced by a matching op";
    return nullptr;
  }
  why = rewrite::whyNotSoleConsumer(t);
  return why.empty() ? inner : nullptr;
}

// Rewires `root` to read `x` instead of the chain's intermediate, and removes the inner node.
MatchResult bypassInner(ir::Node& root, ir::Node* inner) {
  ir::Value* x = inner->input(0);
  return MatchResult::success({&root, inner}, [&root, inner, x](rewrite::Rewriter& rw) {
    rw.setInput(&root, 0, x);
    removeWithConstants(rw, inner);
  });
}

// Squeeze/Unsqueeze axes, from the attribute or the constant input.
std::optional<std::vector<int64_t>> axesOf(const ir::Node& n) {
  return rewrite::intsFromAttrOrInput(n, "axes", 1);
}

// Two nodes of one axes op in a chain: op(op(x, first), second).
struct ChainedAxes {
  ir::Node* inner = nullptr;
  std::vector<int64_t> first, second;  // the inner node's axes, the outer node's
  int64_t rank = 0;                    // x's rank
};

// Fills `ch` for the outer node `n` of an `op` chain; the reason it cannot,
// else "".
Text chainedAxes(ir::Node& n, std::string_view op, ChainedAxes& ch) {
  Text why;
  ch.inner = innerNode(
      n, [op](const ir::Node* p) { return p->domain().empty() && p->opType() == op; }, why);
  if (!ch.inner) return why;
  auto a1 = axesOf(*ch.inner), a2 = axesOf(n);
  if (!a1 || !a2) return "the axes are not constant";
  auto r0 = rankOf(ch.inner->input(0));
  if (!r0) return "the rank of the input is unknown";
  ch.first = std::move(*a1);
  ch.second = std::move(*a2);
  ch.rank = *r0;
  return "";
}

// The sorted axes of one node doing both steps: `outer` (normalized, positions
// in a space of `rank` dims) and `inner` (normalized positions among the dims
// of that space that `outer` does not name).
std::vector<int64_t> mergeAxes(const std::vector<int64_t>& outer, const std::vector<int64_t>& inner,
                               int64_t rank) {
  std::vector<int64_t> keep;
  for (int64_t i = 0; i < rank; ++i)
    if (std::find(outer.begin(), outer.end(), i) == outer.end()) keep.push_back(i);
  std::vector<int64_t> merged = outer;
  for (int64_t p : inner) merged.push_back(keep[static_cast<size_t>(p)]);
  std::sort(merged.begin(), merged.end());
  return merged;
}

// Rewrites the outer node of a chain to take `merged` axes (attribute, or
// input from opset 13) and read the inner node's input; drops the inner node.
MatchResult mergeIntoOuter(ir::Node& n, ir::Node* inner, std::vector<int64_t> merged,
                           bool asInput) {
  return MatchResult::success({&n, inner}, [&n, inner, merged, asInput](rewrite::Rewriter& rw) {
    setIntsParam(rw, &n, "axes", 1, asInput, merged);
    rw.setInput(&n, 0, inner->input(0));
    removeWithConstants(rw, inner);
  });
}

// Chains of reshape-like ops that collapse into one.
void addReshapeChains(Rules& r) {
  // Reshape(Reshape|Flatten|Squeeze|Unsqueeze(x), s) -> Reshape(x, s)
  // (a 0 in s copies a dim: only where x and the intermediate agree on it)
  addRule(r, "reshape_of_reshape", "Reshape(reshape-like(x), s) -> Reshape(x, s)", {"Reshape"},
          [](ir::Node& n, const MatchContext&) {
            Text why;
            ir::Node* inner = innerNode(n, isReshapeLike, why);
            if (!inner) return MatchResult::failure(why);
            if (n.attrInt("allowzero", 0) == 0) {
              auto s = n.hasAttr("shape") ? std::optional(n.attrInts("shape"))
                                          : constantInts(n.input(1));
              if (!s)
                return MatchResult::failure(
                    "the target shape is not constant (a 0 in it would copy a dim)");
              for (size_t k = 0; k < s->size(); ++k) {
                if ((*s)[k] != 0) continue;
                const ir::Value* x = inner->input(0);
                const ir::Value* t = inner->output(0);
                auto rx = rankOf(x), rt = rankOf(t);
                if (!rx || !rt || static_cast<int64_t>(k) >= *rx ||
                    static_cast<int64_t>(k) >= *rt ||
                    !(*x->type().shape())[k].sameAs((*t->type().shape())[k]))
                  return MatchResult::failure(Text::of(
                      "the target copies dim %1, which the skipped op changes", std::to_string(k)));
              }
            }
            return bypassInner(n, inner);
          });
  // Flatten(Reshape|Flatten|Squeeze|Unsqueeze(x)) -> Reshape(x, [a, b])
  // (the result [a, b] has at most one dim that is not static; it becomes -1)
  addRule(
      r, "flatten_of_reshape", "Flatten(reshape-like(x)) -> Reshape(x, [a, b])", {"Flatten"},
      [](ir::Node& n, const MatchContext& c) {
        if (c.opset < 5)
          return MatchResult::failure("Reshape takes its shape as an input from opset 5");
        Text why;
        ir::Node* inner = innerNode(n, isReshapeLike, why);
        if (!inner) return MatchResult::failure(why);
        ir::Value* y = n.output(0);
        if (rankOf(y) != 2) return MatchResult::failure("the result shape is unknown");
        std::vector<int64_t> target;
        int unknown = 0;
        for (const ir::Dim& d : y->type().shape()->dims()) {
          target.push_back(d.isStatic() ? d.value() : -1);
          unknown += d.isStatic() ? 0 : 1;
        }
        if (unknown > 1) return MatchResult::failure("both result dims are dynamic");
        ir::Value* x = inner->input(0);
        return MatchResult::success({&n, inner}, [&n, inner, x, y, target](rewrite::Rewriter& rw) {
          ir::Graph& g = *n.owner();
          ir::Value* shape = addConstant(rw, g, &n, "shape", ir::Tensor::fromInt64s(target), {&n});
          ir::Node* reshape = rw.addNode(g, "Reshape", "", {x, shape}, 1, &n, "", {&n, inner});
          rw.setType(reshape->output(0), y->type());
          rw.replaceAllUsesWith(y, reshape->output(0));
          removeWithConstants(rw, &n);
          removeWithConstants(rw, inner);
        });
      });
  // Unsqueeze(Unsqueeze(x, a1), a2) -> Unsqueeze(x, a1 and a2 placed in the result)
  addRule(r, "unsqueeze_of_unsqueeze", "Unsqueeze(Unsqueeze(x, a1), a2) -> Unsqueeze(x, a)",
          {"Unsqueeze"}, [](ir::Node& n, const MatchContext& c) {
            ChainedAxes ch;
            if (Text why = chainedAxes(n, "Unsqueeze", ch); !why.empty())
              return MatchResult::failure(why);
            int64_t mid = ch.rank + static_cast<int64_t>(ch.first.size());
            int64_t fin = mid + static_cast<int64_t>(ch.second.size());
            // a2 are positions of the result; a1 positions of the intermediate.
            auto n2 = normalizeAxes(ch.second, fin), n1 = normalizeAxes(ch.first, mid);
            if (!n1 || !n2) return MatchResult::failure("the axes are out of range");
            return mergeIntoOuter(n, ch.inner, mergeAxes(*n2, *n1, fin), c.opset >= 13);
          });
  // Squeeze(Squeeze(x, a1), a2) -> Squeeze(x, a1 and a2 as positions of x)
  addRule(r, "squeeze_of_squeeze", "Squeeze(Squeeze(x, a1), a2) -> Squeeze(x, a)", {"Squeeze"},
          [](ir::Node& n, const MatchContext& c) {
            ChainedAxes ch;
            if (Text why = chainedAxes(n, "Squeeze", ch); !why.empty())
              return MatchResult::failure(why);
            if (ch.first.empty() || ch.second.empty())
              return MatchResult::failure("a Squeeze without axes removes every dim of size 1");
            // a1 are positions of x; a2 positions of the intermediate.
            auto n1 = normalizeAxes(ch.first, ch.rank);
            auto n2 = normalizeAxes(ch.second, ch.rank - static_cast<int64_t>(ch.first.size()));
            if (!n1 || !n2) return MatchResult::failure("the axes are out of range");
            return mergeIntoOuter(n, ch.inner, mergeAxes(*n1, *n2, ch.rank), c.opset >= 13);
          });
}

// Repeated or absorbing elementwise ops, casts, and nested concats.
void addValueChains(Rules& r) {
  // f(f(x)) -> f(x) for the idempotent f: Relu, Floor, Ceil, Round, Abs, Sign
  // (the outer node goes; the inner one keeps its other consumers)
  addRule(r, "idempotent_twice", "f(f(x)) -> f(x) for Relu, Floor, Ceil, Round, Abs, Sign",
          {"Relu", "Floor", "Ceil", "Round", "Abs", "Sign"}, [](ir::Node& n, const MatchContext&) {
            ir::Node* inner = producerOp(n.input(0), n.opType());
            if (!inner || !n.domain().empty())
              return MatchResult::failure(Text::of("the input is not produced by %1", n.opType()));
            return forwardValue(n, inner->output(0));
          });
  // Clip(Clip(x, lo, hi), lo, hi) -> Clip(x, lo, hi)   (the same bounds)
  addRule(r, "clip_twice", "Clip(Clip(x, lo, hi), lo, hi) -> Clip(x, lo, hi)", {"Clip"},
          [](ir::Node& n, const MatchContext&) {
            ir::Node* inner = producerOp(n.input(0), "Clip");
            if (!inner) return MatchResult::failure("the input is not produced by Clip");
            for (const char* a : {"min", "max"}) {
              const ir::Attribute* x = n.attr(a);
              const ir::Attribute* y = inner->attr(a);
              if ((x == nullptr) != (y == nullptr) || (x && x->f != y->f))
                return MatchResult::failure(Text::of("the %1 attributes differ", a));
            }
            for (size_t i = 1; i <= 2; ++i) {
              const ir::Value* x = n.input(i);
              const ir::Value* y = inner->input(i);
              if (x == y) continue;
              auto tx = rewrite::constantValue(x), ty = rewrite::constantValue(y);
              if (!tx || !ty || !tx->sameData(*ty))
                return MatchResult::failure("the bounds are not the same");
            }
            return forwardValue(n, inner->output(0));
          });
  // Cast(Cast(x: A, to=B), to=C) -> Cast(x, to=C) when B holds every value of A exactly
  // (C == A is the inverse pair of eliminate_inverse_pairs)
  addRule(r, "cast_of_widening_cast", "Cast(Cast(x: A, B), C) -> Cast(x, C) when A fits in B",
          {"Cast"}, [](ir::Node& n, const MatchContext&) {
            Text why;
            ir::Node* inner = innerNode(
                n, [](const ir::Node* p) { return p->domain().empty() && p->opType() == "Cast"; },
                why);
            if (!inner) return MatchResult::failure(why);
            ir::DataType a = elemTypeOf(inner->input(0));
            auto b = static_cast<ir::DataType>(inner->attrInt("to", 0));
            auto cto = static_cast<ir::DataType>(n.attrInt("to", 0));
            if (a == ir::DataType::kUndefined)
              return MatchResult::failure("the source type is unknown");
            if (cto == a)
              return MatchResult::failure("it casts back to the source type (an inverse pair)");
            if (!castIsExact(a, b))
              return MatchResult::failure(Text::of("%1 -> %2 is not exact",
                                                   std::string(ir::dtypeName(a)),
                                                   std::string(ir::dtypeName(b))));
            return bypassInner(n, inner);
          });
  // Abs(Neg(x)) -> Abs(x)
  addRule(r, "abs_of_neg", "Abs(Neg(x)) -> Abs(x)", {"Abs"}, [](ir::Node& n, const MatchContext&) {
    Text why;
    ir::Node* inner = innerNode(
        n, [](const ir::Node* p) { return p->domain().empty() && p->opType() == "Neg"; }, why);
    if (!inner) return MatchResult::failure(why);
    return bypassInner(n, inner);
  });
  // Concat(a, Concat(b, c), d) -> Concat(a, b, c, d)   (the same axis)
  addRule(r, "concat_of_concat", "Concat(a, Concat(b, c), d) -> Concat(a, b, c, d)", {"Concat"},
          [](ir::Node& n, const MatchContext&) {
            auto rank = rankOf(n.output(0));
            auto axisOf = [&](const ir::Node& c) -> std::optional<int64_t> {
              int64_t a = c.attrInt("axis", 1);
              if (a >= 0) return a;
              if (!rank) return std::nullopt;
              return a + *rank;
            };
            auto axis = axisOf(n);
            std::vector<ir::Value*> flat;
            std::vector<ir::Node*> inners;
            Text lastWhy = "no input is produced by a Concat";
            for (ir::Value* in : n.inputs()) {
              ir::Node* p = producerOp(in, "Concat");
              Text why = p ? rewrite::whyNotSoleConsumer(in) : "";
              if (p && why.empty() && axis && axisOf(*p) == axis) {
                inners.push_back(p);
                flat.insert(flat.end(), p->inputs().begin(), p->inputs().end());
              } else {
                if (p) lastWhy = why.empty() ? Text("the inner Concat uses another axis") : why;
                flat.push_back(in);
              }
            }
            if (inners.empty()) return MatchResult::failure(lastWhy);
            std::vector<ir::Node*> nodes{&n};
            nodes.insert(nodes.end(), inners.begin(), inners.end());
            return MatchResult::success(nodes, [&n, flat, inners](rewrite::Rewriter& rw) {
              for (size_t i = 0; i < flat.size(); ++i) rw.setInput(&n, i, flat[i]);
              for (ir::Node* p : inners) removeWithConstants(rw, p);
            });
          });
}

Rules rules() {
  Rules r;
  addReshapeChains(r);
  addValueChains(r);
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeSimplifyOpChains() {
  return std::make_unique<PatternPass>(catalogInfo("simplify_op_chains"), rules());
}

}  // namespace passlab::passes
