// Softmax and LogSoftmax of float32 along one axis on vector rows: the
// maximum, exp(x - max) on expRow (sigmoid_rows.h), the sum, then
//   Softmax:    y = e * (1 / sum)
//   LogSoftmax: y = x - (log(sum) + max)
// the reference loop's formulas (softmax.cpp); only exp (within 4 ulp of
// exact) and the order of the sum differ. NaN anywhere in a row makes the
// whole row NaN, as in the reference; y may be x (in place).
#pragma once

#include <cstdint>
#include <string_view>

namespace passlab::exec::cpu {

// Scratch floats softmaxRow needs for a row of n values: none since
// LogSoftmax takes the sum of the exps without storing them.
inline int64_t softmaxRowScratch(int64_t n) {
  return 0;
}

// One row of n contiguous values.
void softmaxRow(const float* x, float* y, int64_t n, bool log, float* scratch);

// Test hook: the row on one instruction set's loops ("avx512", "avx2",
// "sse2"; exp on the same one's); false when this machine lacks it.
bool softmaxRowOn(std::string_view isa, const float* x, float* y, int64_t n, bool log,
                  float* scratch);

// Rows at most this long go through softmaxShortRows in the kernel: a row
// call's fixed cost (the maximum, exp and final pass each on a vector tail)
// outweighs its few values, e.g. ultraface's [1, 4420, 2] scores.
constexpr int64_t kSoftmaxShortRowMax = 15;

// Scratch floats softmaxShortRows needs for `rows` rows of n.
inline int64_t softmaxShortRowsScratch(int64_t rows, int64_t n) {
  return rows * n;
}

// `rows` contiguous rows of n values each (n small): the maxima one row at a
// time, then exp(x - max) over the whole block on vector rows (expRow), the
// sums in order along each row, and the row form's final pass. With AVX2
// (n <= 15) every value equals softmaxRow's bit for bit (the same exp, the
// same order of the sum); on the other paths the sum may round differently.
void softmaxShortRows(const float* x, float* y, int64_t rows, int64_t n, bool log, float* scratch);

// Scratch floats softmaxColumns needs for `columns` columns.
inline int64_t softmaxColumnsScratch(int64_t columns) {
  return 3 * columns;
}

// Columns [c0, c1) of one block [len, inner] whose axis is the slow one (row
// i of the block starts at i * inner): each column is one softmax, computed
// for all the columns together along contiguous rows.
void softmaxColumns(const float* x, float* y, int64_t len, int64_t inner, int64_t c0, int64_t c1,
                    bool log, float* scratch);

}  // namespace passlab::exec::cpu
