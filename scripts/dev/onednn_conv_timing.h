// Shared by conv_expand_pick.cpp and conv_winograd_pick.cpp (#26): one oneDNN
// convolution timed on one thread the way a blocked chain runs it: X given
// and Y wanted on nChw16c, with the reorders from and to it counted when the
// primitive runs on another layout. Header-only, included from the same
// folder, so each script still builds alone with the g++ line it shows.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <oneapi/dnnl/dnnl.hpp>
#include <string>
#include <vector>

namespace conv_timing {

using tag = dnnl::memory::format_tag;
using dt = dnnl::memory::data_type;

inline dnnl::memory::desc f32(const dnnl::memory::dims& dims, tag t) {
  return dnnl::memory::desc(dims, dt::f32, t);
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// The chain's tensors of one layer: X and Y on nChw16c (X filled with a
// repeating pattern), the weights as given (oihw) and the bias.
struct Layer {
  dnnl::memory srcB, dstB, weights, bias;
  std::vector<float> w, b;
  Layer(dnnl::engine& eng, const dnnl::memory::dims& src, const dnnl::memory::dims& wei,
        const dnnl::memory::dims& dst, std::vector<float> weightValues, float biasValue)
      : srcB(f32(src, tag::nChw16c), eng),
        dstB(f32(dst, tag::nChw16c), eng),
        w(std::move(weightValues)),
        b(static_cast<size_t>(wei[0]), biasValue) {
    weights = dnnl::memory(f32(wei, tag::oihw), eng, w.data());
    bias = dnnl::memory(f32({wei[0]}, tag::x), eng, b.data());
    float* p = static_cast<float*>(srcB.get_data_handle());
    for (size_t i = 0; i < srcB.get_desc().get_size() / 4; ++i) p[i] = (i % 7) * 0.1f;
  }
};

struct Timed {
  double ms = -1;  // the median of 100 calls after 30; -1: oneDNN declined it
  std::string impl = "declined";
};

// The convolution `cd` (with `attr`) on `layer`: its weights reordered once
// to the primitive's layout; each timed call reorders X and Y when
// `reorders` (the primitive not on nChw16c).
inline Timed time(dnnl::engine& eng, dnnl::stream& s, Layer& layer,
                  const dnnl::convolution_forward::desc& cd, const dnnl::primitive_attr& attr,
                  bool reorders) {
  using dnnl::memory;
  Timed t;
  dnnl::convolution_forward::primitive_desc pd;
  try {
    pd = dnnl::convolution_forward::primitive_desc(cd, attr, eng);
  } catch (...) {
    return t;
  }
  t.impl = pd.impl_info_str();
  memory wp(pd.weights_desc(), eng);
  dnnl::reorder(layer.weights, wp).execute(s, layer.weights, wp);
  memory sN(pd.src_desc(), eng), dN(pd.dst_desc(), eng);
  dnnl::convolution_forward conv(pd);
  dnnl::reorder r1(layer.srcB, sN), r2(dN, layer.dstB);
  std::vector<double> ms;
  for (int k = 0; k < 130; ++k) {
    auto a = std::chrono::steady_clock::now();
    if (reorders) r1.execute(s, layer.srcB, sN);
    conv.execute(s, {{DNNL_ARG_SRC, reorders ? sN : layer.srcB},
                     {DNNL_ARG_WEIGHTS, wp},
                     {DNNL_ARG_BIAS, layer.bias},
                     {DNNL_ARG_DST, reorders ? dN : layer.dstB}});
    if (reorders) r2.execute(s, dN, layer.dstB);
    s.wait();
    if (k >= 30)
      ms.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count());
  }
  t.ms = median(ms);
  return t;
}

}  // namespace conv_timing
