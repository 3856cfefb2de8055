// ai.passlab QLinearSqueezeExcite, exact = 1: the channels-last block
//   h = Table[x]                          (DequantizeLinear and f, the pass's table)
//   g = ReduceMean(h, axes 1, 2)          -> gq = QuantizeLinear(g)
//   t = QLinearConv(gq, W1, B1), u = QLinearConv(t, W2, B2)   (1x1 on one pixel)
//   s = HardSigmoid(DequantizeLinear(u))
//   y = QuantizeLinear(h * s[c])
// each step with the arithmetic of the kernel the QDQ form runs on, so Y is
// that form's bytes on every instruction set:
//   * the mean as reduce.cpp's channels-last ReduceMean: each channel summed in
//     double, position after position (addRowsF32: exact widening, the same
//     additions in the same order on every path), divided in double by the
//     positions and rounded to float32 (MeanOp); with AVX2 8 channels at a
//     time (squeeze_excite_exact_avx2.cpp); with AVX-512 VBMI the
//     lookups take 64 bytes at a time (avx512_table64.h: blocks of 64
//     channels, or 64 / c positions of 8, 16 or 32 channels), each channel's
//     additions still position after position;
//   * QuantizeLinear as quantize.cpp's quantizeRows: x / scale (IEEE division),
//     clamped, rounded by 1.5 * 2^23, the zero point added and clamped, NaN 0;
//     its AVX-512 and SSE2 loops do these operations lane by lane;
//   * the 1x1 convolutions as the reference QLinearConv (qlinear.cpp), which
//     the executor's pointwise kernel (qlinear_pointwise_nhwc.h, the one for
//     so few pixels with weight zero points 0) and its float-sum path match
//     bit for bit: int32 sums, the multiplier x_scale * w_scale / y_scale in
//     float32, the product in double rounded half to even
//     (squeeze_excite_exact_gate.cpp: integer sums, AVX-512 VNNI where there);
//   * DequantizeLinear (x - z) * s and HardSigmoid alpha * v + beta clamped
//     in float32 (activations.cpp), and the Mul one float32 product; the last
//     QuantizeLinear of h * s[c] with AVX-512 without a division where that
//     provably gives the same bytes (squeeze_excite_exact_scale.cpp).
#include "core/exec/cpu/passlab_squeeze_excite_exact.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#if defined(__x86_64__)
#include "core/support/x86_intrinsics.h"
#endif

#include "core/exec/cpu/avx512_lanes.h"
#include "core/exec/cpu/avx512_table16.h"
#include "core/exec/cpu/avx512_table64.h"
#include "core/exec/cpu/squeeze_excite_exact_avx2.h"
#include "core/exec/cpu/squeeze_excite_exact_gate.h"
#include "core/exec/cpu/squeeze_excite_exact_scale.h"
#include "core/exec/parallel.h"
#include "core/ir/passlab_ops.h"
#include "core/support/cpu_isa.h"

