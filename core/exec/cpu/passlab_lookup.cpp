// ai.passlab QLinearLookup: an 8-bit -> 8-bit function as a 256-entry table
// (core/ir/passlab_ops.h; fold_qdq_unary_into_lookup writes it): the byte of
// X (plus 128 for int8) indexes the table. With AVX-512 VBMI, 64 elements at
// a time: the table in four registers, two two-register byte permutes
// (vpermi2b, the low 7 bits) and a blend on the top bit. Without VBMI the
// in-lane byte shuffle (vpshufb) reads 16-entry rows: AVX-512 BW looks up all
// 16 rows and picks by bits 4-7 (mask blends); AVX2 XORs row differences
// (below). Elsewhere one load per element (2-4x slower than AVX2).
#include "core/exec/cpu/passlab_lookup.h"

#include <cstdint>
#include <string>

#if defined(__x86_64__)
#include "core/support/x86_intrinsics.h"
#endif

#include "core/exec/parallel.h"
#include "core/ir/passlab_ops.h"
#include "core/support/cpu_isa.h"

namespace passlab::exec::cpu::lookup {

namespace {

void lookupScalar(const uint8_t* x, const uint8_t* t, uint8_t* y, int64_t n, uint8_t flip) {
  for (int64_t i = 0; i < n; ++i) y[i] = t[static_cast<uint8_t>(x[i] ^ flip)];
}

#if defined(__x86_64__)
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) void lookupVbmi(const uint8_t* x,
                                                                       const uint8_t* t, uint8_t* y,
                                                                       int64_t n, uint8_t flip) {
  const __m512i t0 = _mm512_loadu_si512(t), t1 = _mm512_loadu_si512(t + 64);
  const __m512i t2 = _mm512_loadu_si512(t + 128), t3 = _mm512_loadu_si512(t + 192);
  const __m512i f = _mm512_set1_epi8(static_cast<char>(flip));
  int64_t i = 0;
  for (; i + 64 <= n; i += 64) {
    const __m512i v = _mm512_xor_si512(_mm512_loadu_si512(x + i), f);
    const __m512i lo = _mm512_permutex2var_epi8(t0, v, t1);  // entries 0..127
    const __m512i hi = _mm512_permutex2var_epi8(t2, v, t3);  // entries 128..255
    _mm512_storeu_si512(y + i, _mm512_mask_blend_epi8(_mm512_movepi8_mask(v), lo, hi));
  }
  lookupScalar(x + i, t, y + i, n - i, flip);
}

// AVX-512 BW (no VBMI): each row r of 16 entries broadcast to the four lanes;
// vpshufb on the low 4 bits gives row r's entry for every byte, and a tree of
// mask blends on bits 4, 5, 6, 7 keeps the byte's own row.
__attribute__((target("avx512f,avx512bw"))) void lookupAvx512Bw(const uint8_t* x, const uint8_t* t,
                                                                uint8_t* y, int64_t n,
                                                                uint8_t flip) {
  __m512i row[16];
  for (int r = 0; r < 16; ++r)
    row[r] = _mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(t + 16 * r)));
  const __m512i f = _mm512_set1_epi8(static_cast<char>(flip));
  const __m512i low4 = _mm512_set1_epi8(15);
  int64_t i = 0;
  for (; i + 64 <= n; i += 64) {
    const __m512i v = _mm512_xor_si512(_mm512_loadu_si512(x + i), f);
    const __m512i col = _mm512_and_si512(v, low4);
    const __mmask64 b4 = _mm512_test_epi8_mask(v, _mm512_set1_epi8(16));
    const __mmask64 b5 = _mm512_test_epi8_mask(v, _mm512_set1_epi8(32));
    const __mmask64 b6 = _mm512_test_epi8_mask(v, _mm512_set1_epi8(64));
    __m512i pair[8];
    for (int k = 0; k < 8; ++k)
      pair[k] =
          _mm512_mask_shuffle_epi8(_mm512_shuffle_epi8(row[2 * k], col), b4, row[2 * k + 1], col);
    __m512i quad[4];
    for (int k = 0; k < 4; ++k) quad[k] = _mm512_mask_blend_epi8(b5, pair[2 * k], pair[2 * k + 1]);
    const __m512i low = _mm512_mask_blend_epi8(b6, quad[0], quad[1]);
    const __m512i high = _mm512_mask_blend_epi8(b6, quad[2], quad[3]);
    _mm512_storeu_si512(y + i, _mm512_mask_blend_epi8(_mm512_movepi8_mask(v), low, high));
  }
  lookupScalar(x + i, t, y + i, n - i, flip);
}

