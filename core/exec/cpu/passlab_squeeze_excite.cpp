// ai.passlab QLinearSqueezeExcite (core/ir/passlab_ops.h; fuse_qdq_squeeze_excite
// writes it): a squeeze-excitation block on an 8-bit tensor, no float tensor
// between the ops.
//   1. squeeze: H = Table[x] into a scratch row by row, summed per channel,
//      the mean clipped to clip0;
//   2. excite: two small matrix-vector products with their clips and the
//      HardSigmoid gate, one float scale S[c] per channel;
//   3. scale: Y = round(H * (S[c] / y_scale)) + y_zero_point, saturated
//      (QuantizeLinear of H * S with one multiplication instead of a product
//      and a division: within one step of it, at ties).
// Rows: NCHW one channel's plane (one scale), NHWC one position's C channels
// (the scale vector). With AVX-512 the table lives in 16 registers and 16
// lookups are 8 two-register permutes (vpermi2ps, the low 5 bits) and a tree
// of 7 blends on bits 5-7 (0.21 ns an element against 0.30 for scalar loads
// and 0.36-0.89 for vgatherdps, one loaded core); the scale-and-round is 16
// lanes too. NHWC rows of more than 16 channels with AVX-512 VBMI go 64
// channels at a time (bytePlanes below). Elsewhere scalar code of the same
// formulas. Every path computes the same float32 values in the same order
// (each channel's sum row after row), so all give the same bytes.
#include "core/exec/cpu/passlab_squeeze_excite.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#if defined(__x86_64__)
#include "core/support/x86_intrinsics.h"
#endif

#include "core/exec/cpu/avx512_lanes.h"
#include "core/exec/cpu/avx512_table16.h"
#include "core/exec/cpu/avx512_table64.h"
#include "core/exec/cpu/passlab_squeeze_excite_exact.h"
#include "core/exec/parallel.h"
#include "core/ir/passlab_ops.h"
#include "core/support/cpu_isa.h"

