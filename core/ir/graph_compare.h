// Structural comparison of graphs: same inputs, outputs, initializers (by value)
// and nodes (op, attributes, wiring by value name), in order.
#pragma once

#include <optional>
#include <string>

#include "core/ir/model.h"

namespace passlab::ir {

struct GraphCompareOptions {
  bool compareNodeNames = true;
  bool compareTypes = true;  // value types of inputs, outputs and node outputs
  // Compare intermediate value names too; off to compare graphs built by different code.
  bool compareValueNames = true;
};

// Nullopt when equal, else a description of the first difference.
std::optional<std::string> firstDifference(const Graph& a, const Graph& b,
                                           const GraphCompareOptions& options = {});
bool attributesEqual(const Attribute& a, const Attribute& b);

}  // namespace passlab::ir
