// The elementwise launch functions on a GPU against host references: unary
// ops (float32, float16, bfloat16), broadcasting binary ops, integer Div,
// comparisons, Max NaN, in-place accumulation, Where and Cast. Skipped
// without a CUDA device.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "core/exec/cuda/elementwise_launch.h"
#include "core/exec/cuda/elementwise_plan.h"
#include "tests/support/cuda_test_context.h"

namespace passlab::exec::cuda {
namespace {

using ew::BinaryOp;
using ew::ElemType;
using ew::UnaryOp;

#define REQUIRE_DEVICE() PASSLAB_REQUIRE_CUDA_DEVICE()

// A device copy of a host vector, and back.
template <class T>
struct Dev {
  T* p = nullptr;
  size_t n = 0;
  explicit Dev(const std::vector<T>& v) : n(v.size()) {
    EXPECT_EQ(cudaMalloc(&p, (n ? n : 1) * sizeof(T)), cudaSuccess);
    if (n) cudaMemcpy(p, v.data(), n * sizeof(T), cudaMemcpyHostToDevice);
  }
  explicit Dev(size_t count) : n(count) {
    EXPECT_EQ(cudaMalloc(&p, (n ? n : 1) * sizeof(T)), cudaSuccess);
  }
  ~Dev() { cudaFree(p); }
  std::vector<T> get() const {
    std::vector<T> v(n);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    if (n) cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost);
    return v;
  }
};

std::vector<float> randoms(size_t n, unsigned seed, float lo = -4.0f, float hi = 4.0f) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = d(g);
  return v;
}

bool close(float got, float want, float rtol, float atol) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want)) return got == want;
  return std::fabs(got - want) <= atol + rtol * std::fabs(want);
}

// max(0, min(1, v)) letting NaN through, as the kernels' ?: do.
float clamp01(float v) {
  return v < 0 ? 0 : (v > 1 ? 1 : v);
}

float refUnary(UnaryOp op, float x, float a, float b) {
  switch (op) {
    case UnaryOp::kRelu:
      return x < 0 ? 0 : x;
    case UnaryOp::kSigmoid:
      return 1.0f / (1.0f + std::exp(-x));
    case UnaryOp::kTanh:
      return std::tanh(x);
    case UnaryOp::kExp:
      return std::exp(x);
    case UnaryOp::kErf:
      return std::erf(x);
    case UnaryOp::kSoftplus:
      return std::log1p(std::exp(x));
    case UnaryOp::kHardSigmoid:
      return clamp01(a * x + b);
    case UnaryOp::kHardSwish:
      return x * clamp01(x / 6 + 0.5f);
    case UnaryOp::kLeakyRelu:
      return x < 0 ? a * x : x;
    case UnaryOp::kElu:
      return x < 0 ? a * std::expm1(x) : x;
    case UnaryOp::kGeluErf:
      return 0.5f * x * (1 + std::erf(x / std::sqrt(2.0f)));
    case UnaryOp::kGeluTanh:
      return 0.5f * x *
             (1 + std::tanh(std::sqrt(2.0f / 3.14159265358979f) * (x + 0.044715f * x * x * x)));
    case UnaryOp::kClip:
      return x < a ? a : (x > b ? b : x);
    case UnaryOp::kFloor:
      return std::floor(x);
    case UnaryOp::kRound:
      return std::nearbyint(x);
    default:
      return std::nanf("");
  }
}

const UnaryOp kCheckedUnary[] = {UnaryOp::kRelu,        UnaryOp::kSigmoid,   UnaryOp::kTanh,
                                 UnaryOp::kExp,         UnaryOp::kErf,       UnaryOp::kSoftplus,
                                 UnaryOp::kHardSigmoid, UnaryOp::kHardSwish, UnaryOp::kLeakyRelu,
                                 UnaryOp::kElu,         UnaryOp::kGeluErf,   UnaryOp::kGeluTanh,
                                 UnaryOp::kClip,        UnaryOp::kFloor,     UnaryOp::kRound};

