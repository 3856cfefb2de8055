// Chains of nodes converted to another layout (convert_int8_to_channels_last,
// convert_to_blocked_layout): the nodes converted in graph order, which
// converted values are still read in the old layout at the chains' border,
// and removing the replaced nodes.
#pragma once

#include <vector>

#include "core/ir/graph.h"
#include "core/rewrite/driver.h"
#include "core/rewrite/rewriter.h"

namespace passlab::passes {

// The nodes of `graph` that `filter` (null: every node) allows and
// `convert(node)` converts, in graph order; the nodes `convert` adds are not
// visited.
template <class Convert>
std::vector<ir::Node*> convertInGraphOrder(ir::Graph& graph, const rewrite::NodeFilter* filter,
                                           Convert convert) {
  std::vector<ir::Node*> nodes;
  for (const auto& n : graph.nodes()) nodes.push_back(n.get());
  std::vector<ir::Node*> converted;
  for (ir::Node* n : nodes) {
    if (filter && !filter->allows(n->id())) continue;
    if (convert(*n)) converted.push_back(n);
  }
  return converted;
}

// The nodes of `converted` whose first output a node outside `converted`, or
// the graph's outputs, read: each needs a conversion back at the border.
std::vector<ir::Node*> readOutsideChain(const ir::Graph& graph,
                                        const std::vector<ir::Node*>& converted);

// Removes the nodes of `converted`, readers before producers, once nothing
// reads any of their outputs (their readers were converted or now read a
// conversion back); a node still read stays.
void removeConverted(rewrite::Rewriter& rw, const ir::Graph& graph,
                     const std::vector<ir::Node*>& converted);

}  // namespace passlab::passes
