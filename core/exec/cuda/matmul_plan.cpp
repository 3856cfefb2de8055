#include "core/exec/cuda/matmul_plan.h"

#include <algorithm>
#include <string_view>

#include "core/exec/broadcast.h"
#include "core/exec/cpu/matmul_shape.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cuda {

LtGemm rowMajorGemm(int64_t M, int64_t N, int64_t K, bool transA, bool transB) {
  auto u = [](int64_t v) { return static_cast<uint64_t>(std::max<int64_t>(v, 0)); };
  auto ld = [](int64_t v) { return std::max<int64_t>(v, 1); };
  LtGemm g;
  g.m = u(N);
  g.n = u(M);
  g.k = u(K);
  // Our B: stored [K,N] row-major = column-major [N,K], ld N; already op(B)ᵀ.
  // Stored [N,K] (transB) = column-major [K,N], ld K; transposed by cuBLASLt.
  g.first = transB ? LtOperand{u(K), u(N), ld(K), true} : LtOperand{u(N), u(K), ld(N), false};
  // Our A: stored [M,K] = column-major [K,M], ld K; stored [K,M] (transA) =
  // column-major [M,K], ld M, transposed.
  g.second = transA ? LtOperand{u(M), u(K), ld(M), true} : LtOperand{u(K), u(M), ld(K), false};
  g.out = LtOperand{u(N), u(M), ld(N), false};
  return g;
}

Expected<GemmDims> gemmDims(const Dims& a, const Dims& b, bool transA, bool transB) {
  if (a.size() != 2 || b.size() != 2)
    return invalidArgument("Gemm needs 2-D A and B (got " + dimsToString(a) + " and " +
                           dimsToString(b) + ")");
  GemmDims d;
  d.M = transA ? a[1] : a[0];
  d.K = transA ? a[0] : a[1];
  const int64_t kb = transB ? b[1] : b[0];
  d.N = transB ? b[0] : b[1];
  if (kb != d.K)
    return invalidArgument("Gemm inner dimensions differ (" + dimsToString(a) + ", " +
                           dimsToString(b) + ")");
  return d;
}

Expected<FusedGemmDims> fusedGemmDims(const Dims& a, const Dims& b, bool transA, bool transB,
                                      const Dims* c, const Dims* z) {
  if (a.size() < 2 || b.size() != 2)
    return invalidArgument("FusedGemm needs A of rank >= 2 and a 2-D B (got " + dimsToString(a) +
                           " and " + dimsToString(b) + ")");
  if (transA && a.size() != 2)
    return invalidArgument("transA needs a 2-D A (got " + dimsToString(a) + ")");
  FusedGemmDims s;
  s.K = transA ? a[0] : a.back();
  if (transA) {
    s.R = a[1];
  } else {
    s.R = 1;
    for (size_t i = 0; i + 1 < a.size(); ++i) s.R *= a[i];
  }
  const int64_t kb = transB ? b[1] : b[0];
  s.N = transB ? b[0] : b[1];
  if (kb != s.K)
    return invalidArgument("FusedGemm inner dimensions differ: A " + dimsToString(a) + ", B " +
                           dimsToString(b));
  if (transA) {
    s.out = {s.R, s.N};
  } else {
    s.out.assign(a.begin(), a.end() - 1);
    s.out.push_back(s.N);
  }
  if (c) {
    auto bc = broadcastShapes(*c, s.out);
    if (!bc || *bc != s.out)
      return invalidArgument("C " + dimsToString(*c) + " does not broadcast to the output's shape");
  }
  if (z && *z != s.out)
    return invalidArgument("residual Z " + dimsToString(*z) + " does not have the output's shape");
  return s;
}

AddendKind classifyAddend(const Dims& c, const Dims& out) {
  // Leading 1s change neither the element order nor the broadcast.
  size_t first = 0;
  while (first < c.size() && c[first] == 1 && c.size() - first > out.size()) ++first;
  Dims cd(c.begin() + static_cast<std::ptrdiff_t>(first), c.end());
  Dims padded(out.size() - std::min(out.size(), cd.size()), 1);
  padded.insert(padded.end(), cd.begin(), cd.end());
  if (padded == out) return AddendKind::kFull;
  if (!out.empty() && !padded.empty() && padded.back() == out.back() &&
      numelOf(padded) == out.back())
    return AddendKind::kRowVector;
  return AddendKind::kOther;
}

