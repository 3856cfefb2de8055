// Atomic file replacement: write to a temporary file in the target folder,
// flush it to disk, then rename it over the target.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

#include "core/support/error.h"

namespace passlab::io {

class AtomicFile {
 public:
  explicit AtomicFile(std::string target);
  ~AtomicFile();  // removes the temporary file unless committed
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  Status open();
  Status write(std::string_view bytes);
  uint64_t written() const { return written_; }
  // Flushes, syncs and renames the temporary file onto the target.
  Status commit();

 private:
  std::string target_, temp_;
  std::FILE* file_ = nullptr;
  uint64_t written_ = 0;
  bool committed_ = false;
};

}  // namespace passlab::io
