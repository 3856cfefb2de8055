// A model over 2 GiB, end to end as a user runs it: writes a generated model
// whose weights (64 MiB tensors, offsets past 2^31) live in external data,
// runs `passlab-cli optimize --level default` on it in a child process while
// sampling its memory, then checks that
//   - the optimized model was saved with its external data beside it and has
//     fewer nodes, every weight byte for byte as written;
//   - the input model and its data file are untouched;
//   - the optimizer's peak anonymous memory stays far below the model's size
//     (weights are mapped from the file, never copied).
//
//   large_model_check CLI DIR [GIB [check]]   exit 0 pass, 1 fail, 77 skip (disk short)
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "core/io/model_io.h"
#include "core/support/mapped_file.h"

namespace fs = std::filesystem;
using namespace passlab;

namespace {

constexpr size_t kTensorBytes = size_t{64} << 20;
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

// The byte at `offset` of weight `t`: a pattern every tensor has its own of.
char patternByte(int t, size_t offset) {
  return static_cast<char>((offset * 7 + static_cast<size_t>(t) * 13 + (offset >> 12)) & 0xff);
}

bool fail(const std::string& what) {
  std::fprintf(stderr, "FAIL: %s\n", what.c_str());
  return false;
}

// Streams the weights to a raw file, then saves a model whose initializers map
// it: acc = Identity(Relu(Add(acc, w_t))) for every t, so the default level has
// Identity nodes to remove and never needs the weights' values.
bool writeModel(const std::string& dir, int tensors) {
  const std::string raw = dir + "/weights.raw";
  {
    std::ofstream out(raw, std::ios::binary);
    std::vector<char> chunk(kTensorBytes);
    for (int t = 0; t < tensors; ++t) {
      for (size_t i = 0; i < chunk.size(); ++i) chunk[i] = patternByte(t, i);
      out.write(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    }
    if (!out.flush()) return fail("cannot write " + raw);
  }
  auto file = MappedFile::open(raw);
  if (!file) return fail(file.error().message());
  ir::Model m;
  m.opsets.push_back({"", 17});
  auto& g = m.graph();
  const int64_t elements = static_cast<int64_t>(kTensorBytes / 4);
  ir::Value* acc =
      g.addInput("x", ir::Type::tensor(ir::DataType::kFloat, ir::Shape::fromValues({elements})));
  for (int t = 0; t < tensors; ++t) {
    ir::Tensor w(ir::DataType::kFloat, {elements},
                 ir::makeMappedBuffer(*file, static_cast<size_t>(t) * kTensorBytes, kTensorBytes));
    ir::Value* wv = g.addInitializer("w" + std::to_string(t), w);
    ir::Node* add = g.addNode("Add", "", {acc, wv}, 1);
    add->setName("add" + std::to_string(t));
    // A Relu between the Adds: the weights are never summed into a new constant.
    ir::Node* relu = g.addNode("Relu", "", {add->output(0)}, 1);
    relu->setName("relu" + std::to_string(t));
    ir::Node* id = g.addNode("Identity", "", {relu->output(0)}, 1);
    id->setName("id" + std::to_string(t));
    acc = id->output(0);
  }
  g.addOutput(acc);
  io::SaveOptions o;
  o.external = io::SaveOptions::External::kAll;
  Status s = io::saveModel(m, dir + "/big.onnx", o);
  fs::remove(raw);
  return s ? true : fail(s.message());
}

// One line of /proc/PID/status in KiB ("RssAnon:", "VmRSS:"), -1 if absent.
long statusKb(pid_t pid, const std::string& key) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(key, 0) == 0) return std::strtol(line.c_str() + key.size(), nullptr, 10);
  return -1;
}

struct FileStamp {
  fs::path path;
  fs::file_time_type time;
  uintmax_t size = 0;
};

std::vector<FileStamp> stampFiles(const std::string& dir) {
  std::vector<FileStamp> out;
  for (const auto& e : fs::directory_iterator(dir))
    out.push_back({e.path(), e.last_write_time(), e.file_size()});
  return out;
}

struct ChildRun {
  int exitCode = -1;
  double seconds = 0;
  long peakAnonKb = 0;  // sampled every 5 ms
  long peakRssKb = 0;   // the kernel's high-water mark (mapped file pages included)
};