Expected<MatMulPlan> matmulPlan(const Dims& aIn, const Dims& bIn, bool transA, bool transB) {
  Dims a = aIn, b = bIn;
  if (transA && a.size() >= 2) std::swap(a[a.size() - 1], a[a.size() - 2]);
  if (transB && b.size() >= 2) std::swap(b[b.size() - 1], b[b.size() - 2]);
  PASSLAB_ASSIGN_OR_RETURN(cpu::MatMulShape s, cpu::matmulShape(a, b));
  MatMulPlan p;
  p.out = s.out;
  p.M = s.M;
  p.N = s.N;
  p.K = s.K;
  p.rows = s.M;
  const int64_t count = s.batchCount();
  if (count == 0 || s.M == 0 || s.N == 0) return p;

  const size_t rank = s.batch.size();
  const bool bShared =
      std::all_of(s.bBatch.begin(), s.bBatch.end(), [](int64_t d) { return d == 1; });
  if (bShared && !(transA && aIn.size() >= 2)) {
    // A's batches are consecutive [M, K] matrices: one product of batch*M rows.
    p.rows = count * s.M;
    p.calls.push_back({0, 0, 0});
    return p;
  }

  // The innermost batch dims over which each operand either moves by one
  // matrix or stays (broadcast): one strided batch; the rest is a loop.
  enum Move { kUnknown, kStay, kStep };
  Move ma = kUnknown, mb = kUnknown;
  size_t split = rank;  // batch dims [split, rank) are the strided batch
  int64_t inner = 1;
  while (split > 0) {
    const size_t d = split - 1;
    if (s.batch[d] != 1) {
      const Move da = s.aBatch[d] == 1 ? kStay : kStep;
      const Move db = s.bBatch[d] == 1 ? kStay : kStep;
      if ((ma != kUnknown && da != ma) || (mb != kUnknown && db != mb)) break;
      ma = da;
      mb = db;
      if (inner > (int64_t{1} << 30) / s.batch[d]) break;  // cuBLASLt's batch count is an int32
      inner *= s.batch[d];
    }
    --split;
  }
  p.inner = inner;
  p.aStride = ma == kStep ? 1 : 0;
  p.bStride = mb == kStep ? 1 : 0;
  const std::vector<int64_t> sa = broadcastStrides(s.aBatch, s.batch);
  const std::vector<int64_t> sb = broadcastStrides(s.bBatch, s.batch);
  const int64_t outer = count / inner;
  p.calls.reserve(static_cast<size_t>(outer));
  for (int64_t o = 0; o < outer; ++o) {
    // o indexes the dims [0, split); its first inner batch is o * inner.
    int64_t rest = o, oa = 0, ob = 0;
    for (size_t d = split; d-- > 0;) {
      const int64_t idx = rest % s.batch[d];
      rest /= s.batch[d];
      oa += idx * sa[d];
      ob += idx * sb[d];
    }
    p.calls.push_back({oa, ob, o * inner});
  }
  return p;
}

uint32_t ltAlignment(uintptr_t address, int64_t strideBytes) {
  uint32_t align = 256;
  while (align > 1 && (address % align) != 0) align /= 2;
  if (strideBytes != 0)
    while (align > 1 && (static_cast<uint64_t>(strideBytes) % align) != 0) align /= 2;
  return align;
}

EpilogueMode parseEpilogueMode(const char* value) {
  std::string_view v = value ? value : "";
  if (v == "on" || v == "1") return EpilogueMode::kOn;
  if (v == "off" || v == "0") return EpilogueMode::kOff;
  return EpilogueMode::kAuto;
}

bool useLtEpilogue(EpilogueMode mode) {
  return mode != EpilogueMode::kOff;  // auto: on until measured per GPU
}

}  // namespace passlab::exec::cuda
