// The exact QLinearSqueezeExcite's 256-bit paths (passlab_squeeze_excite_exact.cpp)
// for CPUs with AVX2 and FMA but no AVX-512 BW (Haswell to Zen 3, Alder Lake):
// the same operations as the plain loops and the AVX-512 forms, so the same
// bytes. Callers ask cpu_isa::hasAvx2Fma() (and hasAvxVnni() for `vnni`).
#pragma once

#include <cstdint>

#include "core/exec/cpu/squeeze_excite_exact_gate.h"
#include "core/exec/cpu/squeeze_excite_exact_scale.h"

namespace passlab::exec::cpu::squeeze_excite::avx2 {

#if defined(__x86_64__)
// h = table[x ^ flip] and acc[c] += h in double, 8 to 32 channels at a
// time down all the rows: each channel's additions row after row, as
// squeezeRows.
void squeezeRows(const uint8_t* x, int64_t rows, int64_t c, uint8_t flip, const float* table,
                 float* h, double* acc);

// gateConv (squeeze_excite_exact_gate.h) 8 outputs at a time: int32 sums by
// vpmaddwd on int16-widened bytes (exact for any weights), or with `vnni`
// by AVX-VNNI's vpdpbusd; the reference's requantization in double.
void gateConv(const GateWeights& w, const uint8_t* in, int32_t zin, const int32_t* bias,
              const GateOutput& o, bool vnni, uint8_t* out);

// scaleRows' division-free form (squeeze_excite_exact_scale.cpp, plan.fast)
// for elements [begin, end): 32 at a time, then 8.
template <class Q>
void scaleFast(const float* h, int64_t begin, int64_t end, int64_t c, const float* s,
               const Quant& q, const ScalePlan& p, Q* y);
#endif

}  // namespace passlab::exec::cpu::squeeze_excite::avx2
