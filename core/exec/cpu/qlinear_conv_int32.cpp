#include "core/exec/cpu/qlinear_conv_int32.h"

#include <algorithm>
#include <cstdlib>
#include <optional>

#include "core/exec/cpu/conv_integer_zero_point.h"
#include "core/exec/cpu/onednn_int8_conv.h"
#include "core/exec/cpu/onednn_util.h"
#include "core/exec/parallel.h"
#include "core/support/cpu_isa.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace passlab::exec::cpu {

namespace {

using dnnl::memory;
using ir::DataType;
using namespace qlinear;  // NOLINT: the inputs and the requantization

constexpr int64_t kLanes = 16;

int64_t roundUp(int64_t v, int64_t m) {
  return (v + m - 1) / m * m;
}

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
// point, its result in channels-last (which oneDNN's int8 kernels pick; a
// reorder to it otherwise). False where oneDNN declines (onednn_int8_conv.h).
bool buildConvolution(onednn::ConvPrimitive& p, const ConvGeometry& g, DataType xType, int32_t zx) {
  dnnl::primitive_attr attr;
  if (zx != 0) attr.set_zero_points(DNNL_ARG_SRC, 0, {zx});
  if (!onednn::buildInt8Conv(p, g, int8Type(xType), memory::data_type::s32, false, attr))
    return false;
  const memory::desc channelsLast(onednn::toDims(g.outDims), memory::data_type::s32,
                                  channelsLastTag(g.spatial()));
  if (p.userDst != channelsLast) {
    p.userDst = channelsLast;
    p.adopt(p.prim, p.srcDesc, p.weiDesc, p.dstDesc);
  }
  return true;
}

#if defined(__x86_64__)
#define PASSLAB_I32_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni")))

__mmask16 lanes(int64_t left) {
  return left >= kLanes ? static_cast<__mmask16>(0xffff) : static_cast<__mmask16>((1u << left) - 1);
}

// Positions [o0, o1) (at most 16) of one image: acc [P, M] -> y [M, P],
// requantized 16 channels of a position at a time into a tile, the tile then
// written column by column.
PASSLAB_I32_TARGET void requantizeTile(const int32_t* acc, int64_t m, int64_t p,
                                       const requant16::Multipliers& mult, const int32_t* bias,
                                       bool fast, uint8_t* y, int64_t o0, int64_t o1) {
  const requant16::Requant q = requant16::constants(mult, fast);
  alignas(64) uint8_t tile[kLanes][kLanes];
  for (int64_t c0 = 0; c0 < m; c0 += kLanes) {
    const __mmask16 k = lanes(m - c0);
    const requant16::Channels ch{bias + c0, mult.mult.data() + c0, mult.multf.data() + c0};
    for (int64_t o = o0; o < o1; ++o)
      requant16::store16(_mm512_maskz_loadu_epi32(k, acc + o * m + c0), ch, q, tile[o - o0], k);
    const int64_t channels = std::min(kLanes, m - c0);
    for (int64_t c = 0; c < channels; ++c) {
      uint8_t* row = y + (c0 + c) * p;
      for (int64_t o = o0; o < o1; ++o) row[o] = tile[o - o0][c];
    }
  }
}

bool haveAvx512() {
  return cpu_isa::hasAvx512Vnni();
}
#else
bool haveAvx512() {
  return false;
}
#endif

}  // namespace

std::unique_ptr<QLinearConvInt32> QLinearConvInt32::create(const KernelContext& ctx,
                                                           const ConvGeometry& g) {
  static const bool exact = exactInt8DotProducts();
  if (!exact || !haveAvx512() || !ctx.invariantInput(kW)) return nullptr;
  std::optional<Requantization> r = readRequantization(ctx, g.M, {}, WeightForm::kAny8Bit);
  if (!r || r->yType == DataType::kFloat) return nullptr;
  std::optional<std::vector<int32_t>> zw =
      conv_integer::weightZeroPoints(ctx, kW, kWZeroPoint, g.M);
  if (!zw) return nullptr;

  auto k = std::unique_ptr<QLinearConvInt32>(new QLinearConvInt32());
  k->g_ = g;
  k->xZero_ = r->xZeroPoint;
  k->weights_ = conv_integer::signedWeights(ctx.input(kW));
  k->zw_ = std::move(*zw);
  k->weightZeroPoints_ = std::any_of(k->zw_.begin(), k->zw_.end(), [](int32_t z) { return z; });
  const DataType xType = ctx.input(kX).dtype();
  k->sumBound_ = largestWeightSum(k->weights_, k->zw_, g.M) * largestActivation(xType, k->xZero_);
  if (k->sumBound_ >= (int64_t{1} << 31)) return nullptr;
  if (!buildConvolution(k->conv_, g, xType, k->xZero_)) return nullptr;
  k->positions_ = 1;
  for (int64_t o : g.out) k->positions_ *= o;
  k->mp_ = roundUp(g.M, kLanes);
  k->requant_.prepare(*r, g.M, k->mp_);
  k->bias_.assign(static_cast<size_t>(k->mp_), 0);
  return k;
}

Status QLinearConvInt32::run(KernelContext& ctx, const Tensor& x, const Tensor* bias, Tensor& y) {
  PASSLAB_ASSIGN_OR_RETURN(Tensor acc, ctx.scratch(DataType::kInt32, g_.outDims));
  PASSLAB_RETURN_IF_ERROR(conv_.execute(ctx, x, weights_, nullptr, acc, true));
  int32_t* sums = acc.mutableData<int32_t>();
  if (weightZeroPoints_)
    conv_integer::subtractWeightZeroPoint(sums, true, g_, positions_, zw_,
                                          conv_integer::activationWindowSums(x, xZero_, g_),
                                          ctx.threads());
  int64_t largestBias = 0;
  if (bias) {
    std::copy(bias->data<int32_t>(), bias->data<int32_t>() + g_.M, bias_.begin());
    for (int64_t c = 0; c < g_.M; ++c)
      largestBias = std::max(largestBias, std::abs(int64_t{bias_[static_cast<size_t>(c)]}));
  } else {
    std::fill(bias_.begin(), bias_.end(), 0);
  }
  fast_ = requant_.floatExact(sumBound_ + largestBias);
  requantize(sums, static_cast<uint8_t*>(y.mutableRaw()), ctx.threads());
  return Status::ok();
}

void QLinearConvInt32::requantize(const int32_t* acc, uint8_t* y, int threads) const {
#if defined(__x86_64__)
  const int64_t p = positions_, m = g_.M, tiles = (p + kLanes - 1) / kLanes;
  parallelFor(g_.N * tiles, threads, std::max<int64_t>(1, 4096 / (m * kLanes)),
              [&](int64_t begin, int64_t end) {
                for (int64_t i = begin; i < end; ++i) {
                  const int64_t n = i / tiles, o0 = (i % tiles) * kLanes;
                  requantizeTile(acc + n * p * m, m, p, requant_, bias_.data(), fast_,
                                 y + n * m * p, o0, std::min(o0 + kLanes, p));
                }
              });
#else
  (void)acc, (void)y, (void)threads;
#endif
}

}  // namespace passlab::exec::cpu
