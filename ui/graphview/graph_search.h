// Finding nodes and values of one graph by node name, op type or tensor name
// (case-insensitive substring), over every node, drawn or hidden in a group.
#pragma once

#include <QString>

#include <string>
#include <vector>

#include "core/ir/graph.h"

namespace passlab::ui {

enum class SearchField { kAny, kNodeName, kOpType, kTensorName };

struct SearchHit {
  ir::NodeId node = 0;  // a node hit, or the producer of a value hit (0 for inputs/initializers)
  std::string value;    // a value hit: its name
  bool isValue() const { return !value.empty(); }
};

// Hits in graph order: nodes first by position, each followed by its output
// values that match; graph inputs and initializers come first.
std::vector<SearchHit> searchGraph(const ir::Graph& graph, const QString& text, SearchField field);

}  // namespace passlab::ui
