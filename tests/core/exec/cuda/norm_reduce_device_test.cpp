// The normalization, softmax and reduce launch functions on a GPU against
// host references (float32 and float16). Skipped without a CUDA device.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "core/exec/cuda/attention_launch.h"
#include "core/exec/cuda/cuda_kernel.h"
#include "core/exec/cuda/device_tensor.h"
#include "core/exec/cuda/norm_reduce_plan.h"
#include "core/exec/cuda/normalization_launch.h"
#include "core/exec/cuda/reduce_launch.h"
#include "core/ir/graph.h"
#include "tests/support/cuda_test_context.h"

namespace passlab::exec::cuda {
namespace {

using test_support::TestBuild;
using test_support::TestContext;

#define REQUIRE_DEVICE() PASSLAB_REQUIRE_CUDA_DEVICE()

std::vector<float> randoms(size_t n, unsigned seed, float lo = -3.0f, float hi = 3.0f) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = d(g);
  return v;
}

// Device buffers of float (or __half when half) copied from / to host floats.
struct Buf {
  void* p = nullptr;
  size_t n = 0;
  bool half = false;
  Buf(const std::vector<float>& v, bool h) : n(v.size()), half(h) {
    cudaMalloc(&p, bytes());
    upload(v);
  }
  Buf(size_t count, bool h) : n(count), half(h) { cudaMalloc(&p, bytes()); }
  ~Buf() { cudaFree(p); }
  size_t bytes() const { return (n ? n : 1) * (half ? 2 : 4); }
  void upload(const std::vector<float>& v) {
    if (half) {
      std::vector<__half> h(v.size());
      for (size_t i = 0; i < v.size(); ++i) h[i] = __float2half(v[i]);
      cudaMemcpy(p, h.data(), h.size() * 2, cudaMemcpyHostToDevice);
    } else {
      cudaMemcpy(p, v.data(), v.size() * 4, cudaMemcpyHostToDevice);
    }
  }
  std::vector<float> download() const {
    std::vector<float> v(n);
    if (half) {
      std::vector<__half> h(n);
      cudaMemcpy(h.data(), p, n * 2, cudaMemcpyDeviceToHost);
      for (size_t i = 0; i < n; ++i) v[i] = __half2float(h[i]);
    } else {
      cudaMemcpy(v.data(), p, n * 4, cudaMemcpyDeviceToHost);
    }
    return v;
  }
};

// Rounds through float16 when half (so the reference sees the device's inputs).
std::vector<float> rounded(std::vector<float> v, bool half) {
  if (half)
    for (float& x : v) x = __half2float(__float2half(x));
  return v;
}

void expectNear(const std::vector<float>& got, const std::vector<float>& want, float tol) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << "at " << i;
      continue;
    }
    ASSERT_NEAR(got[i], want[i], tol * (1.0f + std::fabs(want[i]))) << "at " << i;
  }
}

class NormDevice : public ::testing::TestWithParam<bool> {};  // param: float16

TEST_P(NormDevice, SoftmaxMiddleAxisAndFlattenedLog) {
  REQUIRE_DEVICE();
  const bool half = GetParam();
  const int ft = half ? 1 : 0;
  const Dims dims{3, 37, 5};
  const auto x = rounded(randoms(3 * 37 * 5, 1), half);
  Buf dx(x, half), dy(x.size(), half);
  auto r = softmaxRows(dims, 1, false).value();
  ASSERT_EQ(launchSoftmax(ft, false, dx.p, dy.p, r.outer, r.len, r.inner, nullptr), 0);
  std::vector<float> want(x.size());
  for (int64_t o = 0; o < 3; ++o)
    for (int64_t in = 0; in < 5; ++in) {
      double mx = -1e30, s = 0;
      for (int64_t i = 0; i < 37; ++i) mx = std::max<double>(mx, x[(o * 37 + i) * 5 + in]);
      for (int64_t i = 0; i < 37; ++i) s += std::exp(x[(o * 37 + i) * 5 + in] - mx);
      for (int64_t i = 0; i < 37; ++i)
        want[(o * 37 + i) * 5 + in] =
            static_cast<float>(std::exp(x[(o * 37 + i) * 5 + in] - mx) / s);
    }
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  expectNear(dy.download(), want, half ? 2e-3f : 1e-5f);

  // LogSoftmax flattened at axis 1 (opset < 13): rows of 185.
  auto f = softmaxRows(dims, 1, true).value();
  ASSERT_EQ(launchSoftmax(ft, true, dx.p, dy.p, f.outer, f.len, f.inner, nullptr), 0);
  for (int64_t o = 0; o < 3; ++o) {
    double mx = -1e30, s = 0;
    for (int64_t i = 0; i < 185; ++i) mx = std::max<double>(mx, x[o * 185 + i]);
    for (int64_t i = 0; i < 185; ++i) s += std::exp(x[o * 185 + i] - mx);
    for (int64_t i = 0; i < 185; ++i)
      want[o * 185 + i] = static_cast<float>(x[o * 185 + i] - mx - std::log(s));
  }
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  expectNear(dy.download(), want, half ? 4e-3f : 1e-5f);
}

