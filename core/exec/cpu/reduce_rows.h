// Float32 rows for the Reduce* kernels (reduce.cpp): sums of x, x^2 or |x|
// in double lanes (each float widened exactly, so only the order of the
// additions differs from an element-by-element double sum), and the largest
// or smallest element in float lanes (exact; NaN wins, as in the reference
// loop). Contiguous rows reduce to one value; strided reductions add a row
// into a row of accumulators. AVX-512 chosen at run time (cpu_isa.h, so
// PASSLAB_MAX_ISA caps it), portable lanes otherwise. The scalar double loop
// ran at one add per 4 cycles: ReduceMean over 112x112 planes 7x slower
// than onnxruntime (session 26).
#pragma once

#include <cstdint>
#include <string_view>

namespace passlab::exec::cpu {

enum class RowOp { kNone, kSum, kSumSquare, kAbsSum, kMax, kMin };

// kSum, kSumSquare, kAbsSum: the sum over x[0, n) of x, x^2 or |x| (0 when n
// is 0). kMax, kMin: the largest or smallest element (NaN when one is NaN;
// -inf or +inf when n is 0).
double reduceRowF32(RowOp op, const float* x, int64_t n);

// acc[i] += x[i], x[i]^2 or |x[i]| (op kSum, kSumSquare, kAbsSum), i in [0, n).
void addRowF32(RowOp op, const float* x, double* acc, int64_t n);

// addRowF32 for rows x + r * stride, r in [0, rows), one after another (the
// same additions in the same order, so the same bits), with up to 64
// accumulators held in registers across the rows: a reduction over many
// positions of few channels (channels-last GlobalAveragePool as ReduceMean)
// no longer loads and stores them once per row.
void addRowsF32(RowOp op, const float* x, int64_t rows, int64_t stride, double* acc, int64_t n);

// acc[i] = max or min of acc[i] and x[i] (op kMax, kMin); a NaN in either stays.
void extremeRowF32(RowOp op, const float* x, float* acc, int64_t n);

// Test hooks: one path ("avx512", "lanes"); false when this machine lacks
// that instruction set (or the name is unknown).
bool reduceRowF32On(std::string_view isa, RowOp op, const float* x, int64_t n, double* out);
bool addRowF32On(std::string_view isa, RowOp op, const float* x, double* acc, int64_t n);
bool addRowsF32On(std::string_view isa, RowOp op, const float* x, int64_t rows, int64_t stride,
                  double* acc, int64_t n);
bool extremeRowF32On(std::string_view isa, RowOp op, const float* x, float* acc, int64_t n);

}  // namespace passlab::exec::cpu
