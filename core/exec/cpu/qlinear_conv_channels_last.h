// com.microsoft QLinearConv with channels_last = 1 (X and Y [N, spatial..., C],
// as ONNX Runtime's NHWC transformer writes it): the dims either way, and an
// NCHW kernel run on a channels-last node through transposed copies (the
// reference, and the oneDNN kernel's fallback).
#pragma once

#include <memory>

#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

// [N, spatial..., C] -> [N, C, spatial...] and back.
Dims channelsFirstDims(const Dims& d);
Dims channelsLastDims(const Dims& d);

// True when the node is com.microsoft QLinearConv with channels_last = 1.
bool isChannelsLastQLinearConv(const ir::Node& n);

// Runs `nchw` (a QLinearConv or FusedConvInteger kernel of plain layouts,
// 8-bit or float32 output) on the channels-last
// input 0 of ctx, writing output 0 channels-last.
Status runChannelsFirst(Kernel& nchw, KernelContext& ctx);

// The reference row of com.microsoft QLinearConv: the reference QLinearConv,
// wrapped in the transposes when channels_last = 1.
Expected<std::unique_ptr<Kernel>> makeMsQLinearConvReference(const KernelBuild& b);

}  // namespace passlab::exec::cpu
