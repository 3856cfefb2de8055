// ai.passlab FusedConvInteger (core/ir/passlab_ops.h; fuse_conv_integer_epilogue
// writes it): the dynamic INT8 convolution quantize_dynamic writes, after its
// DynamicQuantizeLinear, as one step:
//
//   Y = act(Cast<float>(ConvInteger(X, W, x_zero_point, w_zero_point)) * Scale + B)
//
// Scale and B (optional) hold one float32 value or one per output channel.
//
// Fast path: oneDNN's int8 convolution (onednn_int8_conv.h) runs without the
// activation's zero point into int32 sums in the layout it picks
// (channels-last), and one pass reads them, takes out the zero point's term
// (conv_integer_zero_point.h), converts, scales, adds B, applies the
// activation and writes Y in NCHW. The unfused form spends four passes on
// this (the int32 result reordered to NCHW, the zero-point pass, Cast, the
// Mul/Add/activation). The arithmetic is the unfused ops' own (exact int32,
// then float(sum) * scale + b in float32, the activation as
// fused::epilogue), so Y is theirs bit for bit.
//
// uint8 weights with their zero points (a QDQ model's, fuse_qdq_conv_integer)
// run as int8 weights W - 128, and the weights' zero-point term is taken out
// of the sums before that pass (conv_integer_zero_point.h). On a CPU without
// exact int8 dot products (no VNNI) the oneDNN kernel takes uint8 X and
// weights W' (W - 128 for uint8 W) in [-64, 64] only (narrow_signed_weights.h:
// quantize_dynamic's reduce_range=true), whose pair sums cannot saturate.
// Below AVX-512 VNNI oneDNN's int32 sums also pass through float32, so only
// layers whose sums stay below 2^24 run there (qlinear::int8ConvSumsExact).
// Such a CPU usually lacks AVX-512 too: the epilogue's Relu, LeakyRelu, Clip
// and no activation then run on 8 lanes (AVX2; dequantizeTileAvx2,
// dequantizePositionsAvx2), with the scalar loop's arithmetic (no FMA), so
// the same bits.
// What it declines (weights that vary between runs, wider weights or int8 X
// without VNNI, ...) runs the reference ConvInteger into scratch and the same
// epilogue, as does the reference row.
//
// channels_last = 1 (convert_int8_to_channels_last): X is [N, spatial..., C]
// and Y [N, spatial..., M] (W stays [M, C/group, k...]). oneDNN reads X as it
// is and writes its channels-last sums, and the epilogue writes Y in the same
// order, with no transpose on either side (the same arithmetic, so Y is the
// channels-first Y transposed, bit for bit). Weight zero points and whatever
// oneDNN declines run the channels-first kernel on transposed copies.
//
// Output 1, `range` (fuse_dynamic_quantize_range): Y's range with 0 as
// DynamicQuantizeLinear takes it (value_range.h), for the
// RangedDynamicQuantizeLinear that quantizes Y. The channels-last epilogue
// takes it from the registers it stores (the activations computed inline);
// every other path scans what it wrote.
//
// quantize_output = 1 (fuse_dynamic_quantize_into_conv): the outputs are
// DynamicQuantizeLinear(Y)'s, Q (uint8, Y's shape), Q_scale and
// Q_zero_point, and Y gets no tensor of its own. The channels-last epilogue
// on AVX-512 writes Y over its own int32 sums (each 16 lanes are read before
// they are written), taking Y's range with 0 as it stores, then quantizes
// that buffer with DynamicQuantizeLinear's own loop (dynamic_quantize.h), so
// the bytes are the unfused pair's. (Session 31 read the sums twice instead,
// the range in a first pass and Y computed again in a second: 8-10% slower
// on ultraface, docs/precision.md, session 35.) Every other path computes Y
// into scratch and quantizes it as DynamicQuantizeLinear.
//
// Where oneDNN reorders the weights into its layout, the primitive holds
// them packed; the plan then lets go of W and the kernel says
// KernelContext::holdsOwnCopy. A plan for another input shape takes the held
// copy and makes S from W's per-tap sums (conv_integer::tapWeightSums), kept
// from the first plan; a path that would read the freed W (oneDNN declines
// the new shape) is an error naming the node instead.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#if defined(__x86_64__)
#include "core/support/x86_intrinsics.h"
#endif

#include "core/exec/cpu/avx2_transpose8.h"
#include "core/exec/cpu/avx512_lanes.h"
#include "core/exec/cpu/conv_geometry.h"
#include "core/exec/cpu/conv_integer_zero_point.h"
#include "core/exec/cpu/dynamic_quantize.h"
#include "core/exec/cpu/onednn_int8_conv.h"
#include "core/exec/cpu/onednn_util.h"
#include "core/exec/cpu/passlab_fused.h"
#include "core/exec/cpu/qlinear_conv_channels_last.h"
#include "core/exec/cpu/qlinear_onednn_requantization.h"
#include "core/exec/cpu/qlinear_reference.h"
#include "core/exec/cpu/scratch_output_context.h"
#include "core/exec/cpu/signed_weight_checks.h"
#include "core/exec/cpu/transpose16_avx512.h"
#include "core/exec/cpu/value_range.h"
#include "core/exec/parallel.h"
#include "core/support/cpu_isa.h"

