#include "core/passes/linear_window.h"

#include <algorithm>
#include <unordered_map>

#include "core/passes/fusion_utils.h"

namespace passlab::passes::window {

const char* padModeName(PadMode m) {
  switch (m) {
    case PadMode::kAny:
      return "none";
    case PadMode::kConstant:
      return "constant";
    case PadMode::kReflect:
      return "reflect";
    case PadMode::kEdge:
      return "edge";
  }
  return "?";
}

Window Window::identity(int64_t channels) {
  Window w;
  w.channels = channels;
  w.k.assign(static_cast<size_t>(channels), 1.0);
  w.bias.assign(static_cast<size_t>(channels), 0.0);
  return w;
}

namespace {

// `w` with its kernels zero-embedded in the offset box [top0, top0+kh) x [left0, left0+kw).
Window embedded(const Window& w, int64_t top0, int64_t left0, int64_t kh, int64_t kw) {
  Window e = w;
  e.top0 = top0, e.left0 = left0, e.kh = kh, e.kw = kw;
  e.k.assign(static_cast<size_t>(w.channels * kh * kw), 0.0);
  for (int64_t c = 0; c < w.channels; ++c)
    for (int64_t a = 0; a < w.kh; ++a)
      for (int64_t b = 0; b < w.kw; ++b)
        e.at(c, a + w.top0 - top0, b + w.left0 - left0) = w.at(c, a, b);
  return e;
}

}  // namespace

std::optional<Window> combine(const Window& a, const Window& b, double s, Text& why) {
  if (a.channels != b.channels) {
    why = Text::of("the terms have %1 and %2 channels", std::to_string(a.channels),
                   std::to_string(b.channels));
    return std::nullopt;
  }
  if (a.dh != b.dh || a.dw != b.dw) {
    why = "the terms have different output sizes";
    return std::nullopt;
  }
  if (a.mode != PadMode::kAny && b.mode != PadMode::kAny && a.mode != b.mode) {
    why = Text::of("the terms pad x in different modes (%1 and %2)", padModeName(a.mode),
                   padModeName(b.mode));
    return std::nullopt;
  }
  int64_t top0 = std::min(a.top0, b.top0), left0 = std::min(a.left0, b.left0);
  int64_t kh = std::max(a.top0 + a.kh, b.top0 + b.kh) - top0;
  int64_t kw = std::max(a.left0 + a.kw, b.left0 + b.kw) - left0;
  Window r = embedded(a, top0, left0, kh, kw);
  Window e = embedded(b, top0, left0, kh, kw);
  for (size_t i = 0; i < r.k.size(); ++i) r.k[i] += s * e.k[i];
  for (size_t c = 0; c < r.bias.size(); ++c) r.bias[c] += s * e.bias[c];
  if (r.mode == PadMode::kAny) r.mode = b.mode;
  return r;
}

Window scaled(const Window& a, double s) {
  Window r = a;
  for (double& x : r.k) x *= s;
  for (double& x : r.bias) x *= s;
  return r;
}

Window composeConv(const Window& a, const std::vector<double>& w, int64_t kh, int64_t kw,
                   const std::vector<double>& bias) {
  // y2[i] = b2 + sum_u w[u] y1[i + u] = b2 + sum_u w[u] (b1 + sum_o k1[o] x[i + u + o])
  Window r = a;
  r.kh = a.kh + kh - 1, r.kw = a.kw + kw - 1;
  r.dh = a.dh - (kh - 1), r.dw = a.dw - (kw - 1);
  r.k.assign(static_cast<size_t>(a.channels * r.kh * r.kw), 0.0);
  for (int64_t c = 0; c < a.channels; ++c) {
    double wsum = 0;
    for (int64_t u = 0; u < kh; ++u)
      for (int64_t v = 0; v < kw; ++v) {
        double wv = w[(c * kh + u) * kw + v];
        wsum += wv;
        for (int64_t p = 0; p < a.kh; ++p)
          for (int64_t q = 0; q < a.kw; ++q) r.at(c, u + p, v + q) += wv * a.at(c, p, q);
      }
    r.bias[c] = a.bias[c] * wsum + (bias.empty() ? 0.0 : bias[c]);
  }
  return r;
}

// The constant holding one value among the operands of a binary `n`
// (broadcast keeping the other operand's shape), and its input index in `at`.
std::optional<double> scalarOperand(const ir::Node& n, size_t& at) {
  for (size_t i : {size_t{1}, size_t{0}}) {
    auto c = fusion::scalarValue(n.input(i));
    if (c && rewrite::broadcastKeepsShape(n.input(1 - i), n.input(i))) {
      at = i;
      return c;
    }
  }
  return std::nullopt;
}

namespace {

bool isOp(const ir::Node* n, std::string_view op) {
  return fusion::defaultOp(n, op) != nullptr;
}

// The scale of a Mul / Div by a constant holding one value (broadcast keeping
// the other operand's shape): the operand index of the other input in `other`.
std::optional<double> scalarScale(const ir::Node& n, size_t& other) {
  bool mul = isOp(&n, "Mul");
  if ((!mul && !isOp(&n, "Div")) || n.inputCount() != 2) return std::nullopt;
  for (size_t i : {size_t{1}, size_t{0}}) {
    if (!mul && i == 0) break;  // only the divisor may be the constant
    auto s = fusion::scalarValue(n.input(i));
    if (!s || !rewrite::broadcastKeepsShape(n.input(1 - i), n.input(i))) continue;
    if (!mul && *s == 0.0) return std::nullopt;
    other = 1 - i;
    return mul ? *s : 1.0 / *s;
  }
  return std::nullopt;
}

// Pads of a Pad node per axis (begin..., end...) over a rank-4 tensor.
std::optional<std::vector<int64_t>> padAmounts(const ir::Node& pad, Text& why) {
  const int64_t rank = 4;
  std::optional<std::vector<int64_t>> raw;
  if (pad.hasAttr("pads") || pad.hasAttr("paddings"))
    raw = pad.attrInts(pad.hasAttr("pads") ? "pads" : "paddings");
  else
    raw = constantInts(pad.input(1));
  std::vector<int64_t> axes{0, 1, 2, 3};
  if (pad.input(3)) {
    auto a = constantInts(pad.input(3));
    auto n = a ? normalizeAxes(*a, rank) : std::nullopt;
    if (!n)
      raw.reset();
    else
      axes = *n;
  }
  if (!raw || raw->size() != 2 * axes.size()) {
    why = "Pad pads are not constant";
    return std::nullopt;
  }
  std::vector<int64_t> out(2 * rank, 0);
  for (size_t i = 0; i < axes.size(); ++i) {
    out[axes[i]] = (*raw)[i];
    out[rank + axes[i]] = (*raw)[axes.size() + i];
  }
  return out;
}

// "" when `conv` is a 2-D stride-1 Conv with constant float weights whose
// every output channel reads one input channel of its own.
Text whyNotWindowConvImpl(const ir::Node& conv) {
  auto wt = rewrite::constantValue(conv.input(1));
  if (!wt || wt->dtype() != ir::DataType::kFloat || !fusion::floatValues(*wt))
    return Text::of("%1 weights are not a float constant", rewrite::nodeText(conv));
  if (wt->rank() != 4) return Text::of("%1 is not a 2-D convolution", rewrite::nodeText(conv));
  auto bias =
      conv.input(2) ? fusion::floatValues(conv.input(2)) : std::vector<double>(wt->dims()[0]);
  if (!bias || static_cast<int64_t>(bias->size()) != wt->dims()[0])
    return Text::of("%1 bias is not a float constant with one value per output channel",
                    rewrite::nodeText(conv));
  if (conv.attrInts("pads", {0, 0, 0, 0}).size() != 4)
    return Text::of("%1 pads are not 4 values", rewrite::nodeText(conv));
  if (std::string ap = conv.attrString("auto_pad", "NOTSET"); ap != "NOTSET")
    return Text::of(
        "%1 has auto_pad = %2 (its pads follow from the input size; explicit pads are needed)",
        rewrite::nodeText(conv), ap);
  if (conv.attrInts("strides", {1, 1}) != std::vector<int64_t>{1, 1})
    return Text::of("%1 has strides other than 1", rewrite::nodeText(conv));
  if (conv.attrInts("dilations", {1, 1}) != std::vector<int64_t>{1, 1})
    return Text::of("%1 has dilations other than 1", rewrite::nodeText(conv));
  int64_t group = conv.attrInt("group", 1), m = wt->dims()[0];
  if (wt->dims()[1] != 1 || group != m)
    return Text::of(
        "%1 has group %2 with %3 input channels per group and %4 outputs: not one input "
        "channel per output channel (a per-channel window cannot hold it)",
        rewrite::nodeText(conv), std::to_string(group), std::to_string(wt->dims()[1]),
        std::to_string(m));
  return "";
}

class Reader {
 public:
  std::optional<Tree> run(ir::Node& root, Text& why) {
    auto w = read(root.output(0));
    if (!w) {
      why = why_;
      return std::nullopt;
    }
    Tree t;
    t.source = source_;
    t.window = std::move(*w);
    t.nodes = nodes_;
    t.terms = terms_;
    if (convs_ == 0)
      why = "there is no Conv in the combination";
    else if (Text w2 = rewrite::whyNotClosed(nodes_, &root); !w2.empty())
      why = w2;
    else
      return t;
    return std::nullopt;
  }

