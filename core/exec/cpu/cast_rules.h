// Cast's `to` attribute, one reading for the CPU kernel (cast.cpp) and the
// CUDA one (core/exec/cuda/elementwise.cpp).
#pragma once

#include "core/ir/dtype.h"
#include "core/ir/node.h"
#include "core/support/error.h"

namespace passlab::exec::cpu {

// The target type: an element type number, or the name Cast-1 gives ("FLOAT").
Expected<ir::DataType> castTargetType(const ir::Node& n);

}  // namespace passlab::exec::cpu
