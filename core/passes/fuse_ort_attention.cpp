// fuse_ort_attention — the self-attention subgraph of GPT-2 and BERT style
// models becomes ONNX Runtime's Attention (ONNX Runtime target).
//
// Before:  qkv = x · W (+ b)            (MatMul [+ Add], or Reshape -> Gemm -> Reshape)
//          q, k, v = Split(qkv, last axis)  (or three Slices of it)
//          each: Reshape to [B, S, N, H], Transpose to [B, N, S, H] (k to [B, N, H, S])
//          with a cache: k = Concat(past[0], k), v = Concat(past[1], v) along the sequence
//          (past [2, B, N, P, H] read by Gather(past, i) or Squeeze(Split(past)[i]))
//          p = Softmax(mask(scale * (q · kᵀ)))  (scale: Div/Mul on q, kᵀ or the product)
//          y = Reshape(Transpose(p · v, [0, 2, 1, 3]), [B, S, N*H])
//          present = Concat(Unsqueeze(k), Unsqueeze(v))   (k, v as [B, N, T, H])
//          mask (any of): Where(causal, s, -10000) with `causal` the slice [T-S:T, 0:T]
//          of a constant lower-triangular matrix (GPT-2); s * m - 10000 * (1 - m) with m
//          the slice [T-S:T, 0:T] of a [B, 1, M, M] tensor (Megatron); s + k * (1 - m4),
//          m4 a [B, T] mask unsqueezed to [B, 1, 1, T] (BERT, GPT-2 padding)
// After:   y, present = com.microsoft.Attention<num_heads = N, unidirectional>
//                          (x, W, b, [Cast<int32>(mask)], [past])
// Algebra: Attention computes exactly this: Q, K and V from one packed
// weight (columns [Q | K | V], heads in order within each, as the Reshape
// splits them), K and V after the cache, softmax(Q Kᵀ · scale + mask) V with
// heads merged back, and present = [K; V]. unidirectional masks t > P + s,
// which is what the triangular slice keeps (the -10000 it writes and the
// kernel's mask value both vanish in the softmax). The Megatron mask goes
// in as a 4-D mask_index (rows P..P+S-1 and columns 0..T-1 are read), the
// padding mask as a 2-D one; 0 masks with the subgraph's constant (-10000)
// as mask_filter_value. That is equal only when the mask holds 0s and 1s, as
// ONNX Runtime assumes; option assume_binary_mask (default true) says the
// model's masks are such (a bool mask cast to float is). Results agree
// within rounding (changesNumerics).
// Conditions: Softmax over the last axis of a rank-4 tensor; Q, K and V of
// one width D = N*H from the same x [B, S, Din] with constant weights (and
// bias); the heads reshape [B, S, D] -> [B, S, N, H] (checked on the
// inferred shapes; the Shape/Gather/Concat arithmetic that feeds them goes
// with the subgraph); the scale factors scalar constants (a scale other than
// 1/sqrt(H) becomes the `scale` attribute); slice bounds proved equal to
// T - S, T and 0 from the Shape arithmetic; mask constants k of magnitude
// 1000 or more; every intermediate read only inside the subgraph or by Shape
// nodes (shape arithmetic read elsewhere too, such as position ids computed
// from the cache length, keeps what it reads); the context and present
// outputs replace the Reshape and the Concat.
// Opsets: 1-28.
#include <algorithm>
#include <cmath>
#include <memory>
#include <set>

#include "core/passes/ort_attention_parts.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"