 private:
  std::optional<Window> fail(Text why) {
    if (why_.empty()) why_ = std::move(why);
    return std::nullopt;
  }
  void take(ir::Node* n) {
    if (std::find(nodes_.begin(), nodes_.end(), n) == nodes_.end()) nodes_.push_back(n);
  }

  std::optional<Window> read(ir::Value* v) {
    if (++visits_ > 256) return fail("the combination is too large");
    ir::Node* p = v->producer();
    if (isOp(p, "Add") || isOp(p, "Sub")) {
      if (p->inputCount() != 2) return fail("an Add or Sub without two inputs");
      take(p);
      if (size_t at = 0; auto c = scalarOperand(*p, at)) return shifted(*p, at, *c);
      auto a = read(p->input(0));
      auto b = a ? read(p->input(1)) : std::nullopt;
      if (!b) return std::nullopt;
      Text why;
      auto r = combine(*a, *b, isOp(p, "Sub") ? -1.0 : 1.0, why);
      return r ? r : fail(why);
    }
    size_t other = 0;
    if (isOp(p, "Neg") || (p && scalarScale(*p, other))) {
      take(p);
      double s = isOp(p, "Neg") ? -1.0 : *scalarScale(*p, other);
      auto a = read(p->input(isOp(p, "Neg") ? 0 : other));
      return a ? std::optional<Window>(scaled(*a, s)) : std::nullopt;
    }
    if (isOp(p, "Mul") || isOp(p, "Div"))
      hint_ = Text::of("%1 does not scale by a constant holding one value", rewrite::nodeText(*p));
    if (isOp(p, "Conv")) return readConv(*p);
    if (isOp(p, "Pad")) return readPad(*p);
    return leaf(v, PadMode::kAny, {0, 0, 0, 0});
  }