TEST_P(NormDevice, FusedSoftmaxWithBroadcastMask) {
  REQUIRE_DEVICE();
  const bool half = GetParam();
  const Dims dims{2, 3, 4, 300};
  const size_t n = 2 * 3 * 4 * 300;
  const auto x = rounded(randoms(n, 2), half);
  const auto m = rounded(randoms(4 * 300, 3), half);  // mask [1, 1, 4, 300]
  Buf dx(x, half), dm(m, half), dy(n, half);
  FusedSoftmaxArgs a;
  a.x = dx.p;
  a.mask = dm.p;
  a.y = dy.p;
  a.rank = 4;
  auto st = broadcastStrides({1, 1, 4, 300}, dims).value();
  for (int i = 0; i < 4; ++i) {
    a.dims[i] = dims[i];
    a.mask_strides[i] = st[i];
  }
  a.len = 300;
  a.rows = static_cast<int64_t>(n / 300);
  a.scale = 0.125f;
  a.sign = -1.0f;
  ASSERT_EQ(launchFusedSoftmax(half ? 1 : 0, a, nullptr), 0);
  std::vector<float> want(n);
  for (int64_t r = 0; r < a.rows; ++r) {
    const int64_t q = r % 4;
    std::vector<double> v(300);
    double mx = -1e30, s = 0;
    for (int64_t i = 0; i < 300; ++i) {
      v[i] = 0.125 * x[r * 300 + i] - m[q * 300 + i];
      mx = std::max(mx, v[i]);
    }
    for (double& e : v) s += (e = std::exp(e - mx));
    for (int64_t i = 0; i < 300; ++i) want[r * 300 + i] = static_cast<float>(v[i] / s);
  }
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  expectNear(dy.download(), want, half ? 2e-3f : 1e-5f);
}