namespace passlab::exec::cpu::fused {

namespace {

using dnnl::memory;
using ir::DataType;

// FusedConvInteger's attribute: 1 when its outputs are DynamicQuantizeLinear's
// of Y (fuse_dynamic_quantize_into_conv).
constexpr const char* kQuantizeOutput = "quantize_output";

enum Input : size_t { kX = 0, kW = 1, kXZeroPoint = 2, kWZeroPoint = 3, kScale = 4, kBias = 5 };

// Everything built for one input shape.
struct Plan : onednn::ConvPrimitive {
  Dims xDims, wDims;
  int threads = 0;
  bool declined = false;      // the reference path runs this configuration
  bool channelsLast = false;  // the int32 sums are [N, positions, M] (else [N, M, positions])
  std::vector<int32_t> sums;  // S (conv_integer_zero_point.h): [M, P], or [P, M] when channelsLast
  bool sumsPerChannel = false;    // S kept as [M]: every row of S is one value (compactSums)
  std::vector<uint8_t> interior;  // channels-last: 1 where S's row is `whole` (Sums)
  std::vector<int32_t> whole;     // [M] the sum of each channel's weights
  int64_t positions = 0;
  Tensor weights;  // the int8 weights oneDNN reads (signedWeights); empty once held packed
};

// Scale and B as one value per output channel.
struct ChannelTerms {
  std::vector<float> scale, bias;  // bias empty: no B
};

Expected<std::vector<float>> perChannel(const Tensor& t, int64_t m, const char* name) {
  if (t.dtype() != DataType::kFloat || (t.numel() != 1 && t.numel() != m))
    return invalidArgument(std::string("FusedConvInteger: ") + name +
                           " must be float32 with 1 or " + std::to_string(m) + " values, got " +
                           t.describe());
  const float* v = t.data<float>();
  std::vector<float> r(static_cast<size_t>(m));
  for (int64_t i = 0; i < m; ++i) r[static_cast<size_t>(i)] = v[t.numel() == 1 ? 0 : i];
  return r;
}

Expected<ChannelTerms> channelTerms(const KernelContext& ctx, int64_t m) {
  ChannelTerms t;
  PASSLAB_ASSIGN_OR_RETURN(t.scale, perChannel(ctx.input(kScale), m, "Scale"));
  if (ctx.has(kBias)) {
    PASSLAB_ASSIGN_OR_RETURN(t.bias, perChannel(ctx.input(kBias), m, "B"));
  }
  return t;
}

// The int32 sums of a run and the zero point's term to take out: S [M, P]
// (null when zx is 0).
struct Sums {
  const int32_t* acc = nullptr;
  const int32_t* s = nullptr;
  int32_t zx = 0;
  // Channels-last only: the positions whose S row is `whole` (every tap
  // inside the image: the sum of all of a channel's weights), so that S
  // need not be read there.
  const uint8_t* interior = nullptr;
  const int32_t* whole = nullptr;
  bool perChannel = false;  // s is [M], one value per channel (Plan::sumsPerChannel)
};

// The activations computed inline below (as fused::epilogue computes them);
// any other runs fused::epilogue on the finished row.
bool inlineActivation(ActKind k) {
  return k == ActKind::kNone || k == ActKind::kRelu || k == ActKind::kLeakyRelu ||
         k == ActKind::kClip;
}

float activate(const Activation& a, float x) {
  switch (a.kind) {
    case ActKind::kRelu:
      return x < 0.0f ? 0.0f : x;
    case ActKind::kLeakyRelu:
      return x < 0.0f ? a.alpha * x : x;
    case ActKind::kClip:
      return x < a.alpha ? a.alpha : (x > a.beta ? a.beta : x);
    default:
      return x;
  }
}

// One output row (channel c, positions [o0, o1)): y[o] = act(float(acc(o) -
// zx * S(o)) * scale + bias), acc(o) = acc[o * stride], S(o) = s[o * sStride]
// (sStride 0: S one value per channel).
void dequantizeRow(const int32_t* acc, int64_t stride, const int32_t* s, int64_t sStride,
                   int32_t zx, float scale, const float* bias, const Activation& act, float* y,
                   int64_t o0, int64_t o1) {
  for (int64_t o = o0; o < o1; ++o) {
    const int32_t v = acc[o * stride] - (s ? zx * s[o * sStride] : 0);
    float r = static_cast<float>(v) * scale;
    if (bias) r += *bias;
    y[o] = activate(act, r);
  }
  if (!inlineActivation(act.kind)) epilogue(act, y + o0, nullptr, o1 - o0);
}

#if defined(__x86_64__)
// 16 lanes of int32 sums (their zero-point corrections already taken off)
// scaled, biased and activated: the scalar formulas of dequantizeRow and
// activate(), lane by lane, for the inline activations. The product is
// rounded explicitly: the compiler may not contract it and the bias into one
// FMA, which would round once where the unfused ops round twice.
__attribute__((target("avx512f"))) inline __m512 dequantizeLanes(__m512i a, __m512 vs, bool hasBias,
                                                                 __m512 vb, ActKind kind,
                                                                 __m512 alpha, __m512 beta) {
  const __m512 zero = _mm512_setzero_ps();
  __m512 v =
      _mm512_mul_round_ps(_mm512_cvtepi32_ps(a), vs, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  if (hasBias) v = _mm512_add_ps(v, vb);
  switch (kind) {
    case ActKind::kRelu:
      return _mm512_mask_mov_ps(v, _mm512_cmp_ps_mask(v, zero, _CMP_LT_OQ), zero);
    case ActKind::kLeakyRelu:
      return _mm512_mask_mul_ps(v, _mm512_cmp_ps_mask(v, zero, _CMP_LT_OQ), v, alpha);
    case ActKind::kClip: {
      const __mmask16 low = _mm512_cmp_ps_mask(v, alpha, _CMP_LT_OQ);
      v = _mm512_mask_mov_ps(v, _mm512_cmp_ps_mask(v, beta, _CMP_GT_OQ), beta);
      return _mm512_mask_mov_ps(v, low, alpha);
    }
    default:
      return v;
  }
}

// The same for channels-last sums on 16 lanes (AVX-512F), 16 channels of 16
// positions at a time: each position's channels dequantized along the
// channels (contiguous sums, S [P, M], scale and bias), the 16x16 block
// transposed in registers and stored as 16 rows of Y.
__attribute__((target("avx512f"))) void dequantizeTileAvx512(const int32_t* acc, int64_t m,
                                                             const Sums& in, int64_t p,
                                                             const float* scale, const float* bias,
                                                             const Activation& act, float* y,
                                                             int64_t o0, int64_t o1) {
  const int32_t* sT = in.s;
  const auto positions = static_cast<int>(o1 - o0);
  const __mmask16 kp = avx512::lanes(positions);
  const __m512i vzx = _mm512_set1_epi32(in.zx);
  const __m512 zero = _mm512_setzero_ps(), alpha = _mm512_set1_ps(act.alpha),
               beta = _mm512_set1_ps(act.beta);
  for (int64_t c0 = 0; c0 < m; c0 += 16) {
    const auto channels = static_cast<int>(std::min<int64_t>(16, m - c0));
    const __mmask16 kc = avx512::lanes(channels);
    const __m512 vs = _mm512_maskz_loadu_ps(kc, scale + c0);
    const __m512 vb = bias ? _mm512_maskz_loadu_ps(kc, bias + c0) : zero;
    const __m512i zxWhole =
        sT ? _mm512_mullo_epi32(vzx, _mm512_maskz_loadu_epi32(kc, in.whole + c0)) : vzx;
    __m512 r[16];
    for (int i = 0; i < 16; ++i) {
      if (i >= positions) {
        r[i] = zero;
        continue;
      }
      const int64_t at = (o0 + i) * m + c0;
      __m512i a = _mm512_maskz_loadu_epi32(kc, acc + at);
      if (sT)
        a = _mm512_sub_epi32(a,
                             in.interior[o0 + i]
                                 ? zxWhole
                                 : _mm512_mullo_epi32(vzx, _mm512_maskz_loadu_epi32(kc, sT + at)));
      r[i] = dequantizeLanes(a, vs, bias != nullptr, vb, act.kind, alpha, beta);
    }
    transpose16(r);
    for (int j = 0; j < channels; ++j) {
      float* row = y + (c0 + j) * p;
      _mm512_mask_storeu_ps(row + o0, kp, r[j]);
      if (!inlineActivation(act.kind)) epilogue(act, row + o0, nullptr, o1 - o0);
    }
  }
}
#endif

#if defined(__x86_64__)
// 8 lanes (AVX2) of int32 sums minus zx * S scaled, biased and activated:
// the scalar loop's float(acc - zx * S) * scale, + bias, the inline
// activation as activate() computes it, lane by lane. No FMA (avx2 alone:
// the product and the bias round apart, as in the scalar loop), so the same
// bits.
__attribute__((target("avx2"))) inline __m256 dequantizeLanesAvx2(__m256i a, __m256 vs,
                                                                  const float* bias, __m256 vb,
                                                                  ActKind kind, __m256 alpha,
                                                                  __m256 beta) {
  const __m256 zero = _mm256_setzero_ps();
  __m256 v = _mm256_mul_ps(_mm256_cvtepi32_ps(a), vs);
  if (bias) v = _mm256_add_ps(v, vb);
  switch (kind) {
    case ActKind::kRelu:
      return _mm256_blendv_ps(v, zero, _mm256_cmp_ps(v, zero, _CMP_LT_OQ));
    case ActKind::kLeakyRelu:
      return _mm256_blendv_ps(v, _mm256_mul_ps(v, alpha), _mm256_cmp_ps(v, zero, _CMP_LT_OQ));
    case ActKind::kClip: {
      const __m256 low = _mm256_cmp_ps(v, alpha, _CMP_LT_OQ);
      v = _mm256_blendv_ps(v, beta, _mm256_cmp_ps(v, beta, _CMP_GT_OQ));
      return _mm256_blendv_ps(v, alpha, low);
    }
    default:
      return v;
  }
}

// The channels [c, c + 8) of position o of channels-last sums [P, M] minus
// zx * S (S [P, M], or [M] when perChannel), as int32 lanes.
__attribute__((target("avx2"))) inline __m256i sumLanesAvx2(const int32_t* acc, int64_t m,
                                                            const Sums& in, __m256i vzx, int64_t o,
                                                            int64_t c) {
  const int64_t at = o * m + c;
  __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(acc + at));
  if (!in.s) return a;
  const int32_t* sr = in.s + (in.perChannel ? c : at);
  return _mm256_sub_epi32(
      a, _mm256_mullo_epi32(vzx, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(sr))));
}

// One element of channels-last sums as the scalar loops compute it.
inline float dequantizeOne(const int32_t* acc, int64_t m, const Sums& in, const float* scale,
                           const float* bias, const Activation& act, int64_t o, int64_t c) {
  const int64_t at = o * m + c;
  const int32_t v = acc[at] - (in.s ? in.zx * in.s[in.perChannel ? c : at] : 0);
  float r = static_cast<float>(v) * scale[c];
  if (bias) r += bias[c];
  return activate(act, r);
}

// Positions [o0, o1) of channels-last sums into channels-last Y on 8 lanes
// (AVX2, the inline activations), the scalar loop of writeChannelsLast's
// values.
__attribute__((target("avx2"))) void dequantizePositionsAvx2(const int32_t* acc, int64_t m,
                                                             const Sums& in, const float* scale,
                                                             const float* bias,
                                                             const Activation& act, float* y,
                                                             int64_t o0, int64_t o1) {
  const __m256 alpha = _mm256_set1_ps(act.alpha), beta = _mm256_set1_ps(act.beta);
  const __m256i vzx = _mm256_set1_epi32(in.zx);
  const int64_t full = m / 8 * 8;
  for (int64_t o = o0; o < o1; ++o) {
    int64_t c = 0;
    for (; c < full; c += 8) {
      const __m256 vb = bias ? _mm256_loadu_ps(bias + c) : _mm256_setzero_ps();
      _mm256_storeu_ps(y + o * m + c, dequantizeLanesAvx2(sumLanesAvx2(acc, m, in, vzx, o, c),
                                                          _mm256_loadu_ps(scale + c), bias, vb,
                                                          act.kind, alpha, beta));
    }
    for (; c < m; ++c) y[o * m + c] = dequantizeOne(acc, m, in, scale, bias, act, o, c);
  }
}

// Positions [o0, o1) of channels-last sums [P, M] into NCHW Y [M, P] (AVX2,
// the inline activations): blocks of 8 positions x 8 channels dequantized
// along the channels, transposed in registers and stored as 8 channel rows;
// the channels past the last 8 and the positions past the last 8 one by one.
__attribute__((target("avx2"))) void dequantizeTileAvx2(const int32_t* acc, int64_t m,
                                                        const Sums& in, int64_t p,
                                                        const float* scale, const float* bias,
                                                        const Activation& act, float* y, int64_t o0,
                                                        int64_t o1) {
  const __m256 alpha = _mm256_set1_ps(act.alpha), beta = _mm256_set1_ps(act.beta);
  const __m256i vzx = _mm256_set1_epi32(in.zx);
  const int64_t fullC = m / 8 * 8, fullO = o0 + (o1 - o0) / 8 * 8;
  for (int64_t c = 0; c < fullC; c += 8) {
    const __m256 vs = _mm256_loadu_ps(scale + c);
    const __m256 vb = bias ? _mm256_loadu_ps(bias + c) : _mm256_setzero_ps();
    for (int64_t o = o0; o < fullO; o += 8) {
      __m256 r[8];
      for (int i = 0; i < 8; ++i)
        r[i] = dequantizeLanesAvx2(sumLanesAvx2(acc, m, in, vzx, o + i, c), vs, bias, vb, act.kind,
                                   alpha, beta);
      transpose8Avx2(r);
      for (int j = 0; j < 8; ++j) _mm256_storeu_ps(y + (c + j) * p + o, r[j]);
    }
    for (int64_t o = fullO; o < o1; ++o)
      for (int64_t j = c; j < c + 8; ++j)
        y[j * p + o] = dequantizeOne(acc, m, in, scale, bias, act, o, j);
  }
  for (int64_t c = fullC; c < m; ++c)
    for (int64_t o = o0; o < o1; ++o)
      y[c * p + o] = dequantizeOne(acc, m, in, scale, bias, act, o, c);
}
#endif

bool hasAvx512() {
  return cpu_isa::hasAvx512f();
}

// Sums [N, M, P] (NCHW) -> Y [N, M, P], one channel row at a time.
void writeFromPlain(const Sums& in, const ChannelTerms& t, const Activation& act, int64_t n,
                    int64_t m, int64_t p, float* y, int threads) {
  const bool hasBias = !t.bias.empty();
  parallelFor(n * m, threads, 1, [&](int64_t begin, int64_t end) {
    for (int64_t row = begin; row < end; ++row) {
      const auto c = static_cast<size_t>(row % m);
      const int32_t* s = in.s ? in.s + c * (in.perChannel ? 1 : p) : nullptr;
      dequantizeRow(in.acc + row * p, 1, s, in.perChannel ? 0 : 1, in.zx, t.scale[c],
                    hasBias ? &t.bias[c] : nullptr, act, y + row * p, 0, p);
    }
  });
}

// Sums [N, P, M] (channels-last) -> Y [N, M, P], a tile of 16 positions at a
// time so that the strided reads stay in L1.
void writeFromChannelsLast(const Sums& in, const ChannelTerms& t, const Activation& act, int64_t n,
                           int64_t m, int64_t p, float* y, int threads) {
  constexpr int64_t kTile = 16;
  const int64_t tiles = (p + kTile - 1) / kTile;
  const bool avx512 = hasAvx512(), avx2 = cpu_isa::hasAvx2Fma(), hasBias = !t.bias.empty();
  parallelFor(n * tiles, threads, 1, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      const int64_t b = i / tiles, o0 = (i % tiles) * kTile, o1 = std::min(o0 + kTile, p);
      const int32_t* acc = in.acc + b * p * m;
      float* yb = y + b * m * p;
#if defined(__x86_64__)
      if (avx512) {
        dequantizeTileAvx512(acc, m, in, p, t.scale.data(), hasBias ? t.bias.data() : nullptr, act,
                             yb, o0, o1);
        continue;
      }
      if (avx2 && inlineActivation(act.kind)) {
        dequantizeTileAvx2(acc, m, in, p, t.scale.data(), hasBias ? t.bias.data() : nullptr, act,
                           yb, o0, o1);
        continue;
      }
#endif
      for (int64_t c = 0; c < m; ++c) {
        const auto cs = static_cast<size_t>(c);
        dequantizeRow(acc + c, m, in.s ? in.s + c : nullptr, in.perChannel ? 0 : m, in.zx,
                      t.scale[cs], hasBias ? &t.bias[cs] : nullptr, act, yb + c * p, o0, o1);
      }
    }
  });
}

