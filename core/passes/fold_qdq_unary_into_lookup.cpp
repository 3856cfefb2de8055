// fold_qdq_unary_into_lookup — an activation, or any chain of elementwise float32
// ops, between a DequantizeLinear and a QuantizeLinear as one 8-bit table
// lookup (non-standard, ai.passlab).
//
// Before:  d = DequantizeLinear(xq, sx, zx); h = HardSwish(d); yq = QuantizeLinear(h, sy, zy)
// After:   yq = ai.passlab.QLinearLookup(xq, table)     (table: 256 values of yq's type)
// Algebra: with one scale and zero point each, yq is a function of xq alone,
//   which has 256 values; table[v - lowest] = Q(f(DQ(v))) computed as the CPU
//   executor computes the three ops (float32: (v - zx) * sx, the activation's
//   formula, v / sy rounded half to even, + zy, saturated), so the lookup gives
//   the QDQ form's result bit for bit. ONNX Runtime runs its QLinearSigmoid and
//   QLinearLeakyRelu the same way.
// Activations: HardSwish, HardSigmoid (alpha, beta), Relu, LeakyRelu (alpha),
//   on float32.
// Conditions: non-standard output allowed; xq uint8 or int8; both scales one
//   constant float32 value, both zero points one constant 8-bit value (the
//   QuantizeLinear's present). The DequantizeLinear and the activation stay
//   when something else reads them (the lookup replaces the QuantizeLinear's
//   result only).
// General rule (qdq_chain_lookup): any sub-DAG of elementwise float32 ops
//   between the two (x * Clip(x + 3, 0, 6) / 6, x * Sigmoid(x), ...) whose only
//   variable input is the DequantizeLinear's output, the other inputs constants
//   of one value: the table is the DequantizeLinear, the chain and the
//   QuantizeLinear run on the 256 inputs through the pass's Evaluator (the
//   executor's kernels), so it is the QDQ form's result bit for bit; nodes
//   read elsewhere stay, as above (qdq_chain_table.h).
// Exact on PassLab's executor (the table is its own arithmetic); another
// runtime's float32 activation could round one element differently, and so
// could PassLab's on another instruction set for the ops whose vector paths
// differ by an ulp between AVX-512, AVX2 and SSE (Sigmoid, Tanh, Exp: the
// table is that of the machine that ran the pass).
#include <cmath>
#include <limits>

#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"
#include "core/passes/passlab_fused_utils.h"
#include "core/passes/qdq_activation.h"
#include "core/passes/qdq_chain_table.h"
#include "core/passes/rule_helpers.h"

