// The DequantizeLinear that feeds an op of a QDQ node unit, as the QDQ passes
// (fuse_qdq_into_qlinear, fuse_qdq_conv_integer) read it: one reader, so the
// rules every such pass needs hold in one place (blocked scales are refused
// here, whatever their count).
#pragma once

#include "core/ir/node.h"
#include "core/support/text.h"

namespace passlab::passes {

// A DequantizeLinear feeding the op: its quantized input, scale and zero
// point (null when the node has none).
struct Dequantized {
  ir::Node* node = nullptr;
  ir::Value *q = nullptr, *scale = nullptr, *zero = nullptr;
};

// "" and `d` filled when `v` is a DequantizeLinear's output without
// block_size (opset 21 blocked scales are no per-tensor or per-axis ones: an
// op reading them per column or channel would be wrong); else why not, the
// operand named `what`. Each pass checks its own further rules on `d`.
Text whyNotDequantized(ir::Value* v, const char* what, Dequantized& d);

}  // namespace passlab::passes
