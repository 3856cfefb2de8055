// A driver for the fuzz targets where libFuzzer is not available (GCC): it
// replays every file of the seed folders, then feeds deterministic byte-level
// mutations of them (bit flip, byte set, insert, delete, splice of two seeds)
// until the run count or the time bound is reached. A crash, abort or
// sanitizer report fails the process; ctest's timeout catches hangs.
//
//   fuzz_x [--runs N] [--seconds S] [--seed K] [--max-len L] <folder or file>...
//
// Huge allocations are bounded with RLIMIT_AS (4 GiB, --max-memory-mb), so a
// reader that asks for a size from the file fails here with std::bad_alloc.
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<uint8_t>;

struct Options {
  uint64_t runs = UINT64_MAX;
  double seconds = 10;
  uint64_t seed = 1;
  size_t maxLen = 1 << 16;
  uint64_t maxMemoryMb = 4096;
  std::vector<std::string> inputs;
};

Options parseArgs(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--runs")
      o.runs = std::stoull(next());
    else if (a == "--seconds")
      o.seconds = std::stod(next());
    else if (a == "--seed")
      o.seed = std::stoull(next());
    else if (a == "--max-len")
      o.maxLen = std::stoull(next());
    else if (a == "--max-memory-mb")
      o.maxMemoryMb = std::stoull(next());
    else
      o.inputs.push_back(a);
  }
  return o;
}

Bytes readFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Seed files in a stable order, so a run is reproducible from its seed.
std::vector<std::pair<std::string, Bytes>> loadSeeds(const std::vector<std::string>& inputs) {
  std::vector<std::pair<std::string, Bytes>> seeds;
  for (const std::string& in : inputs) {
    std::vector<fs::path> files;
    if (fs::is_directory(in)) {
      for (const auto& e : fs::recursive_directory_iterator(in))
        if (e.is_regular_file()) files.push_back(e.path());
    } else {
      files.push_back(in);
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) seeds.emplace_back(f.string(), readFile(f));
  }
  return seeds;
}

void limitMemory(uint64_t mb) {
  if (mb == 0) return;
  rlimit r{};
  r.rlim_cur = r.rlim_max = static_cast<rlim_t>(mb) << 20;
  setrlimit(RLIMIT_AS, &r);
}

// One mutation step of `b`; `other` is a second seed for splicing.
void mutateOnce(Bytes& b, const Bytes& other, std::mt19937_64& rng, size_t maxLen) {
  auto pick = [&](size_t n) { return n ? static_cast<size_t>(rng() % n) : 0; };
  static constexpr uint8_t kInteresting[] = {0,   1,   0x7f, 0x80, 0xff, '0', '9', '-',
                                             '[', ']', '{',  '}',  '"',  ',', ':', 0x93};
  switch (rng() % 7) {
    case 0:  // flip a bit
      if (!b.empty()) b[pick(b.size())] ^= static_cast<uint8_t>(1u << (rng() % 8));
      break;
    case 1:  // set a byte to an interesting value
      if (!b.empty()) b[pick(b.size())] = kInteresting[pick(std::size(kInteresting))];
      break;
    case 2:  // set a byte to a random value
      if (!b.empty()) b[pick(b.size())] = static_cast<uint8_t>(rng());
      break;
    case 3: {  // insert a few random bytes
      size_t at = pick(b.size() + 1), n = 1 + pick(4);
      for (size_t i = 0; i < n && b.size() < maxLen; ++i)
        b.insert(b.begin() + static_cast<ptrdiff_t>(at), static_cast<uint8_t>(rng()));
      break;
    }
    case 4: {  // delete a range
      if (b.empty()) break;
      size_t at = pick(b.size()), n = 1 + pick(std::min<size_t>(8, b.size() - at));
      b.erase(b.begin() + static_cast<ptrdiff_t>(at), b.begin() + static_cast<ptrdiff_t>(at + n));
      break;
    }
    case 5: {  // duplicate a range
      if (b.empty()) break;
      size_t at = pick(b.size()), n = 1 + pick(std::min<size_t>(16, b.size() - at));
      Bytes chunk(b.begin() + static_cast<ptrdiff_t>(at),
                  b.begin() + static_cast<ptrdiff_t>(at + n));
      size_t to = pick(b.size() + 1);
      if (b.size() + n <= maxLen)
        b.insert(b.begin() + static_cast<ptrdiff_t>(to), chunk.begin(), chunk.end());
      break;
    }
    default: {  // splice: a prefix of this one, a suffix of the other
      size_t cut = pick(b.size() + 1), from = pick(other.size() + 1);
      b.resize(cut);
      b.insert(b.end(), other.begin() + static_cast<ptrdiff_t>(from), other.end());
      if (b.size() > maxLen) b.resize(maxLen);
      break;
    }
  }
}

// The input being run, written to ./fuzz-crash-input when the process dies
// on a signal (an abort from an uncaught exception or a failed check, a
// segmentation fault), so it can be replayed: fuzz_x fuzz-crash-input.
const uint8_t* gCurrent = nullptr;
size_t gCurrentSize = 0;

void onFatalSignal(int sig) {
  int fd = open("fuzz-crash-input", O_CREAT | O_WRONLY | O_TRUNC, 0644);
  if (fd >= 0) {
    if (gCurrent && write(fd, gCurrent, gCurrentSize) < 0) {
    }
    close(fd);
  }
  static const char kMsg[] = "fuzz: fatal signal; the input is in ./fuzz-crash-input\n";
  if (write(2, kMsg, sizeof kMsg - 1) < 0) {
  }
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

void installCrashHandlers() {
  for (int sig : {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL}) std::signal(sig, onFatalSignal);
}

void runOne(const Bytes& b) {
  // A copy in its own allocation, so ASan sees reads past the end.
  std::unique_ptr<uint8_t[]> copy(new uint8_t[b.size() ? b.size() : 1]);
  std::copy(b.begin(), b.end(), copy.get());
  gCurrent = copy.get();
  gCurrentSize = b.size();
  LLVMFuzzerTestOneInput(copy.get(), b.size());
  gCurrent = nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  Options o = parseArgs(argc, argv);
  if (o.inputs.empty()) {
    std::fprintf(stderr,
                 "usage: %s [--runs N] [--seconds S] [--seed K] [--max-len L] "
                 "[--max-memory-mb M] <seed folder or file>...\n",
                 argv[0]);
    return 2;
  }
#if !defined(__SANITIZE_ADDRESS__)
  limitMemory(o.maxMemoryMb);  // ASan reserves far more address space than it uses
#endif
  installCrashHandlers();
  auto seeds = loadSeeds(o.inputs);
  for (const auto& [name, bytes] : seeds) {
    std::fprintf(stderr, "seed %s (%zu bytes)\n", name.c_str(), bytes.size());
    runOne(bytes);
  }
  if (seeds.empty()) seeds.emplace_back("(empty)", Bytes{});

  std::mt19937_64 rng(o.seed);
  auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  uint64_t done = 0;
  for (; done < o.runs && elapsed() < o.seconds; ++done) {
    Bytes b = seeds[rng() % seeds.size()].second;
    const Bytes& other = seeds[rng() % seeds.size()].second;
    for (uint64_t steps = 1 + rng() % 8; steps > 0; --steps) mutateOnce(b, other, rng, o.maxLen);
    runOne(b);
  }
  std::fprintf(stderr, "%zu seeds replayed, %llu mutated inputs in %.1f s (seed %llu): no crash\n",
               seeds.size(), static_cast<unsigned long long>(done), elapsed(),
               static_cast<unsigned long long>(o.seed));
  return 0;
}
