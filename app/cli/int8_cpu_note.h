// The one-line warning optimize and precision print when the model they save
// computes in 8 bits on PassLab's executor (int8 convolutions and products,
// or the Q/DQ pairs that `--level fused` turns into them) on a CPU without
// exact int8 dot products (no AVX-512 VNNI or AVX-VNNI:
// qlinear::exactInt8DotProducts). There INT8 runs on float32 sums or the
// reference loops, slower than the float32 model (docs/precision.md, "INT8 on
// a CPU without AVX-512 VNNI"), unless every weight is int8 in [-64, 64] and
// every activation uint8 (`reduce_range`: oneDNN's int8 kernels are exact for
// those, int8_dot_exactness.h); the warning recommends that. quantize_static
// and quantize_dynamic write such files by default on such a CPU
// (reduce_range=auto, core/passes/reduce_range_option.h), so the warning is
// for files quantized elsewhere (on a CPU with VNNI, by another tool) or with
// reduce_range=false or int8 activations.
#pragma once

#include <optional>
#include <string>

#include "core/ir/model.h"

namespace passlab::cli {

// The warning for `model` on this CPU, or nullopt (nothing 8-bit, or a CPU
// with VNNI).
std::optional<std::string> int8SlowerHereWarning(const ir::Model& model);

// Writes it to standard error, if any.
void warnIfInt8SlowerHere(const ir::Model& model);

}  // namespace passlab::cli
