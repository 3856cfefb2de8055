// The broadcast index of the CUDA elementwise kernels (no GPU): output dims,
// collapsed dims and strides, errors, and the index walked on the host as the
// device walks it against a naive numpy-style broadcast.
#include "core/exec/cuda/elementwise_plan.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

namespace passlab::exec::cuda {
namespace {

Expected<BroadcastPlan> plan2(const Dims& a, const Dims& b) {
  const Dims* ins[] = {&a, &b};
  return planBroadcast(ins);
}

std::vector<int64_t> dimsOf(const BroadcastPlan& p) {
  return {p.index.dims, p.index.dims + p.index.rank};
}
std::vector<int64_t> stridesOf(const BroadcastPlan& p, int k) {
  return {p.index.strides[k], p.index.strides[k] + p.index.rank};
}

// Operand k's offset for output element i, as elementwise_binary.cu computes it.
int64_t offsetOf(const ew::BroadcastIndex& idx, int k, int64_t i) {
  if (idx.rank == 1) return i * idx.strides[k][0];
  int64_t off = 0, rest = i;
  for (int d = idx.rank - 1; d >= 0; --d) {
    off += (rest % idx.dims[d]) * idx.strides[k][d];
    rest /= idx.dims[d];
  }
  return off;
}

// The offset into `in` (row-major) of the output multi-index of element i.
int64_t naiveOffset(const Dims& in, const Dims& out, int64_t i) {
  std::vector<int64_t> idx(out.size());
  for (size_t d = out.size(); d-- > 0;) {
    idx[d] = i % out[d];
    i /= out[d];
  }
  int64_t off = 0;
  const size_t shift = out.size() - in.size();
  for (size_t d = 0; d < in.size(); ++d) off = off * in[d] + (in[d] == 1 ? 0 : idx[shift + d]);
  return off;
}

TEST(ElementwisePlan, EqualShapesCollapseToOneFlatDim) {
  auto p = plan2({2, 3, 4}, {2, 3, 4});
  ASSERT_TRUE(p.isOk()) << p.error().message();
  EXPECT_EQ(p->out, (Dims{2, 3, 4}));
  EXPECT_EQ(p->numel, 24);
  EXPECT_EQ(dimsOf(*p), (std::vector<int64_t>{24}));
  EXPECT_EQ(stridesOf(*p, 0), (std::vector<int64_t>{1}));
  EXPECT_EQ(stridesOf(*p, 1), (std::vector<int64_t>{1}));
}

TEST(ElementwisePlan, ScalarOperandHasStrideZero) {
  auto p = plan2({2, 3, 4}, {});
  ASSERT_TRUE(p.isOk());
  EXPECT_EQ(p->out, (Dims{2, 3, 4}));
  EXPECT_EQ(dimsOf(*p), (std::vector<int64_t>{24}));
  EXPECT_EQ(stridesOf(*p, 1), (std::vector<int64_t>{0}));
  auto q = plan2({1}, {1, 1});
  ASSERT_TRUE(q.isOk());
  EXPECT_EQ(q->out, (Dims{1, 1}));
  EXPECT_EQ(q->numel, 1);
  EXPECT_EQ(q->index.rank, 1);
}

TEST(ElementwisePlan, TrailingVector) {
  auto p = plan2({2, 3, 4}, {4});
  ASSERT_TRUE(p.isOk());
  EXPECT_EQ(dimsOf(*p), (std::vector<int64_t>{6, 4}));
  EXPECT_EQ(stridesOf(*p, 0), (std::vector<int64_t>{4, 1}));
  EXPECT_EQ(stridesOf(*p, 1), (std::vector<int64_t>{0, 1}));
}

TEST(ElementwisePlan, PerChannelVector) {
  auto p = plan2({8, 16, 7, 7}, {16, 1, 1});
  ASSERT_TRUE(p.isOk());
  EXPECT_EQ(p->out, (Dims{8, 16, 7, 7}));
  EXPECT_EQ(dimsOf(*p), (std::vector<int64_t>{8, 16, 49}));
  EXPECT_EQ(stridesOf(*p, 0), (std::vector<int64_t>{16 * 49, 49, 1}));
  EXPECT_EQ(stridesOf(*p, 1), (std::vector<int64_t>{0, 1, 0}));
}

TEST(ElementwisePlan, BothSidesBroadcast) {
  auto p = plan2({3, 1}, {1, 4});
  ASSERT_TRUE(p.isOk());
  EXPECT_EQ(p->out, (Dims{3, 4}));
  EXPECT_EQ(stridesOf(*p, 0), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(stridesOf(*p, 1), (std::vector<int64_t>{0, 1}));
}

TEST(ElementwisePlan, ZeroSizedOutput) {
  auto p = plan2({0, 3}, {1, 3});
  ASSERT_TRUE(p.isOk());
  EXPECT_EQ(p->out, (Dims{0, 3}));
  EXPECT_EQ(p->numel, 0);
}

TEST(ElementwisePlan, IncompatibleShapesNameTheDims) {
  auto p = plan2({2, 3}, {4});
  ASSERT_FALSE(p.isOk());
  EXPECT_EQ(p.error().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(p.error().message().find("[2,3]"), std::string::npos) << p.error().message();
  EXPECT_NE(p.error().message().find("do not broadcast"), std::string::npos);
}

TEST(ElementwisePlan, PlanToChecksEachInput) {
  Dims out{2, 3}, good{3}, bad{2};
  const Dims* ok[] = {&out, &good};
  EXPECT_TRUE(planBroadcastTo(out, ok).isOk());
  const Dims* notOk[] = {&out, &bad};
  auto p = planBroadcastTo(out, notOk);
  ASSERT_FALSE(p.isOk());
  EXPECT_NE(p.error().message().find("does not broadcast to [2,3]"), std::string::npos)
      << p.error().message();
  Dims longer{1, 2, 3};
  const Dims* tooLong[] = {&longer};
  EXPECT_FALSE(planBroadcastTo(out, tooLong).isOk());
}

TEST(ElementwisePlan, TooManyOperandsOrIndexDims) {
  Dims a{2};
  const Dims* four[] = {&a, &a, &a, &a};
  EXPECT_FALSE(planBroadcast(four).isOk());
  // 9 dims alternating between two operands do not merge.
  Dims x{2, 1, 2, 1, 2, 1, 2, 1, 2}, y{1, 2, 1, 2, 1, 2, 1, 2, 1};
  auto p = plan2(x, y);
  ASSERT_FALSE(p.isOk());
  EXPECT_EQ(p.error().code(), ErrorCode::kUnsupported);
}

TEST(ElementwisePlan, ThreeOperandsAsWhere) {
  Dims c{1, 4}, x{3, 1}, y{};
  const Dims* ins[] = {&c, &x, &y};
  auto p = planBroadcast(ins);
  ASSERT_TRUE(p.isOk());
  EXPECT_EQ(p->out, (Dims{3, 4}));
  for (int64_t i = 0; i < 12; ++i) {
    EXPECT_EQ(offsetOf(p->index, 0, i), naiveOffset(c, p->out, i));
    EXPECT_EQ(offsetOf(p->index, 1, i), naiveOffset(x, p->out, i));
    EXPECT_EQ(offsetOf(p->index, 2, i), 0);
  }
}

// Random shapes up to rank 6: the walked index equals the naive broadcast.
TEST(ElementwisePlan, RandomShapesMatchNaiveBroadcast) {
  std::mt19937 g(7);
  for (int trial = 0; trial < 300; ++trial) {
    const int rank = 1 + static_cast<int>(g() % 6);
    Dims out(static_cast<size_t>(rank));
    for (int64_t& d : out) d = 1 + static_cast<int64_t>(g() % 4);
    auto operand = [&] {
      const size_t r = g() % (out.size() + 1);
      Dims d(out.end() - static_cast<std::ptrdiff_t>(r), out.end());
      for (int64_t& v : d)
        if (g() % 2) v = 1;
      return d;
    };
    Dims a = operand(), b = operand();
    auto p = plan2(a, b);
    ASSERT_TRUE(p.isOk()) << p.error().message();
    ASSERT_LE(p->index.rank, ew::kMaxRank);
    for (int64_t i = 0; i < p->numel; ++i) {
      ASSERT_EQ(offsetOf(p->index, 0, i), naiveOffset(a, p->out, i))
          << dimsToString(a) << " " << dimsToString(b) << " i=" << i;
      ASSERT_EQ(offsetOf(p->index, 1, i), naiveOffset(b, p->out, i))
          << dimsToString(a) << " " << dimsToString(b) << " i=" << i;
    }
  }
}

}  // namespace
}  // namespace passlab::exec::cuda