// What the epilogue's range needs to follow (bits of a template argument,
// so that a step costs only what it follows: the range is about as dear as
// the scan it replaces when every bit is on).
enum RangeTrack : int {
  kTrackNone = 0,
  kTrackMax = 1,  // the maximum (with the range at all)
  kTrackMin = 2,  // the minimum (not after a Relu: its values are >= 0 or NaN)
  kTrackNan = 4,  // NaNs (not where none can arise: noNanPossible)
};

#if defined(__x86_64__)
// The lanes of one position's channels [c0, c0 + 16) dequantized (as
// dequantizeTileAvx512 does), not stored.
struct ChannelLanes {
  __mmask16 kc;
  __m512i vzx, zxWhole;
  __m512 vs, vb;
};

__attribute__((target("avx512f"))) inline __m512 positionLanes(const int32_t* acc, const Sums& in,
                                                               const ChannelLanes& l, int64_t at,
                                                               int64_t o, bool hasBias,
                                                               ActKind kind, __m512 alpha,
                                                               __m512 beta) {
  __m512i a = _mm512_maskz_loadu_epi32(l.kc, acc + at);
  if (in.s)
    a = _mm512_sub_epi32(
        a, in.interior[o] ? l.zxWhole
                          : _mm512_mullo_epi32(l.vzx, _mm512_maskz_loadu_epi32(l.kc, in.s + at)));
  return dequantizeLanes(a, l.vs, hasBias, l.vb, kind, alpha, beta);
}

