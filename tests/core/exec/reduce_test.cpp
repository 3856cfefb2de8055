// The Reduce* family (reduce.cpp) against a naive reference for every axes
// pattern of a 4-D tensor (contiguous, strided, non-adjacent), keepdims,
// negative axes, axes as attribute or input by opset, noop_with_empty_axes,
// empty reductions, float16, integers, bool, and bad axes.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>

#include "core/exec/executor.h"
#include "core/io/text_format.h"
#include "tests/core/exec/op_test_util.h"

namespace passlab::exec {
namespace {

using namespace optest;

const double kInf = std::numeric_limits<double>::infinity();

struct RefOp {
  const char* op;
  double init;
  std::function<double(double, double)> add;  // acc, x
  std::function<double(double, int64_t)> finish;
};

std::vector<RefOp> refOps() {
  auto id = [](double a, int64_t) { return a; };
  return {
      {"ReduceSum", 0, [](double a, double x) { return a + x; }, id},
      {"ReduceMean", 0, [](double a, double x) { return a + x; },
       [](double a, int64_t n) { return a / static_cast<double>(n); }},
      {"ReduceMax", -kInf, [](double a, double x) { return std::max(a, x); }, id},
      {"ReduceMin", kInf, [](double a, double x) { return std::min(a, x); }, id},
      {"ReduceProd", 1, [](double a, double x) { return a * x; }, id},
      {"ReduceL1", 0, [](double a, double x) { return a + std::fabs(x); }, id},
      {"ReduceL2", 0, [](double a, double x) { return a + x * x; },
       [](double a, int64_t) { return std::sqrt(a); }},
      {"ReduceLogSum", 0, [](double a, double x) { return a + x; },
       [](double a, int64_t) { return std::log(a); }},
      {"ReduceLogSumExp", 0, [](double a, double x) { return a + std::exp(x); },
       [](double a, int64_t) { return std::log(a); }},
      {"ReduceSumSquare", 0, [](double a, double x) { return a + x * x; }, id},
  };
}

// Reduces x (dims) over `axes` (normalized) by op; keepdims output dims.
std::vector<double> reference(const RefOp& op, const std::vector<double>& x,
                              const std::vector<int64_t>& dims, const std::vector<bool>& red) {
  std::vector<int64_t> outDims;
  int64_t count = 1;
  for (size_t d = 0; d < dims.size(); ++d) {
    outDims.push_back(red[d] ? 1 : dims[d]);
    if (red[d]) count *= dims[d];
  }
  int64_t outN = 1;
  for (int64_t d : outDims) outN *= d;
  std::vector<double> acc(static_cast<size_t>(outN), op.init);
  std::vector<int64_t> idx(dims.size(), 0);
  for (size_t i = 0; i < x.size(); ++i) {
    int64_t o = 0;
    for (size_t d = 0; d < dims.size(); ++d) o = o * outDims[d] + (red[d] ? 0 : idx[d]);
    acc[static_cast<size_t>(o)] = op.add(acc[static_cast<size_t>(o)], x[i]);
    for (size_t d = dims.size(); d-- > 0;) {
      if (++idx[d] < dims[d]) break;
      idx[d] = 0;
    }
  }
  for (double& a : acc) a = op.finish(a, count);
  return acc;
}

TEST(Reduce, EveryOpOverEveryAxesPattern) {
  const std::vector<int64_t> dims = {2, 3, 4, 5};
  std::vector<double> x = ramp(120, 0.1, 1.5);
  ir::Tensor t = f32(dims, std::vector<float>(x.begin(), x.end()));
  x = values(t);
  for (const RefOp& op : refOps()) {
    for (int mask = 0; mask < 16; ++mask) {
      std::vector<int64_t> axes;
      std::vector<bool> red(4, false);
      for (int d = 0; d < 4; ++d)
        if (mask & (1 << d)) {
          // Every other axis written negative.
          axes.push_back(d % 2 ? d - 4 : d);
          red[static_cast<size_t>(d)] = true;
        }
      if (axes.empty()) continue;
      SCOPED_TRACE(std::string(op.op) + " mask " + std::to_string(mask));
      std::vector<double> want = reference(op, x, dims, red);
      std::vector<int64_t> keepDims;
      std::vector<int64_t> dropDims;
      for (size_t d = 0; d < 4; ++d) {
        keepDims.push_back(red[d] ? 1 : dims[d]);
        if (!red[d]) dropDims.push_back(dims[d]);
      }
      // Opset 18: axes as an input.
      ir::Tensor y = run1({op.op, {t, i64({static_cast<int64_t>(axes.size())}, axes)}, {}, 18});
      expectTensor(y, DataType::kFloat, keepDims, want, 1e-5, 1e-5);
      // Opset 13 (12 for ReduceSum): axes as an attribute, keepdims=0.
      int64_t older = std::string(op.op) == "ReduceSum" ? 11 : 13;
      ir::Tensor z = run1({op.op, {t}, {attrInts("axes", axes), attrI("keepdims", 0)}, older});
      expectTensor(z, DataType::kFloat, dropDims, want, 1e-5, 1e-5);
    }
  }
}

TEST(Reduce, NoAxesReducesEverythingUnlessNoop) {
  ir::Tensor t = f32({2, 2}, {1, -2, 3, -4});
  expectTensor(run1({"ReduceSum", {t}, {}, 13}), DataType::kFloat, {1, 1}, {-2});
  expectTensor(run1({"ReduceSum", {t, i64({0}, {})}, {attrI("keepdims", 0)}, 13}), DataType::kFloat,
               {}, {-2});
  // noop_with_empty_axes: nothing is reduced, the elementwise part still applies.
  expectTensor(run1({"ReduceSum", {t}, {attrI("noop_with_empty_axes", 1)}, 13}), DataType::kFloat,
               {2, 2}, {1, -2, 3, -4});
  expectTensor(run1({"ReduceSumSquare", {t}, {attrI("noop_with_empty_axes", 1)}, 18}),
               DataType::kFloat, {2, 2}, {1, 4, 9, 16});
  expectTensor(run1({"ReduceL1", {t, i64({0}, {})}, {attrI("noop_with_empty_axes", 1)}, 18}),
               DataType::kFloat, {2, 2}, {1, 2, 3, 4});
}

TEST(Reduce, EmptyReductionsGiveTheIdentity) {
  ir::Tensor e = f32({2, 0, 3}, {});
  ir::Tensor ax = i64({1}, {1});
  expectTensor(run1({"ReduceSum", {e, ax}, {}, 18}), DataType::kFloat, {2, 1, 3},
               std::vector<double>(6, 0));
  expectTensor(run1({"ReduceProd", {e, ax}, {}, 18}), DataType::kFloat, {2, 1, 3},
               std::vector<double>(6, 1));
  expectTensor(run1({"ReduceMax", {e, ax}, {}, 18}), DataType::kFloat, {2, 1, 3},
               std::vector<double>(6, -kInf));
  expectTensor(run1({"ReduceMin", {e, ax}, {}, 18}), DataType::kFloat, {2, 1, 3},
               std::vector<double>(6, kInf));
  expectTensor(run1({"ReduceLogSumExp", {e, ax}, {}, 18}), DataType::kFloat, {2, 1, 3},
               std::vector<double>(6, -kInf));
  expectTensor(run1({"ReduceL2", {e, ax}, {}, 18}), DataType::kFloat, {2, 1, 3},
               std::vector<double>(6, 0));
  // Reducing a non-empty axis of an empty tensor gives an empty tensor.
  EXPECT_EQ(run1({"ReduceSum", {e, i64({1}, {2})}, {}, 18}).dims(),
            (std::vector<int64_t>{2, 0, 1}));
}

TEST(Reduce, TypesAndSpecialValues) {
  expectTensor(run1({"ReduceMean", {f16({2, 2}, {1, 2, 3, 4}), i64({1}, {1})}, {}, 18}),
               DataType::kFloat16, {2, 1}, {1.5, 3.5});
  expectTensor(
      run1({"ReduceSum", {typed(DataType::kInt32, {2, 2}, {1, 2, 3, 4}), i64({1}, {0})}, {}, 13}),
      DataType::kInt32, {1, 2}, {4, 6});
  expectTensor(run1({"ReduceMean", {i64({3}, {1, 2, 2})}, {}, 18}), DataType::kInt64, {1}, {1});
  expectTensor(run1({"ReduceMax", {typed(DataType::kUInt8, {3}, {5, 250, 7})}, {}, 18}),
               DataType::kUInt8, {1}, {250});
  expectTensor(
      run1({"ReduceMax", {boolean({2, 2}, {false, true, false, false}), i64({1}, {1})}, {}, 20}),
      DataType::kBool, {2, 1}, {1, 0});
  expectTensor(
      run1({"ReduceMin", {boolean({2, 2}, {false, true, true, true}), i64({1}, {1})}, {}, 20}),
      DataType::kBool, {2, 1}, {0, 1});
  expectTensor(run1({"ReduceMax", {f32({3}, {1, std::nanf(""), 3})}, {}, 18}), DataType::kFloat,
               {1}, {std::nan("")});
  // LogSumExp stays finite for large values and handles infinities.
  expectTensor(run1({"ReduceLogSumExp", {f32({2}, {1000, 1000})}, {}, 18}), DataType::kFloat, {1},
               {1000 + std::log(2.0)});
  expectTensor(run1({"ReduceLogSumExp", {f32({2}, {-INFINITY, 0})}, {}, 18}), DataType::kFloat, {1},
               {0});
}

TEST(Reduce, BadAxesAreErrors) {
  ir::Tensor t = f32({2, 2}, {1, 2, 3, 4});
  std::string err = errorOf({"ReduceSum", {t, i64({1}, {2})}, {}, 13});
  EXPECT_NE(err.find("out of range"), std::string::npos) << err;
  err = errorOf({"ReduceMean", {t}, {attrInts("axes", {0, -2})}, 13});
  EXPECT_NE(err.find("twice"), std::string::npos) << err;
  err = errorOf({"ReduceMax", {t, i64({1, 1}, {0})}, {}, 18});
  EXPECT_NE(err.find("1-D"), std::string::npos) << err;
  err = errorOf({"ReduceL2", {ir::Tensor::fromStrings({1}, {"a"})}, {}, 18});
  EXPECT_FALSE(err.empty());
}

TEST(Reduce, LargeTensorsOnManyThreads) {
  // Through the executor (threads as the machine has): every loop form.
  const char* text = R"(
    <ir_version: 8, opset_import: ["" : 18]>
    main (float[64,96,80] x) => (float[64,1,80] a, float[1,96,1] b, float[64,96,1] c, float[1,96,80] d) {
      ax1 = Constant <value = int64[1] {1}> ()
      ax02 = Constant <value = int64[2] {0, 2}> ()
      ax2 = Constant <value = int64[1] {-1}> ()
      ax0 = Constant <value = int64[1] {0}> ()
      a = ReduceSum(x, ax1)
      b = ReduceMax(x, ax02)
      c = ReduceMean(x, ax2)
      d = ReduceL2(x, ax0)
    })";
  auto m = io::parseModelText(text);
  ASSERT_TRUE(m) << m.error().message();
  auto ex = Executor::create(*m, {});
  ASSERT_TRUE(ex) << ex.error().message();
  const std::vector<int64_t> dims = {64, 96, 80};
  std::vector<double> xv = ramp(64 * 96 * 80, -1, 1);
  ir::Tensor x = f32(dims, std::vector<float>(xv.begin(), xv.end()));
  auto r = (*ex)->run({{"x", x}});
  ASSERT_TRUE(r) << r.error().message();
  std::vector<RefOp> ops = refOps();
  expectClose(values(r->outputs[0]), reference(ops[0], values(x), dims, {false, true, false}), 1e-4,
              1e-4);
  expectClose(values(r->outputs[1]), reference(ops[2], values(x), dims, {true, false, true}));
  expectClose(values(r->outputs[2]), reference(ops[1], values(x), dims, {false, false, true}), 1e-4,
              1e-5);
  expectClose(values(r->outputs[3]), reference(ops[6], values(x), dims, {true, false, false}), 1e-4,
              1e-5);
}

}  // namespace
}  // namespace passlab::exec
