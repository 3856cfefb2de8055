#include "core/passes/qdq_operand.h"

#include <string>

#include "core/passes/rule_helpers.h"

namespace passlab::passes {

Text whyNotDequantized(ir::Value* v, const char* what, Dequantized& d) {
  d.node = producerOp(v, "DequantizeLinear");
  if (!d.node) return Text::of("%1 is not a DequantizeLinear output", std::string(what));
  d.q = d.node->input(0);
  d.scale = d.node->input(1);
  d.zero = d.node->inputCount() > 2 ? d.node->input(2) : nullptr;
  if (d.node->attrInt("block_size", 0) != 0)
    return Text::of("%1 is dequantized by blocks", std::string(what));
  return "";
}

}  // namespace passlab::passes