// The channel terms of channels [c0, c0 + 16).
__attribute__((target("avx512f"))) inline ChannelLanes channelLanes(int64_t m, const Sums& in,
                                                                    const float* scale,
                                                                    const float* bias, int64_t c0) {
  ChannelLanes l;
  l.kc = avx512::lanes(std::min<int64_t>(16, m - c0));
  l.vzx = _mm512_set1_epi32(in.zx);
  l.vs = _mm512_maskz_loadu_ps(l.kc, scale + c0);
  l.vb = bias ? _mm512_maskz_loadu_ps(l.kc, bias + c0) : _mm512_setzero_ps();
  l.zxWhole =
      in.s ? _mm512_mullo_epi32(l.vzx, _mm512_maskz_loadu_epi32(l.kc, in.whole + c0)) : l.vzx;
  return l;
}

// v's lanes in kc merged into the running minimum, maximum and NaN mask.
template <int kTrack>
__attribute__((target("avx512f"))) inline void rangeLanes(__m512& mn, __m512& mx, __mmask16& bad,
                                                          __mmask16 kc, __m512 v) {
  if constexpr ((kTrack & kTrackMin) != 0) mn = _mm512_mask_min_ps(mn, kc, mn, v);
  mx = _mm512_mask_max_ps(mx, kc, mx, v);
  if constexpr ((kTrack & kTrackNan) != 0) bad |= _mm512_mask_cmp_ps_mask(kc, v, v, _CMP_UNORD_Q);
}

