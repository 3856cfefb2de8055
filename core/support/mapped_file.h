// Read-only memory mapping of a file: weights stay on disk until touched.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "core/support/error.h"

namespace passlab {

class MappedFile {
 public:
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  static Expected<std::shared_ptr<const MappedFile>> open(const std::string& path);

  const std::byte* data() const { return static_cast<const std::byte*>(addr_); }
  size_t size() const { return size_; }
  const std::string& path() const { return path_; }
  // Gives the whole pages inside [offset, offset + length) back to the
  // kernel (they stop counting in this process's resident memory); the
  // contents stay the same: a later read pages them in from the file again.
  void releasePages(size_t offset, size_t length) const;

 private:
  MappedFile() = default;
  void* addr_ = nullptr;
  size_t size_ = 0;
  std::string path_;
};

}  // namespace passlab
