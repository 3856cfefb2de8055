// Compiled PTX on disk, so that a FusedElementwise program is compiled by
// NVRTC once per machine rather than once per run.
//
// The folder: $PASSLAB_CACHE_DIR, else $XDG_CACHE_HOME/passlab/ptx, else
// ~/.cache/passlab/ptx. An entry is <key>.ptx, the key a hash of the source,
// the architecture and NVRTC's version; the file holds a header line
// ("passlab-ptx 1 <key> <bytes> <hash of the PTX>") and the PTX. Entries are
// written to a temporary file and renamed into place (readers never see half
// an entry; concurrent writers of one key each rename a whole one). An entry
// that does not check out (truncated, edited, unreadable) counts as absent:
// the source is compiled again and the entry rewritten. Failing to write is
// not an error (the PTX is used all the same).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "core/support/error.h"

namespace passlab::exec::cuda {

class PtxCache {
 public:
  // A cache in `dir` (empty: no cache, every lookup compiles).
  explicit PtxCache(std::filesystem::path dir) : dir_(std::move(dir)) {}
  // The process's cache, in defaultDir().
  static PtxCache& standard();
  // $PASSLAB_CACHE_DIR, $XDG_CACHE_HOME/passlab/ptx or $HOME/.cache/passlab/ptx (empty when none is
  // set).
  static std::filesystem::path defaultDir();

  const std::filesystem::path& dir() const { return dir_; }

  // The entry's key: 32 hex digits.
  static std::string key(std::string_view source, std::string_view arch,
                         std::string_view nvrtcVersion);
  std::filesystem::path pathOf(const std::string& key) const;

  // The PTX stored under `key`, or nullopt when absent or corrupt.
  std::optional<std::string> load(const std::string& key) const;
  // Stores `ptx` under `key` atomically.
  Status store(const std::string& key, std::string_view ptx) const;

  // The PTX of `source` for `arch`: the cached entry, else compiled with NVRTC
  // (nvrtc_program.h) and stored. `hit` (optional) says whether it came from disk.
  Expected<std::string> ptxFor(std::string_view source, std::string_view fileName,
                               std::string_view arch, bool* hit = nullptr) const;

 private:
  std::filesystem::path dir_;
};

}  // namespace passlab::exec::cuda