namespace passlab::exec::cpu::squeeze_excite {

namespace {

namespace ops = ir::passlab_ops;

// The inputs of the exact form (passlab_ops.h).
enum Input : size_t {
  kX = 0,
  kTable = 1,
  kW1 = 2,
  kB1 = 3,
  kW2 = 4,
  kB2 = 5,
  kYScale = 6,
  kYZero = 7,
  kGScale = 8,
  kGZero = 9,
  kW1Scale = 10,
  kTScale = 11,
  kTZero = 12,
  kW2Scale = 13,
  kUScale = 14,
  kUZero = 15,
};

// The most channels and squeezed channels: the convolutions' int32 sums stay
// below 2^24 (255 * 128 * 511), as the pass's checks assume.
constexpr int64_t kMostInputs = 511;

// Where every double sum of `rows` table values is exact, the order of the
// additions is free, and float32 sums of a chunk of rows are exact once
// each value is split into a coarse part hi (a multiple of 2^F: (v + C) - C,
// C = 1.5 * 2^(F + 23), for |v| < 2^(F + 22)) and the rest lo = v - hi (a
// multiple of 2^E, the table's lowest bit, below 2^(F - 1)): over `chunk`
// rows the hi sums stay multiples of 2^F within 2^(F + 24) and the lo sums
// multiples of 2^E within 2^(E + 24). The chunks' sums then go into the
// double sums, which stay exact (below 2^(53 + E)), so every channel's sum is
// its exact sum, the reference's.
struct FloatSplit {
  bool on = false;
  float magic = 0;  // C
  int64_t chunk = 0;
};

// The table's largest |entry| and lowest bit (2^lowestBit divides every
// entry); finite false where an entry is not finite.
struct TableRange {
  bool finite = false;
  double largest = 0;
  int lowestBit = 0;
};

TableRange tableRange(const float* table) {
  TableRange r;
  r.lowestBit = 1000;
  for (int i = 0; i < 256; ++i) {
    uint32_t b;
    __builtin_memcpy(&b, table + i, 4);
    const int exponent = static_cast<int>((b >> 23) & 0xff);
    const uint32_t mantissa = b & 0x7fffff;
    if (exponent == 0xff) return TableRange{};
    if (exponent == 0 && mantissa == 0) continue;
    const int unit = (exponent == 0 ? -149 : exponent - 150);  // the last bit's weight
    const int low = unit + (mantissa == 0 ? 23 : __builtin_ctz(mantissa));
    r.lowestBit = std::min(r.lowestBit, exponent == 0 ? low : std::min(low, exponent - 127));
    r.largest = std::max(r.largest, std::abs(static_cast<double>(table[i])));
  }
  r.finite = true;
  return r;
}

FloatSplit floatSplit(const TableRange& t, int64_t rows) {
  if (!t.finite || t.largest == 0) return {};
  const int e = t.lowestBit;
  int top = 0;
  std::frexp(t.largest, &top);  // largest < 2^top
  const int f = std::max({(e + 1 + top) / 2, e, top - 22});
  if (f - e > 23 || f + 24 > 127 || f + 23 < -126) return {};
  const double hiMost = t.largest + std::ldexp(1.0, f - 1);
  if (!(static_cast<double>(rows) * (t.largest + std::ldexp(1.0, f)) < std::ldexp(1.0, 53 + e)))
    return {};
  const double chunk = std::min(std::ldexp(1.0, f + 24) / hiMost, std::ldexp(1.0, e + 25 - f));
  if (!(chunk >= 4)) return {};
  return {true, static_cast<float>(std::ldexp(1.5, f + 23)), static_cast<int64_t>(chunk)};
}

// Channels-last rows: h = Table[x ^ flip], acc[c] += h in double, row after row.
void squeezeRows(const uint8_t* x, int64_t rows, int64_t c, uint8_t flip, const float* table,
                 float* h, double* acc) {
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t k = 0; k < c; ++k) {
      const float v = table[static_cast<uint8_t>(x[r * c + k] ^ flip)];
      h[r * c + k] = v;
      acc[k] += static_cast<double>(v);
    }
}

#if defined(__x86_64__)
#define PASSLAB_SEX_TARGET __attribute__((target("avx512f,avx512bw,avx512vl")))

using avx512::BytePlanes;
using avx512::loadBytePlanes;
using avx512::loadTable16;
using avx512::lookup16;
using avx512::lookup64InOrder;
using avx512::Table16;

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // _mm512_undefined_* in converts, permutes

// squeezeRows 16 channels at a time from channel `first` on, down all the
// rows, their double sums in two registers: each channel's additions in the
// same order, so the same sums.
PASSLAB_SEX_TARGET void squeezeRowsAvx512(const uint8_t* x, int64_t rows, int64_t c, int64_t first,
                                          uint8_t flip, const float* table, float* h, double* acc) {
  const Table16 T = loadTable16(table);
  for (int64_t k = first; k < c; k += 16) {
    const __mmask16 m = avx512::lanes(c - k);
    const auto mlo = static_cast<__mmask8>(m), mhi = static_cast<__mmask8>(m >> 8);
    __m512d lo = _mm512_maskz_loadu_pd(mlo, acc + k), hi = _mm512_maskz_loadu_pd(mhi, acc + k + 8);
    for (int64_t r = 0; r < rows; ++r) {
      const __m512 v = lookup16(T, x + r * c + k, m, flip);
      _mm512_mask_storeu_ps(h + r * c + k, m, v);
      lo = _mm512_add_pd(lo, _mm512_cvtps_pd(_mm512_castps512_ps256(v)));
      hi = _mm512_add_pd(
          hi, _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1))));
    }
    _mm512_mask_storeu_pd(acc + k, mlo, lo);
    _mm512_mask_storeu_pd(acc + k + 8, mhi, hi);
  }
}

