// The one sliding-window reference kernel (core/exec/cpu/window_kernel.h)
// against the fast kernels the executor picks for the same node (oneDNN,
// the separable MaxPool, the 8-lane GlobalAveragePool), side by side in one
// run, one node per case on shapes of the corpus CNNs, constant weights.
// Prints per case: the fast kernel, its median ms, the reference kernel's,
// the ratio, and the largest difference of the outputs.
// Not a test; figures in docs/sliding-window.md.
//
//   bench_window [--threads N] [--budget-ms MS] [--filter TEXT] [--min]
// (--min: the fastest run instead of the median, for a loaded machine)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "core/analysis/shape_inference.h"
#include "core/exec/executor.h"
#include "tests/bench/bench_support.h"

using namespace passlab;
using bench::attrs;
using bench::int1;
using bench::ints;
using bench::randomTensor;

namespace {

using Dims = std::vector<int64_t>;

// One node on float32 inputs and constant weights.
class Builder {
 public:
  Builder() {
    m_.irVersion = 8;
    m_.opsets = {{"", 18}};
  }
  ir::Value* input(const Dims& dims) {
    std::string name = "x" + std::to_string(seed_);
    inputs_.emplace_back(name, randomTensor(dims, seed_++));
    return g().addInput(name, ir::Type::tensor(ir::DataType::kFloat, ir::Shape::fromValues(dims)));
  }
  ir::Value* indices(const Dims& dims, std::vector<int64_t> v) {
    std::string name = "i" + std::to_string(seed_++);
    inputs_.emplace_back(name, ir::Tensor::fromVector<int64_t>(ir::DataType::kInt64, dims, v));
    return g().addInput(name, ir::Type::tensor(ir::DataType::kInt64, ir::Shape::fromValues(dims)));
  }
  ir::Value* weight(const Dims& dims) {
    unsigned seed = seed_++;
    return g().addInitializer("w" + std::to_string(seed), randomTensor(dims, seed));
  }
  ir::Value* ints(const std::vector<int64_t>& v) {
    return g().addInitializer("c" + std::to_string(seed_++), ir::Tensor::fromInt64s(v));
  }
  void op(const std::string& type, const std::vector<ir::Value*>& in,
          std::vector<ir::Attribute> attrs = {}, size_t outputs = 1) {
    ir::Node* n = g().addNode(type, "", in, outputs, nullptr, type);
    for (auto& a : attrs) n->setAttr(std::move(a));
    for (size_t i = 0; i < outputs; ++i) g().addOutput(n->output(i));
  }
  ir::Model take() {
    analysis::inferShapes(m_);
    return std::move(m_);
  }
  const exec::NamedInputs& inputs() const { return inputs_; }

