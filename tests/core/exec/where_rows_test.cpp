// Where's vector rows (where_rows.cpp) on each path, and cpu.Where (where.cpp)
// against an element-by-element reference for every way the condition, X and
// Y broadcast: scalars, trailing dims of 1 (a run with one condition, or X or
// Y repeated along it), leading dims, the attention-mask pattern. Under
// PASSLAB_MAX_ISA=avx2 and sse2 too (tests/CMakeLists.txt, isa_*_kernels).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "core/exec/cpu/where_rows.h"
#include "tests/core/exec/op_test_util.h"

namespace passlab::exec {
namespace {

using namespace optest;

uint32_t nextRandom(uint32_t& s) {
  s = s * 1664525u + 1013904223u;
  return s >> 8;
}

TEST(WhereRows, EveryWidthStrideAndLengthOnEachPath) {
  int paths = 0;
  for (const char* isa : {"avx2", "sse2"}) {
    // An unknown width refuses on every path this machine has; a path it
    // lacks refuses everything (then skipped).
    bool c0 = true;
    uint64_t x0 = 1, y0 = 2, o0 = 0;
    if (!cpu::whereRowOn(isa, &c0, &x0, 1, &y0, 1, &o0, 1, 8)) {
      EXPECT_STRNE(isa, "sse2") << "the SSE2 path is the baseline";
      continue;
    }
    ++paths;
    EXPECT_EQ(o0, 1u);
    EXPECT_FALSE(cpu::whereRowOn(isa, &c0, &x0, 1, &y0, 1, &o0, 1, 3));
    EXPECT_FALSE(cpu::whereRowOn(isa, &c0, &x0, 2, &y0, 1, &o0, 1, 8));
    EXPECT_FALSE(cpu::whereRowOn(isa, &c0, &x0, 1, &y0, -1, &o0, 1, 8));
    for (int bytes : {1, 2, 4, 8}) {
      for (int xs : {0, 1}) {
        for (int ys : {0, 1}) {
          for (int64_t n : {0, 1, 3, 4, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 257}) {
            SCOPED_TRACE(std::string(isa) + " bytes " + std::to_string(bytes) + " xStride " +
                         std::to_string(xs) + " yStride " + std::to_string(ys) + " n " +
                         std::to_string(n));
            uint32_t seed = static_cast<uint32_t>(n * 131 + bytes * 7 + xs * 3 + ys);
            // One byte in front of each buffer: unaligned rows.
            const int64_t guard = 40;
            std::vector<uint8_t> cond(static_cast<size_t>(n + 1));
            for (auto& b : cond) b = static_cast<uint8_t>(nextRandom(seed) & 1);
            std::vector<uint8_t> x(static_cast<size_t>((n + 1) * bytes));
            std::vector<uint8_t> y(x.size());
            for (auto& b : x) b = static_cast<uint8_t>(nextRandom(seed));
            for (auto& b : y) b = static_cast<uint8_t>(nextRandom(seed) | 1);  // never x's
            for (size_t i = 0; i < x.size(); ++i)
              if (x[i] == y[i]) x[i] = static_cast<uint8_t>(y[i] ^ 0x80);
            std::vector<uint8_t> out(static_cast<size_t>((n + 1) * bytes + guard), 0xAB);
            const bool* pc = reinterpret_cast<const bool*>(cond.data() + 1);
            ASSERT_TRUE(cpu::whereRowOn(isa, pc, x.data() + bytes, xs, y.data() + bytes, ys,
                                        out.data() + 1, n, bytes));
            EXPECT_EQ(out[0], 0xAB) << "written before the row";
            for (int64_t i = 0; i < n; ++i) {
              const uint8_t* want = cond[static_cast<size_t>(i + 1)]
                                        ? x.data() + bytes + i * xs * bytes
                                        : y.data() + bytes + i * ys * bytes;
              ASSERT_EQ(std::memcmp(out.data() + 1 + i * bytes, want, static_cast<size_t>(bytes)),
                        0)
                  << "element " << i << " (condition " << int(cond[static_cast<size_t>(i + 1)])
                  << ")";
            }
            for (size_t i = static_cast<size_t>(1 + n * bytes); i < out.size(); ++i)
              ASSERT_EQ(out[i], 0xAB) << "written past the row at byte " << i;
          }
        }
      }
    }
  }
  EXPECT_GE(paths, 1);
}

// out[i] = c ? x : y over the broadcast of the three shapes into `out`,
// one multi-index at a time.
std::vector<double> whereReference(const std::vector<int64_t>& out, const ir::Tensor& c,
                                   const ir::Tensor& x, const ir::Tensor& y) {
  auto index = [&](const ir::Tensor& t, const std::vector<int64_t>& at) {
    const auto& d = t.dims();
    int64_t flat = 0;
    const size_t shift = out.size() - d.size();
    for (size_t k = 0; k < d.size(); ++k) flat = flat * d[k] + (d[k] == 1 ? 0 : at[k + shift]);
    return static_cast<size_t>(flat);
  };
  const std::vector<double> cv = values(c), xv = values(x), yv = values(y);
  int64_t total = 1;
  for (int64_t d : out) total *= d;
  std::vector<double> r;
  std::vector<int64_t> at(out.size(), 0);
  for (int64_t e = 0; e < total; ++e) {
    int64_t rest = e;
    for (size_t k = out.size(); k-- > 0;) {
      at[k] = rest % out[k];
      rest /= out[k];
    }
    r.push_back(cv[index(c, at)] != 0 ? xv[index(x, at)] : yv[index(y, at)]);
  }
  return r;
}

int64_t numel(const std::vector<int64_t>& d) {
  int64_t n = 1;
  for (int64_t v : d) n *= v;
  return n;
}

ir::Tensor randomCondition(const std::vector<int64_t>& dims, uint32_t seed) {
  std::vector<bool> b;
  for (int64_t i = 0; i < numel(dims); ++i) b.push_back(nextRandom(seed) % 3 != 0);
  return boolean(dims, b);
}

// The numpy broadcast of the three shapes (each broadcasts to the largest).
std::vector<int64_t> broadcastOf(const std::vector<int64_t>& a, const std::vector<int64_t>& b,
                                 const std::vector<int64_t>& c) {
  const size_t rank = std::max({a.size(), b.size(), c.size()});
  std::vector<int64_t> out(rank, 1);
  for (const auto* d : {&a, &b, &c})
    for (size_t k = 0; k < d->size(); ++k) {
      int64_t& o = out[rank - d->size() + k];
      o = std::max(o, (*d)[k]);
    }
  return out;
}

void expectMatchesReference(DataType dt, const std::vector<int64_t>& cd,
                            const std::vector<int64_t>& xd, const std::vector<int64_t>& yd,
                            uint32_t seed) {
  const std::vector<int64_t> out = broadcastOf(cd, xd, yd);
  SCOPED_TRACE(std::string(ir::dtypeName(dt)));
  ir::Tensor c = randomCondition(cd, seed);
  // X's values in [0, 50), Y's in [60, 110): a wrong pick shows (bool: X
  // random, Y its negation where they line up).
  ir::Tensor x, y;
  if (dt == DataType::kBool) {
    x = randomCondition(xd, seed + 1);
    y = randomCondition(yd, seed + 2);
  } else {
    x = typed(dt, xd, ramp(static_cast<size_t>(numel(xd)), 0, 50, seed + 1));
    y = typed(dt, yd, ramp(static_cast<size_t>(numel(yd)), 60, 110, seed + 2));
  }
  ir::Tensor r = run1({"Where", {c, x, y}});
  EXPECT_EQ(r.dtype(), dt);
  EXPECT_EQ(r.dims(), out);
  EXPECT_EQ(values(r), whereReference(out, c, x, y));
}

std::string dimsText(const std::vector<int64_t>& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + std::to_string(d[i]);
  return s + "]";
}

TEST(WhereBroadcast, EveryPatternMatchesTheReference) {
  // Each operand one of these, all three broadcast together (to [2, 3, 5,
  // 19] where one is full): a scalar, a one-element tensor, a row, trailing
  // dims of 1 (a column), a middle dim of 1, leading dims of 1, the full
  // shape.
  const std::vector<int64_t> out = {2, 3, 5, 19};
  const std::vector<std::vector<int64_t>> shapes = {
      {}, {1}, {19}, {5, 1}, {3, 1, 19}, {3, 5, 1}, {2, 1, 1, 19}, {1, 3, 5, 19}, out};
  uint32_t seed = 7;
  for (const auto& cd : shapes)
    for (const auto& xd : shapes)
      for (const auto& yd : shapes) {
        SCOPED_TRACE("condition " + dimsText(cd) + " x " + dimsText(xd) + " y " + dimsText(yd));
        expectMatchesReference(DataType::kFloat, cd, xd, yd, seed++);
      }
  // Every element width, on the patterns that take different paths.
  const std::vector<std::vector<int64_t>> some = {{}, {5, 1}, {3, 1, 19}, out};
  for (DataType dt : {DataType::kBool, DataType::kUInt8, DataType::kInt8, DataType::kFloat16,
                      DataType::kBFloat16, DataType::kInt32, DataType::kInt64, DataType::kDouble})
    for (const auto& cd : some)
      for (const auto& xd : some)
        for (const auto& yd : some) {
          SCOPED_TRACE("condition " + dimsText(cd) + " x " + dimsText(xd) + " y " + dimsText(yd));
          expectMatchesReference(dt, cd, xd, yd, seed++);
        }
}

TEST(WhereBroadcast, AttentionMaskPatternsOnLongRows) {
  // GPT-2's causal mask [1, 1, S, S] over the scores [1, H, S, S] with a
  // scalar fill, BERT's [B, 1, 1, S], and a mask per query [1, 1, S, 1]:
  // long enough that the runs are split between threads mid-row.
  const int64_t h = 12, s = 77;
  const std::vector<int64_t> out = {1, h, s, s};
  uint32_t seed = 99;
  for (const auto& cd : std::vector<std::vector<int64_t>>{{1, 1, s, s}, {1, 1, 1, s}, {1, 1, s, 1}})
    for (const auto& yd : std::vector<std::vector<int64_t>>{{}, out}) {
      SCOPED_TRACE("condition " + dimsText(cd) + " y " + dimsText(yd));
      expectMatchesReference(DataType::kFloat, cd, out, yd, seed++);
      expectMatchesReference(DataType::kFloat16, cd, out, yd, seed++);
    }
}

TEST(WhereBroadcast, StringsKeepTheElementLoop) {
  ir::Tensor c = boolean({2, 3}, {true, false, true, false, false, true});
  ir::Tensor x = ir::Tensor::fromStrings({3}, {"a", "b", "c"});
  ir::Tensor y = ir::Tensor::fromStrings({2, 1}, {"y0", "y1"});
  EXPECT_EQ(run1({"Where", {c, x, y}}).strings(),
            (std::vector<std::string>{"a", "y0", "c", "y1", "y1", "c"}));
  // A condition broadcast along the run: a copy of X's row or Y's element.
  ir::Tensor col = boolean({2, 1}, {false, true});
  EXPECT_EQ(run1({"Where", {col, x, y}}).strings(),
            (std::vector<std::string>{"y0", "y0", "y0", "a", "b", "c"}));
}

}  // namespace
}  // namespace passlab::exec
