// A shared library opened at run time (dlopen) for the CUDA backend's optional
// libraries (cublaslt_api.h, nvrtc_api.h): programs do not link them, so a
// CPU-only run never maps them, and a missing library is an error naming it.
#pragma once

#include <string>
#include <vector>

#include "core/support/error.h"

namespace passlab::exec::cuda {

class SharedLibrary {
 public:
  // The first of `candidates` (absolute paths or bare sonames) that dlopen
  // opens; the error names `what` ("cuBLASLt") and what each try said.
  static Expected<SharedLibrary> open(const std::string& what,
                                      const std::vector<std::string>& candidates);
  SharedLibrary() = default;
  SharedLibrary(SharedLibrary&& o) noexcept;
  SharedLibrary& operator=(SharedLibrary&& o) noexcept;
  SharedLibrary(const SharedLibrary&) = delete;
  SharedLibrary& operator=(const SharedLibrary&) = delete;
  ~SharedLibrary();

  // The address of `name`, or an error naming the library and the symbol.
  Expected<void*> symbol(const char* name) const;
  // Stores `name`'s address in `fn` (a function pointer of its declared type).
  template <typename Fn>
  Status resolve(Fn& fn, const char* name) const {
    Expected<void*> p = symbol(name);
    if (!p) return p.error();
    fn = reinterpret_cast<Fn>(p.value());
    return Status::ok();
  }
  // The candidate that opened ("/usr/local/cuda/lib64/libcublasLt.so.13").
  const std::string& path() const { return path_; }

 private:
  void* handle_ = nullptr;
  std::string what_, path_;
};

}  // namespace passlab::exec::cuda
