// hoist_cast_reshape — a Cast or Reshape moved through elementwise ops when it meets its inverse.
//
// Rule reshape_pair_through_elementwise:
//   Before:  t = Reshape(x, s); u = Mul(Relu(t), 2); y = Reshape(u, shape of x)
//   After:   y = Mul(Relu(x), 2)
//   Algebra: an elementwise op does not care how its elements are arranged;
//   a reshape and the reshape back to x's shape cancel once nothing between
//   them depends on the arrangement. Side operands must be scalars or
//   constants of the full intermediate shape (reshaped to x's shape, folded).
// Rule cast_pair_through_elementwise:
//   Before:  t = Cast(x: float16, to = float); u = Relu(t); y = Cast(u, to = float16)
//   After:   y = Relu(x)
//   Algebra: the first Cast is exact (every A value is a B value), and the ops
//   between only reorder, negate, clamp or round to integers (Relu, Neg, Abs,
//   Floor, Ceil, Round, Sign, Max/Min/Clip with constants exactly
//   representable in A), so each intermediate value is an A value and the
//   chain computes the same in A, bit for bit. Arithmetic (Add, Mul, Exp,
//   ...) rounds differently in A and is not moved.
// Conditions (both): every value between the pair feeds only the next node
// (not graph outputs, not read in subgraphs); at most 64 ops; the chain ends
// at a Reshape/Flatten/Squeeze/Unsqueeze whose result has x's exact shape
// (static or the same symbols) or at a Cast back to x's type; A is float16,
// bfloat16 or float.
// Exact. Opsets: 1-28 (Cast's `to` is an int from opset 6; Reshape's shape an
// input from 5 — both read from the nodes as they are).
#include <algorithm>
#include <cmath>
#include <functional>

#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"

