#include "core/exec/cpu/where_rows.h"

#include <cstring>

#include "core/exec/cpu/row_isa.h"

#if defined(__x86_64__)
#include "core/support/x86_intrinsics.h"
#endif

namespace passlab::exec::cpu {

namespace {

template <int E>
struct Word;
template <>
struct Word<1> {
  using T = uint8_t;
};
template <>
struct Word<2> {
  using T = uint16_t;
};
template <>
struct Word<4> {
  using T = uint32_t;
};
template <>
struct Word<8> {
  using T = uint64_t;
};

using RowFn = void (*)(const uint8_t* c, const void* x, const void* y, void* out, int64_t n);

// Elements [i, n) one at a time.
template <int E, int XS, int YS>
inline void whereTail(const uint8_t* c, const void* x, const void* y, void* out, int64_t i,
                      int64_t n) {
  using T = typename Word<E>::T;
  const T* xs = static_cast<const T*>(x);
  const T* ys = static_cast<const T*>(y);
  T* o = static_cast<T*>(out);
  for (; i < n; ++i) {
    const T a = xs[i * XS];
    const T b = ys[i * YS];
    o[i] = c[i] != 0 ? a : b;
  }
}

template <int E, int XS, int YS>
void whereRowScalar(const uint8_t* c, const void* x, const void* y, void* out, int64_t n) {
  whereTail<E, XS, YS>(c, x, y, out, 0, n);
}

#if defined(__x86_64__)
// SSE2 (the baseline): 16 bytes, 16 / E elements a step. The mask has every
// byte of an element set where its condition is 0 (y's lanes): the condition
// bytes are repeated E times each, then compared with 0 bytewise.
template <int E>
inline __m128i condZero128(const uint8_t* c) {
  __m128i v;
  if constexpr (E == 1) {
    v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(c));
  } else if constexpr (E == 2) {
    v = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(c));
    v = _mm_unpacklo_epi8(v, v);
  } else if constexpr (E == 4) {
    int32_t t;
    std::memcpy(&t, c, 4);
    v = _mm_cvtsi32_si128(t);
    v = _mm_unpacklo_epi8(v, v);
    v = _mm_unpacklo_epi16(v, v);
  } else {
    uint16_t t;
    std::memcpy(&t, c, 2);
    v = _mm_cvtsi32_si128(t);
    v = _mm_unpacklo_epi8(v, v);
    v = _mm_unpacklo_epi16(v, v);
    v = _mm_unpacklo_epi32(v, v);
  }
  return _mm_cmpeq_epi8(v, _mm_setzero_si128());
}

template <int E>
inline __m128i splat128(const void* p) {
  typename Word<E>::T w;
  std::memcpy(&w, p, E);
  if constexpr (E == 1) return _mm_set1_epi8(static_cast<char>(w));
  if constexpr (E == 2) return _mm_set1_epi16(static_cast<short>(w));
  if constexpr (E == 4) return _mm_set1_epi32(static_cast<int>(w));
  if constexpr (E == 8) return _mm_set1_epi64x(static_cast<long long>(w));
}

template <int E, int XS, int YS>
void whereRowSse2(const uint8_t* c, const void* x, const void* y, void* out, int64_t n) {
  constexpr int64_t kLanes = 16 / E;
  const auto* xb = static_cast<const uint8_t*>(x);
  const auto* yb = static_cast<const uint8_t*>(y);
  auto* ob = static_cast<uint8_t*>(out);
  const __m128i xSplat = XS == 0 ? splat128<E>(x) : _mm_setzero_si128();
  const __m128i ySplat = YS == 0 ? splat128<E>(y) : _mm_setzero_si128();
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    const __m128i m = condZero128<E>(c + i);
    const __m128i a = XS ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(xb + i * E)) : xSplat;
    const __m128i b = YS ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(yb + i * E)) : ySplat;
    _mm_storeu_si128(reinterpret_cast<__m128i*>(ob + i * E),
                     _mm_or_si128(_mm_and_si128(m, b), _mm_andnot_si128(m, a)));
  }
  whereTail<E, XS, YS>(c, x, y, out, i, n);
}

// AVX2: 32 bytes, 32 / E elements a step; the condition bytes widened to E
// bytes and compared with 0 at that width.
template <int E>
__attribute__((target("avx2"))) inline __m256i condZero256(const uint8_t* c) {
  if constexpr (E == 1) {
    return _mm256_cmpeq_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(c)),
                             _mm256_setzero_si256());
  } else if constexpr (E == 2) {
    return _mm256_cmpeq_epi16(
        _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(c))),
        _mm256_setzero_si256());
  } else if constexpr (E == 4) {
    return _mm256_cmpeq_epi32(
        _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(c))),
        _mm256_setzero_si256());
  } else {
    int32_t t;
    std::memcpy(&t, c, 4);
    return _mm256_cmpeq_epi64(_mm256_cvtepu8_epi64(_mm_cvtsi32_si128(t)), _mm256_setzero_si256());
  }
}

