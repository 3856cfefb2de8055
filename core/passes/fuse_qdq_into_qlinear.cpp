// fuse_qdq_into_qlinear — a QDQ "node unit" into one integer op, as ONNX
// Runtime's QDQ transformer does at load time:
//
// Before:  x = DequantizeLinear(xq, xs, xz)    w = DequantizeLinear(wq, ws, wz)
//          b = DequantizeLinear(bq, xs*ws, 0)  (optional, int32)
//          y = Conv(x, w, b)   [r = Relu(y)]   yq = QuantizeLinear(y or r, ys, yz)
// After:   yq = QLinearConv(xq, xs, xz, wq, ws, wz, ys, yz, bq)
// and the same for MatMul -> QLinearMatMul (a and b dequantized, b per
// tensor or per column). A Relu between the op and its QuantizeLinear goes
// when the zero point is the type's lowest value: the quantization then
// clamps at zero itself.
// and DQ(a), DQ(b) [, DQ(c)] -> Gemm [-> Relu] -> Q -> com.microsoft
// QGemm(aq, bq, cq, y_scale, y_zero_point) (b per tensor or per column, c an
// int32 bias of one value per column), and a Gemm whose output stays float
// -> QGemm without y_scale (its float output: no rounding, as exact as the
// QDQ form up to float32 summation), as ONNX Runtime fuses Gemm units;
// and DQ(a), DQ(b) -> Add [-> Relu] -> Q -> com.microsoft QLinearAdd(aq, bq)
// (Mul -> QLinearMul), as ONNX Runtime fuses these node units: a, b and the
// output 8-bit of one type, each with one scale and a zero point.
// Numerics: the integer op requantizes the int32 accumulator in one rounding
// where the QDQ form rounds the float result; the two differ by at most one
// step of the output's scale: the pass is exact per node unit (catalog flag
// exact_per_unit), and the pipeline's check judges each rewritten unit
// against its original (core/pipeline/unit_check.h), the whole model against
// the accuracy budget (the steps compound with depth at the outputs).
// Conditions: the op's output (and the Relu's) feeds only the QuantizeLinear;
// per-tensor scales for x, y and a (scalars), weights per tensor or per
// output channel; every zero point given; the bias an int32
// DequantizeLinear whose scale is x_scale * w_scale with zero point 0.
//
// and DQ(x) -> Softmax -> Q along the last axis (opset 13 or later) ->
// com.microsoft QLinearSoftmax(xq, x_scale, x_zp, y_scale, y_zp) with opset
// 13: the executor's lookup-table kernel rounds within one output step of
// the float unit (exact per unit as the others).
// Also: Q(P(DQ(xq, s, z)), s, z) -> P(xq) for a value-preserving P (MaxPool,
// Pad with zeros, Reshape, Flatten, Transpose, Squeeze, Unsqueeze, Identity)
// quantized with its input's scale and zero point (as quantize_static writes
// it): exact, since max commutes with the monotonic dequantization, the
// others only move values, and Pad's zeros quantize to z. The same for a
// Split whose every output is quantized with its input's scale and zero
// point: Split(xq).
#include <algorithm>
#include <cmath>
#include <optional>

#include "core/passes/fusion_utils.h"
#include "core/passes/ort_fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"
#include "core/passes/qdq_operand.h"
#include "core/passes/rule_helpers.h"

