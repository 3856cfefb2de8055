// FusedElementwise on the GPU against the device's copy bandwidth (issue #27:
// >= 70% of a device-to-device copy on tensors of 64 MB and more), and
// against the chain of separate kernels it replaces.
//
//   bench_cuda_fused_elementwise [--mb 256] [--runs 20]
//
// Per size: a tanh GELU (8 ops) on one input and an x*s+b then Relu on three
// inputs, each as the chain of ONNX ops (one CUDA kernel per op) and as one
// ai.passlab FusedElementwise (one NVRTC kernel); the node's time from CUDA
// events (the executor's profile), the bytes it must move (inputs read once,
// output written once) over that time, and cudaMemcpy's device-to-device
// bandwidth (bytes read + written) on the same bytes. Without a GPU it says so
// and exits 0.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/analysis/shape_inference.h"
#include "core/exec/executor.h"
#include "core/ir/attribute.h"
#include "core/ir/model.h"
#include "tests/bench/bench_support.h"

namespace passlab::bench {
namespace {

class Graph {
 public:
  explicit Graph(bool fused) {
    m_.irVersion = 8;
    m_.opsets = {{"", 17}};
    if (fused) m_.opsets.push_back({"ai.passlab", 1});
  }
  ir::Value* input(const std::string& name, const Dims& dims, unsigned seed) {
    feeds_.emplace_back(name, exec::Value(randomTensor(dims, seed)));
    return m_.graph().addInput(name,
                               ir::Type::tensor(ir::DataType::kFloat, ir::Shape::fromValues(dims)));
  }
  ir::Value* scalar(float v) {
    return m_.graph().addInitializer("s" + std::to_string(next_++), ir::Tensor::scalarFloat(v));
  }
  ir::Value* op(const std::string& type, const std::vector<ir::Value*>& in,
                std::vector<ir::Attribute> attrs = {}, const std::string& domain = "") {
    ir::Node* n = m_.graph().addNode(type, domain, in, 1, nullptr, type + std::to_string(next_++));
    for (auto& a : attrs) n->setAttr(std::move(a));
    return n->output(0);
  }
  BenchModel take(ir::Value* out) {
    m_.graph().addOutput(out);
    analysis::inferShapes(m_);
    return {std::move(m_), std::move(feeds_)};
  }

