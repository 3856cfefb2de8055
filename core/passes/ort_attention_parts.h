// The parts of fuse_ort_attention's matcher, one file each: the shape
// arithmetic it follows (ort_attention_shape.cpp), the heads of Q, K and V
// with the key/value cache (ort_attention_heads.cpp), the QKV projection
// (ort_attention_projection.cpp), the mask (ort_attention_mask.cpp) and the
// present output (ort_attention_present.cpp). The pass itself, which puts
// them together, is fuse_ort_attention.cpp. Every matcher returns what it
// found, or nothing with `why` set; none edits the graph.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/analysis/sym_int.h"
#include "core/passes/ort_fusion_utils.h"

namespace passlab::passes::ortattention {

// ---- shape arithmetic (ort_attention_shape.cpp) ----

// Whether `op` (default domain) is integer shape arithmetic: what feeds a
// Reshape's shape or a Slice's bounds and goes with the subgraph.
bool isShapeArithmeticOp(const std::string& op);

// Whether `v` holds int64 or int32 elements, as shape arithmetic does.
bool isShapeInt(const ir::Value* v);

// Dim `axis` of `v`'s shape (negative counts from the end); nullopt when unknown.
std::optional<analysis::SymInt> dimOf(const ir::Value* v, int64_t axis);

// The elements of a small integer tensor built by shape arithmetic (Shape,
// Gather, Slice, Split, Concat, Add, Sub, Mul, ...); nullopt when one is unknown.
std::optional<std::vector<analysis::SymInt>> shapeInts(const ir::Value* v, int depth = 0);

// Appends the shape-arithmetic producers of `v` (removed with the subgraph when unused).
void shapeProducers(const ir::Value* v, std::vector<ir::Node*>& out, int depth = 0);

// Bounds of a mask slice on axes 2 (rows) and 3 (columns) of a rank-4 source.
struct SliceBounds {
  std::optional<analysis::SymInt> rowStart, rowEnd, colStart, colEnd;
};

// Walks Slices up from `v` and returns the sliced tensor, `b` its bounds and
// `nodes` the Slices with their shape arithmetic; nullptr with `why`.
ir::Value* sliceSource(ir::Value* v, SliceBounds& b, std::vector<ir::Node*>& nodes, Text& why);

// "" when the bounds select rows [T - S, T) and columns [0, T) of the scores [.., S, T].
Text whyNotCurrentRows(const SliceBounds& b, const ir::Value* scores);

// ---- the heads of Q, K and V (ort_attention_heads.cpp) ----

// A tensor whose axes hold B (0), N (1), the sequence (2), H (3).
struct Desc {
  std::array<int, 4> axes{};    // canonical axis held by each tensor axis
  ir::Node* reshape = nullptr;  // Reshape([B, S, D] -> [B, S, N, H]) of the current step
  ir::Value* past = nullptr;    // the cache [2, B, N, P, H], when concatenated in front
  int64_t pastIndex = -1;       // 0: keys, 1: values
  bool isPast = false;          // the cache alone
  std::vector<ir::Node*> nodes;
};

// How `v` is made from the head Reshape (and the cache) through Transposes and a Concat.
std::optional<Desc> describe(ir::Value* v, Text& why, int depth = 0);

// Strips Div/Mul by scalar constants, multiplying `scale` by what they apply.
ir::Value* stripScale(ir::Value* v, double& scale, std::vector<ir::Node*>& nodes);

// ---- the QKV projection (ort_attention_projection.cpp) ----

struct Projection {
  ir::Value* x = nullptr;
  ir::Value* weights = nullptr;  // reusable as is, or nullptr
  std::optional<ir::Tensor> newWeights;
  std::optional<ir::Tensor> bias;  // [3D], when the projection has one
  ir::Value* biasValue = nullptr;  // reusable as is, or nullptr
  std::vector<ir::Node*> nodes;
};

// Where Q, K and V (the inputs of the head Reshapes) come from, as one packed projection.
std::optional<Projection> projectionOf(const std::array<ir::Value*, 3>& in, Text& why);

// ---- the mask between the scaled scores and the Softmax (ort_attention_mask.cpp) ----

struct Mask {
  bool causal = false;
  ir::Value* index = nullptr;  // the mask for mask_index: [B, T] or [B, 1, M, M]
  float filter = -10000.0f;
  std::vector<ir::Node*> core;  // the nodes that read the scores
  std::vector<ir::Node*> side;  // the nodes that compute the mask (other layers may share them)
};

// Peels the masks off the Softmax input; returns the masked scores (nullptr with `why`).
ir::Value* peelMask(ir::Value* v, Mask& mask, bool assumeBinary, Text& why);

// ---- the present output (ort_attention_present.cpp) ----

// The Concat(Unsqueeze(K), Unsqueeze(V)) on axis 0 that reads the nodes of
// `k` or `v` from outside `nodes`, or nullptr when there is none.
ir::Node* findPresent(const Desc& k, const Desc& v, const std::vector<ir::Node*>& nodes);

// The nodes of `present` when it stacks K and V as [B, N, T, H]; nullopt with `why`.
std::optional<std::vector<ir::Node*>> presentNodes(ir::Node* present, const Desc& k, const Desc& v,
                                                   Text& why);

}  // namespace passlab::passes::ortattention
