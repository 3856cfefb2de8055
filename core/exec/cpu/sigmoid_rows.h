// Sigmoid, Tanh and Exp over a float32 row: y = 1 / (1 + exp(-x)),
// y = tanh(x) and y = exp(x), vectorized for AVX-512 and AVX2 + FMA (chosen at
// run time) and on 4 lanes otherwise (the build's baseline is SSE2). One
// place for the kernels that need them: the Sigmoid and Exp operators, Softmax
// (softmax_rows.h), fused epilogues, recurrent gates.
//
// Accuracy (tests/core/exec/sigmoid_rows_test.cpp, against double): within
// 4 ulp on every path over the whole float range, including the subnormal
// results of Sigmoid below x = -87 and of Exp below x = -87.3; Sigmoid(+inf)
// = 1, Sigmoid(-inf) = 0, Tanh(+-inf) = +-1, Exp(-inf) = 0, Exp above
// ln(FLT_MAX) = +inf, NaN stays NaN; Tanh keeps the sign of -0. Results may
// differ by an ulp or two between the paths (FMA), never by more.
#pragma once

#include <cstdint>
#include <string_view>

namespace passlab::exec::cpu {

// y[i] = 1 / (1 + exp(-x[i])) for i in [0, n). y may be x (in place).
void sigmoidRow(const float* x, float* y, int64_t n);

// y[i] = tanh(x[i]) for i in [0, n). y may be x (in place).
void tanhRow(const float* x, float* y, int64_t n);

// y[i] = exp(x[i]) for i in [0, n). y may be x (in place).
void expRow(const float* x, float* y, int64_t n);

// y[i] = exp(x[i] - shift) for i in [0, n); returns the sum of the y[i]
// (float32, in lanes, then across them). y may be x, or null: only the sum
// (the same sum; LogSoftmax). Softmax's core.
float expShiftedSumRow(const float* x, float shift, float* y, int64_t n);

// The instruction set these use on this machine: "avx512", "avx2" or "sse2".
const char* sigmoidRowsIsa();

// Test hook: one path ("avx512", "avx2", "sse2"); false when this machine
// lacks that instruction set (or the name is unknown).
bool sigmoidRowOn(std::string_view isa, const float* x, float* y, int64_t n);
bool tanhRowOn(std::string_view isa, const float* x, float* y, int64_t n);
bool expRowOn(std::string_view isa, const float* x, float* y, int64_t n);
bool expShiftedSumRowOn(std::string_view isa, const float* x, float shift, float* y, int64_t n,
                        float* sum);

}  // namespace passlab::exec::cpu