 private:
  ir::Model m_;
  exec::NamedInputs feeds_;
  int next_ = 0;
};

ir::Attribute ints(const char* name, std::vector<int64_t> v) {
  return ir::Attribute::makeInts(name, std::move(v));
}

// x * 0.5 * (1 + tanh(0.7978846 * (x + 0.044715 x^3))): 8 ops, 1 input.
BenchModel gelu(const Dims& d, bool fused) {
  Graph g(fused);
  ir::Value* x = g.input("x", d, 1);
  if (fused) {
    std::vector<ir::Attribute> a;
    a.push_back(ir::Attribute::makeStrings(
        "ops", {"Mul", "Pow", "Mul", "Add", "Mul", "Tanh", "Add", "Mul"}));
    a.push_back(ints("operands", {0, -2, -1, 0, -3, -1, 2, -4, -1, 0, 3, -1,
                                  4, -5, -1, 5, -1, -1, 6, -6, -1, 1, 7, -1}));
    a.push_back(ir::Attribute::makeFloats("constants", {0.5f, 3.0f, 0.044715f, 0.7978846f, 1.0f}));
    return g.take(g.op("FusedElementwise", {x}, std::move(a), "ai.passlab"));
  }
  ir::Value* xh = g.op("Mul", {x, g.scalar(0.5f)});
  ir::Value* p = g.op("Pow", {x, g.scalar(3.0f)});
  ir::Value* pk = g.op("Mul", {p, g.scalar(0.044715f)});
  ir::Value* i = g.op("Add", {x, pk});
  ir::Value* s = g.op("Mul", {i, g.scalar(0.7978846f)});
  ir::Value* t = g.op("Tanh", {s});
  ir::Value* t1 = g.op("Add", {t, g.scalar(1.0f)});
  return g.take(g.op("Mul", {xh, t1}));
}

// Relu(x * s + b) on three inputs of the same shape: 3 ops.
BenchModel scaleShiftRelu(const Dims& d, bool fused) {
  Graph g(fused);
  ir::Value* x = g.input("x", d, 1);
  ir::Value* s = g.input("s", d, 2);
  ir::Value* b = g.input("b", d, 3);
  if (fused) {
    std::vector<ir::Attribute> a;
    a.push_back(ir::Attribute::makeStrings("ops", {"Mul", "Add", "Relu"}));
    a.push_back(ints("operands", {0, 1, -1, 3, 2, -1, 4, -1, -1}));
    return g.take(g.op("FusedElementwise", {x, s, b}, std::move(a), "ai.passlab"));
  }
  return g.take(g.op("Relu", {g.op("Add", {g.op("Mul", {x, s}), b})}));
}

// Median device time of the model's steps (sum over nodes, CUDA events) over `runs`.
double medianDeviceMs(BenchModel& bm, int runs, std::string& error) {
  exec::ExecutorOptions eo;
  eo.backend = "cuda";
  auto ex = exec::Executor::create(bm.model, eo);
  if (!ex) {
    error = ex.error().message();
    return -1;
  }
  exec::RunOptions ro;
  ro.profile = true;
  std::vector<double> ms;
  for (int i = 0; i < runs + 2; ++i) {
    auto r = (*ex)->run(bm.feeds, ro);
    if (!r) {
      error = r.error().message();
      return -1;
    }
    if (r->device.fallbackSteps > 0) {
      error = "a step fell back to the CPU: " + r->device.fallbacks.front().reason;
      return -1;
    }
    double total = 0;
    for (const auto& p : r->profile) total += p.micros / 1000.0;
    if (i >= 2) ms.push_back(total);  // two warm-up runs (NVRTC, the pool)
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

// Device-to-device copy of `bytes`: median ms over `runs`.
double copyMs(size_t bytes, int runs) {
  void *a = nullptr, *b = nullptr;
  if (cudaMalloc(&a, bytes) != cudaSuccess || cudaMalloc(&b, bytes) != cudaSuccess) return -1;
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  std::vector<double> ms;
  for (int i = 0; i < runs + 2; ++i) {
    cudaEventRecord(e0);
    cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice);
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float t = 0;
    cudaEventElapsedTime(&t, e0, e1);
    if (i >= 2) ms.push_back(t);
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  cudaFree(a);
  cudaFree(b);
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

}  // namespace
}  // namespace passlab::bench

int main(int argc, char** argv) {
  using namespace passlab::bench;
  int maxMb = 256, runs = 20;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--mb") == 0)
      maxMb = std::atoi(argv[++i]);
    else if (std::strcmp(argv[i], "--runs") == 0)
      runs = std::max(1, std::atoi(argv[++i]));
  }
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    std::printf("no CUDA device: nothing measured\n");
    return 0;
  }
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  std::printf(
      "GPU: %s; median of %d runs; GB/s = bytes moved (inputs read + output written) / "
      "time; copy = cudaMemcpy device-to-device, bytes read + written\n",
      prop.name, runs);
  std::printf("%-22s %9s %10s %10s %9s %9s %9s %8s\n", "case", "MB/input", "chain ms", "fused ms",
              "speedup", "fused GB/s", "copy GB/s", "of copy");
  for (int mb = 16; mb <= maxMb; mb *= 4) {
    const int64_t elems = static_cast<int64_t>(mb) * 1024 * 1024 / 4;
    Dims d = {elems / 1024, 1024};
    struct Case {
      const char* name;
      BenchModel (*make)(const Dims&, bool);
      int tensors;  // inputs + output
    };
    for (Case c :
         {Case{"tanh GELU (8 ops)", gelu, 2}, Case{"Relu(x*s+b) (3 ops)", scaleShiftRelu, 4}}) {
      std::string err;
      BenchModel chain = c.make(d, false), fused = c.make(d, true);
      double chainMs = medianDeviceMs(chain, runs, err);
      double fusedMs = err.empty() ? medianDeviceMs(fused, runs, err) : -1;
      if (!err.empty()) {
        std::printf("%-22s %9d  error: %s\n", c.name, mb, err.c_str());
        continue;
      }
      const double bytes = static_cast<double>(c.tensors) * static_cast<double>(elems) * 4;
      const double copy = copyMs(static_cast<size_t>(elems) * 4, runs);
      const double copyGbs = copy > 0 ? 2.0 * elems * 4 / (copy * 1e6) : 0;
      const double fusedGbs = bytes / (fusedMs * 1e6);
      std::printf("%-22s %9d %10.3f %10.3f %8.2fx %9.0f %9.0f %7.0f%%\n", c.name, mb, chainMs,
                  fusedMs, chainMs / fusedMs, fusedGbs, copyGbs,
                  copyGbs > 0 ? 100.0 * fusedGbs / copyGbs : 0.0);
    }
  }
  return 0;
}
