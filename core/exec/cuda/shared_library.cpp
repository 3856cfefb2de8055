#include "core/exec/cuda/shared_library.h"

#include <dlfcn.h>

#include <utility>

namespace passlab::exec::cuda {

Expected<SharedLibrary> SharedLibrary::open(const std::string& what,
                                            const std::vector<std::string>& candidates) {
  std::string tried;
  for (const std::string& c : candidates) {
    if (c.empty()) continue;
    // RTLD_LOCAL: the library's symbols do not leak into later lookups.
    if (void* h = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL)) {
      SharedLibrary lib;
      lib.handle_ = h;
      lib.what_ = what;
      lib.path_ = c;
      return lib;
    }
    const char* err = dlerror();
    tried += (tried.empty() ? "" : "; ") + (err ? std::string(err) : c + ": not found");
  }
  return unsupported(what + " is not available, its library could not be loaded: " +
                     (tried.empty() ? std::string("no path given") : tried));
}

SharedLibrary::SharedLibrary(SharedLibrary&& o) noexcept
    : handle_(std::exchange(o.handle_, nullptr)),
      what_(std::move(o.what_)),
      path_(std::move(o.path_)) {}

SharedLibrary& SharedLibrary::operator=(SharedLibrary&& o) noexcept {
  if (this != &o) {
    if (handle_) dlclose(handle_);
    handle_ = std::exchange(o.handle_, nullptr);
    what_ = std::move(o.what_);
    path_ = std::move(o.path_);
  }
  return *this;
}

SharedLibrary::~SharedLibrary() {
  if (handle_) dlclose(handle_);
}

Expected<void*> SharedLibrary::symbol(const char* name) const {
  if (!handle_) return internalError(what_ + ": library not open (looking up " + name + ")");
  dlerror();  // clears an earlier error
  void* p = dlsym(handle_, name);
  if (!p) {
    const char* err = dlerror();
    return unsupported(what_ + " (" + path_ + ") lacks the function " + name +
                       (err ? std::string(": ") + err : std::string()) +
                       " (a different version than the one PassLab was built with?)");
  }
  return p;
}

}  // namespace passlab::exec::cuda