  // t + c, t - c or c - t for the Add or Sub `p` with the scalar c at input `at`.
  std::optional<Window> shifted(const ir::Node& p, size_t at, double c) {
    auto a = read(p.input(1 - at));
    if (!a) return std::nullopt;
    bool sub = isOp(&p, "Sub");
    Window r = sub && at == 0 ? scaled(*a, -1.0) : *a;
    for (double& b : r.bias) b += sub && at == 1 ? -c : c;
    return r;
  }

  // x itself, seen through pads (top, left, bottom, right) in `mode`.
  std::optional<Window> leaf(ir::Value* x, PadMode mode, const std::vector<int64_t>& pads) {
    if (source_ && source_ != x) {
      Text why =
          Text::of("the terms read different values ('%1' and '%2')", source_->name(), x->name());
      if (!hint_.empty()) why = Text::of("%1: %2", why, hint_);
      return fail(why);
    }
    const auto& shape = x->type().shape();
    if (!shape || shape->rank() != 4 || !(*shape)[1].isStatic())
      return fail(Text::of("'%1' is not a 4-D tensor with a known channel count", x->name()));
    if (elemTypeOf(x) != ir::DataType::kFloat)
      return fail(Text::of("'%1' is not float", x->name()));
    source_ = x;
    ++terms_;
    Window w = Window::identity((*shape)[1].value());
    w.mode = mode;
    w.top0 = -pads[0], w.left0 = -pads[1];
    w.dh = pads[0] + pads[2], w.dw = pads[1] + pads[3];
    return w;
  }

