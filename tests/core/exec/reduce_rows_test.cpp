// Float32 reduction rows (core/exec/cpu/reduce_rows.h) on each path this
// machine has: sums of x, x^2, |x| against a sequential double sum (only the
// order differs: relative 1e-13), maxima and minima exactly against the
// reference loop's rule, NaN anywhere (first, middle, tail, last) winning,
// empty rows giving the identity; lengths around the lane widths and unroll
// (0, 1, 7-9, 15-17, 31-33, 63-65, 1000, 4099). Strided accumulation rows the
// same, on accumulators that already hold values (a NaN one stays), and
// many of them at once in row order. And the
// Reduce* nodes on float32 [3, 37, 70] over every axes pattern against a
// double reference (the paths the node takes for inner and strided blocks).
#include "core/exec/cpu/reduce_rows.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "tests/core/exec/exec_test_util.h"
#include "tests/core/exec/op_test_util.h"

namespace passlab::exec {
namespace {

using cpu::RowOp;
using namespace optest;

const char* const kPaths[] = {"avx512", "lanes"};
const int64_t kLengths[] = {0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 1000, 4099};
const RowOp kSums[] = {RowOp::kSum, RowOp::kSumSquare, RowOp::kAbsSum};
const float kNan = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

double pre(RowOp op, float v) {
  const double d = v;
  return op == RowOp::kSumSquare ? d * d : op == RowOp::kAbsSum ? std::fabs(d) : d;
}

double sumRef(RowOp op, const std::vector<float>& x) {
  double s = 0;
  for (float v : x) s += pre(op, v);
  return s;
}

float extremeStep(bool max, float acc, float v) {
  if (v != v) return v;
  return (max ? v > acc : v < acc) ? v : acc;
}

float extremeRef(bool max, const std::vector<float>& x) {
  float r = max ? -kInf : kInf;
  for (float v : x) r = extremeStep(max, r, v);
  return r;
}

// Values far from zero too, so that a float (not double) sum would show.
std::vector<float> row(int64_t n, uint32_t seed) {
  std::vector<float> x = testutil::pattern(static_cast<size_t>(n), seed);
  for (size_t i = 0; i < x.size(); i += 5) x[i] = x[i] * 1000.0f + 3000.0f;
  return x;
}

TEST(ReduceRows, SumsMatchADoubleSum) {
  for (const char* path : kPaths)
    for (RowOp op : kSums)
      for (int64_t n : kLengths) {
        SCOPED_TRACE(std::string(path) + " op " + std::to_string(static_cast<int>(op)) + " n " +
                     std::to_string(n));
        const std::vector<float> x = row(n, static_cast<uint32_t>(n) + 1);
        double got = -1;
        if (!cpu::reduceRowF32On(path, op, x.data(), n, &got)) continue;
        const double want = sumRef(op, x);
        EXPECT_NEAR(got, want, 1e-13 * (std::fabs(want) + 1));
      }
}

TEST(ReduceRows, ExtremesAreExactAndNanWins) {
  for (const char* path : kPaths)
    for (bool max : {true, false})
      for (int64_t n : kLengths) {
        SCOPED_TRACE(std::string(path) + (max ? " max n " : " min n ") + std::to_string(n));
        const RowOp op = max ? RowOp::kMax : RowOp::kMin;
        std::vector<float> x = row(n, static_cast<uint32_t>(n) + 7);
        if (n > 3) x[static_cast<size_t>(n / 3)] = max ? -kInf : kInf;  // never the answer
        double got = 0;
        if (!cpu::reduceRowF32On(path, op, x.data(), n, &got)) continue;
        EXPECT_EQ(got, static_cast<double>(extremeRef(max, x)));
        for (int64_t at : {int64_t{0}, n / 2, n - 1}) {
          if (n == 0) break;
          std::vector<float> y = x;
          y[static_cast<size_t>(at)] = kNan;
          ASSERT_TRUE(cpu::reduceRowF32On(path, op, y.data(), n, &got));
          EXPECT_TRUE(std::isnan(got)) << "NaN at " << at;
        }
      }
}

TEST(ReduceRows, StridedAccumulationRows) {
  for (const char* path : kPaths)
    for (int64_t n : kLengths) {
      SCOPED_TRACE(std::string(path) + " n " + std::to_string(n));
      double probe;
      if (!cpu::reduceRowF32On(path, RowOp::kSum, nullptr, 0, &probe)) break;  // not here
      const std::vector<float> x = row(n, static_cast<uint32_t>(n) + 3);
      const std::vector<float> start = testutil::pattern(static_cast<size_t>(n), 99);
      for (RowOp op : kSums) {
        std::vector<double> acc(start.begin(), start.end()), want = acc;
        ASSERT_TRUE(cpu::addRowF32On(path, op, x.data(), acc.data(), n));
        for (size_t i = 0; i < want.size(); ++i) want[i] += pre(op, x[i]);
        EXPECT_EQ(acc, want);
      }
      for (bool max : {true, false}) {
        std::vector<float> acc = start, xs = x;
        if (n > 2) {
          acc[1] = kNan;                          // a NaN accumulator stays
          xs[static_cast<size_t>(n - 1)] = kNan;  // a NaN element wins
        }
        std::vector<float> want = acc;
        for (size_t i = 0; i < want.size(); ++i) want[i] = extremeStep(max, want[i], xs[i]);
        ASSERT_TRUE(
            cpu::extremeRowF32On(path, max ? RowOp::kMax : RowOp::kMin, xs.data(), acc.data(), n));
        for (size_t i = 0; i < want.size(); ++i) {
          if (std::isnan(want[i]))
            EXPECT_TRUE(std::isnan(acc[i])) << i;
          else
            EXPECT_EQ(acc[i], want[i]) << i;
        }
      }
    }
}

// Many strided rows into accumulators held in registers (addRowsF32): the
// same bits as one addRowF32 after another (a sequential double sum per
// column from the accumulators' values), for widths around the 8-lane
// vectors and the 64-column blocks, row counts 0 to 1152, a stride wider
// than the row (only n columns of each row read).
TEST(ReduceRows, ManyRowsAddInRowOrder) {
  const int64_t widths[] = {1, 7, 8, 9, 24, 63, 64, 65, 88, 200, 257};
  const int64_t rowCounts[] = {0, 1, 3, 1152};
  for (const char* path : kPaths)
    for (int64_t n : widths)
      for (int64_t rows : rowCounts) {
        SCOPED_TRACE(std::string(path) + " n " + std::to_string(n) + " rows " +
                     std::to_string(rows));
        double probe;
        if (!cpu::reduceRowF32On(path, RowOp::kSum, nullptr, 0, &probe)) break;  // not here
        const int64_t stride = n + 5;
        const std::vector<float> x =
            row(rows * stride + 1, static_cast<uint32_t>(n * 31 + rows) + 5);
        const std::vector<float> start = testutil::pattern(static_cast<size_t>(n + 1), 17);
        for (RowOp op : kSums) {
          // acc[n] is past the row: it must stay as it was.
          std::vector<double> acc(start.begin(), start.end()), want = acc;
          ASSERT_TRUE(cpu::addRowsF32On(path, op, x.data(), rows, stride, acc.data(), n));
          for (int64_t r = 0; r < rows; ++r)
            for (int64_t i = 0; i < n; ++i)
              want[static_cast<size_t>(i)] += pre(op, x[static_cast<size_t>(r * stride + i)]);
          EXPECT_EQ(acc, want);
        }
      }
}

TEST(ReduceRows, UnknownPathIsRefused) {
  double out;
  EXPECT_FALSE(cpu::reduceRowF32On("neon", RowOp::kSum, nullptr, 0, &out));
}

struct NodeOp {
  const char* op;
  double init;
  double (*add)(double, double);
  double (*finish)(double, int64_t);
};

double plus(double a, double x) {
  return a + x;
}
double same(double a, int64_t) {
  return a;
}

TEST(ReduceRows, NodesOverEveryAxesPatternAgainstDouble) {
  const NodeOp ops[] = {
      {"ReduceSum", 0, plus, same},
      {"ReduceMean", 0, plus, [](double a, int64_t n) { return a / static_cast<double>(n); }},
      {"ReduceMax", -INFINITY, [](double a, double x) { return std::max(a, x); }, same},
      {"ReduceMin", INFINITY, [](double a, double x) { return std::min(a, x); }, same},
      {"ReduceL1", 0, [](double a, double x) { return a + std::fabs(x); }, same},
      {"ReduceL2", 0, [](double a, double x) { return a + x * x; },
       [](double a, int64_t) { return std::sqrt(a); }},
      {"ReduceSumSquare", 0, [](double a, double x) { return a + x * x; }, same},
      {"ReduceLogSum", 0, [](double a, double x) { return a + std::fabs(x); },
       [](double a, int64_t) { return std::log(a); }},
  };
  const std::vector<int64_t> dims = {3, 37, 70};
  std::vector<float> xf = testutil::pattern(3 * 37 * 70, 5);
  for (float& v : xf) v = v * 4.0f + 0.5f;
  const ir::Tensor t = optest::f32(dims, xf);
  for (const NodeOp& op : ops)
    for (int mask = 1; mask < 8; ++mask) {
      SCOPED_TRACE(std::string(op.op) + " mask " + std::to_string(mask));
      std::vector<int64_t> axes, outDims;
      int64_t count = 1;
      for (int d = 0; d < 3; ++d) {
        const bool red = mask & (1 << d);
        if (red) axes.push_back(d), count *= dims[static_cast<size_t>(d)];
        outDims.push_back(red ? 1 : dims[static_cast<size_t>(d)]);
      }
      // The reference: every element into its output's double accumulator
      // (ReduceLogSum over |x| so that the log is defined).
      std::vector<double> acc(static_cast<size_t>(3 * 37 * 70 / count), op.init);
      for (int64_t a = 0; a < 3; ++a)
        for (int64_t b = 0; b < 37; ++b)
          for (int64_t c = 0; c < 70; ++c) {
            const int64_t o = ((mask & 1 ? 0 : a) * outDims[1] + (mask & 2 ? 0 : b)) * outDims[2] +
                              (mask & 4 ? 0 : c);
            const float v = xf[static_cast<size_t>((a * 37 + b) * 70 + c)];
            acc[static_cast<size_t>(o)] =
                op.add(acc[static_cast<size_t>(o)],
                       std::string(op.op) == "ReduceLogSum" ? std::fabs(v) : v);
          }
      for (double& a : acc) a = op.finish(a, count);
      ir::Tensor in = t;
      if (std::string(op.op) == "ReduceLogSum") {
        std::vector<float> absx = xf;
        for (float& v : absx) v = std::fabs(v);
        in = optest::f32(dims, absx);
      }
      const ir::Tensor y = optest::run1(
          {op.op, {in, optest::i64({static_cast<int64_t>(axes.size())}, axes)}, {}, 18});
      optest::expectTensor(y, DataType::kFloat, outDims, acc, 1e-6, 1e-6);
    }
}

}  // namespace
}  // namespace passlab::exec
