// QLinearConv on oneDNN int8 against the reference QLinearConv and against
// float32 Conv on oneDNN, on one-node models with constant weights, scales and
// zero points (what a statically quantized model has). Prints the median
// milliseconds of each. Not a test.
//
//   bench_qlinear_conv [--threads N] [--runs N]
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
  Dims x, w;
  int64_t pad;
};

using Model = bench::BenchModel;

ir::Node* convNode(ir::Graph& g, const char* op, const std::vector<ir::Value*>& in, int64_t pad) {
  ir::Node* n = g.addNode(op, "", in, 1, nullptr, op);
  n->setAttr(ir::Attribute::makeInts("pads", {pad, pad, pad, pad}));
  return n;
}

Model int8Model(const Shape& s) {
  Model m;
  m.model.opsets = {{"", 13}};
  ir::Graph& g = m.model.graph();
  ir::Value* x = g.addInput("x", ir::Type::tensor(DataType::kUInt8, ir::Shape::fromValues(s.x)));
  m.feeds.emplace_back("x", bench::uniformTensor<uint8_t>(DataType::kUInt8, s.x, 0, 255, 1));
  const int64_t M = s.w[0];
  std::vector<float> wScales(static_cast<size_t>(M), 0.004f);
  ir::Node* n = convNode(
      g, "QLinearConv",
      {x, g.addInitializer("xs", bench::scalarTensor<float>(DataType::kFloat, 0.02f)),
       g.addInitializer("xz", bench::scalarTensor<uint8_t>(DataType::kUInt8, 128)),
       g.addInitializer("w", bench::uniformTensor<int8_t>(DataType::kInt8, s.w, -127, 127, 2)),
       g.addInitializer("ws", ir::Tensor::fromVector<float>(DataType::kFloat, {M}, wScales)),
       g.addInitializer("wz", bench::scalarTensor<int8_t>(DataType::kInt8, 0)),
       g.addInitializer("ys", bench::scalarTensor<float>(DataType::kFloat, 0.5f)),
       g.addInitializer("yz", bench::scalarTensor<uint8_t>(DataType::kUInt8, 128)),
       g.addInitializer("b", bench::uniformTensor<int32_t>(DataType::kInt32, {M}, -1000, 1000, 3))},
      s.pad);
  g.addOutput(n->output(0));
  analysis::inferShapes(m.model);
  return m;
}

Model floatModel(const Shape& s) {
  Model m;
  m.model.opsets = {{"", 13}};
  ir::Graph& g = m.model.graph();
  ir::Value* x = g.addInput("x", ir::Type::tensor(DataType::kFloat, ir::Shape::fromValues(s.x)));
  m.feeds.emplace_back("x", bench::uniformTensor<float>(DataType::kFloat, s.x, -1, 1, 1));
  ir::Node* n = convNode(
      g, "Conv",
      {x, g.addInitializer("w", bench::uniformTensor<float>(DataType::kFloat, s.w, -0.2f, 0.2f, 2)),
       g.addInitializer("b", bench::uniformTensor<float>(DataType::kFloat, {s.w[0]}, -1, 1, 3))},
      s.pad);
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
      {"3x3 64->64 1x64x56x56", {1, 64, 56, 56}, {64, 64, 3, 3}, 1},
      {"1x1 64->64 1x64x56x56", {1, 64, 56, 56}, {64, 64, 1, 1}, 0},
  };
  std::printf("threads %d, median of %d runs (reference: of %d), ms\n", threads, runs,
              std::max(3, runs / 7));
  std::printf("%-24s %12s %14s %14s\n", "conv", "int8 oneDNN", "int8 reference", "f32 oneDNN");
  for (const Shape& s : shapes) {
    Model q = int8Model(s), f = floatModel(s);
    const double onednn = medianMs(q, false, threads, runs);
    const double reference = medianMs(q, true, threads, std::max(3, runs / 7));
    const double f32 = medianMs(f, false, threads, runs);
    std::printf("%-24s %12.3f %14.3f %14.3f\n", s.name, onednn, reference, f32);
  }
  return 0;
}
