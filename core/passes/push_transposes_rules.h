// The rules of push_transposes that live in their own files (the pass and
// its other rules: push_transposes.cpp; the algebra of each: there).
#pragma once

#include "core/passes/rule_helpers.h"

namespace passlab::passes {

// The Transpose whose output `v` is, when nothing else reads v, and its perm.
struct SoleTranspose {
  ir::Node* node = nullptr;
  std::vector<int64_t> perm;
};
// "" and `out` filled when v is such a Transpose's output with a known perm
// (a permutation); else why not (transpose_through_split.cpp).
Text whyNotSoleTranspose(ir::Value* v, SoleTranspose& out);

// Concat(Transpose(a, p), b) read by Transpose(., p^-1) -> Concat(a, b', p[axis]);
// com.microsoft QLinearConcat too, through its data inputs (transpose_through_concat.cpp).
MatchResult transposesThroughConcat(ir::Node& cat, const MatchContext& ctx);

// Split(Transpose(x, p), axis k) whose outputs are transposed -> Split(x, axis p[k])
// with the perms composed (transpose_through_split.cpp).
MatchResult transposeThroughSplit(ir::Node& split, const MatchContext& ctx);

// ONNX Runtime's com.microsoft QLinearAveragePool or QLinearGlobalAveragePool
// (transpose_through_qlinear_pool.cpp).
bool isQLinearPool(const ir::Node& n);
// The channels_last of the same pool on x when it reads `chain` =
// Transpose(x, perm) as its X and perm is the layout move that flipping
// channels_last undoes (NHWC -> NCHW for 0, NCHW -> NHWC for 1); its output
// is then Transpose(the new output, perm). Else nullopt with why not.
std::optional<int64_t> flippedChannelsLast(const ir::Node& pool, const ir::Value* chain,
                                           const std::vector<int64_t>& perm, Text& why);

}  // namespace passlab::passes
