// Slice on transpose.cpp's strided copy, whose two innermost dims run as
// whole rows in one loop (memcpy for long contiguous rows, an element loop
// for short or strided ones): outputs against the index formula for several
// shapes, element sizes, steps (negative too), on 1 and 2 threads (a thread's
// share may start inside a row).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tests/core/exec/exec_test_util.h"
#include "tests/core/exec/kernel_test_util.h"

namespace passlab::exec {
namespace {

struct SliceCase {
  std::vector<int64_t> dims, starts, ends, axes, steps;
};

std::string list(const std::vector<int64_t>& v) {
  std::string s;
  for (int64_t e : v) s += (s.empty() ? "" : ",") + std::to_string(e);
  return s;
}

// The expected output: every out index mapped back by start + i * step.
template <class E>
std::vector<E> expected(const SliceCase& c, const std::vector<E>& x, std::vector<int64_t>& out) {
  const size_t r = c.dims.size();
  std::vector<int64_t> begin(r, 0), step(r, 1);
  out = c.dims;
  for (size_t k = 0; k < c.axes.size(); ++k) {
    const size_t a = static_cast<size_t>(c.axes[k]);
    const int64_t d = c.dims[a], st = c.steps[k];
    int64_t b = c.starts[k] < 0 ? c.starts[k] + d : c.starts[k];
    int64_t e = c.ends[k] < 0 ? c.ends[k] + d : c.ends[k];
    b = st > 0 ? std::clamp<int64_t>(b, 0, d) : std::clamp<int64_t>(b, 0, d - 1);
    e = st > 0 ? std::clamp<int64_t>(e, 0, d) : std::clamp<int64_t>(e, -1, d - 1);
    begin[a] = b, step[a] = st;
    out[a] = st > 0 ? std::max<int64_t>(0, (e - b + st - 1) / st)
                    : std::max<int64_t>(0, (b - e - st - 1) / -st);
  }
  int64_t n = 1;
  for (int64_t d : out) n *= d;
  std::vector<E> y;
  for (int64_t i = 0; i < n; ++i) {
    int64_t rest = i, src = 0, stride = 1;
    std::vector<int64_t> idx(r);
    for (size_t k = r; k-- > 0;) {
      idx[k] = rest % out[k];
      rest /= out[k];
    }
    for (size_t k = r; k-- > 0;) {
      src += (begin[k] + idx[k] * step[k]) * stride;
      stride *= c.dims[k];
    }
    y.push_back(x[static_cast<size_t>(src)]);
  }
  return y;
}

template <class E>
void expectSlice(const SliceCase& c, ir::DataType dt, const std::string& type, int threads) {
  int64_t n = 1;
  for (int64_t d : c.dims) n *= d;
  std::vector<E> x(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) x[static_cast<size_t>(i)] = static_cast<E>(i * 7 + 3);
  std::vector<int64_t> outDims;
  std::vector<E> want = expected(c, x, outDims);
  const int64_t k = static_cast<int64_t>(c.axes.size());
  std::string text = R"(<ir_version: 8, opset_import: ["" : 17]>
    main ()" + type + "[" +
                     list(c.dims) + "] x, int64[" + std::to_string(k) + "] s, int64[" +
                     std::to_string(k) + "] e, int64[" + std::to_string(k) + "] a, int64[" +
                     std::to_string(k) + "] st) => (" + type + "[" + list(outDims) + R"(] y) {
      y = Slice (x, s, e, a, st)
    })";
  RunOptions ro;
  ro.threads = threads;
  RunResult r = testutil::runText(text,
                                  {{"x", ir::Tensor::fromVector<E>(dt, c.dims, x)},
                                   {"s", kt::i64({k}, c.starts)},
                                   {"e", kt::i64({k}, c.ends)},
                                   {"a", kt::i64({k}, c.axes)},
                                   {"st", kt::i64({k}, c.steps)}},
                                  {}, ro);
  ASSERT_EQ(r.outputs.size(), 1u);
  ASSERT_EQ(r.outputs[0].dims(), outDims) << text;
  auto got = r.outputs[0].data<E>();
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) ASSERT_EQ(got[i], want[i]) << text << " at " << i;
}

TEST(SliceRows, MatchTheIndexFormula) {
  const std::vector<SliceCase> cases = {
      {{1, 4420, 4}, {0}, {2}, {2}, {1}},                    // ultraface's boxes: 2 of 4 per row
      {{1, 4420, 4}, {2}, {4}, {2}, {1}},                    // the other half
      {{3, 50, 37}, {1, 3}, {40, 30}, {1, 2}, {1, 1}},       // short rows, a sub-block
      {{2, 9, 64}, {0}, {64}, {2}, {2}},                     // strided rows
      {{2, 9, 7, 40}, {8, 1}, {-100, 39}, {1, 3}, {-2, 1}},  // negative step outside
      {{4, 33, 40}, {39}, {-41}, {2}, {-1}},                 // negative step inside
      {{5, 300}, {10}, {290}, {1}, {1}},                     // long contiguous rows (memcpy)
      {{700}, {3}, {650}, {0}, {3}},                         // rank 1
  };
  for (int threads : {1, 2}) {
    for (const SliceCase& c : cases) {
      expectSlice<float>(c, ir::DataType::kFloat, "float", threads);
      expectSlice<int64_t>(c, ir::DataType::kInt64, "int64", threads);
      expectSlice<uint8_t>(c, ir::DataType::kUInt8, "uint8", threads);
    }
  }
}

}  // namespace
}  // namespace passlab::exec
