// ONNX Runtime's com.microsoft NhwcMaxPool: MaxPool on uint8 / int8 tensors
// stored channels-last, [N, spatial..., C] (1 to 3 spatial dims), with the
// standard MaxPool's window attributes (kernel_shape, strides, pads,
// auto_pad, dilations, ceil_mode; no Indices output). What
// convert_int8_to_channels_last puts where a MaxPool reads an 8-bit
// channels-last chain, so that no Transposes stand around it.
#pragma once

#include <cstdint>

#include "core/exec/cpu/pool_geometry.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

// y = the max over each window of x, both channels-last; `g` is the geometry
// poolGeometry gives for the channels-first dims [N, C, spatial...]. Windows
// wholly in the padding give T's lowest value (as the reference MaxPool).
// Exact for any geometry: the max of the same integers.
template <class T>
void maxPoolNhwc(const PoolGeometry& g, const T* x, T* y, int threads);

Expected<std::unique_ptr<Kernel>> makeNhwcMaxPool(const KernelBuild& b);

}  // namespace passlab::exec::cpu