namespace passlab::passes {

namespace {

bool isReshapeLike(const ir::Node& n) {
  const std::string& op = n.opType();
  return n.domain().empty() &&
         (op == "Reshape" || op == "Flatten" || op == "Squeeze" || op == "Unsqueeze");
}

// Both values have known shapes of the same rank with equal dims (static or the same symbol).
bool sameTensorShape(const ir::Value* a, const ir::Value* b) {
  if (!a || !b || !a->type().hasShape() || !b->type().hasShape()) return false;
  const auto& da = a->type().shape()->dims();
  const auto& db = b->type().shape()->dims();
  if (da.size() != db.size()) return false;
  for (size_t i = 0; i < da.size(); ++i)
    if (!da[i].sameAs(db[i])) return false;
  return true;
}

struct Step {
  ir::Node* node;
  std::vector<std::optional<ir::Tensor>> folded;  // per input: replacement constant
};

// Walks from `start`'s output through single-consumer elementwise ops until `isEnd`;
// `side` vets and rewrites each constant side operand.
template <class End, class Side, class Op>
MatchResult walk(ir::Node& start, End isEnd, Side side, Op opOk, std::vector<Step>& chain,
                 ir::Node*& end) {
  ir::Value* cur = start.output(0);
  Text why;
  for (int k = 0; k < 64; ++k) {
    ir::Node* next = rewrite::soleConsumer(cur, &why);
    if (!next) return MatchResult::failure(Text::of("on the way to the inverse op: %1", why));
    if (next->owner() != start.owner()) return MatchResult::failure("the chain enters a subgraph");
    if (isEnd(*next)) {
      end = next;
      return MatchResult::success({}, [](rewrite::Rewriter&) {});
    }
    if (!fusion::isElementwise(*next) || next->opType() == "Identity")
      return MatchResult::failure(Text::of("the chain meets %1", fusion::nodeText(*next)));
    if (Text w = opOk(*next); !w.empty()) return MatchResult::failure(w);
    Step s{next, std::vector<std::optional<ir::Tensor>>(next->inputCount())};
    for (size_t i = 0; i < next->inputCount(); ++i) {
      ir::Value* in = next->input(i);
      if (!in || in == cur) continue;
      auto c = rewrite::constantValue(in);
      if (!c)
        return MatchResult::failure(Text::of("%1 has a non-constant side operand", next->opType()));
      Text w;
      s.folded[i] = side(*c, w);
      if (!w.empty()) return MatchResult::failure(w);
    }
    chain.push_back(std::move(s));
    cur = next->output(0);
  }
  return MatchResult::failure("no inverse op within 64 ops");
}

// `typeOf(old)` is the type of the node that replaces chain node `old`.
MatchResult rebuildChain(ir::Node& start, ir::Node* end, const std::vector<Step>& chain,
                         std::function<ir::Type(const ir::Node&)> typeOf) {
  if (chain.empty())
    return MatchResult::failure("nothing between the pair (other passes merge it)");
  std::vector<ir::Node*> nodes{&start};
  for (const auto& s : chain) nodes.push_back(s.node);
  nodes.push_back(end);
  if (Text w = rewrite::Rewriter::canReplace(end->output(0), chain.back().node->output(0));
      !w.empty() && end->output(0)->isGraphOutput())
    return MatchResult::failure(w);
  return MatchResult::success(nodes, [&start, end, chain, nodes, typeOf](rewrite::Rewriter& rw) {
    std::vector<const ir::Node*> from(nodes.begin(), nodes.end());
    ir::Value* old = start.output(0);
    ir::Value* cur = start.input(0);
    for (const auto& s : chain) {
      std::vector<ir::Value*> ins = s.node->inputs();
      for (size_t i = 0; i < ins.size(); ++i) {
        if (ins[i] == old)
          ins[i] = cur;
        else if (s.folded[i])
          ins[i] =
              addConstant(rw, *end->owner(), end, ins[i]->name() + "_moved", *s.folded[i], from);
      }
      ir::Node* n = fusion::addDerived(rw, s.node->opType(), ins, end, from, s.node);
      ir::Type type = typeOf(*s.node);
      if (!type.isUndefined()) rw.setType(n->output(0), type);
      old = s.node->output(0);
      cur = n->output(0);
    }
    fusion::replaceAndErase(rw, end->output(0), cur, nodes);
  });
}

MatchResult reshapePair(ir::Node& r1, const MatchContext&) {
  if (!isReshapeLike(r1)) return MatchResult::failure("not a reshape");
  ir::Value* x = r1.input(0);
  auto xd = fusion::dimsOf(x);
  const ir::Type& xt = x ? x->type() : ir::Type();
  if (!xt.isTensor() || !xt.hasShape()) return MatchResult::failure("x's shape is unknown");
  auto td = fusion::dimsOf(r1.output(0));
  std::vector<Step> chain;
  ir::Node* end = nullptr;
  MatchResult m = walk(
      r1, [](const ir::Node& n) { return isReshapeLike(n); },
      [&](const ir::Tensor& c, Text& w) -> std::optional<ir::Tensor> {
        if (c.numel() == 1 && c.rank() <= 1) return std::nullopt;  // a scalar stays
        if (!td || !xd || c.dims() != *td) {
          w = "a side operand is neither a scalar nor of the reshaped shape";
          return std::nullopt;
        }
        return ir::Tensor(c.dtype(), *xd, c.buffer());
      },
      [](const ir::Node& n) { return Text(); }, chain, end);
  if (!m.matched()) return m;
  if (!sameTensorShape(end->output(0), x))
    return MatchResult::failure("the last reshape does not restore x's shape");
  // Every node of the chain now computes on x's shape (side operands are
  // scalars or reshaped to it), in its own element type.
  return rebuildChain(r1, end, chain, [shape = xt.shape()](const ir::Node& old) {
    ir::DataType dt = elemTypeOf(old.output(0));
    return dt == ir::DataType::kUndefined ? ir::Type() : ir::Type::tensor(dt, shape);
  });
}

// True when every element of `c` (in type B) is exactly representable in type A.
std::optional<ir::Tensor> toType(const ir::Tensor& c, ir::DataType a, Text& w) {
  auto v = fusion::floatValues(c);
  if (!v) {
    w = "a side operand is not a float constant";
    return std::nullopt;
  }
  ir::Tensor t = fusion::floatTensor(a, c.dims(), *v);
  auto back = fusion::floatValues(t);
  for (size_t i = 0; i < v->size(); ++i)
    if ((*back)[i] != (*v)[i] && !(std::isnan((*back)[i]) && std::isnan((*v)[i]))) {
      w = Text::of("the constant %1 is not exactly representable in %2", std::to_string((*v)[i]),
                   std::string(ir::dtypeName(a)));
      return std::nullopt;
    }
  return t;
}

MatchResult castPair(ir::Node& c1, const MatchContext&) {
  ir::DataType a = elemTypeOf(c1.input(0));
  ir::DataType b = static_cast<ir::DataType>(c1.attrInt("to", 0));
  if (a != ir::DataType::kFloat16 && a != ir::DataType::kBFloat16 && a != ir::DataType::kFloat)
    return MatchResult::failure("the source type is not float16, bfloat16 or float");
  if (!castIsExact(a, b) || a == b) return MatchResult::failure("the Cast is not a widening cast");
  std::vector<Step> chain;
  ir::Node* end = nullptr;
  MatchResult m = walk(
      c1,
      [a](const ir::Node& n) {
        return n.domain().empty() && n.opType() == "Cast" &&
               n.attrInt("to", 0) == static_cast<int64_t>(a);
      },
      [a](const ir::Tensor& c, Text& w) -> std::optional<ir::Tensor> { return toType(c, a, w); },
      [](const ir::Node& n) {
        static const std::vector<std::string> ok = {"Relu",  "Neg",  "Abs", "Floor", "Ceil",
                                                    "Round", "Sign", "Max", "Min",   "Clip"};
        if (std::find(ok.begin(), ok.end(), n.opType()) == ok.end())
          return Text::of("%1 rounds differently in the narrower type", n.opType());
        return Text();
      },
      chain, end);
  if (!m.matched()) return m;
  // The same shapes as before (a side operand may broadcast), in type A.
  return rebuildChain(c1, end, chain, [a](const ir::Node& old) {
    const ir::Type& t = old.output(0)->type();
    return ir::Type::tensor(a, t.isTensor() ? t.shape() : std::nullopt);
  });
}

fusion::Rules rules() {
  fusion::Rules r;
  // Reshape(f(Reshape(x)), shape of x) -> f(x)   (f elementwise; constants reshaped)
  fusion::addRule(r, "reshape_pair_through_elementwise", "Reshape(f(Reshape(x)), shape(x)) -> f(x)",
                  {"Reshape", "Flatten", "Squeeze", "Unsqueeze"}, reshapePair);
  // Cast(f(Cast(x: A, B)), A) -> f(x) in A   (f order-preserving; constants exact in A)
  fusion::addRule(r, "cast_pair_through_elementwise", "Cast(f(Cast(x: A -> B)), A) -> f(x)",
                  {"Cast"}, castPair);
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeHoistCastReshape() {
  return std::make_unique<PatternPass>(catalogInfo("hoist_cast_reshape"), rules());
}

}  // namespace passlab::passes
