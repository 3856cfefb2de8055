#include "core/support/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace passlab {

MappedFile::~MappedFile() {
  if (addr_ != nullptr && size_ > 0) munmap(addr_, size_);
}

void MappedFile::releasePages(size_t offset, size_t length) const {
  if (addr_ == nullptr || offset >= size_) return;
  length = std::min(length, size_ - offset);
  const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t begin = (offset + page - 1) / page * page;
  const size_t end = (offset + length) / page * page;
  // A private read-only file mapping: dropped pages read the file again.
  if (end > begin) madvise(static_cast<char*>(addr_) + begin, end - begin, MADV_DONTNEED);
}

Expected<std::shared_ptr<const MappedFile>> MappedFile::open(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ioError("cannot open '" + path + "': " + std::strerror(errno));
  struct stat st {};
  if (fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    return ioError("cannot stat '" + path + "': " + std::strerror(err));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return ioError("'" + path + "' is not a regular file");
  }
  std::shared_ptr<MappedFile> file(new MappedFile());
  file->path_ = path;
  file->size_ = static_cast<size_t>(st.st_size);
  if (file->size_ > 0) {
    void* addr = mmap(nullptr, file->size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (addr == MAP_FAILED) {
      int err = errno;
      ::close(fd);
      return ioError("cannot map '" + path + "': " + std::strerror(err));
    }
    file->addr_ = addr;
  }
  ::close(fd);
  return std::shared_ptr<const MappedFile>(std::move(file));
}

}  // namespace passlab
