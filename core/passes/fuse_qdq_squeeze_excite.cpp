// fuse_qdq_squeeze_excite, fuse_qdq_squeeze_excite_exact — a squeeze-excitation
// block between 8-bit tensors as one ai.passlab QLinearSqueezeExcite (lossy,
// exact below; non-standard; after
// fuse_qdq_into_qlinear, before or after convert_int8_to_channels_last).
//
// Before (MobileNetV3's block, as fuse_qdq_into_qlinear leaves it):
//   h  = f(DequantizeLinear(xq, sx, zx))      f: HardSwish, Relu, ... or none
//   g  = GlobalAveragePool(h)                 (ReduceMean over axes 1, 2 channels-last)
//   t  = QLinearConv(QuantizeLinear(g), W1q, B1q)            1x1 on 1x1
//   u  = DequantizeLinear(QLinearConv(t, W2q, B2q))          1x1 on 1x1
//   yq = QuantizeLinear(Mul(h, HardSigmoid(u)), sy, zy)
// After:
//   yq = ai.passlab.QLinearSqueezeExcite(xq, Table, W1, B1, W2, B2, sy, zy)
//   Table[v] = f((v - zx) * sx) in float32 for the 256 values v of xq;
//   W = (Wq - w_zero_point) * w_scale, B = Bq * x_scale * w_scale (float32);
//   clip0 = the range of the pooled mean's QuantizeLinear, clip1, clip2 = the
//   range of the two QLinearConvs' outputs, each
//   [(lowest - zero_point) * scale, (highest - zero_point) * scale].
// Lossy, slightly: the squeezed mean and the two small convolutions stay in
// float32 (the QDQ form rounds g, t and u to 8 bits; the saturations of
// those roundings are kept as clips, a Relu folded into t's included); H is the
// QDQ form's float32 value, the kernel rounds H * (S / y_scale). Against the
// QDQ form the gate differs by about half a step of u's quantization, so Y
// by a step or two of y where |H| is large (tests: at most 3, 1 on average).
// Conditions: non-standard output allowed; per-tensor scales and zero points
// (constants) on xq, g, u and yq; 1x1 convolutions of group 1 without pads,
// constant weights (per-tensor or per-channel scales); every intermediate
// read only inside the block (h by the pool and the Mul).
//
// fuse_qdq_squeeze_excite_exact (in the fused level, after
// convert_int8_to_channels_last): the same block in its channels-last form
// (ReduceMean over axes 1, 2) as QLinearSqueezeExcite with exact = 1, which
// keeps g, t and u in 8 bits and computes every step with the executor's
// arithmetic (passlab_squeeze_excite_exact.cpp): Y is the QDQ form's bytes.
// Further conditions: int8 weights with zero points 0 (absent or all 0;
// then the executor's QLinearConv on so few pixels is the reference's
// arithmetic), constant int32 biases or none, each convolution's input
// quantization the one before it (the mean's QuantizeLinear, the first
// convolution's output), zero points given on g's QuantizeLinear and yq's.
#include <cmath>
#include <limits>
#include <tuple>
#include <utility>

#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"
#include "core/passes/passlab_fused_utils.h"
#include "core/passes/qdq_activation.h"
#include "core/passes/rule_helpers.h"
#include "core/rewrite/match_utils.h"

