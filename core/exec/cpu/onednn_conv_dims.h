// The dims a oneDNN convolution descriptor takes from a ConvGeometry, in one
// place for conv_onednn.cpp, passlab_fused_conv.cpp and onednn_int8_conv.cpp:
// the weights as oneDNN shapes ONNX's [M, C/group, k...] ([group, M/group,
// C/group, k...] when grouped), the strides, the dilations as oneDNN counts
// them (the gaps between taps: d - 1), the pads before and after; and the
// plain layout tags of X / Y and of the weights (qlinear_conv_float_sums.cpp
// too).
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include "core/exec/cpu/conv_geometry.h"

namespace passlab::exec::cpu::onednn {

struct ConvDims {
  dnnl::memory::dims weights, strides, dilation, padL, padR;
};

inline ConvDims convDims(const ConvGeometry& g) {
  ConvDims d;
  if (g.group > 1) d.weights.push_back(g.group);
  d.weights.push_back(g.M / g.group);
  d.weights.push_back(g.C / g.group);
  d.weights.insert(d.weights.end(), g.kernel.begin(), g.kernel.end());
  d.strides.assign(g.stride.begin(), g.stride.end());
  for (int64_t v : g.dilation) d.dilation.push_back(v - 1);
  d.padL.assign(g.padBegin.begin(), g.padBegin.end());
  d.padR.assign(g.padEnd.begin(), g.padEnd.end());
  return d;
}

// The tag of a plain X or Y of `spatial` dims: [N, C, spatial...], or
// channels-last [N, spatial..., C].
inline dnnl::memory::format_tag convDataTag(size_t spatial, bool channelsLast = false) {
  using tag = dnnl::memory::format_tag;
  if (channelsLast) return spatial == 1 ? tag::nwc : spatial == 2 ? tag::nhwc : tag::ndhwc;
  return spatial == 1 ? tag::ncw : spatial == 2 ? tag::nchw : tag::ncdhw;
}

// The tag of ONNX Conv weights as convDims shapes them: [M, C/group, k...]
// (oi...), grouped [group, M/group, C/group, k...] (goi...).
inline dnnl::memory::format_tag convWeightsTag(size_t spatial, bool grouped) {
  using tag = dnnl::memory::format_tag;
  if (grouped) return spatial == 1 ? tag::goiw : spatial == 2 ? tag::goihw : tag::goidhw;
  return spatial == 1 ? tag::oiw : spatial == 2 ? tag::oihw : tag::oidhw;
}

}  // namespace passlab::exec::cpu::onednn
