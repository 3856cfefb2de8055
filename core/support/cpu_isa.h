// The x86 instruction sets PassLab's own CPU kernels may use: what this CPU
// has, capped by the environment variable PASSLAB_MAX_ISA (avx512, avx512core,
// avx2vnni, avx2 or sse2; unset: no cap), read once per process. The cap runs
// the paths that CPUs with less take on a machine that has more: avx512core is
// AVX-512 F/BW/VL/DQ without VBMI or VNNI (Skylake-SP's set, so no AVX-VNNI
// either), avx2vnni AVX2 with AVX-VNNI's 256-bit vpdpbusd and no AVX-512 (Alder
// Lake's set), avx2 and sse2 no AVX-512 and no VNNI (the isa_avx512core /
// isa_avx2vnni / isa_avx2 / isa_sse2 ctests). oneDNN is capped to match
// (avx512core -> AVX512_CORE, avx2vnni -> AVX2_VNNI, avx2 -> AVX2, sse2 ->
// SSE41, its lowest) unless ONEDNN_MAX_CPU_ISA is set
// (core/exec/cpu/onednn_util.cpp). Every run-time dispatch in core asks here,
// never __builtin_cpu_supports directly.
#pragma once

namespace passlab::cpu_isa {

// Ordered: a level allows what every lower one does, except that avx512core
// (Skylake-SP) has no AVX-VNNI although avx2vnni is below it.
enum class IsaLevel { kSse2 = 0, kAvx2 = 1, kAvx2Vnni = 2, kAvx512Core = 3, kAvx512 = 4 };

// The cap PASSLAB_MAX_ISA names (kAvx512 when unset; an unknown value is
// warned about once and ignored).
IsaLevel maxIsa();
const char* isaName(IsaLevel level);

// Each true when the CPU has the features and the cap allows their level.
bool hasAvx512f();     // AVX-512 core level
bool hasAvx512BwVl();  // avx512f + bw + vl, AVX-512 core level
bool hasAvx512Vbmi();  // avx512f + bw + vbmi, AVX-512 (full) level
bool hasAvx512Vnni();  // avx512f + bw + vl + vnni, AVX-512 (full) level
bool hasAvx2Fma();     // avx2 + fma, AVX2 level
bool hasAvxVnni();     // avx2 + fma + avxvnni (256-bit vpdpbusd), avx2vnni or avx512 level
bool hasF16c();        // avx + f16c, AVX2 level

}  // namespace passlab::cpu_isa