TEST_P(NormDevice, LayerNormWithSkipBiasAndSum) {
  REQUIRE_DEVICE();
  const bool half = GetParam();
  const int64_t rows = 7, cols = 768;
  const auto x = rounded(randoms(rows * cols, 4), half);
  const auto skip = rounded(randoms(rows * cols, 5), half);
  const auto gamma = rounded(randoms(cols, 6, 0.5f, 1.5f), half);
  const auto beta = rounded(randoms(cols, 7), half);
  Buf dx(x, half), ds(skip, half), dg(gamma, half), db(beta, half), dy(rows * cols, half),
      dsum(rows * cols, half);
  float* mean = nullptr;
  float* inv = nullptr;
  cudaMalloc(&mean, rows * 4);
  cudaMalloc(&inv, rows * 4);
  RowNormArgs a;
  a.x = dx.p;
  a.skip = ds.p;
  a.skip_count = rows * cols;
  a.scale = dg.p;
  a.scale_count = cols;
  a.bias = db.p;
  a.bias_count = cols;
  a.y = dy.p;
  a.sum = dsum.p;
  a.mean_out = mean;
  a.inv_std_out = inv;
  a.rows = rows;
  a.cols = cols;
  a.epsilon = 1e-5f;
  ASSERT_EQ(launchRowNorm(half ? 1 : 0, a, nullptr), 0);
  std::vector<float> want(rows * cols), wantSum(rows * cols), wantMean(rows), wantInv(rows);
  for (int64_t r = 0; r < rows; ++r) {
    double s = 0, q = 0;
    for (int64_t c = 0; c < cols; ++c) s += x[r * cols + c] + skip[r * cols + c];
    const double mu = s / cols;
    for (int64_t c = 0; c < cols; ++c) {
      const double d = x[r * cols + c] + skip[r * cols + c] - mu;
      q += d * d;
    }
    const double is = 1.0 / std::sqrt(q / cols + 1e-5);
    wantMean[r] = static_cast<float>(mu);
    wantInv[r] = static_cast<float>(is);
    for (int64_t c = 0; c < cols; ++c) {
      const double v = x[r * cols + c] + skip[r * cols + c];
      wantSum[r * cols + c] = static_cast<float>(v);
      want[r * cols + c] = static_cast<float>((v - mu) * is * gamma[c] + beta[c]);
    }
  }
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const float tol = half ? 1e-2f : 1e-4f;
  expectNear(dy.download(), want, tol);
  expectNear(dsum.download(), rounded(wantSum, half), tol);
  std::vector<float> gotMean(rows), gotInv(rows);
  cudaMemcpy(gotMean.data(), mean, rows * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(gotInv.data(), inv, rows * 4, cudaMemcpyDeviceToHost);
  expectNear(gotMean, wantMean, 1e-4f);
  expectNear(gotInv, wantInv, 1e-4f);
  cudaFree(mean);
  cudaFree(inv);
}

TEST_P(NormDevice, InstanceNormPerChannel) {
  REQUIRE_DEVICE();
  const bool half = GetParam();
  const int64_t N = 2, C = 3, HW = 50;
  const auto x = rounded(randoms(N * C * HW, 8), half);
  const auto sc = rounded(randoms(C, 9), half);
  const auto b = rounded(randoms(C, 10), half);
  Buf dx(x, half), dsc(sc, half), db(b, half), dy(x.size(), half);
  RowNormArgs a;
  a.x = dx.p;
  a.scale = dsc.p;
  a.bias = db.p;
  a.scale_count = a.bias_count = a.channels = C;
  a.y = dy.p;
  a.rows = N * C;
  a.cols = HW;
  a.epsilon = 1e-5f;
  ASSERT_EQ(launchRowNorm(half ? 1 : 0, a, nullptr), 0);
  std::vector<float> want(x.size());
  for (int64_t r = 0; r < N * C; ++r) {
    double s = 0, q = 0;
    for (int64_t i = 0; i < HW; ++i) s += x[r * HW + i];
    const double mu = s / HW;
    for (int64_t i = 0; i < HW; ++i) q += (x[r * HW + i] - mu) * (x[r * HW + i] - mu);
    const double is = 1.0 / std::sqrt(q / HW + 1e-5);
    for (int64_t i = 0; i < HW; ++i)
      want[r * HW + i] = static_cast<float>((x[r * HW + i] - mu) * is * sc[r % C] + b[r % C]);
  }
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  expectNear(dy.download(), want, half ? 1e-2f : 1e-4f);
}

// Host reference of a reduction by the plan's geometry.
std::vector<float> hostReduce(const std::vector<float>& x, const ReduceGeometry& g, ReduceOp op) {
  std::vector<float> out(static_cast<size_t>(g.out_count));
  for (int64_t o = 0; o < g.out_count; ++o) {
    int64_t base = 0, rem = o;
    for (int d = g.kept_rank - 1; d >= 0; --d) {
      base += (rem % g.kept_dims[d]) * g.kept_strides[d];
      rem /= g.kept_dims[d];
    }
    std::vector<double> v;
    for (int64_t r = 0; r < g.reduced_count; ++r) {
      int64_t off = 0, rr = r;
      for (int d = g.reduced_rank - 1; d >= 0; --d) {
        off += (rr % g.reduced_dims[d]) * g.reduced_strides[d];
        rr /= g.reduced_dims[d];
      }
      v.push_back(x[base + off]);
    }
    double acc = 0;
    switch (op) {
      case ReduceOp::kSum:
        for (double e : v) acc += e;
        break;
      case ReduceOp::kMean:
        for (double e : v) acc += e;
        acc /= v.size();
        break;
      case ReduceOp::kMax:
        acc = -INFINITY;
        for (double e : v) acc = std::max(acc, e);
        break;
      case ReduceOp::kSumSquare:
        for (double e : v) acc += e * e;
        break;
      case ReduceOp::kLogSumExp: {
        double m = -INFINITY;
        for (double e : v) m = std::max(m, e);
        for (double e : v) acc += std::exp(e - m);
        acc = std::log(acc) + m;
        break;
      }
      default:
        break;
    }
    out[o] = static_cast<float>(acc);
  }
  return out;
}

TEST_P(NormDevice, ReduceOverSeparatedAxes) {
  REQUIRE_DEVICE();
  const bool half = GetParam();
  const Dims dims{3, 4, 5, 6};
  const auto x = rounded(randoms(3 * 4 * 5 * 6, 11), half);
  Buf dx(x, half);
  for (auto axes : {std::vector<int64_t>{0, 2}, std::vector<int64_t>{1, 3},
                    std::vector<int64_t>{-1}, std::vector<int64_t>{}}) {
    auto plan = planCudaReduce(dims, axes, true, false).value();
    for (ReduceOp op : {ReduceOp::kSum, ReduceOp::kMean, ReduceOp::kMax, ReduceOp::kSumSquare,
                        ReduceOp::kLogSumExp}) {
      Buf dy(static_cast<size_t>(plan.geometry.out_count), half);
      ASSERT_EQ(launchReduce(half ? 1 : 0, op, dx.p, dy.p, plan.geometry, nullptr), 0);
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      SCOPED_TRACE("op " + std::to_string(static_cast<int>(op)) + ", " +
                   std::to_string(axes.size()) + " axes");
      expectNear(dy.download(), hostReduce(x, plan.geometry, op), half ? 4e-3f : 1e-5f);
    }
  }
}

// FusedAttention: Q [2,3,5,16] x K [2,3,9,16] (not transposed), V [1,3,9,8]
// broadcast over the batch, a subtracted float mask per key, a bool mask per
// (query, key), causal; against a host reference in double.
TEST_P(NormDevice, FusedAttentionMasksCausal) {
  REQUIRE_DEVICE();
  const bool half = GetParam();
  const int64_t B = 2, N = 3, S = 5, T = 9, H = 16, Hv = 8;
  const auto q = rounded(randoms(B * N * S * H, 12, -1, 1), half);
  const auto k = rounded(randoms(B * N * T * H, 13, -1, 1), half);
  const auto v = rounded(randoms(N * T * Hv, 14), half);
  const auto madd = randoms(T, 15, 0, 2);
  std::vector<unsigned char> mbool(S * T);
  for (size_t i = 0; i < mbool.size(); ++i) mbool[i] = (i % 4) != 1;
  Buf dq(q, half), dk(k, half), dv(v, half), dy(B * N * S * Hv, half), dm(madd, false);
  void* db = nullptr;
  cudaMalloc(&db, mbool.size());
  cudaMemcpy(db, mbool.data(), mbool.size(), cudaMemcpyHostToDevice);
  AttentionArgs a;
  const Dims mAddDims{T}, mBoolDims{S, T};
  const Dims* masks[3] = {nullptr, &mAddDims, &mBoolDims};
  auto out = planAttention({B, N, S, H}, {B, N, T, H}, {1, N, T, Hv}, false, masks, a);
  ASSERT_TRUE(out.isOk()) << out.error().message();
  a.q = dq.p;
  a.k = dk.p;
  a.v = dv.p;
  a.y = dy.p;
  a.mask_add = static_cast<const float*>(dm.p);
  a.mask_bool = static_cast<const bool*>(db);
  a.scale = 0.25f;
  a.subtract = true;
  a.causal = true;
  a.filter = -10000.0f;
  a.score_rows = attentionBlocks(a.batches * a.S);
  float* scores = nullptr;
  cudaMalloc(&scores, a.score_rows * T * 4);
  a.scores = scores;
  ASSERT_EQ(launchAttention(half ? 1 : 0, a, nullptr), 0);
  std::vector<float> want(B * N * S * Hv);
  for (int64_t b = 0; b < B * N; ++b) {
    const int64_t n = b % N;
    for (int64_t s = 0; s < S; ++s) {
      const int64_t limit = std::min<int64_t>(std::max<int64_t>(s + T - S + 1, 0), T);
      std::vector<double> sc(T);
      double mx = -1e300, sum = 0;
      for (int64_t t = 0; t < limit; ++t) {
        double acc = 0;
        for (int64_t h = 0; h < H; ++h) acc += q[(b * S + s) * H + h] * k[(b * T + t) * H + h];
        double x = 0.25 * acc - madd[t];
        if (!mbool[s * T + t]) x = -10000.0;
        sc[t] = x;
        mx = std::max(mx, x);
      }
      for (int64_t t = 0; t < limit; ++t) sum += (sc[t] = std::exp(sc[t] - mx));
      for (int64_t h = 0; h < Hv; ++h) {
        double acc = 0;
        for (int64_t t = 0; t < limit; ++t) acc += sc[t] * v[(n * T + t) * Hv + h];
        want[(b * S + s) * Hv + h] = static_cast<float>(acc / sum);
      }
    }
  }
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  expectNear(dy.download(), want, half ? 4e-3f : 1e-5f);
  cudaFree(db);
  cudaFree(scores);
}

TEST_P(NormDevice, ContribGeluForms) {
  REQUIRE_DEVICE();
  const bool half = GetParam();
  const int64_t rows = 5, cols = 33;
  const auto x = rounded(randoms(rows * cols, 31), half);
  const auto b = rounded(randoms(cols, 32), half);
  Buf dx(x, half), db(b, half), dy(x.size(), half);
  for (bool tanhForm : {false, true}) {
    ASSERT_EQ(
        launchContribGelu(half ? 1 : 0, tanhForm, dx.p, db.p, cols, dy.p, rows * cols, nullptr), 0);
    std::vector<float> want(x.size());
    for (int64_t i = 0; i < rows * cols; ++i) {
      const double v = x[i] + b[i % cols];
      want[i] = static_cast<float>(
          tanhForm ? 0.5 * v * (1 + std::tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)))
                   : 0.5 * v * (1 + std::erf(v / std::sqrt(2.0))));
    }
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    expectNear(dy.download(), want, half ? 4e-3f : 1e-5f);
  }
}