namespace passlab::passes {

namespace {

constexpr const char* kId = "fuse_qdq_into_qlinear";

// Scales, zero points and biases are initializers or, in files whose IR
// version lists initializers as graph inputs (below 4), Constant nodes.
std::optional<ir::Tensor> constant(const ir::Value* v) {
  return v ? rewrite::constantValue(v) : std::nullopt;
}

int64_t numelOf(const ir::Value* v) {
  if (std::optional<ir::Tensor> t = constant(v)) return t->numel();
  if (v && v->type().isTensor() && v->type().shape())
    if (auto n = v->type().shape()->numel()) return *n;
  return -1;
}

// "" and `out` filled when `v` is a DequantizeLinear's output that has a zero
// point and no block_size; else why not.
Text whyNotDequantizedWithZero(ir::Value* v, const char* what, Dequantized& out) {
  if (Text why = whyNotDequantized(v, what, out); !why.empty()) return why;
  if (!out.zero) return Text::of("the DequantizeLinear of %1 has no zero point", std::string(what));
  return "";
}

// "" when the quantized values are 8-bit integers (what QLinear ops take).
Text whyNot8Bit(const Dequantized& d, const char* what) {
  const ir::Type& t = d.q->type();
  const bool eight =
      t.isTensor() && (t.elemType() == ir::DataType::kUInt8 || t.elemType() == ir::DataType::kInt8);
  return eight ? Text() : Text::of("%1 is not quantized to 8 bits", std::string(what));
}

// The lowest value of the quantized type of `zero` equals it: a Relu before
// the QuantizeLinear clamps nothing the quantization does not.
bool zeroIsTypeMinimum(const ir::Value* zero) {
  const std::optional<ir::Tensor> t = constant(zero);
  if (!t || t->numel() != 1) return false;
  const double z = t->valueAsDouble(0);
  if (t->dtype() == ir::DataType::kUInt8) return z == 0;
  if (t->dtype() == ir::DataType::kInt8) return z == -128;
  return false;
}

// The op of the unit ending in QuantizeLinear `q`, and the Relu between them if any.
struct Unit {
  ir::Node* op = nullptr;
  ir::Node* relu = nullptr;
};

Text whyNotUnit(ir::Node& q, const char* opType, Unit& u) {
  ir::Value* y = q.input(0);
  u.relu = producerOp(y, "Relu");
  if (u.relu) {
    if (!zeroIsTypeMinimum(q.input(2)))
      return "a Relu comes first and the zero point is not the type's lowest value";
    if (Text why = rewrite::whyNotSoleConsumer(y); !why.empty())
      return Text::of("the Relu's output %1", why);
    y = u.relu->input(0);
  }
  u.op = producerOp(y, opType);
  if (!u.op) return Text::of("the input is not produced by a %1", std::string(opType));
  if (Text why = rewrite::whyNotSoleConsumer(y); !why.empty())
    return Text::of("the %1 output %2", std::string(opType), why);
  if (numelOf(q.input(1)) != 1) return "the output scale is not one value";
  if (!q.input(2)) return "the QuantizeLinear has no zero point";
  return "";
}

// The fused node takes the name of the node its unit was built around (erased
// by now), so that profiles and messages still read by it; it keeps its fresh
// name when `name` is empty or another node of the graph has it.
void takeName(ir::Node& fused, const std::string& name) {
  if (name.empty()) return;
  for (const auto& n : fused.owner()->nodes())
    if (n.get() != &fused && n->name() == name) return;
  fused.setName(name);
}

// The bias as QLinearConv takes it: int32, zero point 0, scale x_scale * w_scale.
Text whyNotIntegerBias(const Dequantized& b, const Dequantized& x, const Dequantized& w) {
  const std::optional<ir::Tensor> bq = constant(b.q), bs = constant(b.scale), bz = constant(b.zero),
                                  xs = constant(x.scale), ws = constant(w.scale);
  if (!bq || bq->dtype() != ir::DataType::kInt32 || !bs || !bz || !xs || !ws)
    return "the bias is not a constant int32 DequantizeLinear";
  for (int64_t i = 0; i < bz->numel(); ++i)
    if (bz->valueAsDouble(i) != 0) return "the bias's zero point is not 0";
  // Every channel: one bias scale against per-channel weight scales holds
  // only where those are all equal.
  const int64_t channels = std::max(bs->numel(), ws->numel());
  for (int64_t c = 0; c < channels; ++c) {
    const double want = xs->valueAsDouble(0) * ws->valueAsDouble(ws->numel() == 1 ? 0 : c);
    const double have = bs->valueAsDouble(bs->numel() == 1 ? 0 : c);
    if (std::fabs(have - want) > 1e-6 * std::fabs(want))
      return "the bias's scale is not x_scale * w_scale";
  }
  return "";
}

MatchResult convUnit(ir::Node& q, const MatchContext&) {
  Unit u;
  if (Text why = whyNotUnit(q, "Conv", u); !why.empty()) return MatchResult::failure(why);
  ir::Node& conv = *u.op;
  Dequantized x, w, b;
  if (Text why = whyNotDequantizedWithZero(conv.input(0), "x", x); !why.empty())
    return MatchResult::failure(why);
  if (Text why = whyNotDequantizedWithZero(conv.input(1), "the weight", w); !why.empty())
    return MatchResult::failure(why);
  if (Text why = whyNot8Bit(x, "x"); !why.empty()) return MatchResult::failure(why);
  if (Text why = whyNot8Bit(w, "the weight"); !why.empty()) return MatchResult::failure(why);
  if (numelOf(x.scale) != 1) return MatchResult::failure("x's scale is not one value");
  if (numelOf(w.scale) != 1 && w.node->attrInt("axis", 1) != 0)
    return MatchResult::failure("the weight's scales are not per output channel (axis 0)");
  if (conv.input(2)) {
    if (Text why = whyNotDequantizedWithZero(conv.input(2), "the bias", b); !why.empty())
      return MatchResult::failure(why);
    if (Text why = whyNotIntegerBias(b, x, w); !why.empty()) return MatchResult::failure(why);
  }
  std::vector<ir::Node*> nodes{&q, &conv, x.node, w.node};
  if (u.relu) nodes.push_back(u.relu);
  if (b.node) nodes.push_back(b.node);
  return MatchResult::success(nodes, [&q, &conv, u, x, w, b](rewrite::Rewriter& rw) {
    std::vector<ir::Value*> ins{x.q, x.scale, x.zero, w.q, w.scale, w.zero, q.input(1), q.input(2)};
    if (b.q) ins.push_back(b.q);
    std::vector<const ir::Node*> from{&conv, &q, x.node, w.node};
    const std::string name = conv.name();
    ir::Node* fused = fusion::addDerived(rw, "QLinearConv", ins, &q, from, &conv, {q.output(0)});
    fusion::replaceAndErase(rw, q.output(0), fused->output(0),
                            {&q, u.relu, &conv, x.node, w.node, b.node});
    takeName(*fused, name);
  });
}

MatchResult matMulUnit(ir::Node& q, const MatchContext&) {
  Unit u;
  if (Text why = whyNotUnit(q, "MatMul", u); !why.empty()) return MatchResult::failure(why);
  ir::Node& mm = *u.op;
  Dequantized a, b;
  if (Text why = whyNotDequantizedWithZero(mm.input(0), "A", a); !why.empty())
    return MatchResult::failure(why);
  if (Text why = whyNotDequantizedWithZero(mm.input(1), "B", b); !why.empty())
    return MatchResult::failure(why);
  if (Text why = whyNot8Bit(a, "A"); !why.empty()) return MatchResult::failure(why);
  if (Text why = whyNot8Bit(b, "B"); !why.empty()) return MatchResult::failure(why);
  if (numelOf(a.scale) != 1) return MatchResult::failure("A's scale is not one value");
  const ir::Value* bv = b.q;
  const int64_t rank = bv->type().shape() ? static_cast<int64_t>(bv->type().shape()->rank()) : -1;
  if (numelOf(b.scale) != 1 && (rank != 2 || b.node->attrInt("axis", 1) != 1))
    return MatchResult::failure("B's scales are not per column of a matrix");
  std::vector<ir::Node*> nodes{&q, &mm, a.node, b.node};
  if (u.relu) nodes.push_back(u.relu);
  return MatchResult::success(nodes, [&q, &mm, u, a, b](rewrite::Rewriter& rw) {
    std::vector<const ir::Node*> from{&mm, &q, a.node, b.node};
    const std::string name = mm.name();
    ir::Node* fused = fusion::addDerived(
        rw, "QLinearMatMul", {a.q, a.scale, a.zero, b.q, b.scale, b.zero, q.input(1), q.input(2)},
        &q, from, nullptr, {q.output(0)});
    fusion::replaceAndErase(rw, q.output(0), fused->output(0), {&q, u.relu, &mm, a.node, b.node});
    takeName(*fused, name);
  });
}

// A Gemm's operands as QGemm takes them: A and B dequantized from 8 bits
// with float32 scales, A per tensor, B per tensor or per column (axis 1 of
// [K, N], axis 0 of a transB [N, K]); C absent or an int32 bias of one value
// per column with scale a_scale * b_scale (alpha and beta then 1: QGemm
// scales the bias with the product).
struct GemmOperands {
  Dequantized a, b, c;
};

Text whyNotGemmOperands(const ir::Node& gemm, GemmOperands& o) {
  if (Text why = whyNotDequantizedWithZero(gemm.input(0), "A", o.a); !why.empty()) return why;
  if (Text why = whyNotDequantizedWithZero(gemm.input(1), "B", o.b); !why.empty()) return why;
  if (Text why = whyNot8Bit(o.a, "A"); !why.empty()) return why;
  if (Text why = whyNot8Bit(o.b, "B"); !why.empty()) return why;
  for (const ir::Value* scale : {o.a.scale, o.b.scale})
    if (fusion::constDtype(scale) != ir::DataType::kFloat)
      return "a scale of A or B is not a float32 constant";
  if (numelOf(o.a.scale) != 1) return "A's scale is not one value";
  const int64_t columnAxis = gemm.attrInt("transB", 0) != 0 ? 0 : 1;
  const int64_t axis = o.b.node->attrInt("axis", 1);
  if (numelOf(o.b.scale) != 1 && axis != columnAxis && axis != columnAxis - 2)
    return "B's scales are not per column";
  ir::Value* c = gemm.input(2);
  if (!c) return "";
  if (gemm.attrFloat("alpha", 1.0f) != 1.0f || gemm.attrFloat("beta", 1.0f) != 1.0f)
    return "the Gemm has a bias and alpha or beta other than 1";
  if (Text why = whyNotDequantizedWithZero(c, "the bias", o.c); !why.empty()) return why;
  if (Text why = whyNotIntegerBias(o.c, o.a, o.b); !why.empty()) return why;
  // whyNotIntegerBias compares the bias's scales only: one of them for B's many.
  if (numelOf(o.b.scale) != 1 && numelOf(o.c.scale) != numelOf(o.b.scale))
    return "the bias's scale is not x_scale * w_scale";
  const std::optional<std::vector<int64_t>> bDims = fusion::dimsOf(o.b.q);
  const std::optional<ir::Tensor> cq = constant(o.c.q);
  if (!bDims || bDims->size() != 2 || !cq || cq->rank() != 1 ||
      cq->numel() != (*bDims)[static_cast<size_t>(columnAxis)])
    return "the bias is not one value per column";
  return "";
}

// A com.microsoft QGemm of `ins` before `before` with the Gemm's alpha,
// transA and transB, its output typed like `typeLike`.
ir::Node* addQGemm(rewrite::Rewriter& rw, const ir::Node& gemm, const std::vector<ir::Value*>& ins,
                   ir::Node* before, const std::vector<const ir::Node*>& from,
                   const ir::Value* typeLike) {
  ir::Node* n = ortfusion::addMsNode(rw, "QGemm", ins, before, from, {typeLike});
  if (const float alpha = gemm.attrFloat("alpha", 1.0f); alpha != 1.0f)
    rw.setAttr(n, ir::Attribute::makeFloat("alpha", alpha));
  for (const char* t : {"transA", "transB"})
    if (gemm.attrInt(t, 0) != 0) rw.setAttr(n, ir::Attribute::makeInt(t, 1));
  return n;
}

// DQ(a), DQ(b) [, DQ(c)] -> Gemm [-> Relu] -> Q  ->  com.microsoft QGemm.
MatchResult gemmUnit(ir::Node& q, const MatchContext&) {
  Unit u;
  if (Text why = whyNotUnit(q, "Gemm", u); !why.empty()) return MatchResult::failure(why);
  ir::Node& gemm = *u.op;
  GemmOperands o;
  if (Text why = whyNotGemmOperands(gemm, o); !why.empty()) return MatchResult::failure(why);
  std::vector<ir::Node*> nodes{&q, &gemm, o.a.node, o.b.node};
  if (u.relu) nodes.push_back(u.relu);
  if (o.c.node) nodes.push_back(o.c.node);
  return MatchResult::success(nodes, [&q, &gemm, u, o](rewrite::Rewriter& rw) {
    const std::vector<ir::Value*> ins{o.a.q,    o.a.scale, o.a.zero,   o.b.q,     o.b.scale,
                                      o.b.zero, o.c.q,     q.input(1), q.input(2)};
    const std::vector<const ir::Node*> from{&gemm, &q, o.a.node, o.b.node};
    const std::string name = gemm.name();
    ir::Node* n = addQGemm(rw, gemm, ins, &q, from, q.output(0));
    fusion::replaceAndErase(rw, q.output(0), n->output(0),
                            {&q, u.relu, &gemm, o.a.node, o.b.node, o.c.node});
    takeName(*n, name);
  });
}

// True when `y` goes on to a QuantizeLinear alone (through a Relu read
// alone): the unit with that QuantizeLinear fuses instead.
bool quantizedAfter(const ir::Value* y) {
  if (y->isGraphOutput() || y->uses().size() != 1) return false;
  const ir::Node* reader = y->uses()[0].node;
  if (reader->domain().empty() && reader->opType() == "Relu")
    return quantizedAfter(reader->output(0));
  return reader->domain().empty() && reader->opType() == "QuantizeLinear";
}

// DQ(a), DQ(b) [, DQ(c)] -> Gemm whose output stays float  ->  com.microsoft
// QGemm without y_scale (float output).
MatchResult gemmFloatUnit(ir::Node& gemm, const MatchContext&) {
  if (quantizedAfter(gemm.output(0)))
    return MatchResult::failure(
        "the Gemm's output is quantized (its unit with the QuantizeLinear fuses)");
  GemmOperands o;
  if (Text why = whyNotGemmOperands(gemm, o); !why.empty()) return MatchResult::failure(why);
  std::vector<ir::Node*> nodes{&gemm, o.a.node, o.b.node};
  if (o.c.node) nodes.push_back(o.c.node);
  return MatchResult::success(nodes, [&gemm, o](rewrite::Rewriter& rw) {
    std::vector<ir::Value*> ins{o.a.q, o.a.scale, o.a.zero, o.b.q, o.b.scale, o.b.zero};
    if (o.c.q) ins.push_back(o.c.q);
    const std::vector<const ir::Node*> from{&gemm, o.a.node, o.b.node};
    const std::string name = gemm.name();
    ir::Node* n = addQGemm(rw, gemm, ins, &gemm, from, gemm.output(0));
    fusion::replaceAndErase(rw, gemm.output(0), n->output(0),
                            {&gemm, o.a.node, o.b.node, o.c.node});
    takeName(*n, name);
  });
}

// DQ(a), DQ(b) -> Add|Mul [-> Relu] -> Q  ->  com.microsoft QLinearAdd|QLinearMul.
MatchResult binaryUnit(ir::Node& q, const char* opType, const char* fused) {
  Unit u;
  if (Text why = whyNotUnit(q, opType, u); !why.empty()) return MatchResult::failure(why);
  ir::Node& op = *u.op;
  if (op.hasAttr("broadcast"))
    return MatchResult::failure("the op uses the legacy broadcast attribute");
  Dequantized a, b;
  if (Text why = whyNotDequantizedWithZero(op.input(0), "A", a); !why.empty())
    return MatchResult::failure(why);
  if (Text why = whyNotDequantizedWithZero(op.input(1), "B", b); !why.empty())
    return MatchResult::failure(why);
  if (Text why = whyNot8Bit(a, "A"); !why.empty()) return MatchResult::failure(why);
  if (Text why = whyNot8Bit(b, "B"); !why.empty()) return MatchResult::failure(why);
  if (numelOf(a.scale) != 1 || numelOf(b.scale) != 1)
    return MatchResult::failure("a scale of A or B is not one value");
  const ir::DataType t = a.q->type().elemType();
  if (b.q->type().elemType() != t || !q.output(0)->type().isTensor() ||
      q.output(0)->type().elemType() != t)
    return MatchResult::failure("A, B and the output are not quantized to one 8-bit type");
  std::vector<ir::Node*> nodes{&q, &op, a.node};
  if (b.node != a.node) nodes.push_back(b.node);
  if (u.relu) nodes.push_back(u.relu);
  const std::string fusedOp = fused;
  return MatchResult::success(nodes, [&q, &op, u, a, b, fusedOp](rewrite::Rewriter& rw) {
    const std::vector<const ir::Node*> from{&op, &q, a.node, b.node};
    const std::string name = op.name();
    ir::Node* n = ortfusion::addMsNode(
        rw, fusedOp, {a.q, a.scale, a.zero, b.q, b.scale, b.zero, q.input(1), q.input(2)}, &q, from,
        {q.output(0)});
    fusion::replaceAndErase(rw, q.output(0), n->output(0), {&q, u.relu, &op, a.node, b.node});
    takeName(*n, name);
  });
}

MatchResult addUnit(ir::Node& q, const MatchContext&) {
  return binaryUnit(q, "Add", "QLinearAdd");
}

MatchResult mulUnit(ir::Node& q, const MatchContext&) {
  return binaryUnit(q, "Mul", "QLinearMul");
}

// DQ(x) -> Softmax -> Q  ->  com.microsoft QLinearSoftmax(xq) along the last
// axis (opset 13 semantics; the executor's lookup-table kernel): x and the
// output 8-bit of one type, each with one constant float scale and a zero
// point. Rounds within one output step of the float unit (its exps and sum in
// float32).
Text whyNotLastAxisSoftmax(const ir::Node& softmax, const MatchContext& c) {
  if (c.opset < 13)
    return Text::of("Softmax before opset 13 works on its input flattened to 2-D (model has %1)",
                    std::to_string(c.opset));
  const ir::Value* x = softmax.input(0);
  const bool ranked = x->type().isTensor() && x->type().shape();
  const int64_t axis = softmax.attrInt("axis", -1);
  if (axis != -1 && (!ranked || axis != static_cast<int64_t>(x->type().shape()->rank()) - 1))
    return "the Softmax's axis is not the last";
  return "";
}

MatchResult softmaxUnit(ir::Node& q, const MatchContext& c) {
  ir::Node* sm = producerOp(q.input(0), "Softmax");
  if (!sm) return MatchResult::failure("the input is not produced by a Softmax");
  if (Text why = rewrite::whyNotSoleConsumer(q.input(0)); !why.empty())
    return MatchResult::failure(Text::of("the Softmax output %1", why));
  if (Text why = whyNotLastAxisSoftmax(*sm, c); !why.empty()) return MatchResult::failure(why);
  Dequantized x;
  if (Text why = whyNotDequantizedWithZero(sm->input(0), "x", x); !why.empty())
    return MatchResult::failure(why);
  if (Text why = whyNot8Bit(x, "x"); !why.empty()) return MatchResult::failure(why);
  if (!q.input(2)) return MatchResult::failure("the QuantizeLinear has no zero point");
  for (const ir::Value* scale : {x.scale, q.input(1)})
    if (fusion::constDtype(scale) != ir::DataType::kFloat || numelOf(scale) != 1)
      return MatchResult::failure("a scale of x or the output is not one float32 constant");
  if (!q.output(0)->type().isTensor() || q.output(0)->type().elemType() != x.q->type().elemType())
    return MatchResult::failure("x and the output are not quantized to one 8-bit type");
  const int64_t axis = sm->attrInt("axis", -1);
  return MatchResult::success({&q, sm, x.node}, [&q, sm, x, axis](rewrite::Rewriter& rw) {
    const std::vector<const ir::Node*> from{sm, &q, x.node};
    const std::string name = sm->name();
    ir::Node* n =
        ortfusion::addMsNode(rw, "QLinearSoftmax", {x.q, x.scale, x.zero, q.input(1), q.input(2)},
                             &q, from, {q.output(0)});
    rw.setAttr(n, ir::Attribute::makeInt("opset", 13));
    rw.setAttr(n, ir::Attribute::makeInt("axis", axis));
    fusion::replaceAndErase(rw, q.output(0), n->output(0), {&q, sm, x.node});
    takeName(*n, name);
  });
}

// The value-preserving ops and the opset from which each takes 8-bit tensors.
int64_t eightBitOpsetOf(const ir::Node& n) {
  if (!n.domain().empty()) return -1;
  static const std::pair<const char*, int64_t> kOps[] = {
      {"MaxPool", 12},  {"Pad", 11},    {"Reshape", 5},   {"Flatten", 9},
      {"Transpose", 1}, {"Squeeze", 1}, {"Unsqueeze", 1}, {"Identity", 1}};
  for (const auto& [op, opset] : kOps)
    if (n.opType() == op) return opset;
  return -1;
}

// True when constants `a` and `b` hold one equal value of the same type.
bool sameScalar(const ir::Value* a, const ir::Value* b) {
  auto x = fusion::scalarValue(a), y = fusion::scalarValue(b);
  return x && y && *x == *y && fusion::constDtype(a) == fusion::constDtype(b);
}

MatchResult valuePreservingUnit(ir::Node& q, const MatchContext& c) {
  ir::Node* p = q.input(0) ? q.input(0)->producer() : nullptr;
  const int64_t minOpset = p ? eightBitOpsetOf(*p) : -1;
  if (minOpset < 0)
    return MatchResult::failure(
        "the input is not produced by MaxPool, Pad, Reshape, Flatten, Transpose, Squeeze, "
        "Unsqueeze or Identity");
  const std::string op = p->opType();
  if (Text why = rewrite::whyNotSoleConsumer(q.input(0)); !why.empty())
    return MatchResult::failure(Text::of("the %1 output %2", op, why));
  if (c.opset < minOpset)
    return MatchResult::failure(Text::of("%1 takes 8-bit tensors from opset %2 (model has %3)", op,
                                         std::to_string(minOpset), std::to_string(c.opset)));
  if (op == "MaxPool") {
    if (Text why = fusion::whyExtraOutputsUsed(*p); !why.empty()) return MatchResult::failure(why);
  }
  if (op == "Pad") {
    if (p->attrString("mode", "constant") != "constant")
      return MatchResult::failure("the Pad's mode is not constant");
    const ir::Value* value = p->inputs().size() > 2 ? p->input(2) : nullptr;
    if (value && fusion::scalarValue(value) != 0.0)
      return MatchResult::failure("the Pad's value is not a constant 0");
  }
  Dequantized x;
  if (Text why = whyNotDequantizedWithZero(p->input(0), "the input", x); !why.empty())
    return MatchResult::failure(why);
  if (Text why = whyNot8Bit(x, "the input"); !why.empty()) return MatchResult::failure(why);
  if (!q.input(2)) return MatchResult::failure("the QuantizeLinear has no zero point");
  if (!sameScalar(x.scale, q.input(1)) || !sameScalar(x.zero, q.input(2)))
    return MatchResult::failure(Text::of(
        "the %1 output is not quantized with its input's scale and zero point (one value each)",
        op));
  return MatchResult::success({&q, p, x.node}, [&q, p, x](rewrite::Rewriter& rw) {
    std::vector<ir::Value*> ins = p->inputs();
    ins[0] = x.q;
    const std::vector<const ir::Node*> from{p, &q, x.node};
    if (p->opType() == "Pad") {
      // The zeros Pad adds are z in the quantized values.
      if (ins.size() < 3) ins.resize(3, nullptr);
      const double z = fusion::scalarValue(x.zero).value_or(0);
      ir::Tensor zero =
          x.q->type().elemType() == ir::DataType::kUInt8
              ? ir::Tensor::fromVector<uint8_t>(ir::DataType::kUInt8, {}, {static_cast<uint8_t>(z)})
              : ir::Tensor::fromVector<int8_t>(ir::DataType::kInt8, {}, {static_cast<int8_t>(z)});
      ins[2] = addConstant(rw, *q.owner(), &q, x.q->name() + "_pad_value", std::move(zero), from);
    }
    const std::string name = p->name();
    ir::Node* n = fusion::addDerived(rw, p->opType(), ins, &q, from, p, {q.output(0)});
    fusion::replaceAndErase(rw, q.output(0), n->output(0), {&q, p, x.node});
    takeName(*n, name);
  });
}

// Q(Concat(DQ(a, s, z), DQ(b, s, z), ...), s, z) -> Concat(a, b, ...): every
// input quantized with the output's scale and zero point (quantize_static
// gives a Concat's inputs one range), so the 8-bit values concatenate as they
// are: exact.
MatchResult concatUnit(ir::Node& q, const MatchContext&) {
  ir::Node* cat = producerOp(q.input(0), "Concat");
  if (!cat) return MatchResult::failure("the input is not produced by a Concat");
  if (Text why = rewrite::whyNotSoleConsumer(q.input(0)); !why.empty())
    return MatchResult::failure(Text::of("the Concat output %1", why));
  if (!q.input(2)) return MatchResult::failure("the QuantizeLinear has no zero point");
  std::vector<ir::Value*> ins;
  std::vector<ir::Node*> nodes{&q, cat};
  for (ir::Value* in : cat->inputs()) {
    Dequantized d;
    if (Text why = whyNotDequantizedWithZero(in, "a Concat input", d); !why.empty())
      return MatchResult::failure(why);
    if (Text why = whyNot8Bit(d, "a Concat input"); !why.empty()) return MatchResult::failure(why);
    if (!sameScalar(d.scale, q.input(1)) || !sameScalar(d.zero, q.input(2)))
      return MatchResult::failure(
          "a Concat input is not quantized with the output's scale and zero point");
    ins.push_back(d.q);
    if (std::find(nodes.begin(), nodes.end(), d.node) == nodes.end()) nodes.push_back(d.node);
  }
  return MatchResult::success(nodes, [&q, cat, ins, nodes](rewrite::Rewriter& rw) {
    const std::vector<const ir::Node*> from(nodes.begin(), nodes.end());
    const std::string name = cat->name();
    ir::Node* n = fusion::addDerived(rw, "Concat", ins, &q, from, cat, {q.output(0)});
    fusion::replaceAndErase(rw, q.output(0), n->output(0), nodes);
    takeName(*n, name);
  });
}

// Split(DQ(x, s, z)) whose every output only a QuantizeLinear of the same
// s and z reads -> Split(x): the 8-bit values split as they are (exact;
// quantize_static gives a Split's outputs its input's range, as ONNX
// Runtime's quantizer does).
MatchResult splitUnit(ir::Node& split, const MatchContext&) {
  Dequantized x;
  if (Text why = whyNotDequantizedWithZero(split.input(0), "the input", x); !why.empty())
    return MatchResult::failure(why);
  if (Text why = whyNot8Bit(x, "the input"); !why.empty()) return MatchResult::failure(why);
  std::vector<ir::Node*> nodes{&split, x.node};
  std::vector<const ir::Value*> outs;
  for (ir::Value* y : split.outputs()) {
    if (!y || y->isGraphOutput() || y->uses().size() != 1 ||
        y->uses()[0].node->opType() != "QuantizeLinear" || !y->uses()[0].node->domain().empty())
      return MatchResult::failure("a Split output is not read by one QuantizeLinear alone");
    ir::Node* q = y->uses()[0].node;
    if (!q->input(2) || !sameScalar(x.scale, q->input(1)) || !sameScalar(x.zero, q->input(2)))
      return MatchResult::failure(
          "a Split output is not quantized with its input's scale and zero point");
    nodes.push_back(q);
    outs.push_back(q->output(0));
  }
  return MatchResult::success(nodes, [&split, x, nodes, outs](rewrite::Rewriter& rw) {
    std::vector<ir::Value*> ins = split.inputs();
    ins[0] = x.q;
    const std::vector<const ir::Node*> from(nodes.begin(), nodes.end());
    const std::string name = split.name();
    ir::Node* n = fusion::addDerived(rw, "Split", ins, &split, from, &split, outs, outs.size());
    for (size_t i = 0; i < outs.size(); ++i)
      rw.replaceAllUsesWith(const_cast<ir::Value*>(outs[i]), n->output(i));
    fusion::eraseDead(rw, nodes);
    takeName(*n, name);
  });
}

fusion::Rules rules() {
  fusion::Rules r;
  fusion::addRule(r, "qdq_conv",
                  "DQ(x), DQ(w), DQ(b) -> Conv [-> Relu] -> Q  ->  QLinearConv(xq, wq, bq)",
                  {"QuantizeLinear"}, convUnit);
  fusion::addRule(r, "qdq_matmul",
                  "DQ(a), DQ(b) -> MatMul [-> Relu] -> Q  ->  QLinearMatMul(aq, bq)",
                  {"QuantizeLinear"}, matMulUnit);
  fusion::addRule(r, "qdq_gemm",
                  "DQ(a), DQ(b), DQ(c) -> Gemm [-> Relu] -> Q  ->  com.microsoft QGemm(aq, bq, cq)",
                  {"QuantizeLinear"}, gemmUnit);
  fusion::addRule(r, "dq_gemm_float_output",
                  "DQ(a), DQ(b), DQ(c) -> Gemm (float output)  ->  com.microsoft QGemm(aq, bq, cq)",
                  {"Gemm"}, gemmFloatUnit);
  fusion::addRule(r, "qdq_add",
                  "DQ(a), DQ(b) -> Add [-> Relu] -> Q  ->  com.microsoft QLinearAdd(aq, bq)",
                  {"QuantizeLinear"}, addUnit);
  fusion::addRule(r, "qdq_mul",
                  "DQ(a), DQ(b) -> Mul [-> Relu] -> Q  ->  com.microsoft QLinearMul(aq, bq)",
                  {"QuantizeLinear"}, mulUnit);
  fusion::addRule(r, "qdq_softmax",
                  "DQ(x) -> Softmax (last axis) -> Q  ->  com.microsoft QLinearSoftmax(xq)",
                  {"QuantizeLinear"}, softmaxUnit);
  fusion::addRule(r, "qdq_value_preserving",
                  "Q(MaxPool|Pad|Reshape|...(DQ(xq, s, z)), s, z)  ->  MaxPool|Pad|...(xq)",
                  {"QuantizeLinear"}, valuePreservingUnit);
  fusion::addRule(r, "qdq_concat", "Q(Concat(DQ(a, s, z), DQ(b, s, z)), s, z)  ->  Concat(a, b)",
                  {"QuantizeLinear"}, concatUnit);
  fusion::addRule(r, "qdq_split", "Q(Split(DQ(x, s, z)), s, z) for every output  ->  Split(x)",
                  {"Split"}, splitUnit);
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeFuseQdqIntoQlinear() {
  return std::make_unique<PatternPass>(catalogInfo(kId), rules());
}

}  // namespace passlab::passes
