// A linear combination of 2-D windows of one value, as merge_linear_convolutions
// reads it from a graph: a tree of Add / Sub / Neg / Mul-or-Div-by-a-scalar-constant
// (an Add or Sub of a scalar constant shifts the bias)
// whose leaves are x itself, Convs with constant weights (one input channel per
// output channel: depthwise group = C, or group 1 with one channel), chains of such
// Convs, each optionally reading a Pad of x.
//
// The combination is held as one window per channel: out[c, i, j] =
//   bias[c] + sum over (a, b) of k[c, a, b] * xe[c, i + top0 + a, j + left0 + b]
// where xe is x extended beyond its border by the pad mode (zeros, reflection or
// the edge value). Reflect and edge values at a given offset do not depend on how
// wide the Pad is, so terms with different pads share the widest one. The output
// is (H + dh) x (W + dw) for x of H x W.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/ir/graph.h"
#include "core/support/text.h"

namespace passlab::passes::window {

// How x is extended beyond its border; kAny for a term that never reads
// outside x (the identity, a Conv without pads).
enum class PadMode { kAny, kConstant, kReflect, kEdge };
const char* padModeName(PadMode m);

struct Window {
  int64_t channels = 1;
  int64_t top0 = 0, left0 = 0;  // offset of k[., 0, 0] from the output position
  int64_t kh = 1, kw = 1;
  std::vector<double> k;     // channels * kh * kw
  std::vector<double> bias;  // channels
  int64_t dh = 0, dw = 0;    // output size minus x's size
  PadMode mode = PadMode::kAny;

  static Window identity(int64_t channels);
  double& at(int64_t c, int64_t a, int64_t b) { return k[(c * kh + a) * kw + b]; }
  double at(int64_t c, int64_t a, int64_t b) const { return k[(c * kh + a) * kw + b]; }
  // The pads the one Conv computing it needs around x: top, left, bottom, right.
  std::vector<int64_t> pads() const {
    return {-top0, -left0, dh + top0 + kh - 1, dw + left0 + kw - 1};
  }
};

// this + s * other; nullopt with `why` when the two do not line up (other
// channels, other output sizes, other pad modes).
std::optional<Window> combine(const Window& a, const Window& b, double s, Text& why);
Window scaled(const Window& a, double s);
// A Conv without pads of `w` (channels x kh x kw, one input channel each) and
// `bias` applied to the window's output: the kernels composed by full 2-D convolution.
Window composeConv(const Window& a, const std::vector<double>& w, int64_t kh, int64_t kw,
                   const std::vector<double>& bias);

// The constant holding one value among the operands of the binary op `n`
// (broadcast keeping the other's shape): its value, its input index in `at`.
std::optional<double> scalarOperand(const ir::Node& n, size_t& at);

// The tree rooted at `root` read as a window of one source value, or nullopt
// with `why`. `nodes` lists the tree's nodes (each once). Conditions: see the
// pass's header (core/passes/merge_linear_convolutions.cpp).
struct Tree {
  ir::Value* source = nullptr;
  Window window;
  std::vector<ir::Node*> nodes;
  int64_t terms = 0;  // leaves
};
std::optional<Tree> readTree(ir::Node& root, Text& why);

// The linear op at the top of `n` (Add, Sub, Neg, Mul/Div by a scalar
// constant, a usable Conv) or why not: for deciding whether a node is the root
// of the largest tree.
bool isTreeNode(const ir::Node& n);

// "" when `conv` is a 2-D stride-1 Conv with constant float weights whose
// every output channel reads one input channel of its own; else why not.
Text whyNotWindowConv(const ir::Node& conv);

}  // namespace passlab::passes::window
