// merge_linear_convolutions — one window for a linear combination of windows of
// the same input, or a rank-1 window as a column pass and a row pass; whichever
// the cost model finds cheaper.
//
// Rule merge:
//   Before:  a tree of Add / Sub / Neg / Mul or Div by a scalar constant (an
//            Add or Sub of a scalar constant shifts the bias) whose
//            leaves ("terms") are x itself, Convs of x with constant weights,
//            or chains of such Convs (a separable column-then-row pair), each
//            optionally reading a Pad of x:
//              d = Sub(Conv(Conv(Pad(x, 1), Kv3), Kh3), Conv(Conv(Pad(x, 2), Kv5), Kh5))
//   After:   y = Conv(Pad(x, widest), K)  (constant mode: the Conv's own pads)
//   Algebra: convolution is linear, so the terms add up to one window per
//            channel: a chain's kernels compose by full 2-D convolution, a
//            scale multiplies the kernel and bias, an Add or Sub adds the
//            kernels zero-embedded, centred by their offsets, in the largest
//            box. Reflect and edge values at a given offset do not depend on
//            the Pad's width, so terms with different pads share the widest;
//            x itself is a delta kernel. Weights combined in float64 and
//            rounded once to float (changesNumerics).
// Rule split:
//   Before:  y = Conv(x, K)  (K of kh x kw, kh, kw > 1, rank 1 per channel
//            within rank1_tolerance of its norm: K[c] = u[c] v[c]^T)
//   After:   y = Conv(Conv(x, u as kh x 1, pads top/bottom), v as 1 x kw, pads left/right, bias)
// Both fire only when the cost model (core/analysis/window_cost.h, per output
// element: MACs of the kernels, bytes every node moves) finds the new form
// cheaper by min_gain. Each form is costed at its best: a Conv of the tree
// that the split rule would split counts as split, and the merged window
// counts as split when its kernel is rank 1 and that is cheaper; so a merge
// is never undone by a split, and a second run changes nothing.
// Conditions: every term reads the same float value x of rank 4 with a known
// channel count C; each Conv is 2-D, stride 1, dilation 1, auto_pad NOTSET
// (SAME_* pads follow from the input size at run time; explicit ones are
// needed), float weights [C, 1, kh, kw] with group = C (depthwise), or
// [1, 1, kh, kw] with one channel; other group structures mix channels or
// give several outputs per channel, which one per-channel window cannot hold.
// Pads are constant (spatial axes only, not negative), mode constant with
// value 0, reflect or edge, the same mode for every term; a Conv's own zero
// pads only when it reads x directly (constant mode). Every value inside the
// tree is read only inside it (not a graph output). The tree is taken at its
// largest root. Opsets: 11-28 (Pad's pads as an input).
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "core/analysis/window_cost.h"
#include "core/passes/fusion_utils.h"
#include "core/passes/linear_window.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"

