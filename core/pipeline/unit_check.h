// The check per node unit: judges one rewrite step of a QDQ model unit by
// unit instead of by the whole model's outputs.
//
// A rewrite that turns a QDQ node unit (DequantizeLinear -> Conv ->
// QuantizeLinear) into an integer op (QLinearConv) rounds the int32 sum once
// where the unit rounds the float result: a few elements land on the
// neighbouring quantization step. Compared at the model's outputs, those
// flips compound with depth (each moved element moves what the next layers
// compute from it), so no share limit there separates a correct deep rewrite
// from a bug. Here every value the step replaced is recomputed by the
// ORIGINAL unit (the nodes of the model before the step between that value
// and the values the rewritten model still computes) on the inputs the
// REWRITTEN model gives it, and compared with the rewritten model's value in
// steps: the difference is that unit's own rounding, whatever the depth, and
// a bug in one channel of one inner layer shows in that unit.
// Method, limits and measured shares: docs/numeric-check.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/exec/executor.h"
#include "core/ir/model.h"
#include "core/rewrite/edit_log.h"
#include "core/support/text.h"

namespace passlab::pipeline {

struct UnitRule {
  double maxSteps = 1;              // the most steps one 8-bit element may move
  double maxShare = 0.01;           // the largest share of a unit output's elements that may move
  double maxChannelShare = 0.05;    // the largest share of one channel's (axis 1) elements
  int64_t minChannelElements = 64;  // channels smaller than this are not judged alone
  size_t maxUnitNodes = 16;         // an original unit of more nodes is not judged (fails)
  // A kept value (not rewired) is computed by the same nodes from the same
  // values in both models: integers must be equal, floats within this
  // relative (and, near zero, absolute) tolerance, far under the fixed one.
  double keptRtol = 1e-6, keptAtol = 1e-7;
};

struct UnitCheck {
  bool ran = false;  // false: the step cannot be judged by units (`detail` says why)
  bool passed = true;
  size_t units = 0;                 // replaced values judged (each on every input set)
  int64_t moved = 0, compared = 0;  // 8-bit elements a step apart, of those judged
  double worstShare = 0;            // the largest share moved of one unit output, one input set
  double worstChannelShare = 0;     // the same for one channel
  double mostSteps = 0;             // the largest move, in steps
  std::string worstUnit;            // the original value with the largest share moved
  std::string failedUnit;           // the original value of the first failure
  // The values the step did not rewire, recomputed by the model before the
  // step fed the units' outputs `after` computes (checkKeptValues), each
  // compared with `after`'s at the fixed tolerance (integers exactly).
  size_t keptValues = 0;   // values compared, on one input set
  double keptMaxAbs = 0;   // the largest difference of a float kept value
  std::string keptFailed;  // the first such value that differs (then passed is false)
  Text detail;             // the first failure, or why the check did not run
  double milliseconds = 0;
};

// Judges the step that turned `before` into `after` (its edit log `log`):
// every value of `before` that the step rewired to a new value is computed by
// its original unit on the values `after` computes (a run of `after` on each
// input set, every value kept), then compared with `after`'s value: an 8-bit
// integer value in steps of 1 (at most rule.maxSteps per element, at most
// rule.maxShare of the elements moved and rule.maxChannelShare of a channel),
// any other value within the fixed tolerance. When the units pass, every
// value the step did not rewire is held to what `before` computes from the
// units' outputs in `after` (the kept values, below): a change outside the
// units fails at the fixed tolerance, whatever the units' roundings moved
// downstream. A step that also edits nodes in place (attributes,
// initializers) is not judged here: ran is false.
UnitCheck checkRewrittenUnits(const ir::Model& before, const ir::Model& after,
                              const rewrite::EditLog& log,
                              const std::vector<exec::NamedInputs>& inputSets,
                              const UnitRule& rule = {});

}  // namespace passlab::pipeline
