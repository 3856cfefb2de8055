// The range DynamicQuantizeLinear quantizes over: the minimum and maximum of
// a float32 tensor extended to contain 0, and whether it holds a NaN. One
// contract for the kernels that compute it: DynamicQuantizeLinear scanning
// its input (quantize.cpp) and FusedConvInteger taking it in its epilogue
// while the values are in registers (passlab_fused_conv_integer.cpp, its
// output `range`, read by ai.passlab RangedDynamicQuantizeLinear). The
// scale and zero point DynamicQuantizeLinear derives depend on the values of
// min and max only (not on the sign of a zero, nor on the order the elements
// were compared in), so every such range gives the same bytes.
#pragma once

#include <cstdint>

namespace passlab::exec::cpu {

struct ValueRange {
  float min = 0, max = 0;  // min <= 0 <= max
  bool nan = false;
};

// The range of p[0..n), 0 included.
ValueRange rangeWithZero(const float* p, int64_t n);

// a and b together.
ValueRange mergeRanges(const ValueRange& a, const ValueRange& b);

// The 2-float encoding of FusedConvInteger's `range` output: {min, max}, or
// {NaN, NaN} when the values held a NaN.
void storeRange(const ValueRange& r, float* out);
ValueRange loadRange(const float* in);

}  // namespace passlab::exec::cpu
