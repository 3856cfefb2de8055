// PassLab's own kernel for channels-last int8 pointwise QLinearConv
// (com.microsoft QLinearConv with channels_last = 1, a 1x1 kernel, group 1,
// stride 1, no padding: Y [pixels, M] from X [pixels, C] and W [M, C]) on
// AVX-512 VNNI, and in 256-bit registers (qlinear_pointwise_nhwc_avx2.h) on
// AVX-VNNI or plain AVX2 (vpmaddubsw for weights in [-64, 64], what
// `reduce_range` quantizers write; int16 pairs for others). The executor runs it where it is faster
// than oneDNN 2.6's brgconv_1x1 with zero points (preferred): every layer of
// at least 8 outputs with AVX-512 VNNI, those of at most 256 channels in and
// out on AVX-VNNI; without VNNI every layer of such weights but the large
// expansions, zero points or not (preferredWithoutVnni; ppocr_cls's 23 1x1
// layers there 2.1x float32, session 39). Blocks of 4 pixels by 3-4 vectors
// of 16 outputs (or 8 by 1-2) keep the VNNI unit busy, and up to 64 outputs
// of a pixel leave in one store; at exactly 8 outputs two pixels share a
// vector. ppocr_cls's 1x1
// layers (2026-12-07, AVX-512 VNNI): expansions 2.4-4.2 us here, 3.3-7.3 on
// oneDNN; 8-output layers 1.2-1.9 us, 2.5-4.3 on oneDNN (docs/precision.md).
//
// Exact, bit for bit the reference QLinearConv (qlinear.cpp): four input
// channels of a pixel (uint8; int8 as x + 128) are broadcast to every int32
// lane and one vpdpbusd sums them against four int8 weights of 16 output
// channels in int32 (exact); zx * sum(w) comes off with the int32 bias (the
// accumulators start from it); then the reference's requantization
// (qlinear_requant16.h's float32 path, or its double path).
#pragma once

#include <cstdint>
#include <vector>

#include "core/exec/cpu/conv_geometry.h"
#include "core/exec/cpu/qlinear_onednn_requantization.h"
#include "core/exec/cpu/qlinear_requant16.h"

namespace passlab::exec::cpu {

class QLinearPointwiseNhwc {
 public:
  // How the kernel sums, best first.
  enum class Path {
    kNone,        // none on this CPU (under PASSLAB_MAX_ISA)
    kAvx512Vnni,  // 16 int32 lanes, vpdpbusd
    kAvxVnni,     // 8 lanes, vpdpbusd (AVX-VNNI)
    kAvx2,        // 8 lanes, vpmaddubsw + vpmaddwd for weights in [-64, 64], else int16
                  // pairs and vpmaddwd (int16Steps)
  };
  // The best path of this CPU (cpu_isa.h), and whether it has `path`.
  static Path bestPath();
  static bool supports(Path path);
  // Whether some path of this CPU and geometry g (a kernel of 1 in every
  // spatial dim, group 1, strides 1, no padding) are covered.
  static bool covers(const ConvGeometry& g);
  // Whether it is faster than oneDNN's int8 primitive for g on a CPU with
  // VNNI: at least 8 outputs (wide), or few pixels (fewPixels), whatever the
  // channels; on the AVX-VNNI path (no AVX-512) wide layers only of at most
  // kMaxAvxVnniChannels inputs and outputs (fitsAvxVnni).
  static bool preferred(const ConvGeometry& g) {
    return fewPixels(g) || (wide(g) && (bestPath() == Path::kAvx512Vnni || fitsAvxVnni(g)));
  }
  // Against oneDNN 2.6's avx2_vnni brgconv_1x1 with zero points, 1 thread,
  // 2026-12-07 (this kernel / oneDNN's time, alternating profiles under
  // PASSLAB_MAX_ISA=avx2vnni on an AMD EPYC): 16 -> 88 (17x17) 0.65, 32 -> 200
  // (14x14) 0.95, ppocr_cls's 23 layers 92 / 135 us; but 1024 -> 256 (14x14)
  // 1.2-1.6, 64 -> 1024 (14x14) 1.2-1.4: a column of weights or a pixel's
  // outputs beyond the first cache level.
  static bool fitsAvxVnni(const ConvGeometry& g) {
    return g.C <= kMaxAvxVnniChannels && g.M <= kMaxAvxVnniChannels;
  }
  static constexpr int64_t kMaxAvxVnniChannels = 256;
  // Without VNNI (the AVX2 path; 7-bit weights) against oneDNN's
  // AVX2 int8 brgconv_1x1 (exact for such weights): every layer but the
  // large expansions, whatever the pixels or zero points. 2026-12-07, 1
  // thread, PASSLAB_MAX_ISA=avx2 ONEDNN_MAX_CPU_ISA=AVX2 (this kernel /
  // oneDNN): ppocr_cls's 23 layers 114 / 200 us, 24 -> 144 (56x56) 0.65,
  // 96 -> 576 (14x14) 0.86, 64 -> 1024 (14x14) 0.85, 1024 -> 256 (14x14)
  // 0.99-1.0; 256 -> 1024 (14x14) 1.02, 512 -> 2048 (7x7) 1.13.
  static bool preferredWithoutVnni(const ConvGeometry& g) { return !largeExpansion(g); }
  // At least 8 outputs (two pixels per vector at 8, a column of vectors from
  // 16), not a large expansion: preferred on every pixel count. Until session
  // 38 only layers that reduce the channels to 16 or more; ppocr_cls's
  // expansions (16 -> 40 ... 32 -> 200) and its 8-output layers (8 -> 8 ... 32
  // -> 8) took oneDNN's brgconv_1x1 (3.2-7.8 us), here now 2026-12-07
  // (docs/precision.md).
  static bool wide(const ConvGeometry& g) { return g.M >= kPairChannels && !largeExpansion(g); }
  // An expansion (fewer than 2M inputs) to at least kLargeOutputs outputs
  // from at least kLargeInputs inputs (ResNet-50's 256 -> 1024 and 512 ->
  // 2048): oneDNN's brgconv_1x1 is faster there. One layer, 1 thread,
  // AVX-512 VNNI, 2026-12-07 (r1): this kernel / oneDNN 1.06 (128 -> 1024,
  // 14x14), 1.21 (256 -> 1024, 14x14), 1.08 (320 -> 1280, 7x7), 1.35 (512 ->
  // 2048, 7x7); below either bound it wins: 64 -> 1024 (14x14) 0.78, 160 ->
  // 960 (7x7) 0.85, 192 -> 768 (14x14) 0.87, 128 -> 512 (28x28) 0.86.
  static bool largeExpansion(const ConvGeometry& g) {
    return g.C < 2 * g.M && g.M >= kLargeOutputs && g.C >= kLargeInputs;
  }
  static constexpr int64_t kLargeOutputs = 1024, kLargeInputs = 128;
  // Whether g has at most kFewPixels pixels (N times the spatial sizes):
  // there oneDNN's per-call cost (1.4-1.8 us on ppocr_cls's squeeze-excitation
  // convolutions of 1x1 pixel, zero points or not) is most of the node's time,
  // so this kernel is preferred even without zero points.
  static bool fewPixels(const ConvGeometry& g);
  static constexpr int64_t kFewPixels = 4;
  // Eight output channels: two pixels per vector.
  static constexpr int64_t kPairChannels = 8;

