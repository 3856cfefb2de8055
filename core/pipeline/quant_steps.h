// The numeric check's step rule: an output whose values lie on a quantization
// grid in the original model (an 8-bit tensor, or a DequantizeLinear output
// with one scale, through ops that only move, pick or add such values) is
// judged in steps of that grid rather than by the fixed tolerance.
//
// A rewrite of a QDQ model that computes the same integer sums but rounds
// them once instead of twice (fuse_qdq_into_qlinear, fuse_qdq_conv_integer)
// moves a few results across a rounding boundary: a QuantizeLinear after them
// puts those on the neighbouring step, and a second quantized layer can move
// them by one more. A real bug (a weight scale off by 1%, a wrong zero point)
// moves a large share of the elements. So an element may be at most
// `maxSteps` steps from the original's, at most `maxShare` of an output's
// elements may differ at all, and at most `maxChannelShare` of any one channel
// (axis 1) of `minChannelElements` elements or more: a bug confined to one
// output channel of one layer moves a quarter of that channel but under 1% of
// the whole output. Method, measured shares and limits: docs/numeric-check.md.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "core/ir/model.h"
#include "core/ir/tensor.h"

namespace passlab::pipeline {

struct StepRule {
  // Off by default: the rule accepts changes the exact rule rejects (up to 1%
  // of an output one or two steps away), and a bug confined to one output
  // channel of an inner layer spreads over the next layer's channels below
  // both limits (code review, session 27). No pass of a level needs it: the
  // rewrites that re-round (fuse_qdq_into_qlinear, fuse_qdq_conv_integer) are
  // lossy by name and judged against the accuracy budget.
  bool enabled = false;
  double maxSteps = 2;              // the most steps one element may move
  double maxShare = 0.01;           // the largest share of an output's elements that may move
  double maxChannelShare = 0.05;    // the largest share of one channel's elements
  int64_t minChannelElements = 64;  // channels smaller than this are not judged alone
};

// The grid step of each graph output of `model` on a quantization grid: 1 for
// an 8-bit integer output of a quantizing op (QuantizeLinear,
// DynamicQuantizeLinear, QLinear*, QGemm; other 8-bit outputs, such as a
// graph input or a Cast of labels, stay exact); a per-tensor DequantizeLinear's constant scale,
// through Reshape, Transpose, Flatten, Squeeze, Unsqueeze, Identity, Slice,
// Split, Gather (its data), MaxPool and Relu (which keep or pick grid
// values), Concat (the largest step of its inputs) and Add/Sub of two grids
// (the sum of their steps: a step of each). Outputs not listed have none.
std::map<std::string, double> outputSteps(const ir::Model& model);

// How `got` differs from `want` (the same type and shape) in steps of `step`:
// an element within `equal(want)` (the fixed tolerance or the noise floor's
// allowance) is the same; any other one `moved`, and `beyond` when it is more
// than rule.maxSteps steps away. Moved elements are also counted per channel
// (axis 1 of an output of rank 2 or more).
struct StepCount {
  int64_t moved = 0, compared = 0, beyond = 0;
  int64_t firstBeyond = -1;  // the first element beyond, or -1
  double maxSteps = 0;       // the largest difference, in steps
  // The channel with the largest share of moved elements among those of
  // rule.minChannelElements or more (-1: none judged), and that share.
  int64_t worstChannel = -1;
  double worstChannelShare = 0;
};
StepCount countSteps(const ir::Tensor& got, const ir::Tensor& want, double step,
                     double noiseAllowance, const StepRule& rule);

// Whether `count` passes `rule`: nothing beyond, a share of moved elements of
// at most rule.maxShare, and of at most rule.maxChannelShare in every channel.
bool withinSteps(const StepCount& count, const StepRule& rule);

}  // namespace passlab::pipeline