namespace passlab::passes {

namespace {

namespace ops = ir::passlab_ops;

bool is8Bit(ir::DataType t) {
  return t == ir::DataType::kUInt8 || t == ir::DataType::kInt8;
}

// One constant float32 value.
std::optional<float> scaleOf(const ir::Value* v) {
  if (!v || fusion::constDtype(v) != ir::DataType::kFloat) return std::nullopt;
  auto s = fusion::scalarValue(v);
  if (!s) return std::nullopt;
  return static_cast<float>(*s);
}

// One constant 8-bit value and its type; an absent zero point is 0 of `absentType`.
struct ZeroPoint {
  float value = 0;
  ir::DataType type = ir::DataType::kUndefined;
};
std::optional<ZeroPoint> zeroOf(const ir::Value* v, ir::DataType absentType) {
  if (!v) return ZeroPoint{0, absentType};
  const ir::DataType t = fusion::constDtype(v);
  auto z = fusion::scalarValue(v);
  if (!z || !is8Bit(t)) return std::nullopt;
  return ZeroPoint{static_cast<float>(*z), t};
}

using Activation = QdqActivation;

// QuantizeLinear of one float32 value as the CPU kernel computes it
// (core/exec/cpu/quantize.cpp): v / s in float32, rounded half to even by
// adding and subtracting 1.5 * 2^23 within the saturation range, + z, saturated.
template <class Q>
Q quantize(float x, float s, float z) {
  const float lo = static_cast<float>(std::numeric_limits<Q>::min());
  const float hi = static_cast<float>(std::numeric_limits<Q>::max());
  const float q = x / s;
  const float c = std::min(std::max(q, lo - z - 1.0f), hi - z + 1.0f);
  const float r = (c + 12582912.0f) - 12582912.0f;
  const float v = std::min(std::max(r + z, lo), hi);
  return static_cast<Q>(static_cast<int32_t>(q != q ? 0.0f : v));
}

// The 256 results, in the order of xq's values from its type's lowest.
template <class Q>
ir::Tensor table(ir::DataType xType, float sx, float zx, const Activation& f, float sy, float zy,
                 ir::DataType yType) {
  const int lowest = xType == ir::DataType::kInt8 ? -128 : 0;
  std::vector<Q> t(ops::kLookupEntries);
  for (size_t i = 0; i < t.size(); ++i) {
    const float x = (static_cast<float>(lowest + static_cast<int>(i)) - zx) * sx;
    t[i] = quantize<Q>(f(x), sy, zy);
  }
  return ir::Tensor::fromVector<Q>(yType, {static_cast<int64_t>(t.size())}, t);
}

// The per-tensor conditions on the two ends: "" when met, else why not.
std::string whyNotPerTensor(const ir::Node& dq, const ir::Node& q) {
  const ir::DataType xType = elemTypeOf(dq.input(0));
  if (!is8Bit(xType)) return "the dequantized input is not 8-bit";
  if (!scaleOf(dq.input(1)) || !scaleOf(q.input(1)))
    return "a scale is not one constant float32 value";
  auto zx = zeroOf(dq.inputCount() > 2 ? dq.input(2) : nullptr, xType);
  if (!zx || zx->type != xType) return "the input's zero point is not one constant of its type";
  auto zy = zeroOf(q.inputCount() > 2 ? q.input(2) : nullptr, ir::DataType::kUndefined);
  if (!zy || zy->type == ir::DataType::kUndefined)
    return "the QuantizeLinear has no 8-bit zero point (one constant)";
  return "";
}

// q's output read from `table` (indexed by xq) instead; the DQ and the float
// nodes go unless something else reads them.
MatchResult lookupOf(ir::Node& q, ir::Node* dq, std::vector<ir::Node*> chain, ir::Tensor t) {
  std::vector<ir::Node*> nodes{&q};
  nodes.insert(nodes.end(), chain.rbegin(), chain.rend());
  nodes.push_back(dq);
  return MatchResult::success(
      nodes, [&q, dq, nodes, t = std::move(t)](rewrite::Rewriter& rw) mutable {
        std::vector<const ir::Node*> from(nodes.rbegin(), nodes.rend());
        ir::Value* tv =
            addConstant(rw, *q.owner(), &q, q.output(0)->name() + "_table", std::move(t), from);
        ir::Node* n =
            fusedops::addFused(rw, ops::kQLinearLookup, {dq->input(0), tv}, &q, from, q.output(0));
        fusion::replaceAndErase(rw, q.output(0), n->output(0), nodes);
      });
}

MatchResult lookupUnit(ir::Node& q, const MatchContext& c) {
  if (c.standardOnly)
    return MatchResult::failure("standard ONNX only: QLinearLookup is ai.passlab");
  ir::Node* act = q.input(0) ? q.input(0)->producer() : nullptr;
  auto f = qdqActivationOf(act);
  if (!f)
    return MatchResult::failure(
        "the input is not produced by HardSwish, HardSigmoid, Relu or LeakyRelu");
  if (elemTypeOf(act->output(0)) != ir::DataType::kFloat)
    return MatchResult::failure(Text::of("the %1 is not on float32", f->op));
  ir::Node* dq = producerOp(act->input(0), "DequantizeLinear");
  if (!dq) return MatchResult::failure(Text::of("the %1 input is not dequantized", f->op));
  if (std::string why = whyNotPerTensor(*dq, q); !why.empty()) return MatchResult::failure(why);
  const ir::DataType xType = elemTypeOf(dq->input(0));
  const float sx = *scaleOf(dq->input(1)), sy = *scaleOf(q.input(1));
  const ZeroPoint zx = *zeroOf(dq->inputCount() > 2 ? dq->input(2) : nullptr, xType);
  const ZeroPoint zy = *zeroOf(q.input(2), ir::DataType::kUndefined);
  ir::Tensor t = zy.type == ir::DataType::kUInt8
                     ? table<uint8_t>(xType, sx, zx.value, *f, sy, zy.value, zy.type)
                     : table<int8_t>(xType, sx, zx.value, *f, sy, zy.value, zy.type);
  return lookupOf(q, dq, {act}, std::move(t));
}

// Any elementwise float32 chain (qdq_chain_table.h): the table from the
// executor's kernels run on the 256 inputs.
MatchResult lookupChain(ir::Node& q, const MatchContext& c) {
  if (c.standardOnly)
    return MatchResult::failure("standard ONNX only: QLinearLookup is ai.passlab");
  if (!c.evaluator) return MatchResult::failure("no evaluator to compute the chain's table");
  Text why;
  auto chain = findQdqChain(q, why);
  if (!chain) return MatchResult::failure(why);
  if (std::string w = whyNotPerTensor(*chain->dq, q); !w.empty()) return MatchResult::failure(w);
  auto t = qdqChainTable(*chain, q, *c.evaluator, c.opset, why);
  if (!t) return MatchResult::failure(why);
  return lookupOf(q, chain->dq, chain->nodes, std::move(*t));
}

fusion::Rules rules() {
  fusion::Rules r;
  // Q(f(DQ(xq, sx, zx)), sy, zy) -> ai.passlab.QLinearLookup(xq, table of the 256 results)
  fusion::addRule(r, "qdq_unary_lookup",
                  "Q(HardSwish|HardSigmoid|Relu|LeakyRelu(DQ(xq))) -> ai.passlab.QLinearLookup(xq, "
                  "256-entry table)",
                  {"QuantizeLinear"}, lookupUnit);
  // Q(g(DQ(xq))), g any elementwise float32 sub-DAG reading only DQ(xq) and
  // one-value constants -> the same, its table from the executor's kernels
  fusion::addRule(r, "qdq_chain_lookup",
                  "Q(elementwise float32 ops of DQ(xq) and one-value constants) -> "
                  "ai.passlab.QLinearLookup(xq, 256-entry table)",
                  {"QuantizeLinear"}, lookupChain);
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeFoldQdqUnaryIntoLookup() {
  return std::make_unique<PatternPass>(catalogInfo("fold_qdq_unary_into_lookup"), rules());
}

}  // namespace passlab::passes