template <int E>
__attribute__((target("avx2"))) inline __m256i splat256(const void* p) {
  typename Word<E>::T w;
  std::memcpy(&w, p, E);
  if constexpr (E == 1) return _mm256_set1_epi8(static_cast<char>(w));
  if constexpr (E == 2) return _mm256_set1_epi16(static_cast<short>(w));
  if constexpr (E == 4) return _mm256_set1_epi32(static_cast<int>(w));
  if constexpr (E == 8) return _mm256_set1_epi64x(static_cast<long long>(w));
}

template <int E, int XS, int YS>
__attribute__((target("avx2"))) inline void whereStep256(const uint8_t* c, const uint8_t* xb,
                                                         const uint8_t* yb, uint8_t* ob,
                                                         __m256i xSplat, __m256i ySplat,
                                                         int64_t i) {
  const __m256i m = condZero256<E>(c + i);
  const __m256i a = XS ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(xb + i * E)) : xSplat;
  const __m256i b = YS ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(yb + i * E)) : ySplat;
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(ob + i * E), _mm256_blendv_epi8(a, b, m));
}

template <int E, int XS, int YS>
__attribute__((target("avx2"))) void whereRowAvx2(const uint8_t* c, const void* x, const void* y,
                                                  void* out, int64_t n) {
  constexpr int64_t kLanes = 32 / E;
  const auto* xb = static_cast<const uint8_t*>(x);
  const auto* yb = static_cast<const uint8_t*>(y);
  auto* ob = static_cast<uint8_t*>(out);
  const __m256i xSplat = XS == 0 ? splat256<E>(x) : _mm256_setzero_si256();
  const __m256i ySplat = YS == 0 ? splat256<E>(y) : _mm256_setzero_si256();
  int64_t i = 0;
  for (; i + 2 * kLanes <= n; i += 2 * kLanes) {
    whereStep256<E, XS, YS>(c, xb, yb, ob, xSplat, ySplat, i);
    whereStep256<E, XS, YS>(c, xb, yb, ob, xSplat, ySplat, i + kLanes);
  }
  if (i + kLanes <= n) {
    whereStep256<E, XS, YS>(c, xb, yb, ob, xSplat, ySplat, i);
    i += kLanes;
  }
  whereTail<E, XS, YS>(c, x, y, out, i, n);
}
#endif

// [width slot][xStride][yStride] for one path.
#define PASSLAB_WHERE_ROWS(fn)                                      \
  {                                                                 \
    {{fn<1, 0, 0>, fn<1, 0, 1>}, {fn<1, 1, 0>, fn<1, 1, 1>}},       \
        {{fn<2, 0, 0>, fn<2, 0, 1>}, {fn<2, 1, 0>, fn<2, 1, 1>}},   \
        {{fn<4, 0, 0>, fn<4, 0, 1>}, {fn<4, 1, 0>, fn<4, 1, 1>}}, { \
      {fn<8, 0, 0>, fn<8, 0, 1>}, {                                 \
        fn<8, 1, 0>, fn<8, 1, 1>                                    \
      }                                                             \
    }                                                               \
  }

#if defined(__x86_64__)
const RowFn kSse2Rows[4][2][2] = PASSLAB_WHERE_ROWS(whereRowSse2);
const RowFn kAvx2Rows[4][2][2] = PASSLAB_WHERE_ROWS(whereRowAvx2);
#else
const RowFn kScalarRows[4][2][2] = PASSLAB_WHERE_ROWS(whereRowScalar);
#endif
#undef PASSLAB_WHERE_ROWS

int widthSlot(int bytes) {
  switch (bytes) {
    case 1:
      return 0;
    case 2:
      return 1;
    case 4:
      return 2;
    case 8:
      return 3;
    default:
      return -1;
  }
}

bool runOn(RowIsa isa, const bool* c, const void* x, int xStride, const void* y, int yStride,
           void* out, int64_t n, int bytes) {
  const int w = widthSlot(bytes);
  if (w < 0 || (xStride != 0 && xStride != 1) || (yStride != 0 && yStride != 1)) return false;
  if (n <= 0) return true;
  const auto* cb = reinterpret_cast<const uint8_t*>(c);
#if defined(__x86_64__)
  const RowFn(*table)[2][2] = isa == RowIsa::kBase ? kSse2Rows : kAvx2Rows;
#else
  (void)isa;
  const RowFn(*table)[2][2] = kScalarRows;
#endif
  table[w][xStride][yStride](cb, x, y, out, n);
  return true;
}

}  // namespace

bool whereRow(const bool* c, const void* x, int xStride, const void* y, int yStride, void* out,
              int64_t n, int bytes) {
  return runOn(detectedRowIsa(), c, x, xStride, y, yStride, out, n, bytes);
}

const char* whereRowsIsa() {
  return detectedRowIsa() == RowIsa::kBase ? "sse2" : "avx2";
}

bool whereRowOn(std::string_view isa, const bool* c, const void* x, int xStride, const void* y,
                int yStride, void* out, int64_t n, int bytes) {
  RowIsa path = RowIsa::kBase;
  if (isa == "avx512" || !parseRowIsa(isa, "sse2", &path)) return false;
  return runOn(path, c, x, xStride, y, yStride, out, n, bytes);
}

}  // namespace passlab::exec::cpu
