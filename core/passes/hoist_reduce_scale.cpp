// hoist_reduce_scale — a scalar scale applied after the reduction instead of to every element
// before it.
//
// Before:  t = Mul(x, c); y = ReduceSum(t, axes)          (c a constant scalar)
// After:   u = ReduceSum(x, axes); y = Mul(u, c)
// Before:  t = BitShift(x, s, direction = "LEFT"); y = ReduceSum(t, axes)
// After:   y = BitShift(ReduceSum(x, axes), s, direction = "LEFT")
// Algebra: sum_i (c * x_i) = c * sum_i x_i (and mean likewise): the multiply
// runs on the reduced tensor, not on every element. Exact where it is:
//   - integers (ReduceSum only): two's-complement products and sums wrap
//     modulo 2^n, and multiplication distributes over addition modulo 2^n;
//     ReduceMean of integers divides with truncation, which does not commute;
//   - floats with c a power of two: every product and every partial sum is
//     exactly c times the one without c (no overflow or subnormal results
//     assumed), so the roundings are the same — bit for bit;
//   - floats with any other c round differently (last bits): only with the
//     option allow_rounding=true (then changesNumerics).
//   - BitShift LEFT by s is multiplication by 2^s modulo 2^n (unsigned),
//     so it commutes with ReduceSum; RIGHT floors each element and does not.
// Conditions: t feeds only the reduction (not a graph output, not read in a
// subgraph); c (s) is a constant with one element whose broadcast keeps x's
// shape; the new scale is a scalar (any rank the reduction leaves works).
// Opsets: 1-28 (reduce axes attribute/input handled by copying the node;
// BitShift from 11).
#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"

namespace passlab::passes {

namespace {

fusion::Rules rules() {
  fusion::Rules r;
  // ReduceSum(x * c) -> ReduceSum(x) * c; ReduceMean likewise   (c scalar; exact cases above)
  fusion::addRule(
      r, "reduce_of_scaled", "Reduce{Sum,Mean}(x * c) -> Reduce(x) * c, c scalar",
      {"ReduceSum", "ReduceMean"}, [](ir::Node& red, const MatchContext& c) {
        ir::Node* mul = producerOp(red.input(0), "Mul");
        if (!mul) return MatchResult::failure("the input is not produced by a Mul");
        if (Text why = rewrite::whyNotSoleConsumer(red.input(0)); !why.empty())
          return MatchResult::failure(Text::of("Mul output %1", why));
        ir::Value* x = nullptr;
        ir::Value* cv = nullptr;
        for (size_t i = 0; i < 2 && !x; ++i)
          if (fusion::scalarValue(mul->input(1 - i)) && !rewrite::isConstant(mul->input(i))) {
            x = mul->input(i);
            cv = mul->input(1 - i);
          }
        if (!x) return MatchResult::failure("the Mul is not by a constant scalar");
        if (!rewrite::broadcastKeepsShape(x, cv))
          return MatchResult::failure("the scalar's broadcast widens x");
        ir::DataType dt = elemTypeOf(x);
        double cval = *fusion::scalarValue(cv);
        bool allow = c.boolOption("allow_rounding", false);
        if (ir::isInteger(dt)) {
          if (red.opType() == "ReduceMean")
            return MatchResult::failure(
                "ReduceMean of integers truncates; the scale does not commute");
        } else if (fusion::isFloatType(dt)) {
          if (!fusion::isPowerOfTwo(cval) && !allow)
            return MatchResult::failure(
                Text::of("the scale %1 is not a power of two, so the sum would round differently "
                         "(option allow_rounding=true allows it)",
                         std::to_string(cval)));
        } else {
          return MatchResult::failure("x is of an unsupported type");
        }
        auto ct = rewrite::constantValue(cv);
        ir::Tensor scalar(ct->dtype(), {}, ct->buffer());
        return MatchResult::success({&red, mul}, [&red, mul, x, scalar](rewrite::Rewriter& rw) {
          std::vector<ir::Value*> ins = red.inputs();
          ins[0] = x;
          ir::Node* nr =
              fusion::addDerived(rw, red.opType(), ins, &red, {mul, &red}, &red, {red.output(0)});
          ir::Value* sc = addConstant(rw, *red.owner(), &red, "scale", scalar, {mul});
          ir::Node* nm = fusion::addDerived(rw, "Mul", {nr->output(0), sc}, &red, {mul, &red},
                                            nullptr, {red.output(0)});
          fusion::replaceAndErase(rw, red.output(0), nm->output(0), {&red, mul});
        });
      });
  // ReduceSum(BitShift(x, s, LEFT)) -> BitShift(ReduceSum(x), s, LEFT)   (unsigned, s scalar)
  fusion::addRule(
      r, "reduce_of_shifted", "ReduceSum(x << s) -> ReduceSum(x) << s, s scalar", {"ReduceSum"},
      [](ir::Node& red, const MatchContext&) {
        ir::Node* sh = producerOp(red.input(0), "BitShift");
        if (!sh) return MatchResult::failure("the input is not produced by a BitShift");
        if (Text why = rewrite::whyNotSoleConsumer(red.input(0)); !why.empty())
          return MatchResult::failure(Text::of("BitShift output %1", why));
        if (sh->attrString("direction", "") != "LEFT")
          return MatchResult::failure(
              "a RIGHT shift floors each element; the sum does not commute");
        if (!fusion::scalarValue(sh->input(1)) || rewrite::isConstant(sh->input(0)))
          return MatchResult::failure("the shift amount is not a constant scalar");
        if (!rewrite::broadcastKeepsShape(sh->input(0), sh->input(1)))
          return MatchResult::failure("the shift's broadcast widens x");
        auto st = rewrite::constantValue(sh->input(1));
        ir::Tensor scalar(st->dtype(), {}, st->buffer());
        return MatchResult::success({&red, sh}, [&red, sh, scalar](rewrite::Rewriter& rw) {
          std::vector<ir::Value*> ins = red.inputs();
          ins[0] = sh->input(0);
          ir::Node* nr =
              fusion::addDerived(rw, "ReduceSum", ins, &red, {sh, &red}, &red, {red.output(0)});
          ir::Value* sc = addConstant(rw, *red.owner(), &red, "shift", scalar, {sh});
          ir::Node* ns = fusion::addDerived(rw, "BitShift", {nr->output(0), sc}, &red, {sh, &red},
                                            sh, {red.output(0)});
          fusion::replaceAndErase(rw, red.output(0), ns->output(0), {&red, sh});
        });
      });
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeHoistReduceScale() {
  return std::make_unique<PatternPass>(catalogInfo("hoist_reduce_scale"), rules());
}

}  // namespace passlab::passes
