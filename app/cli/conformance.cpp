#include "app/cli/conformance.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

#include "core/exec/executor.h"
#include "core/io/model_io.h"

namespace fs = std::filesystem;

namespace passlab::cli {

namespace {

std::string oneLine(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  if (s.size() > 300) s = s.substr(0, 297) + "...";
  return s;
}

// Sets `flag` after `seconds` unless stopped first.
class Watchdog {
 public:
  Watchdog(std::atomic<bool>& flag, double seconds)
      : thread_([this, &flag, seconds] {
          std::unique_lock<std::mutex> lock(mu_);
          if (!cv_.wait_for(lock, std::chrono::duration<double>(seconds), [this] { return done_; }))
            flag = true;
        }) {}
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

bool usesTrainingOps(const ir::Model& m) {
  bool training = false;
  m.graph().forEachNodeRecursive(
      [&](ir::Node* n) { training = training || n->domain() == "ai.onnx.preview.training"; });
  return training;
}

std::vector<std::string> sortedEntries(const std::string& dir, const std::string& prefix) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().filename().string().rfind(prefix, 0) == 0) out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

// ONNX 1.12's test generator (Debian's libonnx-testdata) stored bfloat16 data
// as uint16 tensors holding the bfloat16 bits; read them as what the model
// declares.
void bfloat16StoredAsUint16(io::DataValue& v, const ir::Type& declared) {
  if (v.kind != io::DataValue::Kind::kTensor || !declared.isTensor() ||
      declared.elemType() != ir::DataType::kBFloat16 || v.tensor.dtype() != ir::DataType::kUInt16)
    return;
  v.tensor = ir::Tensor(ir::DataType::kBFloat16, v.tensor.dims(), v.tensor.buffer());
}

// input_10.pb sorts after input_2.pb by number, not text.
std::string dataFile(const std::string& set, const char* kind, size_t i) {
  return set + "/" + kind + "_" + std::to_string(i) + ".pb";
}

TestOutcome runOne(const std::string& path, const ConformanceOptions& options,
                   const Tolerance& tol) {
  TestOutcome out;
  out.name = fs::path(path).filename().string();
  auto fail = [&](const std::string& why) {
    out.status = TestOutcome::Status::kFail;
    out.reason = oneLine(why);
    return out;
  };
  auto loaded = io::loadModel(path + "/model.onnx");
  if (!loaded) return fail("load: " + loaded.error().message());
  const ir::Model& model = loaded->model;
  if (usesTrainingOps(model)) {
    out.status = TestOutcome::Status::kSkip;
    out.reason = "training operator (ai.onnx.preview.training)";
    return out;
  }
  auto sets = sortedEntries(path, "test_data_set_");
  if (sets.empty()) {
    out.status = TestOutcome::Status::kSkip;
    out.reason = "no test data";
    return out;
  }
  exec::ExecutorOptions eo;
  eo.referenceKernels = options.referenceKernels;
  eo.backend = options.device;
  auto ex = exec::Executor::create(model, eo);
  if (!ex) return fail(ex.error().message());
  std::vector<const ir::Value*> inputs;
  for (const ir::Value* v : model.graph().inputs())
    if (!v->isInitializer()) inputs.push_back(v);
  const auto& outputs = model.graph().outputs();
  for (const std::string& set : sets) {
    exec::NamedInputs feed;
    for (size_t i = 0; i < inputs.size(); ++i) {
      std::string file = dataFile(set, "input", i);
      if (!fs::exists(file)) continue;  // an omitted optional input
      auto v = io::readDataFile(file, inputs[i]->type());
      if (!v) return fail(v.error().message());
      bfloat16StoredAsUint16(*v, inputs[i]->type());
      feed.emplace_back(inputs[i]->name(), toExecValue(*v));
    }
    std::atomic<bool> cancel{false};
    exec::RunOptions ro;
    ro.threads = options.threads;
    ro.cancel = &cancel;
    ro.maxLoopIterations = 100'000;
    Expected<exec::RunResult> r = internalError("not run");
    {
      Watchdog dog(cancel, options.secondsPerTest);
      r = (*ex)->run(feed, ro);
    }
    if (!r)
      return fail(cancel ? "timed out after " + std::to_string(options.secondsPerTest) + " s"
                         : r.error().message());
    // On a device, a test none of whose steps ran there tests nothing of it.
    if (options.device != "cpu" && r->device.deviceSteps == 0) {
      out.status = TestOutcome::Status::kSkip;
      out.reason = r->device.fallbacks.empty() ? "no step ran on " + options.device
                                               : r->device.fallbacks.front().reason;
      return out;
    }
    for (size_t i = 0; i < outputs.size(); ++i) {
      std::string file = dataFile(set, "output", i);
      if (!fs::exists(file)) continue;
      auto want = io::readDataFile(file, outputs[i]->type());
      if (!want) return fail(want.error().message());
      bfloat16StoredAsUint16(*want, outputs[i]->type());
      if (i >= r->values.size()) return fail("output " + std::to_string(i) + " missing");
      if (auto diff = compareValues(toExecValue(*want), r->values[i], tol))
        return fail("output '" + outputs[i]->name() + "': " + *diff);
    }
  }
  return out;
}

// No filters: every test; else the tests whose name contains one of them.
bool selected(const std::string& name, const std::vector<std::string>& filters) {
  if (filters.empty()) return true;
  for (const std::string& f : filters)
    if (name.find(f) != std::string::npos) return true;
  return false;
}

}  // namespace

std::map<std::string, std::string> readKnownFailures(const std::string& path,
                                                     const std::string& suite) {
  std::map<std::string, std::string> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ss(line);
    std::string name, reason;
    ss >> name;
    std::getline(ss, reason);
    reason.erase(0, reason.find_first_not_of(" \t"));
    if (auto colon = name.find(':'); colon != std::string::npos) {
      if (name.substr(0, colon) != suite) continue;
      name = name.substr(colon + 1);
    }
    if (!name.empty()) out[name] = reason;
  }
  return out;
}

std::map<std::string, Tolerance> readTolerances(const std::string& path) {
  std::map<std::string, Tolerance> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ss(line);
    std::string name, item;
    ss >> name;
    Tolerance t;
    while (ss >> item) {
      if (item.rfind("rtol=", 0) == 0) t.rtol = std::stod(item.substr(5));
      if (item.rfind("atol=", 0) == 0) t.atol = std::stod(item.substr(5));
    }
    out[name] = t;
  }
  return out;
}

std::vector<TestOutcome> runConformance(const ConformanceOptions& options, bool printProgress) {
  auto tolerances = options.tolerances.empty() ? std::map<std::string, Tolerance>{}
                                               : readTolerances(options.tolerances);
  std::vector<TestOutcome> outcomes;
  std::vector<std::string> tests;
  for (const std::string& p : sortedEntries(options.dir, "test_"))
    if (fs::is_directory(p) && fs::exists(p + "/model.onnx")) tests.push_back(p);
  size_t done = 0;
  for (const std::string& p : tests) {
    std::string name = fs::path(p).filename().string();
    if (!selected(name, options.filters)) continue;
    auto it = tolerances.find(name);
    outcomes.push_back(runOne(p, options, it == tolerances.end() ? Tolerance{} : it->second));
    if (printProgress && ++done % 100 == 0) std::fprintf(stderr, "... %zu tests\n", done);
  }
  return outcomes;
}

}  // namespace passlab::cli
