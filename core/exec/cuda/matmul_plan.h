// Host-side planning of the cuBLASLt matrix products (matmul_cublaslt.cpp):
// pure functions of dims and attributes, unit-tested without a GPU
// (tests/core/exec/cuda/matmul_plan_test.cpp).
//
// Row-major on a column-major library. PassLab's tensors are row-major;
// cuBLASLt describes matrices column-major. A row-major [R, C] matrix read
// column-major is its transpose [C, R] with leading dimension C, so no data
// moves if we compute the transpose of the product instead:
//
//   Y[M,N] = op(A)[M,K] * op(B)[K,N]   (row-major)
//   Yᵀ[N,M] = op(B)ᵀ[N,K] * op(A)ᵀ[K,M] (column-major: what cuBLASLt computes)
//
// cuBLASLt's first operand ("A" in its API) is our B, its second ("B") is
// our A, with m = N, n = M, k = K; a transposed operand of ours is a
// transposed operand of its. D (and C) are column-major [N, M], ld = N. The
// epilogue's bias vector runs along D's rows (length m = N): it is a ROW
// vector of our Y, broadcast over Y's M rows — what Gemm's C = [N] is.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/exec/tensor.h"
#include "core/support/error.h"

namespace passlab::exec::cuda {

// One matrix as cuBLASLt's layout takes it: stored rows x cols, column-major,
// leading dimension ld; `trans` = CUBLAS_OP_T in the matmul descriptor.
struct LtOperand {
  uint64_t rows = 0, cols = 0;
  int64_t ld = 1;
  bool trans = false;
  bool operator==(const LtOperand&) const = default;
};

// A row-major product as one column-major cuBLASLt call (above).
struct LtGemm {
  uint64_t m = 0, n = 0, k = 0;  // m = N, n = M, k = K
  LtOperand first;               // cuBLASLt's A: our B
  LtOperand second;              // cuBLASLt's B: our A
  LtOperand out;                 // C and D: N x M, ld N
  bool operator==(const LtGemm&) const = default;
};

// Y[M,N] = op(A) op(B), A stored [M,K] ([K,M] with transA), B stored [K,N]
// ([N,K] with transB), all row-major and dense.
LtGemm rowMajorGemm(int64_t M, int64_t N, int64_t K, bool transA, bool transB);

// Gemm: A and B 2-D. Errors as the CPU kernel words them.
struct GemmDims {
  int64_t M = 0, N = 0, K = 0;
};
Expected<GemmDims> gemmDims(const Dims& a, const Dims& b, bool transA, bool transB);

// ai.passlab FusedGemm (core/ir/passlab_ops.h): A [..., M, K] (rank >= 2;
// transA only for rank 2), B 2-D; the leading dims of A are rows of one
// product Y[R, N] (R = product of A's dims but the last); C broadcasts
// unidirectionally to `out`, Z has `out`'s dims. c / z may be null.
struct FusedGemmDims {
  int64_t R = 0, N = 0, K = 0;
  Dims out;
};
Expected<FusedGemmDims> fusedGemmDims(const Dims& a, const Dims& b, bool transA, bool transB,
                                      const Dims* c, const Dims* z);

// How an addend C (already checked to broadcast to `out`) joins the product.
enum class AddendKind {
  kFull,       // C has out's elements in out's order: cuBLASLt's C matrix
  kRowVector,  // N values broadcast over the rows: the epilogue's bias
  kOther,      // scalar, column, ...: the separate epilogue kernel
};
AddendKind classifyAddend(const Dims& c, const Dims& out);

// MatMul (numpy semantics) as cuBLASLt calls. Each call is a strided batch of
// `inner` products [rows, K] x [K, N]; operand strides are 0 (the same matrix
// for the whole batch: broadcast) or 1 matrix. When B is one matrix for every
// batch (a 2-D B, or all its batch dims 1) and A is not transposed, the
// batches fold into the rows: one product [batch*M, K] x [K, N].
struct MatMulCall {
  int64_t aMat = 0, bMat = 0, yMat = 0;  // index of each operand's first matrix
};
struct MatMulPlan {
  Dims out;
  int64_t M = 0, N = 0, K = 0;
  int64_t rows = 0;                  // M, or batch * M when folded
  int64_t inner = 1;                 // products per call (strided batch)
  int64_t aStride = 0, bStride = 0;  // in matrices: 0 or 1
  std::vector<MatMulCall> calls;     // empty when Y is empty
};
// `a`, `b`: the operands' dims as stored. transA / transB (com.microsoft
// FusedMatMul) transpose the last two dims of an operand of rank >= 2.
Expected<MatMulPlan> matmulPlan(const Dims& a, const Dims& b, bool transA = false,
                                bool transB = false);

// The largest power of two (at most 256) dividing `address` and, when
// nonzero, `strideBytes`: what cuBLASLt's MIN_ALIGNMENT preferences are told.
uint32_t ltAlignment(uintptr_t address, int64_t strideBytes = 0);

// PASSLAB_CUDA_GEMM_EPILOGUE: whether a cuBLASLt epilogue (bias, ReLU, GELU)
// carries out FusedGemm's / Gemm's addend and activation, or a separate kernel
// does. "auto" (the default, and anything unrecognized) is "on" for now,
// until both are measured on a GPU and auto decides per GPU.
enum class EpilogueMode { kAuto, kOn, kOff };
EpilogueMode parseEpilogueMode(const char* value);
bool useLtEpilogue(EpilogueMode mode);

}  // namespace passlab::exec::cuda
