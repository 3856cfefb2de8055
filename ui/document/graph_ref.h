// Which graph of a model: the main graph, or a body held by a node attribute
// (If branches, Loop/Scan bodies), named by the owner's stable id so it
// survives edits and model replacement (undo of a pass).
#pragma once

#include <QString>

#include <string>
#include <vector>

#include "core/ir/model.h"

namespace passlab::ui {

struct GraphRef {
  ir::NodeId owner = 0;   // 0: the main graph
  std::string attribute;  // "then_branch", "body", ...
  int index = 0;          // position in a GRAPHS attribute

  bool isMain() const { return owner == 0; }
  bool operator==(const GraphRef& o) const {
    return owner == o.owner && attribute == o.attribute && index == o.index;
  }
  bool operator!=(const GraphRef& o) const { return !(*this == o); }

  // The graph, or nullptr when it no longer exists.
  ir::Graph* resolve(const ir::Model& model) const;
  // "If 'If_25' ▸ then_branch" (the main graph: its name or "main").
  QString title(const ir::Model& model) const;
};

// The bodies of a node, in attribute order.
std::vector<GraphRef> subgraphsOf(const ir::Node& node);
// A node anywhere in the model (main graph and bodies), or nullptr.
ir::Node* findNode(const ir::Model& model, ir::NodeId id);

}  // namespace passlab::ui