TEST(ElementwiseDevice, UnaryFloat32) {
  REQUIRE_DEVICE();
  std::vector<float> x = randoms(10007, 1);
  x[0] = 2.5f;  // Round: to even
  x[1] = std::nanf("");
  Dev<float> dx(x);
  Dev<float> dy(x.size());
  for (UnaryOp op : kCheckedUnary) {
    const float a = op == UnaryOp::kClip ? -1.0f : 0.3f, b = op == UnaryOp::kClip ? 2.0f : 0.4f;
    ASSERT_EQ(ew::launchUnary(op, ElemType::kFloat32, dx.p, dy.p, 10007, a, b, nullptr), 0);
    std::vector<float> y = dy.get();
    for (size_t i = 0; i < x.size(); ++i)
      ASSERT_TRUE(close(y[i], refUnary(op, x[i], a, b), 1e-5f, 1e-6f))
          << "op " << static_cast<int>(op) << " x=" << x[i] << " got " << y[i];
  }
}

TEST(ElementwiseDevice, UnaryHalfAndBFloat16) {
  REQUIRE_DEVICE();
  std::vector<float> x = randoms(4099, 2);
  std::vector<__half> xh(x.size());
  std::vector<__nv_bfloat16> xb(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    xh[i] = __float2half(x[i]);
    xb[i] = __float2bfloat16(x[i]);
  }
  Dev<__half> dh(xh), yh(x.size());
  Dev<__nv_bfloat16> db(xb), yb(x.size());
  for (UnaryOp op : {UnaryOp::kSigmoid, UnaryOp::kGeluErf, UnaryOp::kRelu}) {
    ASSERT_EQ(ew::launchUnary(op, ElemType::kFloat16, dh.p, yh.p, 4099, 0, 0, nullptr), 0);
    ASSERT_EQ(ew::launchUnary(op, ElemType::kBFloat16, db.p, yb.p, 4099, 0, 0, nullptr), 0);
    auto h = yh.get();
    auto b = yb.get();
    for (size_t i = 0; i < x.size(); ++i) {
      float rh = refUnary(op, __half2float(xh[i]), 0, 0);
      float rb = refUnary(op, __bfloat162float(xb[i]), 0, 0);
      ASSERT_TRUE(close(__half2float(h[i]), rh, 2e-3f, 1e-4f)) << i;
      ASSERT_TRUE(close(__bfloat162float(b[i]), rb, 1e-2f, 1e-3f)) << i;
    }
  }
}

TEST(ElementwiseDevice, AddBroadcastPerChannel) {
  REQUIRE_DEVICE();
  Dims da{2, 3, 4, 5}, db{3, 1, 1};
  const Dims* ins[] = {&da, &db};
  auto plan = planBroadcast(ins);
  ASSERT_TRUE(plan.isOk());
  std::vector<float> a = randoms(120, 3), b = {10, 20, 30};
  Dev<float> pa(a), pb(b), py(120);
  ASSERT_EQ(ew::launchBinary(BinaryOp::kAdd, ElemType::kFloat32, ElemType::kFloat32, pa.p, pb.p,
                             py.p, plan->index, plan->numel, 1, nullptr),
            0);
  auto y = py.get();
  for (int64_t i = 0; i < 120; ++i) EXPECT_EQ(y[i], a[i] + b[(i / 20) % 3]) << i;
}

TEST(ElementwiseDevice, IntegerDivTruncatesAndZeroDivisorGivesZero) {
  REQUIRE_DEVICE();
  std::vector<int32_t> a = {7, -7, 7, -7, 5, std::numeric_limits<int32_t>::min()};
  std::vector<int32_t> b = {2, 2, -2, -2, 0, -1};
  Dims d{6};
  const Dims* ins[] = {&d, &d};
  auto plan = planBroadcast(ins);
  Dev<int32_t> pa(a), pb(b), py(6);
  ASSERT_EQ(ew::launchBinary(BinaryOp::kDiv, ElemType::kInt32, ElemType::kInt32, pa.p, pb.p, py.p,
                             plan->index, 6, 1, nullptr),
            0);
  EXPECT_EQ(py.get(), (std::vector<int32_t>{3, -3, -3, 3, 0, std::numeric_limits<int32_t>::min()}));
}