TEST(NormDeviceF32, HardmaxFirstLargestNaNNeverChosen) {
  REQUIRE_DEVICE();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // Rows of 4 along the last axis: a tie (first wins), a NaN first, all NaN.
  std::vector<float> x{1, 7, 7, 2, nan, 3, 5, 4, nan, nan, nan, nan};
  Buf dx(x, false), dy(x.size(), false);
  ASSERT_EQ(launchHardmax(0, dx.p, dy.p, 3, 4, 1, nullptr), 0);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(dy.download(), (std::vector<float>{0, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0}));
}

TEST(NormDeviceF32, ReduceMaxPropagatesNaN) {
  REQUIRE_DEVICE();
  std::vector<float> x{1, 2, std::numeric_limits<float>::quiet_NaN(), 4, 5, 6};
  Buf dx(x, false), dy(2, false);
  auto plan = planCudaReduce({2, 3}, {1}, false, false).value();
  ASSERT_EQ(launchReduce(0, ReduceOp::kMax, dx.p, dy.p, plan.geometry, nullptr), 0);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  auto y = dy.download();
  EXPECT_TRUE(std::isnan(y[0]));
  EXPECT_EQ(y[1], 6.0f);
}

TEST(NormDeviceF32, ArgMaxArgMinFirstAndLast) {
  REQUIRE_DEVICE();
  // [2, 4, 2] along axis 1, ties at 5 (max) and 1 (min).
  std::vector<float> x{1, 9, 5, 1, 5, 9, 1, 0, /**/ 2, 2, 3, 3, 3, 3, 2, 2};
  Buf dx(x, false);
  int64_t* y = nullptr;
  cudaMalloc(&y, 4 * sizeof(int64_t));
  std::vector<int64_t> got(4);
  auto check = [&](bool isMax, bool last, std::vector<int64_t> want) {
    ASSERT_EQ(launchArgMinMax(0, isMax, last, dx.p, y, 2, 4, 2, nullptr), 0);
    ASSERT_EQ(cudaMemcpy(got.data(), y, 4 * sizeof(int64_t), cudaMemcpyDeviceToHost), cudaSuccess);
    EXPECT_EQ(got, want) << "max " << isMax << " last " << last;
  };
  check(true, false, {1, 0, 1, 1});
  check(true, true, {2, 2, 2, 2});
  check(false, false, {0, 3, 0, 0});
  check(false, true, {3, 3, 3, 3});
  cudaFree(y);
}