namespace passlab::exec::cpu::squeeze_excite {

namespace {

namespace ops = ir::passlab_ops;

struct Params {
  bool channelsLast = false;
  float lo0, hi0, lo1, hi1, lo2, hi2;  // clip0, clip1, clip2
  float alpha = 0.2f, beta = 0.5f;
};

// y = round(v) + z within [lo, hi]: v clamped to [lo - z, hi - z] first.
struct Rounding {
  float z, vlo, vhi;
};

template <class Q>
Rounding roundingOf(float z) {
  return {z, static_cast<float>(std::numeric_limits<Q>::min()) - z,
          static_cast<float>(std::numeric_limits<Q>::max()) - z};
}

// Scalar code: h[i] = table[x[i] ^ flip] (flip 0x80 makes an int8's byte its
// offset from -128); NCHW returns the row's sum, NHWC adds h to acc.
float lookupPlaneScalar(const uint8_t* x, int64_t n, uint8_t flip, const float* table, float* h) {
  float sum = 0;
  for (int64_t i = 0; i < n; ++i) sum += h[i] = table[static_cast<uint8_t>(x[i] ^ flip)];
  return sum;
}

void lookupRowScalar(const uint8_t* x, int64_t n, uint8_t flip, const float* table, float* h,
                     float* acc) {
  for (int64_t i = 0; i < n; ++i) acc[i] += h[i] = table[static_cast<uint8_t>(x[i] ^ flip)];
}

template <class Q>
void scaleRowScalar(const float* h, int64_t n, const float* k, float k0, const Rounding& r, Q* y) {
  for (int64_t i = 0; i < n; ++i) {
    const float v = std::min(std::max(h[i] * (k ? k[i] : k0), r.vlo), r.vhi);
    y[i] = static_cast<Q>(static_cast<int32_t>(std::nearbyint(v)) + static_cast<int32_t>(r.z));
  }
}

#if defined(__x86_64__)
using avx512::lanes;

#define PASSLAB_SE_TARGET __attribute__((target("avx512f,avx512bw,avx512vl")))

using avx512::BytePlanes;
using avx512::loadBytePlanes;
using avx512::loadTable16;
using avx512::lookup16;
using avx512::lookup64;
using avx512::Table16;

PASSLAB_SE_TARGET float lookupPlaneAvx512(const uint8_t* x, int64_t n, uint8_t flip,
                                          const float* table, float* h) {
  const Table16 T = loadTable16(table);
  __m512 sum = _mm512_setzero_ps();
  for (int64_t i = 0; i < n; i += 16) {
    const __mmask16 m = lanes(n - i);
    const __m512 v = lookup16(T, x + i, m, flip);
    _mm512_mask_storeu_ps(h + i, m, v);
    sum = _mm512_mask_add_ps(sum, m, sum, v);
  }
  return _mm512_reduce_add_ps(sum);
}

// NHWC: 16 channels at a time down all the rows, their sums in a register.
PASSLAB_SE_TARGET void lookupRowsAvx512(const uint8_t* x, int64_t rows, int64_t n, uint8_t flip,
                                        const float* table, float* h, float* acc) {
  const Table16 T = loadTable16(table);
  for (int64_t c = 0; c < n; c += 16) {
    const __mmask16 m = lanes(n - c);
    __m512 sum = _mm512_maskz_loadu_ps(m, acc + c);
    for (int64_t r = 0; r < rows; ++r) {
      const __m512 v = lookup16(T, x + r * n + c, m, flip);
      _mm512_mask_storeu_ps(h + r * n + c, m, v);
      sum = _mm512_add_ps(sum, v);
    }
    _mm512_mask_storeu_ps(acc + c, m, sum);
  }
}

template <class Q>
PASSLAB_SE_TARGET void scaleRowAvx512(const float* h, int64_t n, const float* k, float k0,
                                      const Rounding& r, Q* y) {
  const __m512 lo = _mm512_set1_ps(r.vlo), hi = _mm512_set1_ps(r.vhi), vk0 = _mm512_set1_ps(k0);
  const __m512i z = _mm512_set1_epi32(static_cast<int32_t>(r.z));
  for (int64_t i = 0; i < n; i += 16) {
    const __mmask16 m = lanes(n - i);
    const __m512 s = k ? _mm512_maskz_loadu_ps(m, k + i) : vk0;
    const __m512 v =
        _mm512_min_ps(_mm512_max_ps(_mm512_mul_ps(_mm512_maskz_loadu_ps(m, h + i), s), lo), hi);
    const __m512i q = _mm512_add_epi32(_mm512_cvtps_epi32(v), z);  // nearest even; in range
    _mm512_mask_cvtepi32_storeu_epi8(y + i, m, q);
  }
}

// NHWC rows [first, last) of n channels, one call for all of them.
template <class Q>
PASSLAB_SE_TARGET void scaleRowsAvx512(const float* h, int64_t first, int64_t last, int64_t n,
                                       const float* k, const Rounding& r, Q* y) {
  for (int64_t i = first; i < last; ++i) scaleRowAvx512<Q>(h + i * n, n, k, 0.0f, r, y + i * n);
}

// NHWC rows of more than 16 channels, 64 at a time (AVX-512 VBMI; the
// table as its four byte planes, avx512_table64.h), the 64 floats in the
// unpacks' order: vector k, lane 4L + j holds channel 16L + 4k + j. The H
// rows (scratch, padded to a multiple of 64 channels) and the per-channel
// sums are kept in that order; the scale pass multiplies by the scales in
// that order, and packing its four int32 vectors to bytes (packs work per
// 128-bit lane) restores the channel order. 64 lookups cost 12 permutes and
// blends and 8 unpacks here, against 60 permutes and blends at 16 channels.
#define PASSLAB_SE_VBMI_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi")))

bool haveVbmi() {
  return cpu_isa::hasAvx512Vbmi() && cpu_isa::hasAvx512BwVl();
}

constexpr int64_t kPlaneGroup = 64;

__mmask64 lanes64(int64_t left) {
  return left >= 64 ? ~__mmask64{0} : (__mmask64{1} << left) - 1;
}

// Channel c0 + e of a 64-channel group sits at offset unpackedOffset(e).
int64_t unpackedOffset(int64_t e) {
  const int64_t l = e / 16, k = (e % 16) / 4, j = e % 4;
  return 16 * k + 4 * l + j;
}

// h (rows of stride hs, unpacked order) = Table[x]; acc[c] += the column
// sums, each summed row after row from 0.
PASSLAB_SE_VBMI_TARGET void lookupRowsPlanes(const uint8_t* x, int64_t rows, int64_t n,
                                             uint8_t flip, const float* table, float* h, int64_t hs,
                                             float* acc) {
  const BytePlanes T = loadBytePlanes(table);
  const __m512i vflip = _mm512_set1_epi8(static_cast<char>(flip));
  alignas(64) float sums[kPlaneGroup];
  for (int64_t c = 0; c < n; c += kPlaneGroup) {
    const __mmask64 m = lanes64(n - c);
    __m512 sum[4] = {_mm512_setzero_ps(), _mm512_setzero_ps(), _mm512_setzero_ps(),
                     _mm512_setzero_ps()};
    for (int64_t r = 0; r < rows; ++r) {
      const __m512i idx = _mm512_xor_si512(_mm512_maskz_loadu_epi8(m, x + r * n + c), vflip);
      __m512 f[4];
      lookup64(T, idx, f);
      float* hr = h + r * hs + c;
#pragma GCC unroll 4
      for (int k = 0; k < 4; ++k) {
        _mm512_storeu_ps(hr + 16 * k, f[k]);
        sum[k] = _mm512_add_ps(sum[k], f[k]);
      }
    }
    for (int k = 0; k < 4; ++k) _mm512_store_ps(sums + 16 * k, sum[k]);
    for (int64_t e = 0; e < kPlaneGroup && c + e < n; ++e) acc[c + e] += sums[unpackedOffset(e)];
  }
}

// Rows [first, last) of y = round(h * k) + zero point, h and k in the
// unpacked order (k padded with zeros), y in channel order.
template <class Q>
PASSLAB_SE_VBMI_TARGET void scaleRowsPlanes(const float* h, int64_t first, int64_t last, int64_t n,
                                            int64_t hs, const float* k, const Rounding& r, Q* y) {
  const __m512 lo = _mm512_set1_ps(r.vlo), hi = _mm512_set1_ps(r.vhi);
  const __m512i z = _mm512_set1_epi32(static_cast<int32_t>(r.z));
  for (int64_t i = first; i < last; ++i)
    for (int64_t c = 0; c < n; c += kPlaneGroup) {
      __m512i q[4];
#pragma GCC unroll 4
      for (int g = 0; g < 4; ++g) {
        const __m512 v = _mm512_mul_ps(_mm512_loadu_ps(h + i * hs + c + 16 * g),
                                       _mm512_loadu_ps(k + c + 16 * g));
        // nearest even; in range
        q[g] = _mm512_add_epi32(_mm512_cvtps_epi32(_mm512_min_ps(_mm512_max_ps(v, lo), hi)), z);
      }
      const __m512i w01 = _mm512_packs_epi32(q[0], q[1]), w23 = _mm512_packs_epi32(q[2], q[3]);
      const __m512i bytes =
          std::is_same_v<Q, uint8_t> ? _mm512_packus_epi16(w01, w23) : _mm512_packs_epi16(w01, w23);
      _mm512_mask_storeu_epi8(y + i * n + c, lanes64(n - c), bytes);
    }
}
#else
bool haveVbmi() {
  return false;
}
#endif

// NCHW: fills h with Table[x] for one plane; returns its sum.
float lookupPlane(const uint8_t* x, int64_t n, uint8_t flip, const float* table, float* h) {
#if defined(__x86_64__)
  if (cpu_isa::hasAvx512BwVl()) return lookupPlaneAvx512(x, n, flip, table, h);
#endif
  return lookupPlaneScalar(x, n, flip, table, h);
}

// How NHWC keeps H: rows of n channels in channel order, or (planes) of
// `stride` floats in the unpacked order of lookupRowsPlanes.
struct RowsLayout {
  bool planes = false;
  int64_t stride = 0;
};

RowsLayout rowsLayout(int64_t n) {
#if defined(__x86_64__)
  if (n > 16 && haveVbmi()) return {true, avx512::roundUp(n, kPlaneGroup)};
#endif
  return {false, n};
}

// NHWC: `rows` positions of n channels; h = Table[x], acc[c] += h per position.
void lookupRows(const uint8_t* x, int64_t rows, int64_t n, uint8_t flip, const float* table,
                const RowsLayout& l, float* h, float* acc) {
#if defined(__x86_64__)
  if (l.planes) return lookupRowsPlanes(x, rows, n, flip, table, h, l.stride, acc);
  if (cpu_isa::hasAvx512BwVl()) return lookupRowsAvx512(x, rows, n, flip, table, h, acc);
#endif
  for (int64_t r = 0; r < rows; ++r) lookupRowScalar(x + r * n, n, flip, table, h + r * n, acc);
}

// The per-channel scales k as scaleRowsLast reads them.
std::vector<float> scalesFor(const RowsLayout& l, const std::vector<float>& k) {
  if (!l.planes) return k;
  std::vector<float> out(static_cast<size_t>(l.stride), 0.0f);
#if defined(__x86_64__)
  const auto n = static_cast<int64_t>(k.size());
  for (int64_t c = 0; c < n; ++c)
    out[static_cast<size_t>(c / kPlaneGroup * kPlaneGroup + unpackedOffset(c % kPlaneGroup))] =
        k[static_cast<size_t>(c)];
#endif
  return out;
}

template <class Q>
void scaleRow(const float* h, int64_t n, const float* k, float k0, const Rounding& r, Q* y) {
#if defined(__x86_64__)
  if (cpu_isa::hasAvx512BwVl()) return scaleRowAvx512<Q>(h, n, k, k0, r, y);
#endif
  scaleRowScalar<Q>(h, n, k, k0, r, y);
}

// NHWC rows [first, last) of n channels: y = round(h * k[c]) + zero point,
// h and k as lookupRows and scalesFor keep them.
template <class Q>
void scaleRowsLast(const float* h, int64_t first, int64_t last, int64_t n, const RowsLayout& l,
                   const float* k, const Rounding& r, Q* y) {
#if defined(__x86_64__)
  if (l.planes) return scaleRowsPlanes<Q>(h, first, last, n, l.stride, k, r, y);
  if (cpu_isa::hasAvx512BwVl()) return scaleRowsAvx512<Q>(h, first, last, n, k, r, y);
#endif
  for (int64_t i = first; i < last; ++i) scaleRowScalar<Q>(h + i * n, n, k, 0.0f, r, y + i * n);
}

float clip(float v, float lo, float hi) {
  return std::min(std::max(v, lo), hi);
}

// The sum of a[i] * b[i] in 8 independent partial sums: the compiler
// vectorizes it without reassociating (a single running sum is one add
// latency per element: 13 us for ppocr's 200 x 50 gate).
float dot(const float* a, const float* b, int64_t n) {
  float p[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    for (int j = 0; j < 8; ++j) p[j] += a[i + j] * b[i + j];
  float s = 0;
  for (; i < n; ++i) s += a[i] * b[i];
  return s + (((p[0] + p[1]) + (p[2] + p[3])) + ((p[4] + p[5]) + (p[6] + p[7])));
}

// s = HardSigmoid(clip2(W2 clip1(W1 g + b1) + b2)).
void excite(const std::vector<float>& g, const float* w1, const float* b1, const float* w2,
            const float* b2, int64_t c1, const Params& p, std::vector<float>& t,
            std::vector<float>& s) {
  const auto c = static_cast<int64_t>(g.size());
  for (int64_t m = 0; m < c1; ++m) t[m] = clip(b1[m] + dot(w1 + m * c, g.data(), c), p.lo1, p.hi1);
  for (int64_t k = 0; k < c; ++k) {
    const float u = clip(b2[k] + dot(w2 + k * c1, t.data(), c1), p.lo2, p.hi2);
    s[k] = clip(p.alpha * u + p.beta, 0.0f, 1.0f);
  }
}

bool is8Bit(ir::DataType t) {
  return t == ir::DataType::kUInt8 || t == ir::DataType::kInt8;
}

bool isFloat(const Tensor& t, std::vector<int64_t> dims) {
  return t.dtype() == ir::DataType::kFloat && t.dims() == dims;
}

class QLinearSqueezeExcite final : public Kernel {
 public:
  explicit QLinearSqueezeExcite(Params p) : p_(p) {}

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    if (!is8Bit(x.dtype()) || x.dims().size() != 4)
      return invalidArgument("QLinearSqueezeExcite: X " + x.describe() +
                             " is not a 4-D uint8 or int8 tensor");
    const auto& d = x.dims();
    const int64_t c = p_.channelsLast ? d[3] : d[1];
    const int64_t c1 = ctx.input(2).dims().empty() ? 0 : ctx.input(2).dims()[0];
    if (!isFloat(ctx.input(1), {static_cast<int64_t>(ops::kLookupEntries)}))
      return invalidArgument("QLinearSqueezeExcite: Table " + ctx.input(1).describe() +
                             " is not 256 float32 values");
    if (!isFloat(ctx.input(2), {c1, c}) || !isFloat(ctx.input(3), {c1}) ||
        !isFloat(ctx.input(4), {c, c1}) || !isFloat(ctx.input(5), {c}))
      return invalidArgument("QLinearSqueezeExcite: W1, B1, W2, B2 (" + ctx.input(2).describe() +
                             ", " + ctx.input(3).describe() + ", " + ctx.input(4).describe() +
                             ", " + ctx.input(5).describe() + ") are not float32 [C1, C], [C1], " +
                             "[C, C1], [C] for " + std::to_string(c) + " channels");
    const Tensor& ys = ctx.input(6);
    const Tensor& yz = ctx.input(7);
    if (ys.dtype() != ir::DataType::kFloat || ys.numel() != 1 || !is8Bit(yz.dtype()) ||
        yz.numel() != 1)
      return invalidArgument("QLinearSqueezeExcite: y_scale " + ys.describe() +
                             " and y_zero_point " + yz.describe() +
                             " are not one float32 and one uint8 / int8 value");
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, yz.dtype(), x.dims()));
    if (yz.dtype() == ir::DataType::kUInt8)
      compute<uint8_t>(ctx, x, c, c1, *y);
    else
      compute<int8_t>(ctx, x, c, c1, *y);
    return Status::ok();
  }

