#include "core/exec/cuda/ptx_cache.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <thread>

#include "core/exec/cuda/nvrtc_program.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cuda {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kMagic = "passlab-ptx 1 ";

uint64_t fnv1a(std::string_view data, uint64_t h) {
  for (char c : data) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  return h;
}

std::string hex64(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string contentHash(std::string_view ptx) {
  return hex64(fnv1a(ptx, 14695981039346656037ull));
}

}  // namespace

PtxCache& PtxCache::standard() {
  static PtxCache cache(defaultDir());
  return cache;
}

fs::path PtxCache::defaultDir() {
  if (const char* d = std::getenv("PASSLAB_CACHE_DIR"); d && *d) return fs::path(d);
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
    return fs::path(x) / "passlab" / "ptx";
  if (const char* h = std::getenv("HOME"); h && *h)
    return fs::path(h) / ".cache" / "passlab" / "ptx";
  return {};
}

std::string PtxCache::key(std::string_view source, std::string_view arch,
                          std::string_view nvrtcVersion) {
  std::string all;
  all.reserve(source.size() + arch.size() + nvrtcVersion.size() + 2);
  all.append(source).append(1, '\0').append(arch).append(1, '\0').append(nvrtcVersion);
  // Two 64-bit FNV-1a hashes with different offsets: 128 bits.
  return hex64(fnv1a(all, 14695981039346656037ull)) +
         hex64(fnv1a(all, 0x6c62272e07bb0142ull ^ all.size()));
}

fs::path PtxCache::pathOf(const std::string& key) const {
  return dir_ / (key + ".ptx");
}

std::optional<std::string> PtxCache::load(const std::string& key) const {
  if (dir_.empty()) return std::nullopt;
  std::ifstream in(pathOf(key), std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return std::nullopt;
  const std::string file = ss.str();
  const size_t eol = file.find('\n');
  if (eol == std::string::npos || file.compare(0, kMagic.size(), kMagic) != 0) return std::nullopt;
  // "<key> <bytes> <hash>"
  std::istringstream header(file.substr(kMagic.size(), eol - kMagic.size()));
  std::string k, hash;
  unsigned long long bytes = 0;
  if (!(header >> k >> bytes >> hash) || k != key) return std::nullopt;
  std::string ptx = file.substr(eol + 1);
  if (ptx.size() != bytes || contentHash(ptx) != hash || ptx.empty()) return std::nullopt;
  return ptx;
}

Status PtxCache::store(const std::string& key, std::string_view ptx) const {
  if (dir_.empty()) return unsupported("no PTX cache folder (set PASSLAB_CACHE_DIR)");
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec)
    return invalidArgument("cannot create the PTX cache folder " + dir_.string() + ": " +
                           ec.message());
  // A name no other writer uses: process, thread, a counter.
  static std::atomic<uint64_t> counter{0};
  const fs::path tmp = dir_ / (key + ".tmp." + std::to_string(::getpid()) + "." +
                               hex64(std::hash<std::thread::id>{}(std::this_thread::get_id())) +
                               "." + std::to_string(counter++));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return invalidArgument("cannot write " + tmp.string());
    out << kMagic << key << ' ' << ptx.size() << ' ' << contentHash(ptx) << '\n';
    out.write(ptx.data(), static_cast<std::streamsize>(ptx.size()));
    out.flush();
    if (!out) {
      out.close();
      fs::remove(tmp, ec);
      return invalidArgument("cannot write " + tmp.string());
    }
  }
  fs::rename(tmp, pathOf(key), ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    return invalidArgument("cannot rename " + tmp.string() +
                           " into the PTX cache: " + ec.message());
  }
  return Status::ok();
}

Expected<std::string> PtxCache::ptxFor(std::string_view source, std::string_view fileName,
                                       std::string_view arch, bool* hit) const {
  const std::string k = key(source, arch, nvrtc::version());
  if (std::optional<std::string> cached = load(k)) {
    if (hit) *hit = true;
    return *cached;
  }
  if (hit) *hit = false;
  PASSLAB_ASSIGN_OR_RETURN(std::string ptx, nvrtc::compileToPtx(source, fileName, arch));
  (void)store(k, ptx);  // a cache that cannot be written only costs a compile next time
  return ptx;
}

}  // namespace passlab::exec::cuda
