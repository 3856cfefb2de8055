#include "core/exec/cuda/cupti_api.h"

#include <mutex>
#include <optional>
#include <utility>

namespace passlab::exec::cuda {

namespace {

// "/usr/local/cuda/lib/libcublasLt.so.13" -> "/usr/local/cuda/lib"; the
// soname's suffix "13" gives CUPTI's.
[[maybe_unused]] std::string directoryOf(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

[[maybe_unused]] std::string sonameSuffix(const std::string& soname) {
  auto at = soname.find(".so.");
  return at == std::string::npos ? std::string() : soname.substr(at + 4);
}

}  // namespace

std::vector<std::string> cuptiCandidates() {
  std::vector<std::string> out;
#if defined(PASSLAB_CUBLASLT_PATH) && defined(PASSLAB_CUBLASLT_SONAME)
  const std::string major = sonameSuffix(PASSLAB_CUBLASLT_SONAME);
  const std::string soname = major.empty() ? "libcupti.so" : "libcupti.so." + major;
  const std::string lib = directoryOf(PASSLAB_CUBLASLT_PATH);
  out.push_back(lib + "/" + soname);
  out.push_back(directoryOf(lib) + "/extras/CUPTI/lib64/" + soname);
  out.push_back(soname);
#endif
  out.push_back("libcupti.so");
  return out;
}

Expected<CuptiApi> openCupti(const std::vector<std::string>& candidates) {
  CuptiApi api;
  Expected<SharedLibrary> lib = SharedLibrary::open("CUPTI", candidates);
  if (!lib) return lib.error();
  api.library = std::move(lib).value();
#define PASSLAB_CUPTI_RESOLVE(name) PASSLAB_RETURN_IF_ERROR(api.library.resolve(api.name, #name));
  PASSLAB_CUPTI_FUNCTIONS(PASSLAB_CUPTI_RESOLVE)
#undef PASSLAB_CUPTI_RESOLVE
  return api;
}

namespace {

// Never destroyed: CUPTI's buffer callbacks may run while the process exits.
std::optional<Expected<CuptiApi>>* loaded = nullptr;

}  // namespace

Expected<const CuptiApi*> loadCupti() {
  static std::once_flag once;
  std::call_once(
      once, [] { loaded = new std::optional<Expected<CuptiApi>>(openCupti(cuptiCandidates())); });
  const Expected<CuptiApi>& r = **loaded;
  if (!r) return r.error();
  return &r.value();
}

std::string cuptiResultText(const CuptiApi& api, CUptiResult r) {
  const char* s = nullptr;
  if (api.cuptiGetResultString != nullptr && api.cuptiGetResultString(r, &s) == CUPTI_SUCCESS &&
      s != nullptr)
    return s;
  return "CUPTI error " + std::to_string(static_cast<int>(r));
}

}  // namespace passlab::exec::cuda
