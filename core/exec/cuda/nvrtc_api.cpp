#include "core/exec/cuda/nvrtc_api.h"

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <utility>

namespace passlab::exec::cuda {

std::vector<std::string> nvrtcCandidates() {
#ifdef PASSLAB_NVRTC_PATH
  return {PASSLAB_NVRTC_PATH, PASSLAB_NVRTC_SONAME};
#else
  return {"libnvrtc.so"};
#endif
}

Expected<NvrtcApi> openNvrtc(const std::vector<std::string>& candidates) {
  NvrtcApi api;
  Expected<SharedLibrary> lib = SharedLibrary::open("NVRTC", candidates);
  if (!lib) return lib.error();
  api.library = std::move(lib).value();
#define PASSLAB_NVRTC_RESOLVE(name) PASSLAB_RETURN_IF_ERROR(api.library.resolve(api.name, #name));
  PASSLAB_NVRTC_FUNCTIONS(PASSLAB_NVRTC_RESOLVE)
#undef PASSLAB_NVRTC_RESOLVE
  return api;
}

namespace {

// Never destroyed: kernels may still call it while the process exits.
std::optional<Expected<NvrtcApi>>* loaded = nullptr;

}  // namespace

Expected<const NvrtcApi*> loadNvrtc() {
  static std::once_flag once;
  std::call_once(
      once, [] { loaded = new std::optional<Expected<NvrtcApi>>(openNvrtc(nvrtcCandidates())); });
  const Expected<NvrtcApi>& r = **loaded;
  if (!r) return r.error();
  return &r.value();
}

const NvrtcApi& nvrtcApi() {
  auto api = loadNvrtc();
  if (!api) {
    // A programming error: an NVRTC call without checking that it loaded.
    std::fprintf(stderr, "passlab: NVRTC used before it was loaded: %s\n",
                 api.error().message().c_str());
    std::abort();
  }
  return **api;
}

}  // namespace passlab::exec::cuda