// Positions [o0, o1) of channels-last sums into channels-last Y (AVX-512F):
// each position's channels as dequantizeTileAvx512 dequantizes them, stored
// in place, no transpose. kRange: the range of the values stored merged
// into *range (min and max lane by lane over the stored lanes, a NaN noted
// apart; two positions at a time into two accumulators, so that the
// min/max chains do not hold the loop back); kTrack: RangeTrack bits. y
// may be acc itself (quantize_output = 1): each lane is read before it is
// written.
template <int kTrack>
__attribute__((target("avx512f"))) void dequantizePositionsAvx512(
    const int32_t* acc, int64_t m, const Sums& in, const float* scale, const float* bias,
    const Activation& act, float* y, int64_t o0, int64_t o1, ValueRange* range) {
  const __m512 zero = _mm512_setzero_ps(), alpha = _mm512_set1_ps(act.alpha),
               beta = _mm512_set1_ps(act.beta);
  const bool hasBias = bias != nullptr;
  __m512 mn0 = zero, mx0 = zero, mn1 = zero, mx1 = zero;
  __mmask16 bad = 0;
  for (int64_t c0 = 0; c0 < m; c0 += 16) {
    const ChannelLanes l = channelLanes(m, in, scale, bias, c0);
    int64_t o = o0;
    if constexpr (kTrack != kTrackNone)
      for (; o + 2 <= o1; o += 2) {
        const int64_t at = o * m + c0;
        const __m512 v0 = positionLanes(acc, in, l, at, o, hasBias, act.kind, alpha, beta);
        const __m512 v1 = positionLanes(acc, in, l, at + m, o + 1, hasBias, act.kind, alpha, beta);
        _mm512_mask_storeu_ps(y + at, l.kc, v0);
        _mm512_mask_storeu_ps(y + at + m, l.kc, v1);
        rangeLanes<kTrack>(mn0, mx0, bad, l.kc, v0);
        rangeLanes<kTrack>(mn1, mx1, bad, l.kc, v1);
      }
    for (; o < o1; ++o) {
      const int64_t at = o * m + c0;
      const __m512 v = positionLanes(acc, in, l, at, o, hasBias, act.kind, alpha, beta);
      _mm512_mask_storeu_ps(y + at, l.kc, v);
      if constexpr (kTrack != kTrackNone) rangeLanes<kTrack>(mn0, mx0, bad, l.kc, v);
    }
  }
  if constexpr (kTrack != kTrackNone)
    *range = mergeRanges(*range, {_mm512_reduce_min_ps(_mm512_min_ps(mn0, mn1)),
                                  _mm512_reduce_max_ps(_mm512_max_ps(mx0, mx1)), bad != 0});
}
#endif

// True when no value of Y can be NaN: float(sum) is finite (|sum| < 2^31),
// so with Scale, B and a LeakyRelu's alpha finite and at most 2^64 in
// magnitude every product, sum and activation stays finite (a Relu or Clip
// makes no NaN of a number).
bool noNanPossible(const ChannelTerms& t, const Activation& act) {
  auto small = [](float v) { return std::isfinite(v) && std::fabs(v) <= 0x1p64f; };
  return std::all_of(t.scale.begin(), t.scale.end(), small) &&
         std::all_of(t.bias.begin(), t.bias.end(), small) &&
         (act.kind != ActKind::kLeakyRelu || small(act.alpha));
}

#if defined(__x86_64__)
// The positions of one run into Y with the range bits `track` (RangeTrack).
void dequantizePositions(int track, const int32_t* acc, int64_t m, const Sums& in,
                         const float* scale, const float* bias, const Activation& act, float* y,
                         int64_t o0, int64_t o1, ValueRange* range) {
  switch (track) {
    case kTrackMax:
      return dequantizePositionsAvx512<kTrackMax>(acc, m, in, scale, bias, act, y, o0, o1, range);
    case kTrackMax | kTrackMin:
      return dequantizePositionsAvx512<kTrackMax | kTrackMin>(acc, m, in, scale, bias, act, y, o0,
                                                              o1, range);
    case kTrackMax | kTrackNan:
      return dequantizePositionsAvx512<kTrackMax | kTrackNan>(acc, m, in, scale, bias, act, y, o0,
                                                              o1, range);
    case kTrackMax | kTrackMin | kTrackNan:
      return dequantizePositionsAvx512<kTrackMax | kTrackMin | kTrackNan>(acc, m, in, scale, bias,
                                                                          act, y, o0, o1, range);
    default:
      return dequantizePositionsAvx512<kTrackNone>(acc, m, in, scale, bias, act, y, o0, o1,
                                                   nullptr);
  }
}
#endif

// Sums [N, P, M] -> Y [N, P, M] (channels_last = 1), a run of positions at a
// time. With `range`, Y's range with 0: each run's taken while it is written
// (or scanned right after, still in L1, where the activation runs after
// it), the runs' merged at the end.
void writeChannelsLast(const Sums& in, const ChannelTerms& t, const Activation& act, int64_t n,
                       int64_t m, int64_t p, float* y, int threads, ValueRange* range) {
  constexpr int64_t kRun = 64;
  const int64_t runs = (p + kRun - 1) / kRun;
  const bool avx512 = hasAvx512(), avx2 = cpu_isa::hasAvx2Fma(), hasBias = !t.bias.empty();
  std::vector<ValueRange> parts(range ? static_cast<size_t>(n * runs) : 0);
  const int track = kTrackMax | (act.kind == ActKind::kRelu ? 0 : kTrackMin) |
                    (noNanPossible(t, act) ? 0 : kTrackNan);
  parallelFor(n * runs, threads, 1, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      const int64_t b = i / runs, o0 = (i % runs) * kRun, o1 = std::min(o0 + kRun, p);
      const int32_t* acc = in.acc + b * p * m;
      float* yb = y + b * p * m;
      ValueRange* part = range ? &parts[static_cast<size_t>(i)] : nullptr;
#if defined(__x86_64__)
      if (avx512) {
        const bool inlineAct = inlineActivation(act.kind);
        dequantizePositions(inlineAct && part ? track : kTrackNone, acc, m, in, t.scale.data(),
                            hasBias ? t.bias.data() : nullptr, act, yb, o0, o1, part);
        if (inlineAct) continue;
        epilogue(act, yb + o0 * m, nullptr, (o1 - o0) * m);
        if (part) *part = rangeWithZero(yb + o0 * m, (o1 - o0) * m);
        continue;
      }
      if (avx2 && inlineActivation(act.kind)) {
        dequantizePositionsAvx2(acc, m, in, t.scale.data(), hasBias ? t.bias.data() : nullptr, act,
                                yb, o0, o1);
        if (part) *part = rangeWithZero(yb + o0 * m, (o1 - o0) * m);
        continue;
      }
#endif
      for (int64_t o = o0; o < o1; ++o)
        for (int64_t c = 0; c < m; ++c) {
          const auto cs = static_cast<size_t>(c);
          const int64_t at = o * m + c;
          const int32_t v = acc[at] - (in.s ? in.zx * in.s[in.perChannel ? c : at] : 0);
          float r = static_cast<float>(v) * t.scale[cs];
          if (hasBias) r += t.bias[cs];
          yb[at] = activate(act, r);
        }
      if (!inlineActivation(act.kind)) epilogue(act, yb + o0 * m, nullptr, (o1 - o0) * m);
      if (part) *part = rangeWithZero(yb + o0 * m, (o1 - o0) * m);
    }
  });
  for (const ValueRange& r : parts) *range = mergeRanges(*range, r);
}

// [rows, cols] -> [cols, rows].
std::vector<int32_t> transposed(const std::vector<int32_t>& a, int64_t rows, int64_t cols) {
  std::vector<int32_t> t(a.size());
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      t[static_cast<size_t>(c * rows + r)] = a[static_cast<size_t>(r * cols + c)];
  return t;
}

