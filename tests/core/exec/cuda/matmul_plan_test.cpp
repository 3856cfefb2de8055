// The host-side planning of the cuBLASLt products (core/exec/cuda/matmul_plan.h):
// the row-major to column-major mapping and the MatMul batch plans are
// checked by simulating on the host what cuBLASLt computes for them.
#include "core/exec/cuda/matmul_plan.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <vector>

namespace passlab::exec::cuda {
namespace {

// Column-major D = op(first) * op(second), as cuBLASLt computes it (one
// product of a strided batch).
void simulateLt(const LtGemm& g, const float* first, const float* second, float* d) {
  for (uint64_t j = 0; j < g.n; ++j)
    for (uint64_t i = 0; i < g.m; ++i) {
      float acc = 0.0f;
      for (uint64_t k = 0; k < g.k; ++k) {
        const float f = g.first.trans ? first[k + i * g.first.ld] : first[i + k * g.first.ld];
        const float s = g.second.trans ? second[j + k * g.second.ld] : second[k + j * g.second.ld];
        acc += f * s;
      }
      d[i + j * g.out.ld] = acc;
    }
}

std::vector<float> iota(int64_t n, float start = 1.0f) {
  std::vector<float> v(static_cast<size_t>(n));
  for (size_t i = 0; i < v.size(); ++i) v[i] = start + static_cast<float>((i * 7) % 11) - 5.0f;
  return v;
}

TEST(CudaMatmulPlan, RowMajorMappingComputesTheRowMajorProduct) {
  const int64_t M = 3, N = 5, K = 4;
  for (bool ta : {false, true})
    for (bool tb : {false, true}) {
      // A stored [M,K] or [K,M]; B stored [K,N] or [N,K].
      std::vector<float> a = iota(M * K), b = iota(K * N, 2.0f);
      auto A = [&](int64_t m, int64_t k) { return ta ? a[k * M + m] : a[m * K + k]; };
      auto B = [&](int64_t k, int64_t n) { return tb ? b[n * K + k] : b[k * N + n]; };
      LtGemm g = rowMajorGemm(M, N, K, ta, tb);
      EXPECT_EQ(g.m, static_cast<uint64_t>(N));
      EXPECT_EQ(g.n, static_cast<uint64_t>(M));
      EXPECT_EQ(g.first.trans, tb);
      EXPECT_EQ(g.second.trans, ta);
      EXPECT_EQ(g.out.ld, N);
      std::vector<float> y(static_cast<size_t>(M * N), -1.0f);
      simulateLt(g, b.data(), a.data(), y.data());
      for (int64_t m = 0; m < M; ++m)
        for (int64_t n = 0; n < N; ++n) {
          float ref = 0.0f;
          for (int64_t k = 0; k < K; ++k) ref += A(m, k) * B(k, n);
          EXPECT_FLOAT_EQ(y[static_cast<size_t>(m * N + n)], ref)
              << "transA " << ta << " transB " << tb << " at " << m << "," << n;
        }
    }
}

TEST(CudaMatmulPlan, StoredLayoutsAreTheOperandsAsStored) {
  LtGemm g = rowMajorGemm(3, 5, 4, false, false);
  EXPECT_EQ(g.first, (LtOperand{5, 4, 5, false}));   // B [4,5] row-major
  EXPECT_EQ(g.second, (LtOperand{4, 3, 4, false}));  // A [3,4] row-major
  g = rowMajorGemm(3, 5, 4, true, true);
  EXPECT_EQ(g.first, (LtOperand{4, 5, 4, true}));   // B stored [5,4]
  EXPECT_EQ(g.second, (LtOperand{3, 4, 3, true}));  // A stored [4,3]
  // Empty dims keep a leading dimension of at least 1.
  EXPECT_EQ(rowMajorGemm(0, 0, 0, false, false).out.ld, 1);
}

TEST(CudaMatmulPlan, GemmDims) {
  auto d = gemmDims({3, 4}, {4, 5}, false, false);
  ASSERT_TRUE(d.isOk());
  EXPECT_EQ(d->M, 3);
  EXPECT_EQ(d->N, 5);
  EXPECT_EQ(d->K, 4);
  d = gemmDims({4, 3}, {5, 4}, true, true);
  ASSERT_TRUE(d.isOk());
  EXPECT_EQ(d->M, 3);
  EXPECT_EQ(d->N, 5);
  auto bad = gemmDims({3, 4}, {5, 4}, false, false);
  ASSERT_FALSE(bad.isOk());
  EXPECT_NE(bad.error().message().find("inner dimensions differ"), std::string::npos);
  bad = gemmDims({2, 3, 4}, {4, 5}, false, false);
  ASSERT_FALSE(bad.isOk());
  EXPECT_NE(bad.error().message().find("Gemm needs 2-D A and B"), std::string::npos);
}

TEST(CudaMatmulPlan, FusedGemmDims) {
  Dims c = {5}, z = {2, 3, 5};
  auto s = fusedGemmDims({2, 3, 4}, {5, 4}, false, true, &c, &z);
  ASSERT_TRUE(s.isOk()) << s.error().message();
  EXPECT_EQ(s->R, 6);
  EXPECT_EQ(s->N, 5);
  EXPECT_EQ(s->K, 4);
  EXPECT_EQ(s->out, (Dims{2, 3, 5}));
  s = fusedGemmDims({4, 3}, {4, 5}, true, false, nullptr, nullptr);
  ASSERT_TRUE(s.isOk());
  EXPECT_EQ(s->R, 3);
  EXPECT_EQ(s->out, (Dims{3, 5}));
  auto bad = fusedGemmDims({2, 4, 3}, {4, 5}, true, false, nullptr, nullptr);
  ASSERT_FALSE(bad.isOk());
  EXPECT_NE(bad.error().message().find("transA needs a 2-D A"), std::string::npos);
  Dims badC = {3, 5, 1, 1};
  bad = fusedGemmDims({3, 4}, {4, 5}, false, false, &badC, nullptr);
  ASSERT_FALSE(bad.isOk());
  EXPECT_NE(bad.error().message().find("does not broadcast"), std::string::npos);
  Dims badZ = {3, 1};
  bad = fusedGemmDims({3, 4}, {4, 5}, false, false, nullptr, &badZ);
  ASSERT_FALSE(bad.isOk());
  EXPECT_NE(bad.error().message().find("residual Z"), std::string::npos);
  bad = fusedGemmDims({4}, {4, 5}, false, false, nullptr, nullptr);
  ASSERT_FALSE(bad.isOk());
}

TEST(CudaMatmulPlan, ClassifyAddend) {
  const Dims out = {3, 5};
  EXPECT_EQ(classifyAddend({5}, out), AddendKind::kRowVector);
  EXPECT_EQ(classifyAddend({1, 5}, out), AddendKind::kRowVector);
  EXPECT_EQ(classifyAddend({3, 5}, out), AddendKind::kFull);
  EXPECT_EQ(classifyAddend({1, 3, 5}, out), AddendKind::kFull);
  EXPECT_EQ(classifyAddend({3, 1}, out), AddendKind::kOther);
  EXPECT_EQ(classifyAddend({1}, out), AddendKind::kOther);
  EXPECT_EQ(classifyAddend({}, out), AddendKind::kOther);
  // One column: a scalar is one value per row, a row vector of length 1.
  EXPECT_EQ(classifyAddend({}, Dims{3, 1}), AddendKind::kRowVector);
  const Dims out3 = {2, 3, 5};
  EXPECT_EQ(classifyAddend({1, 1, 5}, out3), AddendKind::kRowVector);
  EXPECT_EQ(classifyAddend({3, 5}, out3), AddendKind::kOther);
  EXPECT_EQ(classifyAddend({2, 3, 5}, out3), AddendKind::kFull);
  EXPECT_EQ(classifyAddend({2, 1, 5}, out3), AddendKind::kOther);
}

// Runs a plan the way MatMulLt does, simulating each cuBLASLt call, and
// compares with numpy's matmul computed directly.
void checkPlan(const Dims& ad, const Dims& bd, bool ta = false, bool tb = false) {
  auto plan = matmulPlan(ad, bd, ta, tb);
  ASSERT_TRUE(plan.isOk()) << plan.error().message();
  const MatMulPlan& p = *plan;
  std::vector<float> a = iota(numelOf(ad)), b = iota(numelOf(bd), 3.0f);
  std::vector<float> y(static_cast<size_t>(numelOf(p.out)), NAN);
  const int64_t matA = p.M * p.K, matB = p.K * p.N, matY = p.M * p.N;
  const bool eta = ta && ad.size() >= 2, etb = tb && bd.size() >= 2;
  LtGemm g = rowMajorGemm(p.rows, p.N, p.K, eta, etb);
  for (const MatMulCall& call : p.calls)
    for (int64_t i = 0; i < p.inner; ++i)
      simulateLt(g, b.data() + (call.bMat + i * p.bStride) * matB,
                 a.data() + (call.aMat + i * p.aStride) * matA, y.data() + (call.yMat + i) * matY);
  // Reference: numpy semantics with explicit index arithmetic.
  Dims a2 = ad, b2 = bd;
  if (a2.size() == 1) a2.insert(a2.begin(), 1);
  if (b2.size() == 1) b2.push_back(1);
  const size_t rank = std::max(a2.size(), b2.size());
  Dims ab(rank - 2, 1), bb(rank - 2, 1), batch(rank - 2, 1);
  for (size_t i = 0; i + 2 < a2.size(); ++i) ab[rank - a2.size() + i] = a2[i];
  for (size_t i = 0; i + 2 < b2.size(); ++i) bb[rank - b2.size() + i] = b2[i];
  for (size_t i = 0; i + 2 < rank; ++i) batch[i] = std::max(ab[i], bb[i]);
  const int64_t count = numelOf(batch);
  ASSERT_EQ(static_cast<int64_t>(y.size()), count * p.M * p.N);
  for (int64_t bi = 0; bi < count; ++bi) {
    int64_t rest = bi, ia = 0, ib = 0, sa = 1, sb = 1;
    for (size_t d = batch.size(); d-- > 0;) {
      const int64_t idx = rest % batch[d];
      rest /= batch[d];
      ia += (ab[d] == 1 ? 0 : idx) * sa;
      ib += (bb[d] == 1 ? 0 : idx) * sb;
      sa *= ab[d];
      sb *= bb[d];
    }
    for (int64_t m = 0; m < p.M; ++m)
      for (int64_t n = 0; n < p.N; ++n) {
        float ref = 0.0f;
        for (int64_t k = 0; k < p.K; ++k) {
          const float av = eta ? a[ia * matA + k * p.M + m] : a[ia * matA + m * p.K + k];
          const float bv = etb ? b[ib * matB + n * p.K + k] : b[ib * matB + k * p.N + n];
          ref += av * bv;
        }
        EXPECT_FLOAT_EQ(y[static_cast<size_t>(bi * matY + m * p.N + n)], ref)
            << dimsToString(ad) << " x " << dimsToString(bd) << " batch " << bi << " at " << m
            << "," << n;
      }
  }
}

TEST(CudaMatmulPlan, MatMulPlansComputeNumpyMatmul) {
  checkPlan({3, 4}, {4, 5});
  checkPlan({4}, {4});
  checkPlan({3, 4}, {4});
  checkPlan({4}, {4, 5});
  checkPlan({2, 3, 4}, {4, 5});
  checkPlan({2, 3, 4}, {2, 4, 5});
  checkPlan({3, 4}, {2, 4, 5});
  checkPlan({2, 1, 3, 4}, {1, 5, 4, 6});
  checkPlan({2, 3, 3, 4}, {3, 4, 2});
  checkPlan({1, 3, 4}, {2, 1, 4, 5});
  checkPlan({2, 1, 1, 3, 4}, {1, 3, 2, 4, 5});
  checkPlan({2, 4, 3}, {4, 5}, true, false);
  checkPlan({2, 3, 4}, {2, 5, 4}, false, true);
  checkPlan({4, 3}, {2, 5, 4}, true, true);
}

TEST(CudaMatmulPlan, MatMulPlanShapes) {
  auto p = matmulPlan({2, 3, 4}, {4, 5});
  ASSERT_TRUE(p.isOk());
  EXPECT_EQ(p->rows, 6);  // batches folded into the rows
  EXPECT_EQ(p->calls.size(), 1u);
  EXPECT_EQ(p->out, (Dims{2, 3, 5}));

  p = matmulPlan({3, 4}, {2, 4, 5});
  ASSERT_TRUE(p.isOk());
  EXPECT_EQ(p->rows, 3);
  EXPECT_EQ(p->inner, 2);
  EXPECT_EQ(p->aStride, 0);  // A broadcast: stride 0
  EXPECT_EQ(p->bStride, 1);
  EXPECT_EQ(p->calls.size(), 1u);

  p = matmulPlan({2, 1, 3, 4}, {1, 5, 4, 6});
  ASSERT_TRUE(p.isOk());
  EXPECT_EQ(p->inner, 5);
  ASSERT_EQ(p->calls.size(), 2u);
  EXPECT_EQ(p->calls[1].aMat, 1);
  EXPECT_EQ(p->calls[1].bMat, 0);
  EXPECT_EQ(p->calls[1].yMat, 5);

  p = matmulPlan({4}, {4});
  ASSERT_TRUE(p.isOk());
  EXPECT_TRUE(p->out.empty());

  p = matmulPlan({0, 3, 4}, {4, 5});
  ASSERT_TRUE(p.isOk());
  EXPECT_TRUE(p->calls.empty());
  EXPECT_EQ(p->out, (Dims{0, 3, 5}));

  auto bad = matmulPlan({2, 3, 4}, {5, 6});
  ASSERT_FALSE(bad.isOk());
  EXPECT_NE(bad.error().message().find("inner dimensions differ"), std::string::npos);
  bad = matmulPlan({2, 3, 4}, {3, 4, 5});
  ASSERT_FALSE(bad.isOk());
  bad = matmulPlan({}, {4});
  ASSERT_FALSE(bad.isOk());
}

TEST(CudaMatmulPlan, Alignment) {
  EXPECT_EQ(ltAlignment(0x10000), 256u);
  EXPECT_EQ(ltAlignment(0x10004), 4u);
  EXPECT_EQ(ltAlignment(0x10010), 16u);
  EXPECT_EQ(ltAlignment(0x10000, 6), 2u);
  EXPECT_EQ(ltAlignment(0x10000, 64), 64u);
  EXPECT_EQ(ltAlignment(0x10001), 1u);
}

TEST(CudaMatmulPlan, EpilogueMode) {
  EXPECT_EQ(parseEpilogueMode(nullptr), EpilogueMode::kAuto);
  EXPECT_EQ(parseEpilogueMode("auto"), EpilogueMode::kAuto);
  EXPECT_EQ(parseEpilogueMode("on"), EpilogueMode::kOn);
  EXPECT_EQ(parseEpilogueMode("off"), EpilogueMode::kOff);
  EXPECT_TRUE(useLtEpilogue(EpilogueMode::kAuto));
  EXPECT_TRUE(useLtEpilogue(EpilogueMode::kOn));
  EXPECT_FALSE(useLtEpilogue(EpilogueMode::kOff));
}

}  // namespace
}  // namespace passlab::exec::cuda