 private:
  template <class Q>
  void compute(KernelContext& ctx, const Tensor& x, int64_t c, int64_t c1, Tensor& y) const {
    const auto& d = x.dims();
    const int64_t n = d[0], hw = d[2] * (p_.channelsLast ? d[1] : d[3]);
    const auto* X = static_cast<const uint8_t*>(x.raw());
    Q* Y = y.mutableData<Q>();
    const float* table = ctx.input(1).data<float>();
    const uint8_t flip = x.dtype() == ir::DataType::kInt8 ? 0x80 : 0;
    const float ys = *ctx.input(6).data<float>();
    const Rounding r = roundingOf<Q>(static_cast<float>(*ctx.input(7).data<Q>()));
    const RowsLayout layout = p_.channelsLast ? rowsLayout(c) : RowsLayout{false, hw};
    // H of one batch item; kept by the thread between runs (no allocation per call).
    thread_local std::vector<float> h;
    const auto hSize = static_cast<size_t>(p_.channelsLast ? layout.stride * hw : c * hw);
    if (h.size() < hSize) h.resize(hSize);
    std::vector<float> g(c), t(c1), s(c);
    for (int64_t b = 0; b < n; ++b) {
      squeeze(X + b * c * hw, flip, table, c, hw, layout, h.data(), g);
      excite(g, ctx.input(2).data<float>(), ctx.input(3).data<float>(), ctx.input(4).data<float>(),
             ctx.input(5).data<float>(), c1, p_, t, s);
      for (float& v : s) v /= ys;  // Y = round(H * S / y_scale) + y_zero_point
      scale(ctx, h.data(), c, hw, layout, s, r, Y + b * c * hw);
    }
  }

