// Launch functions of the elementwise CUDA kernels (elementwise.cu,
// elementwise_binary.cu). Plain types only, no PassLab headers: element types
// and operators are ints of the enums below; each function queues its work on
// `stream` and returns the cudaError_t of the launch (0 = queued).
#pragma once

#include <cstdint>

typedef struct CUstream_st* cudaStream_t;

namespace passlab::exec::cuda::ew {

// Element types of the elementwise kernels (storage on the device).
enum class ElemType : int {
  kFloat32 = 0,  // same values as LaunchFloat / device::FloatType
  kFloat16 = 1,
  kBFloat16 = 2,
  kInt32 = 3,
  kInt64 = 4,
  kInt8 = 5,
  kUInt8 = 6,
  kBool = 7,
};

// Unary float operators (float32, float16, bfloat16; computed in float).
enum class UnaryOp : int {
  kRelu,
  kSigmoid,
  kTanh,
  kExp,
  kLog,
  kSqrt,
  kNeg,
  kAbs,
  kReciprocal,
  kErf,
  kFloor,
  kCeil,
  kRound,
  kSign,
  kSin,
  kCos,
  kTan,
  kAsin,
  kAcos,
  kAtan,
  kSinh,
  kCosh,
  kAsinh,
  kAcosh,
  kAtanh,
  kSoftplus,
  kSoftsign,
  kHardSigmoid,  // alpha, beta
  kHardSwish,
  kLeakyRelu,        // alpha
  kElu,              // alpha
  kSelu,             // alpha, gamma (beta)
  kCelu,             // alpha
  kThresholdedRelu,  // alpha
  kMish,
  kGeluErf,
  kGeluTanh,
  kClip,  // lo = alpha, hi = beta
};

// Binary operators. Arithmetic: a op b in the operands' type (float types in
// float); comparisons give bool; logic takes bool.
enum class BinaryOp : int {
  kAdd,
  kSub,
  kMul,
  kDiv,
  kMax,
  kMin,
  kPow,    // base of a float type, exponent of any ElemType but bool
  kPRelu,  // a < 0 ? b * a : a
  kEqual,
  kLess,
  kLessOrEqual,
  kGreater,
  kGreaterOrEqual,
  kAnd,
  kOr,
  kXor,
  kMeanFinish,  // (a + b) / count: the last step of Mean
};

// Output index -> operand offsets of a broadcast (see elementwise_plan.h):
// the output's dims collapsed (size-1 dims dropped, neighbours contiguous for
// every operand merged) and each operand's element strides along them (0
// where it is broadcast). rank 1 with strides 1 or 0 is the fast path.
inline constexpr int kMaxRank = 8;
inline constexpr int kMaxOperands = 3;
struct BroadcastIndex {
  int rank = 1;
  int64_t dims[kMaxRank] = {1};
  int64_t strides[kMaxOperands][kMaxRank] = {};
};

// y[i] = op(x[i]) for n elements of float type `type`.
int launchUnary(UnaryOp op, ElemType type, const void* x, void* y, int64_t n, float alpha,
                float beta, cudaStream_t stream);

// y[i] = !x[i] on bool.
int launchNot(const void* x, void* y, int64_t n, cudaStream_t stream);

// y[i] = op(a[offA(i)], b[offB(i)]) for the n output elements; a has `typeA`,
// b `typeB` (typeA except for kPow), y typeA or bool for comparisons. `count`
// is Mean's divisor (kMeanFinish).
int launchBinary(BinaryOp op, ElemType typeA, ElemType typeB, const void* a, const void* b, void* y,
                 const BroadcastIndex& index, int64_t n, int count, cudaStream_t stream);

// out[i] = cond[offC(i)] ? x[offX(i)] : y[offY(i)] for elements of `elemBytes`
// bytes (1, 2, 4 or 8): operands 0, 1, 2 of `index` are cond, x, y.
int launchWhere(int elemBytes, const void* cond, const void* x, const void* y, void* out,
                const BroadcastIndex& index, int64_t n, cudaStream_t stream);

// y[i] = x[i] converted from `from` to `to` (floats to integers truncate toward
// zero, NaN and values beyond 64 bits give 0, then wrap to the target width;
// numbers to bool as x != 0).
int launchCast(ElemType from, ElemType to, const void* x, void* y, int64_t n, cudaStream_t stream);

}  // namespace passlab::exec::cuda::ew