// Plan::whole (each channel's weights summed: S where every tap is inside
// the image) and Plan::interior (the positions whose S row is that) from the
// int8 weights w and S [P, M].
void markInterior(Plan& p, const std::vector<int32_t>& tapSums, int64_t m) {
  const int64_t taps = m == 0 ? 0 : static_cast<int64_t>(tapSums.size()) / m;
  p.whole.assign(static_cast<size_t>(m), 0);
  for (int64_t c = 0; c < m; ++c)
    for (int64_t k = 0; k < taps; ++k)
      p.whole[static_cast<size_t>(c)] += tapSums[static_cast<size_t>(c * taps + k)];
  p.interior.assign(static_cast<size_t>(p.positions), 0);
  for (int64_t o = 0; o < p.positions; ++o)
    p.interior[static_cast<size_t>(o)] =
        std::equal(p.whole.begin(), p.whole.end(), p.sums.begin() + o * m) ? 1 : 0;
}

// S kept as one value per channel (Plan::sumsPerChannel) where every row
// of S is one value: no output position has a tap in the padding, as in any
// convolution without pads (resnet50's 1x1s). S is the size of the node's
// output otherwise. NCHW S [M, P] from its rows; channels-last S [P, M]
// where every position is interior (its row is `whole`), so that the
// AVX-512 paths, which read S only off the interior, never read it.
void compactSums(Plan& p, int64_t m) {
  const int64_t P = p.positions;
  if (P == 0 || m == 0) return;
  if (p.channelsLast) {
    if (!std::all_of(p.interior.begin(), p.interior.end(), [](uint8_t i) { return i != 0; }))
      return;
    p.sums = std::vector<int32_t>(p.whole);  // a new buffer: S's is freed
  } else if (!conv_integer::sumsToOnePerChannel(p.sums, m, P)) {
    return;
  }
  p.sumsPerChannel = true;
}

// The caller's context, noting the tensor allocated for output 0 (Y) so
// that Y's range can be taken after a path that does not take it itself.
class WatchY final : public KernelContext {
 public:
  explicit WatchY(KernelContext& inner) : inner_(inner) {}
  Tensor* y() const { return y_; }

  size_t inputCount() const override { return inner_.inputCount(); }
  const Value* value(size_t i) const override { return inner_.value(i); }
  bool invariantInput(size_t i) const override { return inner_.invariantInput(i); }
  void holdsOwnCopy(size_t i) override { inner_.holdsOwnCopy(i); }
  size_t outputCount() const override { return inner_.outputCount(); }
  bool wantsOutput(size_t i) const override { return inner_.wantsOutput(i); }
  Expected<Tensor*> allocate(size_t i, ir::DataType dtype, Dims dims) override {
    Expected<Tensor*> t = inner_.allocate(i, dtype, std::move(dims));
    if (i == 0 && t) y_ = *t;
    return t;
  }
  void setOutput(size_t i, Value v) override { inner_.setOutput(i, std::move(v)); }
  Expected<Tensor> scratch(ir::DataType dtype, Dims dims) override {
    return inner_.scratch(dtype, std::move(dims));
  }
  int threads() const override { return inner_.threads(); }
  bool cancelled() const override { return inner_.cancelled(); }
  int64_t maxLoopIterations() const override { return inner_.maxLoopIterations(); }

 private:
  KernelContext& inner_;
  Tensor* y_ = nullptr;
};

memory::format_tag channelsLastTag(size_t spatial) {
  using tag = memory::format_tag;
  return spatial == 1 ? tag::nwc : spatial == 2 ? tag::nhwc : tag::ndhwc;
}

