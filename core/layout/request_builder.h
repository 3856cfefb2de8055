// Builds a LayoutRequest from an ir::Graph: one box per drawn node, collapsed
// group, graph input and output; one arrow per pair of boxes a value connects.
// Runs on the caller's thread in O(nodes + edges); the result no longer refers
// to the graph, so it can be laid out anywhere.
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <unordered_map>

#include "core/ir/graph.h"
#include "core/layout/grouping.h"
#include "core/layout/layout_types.h"

namespace passlab::layout {

struct RequestOptions {
  // Constant nodes with a single reader are drawn inside that reader's box,
  // like initializers. Worth it for large graphs, where they are a third of the nodes.
  bool inlineConstants = false;
  size_t maxInitializerLines = 3;  // initializer inputs listed inside a box
};

struct BuiltRequest {
  LayoutRequest request;
  // Every node of the graph -> the item that shows it: its own box, the box of
  // its collapsed group, or its reader's box when inlined.
  std::unordered_map<ir::NodeId, int> nodeItem;
  std::unordered_map<std::string, int> groupItem;  // collapsed groups
};

// Empty `tree` (GroupTree()) draws every node.
BuiltRequest buildRequest(const ir::Graph& graph, const GroupTree& tree,
                          const std::set<std::string>& expanded,
                          const RequestOptions& options = {});

// The label of a value's type for an arrow: "float[1,3,224,224]", "" if unknown.
std::string typeLabel(const ir::Value& v);

}  // namespace passlab::layout