  // h = Table[x]; g[c] = the mean of h over channel c's positions.
  void squeeze(const uint8_t* x, uint8_t flip, const float* table, int64_t c, int64_t hw,
               const RowsLayout& layout, float* h, std::vector<float>& g) const {
    if (p_.channelsLast) {
      std::fill(g.begin(), g.end(), 0.0f);
      lookupRows(x, hw, c, flip, table, layout, h, g.data());
    } else {
      for (int64_t k = 0; k < c; ++k) g[k] = lookupPlane(x + k * hw, hw, flip, table, h + k * hw);
    }
    for (float& v : g) v = clip(v / static_cast<float>(hw), p_.lo0, p_.hi0);
  }

  // y = round(h * k[c]) + zero point, rows in parallel.
  template <class Q>
  void scale(KernelContext& ctx, const float* h, int64_t c, int64_t hw, const RowsLayout& layout,
             const std::vector<float>& k, const Rounding& r, Q* y) const {
    const int64_t rows = p_.channelsLast ? hw : c, len = p_.channelsLast ? c : hw;
    const int64_t grain = std::max<int64_t>(1, kElementwiseGrain / (len + 1));
    if (p_.channelsLast) {
      const std::vector<float> kl = scalesFor(layout, k);
      parallelFor(rows, ctx.threads(), grain, [&](int64_t r0, int64_t r1) {
        scaleRowsLast<Q>(h, r0, r1, len, layout, kl.data(), r, y);
      });
      return;
    }
    parallelFor(rows, ctx.threads(), grain, [&](int64_t r0, int64_t r1) {
      for (int64_t i = r0; i < r1; ++i)
        scaleRow<Q>(h + i * len, len, nullptr, k[i], r, y + i * len);
    });
  }