class FusedConvInteger final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b, bool onednn) {
    PASSLAB_ASSIGN_OR_RETURN(ConvAttrs attrs, parseConvAttrs(b.node()));
    PASSLAB_ASSIGN_OR_RETURN(Activation act, parseActivation(b.node()));
    PASSLAB_ASSIGN_OR_RETURN(std::unique_ptr<Kernel> reference,
                             makeQLinearReference("ConvInteger", b));
    auto k = std::unique_ptr<FusedConvInteger>(
        new FusedConvInteger(attrs, act, std::move(reference), onednn));
    const bool quantize = b.node().attrInt(kQuantizeOutput, 0) != 0;
    if (b.node().attrInt(ir::passlab_ops::kChannelsLast, 0) == 0) {
      k->quantize_ = quantize;
      return std::unique_ptr<Kernel>(std::move(k));
    }
    // channels_last: this kernel's channels-first twin runs what the fast path does not take.
    auto last = std::unique_ptr<FusedConvInteger>(
        new FusedConvInteger(std::move(attrs), act, nullptr, onednn));
    k->writesRange_ = false;  // its caller writes the range
    last->channelsFirst_ = std::move(k);
    last->quantize_ = quantize;
    return std::unique_ptr<Kernel>(std::move(last));
  }

  // Y, then output 1 (Y's range with 0) where it is wanted: the one the
  // epilogue took, else a scan of Y. quantize_output = 1: Y quantized as
  // DynamicQuantizeLinear would (outputs Q, its scale and zero point).
  Status run(KernelContext& ctx) override {
    if (quantize_) return runQuantized(ctx);
    if (!writesRange_ || ctx.outputCount() < 2 || !ctx.wantsOutput(1))
      return computeY(ctx, nullptr);
    WatchY watch(ctx);
    ValueRange range;
    bool taken = false;
    PASSLAB_RETURN_IF_ERROR(computeY(watch, &range, &taken));
    if (!watch.y()) return internalError("FusedConvInteger gave no Y");
    if (!taken) range = rangeWithZero(watch.y()->data<float>(), watch.y()->numel());
    PASSLAB_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate(1, DataType::kFloat, {2}));
    storeRange(range, out->mutableData<float>());
    return Status::ok();
  }

 private:
  // Y; with `range`, *taken says whether *range holds Y's range (else the caller scans Y).
  Status computeY(KernelContext& ctx, ValueRange* range, bool* taken = nullptr) {
    if (channelsFirst_) return runChannelsLast(ctx, range, taken);
    const Tensor& x = ctx.input(kX);
    const Tensor& w = ctx.input(kW);
    std::optional<int32_t> zx = conv_integer::activationZeroPoint(ctx, kX, kXZeroPoint);
    auto geo = convGeometry(attrs_, x.dims(), w.dims());  // the reference reports bad geometry
    if (!onednn_ || !zx || !geo || !oneDnnTakes(ctx, *geo)) return runReference(ctx);
    const ConvGeometry& g = *geo;
    if (planIsStale(ctx, x, w)) plan_ = build(ctx, g, false);
    if (plan_->declined) return runReference(ctx);
    PASSLAB_ASSIGN_OR_RETURN(ChannelTerms terms, channelTerms(ctx, g.M));
    PASSLAB_ASSIGN_OR_RETURN(Tensor acc, ctx.scratch(DataType::kInt32, g.outDims));
    PASSLAB_RETURN_IF_ERROR(plan_->execute(ctx, x, plan_->weights, nullptr, acc, true));
    holdIfPacked(ctx);
    const std::vector<int32_t> zw = *conv_integer::weightZeroPoints(ctx, kW, kWZeroPoint, g.M);
    if (std::any_of(zw.begin(), zw.end(), [](int32_t z) { return z != 0; }))
      conv_integer::subtractWeightZeroPoint(
          acc.mutableData<int32_t>(), plan_->channelsLast, g, plan_->positions, zw,
          conv_integer::activationWindowSums(x, *zx, g), ctx.threads());
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, DataType::kFloat, g.outDims));
    const int64_t p = plan_->positions;
    const Sums in{acc.data<int32_t>(),
                  *zx != 0 ? plan_->sums.data() : nullptr,
                  *zx,
                  plan_->interior.data(),
                  plan_->whole.data(),
                  plan_->sumsPerChannel};
    (plan_->channelsLast ? writeFromChannelsLast : writeFromPlain)(
        in, terms, act_, g.N, g.M, p, y->mutableData<float>(), ctx.threads());
    return Status::ok();
  }

  // A channels_last run's int32 sums: oneDNN's, channels-last [N, P, M].
  struct LastSums {
    ConvGeometry g;
    ChannelTerms terms;
    Tensor acc;
    Dims outDims;  // Y's, [N, spatial..., M]
    int32_t zx = 0;
  };

  // The sums of a channels_last run on oneDNN; none (nothing run) where the
  // fast path does not take it (runChannelsFirst's case).
  Expected<std::optional<LastSums>> channelsLastSums(KernelContext& ctx) {
    const Tensor& x = ctx.input(kX);
    const Tensor& w = ctx.input(kW);
    if (x.rank() < 3)
      return invalidArgument("FusedConvInteger (channels_last): X " + x.describe() +
                             " has no spatial dims ([N, spatial..., C] expected)");
    std::optional<int32_t> zx = conv_integer::activationZeroPoint(ctx, kX, kXZeroPoint);
    auto geo = convGeometry(attrs_, channelsFirstDims(x.dims()), w.dims());
    if (!onednn_ || !zx || !geo || !oneDnnTakes(ctx, *geo) || weightZeroPointsUsed(ctx, *geo))
      return std::optional<LastSums>();
    if (planIsStale(ctx, x, w)) plan_ = build(ctx, *geo, true);
    if (plan_->declined) return std::optional<LastSums>();
    LastSums r{*geo, {}, {}, channelsLastDims(geo->outDims), *zx};
    PASSLAB_ASSIGN_OR_RETURN(r.terms, channelTerms(ctx, r.g.M));
    PASSLAB_ASSIGN_OR_RETURN(r.acc, ctx.scratch(DataType::kInt32, r.outDims));
    PASSLAB_RETURN_IF_ERROR(plan_->execute(ctx, x, plan_->weights, nullptr, r.acc, true));
    holdIfPacked(ctx);
    return std::optional<LastSums>(std::move(r));
  }

  Sums sumsOf(const LastSums& r) const {
    return {r.acc.data<int32_t>(),
            r.zx != 0 ? plan_->sums.data() : nullptr,
            r.zx,
            plan_->interior.data(),
            plan_->whole.data(),
            plan_->sumsPerChannel};
  }

  // channels_last = 1: X [N, spatial..., C] read by oneDNN as it is, its
  // channels-last sums dequantized in place, Y's range taken on the way
  // (range); the rest through channelsFirst_.
  Status runChannelsLast(KernelContext& ctx, ValueRange* range, bool* taken) {
    PASSLAB_ASSIGN_OR_RETURN(std::optional<LastSums> r, channelsLastSums(ctx));
    if (!r) return runChannelsFirst(*channelsFirst_, ctx);
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, DataType::kFloat, r->outDims));
    writeChannelsLast(sumsOf(*r), r->terms, act_, r->g.N, r->g.M, plan_->positions,
                      y->mutableData<float>(), ctx.threads(), range);
    if (taken) *taken = range != nullptr;
    return Status::ok();
  }

  // quantize_output = 1: Q, Q_scale, Q_zero_point = DynamicQuantizeLinear(Y)
  // with Y in no tensor of its own. Channels-last on oneDNN with an inline
  // activation (AVX-512): Y written over its int32 sums with its range, as
  // runChannelsLast writes it, then quantized from there (quantize.cpp's
  // loop). Anything else computes Y into scratch as run() would and
  // quantizes it.
  Status runQuantized(KernelContext& ctx) {
#if defined(__x86_64__)
    if (channelsFirst_ && hasAvx512() && inlineActivation(act_.kind)) {
      PASSLAB_ASSIGN_OR_RETURN(std::optional<LastSums> r, channelsLastSums(ctx));
      if (r) {
        const int64_t n = r->g.N, m = r->g.M, p = plan_->positions, count = n * p * m;
        float* y = reinterpret_cast<float*>(r->acc.mutableData<int32_t>());
        ValueRange range;
        writeChannelsLast(sumsOf(*r), r->terms, act_, n, m, p, y, ctx.threads(), &range);
        if (range.nan || fastQuantizationScale(dynamicQuantization(range).scale)) {
          DynamicQuantization dq;  // a NaN: the error "x holds NaN"
          PASSLAB_ASSIGN_OR_RETURN(Tensor * q, allocateDynamicOutputs(ctx, r->outDims, range, &dq));
          quantizeInRangeFast(y, q->mutableData<uint8_t>(), count, dq.scale, dq.zeroPoint,
                              ctx.threads());
          return Status::ok();
        }
        // A scale out of the fast loop's bounds: Y copied into a float tensor, the division.
        PASSLAB_ASSIGN_OR_RETURN(Tensor yf, ctx.scratch(DataType::kFloat, r->outDims));
        std::memcpy(yf.mutableData<float>(), y, static_cast<size_t>(count) * sizeof(float));
        return quantizeDynamic(ctx, yf, range);
      }
    }
#endif
    ScratchOutputContext inner(ctx);
    PASSLAB_RETURN_IF_ERROR(computeY(inner, nullptr));
    if (!inner.allocated()) return internalError("FusedConvInteger gave no Y");
    const Tensor& y = inner.output();
    return quantizeDynamic(ctx, y, rangeWithZero(y.data<float>(), y.numel()));
  }

  static bool weightZeroPointsUsed(const KernelContext& ctx, const ConvGeometry& g) {
    const std::vector<int32_t> zw = *conv_integer::weightZeroPoints(ctx, kW, kWZeroPoint, g.M);
    return std::any_of(zw.begin(), zw.end(), [](int32_t z) { return z != 0; });
  }

  FusedConvInteger(ConvAttrs attrs, Activation act, std::unique_ptr<Kernel> reference, bool onednn)
      : attrs_(std::move(attrs)), act_(act), reference_(std::move(reference)), onednn_(onednn) {}

  // The configurations the oneDNN ConvInteger kernel takes: 8-bit weights of
  // either type, their zero points taken out after it (conv_integer_zero_point.h);
  // without VNNI only uint8 X and weights W' in [-64, 64] (narrowWeights).
  bool oneDnnTakes(const KernelContext& ctx, const ConvGeometry& g) {
    static const bool exact = qlinear::exactInt8DotProducts();
    const Tensor& x = ctx.input(kX);
    const Tensor& w = ctx.input(kW);
    return qlinear::isInt8(x.dtype()) && qlinear::isInt8(w.dtype()) && ctx.invariantInput(kW) &&
           x.numel() > 0 && g.spatial() <= 3 &&
           conv_integer::weightZeroPoints(ctx, kW, kWZeroPoint, g.M).has_value() &&
           (exact || narrowWeights(ctx)) && sumsExact(ctx);
  }

  // Without VNNI: whether oneDNN's int8 sums are exact for this node anyway
  // (narrow_signed_weights.h: uint8 X, W' in [-64, 64]). W's values decide
  // it once: a later plan may run after W was freed (held packed).
  bool narrowWeights(const KernelContext& ctx) {
    return ctx.input(kX).dtype() == DataType::kUInt8 && weightChecks_.narrow(ctx.input(kW));
  }

  // Whether oneDNN's int32 sums of X and W' come out exact on this CPU
  // (qlinear::int8ConvSumsExact: below 2^24 unless AVX-512 VNNI). W's values
  // decide it once, as narrowWeights.
  bool sumsExact(const KernelContext& ctx) {
    return weightChecks_.sumsExact(ctx.input(kW));
  }

  // Once the primitive holds W packed, the plan lets go of W (or of its copy
  // W - 128) and the executor may free it.
  void holdIfPacked(KernelContext& ctx) {
    if (!plan_->holdsWeights()) return;
    plan_->weights = Tensor();
    ctx.holdsOwnCopy(kW);
  }

  // The reference ConvInteger into scratch, then the epilogue on its NCHW sums.
  // It reads W: an error instead once W was freed (held packed).
  Status runReference(KernelContext& ctx) {
    if (ctx.input(kW).dataFreed())
      return internalError("oneDNN declined the new shape and W was freed after packing");
    ScratchOutputContext inner(ctx);
    PASSLAB_RETURN_IF_ERROR(reference_->run(inner));
    if (!inner.allocated()) return internalError("the reference ConvInteger gave no output");
    const Tensor& acc = inner.output();
    const Dims& d = acc.dims();
    const int64_t n = d[0], m = d[1], p = n * m == 0 ? 0 : acc.numel() / (n * m);
    PASSLAB_ASSIGN_OR_RETURN(ChannelTerms terms, channelTerms(ctx, m));
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, DataType::kFloat, d));
    writeFromPlain({acc.data<int32_t>(), nullptr, 0}, terms, act_, n, m, p, y->mutableData<float>(),
                   ctx.threads());
    return Status::ok();
  }

  bool planIsStale(const KernelContext& ctx, const Tensor& x, const Tensor& w) const {
    return !plan_ || plan_->xDims != x.dims() || plan_->wDims != w.dims() ||
           plan_->threads != ctx.threads();
  }

  // The primitive (u8/s8 by s8 into s32), its int32 sums kept in the layout
  // oneDNN picked when that is channels-last (always with `userChannelsLast`:
  // X and the sums are the user's [N, spatial..., C]), and S. It takes the
  // weights the plan it replaces holds packed, and reads W only where it
  // holds none.
  std::unique_ptr<Plan> build(const KernelContext& ctx, const ConvGeometry& g,
                              bool userChannelsLast) {
    std::unique_ptr<Plan> old = std::move(plan_);
    auto p = std::make_unique<Plan>();
    const Tensor& w = ctx.input(kW);
    p->xDims = ctx.input(kX).dims();
    p->wDims = w.dims();
    p->threads = ctx.threads();
    p->declined = !onednn::buildInt8Conv(*p, g, qlinear::int8Type(ctx.input(kX).dtype()),
                                         memory::data_type::s32, false, {}, userChannelsLast);
    if (p->declined) return p;
    const memory::desc channelsLast(onednn::toDims(g.outDims), memory::data_type::s32,
                                    channelsLastTag(g.spatial()));
    if (userChannelsLast) {
      p->channelsLast = true;
    } else if (p->dstDesc == channelsLast) {
      p->userDst = channelsLast;
      p->adopt(p->prim, p->srcDesc, p->weiDesc, p->dstDesc);
      p->channelsLast = true;
    }
    if (!conv_integer::takeWeightsAndSums(*p, old.get(), w, g, tapSums_)) {
      p->declined = true;  // runReference reports it
      return p;
    }
    if (p->channelsLast) {
      p->sums = transposed(p->sums, g.M, p->positions);
      markInterior(*p, tapSums_.sums, g.M);
    }
    compactSums(*p, g.M);
    static const bool exact = qlinear::exactInt8DotProducts();
    if (!exact) qlinear::countNarrowWeightInt8Plan();
    return p;
  }

  ConvAttrs attrs_;
  Activation act_;
  std::unique_ptr<Kernel> reference_;
  bool onednn_ = true;
  std::unique_ptr<Plan> plan_;
  conv_integer::KeptTapSums tapSums_;                // for S of every plan
  qlinear::SignedWeightChecks weightChecks_;         // narrowWeights, sumsExact
  std::unique_ptr<FusedConvInteger> channelsFirst_;  // channels_last = 1 only
  bool writesRange_ = true;  // false for channelsFirst_: output 1 is its caller's
  bool quantize_ = false;    // quantize_output = 1 (not on channelsFirst_: its caller quantizes)
};

}  // namespace

Expected<std::unique_ptr<Kernel>> makeFusedConvInteger(const KernelBuild& b) {
  return FusedConvInteger::create(b, true);
}

Expected<std::unique_ptr<Kernel>> makeFusedConvIntegerRef(const KernelBuild& b) {
  return FusedConvInteger::create(b, false);
}

}  // namespace passlab::exec::cpu::fused