TEST(ElementwiseDevice, CompareGivesBoolAndMaxPropagatesNaN) {
  REQUIRE_DEVICE();
  const float nan = std::nanf("");
  std::vector<float> a = {1, 2, 3, nan}, b = {2, 2, 2, 0};
  Dims d{4};
  const Dims* ins[] = {&d, &d};
  auto plan = planBroadcast(ins);
  Dev<float> pa(a), pb(b), pm(4);
  Dev<uint8_t> pl(4);  // bool
  ASSERT_EQ(ew::launchBinary(BinaryOp::kLess, ElemType::kFloat32, ElemType::kFloat32, pa.p, pb.p,
                             pl.p, plan->index, 4, 1, nullptr),
            0);
  ASSERT_EQ(ew::launchBinary(BinaryOp::kMax, ElemType::kFloat32, ElemType::kFloat32, pa.p, pb.p,
                             pm.p, plan->index, 4, 1, nullptr),
            0);
  EXPECT_EQ(pl.get(), (std::vector<uint8_t>{1, 0, 0, 0}));
  auto m = pm.get();
  EXPECT_EQ(m[0], 2);
  EXPECT_EQ(m[2], 3);
  EXPECT_TRUE(std::isnan(m[3]));
}

TEST(ElementwiseDevice, InPlaceMeanAccumulation) {
  REQUIRE_DEVICE();
  // Mean(x0[2,3], x1[3], x2[2,1]) as VariadicKernel runs it: y = x0 + x1, y = (y + x2) / 3.
  Dims out{2, 3}, d0{2, 3}, d1{3}, d2{2, 1};
  std::vector<float> x0 = {1, 2, 3, 4, 5, 6}, x1 = {10, 20, 30}, x2 = {100, 200};
  Dev<float> p0(x0), p1(x1), p2(x2), py(6);
  const Dims* s1[] = {&d0, &d1};
  const Dims* s2[] = {&out, &d2};
  auto plan1 = planBroadcastTo(out, s1);
  auto plan2 = planBroadcastTo(out, s2);
  ASSERT_EQ(ew::launchBinary(BinaryOp::kAdd, ElemType::kFloat32, ElemType::kFloat32, p0.p, p1.p,
                             py.p, plan1->index, 6, 3, nullptr),
            0);
  ASSERT_EQ(ew::launchBinary(BinaryOp::kMeanFinish, ElemType::kFloat32, ElemType::kFloat32, py.p,
                             p2.p, py.p, plan2->index, 6, 3, nullptr),
            0);
  auto y = py.get();
  for (int i = 0; i < 6; ++i) EXPECT_FLOAT_EQ(y[i], (x0[i] + x1[i % 3] + x2[i / 3]) / 3.0f) << i;
}

TEST(ElementwiseDevice, PowWithIntegerExponent) {
  REQUIRE_DEVICE();
  std::vector<float> a = {2, 3, -2, 4};
  std::vector<int64_t> e = {3};
  Dims da{4}, de{};
  const Dims* ins[] = {&da, &de};
  auto plan = planBroadcast(ins);
  Dev<float> pa(a), py(4);
  Dev<int64_t> pe(e);
  ASSERT_EQ(ew::launchBinary(BinaryOp::kPow, ElemType::kFloat32, ElemType::kInt64, pa.p, pe.p, py.p,
                             plan->index, 4, 1, nullptr),
            0);
  EXPECT_EQ(py.get(), (std::vector<float>{8, 27, -8, 64}));
}

