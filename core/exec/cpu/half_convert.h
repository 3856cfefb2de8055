// Bulk float16 <-> float32 conversion: F16C instructions when the CPU has
// them (chosen at run time; the build targets baseline x86-64), else the
// portable conversions of dtype_traits.h. Round to nearest even either way;
// NaN payloads may differ.
#pragma once

#include <cstdint>

namespace passlab::exec::cpu {

void halfToFloatN(const uint16_t* in, float* out, int64_t n);
void floatToHalfN(const float* in, uint16_t* out, int64_t n);

}  // namespace passlab::exec::cpu
