// Benchmark: load a model with 1 GiB of external-data weights.
// Target: under 1 s and under 150 MB peak RSS, because weights are mapped, not copied.
//
//   bench_external_load [DIR] [GIB]   writes DIR/big.onnx(+.data), then loads it
//                                     in a fresh process and prints the figures.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/io/model_io.h"
#include "core/support/mapped_file.h"

namespace fs = std::filesystem;
using namespace passlab;

namespace {

long peakRssKb() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::strtol(line.c_str() + 6, nullptr, 10);
  return -1;
}

// Streams `tensors` x `tensorBytes` of data to a raw file, then saves a model
// whose initializers map that file, so the writer never holds the weights in memory.
int writeModel(const std::string& dir, int tensors, size_t tensorBytes) {
  std::string raw = dir + "/weights.raw";
  {
    std::ofstream out(raw, std::ios::binary);
    std::vector<char> chunk(tensorBytes);
    for (int t = 0; t < tensors; ++t) {
      for (size_t i = 0; i < chunk.size(); ++i)
        chunk[i] = static_cast<char>((i + static_cast<size_t>(t)) & 0x3f);
      out.write(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    }
  }
  auto file = MappedFile::open(raw);
  if (!file) {
    std::fprintf(stderr, "%s\n", file.error().message().c_str());
    return 1;
  }
  ir::Model m;
  m.opsets.push_back({"", 17});
  auto& g = m.graph();
  ir::Value* x = g.addInput(
      "x",
      ir::Type::tensor(ir::DataType::kFloat, ir::Shape::fromValues({int64_t(tensorBytes / 4)})));
  ir::Value* acc = x;
  for (int t = 0; t < tensors; ++t) {
    ir::Tensor w(ir::DataType::kFloat, {int64_t(tensorBytes / 4)},
                 ir::makeMappedBuffer(*file, static_cast<size_t>(t) * tensorBytes, tensorBytes));
    ir::Value* wv = g.addInitializer("w" + std::to_string(t), w);
    acc = g.addNode("Add", "", {acc, wv}, 1)->output(0);
  }
  g.addOutput(acc);
  io::SaveOptions o;
  o.external = io::SaveOptions::External::kAll;
  auto s = io::saveModel(m, dir + "/big.onnx", o);
  fs::remove(raw);
  if (!s) {
    std::fprintf(stderr, "%s\n", s.message().c_str());
    return 1;
  }
  return 0;
}

int loadAndReport(const std::string& path) {
  auto t0 = std::chrono::steady_clock::now();
  auto r = io::loadModel(path);
  auto t1 = std::chrono::steady_clock::now();
  if (!r) {
    std::fprintf(stderr, "%s\n", r.error().message().c_str());
    return 1;
  }
  uint64_t bytes = 0;
  for (const ir::Value* v : r->model.graph().initializers())
    bytes += v->initializer()->bytes().size();
  double ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
  std::printf("loaded %s: %zu initializers, %.2f GiB of weights\n", path.c_str(),
              r->model.graph().initializers().size(), static_cast<double>(bytes) / (1 << 30));
  std::printf("load time: %.1f ms (target < 1000)\n", ms);
  std::printf("peak RSS:  %.1f MB (target < 150)\n", static_cast<double>(peakRssKb()) / 1024.0);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == "--load") return loadAndReport(argv[2]);
  std::string dir =
      argc > 1 ? argv[1] : (fs::temp_directory_path() / "passlab-bench-external").string();
  double gib = argc > 2 ? std::atof(argv[2]) : 1.0;
  fs::create_directories(dir);
  const size_t tensorBytes = 16u << 20;
  int tensors = static_cast<int>(gib * 1024 / 16);
  std::printf("writing %d tensors of 16 MiB to %s ...\n", tensors, dir.c_str());
  auto t0 = std::chrono::steady_clock::now();
  if (writeModel(dir, tensors, tensorBytes) != 0) return 1;
  std::printf("written in %.1f s (model %.1f KiB, data %.2f GiB)\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
              static_cast<double>(fs::file_size(dir + "/big.onnx")) / 1024,
              static_cast<double>(fs::file_size(dir + "/big.onnx.data")) / (1 << 30));
  std::fflush(stdout);
  // Measure in a fresh process so the writer's memory does not count.
  pid_t pid = fork();
  if (pid == 0) {
    execl("/proc/self/exe", argv[0], "--load", (dir + "/big.onnx").c_str(), nullptr);
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  fs::remove_all(dir);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