  Params p_;
};

// A [lo, hi] attribute; none: no clip.
bool clipAttr(const ir::Node& n, const char* name, float& lo, float& hi) {
  const std::vector<float> v = n.attrFloats(name);
  lo = -std::numeric_limits<float>::infinity(), hi = std::numeric_limits<float>::infinity();
  if (v.empty()) return true;
  if (v.size() != 2 || !(v[0] <= v[1])) return false;
  lo = v[0], hi = v[1];
  return true;
}

}  // namespace

Expected<std::unique_ptr<Kernel>> makeQLinearSqueezeExcite(const KernelBuild& b) {
  const ir::Node& n = b.node();
  if (n.attrInt(ops::kExact, 0) != 0) return makeQLinearSqueezeExciteExact(b);
  Params p;
  p.channelsLast = n.attrInt(ops::kChannelsLast, 0) != 0;
  p.alpha = n.attrFloat("alpha", 0.2f);
  p.beta = n.attrFloat("beta", 0.5f);
  if (!clipAttr(n, ops::kClip0, p.lo0, p.hi0) || !clipAttr(n, ops::kClip1, p.lo1, p.hi1) ||
      !clipAttr(n, ops::kClip2, p.lo2, p.hi2))
    return invalidArgument(
        "QLinearSqueezeExcite: clip0, clip1 and clip2 must be [lo, hi] with lo <= hi");
  return std::unique_ptr<Kernel>(new QLinearSqueezeExcite(p));
}

}  // namespace passlab::exec::cpu::squeeze_excite
