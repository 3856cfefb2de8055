// Repairs for models from before the opset 7 broadcasting rule, applied to the
// executor's private copy of a model. Exporters of that time (IR version 1 and
// 2, e.g. PyTorch 0.2) wrote channel biases as Add(x[N,C,H,W], b[C]) relying
// on the legacy broadcast=1, axis=1 attributes, and some files lost them
// (starry_night_fp16 in the corpus). Such nodes get those attributes back; the
// binary kernels use them only when numpy broadcasting fails.
// The same files carry Upsample nodes whose `scales` has two values: the
// height and width scales of the experimental Upsample-1 (defined on NCHW
// only), written into Upsample-7's one-scale-per-dim attribute. They become
// [1, 1, height, width].
#pragma once

#include <string>
#include <vector>

#include "core/ir/model.h"

namespace passlab::exec {

// Returns one line per repaired node.
std::vector<std::string> applyLegacyRepairs(ir::Model& model);

}  // namespace passlab::exec
