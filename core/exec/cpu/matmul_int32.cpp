#include "core/exec/cpu/matmul_int32.h"

#include <algorithm>
#include <string_view>
#include <vector>

#include "core/exec/cpu/narrow_signed_weights.h"
#include "core/exec/cpu/onednn_util.h"
#include "core/exec/cpu/qlinear_onednn_requantization.h"
#include "core/exec/parallel.h"
#include "core/support/cpu_isa.h"

namespace passlab::exec::cpu {

using dnnl::memory;
using ir::DataType;

struct Int32MatMul::Plan {
  Dims aDims, bDims;
  DataType aType = DataType::kUndefined, bType = DataType::kUndefined;
  int threads = 0;
  bool bInvariant = false;
  bool declined = false;
  MatMulShape shape;
  int32_t shift = 0;  // c: 128 for uint8 B (B' = B - 128), 0 for int8 B
  dnnl::matmul prim;
  memory::desc src, wei, dst;
  memory packed;  // an invariant 2-D B' in oneDNN's layout, filled on the first run
  bool packedReady = false;
  std::vector<int8_t> flipped;  // uint8 B as B - 128
  bool flippedReady = false;
  std::vector<int32_t> columnSums;  // [B's matrices, N]: the sums of B' over k
  bool sumsReady = false;
};

struct Int32MatMul::Held {
  Dims bDims;
  DataType bType = DataType::kUndefined;
  memory packed;
  std::vector<int32_t> columnSums;
};

namespace {

Dims withMatrix(Dims batch, int64_t rows, int64_t cols) {
  batch.push_back(rows);
  batch.push_back(cols);
  return batch;
}

template <class T>
int32_t rowSum(const T* a, int64_t k) {
  int32_t s = 0;
  for (int64_t i = 0; i < k; ++i) s += a[i];
  return s;
}

// sums[bm * N + n] = the sum over k of b[bm][k][n], for each of B's matrices.
void sumColumns(const int8_t* b, int64_t mats, int64_t K, int64_t N, std::vector<int32_t>& sums) {
  sums.assign(static_cast<size_t>(mats * N), 0);
  for (int64_t bm = 0; bm < mats; ++bm) {
    int32_t* s = sums.data() + bm * N;
    for (int64_t k = 0; k < K; ++k) {
      const int8_t* row = b + (bm * K + k) * N;
      for (int64_t n = 0; n < N; ++n) s[n] += row[n];
    }
  }
}

// o[n] += d[n] * r - z * col[n], wrapping: one row of the correction.
[[gnu::always_inline]] inline void correctRow(uint32_t* o, const uint32_t* d, const int32_t* col,
                                              uint32_t r, uint32_t z, int64_t n) {
  for (int64_t i = 0; i < n; ++i) o[i] += d[i] * r - z * static_cast<uint32_t>(col[i]);
}

// The baseline (SSE2) has no 32-bit multiply: the row where AVX2 or AVX-512 is.
#if defined(__x86_64__)
[[gnu::target("avx512f")]] void correctRowAvx512(uint32_t* o, const uint32_t* d, const int32_t* col,
                                                 uint32_t r, uint32_t z, int64_t n) {
  correctRow(o, d, col, r, z, n);
}
[[gnu::target("avx2")]] void correctRowAvx2(uint32_t* o, const uint32_t* d, const int32_t* col,
                                            uint32_t r, uint32_t z, int64_t n) {
  correctRow(o, d, col, r, z, n);
}
#endif
void correctRowSse2(uint32_t* o, const uint32_t* d, const int32_t* col, uint32_t r, uint32_t z,
                    int64_t n) {
  correctRow(o, d, col, r, z, n);
}

using CorrectRow = void (*)(uint32_t*, const uint32_t*, const int32_t*, uint32_t, uint32_t,
                            int64_t);

CorrectRow correctRowFor() {
#if defined(__x86_64__)
  if (cpu_isa::hasAvx512f()) return correctRowAvx512;
  if (cpu_isa::hasAvx2Fma()) return correctRowAvx2;
#endif
  return correctRowSse2;
}

}  // namespace

Int32MatMul::Int32MatMul() = default;
Int32MatMul::~Int32MatMul() = default;

std::optional<MatMulShape> Int32MatMul::prepare(const Tensor& a, const Tensor& b, bool bInvariant,
                                                int threads) {
  static const bool exact = qlinear::exactInt8DotProducts();
  if (!qlinear::isInt8(a.dtype()) || !qlinear::isInt8(b.dtype()) || a.rank() < 2 || b.rank() < 2 ||
      a.numel() == 0 || b.numel() == 0 || !(exact || narrowB(a, b, bInvariant)))
    return std::nullopt;
  if (!plan_ || plan_->aDims != a.dims() || plan_->bDims != b.dims() || plan_->aType != a.dtype() ||
      plan_->bType != b.dtype() || plan_->threads != threads || plan_->bInvariant != bInvariant) {
    plan_ = build(a, b, bInvariant, threads);
    if (!plan_->declined) {
      try {
        adoptHeld(*plan_);
      } catch (const dnnl::error&) {
        plan_->declined = true;
      }
    }
    if (!plan_->declined && !exact) qlinear::countNarrowWeightInt8Plan();
  }
  if (plan_->declined) return std::nullopt;
  // B's data was freed (holdsB): only a plan that took the held copy runs.
  if (b.dataFreed() && !(plan_->packedReady && plan_->sumsReady)) return std::nullopt;
  return plan_->shape;
}

// Without VNNI: uint8 A and a constant B whose B' is in [-64, 64]
// (narrow_signed_weights.h), decided once on B's data (a later plan may run
// after B was freed, held packed).
bool Int32MatMul::narrowB(const Tensor& a, const Tensor& b, bool bInvariant) {
  if (a.dtype() != DataType::kUInt8 || !bInvariant) return false;
  if (!narrowB_) {
    if (b.dataFreed()) return false;
    narrowB_ = qlinear::narrowSignedWeights(b);
  }
  return *narrowB_;
}

void Int32MatMul::adoptHeld(Plan& p) {
  if (!held_ || !p.bInvariant || !p.packed || held_->bDims != p.bDims || held_->bType != p.bType)
    return;
  if (held_->packed.get_desc() == p.packed.get_desc()) {
    p.packed = held_->packed;
  } else {
    dnnl::reorder(held_->packed, p.packed).execute(onednn::stream(), held_->packed, p.packed);
    onednn::stream().wait();
    held_->packed = p.packed;  // one packed copy, in the latest plan's layout
  }
  p.packedReady = true;
  p.columnSums = held_->columnSums;
  p.sumsReady = true;
}

bool Int32MatMul::holdsB() const {
  return plan_ && !plan_->declined && plan_->bInvariant && plan_->packed && plan_->packedReady &&
         plan_->sumsReady;
}

std::unique_ptr<Int32MatMul::Plan> Int32MatMul::build(const Tensor& a, const Tensor& b,
                                                      bool bInvariant, int threads) const {
  auto p = std::make_unique<Plan>();
  p->aDims = a.dims();
  p->bDims = b.dims();
  p->aType = a.dtype();
  p->bType = b.dtype();
  p->threads = threads;
  p->bInvariant = bInvariant;
  p->shift = b.dtype() == DataType::kUInt8 ? 128 : 0;
  Expected<MatMulShape> shape = matmulShape(a.dims(), b.dims());
  if (!shape) {
    p->declined = true;
    return p;
  }
  p->shape = *shape;
  const MatMulShape& s = p->shape;
  try {
    using tag = memory::format_tag;
    const auto s8 = memory::data_type::s8, s32 = memory::data_type::s32;
    dnnl::matmul::primitive_desc pd;
    if (b.rank() == 2) {
      // A's rows as one matrix; a constant B packed into oneDNN's layout.
      const int64_t rows = a.numel() / s.K;
      p->src = memory::desc({rows, s.K}, qlinear::int8Type(a.dtype()), tag::ab);
      p->wei = memory::desc({s.K, s.N}, s8, tag::ab);
      p->dst = memory::desc({rows, s.N}, s32, tag::ab);
      const memory::desc wei = bInvariant ? memory::desc({s.K, s.N}, s8, tag::any) : p->wei;
      pd = dnnl::matmul::primitive_desc(dnnl::matmul::desc(p->src, wei, p->dst), onednn::engine());
      if (bInvariant) p->packed = memory(pd.weights_desc(), onednn::engine());
    } else {
      const Dims src = withMatrix(s.aBatch, s.M, s.K), wei = withMatrix(s.bBatch, s.K, s.N),
                 dst = withMatrix(s.batch, s.M, s.N);
      const auto t = onednn::plainTag(dst.size());
      p->src = memory::desc(onednn::toDims(src), qlinear::int8Type(a.dtype()), t);
      p->wei = memory::desc(onednn::toDims(wei), s8, t);
      p->dst = memory::desc(onednn::toDims(dst), s32, t);
      pd = dnnl::matmul::primitive_desc(dnnl::matmul::desc(p->src, p->wei, p->dst),
                                        onednn::engine());
    }
    if (std::string_view(pd.impl_info_str()).starts_with("ref")) {
      p->declined = true;
      return p;
    }
    p->prim = dnnl::matmul(pd);
  } catch (const dnnl::error&) {
    p->declined = true;
  }
  return p;
}

const int8_t* Int32MatMul::signedB(const Tensor& b) {
  Plan& p = *plan_;
  if (p.shift == 0) return b.data<int8_t>();
  if (!p.flippedReady) {
    p.flipped.resize(static_cast<size_t>(b.numel()));
    const uint8_t* from = b.data<uint8_t>();
    int8_t* to = p.flipped.data();  // locals: the loop vectorizes
    const int64_t n = b.numel();
    for (int64_t i = 0; i < n; ++i) to[i] = static_cast<int8_t>(from[i] ^ 0x80u);
    p.flippedReady = p.bInvariant;
  }
  return p.flipped.data();
}

void Int32MatMul::compute(const Tensor& a, const Tensor& b, std::span<const int32_t> za,
                          std::span<const int32_t> zb, int threads, int32_t* out) {
  Plan& p = *plan_;
  const MatMulShape& s = p.shape;
  const bool needB = !p.sumsReady || !p.packedReady;
  const int8_t* bs = needB ? signedB(b) : nullptr;
  if (!p.sumsReady) {
    sumColumns(bs, b.numel() / (s.K * s.N), s.K, s.N, p.columnSums);
    p.sumsReady = p.bInvariant;
  }
  memory wei;
  if (p.packed) {
    if (!p.packedReady) {
      memory user(p.wei, onednn::engine(), const_cast<int8_t*>(bs));
      dnnl::reorder(user, p.packed).execute(onednn::stream(), user, p.packed);
      onednn::stream().wait();
      p.packedReady = true;
      std::vector<int8_t>().swap(p.flipped);  // the packed copy and the sums serve from now
      p.flippedReady = false;
      if (p.sumsReady)
        held_ = std::make_shared<Held>(Held{p.bDims, p.bType, p.packed, p.columnSums});
    }
    wei = p.packed;
  } else {
    wei = memory(p.wei, onednn::engine(), const_cast<int8_t*>(bs));
  }
  dnnl::stream& st = onednn::stream();
  p.prim.execute(st, {{DNNL_ARG_SRC, onednn::over(p.src, a)},
                      {DNNL_ARG_WEIGHTS, wei},
                      {DNNL_ARG_DST, memory(p.dst, onednn::engine(), out)}});
  st.wait();
  correct(a, za, zb, threads, out);
}

// out += (c - zb[n]) * (rowsum(A) - K za[m]) - za[m] * columnSums[n], wrapping.
void Int32MatMul::correct(const Tensor& a, std::span<const int32_t> za, std::span<const int32_t> zb,
                          int threads, int32_t* out) const {
  const Plan& p = *plan_;
  const MatMulShape& s = p.shape;
  const int64_t M = s.M, K = s.K, N = s.N;
  std::vector<uint32_t> d(static_cast<size_t>(N));
  bool anyD = false, anyZa = false;
  for (int64_t n = 0; n < N; ++n) {
    d[static_cast<size_t>(n)] =
        static_cast<uint32_t>(p.shift - zb[zb.size() == 1 ? 0 : static_cast<size_t>(n)]);
    anyD |= d[static_cast<size_t>(n)] != 0;
  }
  for (int32_t z : za) anyZa |= z != 0;
  if (!anyD && !anyZa) return;
  const bool signedA = a.dtype() == DataType::kInt8;
  static const CorrectRow row = correctRowFor();
  parallelFor(s.batchCount() * M, threads, std::max<int64_t>(1, 16384 / (N + K)),
              [&](int64_t begin, int64_t end) {
                for (int64_t j = begin; j < end; ++j) {
                  const int64_t bi = j / M, m = j % M;
                  const int64_t aRow = s.aMats[static_cast<size_t>(bi)] * M + m;
                  const auto z = static_cast<uint32_t>(za[za.size() == 1 ? 0 : m]);
                  const int32_t sum = signedA ? rowSum(a.data<int8_t>() + aRow * K, K)
                                              : rowSum(a.data<uint8_t>() + aRow * K, K);
                  const uint32_t r = static_cast<uint32_t>(sum) - static_cast<uint32_t>(K) * z;
                  const int32_t* col = p.columnSums.data() + s.bMats[static_cast<size_t>(bi)] * N;
                  row(reinterpret_cast<uint32_t*>(out + j * N), d.data(), col, r, z, N);
                }
              });
}

std::optional<std::vector<int32_t>> int8ZeroPoints(const KernelContext& ctx, size_t i,
                                                   DataType type, int64_t count) {
  if (!ctx.has(i)) return std::vector<int32_t>{0};
  const Tensor& z = ctx.input(i);
  if (z.dtype() != type || (z.numel() != 1 && z.numel() != count)) return std::nullopt;
  std::vector<int32_t> v(static_cast<size_t>(z.numel()));
  for (int64_t k = 0; k < z.numel(); ++k) v[static_cast<size_t>(k)] = qlinear::int8At(z, k);
  return v;
}

}  // namespace passlab::exec::cpu
