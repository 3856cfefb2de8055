// The reference kernel of a quantized op (its row of qlinearKernels(),
// qlinear.cpp), which the oneDNN int8 kernels hand over to where oneDNN
// cannot take the node (conv_integer_onednn.cpp, qlinear_conv_onednn.cpp,
// qlinear_conv_channels_last.cpp).
#pragma once

#include <memory>
#include <string_view>

#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

// The reference kernel of `op` (ConvInteger, QLinearConv, ...) for `b`; an
// error when the table has none.
Expected<std::unique_ptr<Kernel>> makeQLinearReference(std::string_view op, const KernelBuild& b);

}  // namespace passlab::exec::cpu