 private:
  ir::Graph& g() { return m_.graph(); }
  ir::Model m_;
  exec::NamedInputs inputs_;
  unsigned seed_ = 1;
};

struct Case {
  std::string op, shape;
  std::function<void(Builder&)> build;
};

void conv(Builder& b, Dims x, int64_t m, int64_t k, int64_t group, int64_t stride, int64_t pad,
          int64_t dilation) {
  ir::Value* in = b.input(x);
  b.op("Conv", {in, b.weight({m, x[1] / group, k, k}), b.weight({m})},
       attrs(ints("kernel_shape", {k, k}), ints("strides", {stride, stride}),
             ints("pads", {pad, pad, pad, pad}), ints("dilations", {dilation, dilation}),
             int1("group", group)));
}

void pool(Builder& b, const std::string& op, Dims x, int64_t k, int64_t stride, int64_t pad,
          std::vector<ir::Attribute> extra = {}, size_t outputs = 1) {
  std::vector<ir::Attribute> a;
  a.push_back(ints("kernel_shape", {k, k}));
  a.push_back(ints("strides", {stride, stride}));
  a.push_back(ints("pads", {pad, pad, pad, pad}));
  for (auto& e : extra) a.push_back(std::move(e));
  b.op(op, {b.input(x)}, std::move(a), outputs);
}

std::vector<Case> cases() {
  std::vector<Case> c;
  c.push_back({"Conv", "3x3 64->64 @56x56", [](Builder& b) {
                 conv(b, {1, 64, 56, 56}, 64, 3, 1, 1, 1, 1);
               }});
  c.push_back({"Conv", "1x1 128->128 @28x28", [](Builder& b) {
                 conv(b, {1, 128, 28, 28}, 128, 1, 1, 1, 0, 1);
               }});
  c.push_back({"Conv", "3x3/2 3->32 @224x224 (stem)", [](Builder& b) {
                 conv(b, {1, 3, 224, 224}, 32, 3, 1, 2, 1, 1);
               }});
  c.push_back({"Conv depthwise", "3x3 128 @56x56", [](Builder& b) {
                 conv(b, {1, 128, 56, 56}, 128, 3, 128, 1, 1, 1);
               }});
  c.push_back({"Conv grouped", "3x3 g4 64->64 @28x28", [](Builder& b) {
                 conv(b, {1, 64, 28, 28}, 64, 3, 4, 1, 1, 1);
               }});
  c.push_back({"Conv dilated", "3x3 d2 64->64 @28x28", [](Builder& b) {
                 conv(b, {1, 64, 28, 28}, 64, 3, 1, 1, 2, 2);
               }});
  c.push_back({"ConvTranspose", "4x4/2 64->32 @28x28", [](Builder& b) {
                 ir::Value* x = b.input({1, 64, 28, 28});
                 b.op("ConvTranspose", {x, b.weight({64, 32, 4, 4}), b.weight({32})},
                      attrs(ints("kernel_shape", {4, 4}), ints("strides", {2, 2}),
                            ints("pads", {1, 1, 1, 1})));
               }});
  c.push_back({"MaxPool", "3x3/2 64 @112x112 (stem)", [](Builder& b) {
                 pool(b, "MaxPool", {1, 64, 112, 112}, 3, 2, 1);
               }});
  c.push_back({"MaxPool +Indices", "2x2/2 64 @56x56", [](Builder& b) {
                 pool(b, "MaxPool", {1, 64, 56, 56}, 2, 2, 0, {}, 2);
               }});
  c.push_back({"AveragePool", "3x3 64 @56x56 excl. pad", [](Builder& b) {
                 pool(b, "AveragePool", {1, 64, 56, 56}, 3, 1, 1);
               }});
  c.push_back({"AveragePool", "3x3/2 64 @56x56 incl. pad", [](Builder& b) {
                 std::vector<ir::Attribute> e;
                 e.push_back(int1("count_include_pad", 1));
                 pool(b, "AveragePool", {1, 64, 56, 56}, 3, 2, 1, std::move(e));
               }});
  c.push_back({"LpPool", "3x3 p2 32 @56x56", [](Builder& b) {
                 pool(b, "LpPool", {1, 32, 56, 56}, 3, 1, 1);
               }});
  c.push_back({"GlobalAveragePool", "1024 @7x7", [](Builder& b) {
                 b.op("GlobalAveragePool", {b.input({1, 1024, 7, 7})});
               }});
  c.push_back({"GlobalAveragePool", "64 @56x56", [](Builder& b) {
                 b.op("GlobalAveragePool", {b.input({1, 64, 56, 56})});
               }});
  c.push_back({"GlobalMaxPool", "1024 @7x7", [](Builder& b) {
                 b.op("GlobalMaxPool", {b.input({1, 1024, 7, 7})});
               }});
  c.push_back({"MaxUnpool", "2x2/2 64 @28x28", [](Builder& b) {
                 // Each value back at the top-left of its window in the 56x56 image.
                 std::vector<int64_t> at;
                 for (int64_t p = 0; p < 64; ++p)
                   for (int64_t i = 0; i < 28; ++i)
                     for (int64_t j = 0; j < 28; ++j)
                       at.push_back(p * 56 * 56 + 2 * i * 56 + 2 * j);
                 ir::Value* x = b.input({1, 64, 28, 28});
                 b.op("MaxUnpool", {x, b.indices({1, 64, 28, 28}, at)},
                      attrs(ints("kernel_shape", {2, 2}), ints("strides", {2, 2})));
               }});
  c.push_back({"Col2Im", "3x3 16 @32x32", [](Builder& b) {
                 ir::Value* x = b.input({1, 16 * 9, 30 * 30});
                 b.op("Col2Im", {x, b.ints({32, 32}), b.ints({3, 3})});
               }});
  return c;
}

// The kernel the executor runs for the case's node.
std::string kernelOf(exec::Executor& ex, const exec::NamedInputs& in) {
  exec::RunOptions ro;
  ro.profile = true;
  auto r = ex.run(in, ro);
  if (!r || r->profile.empty()) return "?";
  return r->profile.back().kernel;
}

std::vector<ir::Tensor> outputsOf(exec::Executor& ex, const exec::NamedInputs& in) {
  auto r = ex.run(in, {});
  return r ? r->outputs : std::vector<ir::Tensor>{};
}

double maxDiff(const std::vector<ir::Tensor>& a, const std::vector<ir::Tensor>& b) {
  if (a.empty() || a.size() != b.size()) return NAN;
  if (a[0].dtype() != ir::DataType::kFloat || a[0].dims() != b[0].dims()) return NAN;
  const float* x = a[0].data<float>().data();
  const float* y = b[0].data<float>().data();
  double d = 0;
  for (int64_t i = 0; i < a[0].numel(); ++i) d = std::max(d, double(std::fabs(x[i] - y[i])));
  return d;
}

void runCase(const Case& c, const bench::BenchOptions& o) {
  Builder b;
  c.build(b);
  ir::Model m = b.take();
  exec::ExecutorOptions refOpts;
  refOpts.referenceKernels = true;
  auto fast = exec::Executor::create(m, {});
  auto ref = exec::Executor::create(m, refOpts);
  if (!fast || !ref) {
    std::printf("%-18s %-30s error: %s\n", c.op.c_str(), c.shape.c_str(),
                (!fast ? fast.error() : ref.error()).message().c_str());
    return;
  }
  const exec::NamedInputs& in = b.inputs();
  const std::string fastKernel = kernelOf(**fast, in), refKernel = kernelOf(**ref, in);
  const double fastMs = bench::timeRunsMs(**fast, in, o);
  const double refMs = bench::timeRunsMs(**ref, in, o);
  const double diff = maxDiff(outputsOf(**fast, in), outputsOf(**ref, in));
  std::printf("%-18s %-30s %-22s %9.3f %-26s %9.3f %8.1fx %9.2g\n", c.op.c_str(), c.shape.c_str(),
              fastKernel.c_str(), fastMs, refKernel.c_str(), refMs, refMs / fastMs, diff);
}

}  // namespace

int main(int argc, char** argv) {
  const bench::BenchOptions o = bench::parseBenchOptions(argc, argv, 300);
  std::printf("%s\n", o.describe().c_str());
  std::printf("%-18s %-30s %-22s %9s %-26s %9s %9s %9s\n", "op", "case", "fast kernel", "fast ms",
              "reference kernel", "ref ms", "ref/fast", "max|diff|");
  for (const Case& c : cases())
    if (o.filter.empty() || (c.op + " " + c.shape).find(o.filter) != std::string::npos)
      runCase(c, o);
  return 0;
}