#define PASSLAB_SEX_VBMI_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi")))

bool haveVbmi() {
  return cpu_isa::hasAvx512Vbmi() && cpu_isa::hasAvx512BwVl();
}

// The mask of the first `left` of 8 lanes (none where left <= 0).
__mmask8 lanes8(int64_t left) {
  return left >= 8
             ? static_cast<__mmask8>(0xff)
             : (left <= 0 ? static_cast<__mmask8>(0) : static_cast<__mmask8>((1u << left) - 1));
}

// One block of squeezeRowsVbmi: the n channels from k on (8 (J - 1) < n <=
// 8 J), down all the rows; only the J 8-lane groups that hold channels are
// stored and summed.
template <int J>
PASSLAB_SEX_VBMI_TARGET inline __attribute__((always_inline)) void squeezeBlockVbmi(
    const uint8_t* x, int64_t rows, int64_t c, int64_t k, int64_t n, const BytePlanes& T,
    __m512i vflip, const FloatSplit& sp, float* h, double* acc) {
  constexpr int kVectors = (J + 1) / 2;
  const __mmask64 m = n >= 64 ? ~__mmask64{0} : (__mmask64{1} << n) - 1;
  __mmask16 m16[kVectors];
  __mmask8 m8[J];
  __m512d a[J];
  for (int q = 0; q < kVectors; ++q) m16[q] = avx512::lanes(std::max<int64_t>(0, n - 16 * q));
  for (int j = 0; j < J; ++j) {
    m8[j] = lanes8(n - 8 * j);
    a[j] = _mm512_maskz_loadu_pd(m8[j], acc + k + 8 * j);
  }
  if (sp.on) {
    const __m512 C = _mm512_set1_ps(sp.magic);
    for (int64_t r0 = 0; r0 < rows; r0 += sp.chunk) {
      const int64_t r1 = std::min(rows, r0 + sp.chunk);
      __m512 hiSum[kVectors], loSum[kVectors];
      for (int q = 0; q < kVectors; ++q) hiSum[q] = loSum[q] = _mm512_setzero_ps();
      for (int64_t r = r0; r < r1; ++r) {
        const __m512i idx = _mm512_xor_si512(_mm512_maskz_loadu_epi8(m, x + r * c + k), vflip);
        __m512 f[4];
        lookup64InOrder(T, idx, f);
        float* hr = h + r * c + k;
#pragma GCC unroll 4
        for (int q = 0; q < kVectors; ++q) {
          _mm512_mask_storeu_ps(hr + 16 * q, m16[q], f[q]);
          const __m512 hi = _mm512_sub_ps(_mm512_add_ps(f[q], C), C);
          hiSum[q] = _mm512_add_ps(hiSum[q], hi);
          loSum[q] = _mm512_add_ps(loSum[q], _mm512_sub_ps(f[q], hi));
        }
      }
#pragma GCC unroll 8
      for (int j = 0; j < J; ++j) {
        const __m512 parts[2] = {hiSum[j / 2], loSum[j / 2]};
        for (const __m512& v : parts) {
          const __m256 half =
              j % 2 == 0 ? _mm512_castps512_ps256(v)
                         : _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1));
          a[j] = _mm512_add_pd(a[j], _mm512_cvtps_pd(half));
        }
      }
    }
    for (int j = 0; j < J; ++j) _mm512_mask_storeu_pd(acc + k + 8 * j, m8[j], a[j]);
    return;
  }
  for (int64_t r = 0; r < rows; ++r) {
    const __m512i idx = _mm512_xor_si512(_mm512_maskz_loadu_epi8(m, x + r * c + k), vflip);
    __m512 f[4];
    lookup64InOrder(T, idx, f);
    float* hr = h + r * c + k;
#pragma GCC unroll 4
    for (int q = 0; q < kVectors; ++q) _mm512_mask_storeu_ps(hr + 16 * q, m16[q], f[q]);
#pragma GCC unroll 8
    for (int j = 0; j < J; ++j) {
      const __m256 half =
          j % 2 == 0 ? _mm512_castps512_ps256(f[j / 2])
                     : _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(f[j / 2]), 1));
      a[j] = _mm512_add_pd(a[j], _mm512_cvtps_pd(half));
    }
  }
  for (int j = 0; j < J; ++j) _mm512_mask_storeu_pd(acc + k + 8 * j, m8[j], a[j]);
}

