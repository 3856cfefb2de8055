// QLinearMatMul on oneDNN int8 against the reference QLinearMatMul and against
// float32 MatMul on oneDNN, on one-node models with a constant B, scales and
// zero points (what a statically quantized model has; B's scales per column).
// Prints the median milliseconds of each. Not a test.
//
//   bench_qlinear_matmul [--threads N] [--runs N]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "core/analysis/shape_inference.h"
#include "core/exec/executor.h"
#include "tests/bench/bench_support.h"

using namespace passlab;

namespace {

using Dims = std::vector<int64_t>;
using ir::DataType;

struct Shape {
  const char* name;
  Dims a;  // [M, K]
  int64_t N;
};

using Model = bench::BenchModel;

Model int8Model(const Shape& s) {
  Model m;
  m.model.opsets = {{"", 13}};
  ir::Graph& g = m.model.graph();
  ir::Value* a = g.addInput("a", ir::Type::tensor(DataType::kUInt8, ir::Shape::fromValues(s.a)));
  m.feeds.emplace_back("a", bench::uniformTensor<uint8_t>(DataType::kUInt8, s.a, 0, 255, 1));
  const int64_t K = s.a[1];
  std::vector<float> bScales(static_cast<size_t>(s.N), 0.004f);
  ir::Node* n = g.addNode(
      "QLinearMatMul", "",
      {a, g.addInitializer("as", bench::scalarTensor<float>(DataType::kFloat, 0.02f)),
       g.addInitializer("az", bench::scalarTensor<uint8_t>(DataType::kUInt8, 128)),
       g.addInitializer("b", bench::uniformTensor<int8_t>(DataType::kInt8, {K, s.N}, -127, 127, 2)),
       g.addInitializer("bs", ir::Tensor::fromVector<float>(DataType::kFloat, {s.N}, bScales)),
       g.addInitializer("bz", ir::Tensor::fromVector<int8_t>(DataType::kInt8, {s.N},
                                                             std::vector<int8_t>(s.N, 0))),
       g.addInitializer("ys", bench::scalarTensor<float>(DataType::kFloat, 0.5f)),
       g.addInitializer("yz", bench::scalarTensor<uint8_t>(DataType::kUInt8, 128))},
      1, nullptr, "QLinearMatMul");
  g.addOutput(n->output(0));
  analysis::inferShapes(m.model);
  return m;
}

Model floatModel(const Shape& s) {
  Model m;
  m.model.opsets = {{"", 13}};
  ir::Graph& g = m.model.graph();
  ir::Value* a = g.addInput("a", ir::Type::tensor(DataType::kFloat, ir::Shape::fromValues(s.a)));
  m.feeds.emplace_back("a", bench::uniformTensor<float>(DataType::kFloat, s.a, -1, 1, 1));
  ir::Node* n = g.addNode(
      "MatMul", "",
      {a, g.addInitializer(
              "b", bench::uniformTensor<float>(DataType::kFloat, {s.a[1], s.N}, -0.2f, 0.2f, 2))},
      1, nullptr, "MatMul");
  g.addOutput(n->output(0));
  analysis::inferShapes(m.model);
  return m;
}

// Median milliseconds of `runs` runs after two warm-up runs (primitive
// creation and the weight reorder happen there); -1 on failure.
double medianMs(const Model& m, bool reference, int threads, int runs) {
  bench::BenchOptions o;
  o.threads = threads;
  o.runs = runs;
  return bench::timeModelMs(m.model, m.feeds, reference, o);
}

}  // namespace

int main(int argc, char** argv) {
  int threads = 1, runs = 21;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--threads")) threads = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--runs")) runs = std::atoi(argv[i + 1]);
  }
  const Shape shapes[] = {
      {"1x768 * 768x768", {1, 768}, 768},     {"1x768 * 768x3072", {1, 768}, 3072},
      {"128x768 * 768x768", {128, 768}, 768}, {"128x768 * 768x3072", {128, 768}, 3072},
      {"16x64 * 64x64", {16, 64}, 64},
  };
  std::printf("threads %d, median of %d runs (reference: of %d), ms\n", threads, runs,
              std::max(3, runs / 7));
  std::printf("%-24s %12s %14s %14s\n", "matmul", "int8 oneDNN", "int8 reference", "f32 oneDNN");
  for (const Shape& s : shapes) {
    Model q = int8Model(s), f = floatModel(s);
    const double onednn = medianMs(q, false, threads, runs);
    const double reference = medianMs(q, true, threads, std::max(3, runs / 7));
    const double f32 = medianMs(f, false, threads, runs);
    std::printf("%-24s %12.3f %14.3f %14.3f\n", s.name, onednn, reference, f32);
  }
  return 0;
}
