// Small graph walks shared by grouping and request building.
#pragma once

#include <vector>

#include "core/ir/graph.h"

namespace passlab::layout {

// The node of `g` that reads a value through `user`: `user` itself when it is in
// `g`, else its ancestor in `g` whose subgraph contains it. nullptr if `user` is
// not inside `g`.
const ir::Node* consumerIn(const ir::Graph& g, const ir::Node* user);

// The nodes of `g` in an order where producers come first: the list order when
// it already is one (the usual case), else Kahn's order with ties kept in list
// order; nodes on a cycle are appended last. O(nodes + edges).
std::vector<const ir::Node*> topologicalOrder(const ir::Graph& g);

}  // namespace passlab::layout