namespace passlab::passes {

namespace {

using window::PadMode;
using window::Window;

// The kernels of a rank-1 window, or nullopt: per channel K = u v^T within
// `tol` times K's Frobenius norm.
struct Separable {
  std::vector<double> u, v;  // channels * kh, channels * kw
};
std::optional<Separable> rank1(const Window& w, double tol) {
  Separable s;
  for (int64_t c = 0; c < w.channels; ++c) {
    int64_t p = 0, q = 0;
    double norm2 = 0;
    for (int64_t a = 0; a < w.kh; ++a)
      for (int64_t b = 0; b < w.kw; ++b) {
        norm2 += w.at(c, a, b) * w.at(c, a, b);
        if (std::abs(w.at(c, a, b)) > std::abs(w.at(c, p, q))) p = a, q = b;
      }
    double pivot = w.at(c, p, q), err2 = 0;
    for (int64_t a = 0; a < w.kh; ++a) s.u.push_back(w.at(c, a, q));
    for (int64_t b = 0; b < w.kw; ++b) s.v.push_back(pivot == 0 ? 0 : w.at(c, p, b) / pivot);
    for (int64_t a = 0; a < w.kh; ++a)
      for (int64_t b = 0; b < w.kw; ++b) {
        double d = w.at(c, a, b) - s.u[c * w.kh + a] * s.v[c * w.kw + b];
        err2 += d * d;
      }
    if (err2 > tol * tol * norm2) return std::nullopt;
  }
  return s;
}

bool needsPadNode(const Window& w) {
  auto p = w.pads();
  bool any = std::any_of(p.begin(), p.end(), [](int64_t x) { return x != 0; });
  return any && (w.mode == PadMode::kReflect || w.mode == PadMode::kEdge);
}

double oneConvCost(const Window& w) {
  analysis::WindowCost c;
  if (needsPadNode(w)) c.addPad();
  c.addConv(w.kh * w.kw, w.channels);
  return c.ns();
}
double splitCost(const Window& w) {
  analysis::WindowCost c;
  if (needsPadNode(w)) c.addPad();
  c.addConv(w.kh, w.channels);
  c.addConv(w.kw, w.channels);
  return c.ns();
}

// "1.25": two decimals, for the reasons.
std::string nsText(double ns) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(2) << ns;
  return os.str();
}

// "" when `now` beats `before` by the fraction `gain`; else the reason
// (for one window, or for the split when `split`).
Text whyNotCheaper(double now, double before, double gain, bool split) {
  if (now < before * (1.0 - gain)) return "";
  if (split)
    return Text::of(
        "the cost model does not find a column pass and a row pass cheaper (%1 against %2 ns "
        "per output element; min_gain %3)",
        nsText(now), nsText(before), nsText(gain));
  return Text::of(
      "the cost model does not find one window cheaper (%1 against %2 ns per output element; "
      "min_gain %3)",
      nsText(now), nsText(before), nsText(gain));
}

// The window of one Conv of x (its own pads: constant mode), weights `wt`.
Window convWindow(const ir::Node& conv, const ir::Tensor& wt) {
  std::vector<int64_t> pads = conv.attrInts("pads", {0, 0, 0, 0});
  Window w;
  w.channels = wt.dims()[0];
  w.kh = wt.dims()[2], w.kw = wt.dims()[3];
  w.k = *fusion::floatValues(wt);
  w.bias = conv.input(2) ? *fusion::floatValues(conv.input(2))
                         : std::vector<double>(static_cast<size_t>(w.channels), 0.0);
  w.top0 = -pads[0], w.left0 = -pads[1];
  w.dh = pads[0] + pads[2] - (w.kh - 1), w.dw = pads[1] + pads[3] - (w.kw - 1);
  w.mode = PadMode::kConstant;
  return w;
}

// The cost of the tree's nodes, each Conv at its best (split where its kernel
// is rank 1 and the split is cheaper by `gain`: what the split rule makes of it).
double treeCost(const std::vector<ir::Node*>& nodes, double tol, double gain) {
  analysis::WindowCost c;
  double convs = 0;
  for (const ir::Node* n : nodes) {
    const std::string& op = n->opType();
    if (op == "Conv") {
      Window w = convWindow(*n, *rewrite::constantValue(n->input(1)));
      double one = oneConvCost(w), best = one;
      if (w.kh > 1 && w.kw > 1 && rank1(w, tol) &&
          whyNotCheaper(splitCost(w), one, gain, true).empty())
        best = splitCost(w);
      convs += best;
    } else if (op == "Pad") {
      c.addPad();
    } else if (size_t at = 0; (op == "Add" || op == "Sub") && !window::scalarOperand(*n, at)) {
      c.addBinary();
    } else {
      c.addUnary();
    }
  }
  return c.ns() + convs;
}

// ---- building the new nodes ----

// The kernels as float weights [channels, 1, kh, kw] (-0 written as 0).
ir::Tensor weights(std::vector<double> k, int64_t channels, int64_t kh, int64_t kw) {
  for (double& x : k) x += 0.0;
  return fusion::floatTensor(ir::DataType::kFloat, {channels, 1, kh, kw}, k);
}

// A Conv of `in` with one kernel per channel (group = channels), before `at`.
ir::Node* addWindowConv(rewrite::Rewriter& rw, ir::Node* at, ir::Value* in, ir::Tensor w,
                        const std::vector<double>& bias, const std::vector<int64_t>& pads,
                        const std::vector<const ir::Node*>& from, const ir::Value* typeLike) {
  ir::Graph& g = *at->owner();
  int64_t channels = w.dims()[0];
  std::vector<ir::Value*> ins{in, addConstant(rw, g, at, "window", std::move(w), from)};
  if (std::any_of(bias.begin(), bias.end(), [](double b) { return b != 0; }))
    ins.push_back(addConstant(rw, g, at, "window_bias",
                              fusion::floatTensor(ir::DataType::kFloat, {channels}, bias), from));
  std::vector<const ir::Value*> types;
  if (typeLike) types.push_back(typeLike);
  ir::Node* conv = fusion::addDerived(rw, "Conv", ins, at, from, nullptr, types);
  if (channels > 1) rw.setAttr(conv, ir::Attribute::makeInt("group", channels));
  if (std::any_of(pads.begin(), pads.end(), [](int64_t p) { return p != 0; }))
    rw.setAttr(conv, ir::Attribute::makeInts("pads", pads));
  return conv;
}

// Pad(x) in the window's mode when it needs one, else x; the pads left to the Conv.
ir::Value* padInput(rewrite::Rewriter& rw, ir::Node* at, ir::Value* x, const Window& w,
                    const std::vector<const ir::Node*>& from, std::vector<int64_t>& convPads) {
  auto p = w.pads();  // top, left, bottom, right
  convPads = p;
  if (!needsPadNode(w)) return x;
  convPads.assign(4, 0);
  ir::Value* pads = addConstant(rw, *at->owner(), at, "window_pads",
                                ir::Tensor::fromInt64s({0, 0, p[0], p[1], 0, 0, p[2], p[3]}), from);
  ir::Node* pad = fusion::addDerived(rw, "Pad", {x, pads}, at, from);
  rw.setAttr(pad, ir::Attribute::makeString("mode", window::padModeName(w.mode)));
  return pad->output(0);
}

// ---- rules ----

double gainOption(const MatchContext& c) {
  return std::stod(c.option("min_gain", "0.1"));
}
double tolOption(const MatchContext& c) {
  return std::stod(c.option("rank1_tolerance", "1e-06"));
}

// "" when `n` is the largest tree's root: its result does not feed a larger one.
Text whyNotRoot(const ir::Node& n) {
  ir::Node* next = rewrite::soleConsumer(n.output(0));
  if (!next || !window::isTreeNode(*next)) return "";
  Text ignored;
  if (!window::readTree(*next, ignored)) return "";
  return Text::of("part of the larger combination ending at %1", rewrite::nodeText(*next));
}

MatchResult merge(ir::Node& root, const MatchContext& c) {
  if (Text why = fusion::whyNotOpset(c, 11, 28, "merge_linear_convolutions"); !why.empty())
    return MatchResult::failure(why);
  if (!window::isTreeNode(root))
    return MatchResult::failure(
        "not a linear op of windows (Add, Sub, Neg, Mul or Div by a scalar constant, Conv)");
  if (Text why = whyNotRoot(root); !why.empty()) return MatchResult::failure(why);
  Text why;
  auto tree = window::readTree(root, why);
  if (!tree) return MatchResult::failure(why);
  const Window& w = tree->window;
  for (int64_t p : w.pads())
    if (p < 0) return MatchResult::failure("the combined window would crop x (a negative pad)");
  double before = treeCost(tree->nodes, tolOption(c), gainOption(c)), after = oneConvCost(w);
  if (rank1(w, tolOption(c))) after = std::min(after, splitCost(w));
  if (Text no = whyNotCheaper(after, before, gainOption(c), false); !no.empty())
    return MatchResult::failure(no);
  std::vector<ir::Node*> nodes = tree->nodes;
  return MatchResult::success(nodes, [&root, nodes, t = *tree](rewrite::Rewriter& rw) {
    std::vector<const ir::Node*> from(nodes.begin(), nodes.end());
    std::vector<int64_t> convPads;
    ir::Value* in = padInput(rw, &root, t.source, t.window, from, convPads);
    const Window& w = t.window;
    ir::Node* conv = addWindowConv(rw, &root, in, weights(w.k, w.channels, w.kh, w.kw), w.bias,
                                   convPads, from, root.output(0));
    fusion::replaceAndErase(rw, root.output(0), conv->output(0), nodes);
  });
}

MatchResult split(ir::Node& conv, const MatchContext& c) {
  if (Text why = fusion::whyNotOpset(c, 11, 28, "merge_linear_convolutions"); !why.empty())
    return MatchResult::failure(why);
  if (Text why = window::whyNotWindowConv(conv); !why.empty()) return MatchResult::failure(why);
  auto wt = rewrite::constantValue(conv.input(1));
  if (wt->dims()[2] < 2 || wt->dims()[3] < 2)
    return MatchResult::failure("the kernel is already one row or one column");
  Window w = convWindow(conv, *wt);
  auto s = rank1(w, tolOption(c));
  if (!s) return MatchResult::failure("the kernel is not rank 1 (not separable)");
  if (Text no = whyNotCheaper(splitCost(w), oneConvCost(w), gainOption(c), true); !no.empty())
    return MatchResult::failure(no);
  return MatchResult::success({&conv}, [&conv, w, s = *s](rewrite::Rewriter& rw) {
    auto p = w.pads();
    std::vector<const ir::Node*> from{&conv};
    ir::Node* col = addWindowConv(rw, &conv, conv.input(0), weights(s.u, w.channels, w.kh, 1), {},
                                  {p[0], 0, p[2], 0}, from, nullptr);
    ir::Node* row = addWindowConv(rw, &conv, col->output(0), weights(s.v, w.channels, 1, w.kw),
                                  w.bias, {0, p[1], 0, p[3]}, from, conv.output(0));
    fusion::replaceAndErase(rw, conv.output(0), row->output(0), {&conv});
  });
}

fusion::Rules rules() {
  fusion::Rules r;
  // Add/Sub/Neg/scalar Mul/Div of windows of x -> Conv(Pad(x), combined kernel)
  fusion::addRule(r, "merge", "a linear combination of windows of x -> one Conv",
                  {"Add", "Sub", "Neg", "Mul", "Div", "Conv"}, merge);
  // Conv with a rank-1 kernel -> Conv(kh x 1) then Conv(1 x kw)
  fusion::addRule(r, "split", "Conv with a rank-1 kernel -> a column Conv and a row Conv", {"Conv"},
                  split);
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeMergeLinearConvolutions() {
  return std::make_unique<PatternPass>(catalogInfo("merge_linear_convolutions"), rules());
}

}  // namespace passlab::passes