namespace passlab::passes {

namespace {

using namespace ortattention;  // NOLINT(google-build-using-namespace): this pass's own parts

// The one reader of `v` that is not a Shape node (Shape readers feed the
// shape arithmetic, checked with the rest of the subgraph), or nullptr.
ir::Node* mainConsumer(const ir::Value* v) {
  return v && !v->isGraphOutput() ? rewrite::onlyReader(v, "Shape") : nullptr;
}

// Sets `why` and says no match.
bool fail(Text& why, Text text) {
  why = std::move(text);
  return false;
}

bool isDefaultOp(const ir::Node* n, std::string_view op) {
  return n && n->domain().empty() && n->opType() == op;
}

// What a match found: the subgraph's nodes (root first, in the order the
// edit log sees them) and what the Attention node is made of.
struct Match {
  std::vector<ir::Node*> nodes;
  ir::Node* pv = nullptr;  // probabilities · V
  Mask mask;
  double scale = 1.0;
  ir::Value* q = nullptr;  // Q and Kᵀ as the scores' MatMul reads them, scales stripped
  ir::Value* k = nullptr;
  std::optional<Desc> qd, kd, vd;
  int64_t heads = 0, headSize = 0;
  std::optional<Projection> proj;
  ir::Node* merge = nullptr;    // the Reshape to [B, S, N*H]: the context output
  ir::Node* present = nullptr;  // the Concat of K and V: the present output, or nullptr
  std::vector<ir::Node*> dead;  // what goes once the outputs are replaced
};

void addAll(std::vector<ir::Node*>& nodes, const std::vector<ir::Node*>& more) {
  for (ir::Node* n : more)
    if (std::find(nodes.begin(), nodes.end(), n) == nodes.end()) nodes.push_back(n);
}

// Softmax(mask(scale * (q · kᵀ))) · v: the Softmax over the last axis, the
// MatMuls on either side, the masks and the scale factors.
bool matchScores(ir::Node& softmax, const MatchContext& c, Match& m, Text& why) {
  ir::Value* smIn = softmax.input(0);
  if (rankOf(smIn) != 4) return fail(why, "the Softmax input is not of rank 4");
  int64_t axis = softmax.attrInt("axis", c.opset < 13 ? 1 : -1);
  if (axis != 3 && axis != -1) return fail(why, "the Softmax is not over the last axis");
  m.pv = mainConsumer(softmax.output(0));
  if (!isDefaultOp(m.pv, "MatMul") || m.pv->input(0) != softmax.output(0))
    return fail(why, "the probabilities are not multiplied by V in one MatMul");
  const bool assumeBinary = c.boolOption("assume_binary_mask", true);
  ir::Value* scores = peelMask(smIn, m.mask, assumeBinary, why);
  if (!scores) return false;
  m.nodes = {&softmax, m.pv};
  m.nodes.insert(m.nodes.end(), m.mask.core.begin(), m.mask.core.end());
  ir::Node* qk = producerOp(stripScale(scores, m.scale, m.nodes), "MatMul");
  if (!qk) return fail(why, "the scores are not a MatMul of Q and Kᵀ");
  m.nodes.push_back(qk);
  m.q = stripScale(qk->input(0), m.scale, m.nodes);
  m.k = stripScale(qk->input(1), m.scale, m.nodes);
  return true;
}

// Q as [B, N, S, H], K as [B, N, H, T] and V as [B, N, T, H], split into the
// same heads by Reshapes, K and V after one cache (if any).
bool matchHeads(Match& m, Text& why) {
  if (!(m.qd = describe(m.q, why))) return fail(why, Text::of("Q: %1", why));
  if (!(m.kd = describe(m.k, why))) return fail(why, Text::of("K: %1", why));
  if (!(m.vd = describe(m.pv->input(1), why))) return fail(why, Text::of("V: %1", why));
  const Desc &q = *m.qd, &k = *m.kd, &v = *m.vd;
  if (q.past || q.axes != std::array<int, 4>{0, 1, 2, 3})
    return fail(why, "Q is not [B, N, S, H] of the current step");
  if (k.axes != std::array<int, 4>{0, 1, 3, 2})
    return fail(why, "K is not transposed to [B, N, H, T] before the product");
  if (v.axes != std::array<int, 4>{0, 1, 2, 3}) return fail(why, "V is not [B, N, T, H]");
  if (k.isPast || v.isPast) return fail(why, "K or V is the cache alone");
  if ((k.past != v.past) || (k.past && (k.pastIndex != 0 || v.pastIndex != 1)))
    return fail(why, "K and V do not read keys (0) and values (1) of one cache");
  const ir::Shape& qs = *q.reshape->output(0)->type().shape();
  for (const Desc* d : {&k, &v}) {
    const ir::Shape& s = *d->reshape->output(0)->type().shape();
    if (!s[2].sameAs(qs[2]) || !s[3].sameAs(qs[3]) || !s[0].sameAs(qs[0]) || !s[1].sameAs(qs[1]))
      return fail(why, "Q, K and V are not split into the same heads");
  }
  m.heads = qs[2].value();
  m.headSize = qs[3].value();
  return true;
}

// One packed projection x · W (+ b) of a float x whose batch and sequence the heads keep.
bool matchProjection(Match& m, Text& why) {
  m.proj = projectionOf({m.qd->reshape->input(0), m.kd->reshape->input(0), m.vd->reshape->input(0)},
                        why);
  if (!m.proj) return false;
  const ir::Shape& qs = *m.qd->reshape->output(0)->type().shape();
  const ir::Shape& xs = *m.proj->x->type().shape();
  if (!xs[0].sameAs(qs[0]) || !xs[1].sameAs(qs[1]))
    return fail(why, "the heads do not keep x's batch and sequence dims");
  if (!fusion::isFloatType(elemTypeOf(m.proj->x))) return fail(why, "x is not a float tensor");
  return true;
}

// The context: Transpose to [B, S, N, H], Reshape to [B, S, N*H].
bool matchContext(Match& m, Text& why) {
  ir::Node* ct = mainConsumer(m.pv->output(0));
  auto cperm = isDefaultOp(ct, "Transpose") ? fusion::transposePerm(*ct) : std::nullopt;
  if (!cperm || *cperm != std::vector<int64_t>{0, 2, 1, 3})
    return fail(why, "the context is not transposed back to [B, S, N, H]");
  ir::Node* cr = mainConsumer(ct->output(0));
  if (!isDefaultOp(cr, "Reshape") || rankOf(cr->output(0)) != 3)
    return fail(why, "the context heads are not merged by a Reshape");
  const ir::Shape& xs = *m.proj->x->type().shape();
  const ir::Shape& os = *cr->output(0)->type().shape();
  if (!os[0].sameAs(xs[0]) || !os[1].sameAs(xs[1]) || !os[2].sameAs(ir::Dim(m.heads * m.headSize)))
    return fail(why, Text::of("the merging Reshape does not give [B, S, N*H] (%1)",
                              typeText(cr->output(0))));
  m.merge = cr;
  m.nodes.push_back(ct);
  m.nodes.push_back(cr);
  shapeProducers(cr->input(1), m.nodes);
  addAll(m.nodes, m.qd->nodes);
  addAll(m.nodes, m.kd->nodes);
  addAll(m.nodes, m.vd->nodes);
  addAll(m.nodes, m.proj->nodes);
  return true;
}

// The present Concat of K and V, when there is one, with its nodes.
bool matchPresent(Match& m, Text& why) {
  m.present = findPresent(*m.kd, *m.vd, m.nodes);
  if (!m.present) return true;
  auto pn = presentNodes(m.present, *m.kd, *m.vd, why);
  if (!pn) return false;
  addAll(m.nodes, *pn);
  return true;
}

// By node id, not address: the order of the removals in the edit log, which
// must not vary from run to run.
struct ById {
  bool operator()(const ir::Node* a, const ir::Node* b) const { return a->id() < b->id(); }
};
using ShapeSide = std::set<ir::Node*, ById>;

// The Shape nodes outside the subgraph that read values made inside it;
// false with `why` when such a value is a graph output or read otherwise.
bool shapeReaders(const Match& m, const std::set<ir::Node*>& inside, ShapeSide& side, Text& why) {
  const ir::Value* out = m.merge->output(0);
  const ir::Value* presentOut = m.present ? m.present->output(0) : nullptr;
  for (ir::Node* n : m.nodes)
    for (ir::Value* o : n->outputs()) {
      if (!o || o == out || o == presentOut) continue;
      if (o->isGraphOutput()) return fail(why, Text::of("'%1' is a graph output", o->name()));
      for (const ir::Use& u : rewrite::usesInNodeOrder(o)) {
        if (inside.count(u.node)) continue;
        if (u.node->owner() != n->owner() || !isDefaultOp(u.node, "Shape"))
          return fail(why, Text::of("'%1' is read outside the subgraph (%2)", o->name(),
                                    fusion::nodeText(*u.node)));
        side.insert(u.node);
      }
    }
  return true;
}

// Adds to `side` the shape arithmetic that its nodes feed. A shape value read
// elsewhere too (position ids computed from the cache length) keeps what it
// reads; the rest of the subgraph still goes.
void shapeArithmeticOf(const std::set<ir::Node*>& inside, ShapeSide& side) {
  std::vector<ir::Node*> queue(side.begin(), side.end());
  while (!queue.empty()) {
    ir::Node* s = queue.back();
    queue.pop_back();
    for (ir::Value* o : s->outputs()) {
      if (!o) continue;
      for (const ir::Use& u : o->uses()) {
        if (inside.count(u.node) || side.count(u.node)) continue;
        if (!u.node->domain().empty() || !isShapeArithmeticOp(u.node->opType()) ||
            !isShapeInt(u.node->output(0)))
          continue;
        side.insert(u.node);
        queue.push_back(u.node);
      }
    }
  }
}

// Closed: every value made inside is read inside, or by Shape nodes (whose
// arithmetic goes with the subgraph when nothing else reads it). Sets m.dead.
bool matchClosed(Match& m, Text& why) {
  std::set<ir::Node*> inside(m.nodes.begin(), m.nodes.end());
  inside.insert(m.mask.side.begin(), m.mask.side.end());
  ShapeSide side;
  if (!shapeReaders(m, inside, side, why)) return false;
  shapeArithmeticOf(inside, side);
  m.dead = m.nodes;
  m.dead.insert(m.dead.end(), m.mask.side.begin(), m.mask.side.end());
  for (ir::Node* s : side) {
    m.dead.push_back(s);
    for (ir::Value* in : s->inputs()) shapeProducers(in, m.dead);
  }
  return true;
}

// Attention(x, W, b, [mask_index], [past]) in place of the context Reshape
// and the present Concat.
void emitAttention(rewrite::Rewriter& rw, const Match& m) {
  ir::Graph& g = *m.merge->owner();
  const Projection& p = *m.proj;
  ir::Value* past = m.kd->past;
  ir::Value* maskIndex = m.mask.index;
  std::vector<const ir::Node*> from(m.nodes.begin(), m.nodes.end());
  std::vector<ir::Node*> ends{m.merge};
  if (m.present) ends.push_back(m.present);
  ir::Node* before = fusion::firstInOrder(g, ends);
  ir::Value* w = p.weights
                     ? p.weights
                     : addConstant(rw, g, before, "attention_qkv_weight", *p.newWeights, from);
  ir::Value* b = p.biasValue;
  if (!b && p.bias) b = addConstant(rw, g, before, "attention_qkv_bias", *p.bias, from);
  std::vector<ir::Value*> ins{p.x, w, b};
  if (maskIndex || past)
    ins.push_back(maskIndex ? ortfusion::castTo(rw, maskIndex, ir::DataType::kInt32, before, from)
                            : nullptr);
  if (past) ins.push_back(past);
  while (!ins.empty() && !ins.back()) ins.pop_back();
  ir::Value* presentOut = m.present ? m.present->output(0) : nullptr;
  ir::Node* a = ortfusion::addMsNode(rw, "Attention", ins, before, from,
                                     {m.merge->output(0), presentOut}, m.present ? 2 : 1);
  rw.setAttr(a, ir::Attribute::makeInt("num_heads", m.heads));
  rw.setAttr(a, ir::Attribute::makeInt("unidirectional", m.mask.causal ? 1 : 0));
  if (maskIndex && m.mask.filter != -10000.0f)
    rw.setAttr(a, ir::Attribute::makeFloat("mask_filter_value", m.mask.filter));
  const double defaultScale = 1.0 / std::sqrt(static_cast<double>(m.headSize));
  if (std::fabs(m.scale - defaultScale) > 1e-6 * defaultScale)
    rw.setAttr(a, ir::Attribute::makeFloat("scale", static_cast<float>(m.scale)));
  rw.replaceAllUsesWith(m.merge->output(0), a->output(0));
  if (m.present) rw.replaceAllUsesWith(m.present->output(0), a->output(1));
  fusion::eraseDead(rw, m.dead);
}

MatchResult attention(ir::Node& softmax, const MatchContext& c) {
  auto m = std::make_shared<Match>();
  Text why;
  if (!matchScores(softmax, c, *m, why) || !matchHeads(*m, why) || !matchProjection(*m, why) ||
      !matchContext(*m, why) || !matchPresent(*m, why) || !matchClosed(*m, why))
    return MatchResult::failure(why);
  return MatchResult::success(m->nodes, [m](rewrite::Rewriter& rw) { emitAttention(rw, *m); });
}

fusion::Rules rules() {
  fusion::Rules r;
  // Softmax(mask(Q Kᵀ scale)) V with heads split and merged -> Attention(x, W, b, mask, past)
  fusion::addRule(r, "ort_attention",
                  "heads of x·W split, Softmax(mask(Q Kᵀ·scale))·V merged -> com.microsoft "
                  "Attention",
                  {"Softmax"}, attention);
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeFuseOrtAttention() {
  return std::make_unique<PatternPass>(catalogInfo("fuse_ort_attention"), rules());
}

}  // namespace passlab::passes
