// Building blocks shared by the fusion, substitution and hoisting passes
// (issue 5): opset checks with reasons, constant tensors read and written in
// float64, per-channel constants, elementwise-op tables, and the edit step
// most fusions end with (a new node derived from the matched ones replaces
// the root's result; the matched nodes and their unused constants go).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/passes/rule_helpers.h"
#include "core/rewrite/match_utils.h"
#include "core/rewrite/pattern.h"

namespace passlab::passes::fusion {

using rewrite::addRule;  // rule tables (core/rewrite/pattern.h)
using rewrite::Rules;

// "" when the model's default-domain opset lies in [lo, hi]; else the reason:
// "LayerNormalization needs opset >= 17 (model has 13)".
Text whyNotOpset(const rewrite::MatchContext& c, int64_t lo, int64_t hi, std::string_view what);

// True for float, double, float16 and bfloat16.
bool isFloatType(ir::DataType t);
// The data of a constant of one of those types, as float64; nullopt otherwise
// (not constant, another dtype, or truncated data).
std::optional<std::vector<double>> floatValues(const ir::Value* v);
std::optional<std::vector<double>> floatValues(const ir::Tensor& t);
// A tensor of a float type from float64 values (rounded once, to nearest even).
ir::Tensor floatTensor(ir::DataType dtype, std::vector<int64_t> dims,
                       const std::vector<double>& values);
// Same dtype and dims as `like`, new values.
ir::Tensor floatTensorLike(const ir::Tensor& like, const std::vector<double>& values);

// A constant that, broadcast against a tensor of rank `rank`, varies only
// along `axis` (scalar, [C], [C,1,1], [1,C,1,1], ...) and keeps that
// tensor's shape: its value for each of the `channels` channels. On failure
// `why` says what is wrong with it.
std::optional<std::vector<double>> perChannelValues(const ir::Value* c, int64_t rank, int64_t axis,
                                                    int64_t channels, Text& why);

// The element type of a constant's data, kUndefined when it is not constant.
ir::DataType constDtype(const ir::Value* v);

// The single value of a constant holding one element (any shape), as float64.
std::optional<double> scalarValue(const ir::Value* v);

// Elementwise ops: each output element depends only on the input elements at
// the same (broadcast) position, so slicing, gathering, transposing or
// reshaping commutes with them.
bool isElementwiseUnary(const ir::Node& n);   // one tensor input (extra inputs scalars)
bool isElementwiseBinary(const ir::Node& n);  // two numpy-broadcast inputs (Add, Mul, ...;
                                              // not with the legacy broadcast attribute)
bool isElementwise(const ir::Node& n);        // either, or Where

// Static dims of a value or nullopt.
std::optional<std::vector<int64_t>> dimsOf(const ir::Value* v);

// A new default-domain node `op` before `before`, derived from `from`, with
// the non-graph attributes of `attrsFrom` (nullptr: none) and its outputs
// typed like `typesLike` (by position; missing entries stay unknown).
ir::Node* addDerived(rewrite::Rewriter& rw, const std::string& op,
                     const std::vector<ir::Value*>& inputs, ir::Node* before,
                     const std::vector<const ir::Node*>& from, const ir::Node* attrsFrom = nullptr,
                     const std::vector<const ir::Value*>& typesLike = {}, size_t outputs = 1);

// Every use of `oldOut` reads `newOut`; then each node of `dead` whose
// outputs are all unused is removed with the constants only it read
// (in any order; nullptr entries are skipped).
void replaceAndErase(rewrite::Rewriter& rw, ir::Value* oldOut, ir::Value* newOut,
                     const std::vector<ir::Node*>& dead);
// Removes the nodes of `nodes` that are (or become, as others go) unused,
// with the constants only they read.
void eraseDead(rewrite::Rewriter& rw, const std::vector<ir::Node*>& nodes);

// The operand of a commutative binary `n` that is not `v` (nullptr if v is neither).
ir::Value* otherOperand(const ir::Node& n, const ir::Value* v);

// True when `v` is a constant scalar (one element) within relative 1e-4 of `x`.
bool isScalarNear(const ir::Value* v, double x);

// "" if the node's outputs other than `keep` are absent or unused.
Text whyExtraOutputsUsed(const ir::Node& n, size_t keep = 0);

// "" when the BatchNormalization `bn` normalizes with per-channel statistics
// at inference (is_test = 1 before opset 7, spatial = 1 before 9,
// training_mode = 0) and its extra outputs are unused; else the reason.
Text whyNotInferenceBatchNorm(const ir::Node& bn, const rewrite::MatchContext& c);

// The node of `nodes` (all in `g`) that comes first in g's node order. A scan
// from the start of the list: O(position). Used where a fused node must
// precede several matched nodes whose order is not known (once per fused
// group, so O(N) per group).
ir::Node* firstInOrder(const ir::Graph& g, const std::vector<ir::Node*>& nodes);

// perm of a Transpose (the default reverses the axes; needs the rank).
std::optional<std::vector<int64_t>> transposePerm(const ir::Node& t);

// "Conv 'c1'" for messages (core/rewrite/match_utils.h).
using rewrite::nodeText;

// True when `x` is a power of two (or its negative), so that x*c and x/(1/c)
// round the same and 1/x is exact.
bool isPowerOfTwo(double x);

// ---- constant tensor data movement (any fixed-size dtype; nullopt for
// strings and sub-byte types) ----
// x transposed by `perm` (numpy: x.transpose(perm)).
std::optional<ir::Tensor> transposeTensor(const ir::Tensor& x, const std::vector<int64_t>& perm);
// x sliced as ONNX Slice does (starts/ends clamped, negative counted from the
// end, any nonzero step), on `axes` (already normalized).
std::optional<ir::Tensor> sliceTensor(const ir::Tensor& x, const std::vector<int64_t>& starts,
                                      const std::vector<int64_t>& ends,
                                      const std::vector<int64_t>& axes,
                                      const std::vector<int64_t>& steps);
// x indexed along `axis` by `indices` (in range; negative counted from the
// end); when `dropAxis` the axis goes (Gather with a scalar index).
std::optional<ir::Tensor> gatherTensor(const ir::Tensor& x, int64_t axis,
                                       const std::vector<int64_t>& indices, bool dropAxis);
// x broadcast to rank `rank` by leading 1s (data unchanged).
ir::Tensor withRank(const ir::Tensor& x, size_t rank);

// The constant parameters of a Slice (inputs from opset 10, attributes
// before): starts, ends, normalized axes, steps. nullopt with `why`.
struct SliceParams {
  std::vector<int64_t> starts, ends, axes, steps;
};
std::optional<SliceParams> sliceParams(const ir::Node& slice, int64_t rank, Text& why);
// A new Slice of `x` before `before` with parameters `p`: attributes when
// `asAttrs` (opset < 10, no steps), else constant inputs.
ir::Node* addSliceNode(rewrite::Rewriter& rw, ir::Value* x, ir::Node* before, const SliceParams& p,
                       bool asAttrs, const std::vector<const ir::Node*>& from,
                       const ir::Value* typeLike);
// Normalized [start, end) and step of a Slice on a dim of static size `dim`
// (the element indices it selects are start, start+step, ... before end).
struct SliceRange {
  int64_t start, end, step, count;
};
SliceRange resolveSlice(int64_t start, int64_t end, int64_t step, int64_t dim);

// `n` when it is the default-domain op `op`, else nullptr.
ir::Node* defaultOp(const ir::Node* n, std::string_view op);

}  // namespace passlab::passes::fusion
