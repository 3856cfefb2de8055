#include "core/io/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

namespace passlab::io {

AtomicFile::AtomicFile(std::string target) : target_(std::move(target)) {}

AtomicFile::~AtomicFile() {
  if (file_) std::fclose(file_);
  if (!committed_ && !temp_.empty()) ::unlink(temp_.c_str());
}

Status AtomicFile::open() {
  std::filesystem::path t(target_);
  std::string dir = t.parent_path().empty() ? "." : t.parent_path().string();
  std::string pattern = dir + "/." + t.filename().string() + ".tmp-XXXXXX";
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  int fd = mkstemp(buf.data());
  if (fd < 0)
    return ioError("cannot create a temporary file in '" + dir + "': " + std::strerror(errno));
  temp_ = buf.data();
  ::fchmod(fd, 0644);
  file_ = fdopen(fd, "wb");
  if (!file_) {
    ::close(fd);
    return ioError("cannot open '" + temp_ + "': " + std::strerror(errno));
  }
  return Status::ok();
}

Status AtomicFile::write(std::string_view bytes) {
  if (bytes.empty()) return Status::ok();
  if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size())
    return ioError("writing '" + target_ + "' failed: " + std::strerror(errno));
  written_ += bytes.size();
  return Status::ok();
}

Status AtomicFile::commit() {
  if (std::fflush(file_) != 0 || ::fsync(fileno(file_)) != 0)
    return ioError("flushing '" + target_ + "' failed: " + std::strerror(errno));
  std::fclose(file_);
  file_ = nullptr;
  if (std::rename(temp_.c_str(), target_.c_str()) != 0)
    return ioError("cannot replace '" + target_ + "': " + std::strerror(errno));
  committed_ = true;
  // Make the rename itself durable.
  std::filesystem::path t(target_);
  std::string dir = t.parent_path().empty() ? "." : t.parent_path().string();
  int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
  return Status::ok();
}

}  // namespace passlab::io
