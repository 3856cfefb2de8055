// The float Softmax kernel (softmax.cpp) for kernels that compute with it
// (com.microsoft QLinearSoftmax): along `axis` (negative counts from the
// end), or, when `flattened` (Softmax before opset 13), over the input seen
// as 2-D [prod(dims[:axis]), prod(dims[axis:])].
#pragma once

#include <cstdint>
#include <memory>

#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

std::unique_ptr<Kernel> makeFloatSoftmax(int64_t axis, bool flattened);

}  // namespace passlab::exec::cpu
