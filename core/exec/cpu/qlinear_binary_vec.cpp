// com.microsoft QLinearAdd and QLinearMul with ONNX Runtime's numerics
// (MLAS: qladd_avx2.cpp, qlmul.cpp), vectorized with AVX2 where the machine
// has it (the same formula in scalar code otherwise, so the results do not
// depend on the machine). Per element, with the ratios in float32:
//   Add: c = a * (sa/sc) + (b * (sb/sc) + (zc - (sa/sc * za + sb/sc * zb)))
//        (two fused multiply-adds); an operand that is one value in a run of
//        the broadcast is folded into the constant first (multiply, add).
//   Mul: c = float((a - za) * (b - zb)) * (sa * sb / sc) + zc
// then rounded half to even and saturated to the 8-bit type (Add of two
// same-shape operands on 16 AVX-512 lanes or 8 AVX2 ones, the same bytes).
// The reference kernel (contrib_qlinear.cpp) dequantizes, computes and
// quantizes in float;
// the two differ by at most one step near rounding ties.
#include "core/exec/cpu/qlinear_binary_vec.h"

#include "core/support/x86_intrinsics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "core/exec/broadcast.h"
#include "core/exec/cpu/qlinear_quantization.h"
#include "core/exec/parallel.h"
#include "core/support/cpu_isa.h"

namespace passlab::exec::cpu {

namespace {

using ir::DataType;

constexpr int64_t kGrain = 1 << 14;

// What a run of one op needs: its scales folded into ratios and constants.
struct Coefficients {
  float ratioA = 0, ratioB = 0;  // Add: sa/sc, sb/sc; Mul: ratioA = sa*sb/sc
  float fixed = 0;               // Add: zc - (ratioA za + ratioB zb); Mul: zc
  int32_t za = 0, zb = 0;
};

template <class T>
inline T saturate(float v) {
  const float r = std::nearbyint(v);
  constexpr float lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
  return static_cast<T>(static_cast<int32_t>(std::clamp(r, lo, hi)));
}

// Add of `n` elements; an operand whose stride is 0 is one value.
template <class T>
inline __attribute__((always_inline)) void addRun(const T* a, int64_t sa, const T* b, int64_t sb,
                                                  T* c, int64_t n, const Coefficients& k) {
  if (sa == 0 && sb == 0) {
    const float fixed = k.fixed + static_cast<float>(a[0]) * k.ratioA;
    const T v = saturate<T>(std::fma(static_cast<float>(b[0]), k.ratioB, fixed));
    std::fill(c, c + n, v);
  } else if (sa == 0) {
    const float fixed = k.fixed + static_cast<float>(a[0]) * k.ratioA;
    for (int64_t i = 0; i < n; ++i)
      c[i] = saturate<T>(std::fma(static_cast<float>(b[i]), k.ratioB, fixed));
  } else if (sb == 0) {
    const float fixed = k.fixed + static_cast<float>(b[0]) * k.ratioB;
    for (int64_t i = 0; i < n; ++i)
      c[i] = saturate<T>(std::fma(static_cast<float>(a[i]), k.ratioA, fixed));
  } else {
    for (int64_t i = 0; i < n; ++i)
      c[i] = saturate<T>(std::fma(static_cast<float>(a[i]), k.ratioA,
                                  std::fma(static_cast<float>(b[i]), k.ratioB, k.fixed)));
  }
}

template <class T, int kSa, int kSb>
inline __attribute__((always_inline)) void mulStrided(const T* a, const T* b, T* c, int64_t n,
                                                      const Coefficients& k) {
  for (int64_t i = 0; i < n; ++i) {
    const int32_t p =
        (static_cast<int32_t>(a[i * kSa]) - k.za) * (static_cast<int32_t>(b[i * kSb]) - k.zb);
    c[i] = saturate<T>(static_cast<float>(p) * k.ratioA + k.fixed);
  }
}

template <class T>
inline __attribute__((always_inline)) void mulRun(const T* a, int64_t sa, const T* b, int64_t sb,
                                                  T* c, int64_t n, const Coefficients& k) {
  if (sa && sb) {
    mulStrided<T, 1, 1>(a, b, c, n, k);
  } else if (sa) {
    mulStrided<T, 1, 0>(a, b, c, n, k);
  } else if (sb) {
    mulStrided<T, 0, 1>(a, b, c, n, k);
  } else {
    mulStrided<T, 0, 0>(a, b, c, n, k);
  }
}

// The same code for the machine with AVX2 (and FMA for Add: the fused
// multiply-adds then are instructions) and without. Mul must not fuse its
// multiply and add (MLAS does not), so its AVX2 form goes without FMA.
// Same-length runs 32 at a time: addRun's loop on 8 lanes (the two fused
// multiply-adds, round half to even, the clamp, truncation: the same bytes;
// a NaN, whose truncation is the integer indefinite 0x80000000 and so the
// byte 0 in the scalar cast, is made 0 before the saturating packs). GCC
// left addRun's loop scalar (std::nearbyint): ppocr_cls's 7 QLinearAdd
// under the avx2 cap 15.0 -> 6.8 us (session 39).
template <class T>
__attribute__((target("avx2"))) inline __m256 widen8Avx2(const T* p) {
  const __m128i v = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p));
  return _mm256_cvtepi32_ps(std::is_signed_v<T> ? _mm256_cvtepi8_epi32(v)
                                                : _mm256_cvtepu8_epi32(v));
}