TEST(ElementwiseDevice, WhereBroadcast) {
  REQUIRE_DEVICE();
  Dims dc{3, 1}, dx{1, 4}, dy{};
  const Dims* ins[] = {&dc, &dx, &dy};
  auto plan = planBroadcast(ins);
  ASSERT_TRUE(plan.isOk());
  std::vector<uint8_t> c = {1, 0, 1};  // bool
  std::vector<int64_t> x = {1, 2, 3, 4}, y = {-1};
  Dev<uint8_t> pc(c);
  Dev<int64_t> px(x), py(y), po(12);
  ASSERT_EQ(ew::launchWhere(8, pc.p, px.p, py.p, po.p, plan->index, 12, nullptr), 0);
  EXPECT_EQ(po.get(), (std::vector<int64_t>{1, 2, 3, 4, -1, -1, -1, -1, 1, 2, 3, 4}));
}

TEST(ElementwiseDevice, CastFloatToIntTruncatesAndNaNGivesZero) {
  REQUIRE_DEVICE();
  const float nan = std::nanf(""), inf = std::numeric_limits<float>::infinity();
  std::vector<float> x = {1.9f, -1.9f, nan, inf, 300.5f, 0.0f};
  Dev<float> px(x);
  Dev<int32_t> pi(6);
  Dev<uint8_t> pu(6);
  Dev<uint8_t> pb(6);  // bool
  Dev<__half> ph(6);
  ASSERT_EQ(ew::launchCast(ElemType::kFloat32, ElemType::kInt32, px.p, pi.p, 6, nullptr), 0);
  ASSERT_EQ(ew::launchCast(ElemType::kFloat32, ElemType::kUInt8, px.p, pu.p, 6, nullptr), 0);
  ASSERT_EQ(ew::launchCast(ElemType::kFloat32, ElemType::kBool, px.p, pb.p, 6, nullptr), 0);
  ASSERT_EQ(ew::launchCast(ElemType::kFloat32, ElemType::kFloat16, px.p, ph.p, 6, nullptr), 0);
  EXPECT_EQ(pi.get(), (std::vector<int32_t>{1, -1, 0, 0, 300, 0}));
  EXPECT_EQ(pu.get(), (std::vector<uint8_t>{1, 255, 0, 0, 44, 0}));  // 300 wraps to 44
  EXPECT_EQ(pb.get(), (std::vector<uint8_t>{1, 1, 1, 1, 1, 0}));
  auto h = ph.get();
  EXPECT_EQ(__half2float(h[0]), __half2float(__float2half(1.9f)));
  EXPECT_TRUE(std::isinf(__half2float(h[3])));
}

TEST(ElementwiseDevice, LargeGeneralBroadcastCoversEveryElement) {
  REQUIRE_DEVICE();
  // More elements than one grid covers (the grid-stride loop), a rank-3 index.
  Dims da{3, 1, 1 << 20}, db{1, 5, 1};
  const Dims* ins[] = {&da, &db};
  auto plan = planBroadcast(ins);
  ASSERT_TRUE(plan.isOk());
  ASSERT_EQ(plan->index.rank, 3);
  const int64_t n = plan->numel;
  std::vector<float> a(3 << 20);
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(i % 1000);
  std::vector<float> b = {1, 2, 3, 4, 5};
  Dev<float> pa(a), pb(b), py(static_cast<size_t>(n));
  ASSERT_EQ(ew::launchBinary(BinaryOp::kMul, ElemType::kFloat32, ElemType::kFloat32, pa.p, pb.p,
                             py.p, plan->index, n, 1, nullptr),
            0);
  auto y = py.get();
  const int64_t inner = 1 << 20;
  for (int64_t i = 0; i < n; i += 9973) {
    const int64_t k = i % inner, j = (i / inner) % 5, r = i / (inner * 5);
    ASSERT_EQ(y[static_cast<size_t>(i)], a[static_cast<size_t>(r * inner + k)] * b[j]) << i;
  }
}

}  // namespace
}  // namespace passlab::exec::cuda
