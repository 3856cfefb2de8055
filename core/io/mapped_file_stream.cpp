#include "core/io/mapped_file_stream.h"

#include <unistd.h>

#include <algorithm>
#include <climits>

namespace passlab::io {

MappedFileStream::MappedFileStream(const MappedFile& file, size_t chunk) : file_(file) {
  const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  chunk_ = std::max(page, (std::min(chunk, size_t{INT_MAX / 2}) + page - 1) / page * page);
}

bool MappedFileStream::Next(const void** data, int* size) {
  if (pos_ >= file_.size()) return false;
  releaseBehind();
  const size_t n = std::min(chunk_, file_.size() - pos_);
  lastStart_ = pos_;
  *data = file_.data() + pos_;
  *size = static_cast<int>(n);
  pos_ += n;
  return true;
}

void MappedFileStream::BackUp(int count) {
  pos_ -= std::min(static_cast<size_t>(std::max(count, 0)), pos_ - lastStart_);
}

bool MappedFileStream::Skip(int count) {
  if (count < 0) return false;
  const size_t left = file_.size() - pos_;
  pos_ += std::min(static_cast<size_t>(count), left);
  return static_cast<size_t>(count) <= left;
}

void MappedFileStream::releaseBehind() {
  // Everything before the chunk handed out last: the parser asked for the
  // next one, so it has moved past it (protobuf copies the few bytes it may
  // still look at across a chunk's end into a buffer of its own).
  if (lastStart_ > released_) {
    file_.releasePages(released_, lastStart_ - released_);
    released_ = lastStart_;
  }
}

}  // namespace passlab::io
