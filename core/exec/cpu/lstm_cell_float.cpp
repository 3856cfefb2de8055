#include "core/exec/cpu/lstm_cell_float.h"

#include <algorithm>
#include <cstring>

#include "core/exec/cpu/sigmoid_rows.h"
#include "core/support/cpu_isa.h"

// The 16-lane helpers return 64-byte vectors; they are always inlined into
// the AVX-512 functions, so no call between differently compiled code passes
// one and GCC's warning about that ABI does not apply.
#pragma GCC diagnostic ignored "-Wpsabi"

namespace passlab::exec::cpu {

namespace {

// Every vector helper is inlined into the function that picks the width, so
// the 16-lane instantiation compiles with that function's AVX-512 target.
#define PASSLAB_LANES_INLINE inline __attribute__((always_inline))

// (GCC drops a vector_size that depends on a template parameter: one
// specialization per width.)
template <int L>
struct Lanes;
template <>
struct Lanes<4> {
  using F = float __attribute__((vector_size(16)));
};
template <>
struct Lanes<16> {
  using F = float __attribute__((vector_size(64)));
};

template <int L>
PASSLAB_LANES_INLINE typename Lanes<L>::F load(const float* p) {
  typename Lanes<L>::F v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <int L>
PASSLAB_LANES_INLINE void store(float* p, const typename Lanes<L>::F& v) {
  std::memcpy(p, &v, sizeof v);
}

// One block of kPackedColumns columns: out[0, kPackedColumns) += v · block,
// the block's rows (kPackedColumns floats) read one after the other, the
// outputs held in registers: all 64 in 4 vectors of 16 lanes, or 32 at a
// time in 8 vectors of 4.
template <int L>
PASSLAB_LANES_INLINE void addRowTimesBlock(const float* v, const float* block, int64_t K,
                                           float* out) {
  using F = typename Lanes<L>::F;
  constexpr int kWidth = L == 16 ? 64 : 32;
  constexpr int kAcc = kWidth / L;
  for (int64_t n = 0; n < kPackedColumns; n += kWidth) {
    F acc[kAcc];
    for (int a = 0; a < kAcc; ++a) acc[a] = load<L>(out + n + a * L);
    for (int64_t k = 0; k < K; ++k) {
      const F b = F{} + v[k];
      const float* row = block + k * kPackedColumns + n;
      for (int a = 0; a < kAcc; ++a) acc[a] += b * load<L>(row + a * L);
    }
    for (int a = 0; a < kAcc; ++a) store<L>(out + n + a * L, acc[a]);
  }
}

// Every block; the last, partial one through a padded copy of out.
template <int L>
PASSLAB_LANES_INLINE void addRowTimesPackedLanes(const float* v, const float* packed, int64_t K,
                                                 int64_t N, float* out) {
  int64_t n = 0;
  for (; n + kPackedColumns <= N; n += kPackedColumns)
    addRowTimesBlock<L>(v, packed + n * K, K, out + n);
  if (n == N) return;
  float tail[kPackedColumns] = {};
  std::memcpy(tail, out + n, sizeof(float) * static_cast<size_t>(N - n));
  addRowTimesBlock<L>(v, packed + n * K, K, tail);
  std::memcpy(out + n, tail, sizeof(float) * static_cast<size_t>(N - n));
}

__attribute__((target("avx512f"))) void rowsAvx512(const float* v, const float* packed, int64_t K,
                                                   int64_t N, float* out) {
  addRowTimesPackedLanes<16>(v, packed, K, N, out);
}

void rowsVec4(const float* v, const float* packed, int64_t K, int64_t N, float* out) {
  addRowTimesPackedLanes<4>(v, packed, K, N, out);
}

// y[j] += a[j] * b[j]
void addProduct(float* y, const float* a, const float* b, int64_t n) {
  for (int64_t j = 0; j < n; ++j) y[j] += a[j] * b[j];
}

// x within [-clip, clip].
void clampRow(float* x, int64_t n, float clip) {
  for (int64_t j = 0; j < n; ++j) x[j] = std::min(std::max(x[j], -clip), clip);
}

bool hasAvx512() {
  return cpu_isa::hasAvx512f();
}

}  // namespace

void lstmCell(float* gates, const LstmCellOptions& options, float* c, float* h, int64_t H) {
  float* i = gates;
  float* o = gates + H;
  float* f = gates + 2 * H;
  float* g = gates + 3 * H;
  const float* P = options.peepholes;
  const float clip = options.clip;
  // Without peepholes o does not wait for the new c: i, o and f as one row.
  if (P) {
    addProduct(i, P, c, H);
    addProduct(f, P + 2 * H, c, H);
  }
  if (clip > 0) clampRow(gates, P ? H : 3 * H, clip);
  if (clip > 0 && P) clampRow(f, H, clip);
  if (clip > 0) clampRow(g, H, clip);
  sigmoidRow(i, i, P ? H : 3 * H);
  if (P) sigmoidRow(f, f, H);
  if (options.inputForget)
    for (int64_t j = 0; j < H; ++j) f[j] = 1.0f - i[j];
  tanhRow(g, g, H);
  for (int64_t j = 0; j < H; ++j) c[j] = f[j] * c[j] + i[j] * g[j];
  if (P) {
    addProduct(o, P + H, c, H);
    if (clip > 0) clampRow(o, H, clip);
    sigmoidRow(o, o, H);
  }
  tanhRow(c, h, H);
  for (int64_t j = 0; j < H; ++j) h[j] *= o[j];
}

std::vector<float> packForRowTimes(const float* M, int64_t N, int64_t K) {
  const int64_t blocks = (N + kPackedColumns - 1) / kPackedColumns;
  std::vector<float> packed(static_cast<size_t>(blocks * K * kPackedColumns), 0.0f);
  for (int64_t n = 0; n < N; ++n) {
    float* col = packed.data() + (n / kPackedColumns) * K * kPackedColumns + n % kPackedColumns;
    const float* row = M + n * K;
    for (int64_t k = 0; k < K; ++k) col[k * kPackedColumns] = row[k];
  }
  return packed;
}

void unpackRowTimes(const float* packed, int64_t N, int64_t K, std::vector<float>& out) {
  for (int64_t n = 0; n < N; ++n) {
    const float* col = packed + (n / kPackedColumns) * K * kPackedColumns + n % kPackedColumns;
    for (int64_t k = 0; k < K; ++k) out.push_back(col[k * kPackedColumns]);
  }
}

void addRowTimesPacked(const float* v, const float* packed, int64_t K, int64_t N, float* out) {
  if (hasAvx512()) return rowsAvx512(v, packed, K, N, out);
  rowsVec4(v, packed, K, N, out);
}

const char* rowTimesPackedIsa() {
  return hasAvx512() ? "avx512" : "vec4";
}

bool addRowTimesPackedOn(std::string_view isa, const float* v, const float* packed, int64_t K,
                         int64_t N, float* out) {
  if (isa == "vec4") {
    rowsVec4(v, packed, K, N, out);
    return true;
  }
  if (isa == "avx512" && hasAvx512()) {
    rowsAvx512(v, packed, K, N, out);
    return true;
  }
  return false;
}

}  // namespace passlab::exec::cpu
