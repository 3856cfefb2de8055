// cuBLASLt, opened at run time (docs/gpu.md, "Libraries loaded when used"):
// programs do not link libcublasLt (about 210 MB mapped and relocated at
// start), so it is loaded the first time the CUDA backend needs it — a device
// opened, a MatMul kernel built. The table holds every function the backend
// calls, each of the type cublasLt.h declares (decltype: a signature that
// differs from the header's does not compile). Call sites read
//   const CublasLtApi& lt = cublasLtApi();
//   lt.cublasLtMatmul(...);
#pragma once

#include <cublasLt.h>

#include <string>
#include <vector>

#include "core/exec/cuda/shared_library.h"
#include "core/support/error.h"

// Every cuBLASLt function the backend (and its tests) calls.
#define PASSLAB_CUBLASLT_FUNCTIONS(X)     \
  X(cublasLtGetVersion)                   \
  X(cublasLtGetStatusName)                \
  X(cublasLtGetStatusString)              \
  X(cublasLtCreate)                       \
  X(cublasLtDestroy)                      \
  X(cublasLtMatmul)                       \
  X(cublasLtMatmulAlgoGetHeuristic)       \
  X(cublasLtMatmulDescCreate)             \
  X(cublasLtMatmulDescDestroy)            \
  X(cublasLtMatmulDescSetAttribute)       \
  X(cublasLtMatmulPreferenceCreate)       \
  X(cublasLtMatmulPreferenceDestroy)      \
  X(cublasLtMatmulPreferenceSetAttribute) \
  X(cublasLtMatrixLayoutCreate)           \
  X(cublasLtMatrixLayoutDestroy)          \
  X(cublasLtMatrixLayoutSetAttribute)

namespace passlab::exec::cuda {

struct CublasLtApi {
#define PASSLAB_CUBLASLT_MEMBER(name) decltype(&::name) name = nullptr;
  PASSLAB_CUBLASLT_FUNCTIONS(PASSLAB_CUBLASLT_MEMBER)
#undef PASSLAB_CUBLASLT_MEMBER
  SharedLibrary library;  // keeps it open
  // cublasLtGetVersion(): 130100 for 13.1.0.
  size_t version() const {
    return cublasLtGetVersion();
  }
};

// Where cuBLASLt is looked for, in order: the toolkit's file found when
// PassLab was configured, then the bare soname (LD_LIBRARY_PATH, the system's).
std::vector<std::string> cublasLtCandidates();

// Opens the first of `candidates` and resolves every function (tests give
// their own paths). The error names cuBLASLt and the path or function missing.
Expected<CublasLtApi> openCublasLt(const std::vector<std::string>& candidates);

// cuBLASLt from cublasLtCandidates(), opened once per process (thread-safe);
// later calls return the same table, or the same error.
Expected<const CublasLtApi*> loadCublasLt();

// The loaded table. Only where loadCublasLt() has succeeded: every cuBLASLt
// handle comes from it (CudaDevice::open, the MatMul kernels' create).
const CublasLtApi& cublasLtApi();

}  // namespace passlab::exec::cuda
