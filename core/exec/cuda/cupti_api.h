// CUPTI (the CUDA profiling tools interface), opened at run time like
// cuBLASLt and NVRTC (docs/gpu.md, "Libraries loaded when used"): only a
// profiled CUDA run loads it, for kernel-exact per-node times
// (cupti_timing.h). The table holds every function the backend calls, each of
// the type the CUPTI headers declare (decltype).
#pragma once

#include <cupti_activity.h>
#include <cupti_result.h>
#include <cupti_version.h>

#include <string>
#include <vector>

#include "core/exec/cuda/shared_library.h"
#include "core/support/error.h"

// Every CUPTI function the backend (and its tests) calls.
#define PASSLAB_CUPTI_FUNCTIONS(X)          \
  X(cuptiGetVersion)                        \
  X(cuptiGetResultString)                   \
  X(cuptiActivityEnable)                    \
  X(cuptiActivityDisable)                   \
  X(cuptiActivityRegisterCallbacks)         \
  X(cuptiActivityFlushAll)                  \
  X(cuptiActivityGetNextRecord)             \
  X(cuptiActivityGetNumDroppedRecords)      \
  X(cuptiActivityPushExternalCorrelationId) \
  X(cuptiActivityPopExternalCorrelationId)

namespace passlab::exec::cuda {

struct CuptiApi {
#define PASSLAB_CUPTI_MEMBER(name) decltype(&::name) name = nullptr;
  PASSLAB_CUPTI_FUNCTIONS(PASSLAB_CUPTI_MEMBER)
#undef PASSLAB_CUPTI_MEMBER
  SharedLibrary library;  // keeps it open
};

// Where CUPTI is looked for, in order: beside the toolkit's cuBLASLt found
// when PassLab was configured (lib/, then extras/CUPTI/lib64 of that
// toolkit), then the bare sonames (LD_LIBRARY_PATH, the system's).
std::vector<std::string> cuptiCandidates();

// Opens the first of `candidates` and resolves every function (tests give
// their own paths). The error names CUPTI and the path or function missing.
Expected<CuptiApi> openCupti(const std::vector<std::string>& candidates);

// CUPTI from cuptiCandidates(), opened once per process (thread-safe); later
// calls return the same table, or the same error.
Expected<const CuptiApi*> loadCupti();

// A CUPTI result as text ("CUPTI_ERROR_NOT_INITIALIZED").
std::string cuptiResultText(const CuptiApi& api, CUptiResult r);

}  // namespace passlab::exec::cuda
