// NVRTC, opened at run time (docs/gpu.md, "Libraries loaded when used"):
// programs do not link libnvrtc (about 35 MB at start), so it is loaded the
// first time a FusedElementwise program is compiled. The table holds every
// function the backend calls, each of the type nvrtc.h declares (decltype).
// Call sites read
//   const NvrtcApi& rtc = nvrtcApi();
//   rtc.nvrtcCompileProgram(...);
#pragma once

#include <nvrtc.h>

#include <string>
#include <vector>

#include "core/exec/cuda/shared_library.h"
#include "core/support/error.h"

// Every NVRTC function the backend (and its tests) calls.
#define PASSLAB_NVRTC_FUNCTIONS(X) \
  X(nvrtcVersion)                  \
  X(nvrtcGetErrorString)           \
  X(nvrtcGetNumSupportedArchs)     \
  X(nvrtcGetSupportedArchs)        \
  X(nvrtcCreateProgram)            \
  X(nvrtcCompileProgram)           \
  X(nvrtcDestroyProgram)           \
  X(nvrtcGetProgramLogSize)        \
  X(nvrtcGetProgramLog)            \
  X(nvrtcGetPTXSize)               \
  X(nvrtcGetPTX)

namespace passlab::exec::cuda {

struct NvrtcApi {
#define PASSLAB_NVRTC_MEMBER(name) decltype(&::name) name = nullptr;
  PASSLAB_NVRTC_FUNCTIONS(PASSLAB_NVRTC_MEMBER)
#undef PASSLAB_NVRTC_MEMBER
  SharedLibrary library;  // keeps it open
};

// Where NVRTC is looked for, in order: the toolkit's file found when PassLab
// was configured, then the bare soname (LD_LIBRARY_PATH, the system's).
std::vector<std::string> nvrtcCandidates();

// Opens the first of `candidates` and resolves every function (tests give
// their own paths). The error names NVRTC and the path or function missing.
Expected<NvrtcApi> openNvrtc(const std::vector<std::string>& candidates);

// NVRTC from nvrtcCandidates(), opened once per process (thread-safe); later
// calls return the same table, or the same error.
Expected<const NvrtcApi*> loadNvrtc();

// The loaded table. Only where loadNvrtc() has succeeded.
const NvrtcApi& nvrtcApi();

}  // namespace passlab::exec::cuda
