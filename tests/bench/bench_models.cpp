// PassLab's latency on models: median and min over repeated runs, after
// warm-up (which builds primitives and packs weights). Prints one
// tab-separated line per model: name, threads, median ms, min ms.
// Inputs are arange(n)/n in the shapes `passlab-cli run` makes up (pipeline
// input synthesis: dims every window op accepts, indices in range), or read
// from .npy files (--input NAME=FILE.npy, for every model given; a file for
// an input the model lacks is ignored). scripts/dev/ort_bench.py makes its
// own (symbolic dims 1): give both the same files to compare, as
// scripts/dev/exec_benchmark.py does.
//
//   bench_models [--threads N] [--repeat N] [--warmup N] [--input NAME=FILE.npy]... MODEL.onnx...
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "core/exec/executor.h"
#include "core/exec/step_trials.h"
#include "core/io/model_io.h"
#include "core/io/npy.h"
#include "core/pipeline/input_synthesis.h"

using namespace passlab;

int main(int argc, char** argv) {
  int threads = 2, repeat = 20, warmup = -1;  // -1: 3, and on several threads as many
                                              // runs as the step trials take (step_trials.h)
  std::vector<std::string> models;
  std::vector<std::pair<std::string, std::string>> files;  // input name, .npy file
  for (int i = 1; i < argc; ++i) {
    auto next = [&] { return i + 1 < argc ? std::atoi(argv[++i]) : 0; };
    if (!std::strcmp(argv[i], "--input") && i + 1 < argc) {
      std::string spec = argv[++i];
      auto eq = spec.find('=');
      if (eq == std::string::npos) {
        std::fprintf(stderr, "--input %s: expected NAME=FILE.npy\n", spec.c_str());
        return 2;
      }
      files.emplace_back(spec.substr(0, eq), spec.substr(eq + 1));
    } else if (!std::strcmp(argv[i], "--threads"))
      threads = next();
    else if (!std::strcmp(argv[i], "--repeat"))
      repeat = next();
    else if (!std::strcmp(argv[i], "--warmup"))
      warmup = next();
    else
      models.push_back(argv[i]);
  }
  if (warmup < 0) warmup = threads > 1 ? std::max(3, exec::StepTrials::kRunsBeforeDecided) : 3;
  for (const std::string& path : models) {
    std::string name = std::filesystem::path(path).stem().string();
    auto fail = [&](const Error& e) {
      std::printf("%s\t%d\terror\t%s\n", name.c_str(), threads, e.message().c_str());
      std::fflush(stdout);
    };
    auto loaded = io::loadModel(path);
    if (!loaded) {
      fail(loaded.error());
      continue;
    }
    auto ex = exec::Executor::create(loaded->model, {});
    if (!ex) {
      fail(ex.error());
      continue;
    }
    pipeline::InputSpec spec;
    spec.arange = true;
    bool ok = true;
    for (const exec::InputInfo& in : (*ex)->inputs()) {
      auto file = std::find_if(files.begin(), files.end(),
                               [&](const auto& f) { return f.first == in.name; });
      if (file == files.end()) continue;
      auto t = io::readNpy(file->second);
      if (!t) {
        fail(t.error());
        ok = false;
        break;
      }
      spec.fixed[in.name] = std::move(t.value());
    }
    if (!ok) continue;
    auto inputs = pipeline::makeInputs(loaded->model, spec);
    if (!inputs) {
      fail(inputs.error());
      continue;
    }
    exec::RunOptions ro;
    ro.threads = threads;
    std::vector<double> ms;
    for (int i = 0; i < warmup + repeat && ok; ++i) {
      auto r = (*ex)->run(*inputs, ro);
      if (!r) {
        fail(r.error());
        ok = false;
        break;
      }
      if (i >= warmup) ms.push_back(r->totalMicros / 1000.0);
    }
    if (!ok || ms.empty()) continue;
    std::sort(ms.begin(), ms.end());
    double med =
        ms.size() % 2 ? ms[ms.size() / 2] : (ms[ms.size() / 2 - 1] + ms[ms.size() / 2]) / 2;
    std::printf("%s\t%d\t%.3f\t%.3f\n", name.c_str(), threads, med, ms.front());
    std::fflush(stdout);
  }
  return 0;
}