// ---- the kernel classes through a minimal context (attributes, inputs, outputs) ----

DeviceTensor deviceFloats(const std::vector<float>& v, Dims dims) {
  return upload(Tensor::fromVector(ir::DataType::kFloat, std::move(dims), v), nullptr).value();
}

std::vector<float> hostFloats(const DeviceTensor& d) {
  Tensor t = download(d, nullptr).value();
  return std::vector<float>(t.data<float>(), t.data<float>() + t.numel());
}

// Runs the row of (domain, op) at `opset` on a node with `attrs`, float32.
Expected<std::vector<DeviceTensor>> runRow(std::string_view domain, std::string_view op,
                                           int64_t opset, std::vector<DeviceTensor> inputs,
                                           size_t outputs, void (*attrs)(ir::Node&) = nullptr) {
  ir::Graph g;
  std::vector<ir::Value*> in;
  for (size_t i = 0; i < inputs.size(); ++i)
    in.push_back(
        g.addInput("i" + std::to_string(i),
                   ir::Type::tensor(inputs[i].dtype(), ir::Shape::fromValues(inputs[i].dims()))));
  std::vector<std::string> names;
  for (size_t i = 0; i < outputs; ++i) names.push_back("o" + std::to_string(i));
  ir::Node* n = g.addNode(std::string(op), std::string(domain), in, names);
  if (attrs) attrs(*n);
  auto rows = findCudaKernels(domain, op, opset, ir::DataType::kFloat);
  if (rows.empty()) return internalError("no row");
  PASSLAB_ASSIGN_OR_RETURN(auto k,
                           rows.front()->create(TestBuild(*n, opset, ir::DataType::kFloat)));
  TestContext ctx(std::move(inputs), outputs, nullptr);
  PASSLAB_RETURN_IF_ERROR(k->run(ctx));
  if (cudaDeviceSynchronize() != cudaSuccess) return internalError("sync");
  return ctx.outputs();
}