  std::optional<Window> readPad(ir::Node& pad) {
    std::string mode = pad.attrString("mode", "constant");
    PadMode m = mode == "reflect"    ? PadMode::kReflect
                : mode == "edge"     ? PadMode::kEdge
                : mode == "constant" ? PadMode::kConstant
                                     : PadMode::kAny;
    if (m == PadMode::kAny)
      return fail(Text::of("Pad mode '%1' is not constant, reflect or edge", mode));
    if (m == PadMode::kConstant) {
      auto val = pad.hasAttr("value") ? std::optional<double>(pad.attrFloat("value", 0.0f))
                 : pad.input(2)       ? fusion::scalarValue(pad.input(2))
                                      : std::optional<double>(0.0);
      if (!val || *val != 0.0) return fail("a constant-mode Pad pads with a value other than 0");
    }
    Text why;
    auto p = padAmounts(pad, why);
    if (!p) return fail(why);
    if ((*p)[0] || (*p)[1] || (*p)[4] || (*p)[5])
      return fail("a Pad pads the batch or channel axis");
    for (int64_t x : *p)
      if (x < 0) return fail("a Pad crops (negative pads)");
    if (ir::Node* q = pad.input(0)->producer(); q && isTreeNode(*q))
      return fail("a Pad reads a combination, not x");
    take(&pad);
    return leaf(pad.input(0), m, {(*p)[2], (*p)[3], (*p)[6], (*p)[7]});
  }

  std::optional<Window> readConv(ir::Node& conv) {
    Text why = whyNotWindowConvImpl(conv);
    if (!why.empty()) return fail(why);
    auto wt = rewrite::constantValue(conv.input(1));
    std::vector<double> w = *fusion::floatValues(*wt);
    std::vector<double> bias;
    if (conv.input(2)) bias = *fusion::floatValues(conv.input(2));
    int64_t kh = wt->dims()[2], kw = wt->dims()[3];
    std::vector<int64_t> pads = conv.attrInts("pads", {0, 0, 0, 0});
    bool padded = std::any_of(pads.begin(), pads.end(), [](int64_t x) { return x != 0; });
    take(&conv);
    ++convs_;
    ir::Value* in = conv.input(0);
    std::optional<Window> a;
    if (padded) {
      ir::Node* q = in->producer();
      if (q && (isTreeNode(*q) || isOp(q, "Pad")))
        return fail(Text::of("%1 has pads of its own and reads a Pad or a combination",
                             rewrite::nodeText(conv)));
      a = leaf(in, PadMode::kConstant, pads);
    } else {
      a = read(in);
    }
    if (!a) return std::nullopt;
    if (a->channels != wt->dims()[0])
      return fail(Text::of("%1 has %2 output channels for %3 channels", rewrite::nodeText(conv),
                           std::to_string(wt->dims()[0]), std::to_string(a->channels)));
    return composeConv(*a, w, kh, kw, bias);
  }

 private:
  ir::Value* source_ = nullptr;
  std::vector<ir::Node*> nodes_;
  int64_t terms_ = 0, convs_ = 0, visits_ = 0;
  Text why_, hint_;
};

}  // namespace

std::optional<Tree> readTree(ir::Node& root, Text& why) {
  Reader r;
  auto t = r.run(root, why);
  if (t) {
    size_t pads =
        std::count_if(t->nodes.begin(), t->nodes.end(), [](ir::Node* n) { return isOp(n, "Pad"); });
    if (t->nodes.size() - pads < 2) {
      why = "a single Conv: nothing to combine";
      return std::nullopt;
    }
  }
  return t;
}

Text whyNotWindowConv(const ir::Node& conv) {
  return whyNotWindowConvImpl(conv);
}

bool isTreeNode(const ir::Node& n) {
  size_t other = 0;
  if (isOp(&n, "Add") || isOp(&n, "Sub") || isOp(&n, "Neg") || scalarScale(n, other)) return true;
  return isOp(&n, "Conv") && whyNotWindowConv(n).empty();
}

}  // namespace passlab::passes::window