// squeezeRowsAvx512 64 channels at a time (VBMI byte-plane lookups,
// avx512_table64.h, in channel order) while more than 16 are left, the
// double sums in up to eight registers: each channel's additions in the same
// order. Returns the first channel it left to the 16-channel loop.
PASSLAB_SEX_VBMI_TARGET int64_t squeezeRowsVbmi(const uint8_t* x, int64_t rows, int64_t c,
                                                uint8_t flip, const float* table,
                                                const FloatSplit& sp, float* h, double* acc) {
  const BytePlanes T = loadBytePlanes(table);
  const __m512i vflip = _mm512_set1_epi8(static_cast<char>(flip));
  int64_t k = 0;
  for (; c - k > 16; k += 64) {
    const int64_t n = std::min<int64_t>(64, c - k);
    switch ((n + 7) / 8) {
      case 3:
        squeezeBlockVbmi<3>(x, rows, c, k, n, T, vflip, sp, h, acc);
        break;
      case 4:
        squeezeBlockVbmi<4>(x, rows, c, k, n, T, vflip, sp, h, acc);
        break;
      case 5:
        squeezeBlockVbmi<5>(x, rows, c, k, n, T, vflip, sp, h, acc);
        break;
      case 6:
        squeezeBlockVbmi<6>(x, rows, c, k, n, T, vflip, sp, h, acc);
        break;
      case 7:
        squeezeBlockVbmi<7>(x, rows, c, k, n, T, vflip, sp, h, acc);
        break;
      default:
        squeezeBlockVbmi<8>(x, rows, c, k, n, T, vflip, sp, h, acc);
    }
  }
  return k;
}

// squeezeRows for rows of 8, 16 or 32 channels (8 * C8), 64 bytes (64 / c
// rows) at a time (VBMI lookups in byte order): the 8-lane halves of the
// four vectors are rows r, r + 1, ... in turn, half g channels 8 (g % C8)
// on, added to their double sums in that order, so each channel's additions
// are still row after row.
template <int C8>
PASSLAB_SEX_VBMI_TARGET void squeezeNarrowRowsVbmi(const uint8_t* x, int64_t rows, uint8_t flip,
                                                   const float* table, float* h, double* acc) {
  const BytePlanes T = loadBytePlanes(table);
  const __m512i vflip = _mm512_set1_epi8(static_cast<char>(flip));
  __m512d a[C8];
  for (int j = 0; j < C8; ++j) a[j] = _mm512_loadu_pd(acc + 8 * j);
  const int64_t n = rows * 8 * C8;
  for (int64_t i = 0; i < n; i += 64) {
    const int64_t left = std::min<int64_t>(64, n - i);  // a multiple of 8
    const __mmask64 m = left >= 64 ? ~__mmask64{0} : (__mmask64{1} << left) - 1;
    const __m512i idx = _mm512_xor_si512(_mm512_maskz_loadu_epi8(m, x + i), vflip);
    __m512 f[4];
    lookup64InOrder(T, idx, f);
#pragma GCC unroll 4
    for (int q = 0; q < 4; ++q)
      _mm512_mask_storeu_ps(h + i + 16 * q, avx512::lanes(std::max<int64_t>(0, left - 16 * q)),
                            f[q]);
    const int64_t halves = left / 8;
#pragma GCC unroll 8
    for (int g = 0; g < 8; ++g) {
      if (g >= halves) break;
      const __m256 half =
          g % 2 == 0 ? _mm512_castps512_ps256(f[g / 2])
                     : _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(f[g / 2]), 1));
      a[g % C8] = _mm512_add_pd(a[g % C8], _mm512_cvtps_pd(half));
    }
  }
  for (int j = 0; j < C8; ++j) _mm512_storeu_pd(acc + 8 * j, a[j]);
}