// AVX2: vpshufb returns 0 where the index byte has its top bit set, so with
// v - 16r as the index (r = 0..7) row r's lookup reaches the bytes v < 128 of
// rows r..7 and the bytes v >= 128 of rows 8..r+7 (v - 16r < 128). Prefix
// differences d[r] = row r ^ row r-1 (d[0] = row 0) XOR to row h for v < 128
// of row h; suffix differences e[r] = row 7+r ^ row 8+r, r >= 1, XOR with
// row 15 (e[0], indexed by v - 128) to row h for v >= 128. The top bit of v
// picks the half: 16 shuffles, 15 XORs, 7 subtractions and one blend per 32
// bytes (12% fewer operations than 16 subtractions; blend trees cost more).
__attribute__((target("avx2"))) void lookupAvx2(const uint8_t* x, const uint8_t* t, uint8_t* y,
                                                int64_t n, uint8_t flip) {
  const auto row = [t](int r) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(t + 16 * r));
  };
  __m256i d[8], e[8];
  d[0] = _mm256_broadcastsi128_si256(row(0));
  e[0] = _mm256_broadcastsi128_si256(row(15));
  for (int r = 1; r < 8; ++r) {
    d[r] = _mm256_broadcastsi128_si256(_mm_xor_si128(row(r), row(r - 1)));
    e[r] = _mm256_broadcastsi128_si256(_mm_xor_si128(row(7 + r), row(8 + r)));
  }
  // w = v ^ 0x80 = v - 128 (mod 256), loaded with one XOR.
  const __m256i toW = _mm256_set1_epi8(static_cast<char>(flip ^ 0x80));
  const __m256i top = _mm256_set1_epi8(static_cast<char>(0x80));
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m256i w =
        _mm256_xor_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + i)), toW);
    const __m256i v = _mm256_xor_si256(w, top);
    __m256i low = _mm256_shuffle_epi8(d[0], v), high = _mm256_shuffle_epi8(e[0], w);
    for (int r = 1; r < 8; ++r) {
      const __m256i index = _mm256_sub_epi8(v, _mm256_set1_epi8(static_cast<char>(16 * r)));
      low = _mm256_xor_si256(low, _mm256_shuffle_epi8(d[r], index));
      high = _mm256_xor_si256(high, _mm256_shuffle_epi8(e[r], index));
    }
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(y + i), _mm256_blendv_epi8(low, high, v));
  }
  lookupScalar(x + i, t, y + i, n - i, flip);
}

void lookupBest(const uint8_t* x, const uint8_t* t, uint8_t* y, int64_t n, uint8_t flip) {
  if (cpu_isa::hasAvx512Vbmi()) return lookupVbmi(x, t, y, n, flip);
  if (cpu_isa::hasAvx512BwVl()) return lookupAvx512Bw(x, t, y, n, flip);
  if (cpu_isa::hasAvx2Fma()) return lookupAvx2(x, t, y, n, flip);
  lookupScalar(x, t, y, n, flip);
}
#endif

bool is8Bit(ir::DataType t) {
  return t == ir::DataType::kUInt8 || t == ir::DataType::kInt8;
}

class QLinearLookup final : public Kernel {
 public:
  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    const Tensor& table = ctx.input(1);
    if (!is8Bit(x.dtype()))
      return invalidArgument("QLinearLookup: X " + x.describe() + " is not uint8 or int8");
    if (!is8Bit(table.dtype()) || table.dims().size() != 1 ||
        table.numel() != static_cast<int64_t>(ir::passlab_ops::kLookupEntries))
      return invalidArgument("QLinearLookup: Table " + table.describe() +
                             " is not 256 uint8 or int8 values (one per value of X)");
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, table.dtype(), x.dims()));
    const auto* X = static_cast<const uint8_t*>(x.raw());
    const auto* T = static_cast<const uint8_t*>(table.raw());
    auto* Y = static_cast<uint8_t*>(y->mutableRaw());
    // int8 x: its byte is x + 256 for negative x; flipping the top bit gives x + 128.
    const uint8_t flip = x.dtype() == ir::DataType::kInt8 ? 0x80 : 0;
    parallelFor(x.numel(), ctx.threads(), kElementwiseGrain, [&](int64_t lo, int64_t hi) {
#if defined(__x86_64__)
      lookupBest(X + lo, T, Y + lo, hi - lo, flip);
#else
      lookupScalar(X + lo, T, Y + lo, hi - lo, flip);
#endif
    });
    return Status::ok();
  }
};

}  // namespace

Expected<std::unique_ptr<Kernel>> makeQLinearLookup(const KernelBuild&) {
  return std::unique_ptr<Kernel>(new QLinearLookup());
}

}  // namespace passlab::exec::cpu::lookup