TEST(NormDeviceKernels, SoftmaxOpset11FlattensAndReduceMeanAxesInput) {
  REQUIRE_DEVICE();
  const auto x = randoms(2 * 3 * 4, 21);
  auto sm = runRow("", "Softmax", 11, {deviceFloats(x, {2, 3, 4})}, 1);
  ASSERT_TRUE(sm.isOk()) << sm.error().message();
  auto y = hostFloats(sm.value()[0]);
  ASSERT_EQ(sm.value()[0].dims(), (Dims{2, 3, 4}));
  for (int o = 0; o < 2; ++o) {  // axis 1 flattened: rows of 12
    double s = 0;
    for (int i = 0; i < 12; ++i) s += y[o * 12 + i];
    EXPECT_NEAR(s, 1.0, 1e-5);
  }
  const Tensor axes = Tensor::fromVector(ir::DataType::kInt64, {1}, std::vector<int64_t>{1});
  auto mean =
      runRow("", "ReduceMean", 18, {deviceFloats(x, {2, 3, 4}), upload(axes, nullptr).value()}, 1,
             [](ir::Node& n) { n.setAttr(ir::Attribute::makeInt("keepdims", 0)); });
  ASSERT_TRUE(mean.isOk()) << mean.error().message();
  ASSERT_EQ(mean.value()[0].dims(), (Dims{2, 4}));
  auto m = hostFloats(mean.value()[0]);
  for (int o = 0; o < 2; ++o)
    for (int j = 0; j < 4; ++j) {
      double s = 0;
      for (int i = 0; i < 3; ++i) s += x[(o * 3 + i) * 4 + j];
      EXPECT_NEAR(m[o * 4 + j], s / 3, 1e-5);
    }
}

TEST(NormDeviceKernels, LayerNormalizationWithStats) {
  REQUIRE_DEVICE();
  const int64_t rows = 3, cols = 10;
  const auto x = randoms(rows * cols, 22);
  const auto sc = randoms(cols, 23);
  const auto b = randoms(cols, 24);
  auto out =
      runRow("", "LayerNormalization", 17,
             {deviceFloats(x, {rows, cols}), deviceFloats(sc, {1, cols}), deviceFloats(b, {cols})},
             3, [](ir::Node& n) { n.setAttr(ir::Attribute::makeFloat("epsilon", 1e-3f)); });
  ASSERT_TRUE(out.isOk()) << out.error().message();
  ASSERT_EQ(out.value()[1].dims(), (Dims{rows, 1}));
  auto y = hostFloats(out.value()[0]);
  auto mean = hostFloats(out.value()[1]);
  auto inv = hostFloats(out.value()[2]);
  for (int64_t r = 0; r < rows; ++r) {
    double s = 0, q = 0;
    for (int64_t c = 0; c < cols; ++c) s += x[r * cols + c];
    const double mu = s / cols;
    for (int64_t c = 0; c < cols; ++c) q += (x[r * cols + c] - mu) * (x[r * cols + c] - mu);
    const double is = 1.0 / std::sqrt(q / cols + 1e-3);
    EXPECT_NEAR(mean[r], mu, 1e-5);
    EXPECT_NEAR(inv[r], is, 1e-4 * is);
    for (int64_t c = 0; c < cols; ++c)
      EXPECT_NEAR(y[r * cols + c], (x[r * cols + c] - mu) * is * sc[c] + b[c], 1e-4);
  }
}

INSTANTIATE_TEST_SUITE_P(Types, NormDevice, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Float16" : "Float32"; });

}  // namespace
}  // namespace passlab::exec::cuda