  // Takes the weights W [M, C, 1...] (int8, zero point 0) and the
  // requantization (readRequantization) for X of type xType (uint8 or
  // int8), to run on `path` (bestPath() by default). False when an int32
  // sum might overflow (more than 65536 input channels) or this CPU lacks
  // the path: the caller runs another kernel.
  bool prepare(const ConvGeometry& g, const int8_t* w, const qlinear::Requantization& r,
               ir::DataType xType, Path path = bestPath());
  Path path() const { return path_; }
  // On the AVX2 path: a weight lies outside [-64, 64], where vpmaddubsw's
  // int16 pair sums could saturate (int8_dot_exactness.h), so the sums take
  // int16 pairs (vpmaddwd: exact for any weights; as many multiplies as
  // vpmaddubsw + vpmaddwd, more adds and shuffles).
  bool int16Steps() const { return int16Steps_; }
  // The prepared kernel for another input shape g of the same convolution
  // (channels as prepared): the weights prepared stay, W is not read again.
  // False where g is another convolution.
  bool reshape(const ConvGeometry& g);

  // y [N, spatial..., M] from x [N, spatial..., C] (the types given to
  // prepare) and the int32 bias [M] (or null).
  void run(const void* x, const int32_t* bias, void* y, int threads);

 private:
  void computePixels(const uint8_t* x, uint8_t* y, int64_t first, int64_t last) const;
  void repeatPairLanes();

  Path path_ = Path::kNone;
  bool int16Steps_ = false;
  int64_t pixels_ = 0, c_ = 0, m_ = 0;
  int64_t mp_ = 0;     // output channels rounded up to 16 (8 lanes read on 256-bit paths)
  int64_t quads_ = 0;  // input channels in groups of 4, the last one padded with 0 weights
  bool xSigned_ = false;
  bool pairs_ = false;  // m_ == kPairChannels: lanes 8-15 repeat lanes 0-7 for the next pixel
  std::vector<int32_t> weights_;     // [quads_][mp_]: four int8 weights of input channels 4q..4q+3
  std::vector<int32_t> correction_;  // [mp_]: zx (as uint8) * sum(w) over the input channels
  requant16::Multipliers requant_;   // [mp_]
  int64_t sumBound_ = 0;             // the largest |sum| before the bias
  bool fast_ = false;                // this run requantizes in float32 (exact: store16)
  std::vector<int32_t> bias_;        // [mp_] of this run, less the correction
};

}  // namespace passlab::exec::cpu