namespace passlab::passes {

namespace {

namespace ops = ir::passlab_ops;

bool is8Bit(ir::DataType t) {
  return t == ir::DataType::kUInt8 || t == ir::DataType::kInt8;
}

// Read by exactly `n` nodes and not a graph output.
bool readOnlyBy(const ir::Value* v, size_t n) {
  return v && !v->isGraphOutput() && v->uses().size() == n;
}

// One constant float32 scale and one constant 8-bit zero point (absent: 0 of `absentType`).
struct Quant {
  float scale = 0, zero = 0;
  ir::DataType type = ir::DataType::kUndefined;
};
std::optional<Quant> quantOf(const ir::Value* scale, const ir::Value* zero,
                             ir::DataType absentType) {
  if (!scale || fusion::constDtype(scale) != ir::DataType::kFloat) return std::nullopt;
  auto s = fusion::scalarValue(scale);
  if (!s) return std::nullopt;
  if (!zero) return Quant{static_cast<float>(*s), 0, absentType};
  auto z = fusion::scalarValue(zero);
  const ir::DataType t = fusion::constDtype(zero);
  if (!z || !is8Bit(t)) return std::nullopt;
  return Quant{static_cast<float>(*s), static_cast<float>(*z), t};
}

ir::Value* inputOr(const ir::Node& n, size_t i) {
  return i < n.inputCount() ? n.input(i) : nullptr;
}

bool isQLinearConv(const ir::Node* n) {
  return n && n->opType() == "QLinearConv" &&
         (n->domain().empty() || n->domain() == "com.microsoft");
}

// The values a quantization reaches: [(lowest - zero) * scale, (highest - zero) * scale].
std::pair<float, float> rangeOf(const Quant& q) {
  const bool s8 = q.type == ir::DataType::kInt8;
  return {((s8 ? -128.0f : 0.0f) - q.zero) * q.scale, ((s8 ? 127.0f : 255.0f) - q.zero) * q.scale};
}

// A 1x1 QLinearConv of group 1 without pads, as float32 weights [M, C], bias
// [M] and the clip of its output's quantization.
struct FloatConv {
  int64_t m = 0, c = 0;
  std::vector<float> w, b;
  float lo = 0, hi = 0;
};

std::optional<FloatConv> floatConv(const ir::Node& n, Text& why) {
  auto w = rewrite::constantValue(inputOr(n, 3));
  if (!w || w->rank() != 4 || w->dims()[2] != 1 || w->dims()[3] != 1 || !is8Bit(w->dtype())) {
    why = Text::of("%1 has no constant 8-bit 1x1 weight", n.name());
    return std::nullopt;
  }
  for (int64_t p : n.attrInts("pads"))
    if (p != 0) {
      why = Text::of("%1 has pads", n.name());
      return std::nullopt;
    }
  if (n.attrInt("group", 1) != 1) {
    why = Text::of("%1 is grouped", n.name());
    return std::nullopt;
  }
  FloatConv f;
  f.m = w->dims()[0], f.c = w->dims()[1];
  auto xs = fusion::scalarValue(inputOr(n, 1));
  auto ws = rewrite::constantValue(inputOr(n, 4));
  auto wz = inputOr(n, 5) ? rewrite::constantValue(inputOr(n, 5)) : std::nullopt;
  auto y = quantOf(inputOr(n, 6), inputOr(n, 7), ir::DataType::kUInt8);
  auto bias = inputOr(n, 8) ? rewrite::constantValue(inputOr(n, 8)) : std::nullopt;
  const bool perChannelOk = ws && (ws->numel() == 1 || ws->numel() == f.m) &&
                            (!wz || wz->numel() == 1 || wz->numel() == f.m);
  if (!xs || !perChannelOk || !y || (inputOr(n, 5) && !wz) || (inputOr(n, 8) && !bias) ||
      (bias && bias->numel() != f.m)) {
    why = Text::of("%1 has scales, zero points or a bias that are not constants of its channels",
                   n.name());
    return std::nullopt;
  }
  const std::vector<double> wv = w->toDoubleVector(), sv = ws->toDoubleVector();
  const std::vector<double> zv = wz ? wz->toDoubleVector() : std::vector<double>{0.0};
  const std::vector<double> bv = bias ? bias->toDoubleVector() : std::vector<double>(f.m, 0.0);
  f.w.resize(static_cast<size_t>(f.m * f.c));
  f.b.resize(static_cast<size_t>(f.m));
  for (int64_t m = 0; m < f.m; ++m) {
    const double s = sv[sv.size() == 1 ? 0 : m], z = zv[zv.size() == 1 ? 0 : m];
    for (int64_t k = 0; k < f.c; ++k)
      f.w[m * f.c + k] = static_cast<float>((wv[m * f.c + k] - z) * s);
    f.b[m] = static_cast<float>(bv[m] * *xs * s);
  }
  std::tie(f.lo, f.hi) = rangeOf(*y);
  return f;
}

// The pooling node of the block: GlobalAveragePool (NCHW) or ReduceMean over
// axes 1, 2 with keepdims (NHWC, as convert_int8_to_channels_last writes it).
std::optional<bool> poolChannelsLast(const ir::Node* p) {
  if (!p || !p->domain().empty()) return std::nullopt;
  if (p->opType() == "GlobalAveragePool") return false;
  if (p->opType() != "ReduceMean" || p->attrInt("keepdims", 1) != 1) return std::nullopt;
  std::optional<std::vector<int64_t>> axes =
      p->inputCount() > 1 ? constantInts(p->input(1))
                          : std::optional<std::vector<int64_t>>(p->attrInts("axes"));
  if (!axes || *axes != std::vector<int64_t>{1, 2}) return std::nullopt;
  return true;
}

// Everything the fused node needs, found from its final QuantizeLinear.
struct Block {
  std::vector<ir::Node*> nodes;  // replaced: q, mul, gate, dq2, c2, c1, qg, pool, act?, dqx
  ir::Node *qg = nullptr, *c1 = nullptr, *c2 = nullptr;  // for the exact form
  ir::Value* xq = nullptr;
  std::optional<QdqActivation> f;
  Quant x, y;
  Quant pooled;  // the QuantizeLinear of the pooled mean
  FloatConv conv1, conv2;
  float alpha = 0.2f, beta = 0.5f;
  bool channelsLast = false;
};

// The gate's side of the Mul: HardSigmoid(DQ(QLinearConv(QLinearConv(Q(pool(h)))))).
// nullopt when it matches (`b` filled in), else the failure.
std::optional<MatchResult> matchGate(ir::Node* gate, ir::Value* h, Block& b) {
  ir::Node* dq2 = producerOp(gate->input(0), "DequantizeLinear");
  ir::Node* c2 = dq2 ? dq2->input(0)->producer() : nullptr;
  ir::Node* c1 = isQLinearConv(c2) ? c2->input(0)->producer() : nullptr;
  ir::Node* qg = isQLinearConv(c1) ? producerOp(c1->input(0), "QuantizeLinear") : nullptr;
  ir::Node* pool = qg ? qg->input(0)->producer() : nullptr;
  auto last = poolChannelsLast(pool);
  if (!last || pool->input(0) != h)
    return MatchResult::failure(
        "the gate is not HardSigmoid(DequantizeLinear(QLinearConv(QLinearConv(QuantizeLinear("
        "GlobalAveragePool))))) of the Mul's other operand");
  for (const ir::Value* v : {gate->output(0), dq2->output(0), c2->output(0), c1->output(0),
                             qg->output(0), pool->output(0)})
    if (!readOnlyBy(v, 1)) return MatchResult::failure("a value inside the gate has other readers");
  Text why;
  auto f1 = floatConv(*c1, why);
  auto f2 = f1 ? floatConv(*c2, why) : std::nullopt;
  if (!f2) return MatchResult::failure(why);
  auto d2 = quantOf(dq2->input(1), inputOr(*dq2, 2), elemTypeOf(dq2->input(0)));
  auto y2 = quantOf(inputOr(*c2, 6), inputOr(*c2, 7), ir::DataType::kUInt8);
  if (!d2 || !y2 || d2->scale != y2->scale || d2->zero != y2->zero)
    return MatchResult::failure(
        "the gate's DequantizeLinear does not use its QLinearConv's output scale");
  if (f1->m != f2->c || f2->m != f1->c)
    return MatchResult::failure("the two convolutions' channels do not chain");
  auto pooled = quantOf(qg->input(1), inputOr(*qg, 2), ir::DataType::kUInt8);
  if (!pooled)
    return MatchResult::failure(
        "the pooled mean's QuantizeLinear has no constant scale and zero point (one value each)");
  b.pooled = *pooled;
  b.qg = qg, b.c1 = c1, b.c2 = c2;
  b.nodes.insert(b.nodes.end(), {gate, dq2, c2, c1, qg, pool});
  b.conv1 = std::move(*f1), b.conv2 = std::move(*f2);
  b.alpha = gate->attrFloat("alpha", 0.2f), b.beta = gate->attrFloat("beta", 0.5f);
  b.channelsLast = *last;
  return std::nullopt;
}

// The block's input side: h = f(DQ(xq)) or DQ(xq); nullopt when it matches.
std::optional<MatchResult> matchInput(ir::Value* h, Block& b) {
  ir::Node* hp = h->producer();
  if (!hp) return MatchResult::failure("the scaled tensor is a graph input");
  ir::Node* dqx = isDefaultOp(*hp, "DequantizeLinear") ? hp : nullptr;
  if (!dqx) {
    b.f = qdqActivationOf(hp);
    dqx = b.f ? producerOp(hp->input(0), "DequantizeLinear") : nullptr;
    if (!dqx || !readOnlyBy(dqx->output(0), 1))
      return MatchResult::failure(
          "the scaled tensor is not DequantizeLinear, or HardSwish, HardSigmoid, Relu or "
          "LeakyRelu of one read only there");
    b.nodes.push_back(hp);
  }
  b.xq = dqx->input(0);
  const ir::DataType xt = elemTypeOf(b.xq);
  auto x = is8Bit(xt) ? quantOf(dqx->input(1), inputOr(*dqx, 2), xt) : std::nullopt;
  if (!x || x->type != xt)
    return MatchResult::failure(
        "the DequantizeLinear is not of an 8-bit tensor with one constant scale and zero point");
  b.x = *x;
  b.nodes.push_back(dqx);
  return std::nullopt;
}

// Table[v] = f((v - zx) * sx) over the 256 values of xq's type, in float32.
ir::Tensor inputTable(const Block& b) {
  const int lowest = b.x.type == ir::DataType::kInt8 ? -128 : 0;
  std::vector<float> t(ops::kLookupEntries);
  for (size_t i = 0; i < t.size(); ++i) {
    const float v = (static_cast<float>(lowest + static_cast<int>(i)) - b.x.zero) * b.x.scale;
    t[i] = b.f ? (*b.f)(v) : v;
  }
  return ir::Tensor::fromVector<float>(ir::DataType::kFloat, {static_cast<int64_t>(t.size())}, t);
}

ir::Tensor floats(std::vector<int64_t> dims, const std::vector<float>& v) {
  return ir::Tensor::fromVector<float>(ir::DataType::kFloat, std::move(dims), v);
}

void rewriteBlock(rewrite::Rewriter& rw, ir::Node& q, const Block& b) {
  ir::Graph& g = *q.owner();
  const std::vector<const ir::Node*> from(b.nodes.begin(), b.nodes.end());
  const std::string base = q.output(0)->name() + "_se";
  const FloatConv &c1 = b.conv1, &c2 = b.conv2;
  std::vector<ir::Value*> in{b.xq,
                             addConstant(rw, g, &q, base + "_table", inputTable(b), from),
                             addConstant(rw, g, &q, base + "_w1", floats({c1.m, c1.c}, c1.w), from),
                             addConstant(rw, g, &q, base + "_b1", floats({c1.m}, c1.b), from),
                             addConstant(rw, g, &q, base + "_w2", floats({c2.m, c2.c}, c2.w), from),
                             addConstant(rw, g, &q, base + "_b2", floats({c2.m}, c2.b), from),
                             q.input(1),
                             q.input(2)};
  ir::Node* n = fusedops::addFused(rw, ops::kQLinearSqueezeExcite, in, &q, from, q.output(0));
  rw.setAttr(n, ir::Attribute::makeInt(ops::kChannelsLast, b.channelsLast ? 1 : 0));
  const auto [lo0, hi0] = rangeOf(b.pooled);
  rw.setAttr(n, ir::Attribute::makeFloats(ops::kClip0, {lo0, hi0}));
  rw.setAttr(n, ir::Attribute::makeFloats(ops::kClip1, {c1.lo, c1.hi}));
  rw.setAttr(n, ir::Attribute::makeFloats(ops::kClip2, {c2.lo, c2.hi}));
  rw.setAttr(n, ir::Attribute::makeFloat("alpha", b.alpha));
  rw.setAttr(n, ir::Attribute::makeFloat("beta", b.beta));
  fusion::replaceAndErase(rw, q.output(0), n->output(0), b.nodes);
}

// Whether two (scale, zero point) pairs of inputs hold the same constants.
bool sameQuant(const ir::Value* s1, const ir::Value* z1, const ir::Value* s2, const ir::Value* z2) {
  auto a = quantOf(s1, z1, ir::DataType::kUInt8), b = quantOf(s2, z2, ir::DataType::kUInt8);
  return a && b && a->scale == b->scale && a->zero == b->zero && a->type == b->type;
}

// The exact form's further conditions (see the top); empty when they hold.
std::optional<MatchResult> exactFails(const Block& b) {
  if (!b.channelsLast)
    return MatchResult::failure(
        "exact only in the channels-last form (ReduceMean over axes 1, 2): GlobalAveragePool "
        "sums in another order");
  if (!inputOr(*b.qg, 2))
    return MatchResult::failure("the pooled mean's QuantizeLinear has no zero point");
  for (const ir::Node* c : {b.c1, b.c2}) {
    auto w = rewrite::constantValue(inputOr(*c, 3));
    if (!w || w->dtype() != ir::DataType::kInt8)
      return MatchResult::failure(Text::of("%1 has no int8 weight", c->name()));
    if (inputOr(*c, 5)) {
      auto z = rewrite::constantValue(inputOr(*c, 5));
      if (!z)
        return MatchResult::failure(Text::of("%1's weight zero point is not constant", c->name()));
      for (double v : z->toDoubleVector())
        if (v != 0)
          return MatchResult::failure(Text::of("%1's weight zero point is not 0", c->name()));
    }
    if (!inputOr(*c, 7))
      return MatchResult::failure(Text::of("%1 has no output zero point", c->name()));
    if (inputOr(*c, 8)) {
      auto bias = rewrite::constantValue(inputOr(*c, 8));
      if (!bias || bias->dtype() != ir::DataType::kInt32)
        return MatchResult::failure(Text::of("%1's bias is not a constant int32", c->name()));
    }
  }
  if (!sameQuant(inputOr(*b.c1, 1), inputOr(*b.c1, 2), inputOr(*b.qg, 1), inputOr(*b.qg, 2)) ||
      !sameQuant(inputOr(*b.c2, 1), inputOr(*b.c2, 2), inputOr(*b.c1, 6), inputOr(*b.c1, 7)))
    return MatchResult::failure(
        "a convolution's input quantization is not its producer's output quantization");
  return std::nullopt;
}

// W [M, C, 1, 1] as [M, C]; B as given or M zeros.
ir::Tensor weight2d(const ir::Node& c) {
  ir::Tensor w = *rewrite::constantValue(inputOr(c, 3));
  const std::vector<int64_t> d = w.dims();
  return ir::Tensor(w.dtype(), {d[0], d[1]}, w.buffer());
}
ir::Tensor biasOf(const ir::Node& c, int64_t m) {
  if (inputOr(c, 8)) return *rewrite::constantValue(inputOr(c, 8));
  return ir::Tensor(ir::DataType::kInt32, {m});
}

void rewriteExact(rewrite::Rewriter& rw, ir::Node& q, const Block& b) {
  ir::Graph& g = *q.owner();
  const std::vector<const ir::Node*> from(b.nodes.begin(), b.nodes.end());
  const std::string base = q.output(0)->name() + "_se";
  const ir::Node &c1 = *b.c1, &c2 = *b.c2;
  std::vector<ir::Value*> in{b.xq,
                             addConstant(rw, g, &q, base + "_table", inputTable(b), from),
                             addConstant(rw, g, &q, base + "_w1", weight2d(c1), from),
                             addConstant(rw, g, &q, base + "_b1", biasOf(c1, b.conv1.m), from),
                             addConstant(rw, g, &q, base + "_w2", weight2d(c2), from),
                             addConstant(rw, g, &q, base + "_b2", biasOf(c2, b.conv2.m), from),
                             q.input(1),
                             q.input(2),
                             b.qg->input(1),
                             b.qg->input(2),
                             c1.input(4),
                             c1.input(6),
                             c1.input(7),
                             c2.input(4),
                             c2.input(6),
                             c2.input(7)};
  ir::Node* n = fusedops::addFused(rw, ops::kQLinearSqueezeExcite, in, &q, from, q.output(0));
  rw.setAttr(n, ir::Attribute::makeInt(ops::kChannelsLast, 1));
  rw.setAttr(n, ir::Attribute::makeInt(ops::kExact, 1));
  rw.setAttr(n, ir::Attribute::makeFloat("alpha", b.alpha));
  rw.setAttr(n, ir::Attribute::makeFloat("beta", b.beta));
  fusion::replaceAndErase(rw, q.output(0), n->output(0), b.nodes);
}

MatchResult squeezeExciteUnit(ir::Node& q, const MatchContext& c, bool exact) {
  if (c.standardOnly)
    return MatchResult::failure("standard ONNX only: QLinearSqueezeExcite is ai.passlab");
  ir::Node* mul = producerOp(q.input(0), "Mul");
  if (!mul || !readOnlyBy(mul->output(0), 1))
    return MatchResult::failure("the input is not a Mul read only by this QuantizeLinear");
  auto y = quantOf(q.input(1), inputOr(q, 2), ir::DataType::kUndefined);
  if (!y || y->type == ir::DataType::kUndefined)
    return MatchResult::failure(
        "the QuantizeLinear has no constant scale and 8-bit zero point (one value each)");
  for (size_t k = 0; k < 2; ++k) {
    ir::Node* gate = producerOp(mul->input(k), "HardSigmoid");
    ir::Value* h = mul->input(1 - k);
    if (!gate || !rankOf(h) || *rankOf(h) != 4) continue;
    if (!readOnlyBy(h, 2)) return MatchResult::failure("the scaled tensor has other readers");
    Block b;
    b.y = *y;
    b.nodes = {&q, mul};
    if (auto failed = matchGate(gate, h, b)) return std::move(*failed);
    if (auto failed = matchInput(h, b)) return std::move(*failed);
    if (exact)
      if (auto failed = exactFails(b)) return std::move(*failed);
    std::vector<ir::Node*> matched = b.nodes;
    return MatchResult::success(matched, [&q, exact, b = std::move(b)](rewrite::Rewriter& rw) {
      exact ? rewriteExact(rw, q, b) : rewriteBlock(rw, q, b);
    });
  }
  return MatchResult::failure("no operand of the Mul is a HardSigmoid gate of a 4-D tensor");
}

fusion::Rules rules() {
  fusion::Rules r;
  auto lossy = [](ir::Node& q, const MatchContext& c) { return squeezeExciteUnit(q, c, false); };
  // Q(f(DQ(xq)) * HardSigmoid(DQ(QLinearConv(QLinearConv(Q(GlobalAveragePool(...)))))))
  //   -> ai.passlab.QLinearSqueezeExcite(xq, table, W1, B1, W2, B2, sy, zy)
  fusion::addRule(r, "qdq_squeeze_excite",
                  "Q(h * HardSigmoid(DQ(QLinearConv(QLinearConv(Q(GlobalAveragePool(h))))))), h = "
                  "f(DQ(xq)) -> ai.passlab.QLinearSqueezeExcite",
                  {"QuantizeLinear"}, lossy);
  return r;
}

fusion::Rules exactRules() {
  fusion::Rules r;
  auto exact = [](ir::Node& q, const MatchContext& c) { return squeezeExciteUnit(q, c, true); };
  fusion::addRule(
      r, "qdq_squeeze_excite_exact",
      "Q(h * HardSigmoid(DQ(QLinearConv(QLinearConv(Q(ReduceMean(h, axes 1, 2))))))), h "
      "= f(DQ(xq)) -> ai.passlab.QLinearSqueezeExcite <exact = 1>",
      {"QuantizeLinear"}, exact);
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeFuseQdqSqueezeExcite() {
  return std::make_unique<PatternPass>(catalogInfo("fuse_qdq_squeeze_excite"), rules());
}

std::unique_ptr<Pass> makeFuseQdqSqueezeExciteExact() {
  return std::make_unique<PatternPass>(catalogInfo("fuse_qdq_squeeze_excite_exact"), exactRules());
}

}  // namespace passlab::passes
