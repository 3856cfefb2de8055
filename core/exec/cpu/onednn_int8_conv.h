// oneDNN's int8 convolution as the int8 Conv kernels build it (QLinearConv in
// qlinear_conv_onednn.cpp, ConvInteger in conv_integer_onednn.cpp): plain
// NCHW-style user layouts, s8 weights, oneDNN's choice of internal layouts,
// its AMX kernels skipped on small convolutions, and declined where oneDNN
// offers only its own reference implementation.
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include "core/exec/cpu/conv_geometry.h"
#include "core/exec/cpu/onednn_conv_primitive.h"

namespace passlab::exec::cpu::onednn {

// Builds the convolution of geometry g (X [N, C, in...], ONNX weights
// [M, C/group, k...] as s8, an optional s32 bias [M]) from src to dst with
// `attr` into p (its user layouts, the primitive and the reorders). False
// when oneDNN has no implementation or only its reference one: the caller
// runs its own reference kernel then.
// `channelsLast`: the user's X and Y are [N, spatial..., C] (com.microsoft
// QLinearConv's channels_last), which is also the layout oneDNN's int8
// kernels pick, so no reorder runs around the primitive.
bool buildInt8Conv(ConvPrimitive& p, const ConvGeometry& g, dnnl::memory::data_type src,
                   dnnl::memory::data_type dst, bool hasBias, const dnnl::primitive_attr& attr,
                   bool channelsLast = false);

}  // namespace passlab::exec::cpu::onednn
