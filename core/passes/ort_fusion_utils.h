// What the passes that target ONNX Runtime's contrib ops (com.microsoft
// Attention, SkipLayerNormalization, EmbedLayerNormalization, FastGelu,
// BiasGelu, Gelu) share: adding a com.microsoft node (with the domain's opset
// import), recognizing a bias Add, and recognizing an embedding lookup.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/passes/fusion_utils.h"

namespace passlab::passes::ortfusion {

inline constexpr const char* kMsDomain = "com.microsoft";

// True for the com.microsoft node `op`.
bool isMs(const ir::Node* n, std::string_view op);

// A new com.microsoft `op` node before `before` with `outputs` outputs, the
// first ones typed like `typesLike` (by position); imports com.microsoft
// (version 1) when the model does not yet.
ir::Node* addMsNode(rewrite::Rewriter& rw, const std::string& op,
                    const std::vector<ir::Value*>& inputs, ir::Node* before,
                    const std::vector<const ir::Node*>& from,
                    const std::vector<const ir::Value*>& typesLike, size_t outputs = 1);

// `v` = Add(m, b) (either order) with b a constant 1-D tensor of v's element
// type holding one value per element of the last dim of m, and m of v's
// type and shape: that Add. nullptr with `why`.
struct BiasAdd {
  ir::Node* add = nullptr;
  ir::Value* input = nullptr;  // m
  ir::Value* bias = nullptr;   // b
};
std::optional<BiasAdd> biasAddOf(const ir::Value* v, Text& why);

// True when `v` is Gather(table, ids) with a constant 2-D table along axis 0:
// an embedding lookup.
bool isEmbeddingLookup(const ir::Value* v);

// `v` itself when it has `dtype`; else a new Cast(v, to = dtype) before `before`.
ir::Value* castTo(rewrite::Rewriter& rw, ir::Value* v, ir::DataType dtype, ir::Node* before,
                  const std::vector<const ir::Node*>& from);

// Where a node that takes over `v` from all its readers, and the result of
// `last`, must go in `g`: before the first, in g's order, of `last` and the
// nodes of g that read v (directly, or in a subgraph they hold).
ir::Node* beforeReaders(const ir::Graph& g, const ir::Value* v, ir::Node* last);

}  // namespace passlab::passes::ortfusion