// The narrow form where it applies; false where not.
bool squeezeNarrowVbmi(const uint8_t* x, int64_t rows, int64_t c, uint8_t flip, const float* table,
                       float* h, double* acc) {
  if (c == 8) return squeezeNarrowRowsVbmi<1>(x, rows, flip, table, h, acc), true;
  if (c == 16) return squeezeNarrowRowsVbmi<2>(x, rows, flip, table, h, acc), true;
  if (c == 32) return squeezeNarrowRowsVbmi<4>(x, rows, flip, table, h, acc), true;
  return false;
}
#pragma GCC diagnostic pop
#endif

void squeeze(const uint8_t* x, int64_t rows, int64_t c, uint8_t flip, const float* table,
             const FloatSplit& sp, float* h, double* acc) {
#if defined(__x86_64__)
  if (cpu_isa::hasAvx512BwVl()) {
    if (haveVbmi() && squeezeNarrowVbmi(x, rows, c, flip, table, h, acc)) return;
    const int64_t first = haveVbmi() ? squeezeRowsVbmi(x, rows, c, flip, table, sp, h, acc) : 0;
    return squeezeRowsAvx512(x, rows, c, first, flip, table, h, acc);
  }
  if (cpu_isa::hasAvx2Fma()) return avx2::squeezeRows(x, rows, c, flip, table, h, acc);
#endif
  squeezeRows(x, rows, c, flip, table, h, acc);
}

bool is8Bit(ir::DataType t) {
  return t == ir::DataType::kUInt8 || t == ir::DataType::kInt8;
}

bool isScalar(const Tensor& t, ir::DataType type) {
  return t.numel() == 1 &&
         (type == ir::DataType::kUndefined ? is8Bit(t.dtype()) : t.dtype() == type);
}

float zeroOf(const Tensor& t) {
  return t.dtype() == ir::DataType::kInt8 ? static_cast<float>(*t.data<int8_t>())
                                          : static_cast<float>(*t.data<uint8_t>());
}

Quant quantOf(const Tensor& scale, const Tensor& zero) {
  return squeeze_excite::quantOf(*scale.data<float>(), zeroOf(zero),
                                 zero.dtype() == ir::DataType::kInt8);
}

class QLinearSqueezeExciteExact final : public Kernel {
 public:
  QLinearSqueezeExciteExact(float alpha, float beta) : alpha_(alpha), beta_(beta) {}

