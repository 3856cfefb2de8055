// protobuf's parser reading a mapped model file in chunks, each chunk's pages
// given back to the kernel once the parser has moved past it
// (MappedFile::releasePages). Parsing copies every tensor's bytes out of the
// file; read at once (ParseFromArray over the whole mapping), the file's
// pages and the copies were resident together at the end of the parse, so a
// model's weights were held twice: `run` of a model with one 256 MiB
// initializer peaked at 531 MiB above the bare process, 2.0x its weights
// (docs/memory.md, "Loading a model"). Only core/io includes protobuf.
#pragma once

#include <google/protobuf/io/zero_copy_stream.h>

#include <cstddef>
#include <cstdint>

#include "core/support/mapped_file.h"

namespace passlab::io {

class MappedFileStream final : public google::protobuf::io::ZeroCopyInputStream {
 public:
  // `chunk`: the bytes handed out per Next(), rounded up to whole pages.
  explicit MappedFileStream(const MappedFile& file, size_t chunk = size_t{4} << 20);

  bool Next(const void** data, int* size) override;
  void BackUp(int count) override;
  bool Skip(int count) override;
  int64_t ByteCount() const override { return static_cast<int64_t>(pos_); }

 private:
  // Releases what lies before the chunk handed out last (the parser may
  // still read the latter after BackUp).
  void releaseBehind();

  const MappedFile& file_;
  size_t chunk_;
  size_t pos_ = 0;        // bytes consumed
  size_t lastStart_ = 0;  // where the chunk handed out last starts
  size_t released_ = 0;   // bytes before this are released
};

}  // namespace passlab::io