ChildRun runOptimizer(const std::string& cli, const std::string& in, const std::string& out,
                      bool withCheck) {
  ChildRun r;
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::string> args = {cli, "optimize", "--level", "default", in, "-o", out};
  if (withCheck) args.insert(args.end(), {"--check", "1"});
  std::vector<char*> argvs;
  for (std::string& a : args) argvs.push_back(a.data());
  argvs.push_back(nullptr);
  pid_t pid = fork();
  if (pid == 0) {
    execv(cli.c_str(), argvs.data());
    _exit(127);
  }
  int status = 0;
  struct rusage usage {};
  while (wait4(pid, &status, WNOHANG, &usage) == 0) {
    r.peakAnonKb = std::max(r.peakAnonKb, statusKb(pid, "RssAnon:"));
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.peakRssKb = usage.ru_maxrss;
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

// Every weight of `path` holds its pattern (sampled at both ends and the
// middle of every tensor; the whole of one tensor).
bool weightsIntact(const std::string& path, int tensors, size_t* nodes) {
  auto loaded = io::loadModel(path);
  if (!loaded) return fail(path + ": " + loaded.error().message());
  const auto& g = loaded->model.graph();
  *nodes = g.nodes().size();
  if (static_cast<int>(g.initializers().size()) != tensors)
    return fail(path + ": " + std::to_string(g.initializers().size()) + " initializers, expected " +
                std::to_string(tensors));
  for (const ir::Value* v : g.initializers()) {
    const int t = std::stoi(v->name().substr(1));
    const auto bytes = v->initializer()->bytes();
    if (bytes.size() != kTensorBytes) return fail(v->name() + " has the wrong size");
    const bool whole = t == tensors - 1;
    for (size_t i = 0; i < bytes.size(); i += whole ? 1 : 4093)
      if (static_cast<char>(bytes[i]) != patternByte(t, i))
        return fail(path + ": " + v->name() + " differs at byte " + std::to_string(i));
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: large_model_check CLI DIR [GIB]\n");
    return 2;
  }
  const std::string cli = argv[1], dir = argv[2];
  const double gib = argc > 3 ? std::atof(argv[3]) : 2.25;
  // With "check", optimize runs its numeric check too (the executor reads
  // every weight); the memory bound then covers the run's buffers as well.
  const bool withCheck = argc > 4 && std::string(argv[4]) == "check";
  const int tensors = static_cast<int>(gib * kGiB / static_cast<double>(kTensorBytes));
  const double modelGiB = static_cast<double>(tensors) * kTensorBytes / kGiB;
  fs::create_directories(dir);
  const double freeGiB = static_cast<double>(fs::space(dir).available) / kGiB;
  if (freeGiB < 2 * modelGiB + 1) {
    std::printf("SKIP: %.1f GiB free in %s, the check needs %.1f GiB\n", freeGiB, dir.c_str(),
                2 * modelGiB + 1);
    return 77;
  }
  struct Cleanup {
    std::string dir;
    ~Cleanup() { fs::remove_all(dir); }
  } cleanup{dir};

  std::printf("writing a %.2f GiB model (%d tensors of 64 MiB) to %s\n", modelGiB, tensors,
              dir.c_str());
  std::fflush(stdout);
  if (!writeModel(dir, tensors)) return 1;
  const std::string in = dir + "/big.onnx", out = dir + "/big.optimized.onnx";
  const std::vector<FileStamp> inputFiles = stampFiles(dir);

  ChildRun run = runOptimizer(cli, in, out, withCheck);
  std::printf(
      "optimize --level default: exit %d in %.1f s; peak anonymous memory %.1f MiB, "
      "peak RSS (mapped weights included) %.1f MiB; model %.0f MiB\n",
      run.exitCode, run.seconds, run.peakAnonKb / 1024.0, run.peakRssKb / 1024.0, modelGiB * 1024);
  if (run.exitCode != 0) {
    fail("optimize exited with " + std::to_string(run.exitCode));
    return 1;
  }

  bool ok = true;
  uintmax_t outData = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("big.optimized.onnx.", 0) == 0 && name.ends_with(".data"))
      outData += e.file_size();
  }
  if (outData < static_cast<uintmax_t>(tensors) * kTensorBytes)
    ok = fail("no external data with every weight beside " + out);
  for (const FileStamp& f : inputFiles)
    if (!fs::exists(f.path) || fs::last_write_time(f.path) != f.time ||
        fs::file_size(f.path) != f.size)
      ok = fail(f.path.string() + " (the input model or its data) was written");
  size_t inNodes = 0, outNodes = 0;
  ok = weightsIntact(in, tensors, &inNodes) && ok;
  ok = weightsIntact(out, tensors, &outNodes) && ok;
  if (outNodes >= inNodes)
    ok = fail("no node removed (" + std::to_string(inNodes) + " -> " + std::to_string(outNodes) +
              ")");
  // Far below the model: a quarter of it at most (the weights are mapped).
  if (run.peakAnonKb / 1024.0 > modelGiB * 1024 / 4)
    ok = fail("peak anonymous memory is over a quarter of the model's size");
  std::printf("%s: %zu -> %zu nodes, weights intact in both files\n", ok ? "PASS" : "FAIL", inNodes,
              outNodes);
  return ok ? 0 : 1;
}
