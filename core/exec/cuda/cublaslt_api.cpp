#include "core/exec/cuda/cublaslt_api.h"

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <utility>

namespace passlab::exec::cuda {

std::vector<std::string> cublasLtCandidates() {
#ifdef PASSLAB_CUBLASLT_PATH
  return {PASSLAB_CUBLASLT_PATH, PASSLAB_CUBLASLT_SONAME};
#else
  return {"libcublasLt.so"};
#endif
}

Expected<CublasLtApi> openCublasLt(const std::vector<std::string>& candidates) {
  CublasLtApi api;
  Expected<SharedLibrary> lib = SharedLibrary::open("cuBLASLt", candidates);
  if (!lib) return lib.error();
  api.library = std::move(lib).value();
#define PASSLAB_CUBLASLT_RESOLVE(name) \
  PASSLAB_RETURN_IF_ERROR(api.library.resolve(api.name, #name));
  PASSLAB_CUBLASLT_FUNCTIONS(PASSLAB_CUBLASLT_RESOLVE)
#undef PASSLAB_CUBLASLT_RESOLVE
  return api;
}

namespace {

// Never destroyed: kernels may still call it while the process exits.
std::optional<Expected<CublasLtApi>>* loaded = nullptr;

}  // namespace

Expected<const CublasLtApi*> loadCublasLt() {
  static std::once_flag once;
  std::call_once(once, [] {
    loaded = new std::optional<Expected<CublasLtApi>>(openCublasLt(cublasLtCandidates()));
  });
  const Expected<CublasLtApi>& r = **loaded;
  if (!r) return r.error();
  return &r.value();
}

const CublasLtApi& cublasLtApi() {
  auto api = loadCublasLt();
  if (!api) {
    // A programming error: a cuBLASLt call without a handle from a loaded library.
    std::fprintf(stderr, "passlab: cuBLASLt used before it was loaded: %s\n",
                 api.error().message().c_str());
    std::abort();
  }
  return **api;
}

}  // namespace passlab::exec::cuda
