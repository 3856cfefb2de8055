// Copies of attributes by value. An Attribute owns its subgraphs (GRAPH and
// GRAPHS), which belong to one node and are not copied here: Graph::clone
// copies them along with the rest; a pass or the GUI copying a node's
// attributes onto another node (ui/document/commands.cpp, a fusion's
// rewritten node) takes attributes without subgraphs. Tensors share their
// data.
#pragma once

#include <optional>

#include "core/ir/attribute.h"

namespace passlab::ir {

// Every field of src but its subgraphs into dst (name and type are dst's own).
void copyAttributeData(const Attribute& src, Attribute& dst);

// A copy of `a`; nullopt when it holds a subgraph (GRAPH, or GRAPHS with any).
std::optional<Attribute> copyAttribute(const Attribute& a);

}  // namespace passlab::ir
