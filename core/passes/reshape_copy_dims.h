// The constant shape of a Reshape whose shape is computed from the data's own
// dims (issue 24): Concat of one-element parts, where a part
// Unsqueeze(Gather(Shape(x), i)) with x the Reshape's data and i the part's
// own position is written 0 ("copy this dim", allowzero = 0), constants stay,
// and at most one other part becomes -1. Used by replace_computed_reshape_shapes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/ir/graph.h"
#include "core/support/text.h"

namespace passlab::passes {

// The constant shape for `reshape` (a Reshape with allowzero = 0 whose shape
// input is such a Concat, at least one dim copied whose size is not a static
// number), or nullopt with the reason in `why`. Rule for 0 and -1: a 0 copies
// the data's dim at the same position, which is exact whatever that dim is
// (the original read the same number, and a 0 there meant "copy" too); a -1
// is written only when every other dim is a number >= 1 or a copy of a dim
// known to be >= 1 — a copied dim that may be 0 at run time would leave the
// element count 0 and the -1 undetermined, where the computed shape was not
// (a -1 the computed shape already had is kept as it is).
// `assumeNonempty` (ONNX Runtime's assumption) takes copied dims of unknown
// size as >= 1, so one more unknown dim may become -1 (wrong only for
// tensors with no elements).
std::optional<std::vector<int64_t>> shapeCopyingInputDims(const ir::Node& reshape,
                                                          bool assumeNonempty, Text& why);

}  // namespace passlab::passes