template <class T>
__attribute__((target("avx2,fma"))) inline __m256i addLanesAvx2(const T* a, const T* b, __m256 ra,
                                                                __m256 rb, __m256 fixed, __m256 lo,
                                                                __m256 hi) {
  const __m256 v = _mm256_fmadd_ps(widen8Avx2(a), ra, _mm256_fmadd_ps(widen8Avx2(b), rb, fixed));
  __m256 r = _mm256_round_ps(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  r = _mm256_min_ps(hi, _mm256_max_ps(lo, r));  // keeps a NaN, as the scalar clamp
  return _mm256_andnot_si256(_mm256_castps_si256(_mm256_cmp_ps(r, r, _CMP_UNORD_Q)),
                             _mm256_cvttps_epi32(r));
}

template <class T>
__attribute__((target("avx2,fma"))) void addRunAvx2(const T* a, int64_t sa, const T* b, int64_t sb,
                                                    T* c, int64_t n, const Coefficients& k) {
  int64_t i = 0;
  if (sa == 1 && sb == 1) {
    const __m256 ra = _mm256_set1_ps(k.ratioA), rb = _mm256_set1_ps(k.ratioB);
    const __m256 fixed = _mm256_set1_ps(k.fixed);
    const __m256 lo = _mm256_set1_ps(static_cast<float>(std::numeric_limits<T>::min()));
    const __m256 hi = _mm256_set1_ps(static_cast<float>(std::numeric_limits<T>::max()));
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);  // undoes the packs' lanes
    for (; i + 32 <= n; i += 32) {
      const __m256i p =
          _mm256_packs_epi32(addLanesAvx2(a + i, b + i, ra, rb, fixed, lo, hi),
                             addLanesAvx2(a + i + 8, b + i + 8, ra, rb, fixed, lo, hi));
      const __m256i q =
          _mm256_packs_epi32(addLanesAvx2(a + i + 16, b + i + 16, ra, rb, fixed, lo, hi),
                             addLanesAvx2(a + i + 24, b + i + 24, ra, rb, fixed, lo, hi));
      const __m256i out =
          std::is_signed_v<T> ? _mm256_packs_epi16(p, q) : _mm256_packus_epi16(p, q);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(c + i),
                          _mm256_permutevar8x32_epi32(out, order));
    }
  }
  addRun(a + i * sa, sa, b + i * sb, sb, c + i, n - i, k);
}
template <class T>
void addRunPlain(const T* a, int64_t sa, const T* b, int64_t sb, T* c, int64_t n,
                 const Coefficients& k) {
  addRun(a, sa, b, sb, c, n, k);
}
template <class T>
__attribute__((target("avx2"))) void mulRunAvx2(const T* a, int64_t sa, const T* b, int64_t sb,
                                                T* c, int64_t n, const Coefficients& k) {
  mulRun(a, sa, b, sb, c, n, k);
}
template <class T>
void mulRunPlain(const T* a, int64_t sa, const T* b, int64_t sb, T* c, int64_t n,
                 const Coefficients& k) {
  mulRun(a, sa, b, sb, c, n, k);
}

// Add of two same-length runs (the residual Adds of a CNN) on 16 lanes with
// AVX-512: the same operations as addRun's loop (two fused multiply-adds,
// round half to even, clamp, truncate: the same bytes; the clamp's operand
// order keeps a NaN, which truncates to the integer indefinite as the
// scalar cast does); any other run as addRun. GCC left addRun's loop scalar
// (std::nearbyint): 2-2.5 us per call on ppocr_cls's 4.6K-6.1K elements.
#define PASSLAB_QBIN_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx2,fma")))

template <class T>
PASSLAB_QBIN_AVX512 inline __m512 widen16(const T* p, __mmask16 m) {
  const __m128i v = _mm_maskz_loadu_epi8(m, p);
  return _mm512_cvtepi32_ps(std::is_signed_v<T> ? _mm512_cvtepi8_epi32(v)
                                                : _mm512_cvtepu8_epi32(v));
}

