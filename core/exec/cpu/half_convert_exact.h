// Bulk float16 <-> float32 conversion with the exact bits of the scalar
// conversions of dtype_traits.h (halfToFloatFast / floatToHalfFast), NaNs
// included: F16C/AVX-512 where the CPU has them, the scalar loop otherwise.
// Cast uses these; half_convert.h's (NaN payloads may differ) serve the
// kernels that compute in float.
#pragma once

#include <cstdint>

namespace passlab::exec::cpu {

void halfToFloatExactN(const uint16_t* in, float* out, int64_t n);
void floatToHalfExactN(const float* in, uint16_t* out, int64_t n);

}  // namespace passlab::exec::cpu
