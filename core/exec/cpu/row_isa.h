// The run-time choice of the row kernels with three paths (erf_rows,
// trig_rows, gemv_rows, sigmoid_rows, softmax_rows): AVX-512, AVX2 + FMA, and
// a base path every x86-64 CPU runs (scalar code or SSE2 lanes; each file
// names its own: "scalar" or "sse2"). One contract for all of them:
//   - the path a row takes by itself is detectedRowIsa(): AVX-512 when
//     cpu_isa::hasAvx512f(), else AVX2 when cpu_isa::hasAvx2Fma(), else the
//     base, read once per process (so PASSLAB_MAX_ISA caps it,
//     core/support/cpu_isa.h);
//   - the *On(name, ...) entry points of the tests and benchmarks take a path
//     by name, parseRowIsa: "avx512", "avx2" or the file's base name, and
//     refuse (false) an unknown name or a path above detectedRowIsa().
// Included only by those kernels' .cpp files and their tests.
#pragma once

#include <string_view>

#include "core/support/cpu_isa.h"

namespace passlab::exec::cpu {

enum class RowIsa { kAvx512, kAvx2, kBase };

inline RowIsa detectedRowIsa() {
  static const RowIsa isa = cpu_isa::hasAvx512f()   ? RowIsa::kAvx512
                            : cpu_isa::hasAvx2Fma() ? RowIsa::kAvx2
                                                    : RowIsa::kBase;
  return isa;
}

// The path `name` names ("avx512", "avx2" or `baseName`) into *isa when this
// process may run it; false when the name is unknown or the path is above
// detectedRowIsa() (*isa then unchanged).
inline bool parseRowIsa(std::string_view name, std::string_view baseName, RowIsa* isa) {
  const RowIsa have = detectedRowIsa();
  if (name == "avx512" && have == RowIsa::kAvx512) return *isa = RowIsa::kAvx512, true;
  if (name == "avx2" && have != RowIsa::kBase) return *isa = RowIsa::kAvx2, true;
  if (name == baseName) return *isa = RowIsa::kBase, true;
  return false;
}

// "avx512", "avx2" or `baseName`.
inline const char* rowIsaName(RowIsa isa, const char* baseName) {
  switch (isa) {
    case RowIsa::kAvx512:
      return "avx512";
    case RowIsa::kAvx2:
      return "avx2";
    case RowIsa::kBase:
      break;
  }
  return baseName;
}

}  // namespace passlab::exec::cpu