template <class T>
PASSLAB_QBIN_AVX512 void addRunAvx512(const T* a, int64_t sa, const T* b, int64_t sb, T* c,
                                      int64_t n, const Coefficients& k) {
  if (sa != 1 || sb != 1) return addRun(a, sa, b, sb, c, n, k);
  const __m512 ra = _mm512_set1_ps(k.ratioA), rb = _mm512_set1_ps(k.ratioB);
  const __m512 fixed = _mm512_set1_ps(k.fixed);
  const __m512 lo = _mm512_set1_ps(static_cast<float>(std::numeric_limits<T>::min()));
  const __m512 hi = _mm512_set1_ps(static_cast<float>(std::numeric_limits<T>::max()));
  for (int64_t i = 0; i < n; i += 16) {
    const __mmask16 m =
        n - i >= 16 ? __mmask16{0xffff} : static_cast<__mmask16>((1u << (n - i)) - 1);
    const __m512 v =
        _mm512_fmadd_ps(widen16(a + i, m), ra, _mm512_fmadd_ps(widen16(b + i, m), rb, fixed));
    __m512 r = _mm512_roundscale_ps(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    r = _mm512_min_ps(hi, _mm512_max_ps(lo, r));  // max_ps(x, NaN) and min_ps(x, NaN) give NaN
    _mm_mask_storeu_epi8(c + i, m, _mm512_cvtepi32_epi8(_mm512_cvttps_epi32(r)));
  }
}

bool hasAvx2Fma() {
  return cpu_isa::hasAvx2Fma();
}

// QLinearAdd / QLinearMul: A, A_scale, A_zp, B, B_scale, B_zp, C_scale, C_zp.
template <bool kMultiply>
class QLinearBinaryVec final : public Kernel {
 public:
  Status run(KernelContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(QLinearBinaryOperands op, readQLinearBinary(ctx));
    const Coefficients k = coefficients(op.qa, op.qb, op.qc);
    if (op.a->dtype() == DataType::kInt8) {
      compute<int8_t>(ctx, *op.a, *op.b, *op.c, k);
    } else {
      compute<uint8_t>(ctx, *op.a, *op.b, *op.c, k);
    }
    return Status::ok();
  }

 private:
  static Coefficients coefficients(const Quantization& qa, const Quantization& qb,
                                   const Quantization& qc) {
    Coefficients k;
    k.za = qa.zeroPoint;
    k.zb = qb.zeroPoint;
    if constexpr (kMultiply) {
      k.ratioA = qa.scale * qb.scale / qc.scale;
      k.fixed = static_cast<float>(qc.zeroPoint);
    } else {
      k.ratioA = qa.scale / qc.scale;
      k.ratioB = qb.scale / qc.scale;
      const float za = static_cast<float>(qa.zeroPoint), zb = static_cast<float>(qb.zeroPoint);
      k.fixed = static_cast<float>(qc.zeroPoint) - (k.ratioA * za + k.ratioB * zb);
    }
    return k;
  }

  template <class T>
  static void compute(const KernelContext& ctx, const Tensor& a, const Tensor& b, Tensor& c,
                      const Coefficients& k) {
    const T* pa = a.data<T>();
    const T* pb = b.data<T>();
    T* pc = c.mutableData<T>();
    const bool avx2 = hasAvx2Fma();
    auto runOf = kMultiply                          ? (avx2 ? mulRunAvx2<T> : mulRunPlain<T>)
                 : cpu_isa::hasAvx512BwVl() && avx2 ? addRunAvx512<T>
                 : avx2                             ? addRunAvx2<T>
                                                    : addRunPlain<T>;
    BroadcastWalker<2> walker(c.dims(), {&a.dims(), &b.dims()});
    parallelFor(walker.total(), ctx.threads(), kGrain, [&](int64_t begin, int64_t end) {
      walker.walk(begin, end,
                  [&](int64_t o, const std::array<int64_t, 2>& off, int64_t n,
                      const std::array<int64_t, 2>& st) {
                    runOf(pa + off[0], st[0], pb + off[1], st[1], pc + o, n, k);
                  });
    });
  }
};

}  // namespace

Expected<std::unique_ptr<Kernel>> makeQLinearAddVec(const KernelBuild&) {
  return std::unique_ptr<Kernel>(std::make_unique<QLinearBinaryVec<false>>());
}

Expected<std::unique_ptr<Kernel>> makeQLinearMulVec(const KernelBuild&) {
  return std::unique_ptr<Kernel>(std::make_unique<QLinearBinaryVec<true>>());
}

}  // namespace passlab::exec::cpu
