// The cost model's time: each kind of node at its own rate, and the rates
// within 2x of single-thread times measured on corpus nodes of the same
// shapes (docs/exec-benchmark.md, "The cost model's time, calibrated").
#include "core/analysis/work_micros.h"

#include <gtest/gtest.h>

#include "tests/core/analysis/infer_test_util.h"

namespace passlab::analysis {
namespace {

using testing::inferText;

const ir::Node& producerOf(const testing::Inferred& r, const std::string& value) {
  return *r.model.graph().findValue(value)->producer();
}

double bytesOf(const NodeCost& c) {
  return static_cast<double>(c.bytesRead + c.bytesWritten);
}

TEST(WorkMicros, ElementwiseIsBytesAtTheStreamingRate) {
  auto r = inferText(R"(
    main (float[1,64,56,56] x, float[1,64,112,112] big, float[1,64,1,1] b) => (float a, float c, float s) {
      a = Relu(x)
      c = Relu(big)
      s = Add(x, b)
    })");
  const ir::Node& small = producerOf(r, "a");
  const ir::Node& large = producerOf(r, "c");
  NodeCost cs = estimateNodeCost(small);
  EXPECT_DOUBLE_EQ(workMicros(small), cs.flops / 100'000 + bytesOf(cs) / 60'000);
  EXPECT_DOUBLE_EQ(workMicros(large), 4 * workMicros(small));  // 4x the elements and bytes
  // A broadcast Add reads its small operand once: 8 bytes per element and a little.
  NodeCost ca = estimateNodeCost(producerOf(r, "s"));
  EXPECT_EQ(ca.bytesRead, 4u * (64 * 56 * 56 + 64));
  EXPECT_DOUBLE_EQ(workMicros(producerOf(r, "s")), ca.flops / 100'000 + bytesOf(ca) / 60'000);
}

TEST(WorkMicros, ContractionsAtTheVectorizedRate) {
  auto r = inferText(R"(
    main (float[1,64,56,56] x, float[64,64,3,3] w) => (float y) {
      y = Conv <pads = [1, 1, 1, 1]> (x, w)
    })");
  const ir::Node& conv = producerOf(r, "y");
  NodeCost c = estimateNodeCost(conv);
  EXPECT_DOUBLE_EQ(workMicros(conv), c.flops / 100'000 + bytesOf(c) / 20'000);
}

// Attention's scores written as Einsum and a QGemm of BERT's size (0.34 and
// 0.35 ms at 1 thread, measured) are contractions, not element-wise bytes:
// above the largest small-step limit (fork_join_cost.h: 250 us), so they
// keep every thread.
TEST(WorkMicros, EinsumAndQGemmAreContractions) {
  auto r = inferText(R"(
    main (float[1,12,128,64] q, float[1,12,128,64] k, uint8[128,768] x, float[] as, uint8[] az,
          int8[768,768] w, float[] ws, int8[] wz) => (float s, float[128,768] g) {
      s = Einsum <equation = "bhqd,bhkd->bhqk"> (q, k)
      g = com.microsoft.QGemm <transB = 1> (x, as, az, w, ws, wz)
    })");
  for (const char* name : {"s", "g"}) {
    const ir::Node& n = producerOf(r, name);
    NodeCost c = estimateNodeCost(n);
    EXPECT_DOUBLE_EQ(workMicros(n), c.flops / 100'000 + bytesOf(c) / 20'000) << name;
    EXPECT_GT(workMicros(n), 250.0) << name;
  }
}

TEST(WorkMicros, ViewsCostNothingAndUnknownIsNegative) {
  auto r = inferText(R"(
    main (float[1,64,56,56] x, float[N,64] s) => (float f, float u) {
      f = Flatten(x)
      u = Relu(s)
    })");
  EXPECT_DOUBLE_EQ(workMicros(producerOf(r, "f")), 0.0);
  EXPECT_LT(workMicros(producerOf(r, "u")), 0.0);
  EXPECT_DOUBLE_EQ(copyMicros(600'000), 20.0);  // read and written at 60 GB/s
}

TEST(WorkMicros, PerElementOpsAndPools) {
  auto r = inferText(R"(
    main (float[1,1000] x, float[1,64,112,112] p) => (float s, float m) {
      s = Softmax(x)
      m = MaxPool <kernel_shape = [3, 3], strides = [2, 2], pads = [1, 1, 1, 1]> (p)
    })");
  const ir::Node& softmax = producerOf(r, "s");
  EXPECT_DOUBLE_EQ(nsPerOutputElement(softmax), 0.7);
  EXPECT_DOUBLE_EQ(workMicros(softmax), 1000 * 0.7 / 1000 + 8000.0 / 60'000);
  const ir::Node& pool = producerOf(r, "m");
  NodeCost c = estimateNodeCost(pool);
  EXPECT_DOUBLE_EQ(c.flops, 64.0 * 56 * 56 * 9);
  EXPECT_DOUBLE_EQ(workMicros(pool), c.flops / 10'000 + bytesOf(c) / 60'000);
}

// Single-thread times of corpus nodes of these shapes (`profile --threads 1`,
// minimum of 10 runs; per element: the sum over the corpus's nodes of that op
// of 5 us or more), from the table in docs/exec-benchmark.md.
struct Measured {
  const char* text;
  double micros;
};

TEST(WorkMicros, WithinTwiceOfMeasuredTimes) {
  const Measured kNodes[] = {
      // resnet50's 3x3 64 -> 64 convolutions at 56x56: 2110 us (oneDNN)
      {R"(main (float[1,64,56,56] x, float[64,64,3,3] w) => (float y) {
            y = Conv <pads = [1, 1, 1, 1]> (x, w) })",
       2110.0},
      // resnet50's first Relu: 0.139 ns per element measured over 297 Relus
      {R"(main (float[1,64,112,112] x) => (float y) { y = Relu(x) })",
       0.139 * 64 * 112 * 112 / 1e3},
      // a bias-free residual Add: 0.128 ns per element over 118 Adds
      {R"(main (float[1,256,56,56] x, float[1,256,56,56] z) => (float y) { y = Add(x, z) })",
       0.128 * 256 * 56 * 56 / 1e3},
      // resnet50's and densenet121's stem MaxPool: 197 us
      {R"(main (float[1,64,112,112] x) => (float y) {
            y = MaxPool <kernel_shape = [3, 3], strides = [2, 2], pads = [1, 1, 1, 1]> (x) })",
       197.0},
      // the classifiers' Softmax over 1000 classes: 1.0 us (vector rows, aec75e2)
      {R"(main (float[1,1000] x) => (float y) { y = Softmax(x) })", 1.0},
      // an attention Softmax [12,128,128]: 138 us
      {R"(main (float[12,128,128] x) => (float y) { y = Softmax(x) })", 138.0},
      // bvlc_alexnet's second LRN: 283 us (since d40bb65; 1064 with std::pow)
      {R"(main (float[1,64,52,52] x) => (float y) { y = LRN <size = 5> (x) })", 283.0},
  };
  for (const Measured& m : kNodes) {
    auto r = inferText(m.text);
    const ir::Node& node = producerOf(r, "y");
    double ratio = workMicros(node) / m.micros;
    EXPECT_GE(ratio, 0.5) << node.opType();
    EXPECT_LE(ratio, 2.0) << node.opType();
  }
}

}  // namespace
}  // namespace passlab::analysis