  Status run(KernelContext& ctx) override {
    PASSLAB_RETURN_IF_ERROR(check(ctx));
    const Tensor& x = ctx.input(kX);
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, ctx.input(kYZero).dtype(), x.dims()));
    if (y->dtype() == ir::DataType::kUInt8)
      compute<uint8_t>(ctx, *y);
    else
      compute<int8_t>(ctx, *y);
    return Status::ok();
  }

 private:
  static Status check(const KernelContext& ctx) {
    const std::string what = "QLinearSqueezeExcite (exact): ";
    for (size_t i = 0; i < 16; ++i)
      if (!ctx.has(i))
        return invalidArgument(what + "takes 16 inputs; input " + std::to_string(i) +
                               " is missing");
    const Tensor& x = ctx.input(kX);
    if (!is8Bit(x.dtype()) || x.dims().size() != 4)
      return invalidArgument(what + "X " + x.describe() + " is not a 4-D uint8 or int8 tensor");
    const int64_t c = x.dims()[3];
    const Tensor& w1 = ctx.input(kW1);
    const int64_t c1 = w1.dims().size() == 2 ? w1.dims()[0] : -1;
    const Tensor& table = ctx.input(kTable);
    if (table.dtype() != ir::DataType::kFloat ||
        table.dims() != Dims{static_cast<int64_t>(ops::kLookupEntries)})
      return invalidArgument(what + "Table " + table.describe() + " is not 256 float32 values");
    const Tensor& w2 = ctx.input(kW2);
    const Tensor& b1 = ctx.input(kB1);
    const Tensor& b2 = ctx.input(kB2);
    if (w1.dtype() != ir::DataType::kInt8 || w2.dtype() != ir::DataType::kInt8 ||
        b1.dtype() != ir::DataType::kInt32 || b2.dtype() != ir::DataType::kInt32 ||
        w1.dims() != Dims{c1, c} || w2.dims() != Dims{c, c1} || b1.dims() != Dims{c1} ||
        b2.dims() != Dims{c})
      return invalidArgument(what + "W1, B1, W2, B2 (" + w1.describe() + ", " + b1.describe() +
                             ", " + w2.describe() + ", " + b2.describe() +
                             ") are not int8 [C1, C], int32 [C1], int8 [C, C1], int32 [C] for " +
                             std::to_string(c) + " channels");
    for (size_t i : {kYScale, kGScale, kTScale, kUScale})
      if (!isScalar(ctx.input(i), ir::DataType::kFloat))
        return invalidArgument(what + "scale " + std::to_string(i) + " " + ctx.input(i).describe() +
                               " is not one float32 value");
    for (size_t i : {kYZero, kGZero, kTZero, kUZero})
      if (!isScalar(ctx.input(i), ir::DataType::kUndefined))
        return invalidArgument(what + "zero point " + std::to_string(i) + " " +
                               ctx.input(i).describe() + " is not one uint8 or int8 value");
    if (c > kMostInputs || c1 > kMostInputs)
      return invalidArgument(what + std::to_string(c) + " channels and " + std::to_string(c1) +
                             " squeezed: at most " + std::to_string(kMostInputs) + " each");
    const Tensor& ws1 = ctx.input(kW1Scale);
    const Tensor& ws2 = ctx.input(kW2Scale);
    if (ws1.dtype() != ir::DataType::kFloat || ws2.dtype() != ir::DataType::kFloat ||
        (ws1.numel() != 1 && ws1.numel() != c1) || (ws2.numel() != 1 && ws2.numel() != c))
      return invalidArgument(what + "the weight scales " + ws1.describe() + ", " + ws2.describe() +
                             " are not float32 of 1 value or one per output");
    return Status::ok();
  }

  // Per-thread working memory, kept between runs (no allocation per call).
  struct Scratch {
    std::vector<float> h, s;
    std::vector<double> sums;
    std::vector<uint8_t> g, t, u;
    ScalePlan plan;
  };

  template <class Q>
  void compute(KernelContext& ctx, Tensor& y) const {
    const Tensor& x = ctx.input(kX);
    const auto& d = x.dims();
    const int64_t n = d[0], hw = d[1] * d[2], c = d[3];
    const int64_t c1 = ctx.input(kW1).dims()[0];
    const auto* X = static_cast<const uint8_t*>(x.raw());
    Q* Y = y.mutableData<Q>();
    const float* table = ctx.input(kTable).data<float>();
    const uint8_t flip = x.dtype() == ir::DataType::kInt8 ? 0x80 : 0;
    const Quant qy = quantOf(ctx.input(kYScale), ctx.input(kYZero));
    const Quant qg = quantOf(ctx.input(kGScale), ctx.input(kGZero));
    const Quant qu = quantOf(ctx.input(kUScale), ctx.input(kUZero));
    const bool gSigned = isSigned(ctx, kGZero), tSigned = isSigned(ctx, kTZero),
               uSigned = isSigned(ctx, kUZero);
    const GateOutput o1{qg.s, ctx.input(kW1Scale).data<float>(), ctx.input(kW1Scale).numel(),
                        quantOf(ctx.input(kTScale), ctx.input(kTZero)), tSigned};
    const GateOutput o2{o1.y.s, ctx.input(kW2Scale).data<float>(), ctx.input(kW2Scale).numel(), qu,
                        uSigned};
    thread_local Scratch sc;
    grow(sc.h, hw * c), grow(sc.s, c), grow(sc.sums, c);
    grow(sc.g, gateInputBytes(c)), grow(sc.t, gateInputBytes(c1)), grow(sc.u, c);
    const GateWeights& w1 = weights(ctx, kW1, c1, c, w1_, 0);
    const GateWeights& w2 = weights(ctx, kW2, c, c1, w2_, 1);
    const double largestH = tableLargest(ctx, table);
    const FloatSplit split = floatSplit(range_, hw);
    const auto offset = [](bool isSigned) { return isSigned ? 128 : 0; };
    for (int64_t b = 0; b < n; ++b) {
      std::fill(sc.sums.begin(), sc.sums.begin() + c, 0.0);
      squeeze(X + b * hw * c, hw, c, flip, table, split, sc.h.data(), sc.sums.data());
      quantizeMeans(sc.sums.data(), c, hw, qg, gSigned, sc.g.data());
      gateConv(w1, sc.g.data(), static_cast<int32_t>(qg.z) + offset(gSigned),
               ctx.input(kB1).data<int32_t>(), o1, sc.t.data());
      for (int64_t m = 0; m < gateInputBytes(c1); ++m)  // as unsigned bytes, zeros after
        sc.t[m] = m < c1 ? static_cast<uint8_t>(sc.t[m] ^ (tSigned ? 0x80 : 0)) : 0;
      gateConv(w2, sc.t.data(), static_cast<int32_t>(o1.y.z) + offset(tSigned),
               ctx.input(kB2).data<int32_t>(), o2, sc.u.data());
      for (int64_t k = 0; k < c; ++k) {
        const int32_t u = uSigned ? static_cast<int8_t>(sc.u[k]) : sc.u[k];
        const float v = alpha_ * ((static_cast<float>(u) - qu.z) * qu.s) + beta_;
        sc.s[k] = v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
      }
      prepareScale(largestH, sc.s.data(), c, qy, sc.plan);
      // This thread's scratch, by pointer: in the lambda `sc` would name
      // each OpenMP thread's own (thread_local), not this one's.
      const float* hb = sc.h.data();
      const float* s = sc.s.data();
      const ScalePlan* plan = &sc.plan;
      Q* yb = Y + b * hw * c;
      const int64_t grain = std::max<int64_t>(1, kElementwiseGrain / (c + 1));
      parallelFor(hw, ctx.threads(), grain,
                  [&](int64_t r0, int64_t r1) { scaleRows<Q>(hb, r0, r1, c, s, qy, *plan, yb); });
    }
  }

  template <class T>
  static void grow(std::vector<T>& v, int64_t size) {
    if (v.size() < static_cast<size_t>(size)) v.resize(static_cast<size_t>(size));
  }

  static bool isSigned(const KernelContext& ctx, size_t zero) {
    return ctx.input(zero).dtype() == ir::DataType::kInt8;
  }

  // W [m, k] packed: kept from the first run where W is a constant of the run
  // (one kernel serves one run at a time), else packed on each run (into
  // this thread's slot `slot`).
  const GateWeights& weights(const KernelContext& ctx, size_t i, int64_t m, int64_t k,
                             GateWeights& kept, int slot) const {
    if (!ctx.invariantInput(i)) {
      thread_local GateWeights each[2];
      each[slot].pack(ctx.input(i).data<int8_t>(), m, k);
      return each[slot];
    }
    if (kept.outputs != m || kept.inputs != k || kept.packed.empty())
      kept.pack(ctx.input(i).data<int8_t>(), m, k);
    return kept;
  }

  // tableBound of the table, kept where the table is a constant of the run.
  double tableLargest(const KernelContext& ctx, const float* table) const {
    if (!ctx.invariantInput(kTable)) return range_ = tableRange(table), tableBound(table);
    if (!tableKept_) largest_ = tableBound(table), range_ = tableRange(table), tableKept_ = true;
    return largest_;
  }

  float alpha_, beta_;
  mutable GateWeights w1_, w2_;
  mutable bool tableKept_ = false;
  mutable double largest_ = 0;
  mutable TableRange range_;
};

}  // namespace

Expected<std::unique_ptr<Kernel>> makeQLinearSqueezeExciteExact(const KernelBuild& b) {
  const ir::Node& n = b.node();
  if (n.attrInt(ops::kChannelsLast, 0) != 1)
    return invalidArgument("QLinearSqueezeExcite (exact): only the channels-last form (" +
                           std::string(ops::kChannelsLast) + " = 1) is exact");
  return std::unique_ptr<Kernel>(
      new QLinearSqueezeExciteExact(n.attrFloat("alpha", 0.2f), n.attrFloat("beta", 0.5f)));
}

}  // namespace passlab::exec::cpu::squeeze_excite
