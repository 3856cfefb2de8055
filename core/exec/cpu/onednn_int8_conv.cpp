#include "core/exec/cpu/onednn_int8_conv.h"

#include <string_view>

#include "core/exec/cpu/onednn_conv_dims.h"
#include "core/exec/cpu/onednn_util.h"

namespace passlab::exec::cpu::onednn {

namespace {

using dnnl::memory;
using tag = memory::format_tag;

Dims inputDims(const ConvGeometry& g) {
  Dims d{g.N, g.C};
  d.insert(d.end(), g.in.begin(), g.in.end());
  return d;
}

// AMX's tile set-up costs more than its int8 tiles save on small
// convolutions: ppocr_cls_mobile_v2's 52 convolutions (at most 3.5M
// multiply-adds each) took 0.92 ms with AMX and 0.29 ms on VNNI, ultraface's
// 4.1 and 3.7 ms (1 thread, medians of 40 runs); a 3x3 64->64 convolution on
// 56x56 (115M) gains from it. Below this many multiply-adds, the first
// implementation that is not AMX.
constexpr int64_t kAmxMinMultiplyAdds = int64_t{64} << 20;

int64_t multiplyAdds(const ConvGeometry& g) {
  int64_t out = 1, perOutput = g.C / g.group;
  for (int64_t d : g.outDims) out *= d;
  for (int64_t k : g.kernel) perOutput *= k;
  return out * perOutput;
}

// Moves `pd` past AMX implementations; false when none other is left (pd is
// then spent: make it again).
bool skipAmx(dnnl::convolution_forward::primitive_desc& pd) {
  while (std::string_view(pd.impl_info_str()).find("amx") != std::string_view::npos)
    if (!pd.next_impl()) return false;
  return !std::string_view(pd.impl_info_str()).starts_with("ref");
}

}  // namespace

bool buildInt8Conv(ConvPrimitive& p, const ConvGeometry& g, memory::data_type src,
                   memory::data_type dst, bool hasBias, const dnnl::primitive_attr& attr,
                   bool channelsLast) {
  try {
    const size_t sp = g.spatial();
    const memory::data_type wei = memory::data_type::s8;
    const ConvDims cd = convDims(g);
    const memory::dims& wDims = cd.weights;
    const memory::dims xDims = toDims(inputDims(g));

    p.userSrc = memory::desc(xDims, src, convDataTag(sp, channelsLast));
    p.userWei = memory::desc(wDims, wei, convWeightsTag(sp, g.group > 1));
    p.userDst = memory::desc(toDims(g.outDims), dst, convDataTag(sp, channelsLast));
    p.biasDesc = memory::desc({g.M}, memory::data_type::s32, tag::x);
    // `any`: oneDNN picks the layouts of its fastest int8 kernel (channels-last or blocked).
    auto anySrc = memory::desc(xDims, src, tag::any);
    auto anyWei = memory::desc(wDims, wei, tag::any);
    auto anyDst = memory::desc(toDims(g.outDims), dst, tag::any);
    const auto kind = dnnl::prop_kind::forward_inference;
    const auto algo = dnnl::algorithm::convolution_direct;
    auto desc =
        hasBias ? dnnl::convolution_forward::desc(kind, algo, anySrc, anyWei, p.biasDesc, anyDst,
                                                  cd.strides, cd.dilation, cd.padL, cd.padR)
                : dnnl::convolution_forward::desc(kind, algo, anySrc, anyWei, anyDst, cd.strides,
                                                  cd.dilation, cd.padL, cd.padR);
    auto make = [&] { return dnnl::convolution_forward::primitive_desc(desc, attr, engine()); };
    auto pd = make();
    if (multiplyAdds(g) < kAmxMinMultiplyAdds && !skipAmx(pd)) pd = make();
    if (std::string_view(pd.impl_info_str()).starts_with("ref")) return false;
    p.adopt(dnnl::convolution_forward(pd), pd.src_desc(), pd.weights_desc(), pd.dst_desc());
    return true;
  } catch (const dnnl::error&) {
    return false;
  }
}

}  // namespace passlab::exec::cpu::onednn
