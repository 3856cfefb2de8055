#include "core/exec/cpu/qlinear_conv_int32.h"

#include <algorithm>
#include <cstdlib>
#include <optional>

#include "core/exec/cpu/avx512_lanes.h"
#include "core/exec/cpu/conv_integer_zero_point.h"
#include "core/exec/cpu/int8_dot_exactness.h"
#include "core/exec/cpu/onednn_int8_conv.h"
#include "core/exec/cpu/onednn_util.h"
#include "core/exec/cpu/qlinear_conv_int32_tile.h"
#include "core/exec/cpu/transpose16_avx512.h"
#include "core/exec/parallel.h"
#include "core/support/cpu_isa.h"

#if defined(__x86_64__)
#include "core/support/x86_intrinsics.h"
#endif

namespace passlab::exec::cpu {

namespace {

using dnnl::memory;
using ir::DataType;
using namespace qlinear;  // NOLINT: the inputs and the requantization

using avx512::kLanes;
using int32_sums::TileInput;

memory::format_tag channelsLastTag(size_t spatial) {
  using tag = memory::format_tag;
  return spatial == 1 ? tag::nwc : spatial == 2 ? tag::nhwc : tag::ndhwc;
}

// The largest |X - zx| of an 8-bit activation of type t.
int64_t largestActivation(DataType t, int32_t zx) {
  return t == DataType::kInt8 ? std::max(128 + zx, 127 - zx) : std::max(zx, 255 - zx);
}

// The largest sum of |W' - zw'| over one output channel's weights.
int64_t largestWeightSum(const Tensor& w, const std::vector<int32_t>& zw, int64_t m) {
  const int64_t perChannel = m == 0 ? 0 : w.numel() / m;
  const int8_t* v = w.data<int8_t>();
  int64_t largest = 0;
  for (int64_t c = 0; c < m; ++c) {
    int64_t sum = 0;
    for (int64_t k = 0; k < perChannel; ++k)
      sum += std::abs(int64_t{v[c * perChannel + k]} - zw[static_cast<size_t>(c)]);
    largest = std::max(largest, sum);
  }
  return largest;
}

// The convolution X (u8/s8) * W' (s8) -> int32 with zx as the source zero
// point (0: none), its result in channels-last (which oneDNN's int8 kernels
// pick; a reorder to it otherwise). False where oneDNN declines
// (onednn_int8_conv.h).
bool buildConvolution(onednn::ConvPrimitive& p, const ConvGeometry& g, DataType xType, int32_t zx,
                      bool channelsLastX) {
  dnnl::primitive_attr attr;
  if (zx != 0) attr.set_zero_points(DNNL_ARG_SRC, 0, {zx});
  if (!onednn::buildInt8Conv(p, g, int8Type(xType), memory::data_type::s32, false, attr,
                             channelsLastX))
    return false;
  const memory::desc channelsLast(onednn::toDims(g.outDims), memory::data_type::s32,
                                  channelsLastTag(g.spatial()));
  if (p.userDst != channelsLast) {
    p.userDst = channelsLast;
    p.adopt(p.prim, p.srcDesc, p.weiDesc, p.dstDesc);
  }
  return true;
}

// The source zero point oneDNN can take: with one, jit_int8 and brgconv
// take the sums conv(X - zx, W') through float32, exact below 2^24 (past it
// up to 16 off, measured); so zx where |conv(X - zx, W')| stays below 2^24,
// else 0 and sourceZeroPointTerm takes it out (jit_int8 with the zero point
// is faster than brgconv without: 0.59 against 0.85 ms on a 3x3 32 -> 128
// layer of 56x56).
int32_t oneDnnZeroPoint(int64_t weightBound, DataType xType, int32_t zx) {
  const int64_t bound = weightBound * largestActivation(xType, zx);
  return bound < (int64_t{1} << 24) ? zx : 0;
}

// zx * S[m, o] (S: the sums of W' over the taps of position o inside the
// image, conv_integer::windowWeightSums), which conv(X, W') less it makes
// conv(X - zx, W'), in wrapping int32; [P, M] as oneDNN's sums, so that the
// tiles read both alike.
std::vector<int32_t> sourceZeroPointTerm(const std::vector<int32_t>& tapSums, const ConvGeometry& g,
                                         int32_t zx) {
  int64_t p = 0;
  const std::vector<int32_t> s = conv_integer::windowWeightSums(tapSums, g, p);
  std::vector<int32_t> term(s.size());
  for (int64_t m = 0; m < g.M; ++m)
    for (int64_t o = 0; o < p; ++o) {
      const uint32_t v =
          static_cast<uint32_t>(zx) * static_cast<uint32_t>(s[static_cast<size_t>(m * p + o)]);
      term[static_cast<size_t>(o * g.M + m)] = static_cast<int32_t>(v);
    }
  return term;
}

#if defined(__x86_64__)
#define PASSLAB_I32_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni")))

using avx512::lanes;

// Positions [o0, o1) (at most 16) of one image into y [M, P]: 16 channels'
// sums of each position loaded, transposed in registers (transpose16) so
// that each register holds one channel's 16 positions, the weights' zero
// point term taken out along them, then requantized and stored as 16 bytes
// of the channel's row.
PASSLAB_I32_TARGET void requantizeTile(const TileInput& in, bool fast, uint8_t* y, int64_t o0,
                                       int64_t o1) {
  const requant16::Requant q = requant16::constants(*in.mult16, fast);
  const __mmask16 kp = lanes(o1 - o0);
  for (int64_t c0 = 0; c0 < in.m; c0 += kLanes) {
    const __mmask16 kc = lanes(in.m - c0);
    __m512 r[kLanes];
    for (int64_t i = 0; i < kLanes; ++i) {
      const int64_t at = (o0 + i) * in.m + c0;
      __m512i v = i < o1 - o0 ? _mm512_maskz_loadu_epi32(kc, in.acc + at) : _mm512_setzero_si512();
      if (in.xTerm && i < o1 - o0)
        v = _mm512_sub_epi32(v, _mm512_maskz_loadu_epi32(kc, in.xTerm + at));
      r[i] = _mm512_castsi512_ps(v);
    }
    transpose16(r);
    const int64_t channels = std::min(kLanes, in.m - c0);
    for (int64_t j = 0; j < channels; ++j) {
      const int64_t c = c0 + j;
      __m512i v = _mm512_castps_si512(r[j]);
      if (in.t) {
        const int32_t* t = in.t + (c / in.mPerGroup) * in.p + o0;
        v = _mm512_sub_epi32(
            v, _mm512_mullo_epi32(_mm512_set1_epi32(in.zw[c]), _mm512_maskz_loadu_epi32(kp, t)));
      }
      const requant16::Channels ch{in.bias16 + c * kLanes, in.mult16->mult.data() + c * kLanes,
                                   in.mult16->multf.data() + c * kLanes};
      requant16::store16(v, ch, q, y + c * in.p + o0, kp);
    }
  }
}

// Channels-last Y: positions [o0, o1) of one image, y [P, M], each
// position's channels requantized 16 at a time (per-channel bias and
// multipliers, not repeated); the weights' zero-point term per lane from
// t [group, P] at groupAt[c] (the offset of channel c's group).
PASSLAB_I32_TARGET void requantizePositions(const TileInput& in, const int32_t* groupAt, bool fast,
                                            uint8_t* y, int64_t o0, int64_t o1) {
  const requant16::Requant q = requant16::constants(*in.mult16, fast);
  for (int64_t o = o0; o < o1; ++o)
    for (int64_t c0 = 0; c0 < in.m; c0 += kLanes) {
      const __mmask16 kc = lanes(in.m - c0);
      __m512i v = _mm512_maskz_loadu_epi32(kc, in.acc + o * in.m + c0);
      if (in.t) {
        const __m512i t = in.mPerGroup == in.m
                              ? _mm512_set1_epi32(in.t[o])
                              : _mm512_mask_i32gather_epi32(
                                    _mm512_setzero_si512(), kc,
                                    _mm512_maskz_loadu_epi32(kc, groupAt + c0), in.t + o, 4);
        v = _mm512_sub_epi32(v, _mm512_mullo_epi32(_mm512_maskz_loadu_epi32(kc, in.zw + c0), t));
      }
      if (in.xTerm) v = _mm512_sub_epi32(v, _mm512_maskz_loadu_epi32(kc, in.xTerm + o * in.m + c0));
      const requant16::Channels ch{in.bias16 + c0, in.mult16->mult.data() + c0,
                                   in.mult16->multf.data() + c0};
      requant16::store16(v, ch, q, y + o * in.m + c0, kc);
    }
}
#endif

}  // namespace

std::unique_ptr<QLinearConvInt32> QLinearConvInt32::create(const KernelContext& ctx,
                                                           const ConvGeometry& g, bool channelsLast,
                                                           const QLinearConvInt32* previous) {
  // The requantization runs on AVX-512 VNNI or AVX2 + FMA; oneDNN's int8 sums are exact with
  // VNNI (AVX-512 or AVX-VNNI), and without it for uint8 X times weights in [-64, 64]
  // (int8_dot_exactness.h: `reduce_range` files on AVX2 CPUs), checked below on W'.
  static const bool exact = exactInt8DotProducts();
  static const bool avx512 = cpu_isa::hasAvx512Vnni();
  if (!(avx512 || cpu_isa::hasAvx2Fma()) || !ctx.invariantInput(kW)) return nullptr;
  if (!exact && ctx.input(kX).dtype() != DataType::kUInt8) return nullptr;
  std::optional<Requantization> r = readRequantization(ctx, g.M, {}, WeightForm::kAny8Bit);
  if (!r || r->yType == DataType::kFloat) return nullptr;
  std::optional<std::vector<int32_t>> zw =
      conv_integer::weightZeroPoints(ctx, kW, kWZeroPoint, g.M);
  if (!zw) return nullptr;

  auto k = std::unique_ptr<QLinearConvInt32>(new QLinearConvInt32());
  k->g_ = g;
  k->channelsLast_ = channelsLast;
  k->avx512_ = avx512;
  k->xZero_ = r->xZeroPoint;
  k->zw_ = std::move(*zw);
  k->weightZeroPoints_ = std::any_of(k->zw_.begin(), k->zw_.end(), [](int32_t z) { return z; });
  const Tensor& w = ctx.input(kW);
  const bool inherit = previous && previous->holdsWeights() && previous->facts_.wDims == w.dims();
  if (inherit) {
    k->facts_ = previous->facts_;
  } else {
    if (w.dataFreed()) return nullptr;
    k->weights_ = conv_integer::signedWeights(w);
    k->facts_ = {w.dims(), conv_integer::tapWeightSums(k->weights_, g),
                 largestWeightSum(k->weights_, std::vector<int32_t>(k->zw_.size(), 0), g.M),
                 largestWeightSum(k->weights_, k->zw_, g.M),
                 int8DotProductsExactFor(
                     {k->weights_.data<int8_t>(), static_cast<size_t>(k->weights_.numel())},
                     DataType::kUInt8)};
  }
  if (!exact && !k->facts_.narrow) return nullptr;
  // Every sum oneDNN forms, with the source zero point or without, is at most the weights'
  // largest sum of magnitudes times 255 (|X| and |X - zx| of 8-bit values); below AVX-512 VNNI
  // they pass through float32 (int8ConvSumsExact: a 3x3 layer of 512 channels under
  // PASSLAB_MAX_ISA=avx2vnni came out 1 step apart in 5 of 784 outputs,
  // SumsPastFloat32IntegersStayExact).
  if (!int8ConvSumsExact(k->facts_.largestSum)) return nullptr;
  const DataType xType = ctx.input(kX).dtype();
  k->sumBound_ = k->facts_.largestLessZw * largestActivation(xType, k->xZero_);
  if (k->sumBound_ >= (int64_t{1} << 31)) return nullptr;
  const int32_t oneDnnZero = oneDnnZeroPoint(k->facts_.largestSum, xType, k->xZero_);
  if (!buildConvolution(k->conv_, g, xType, oneDnnZero, channelsLast)) return nullptr;
  if (inherit) k->conv_.inheritWeights(previous->conv_);
  if (oneDnnZero != k->xZero_) k->xTerm_ = sourceZeroPointTerm(k->facts_.tapSums, g, k->xZero_);
  if (k->weightZeroPoints_) k->window_ = buildIndirection(g.window);
  k->positions_ = 1;
  for (int64_t o : g.out) k->positions_ *= o;
  if (channelsLast) {  // requantized along the channels
    const int64_t padded = avx512::roundUp(g.M, kLanes);
    k->requant_.prepare(*r, g.M, padded);
    k->bias_.assign(static_cast<size_t>(padded), 0);
    for (int64_t c = 0; c < g.M; ++c)
      k->groupAt_.push_back(static_cast<int32_t>(c / (g.M / g.group) * k->positions_));
    return k;
  }
  // Each channel's multiplier in 16 lanes: the tiles requantize along positions.
  Requantization lanesOf = *r;
  lanesOf.outputScales.clear();
  for (int64_t c = 0; c < g.M; ++c)
    lanesOf.outputScales.insert(
        lanesOf.outputScales.end(), kLanes,
        r->outputScales[r->outputScales.size() == 1 ? 0 : static_cast<size_t>(c)]);
  k->requant_.prepare(lanesOf, g.M * kLanes, g.M * kLanes);
  k->bias_.assign(static_cast<size_t>(g.M * kLanes), 0);
  return k;
}

Status QLinearConvInt32::run(KernelContext& ctx, const Tensor& x, const Tensor* bias, Tensor& y) {
  PASSLAB_ASSIGN_OR_RETURN(Tensor acc, ctx.scratch(DataType::kInt32, g_.outDims));
  PASSLAB_RETURN_IF_ERROR(conv_.execute(ctx, x, weights_, nullptr, acc, true));
  if (conv_.holdsWeights()) weights_ = Tensor();
  std::vector<int32_t> t;
  if (weightZeroPoints_)
    t = conv_integer::activationWindowSums(x, xZero_, g_, window_, channelsLast_);
  int64_t largestBias = 0;
  const int64_t repeat = channelsLast_ ? 1 : kLanes;
  for (int64_t c = 0; c < g_.M; ++c) {
    const int32_t b = bias ? bias->data<int32_t>()[c] : 0;
    std::fill_n(bias_.begin() + c * repeat, repeat, b);
    largestBias = std::max(largestBias, std::abs(int64_t{b}));
  }
  fast_ = requant_.floatExact(sumBound_ + largestBias);
  requantize(acc.data<int32_t>(), t.empty() ? nullptr : t.data(),
             static_cast<uint8_t*>(y.mutableRaw()), ctx.threads());
  return Status::ok();
}

void QLinearConvInt32::requantize(const int32_t* acc, const int32_t* t, uint8_t* y,
                                  int threads) const {
#if defined(__x86_64__)
  const int64_t tileLanes = avx512_ ? kLanes : int32_sums::kAvx2TilePositions;
  const int64_t p = positions_, m = g_.M, tiles = (p + tileLanes - 1) / tileLanes;
  if (channelsLast_) {
    parallelFor(g_.N * p, threads, std::max<int64_t>(1, 4096 / m), [&](int64_t begin, int64_t end) {
      for (int64_t n = begin / p; n * p < end; ++n) {
        const int64_t o0 = std::max(begin - n * p, int64_t{0});
        const int64_t o1 = std::min(end - n * p, p);
        const TileInput in{acc + n * p * m,
                           t ? t + n * g_.group * p : nullptr,
                           zw_.data(),
                           xTerm_.empty() ? nullptr : xTerm_.data(),
                           m,
                           p,
                           m / g_.group,
                           bias_.data(),
                           &requant_};
        if (avx512_)
          requantizePositions(in, groupAt_.data(), fast_, y + n * p * m, o0, o1);
        else
          int32_sums::requantizePositionsAvx2(in, groupAt_.data(), fast_, y + n * p * m, o0, o1);
      }
    });
    return;
  }
  parallelFor(g_.N * tiles, threads, std::max<int64_t>(1, 4096 / (m * tileLanes)),
              [&](int64_t begin, int64_t end) {
                for (int64_t i = begin; i < end; ++i) {
                  const int64_t n = i / tiles, o0 = (i % tiles) * tileLanes;
                  const TileInput in{acc + n * p * m,
                                     t ? t + n * g_.group * p : nullptr,
                                     zw_.data(),
                                     xTerm_.empty() ? nullptr : xTerm_.data(),
                                     m,
                                     p,
                                     m / g_.group,
                                     bias_.data(),
                                     &requant_};
                  const int64_t o1 = std::min(o0 + tileLanes, p);
                  if (avx512_)
                    requantizeTile(in, fast_, y + n * m * p, o0, o1);
                  else
                    int32_sums::requantizeTileAvx2(in, fast_, y + n * m * p, o0, o1);
                }
              });
#else
  (void)acc, (void)t, (void)y, (void)threads;
#endif
}

}  // namespace passlab::exec::cpu
