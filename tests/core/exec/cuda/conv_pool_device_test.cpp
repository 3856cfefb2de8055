// The CUDA convolution and pooling rows on a GPU, against loops written
// here and the CPU's epilogue: the launch functions of pool.cu and conv.cu
// directly, and the cudnn.Conv / cudnn.passlab.FusedConv kernels through a
// minimal CudaContext. Skipped where there is no CUDA device.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <cudnn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "core/exec/cpu/conv_geometry.h"
#include "core/exec/cpu/passlab_fused.h"
#include "core/exec/cpu/pool_geometry.h"
#include "core/exec/cuda/conv_launch.h"
#include "core/exec/cuda/conv_plan.h"
#include "core/exec/cuda/cuda_kernel.h"
#include "core/exec/cuda/device_tensor.h"
#include "core/exec/cuda/pool_launch.h"
#include "core/exec/cuda/pool_plan.h"
#include "core/ir/graph.h"
#include "core/ir/passlab_ops.h"
#include "tests/support/cuda_test_context.h"

namespace passlab::exec::cuda {
namespace {

using test_support::TestBuild;
using test_support::TestContext;

using ::passlab::exec::cuda::test_support::haveCudaDevice;

#define REQUIRE_DEVICE() \
  if (!haveCudaDevice()) GTEST_SKIP() << "no CUDA device: the GPU checks run on a GPU machine"

std::vector<float> randoms(size_t n, unsigned seed, float lo = -1.0f, float hi = 1.0f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = d(rng);
  return v;
}

// Device buffers of float, copied synchronously.
struct Buf {
  void* p = nullptr;
  explicit Buf(size_t bytes) { EXPECT_EQ(cudaMalloc(&p, std::max<size_t>(bytes, 4)), cudaSuccess); }
  ~Buf() { cudaFree(p); }
};
void put(Buf& b, const std::vector<float>& v) {
  ASSERT_EQ(cudaMemcpy(b.p, v.data(), v.size() * 4, cudaMemcpyHostToDevice), cudaSuccess);
}
std::vector<float> get(const Buf& b, size_t n) {
  std::vector<float> v(n);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(v.data(), b.p, n * 4, cudaMemcpyDeviceToHost), cudaSuccess);
  return v;
}

void expectNear(const std::vector<float>& got, const std::vector<float>& want, float rtol,
                float atol) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    ASSERT_NEAR(got[i], want[i], atol + rtol * std::fabs(want[i])) << "at " << i;
}

// ---- pooling: the window_kernel.cpp rules, on 3 axes ----
std::vector<float> poolRef(const std::vector<float>& x, int64_t planes, const PoolWindow3& w,
                           PoolMode mode, bool includePad) {
  const int64_t inSize = w.in[0] * w.in[1] * w.in[2];
  std::vector<float> y;
  for (int64_t p = 0; p < planes; ++p)
    for (int64_t o0 = 0; o0 < w.out[0]; ++o0)
      for (int64_t o1 = 0; o1 < w.out[1]; ++o1)
        for (int64_t o2 = 0; o2 < w.out[2]; ++o2) {
          const int64_t o[3] = {o0, o1, o2};
          float best = -FLT_MAX, sum = 0;
          int64_t valid = 0, padded = 1;
          for (int a = 0; a < 3; ++a) {
            int64_t n = 0;
            for (int64_t k = 0; k < w.kernel[a]; ++k) {
              const int64_t q = o[a] * w.stride[a] - w.padBegin[a] + k * w.dilation[a];
              if (q >= -w.padBegin[a] && q < w.in[a] + w.padEnd[a]) ++n;
            }
            padded *= n;
          }
          for (int64_t k0 = 0; k0 < w.kernel[0]; ++k0)
            for (int64_t k1 = 0; k1 < w.kernel[1]; ++k1)
              for (int64_t k2 = 0; k2 < w.kernel[2]; ++k2) {
                const int64_t q0 = o0 * w.stride[0] - w.padBegin[0] + k0 * w.dilation[0];
                const int64_t q1 = o1 * w.stride[1] - w.padBegin[1] + k1 * w.dilation[1];
                const int64_t q2 = o2 * w.stride[2] - w.padBegin[2] + k2 * w.dilation[2];
                if (q0 < 0 || q0 >= w.in[0] || q1 < 0 || q1 >= w.in[1] || q2 < 0 || q2 >= w.in[2])
                  continue;
                const float v =
                    x[static_cast<size_t>(p * inSize + (q0 * w.in[1] + q1) * w.in[2] + q2)];
                best = std::max(best, v);
                sum += v;
                ++valid;
              }
          const int64_t n = includePad ? padded : valid;
          y.push_back(mode == PoolMode::kMax ? best : (n > 0 ? sum / static_cast<float>(n) : 0.0f));
        }
  return y;
}

PoolWindow3 window2(int64_t h, int64_t w, int64_t k, int64_t s, int64_t pb, int64_t pe, int64_t dil,
                    bool ceil) {
  PoolWindow3 r{};
  r.in[0] = r.out[0] = r.kernel[0] = r.stride[0] = r.dilation[0] = 1;
  const int64_t ext[2] = {h, w};
  for (int a = 1; a < 3; ++a) {
    r.in[a] = ext[a - 1];
    r.kernel[a] = k;
    r.stride[a] = s;
    r.dilation[a] = dil;
    r.padBegin[a] = pb;
    r.padEnd[a] = pe;
    const int64_t span = (k - 1) * dil + 1;
    const int64_t room = r.in[a] + pb + pe - span;
    int64_t g = (ceil ? (room + s - 1) / s : room / s) + 1;
    if (ceil && (g - 1) * s >= r.in[a] + pb) --g;
    r.out[a] = g;
  }
  return r;
}

TEST(CudaPoolDevice, MaxAndAverageAgainstLoops) {
  REQUIRE_DEVICE();
  struct Case {
    PoolWindow3 w;
    PoolMode mode;
    bool includePad;
  };
  const Case cases[] = {
      {window2(7, 9, 3, 2, 1, 1, 1, false), PoolMode::kMax, false},
      {window2(5, 5, 2, 2, 0, 0, 1, true), PoolMode::kMax, false},  // ceil_mode
      {window2(6, 7, 3, 2, 1, 0, 1, true), PoolMode::kAverage, true},
      {window2(6, 7, 3, 2, 1, 0, 1, true), PoolMode::kAverage, false},
      {window2(8, 8, 3, 1, 2, 2, 2, false), PoolMode::kMax, false},  // dilation 2
      {window2(8, 8, 3, 3, 1, 1, 1, true), PoolMode::kAverage, true},
  };
  const int64_t planes = 6;
  for (const Case& c : cases) {
    const size_t inN = static_cast<size_t>(planes * c.w.in[0] * c.w.in[1] * c.w.in[2]);
    const size_t outN = static_cast<size_t>(planes * c.w.out[0] * c.w.out[1] * c.w.out[2]);
    const std::vector<float> x = randoms(inN, 7);
    Buf dx(inN * 4), dy(outN * 4);
    put(dx, x);
    ASSERT_EQ(launchPool(0, c.mode, c.includePad, dx.p, dy.p, planes, c.w, nullptr), 0);
    expectNear(get(dy, outN), poolRef(x, planes, c.w, c.mode, c.includePad), 1e-5f, 1e-6f);
  }
}

TEST(CudaPoolDevice, GlobalPools) {
  REQUIRE_DEVICE();
  const int64_t planes = 5, size = 1037;
  const std::vector<float> x = randoms(static_cast<size_t>(planes * size), 3);
  Buf dx(x.size() * 4), dy(planes * 4);
  put(dx, x);
  std::vector<float> mean, mx;
  for (int64_t p = 0; p < planes; ++p) {
    double s = 0;
    float m = -FLT_MAX;
    for (int64_t i = 0; i < size; ++i) {
      s += x[static_cast<size_t>(p * size + i)];
      m = std::max(m, x[static_cast<size_t>(p * size + i)]);
    }
    mean.push_back(static_cast<float>(s / size));
    mx.push_back(m);
  }
  ASSERT_EQ(launchGlobalPool(0, PoolMode::kAverage, dx.p, dy.p, planes, size, nullptr), 0);
  expectNear(get(dy, planes), mean, 1e-4f, 1e-5f);
  ASSERT_EQ(launchGlobalPool(0, PoolMode::kMax, dx.p, dy.p, planes, size, nullptr), 0);
  expectNear(get(dy, planes), mx, 0.0f, 0.0f);
}

TEST(CudaPoolDevice, ScaleShiftFloatAndHalf) {
  REQUIRE_DEVICE();
  const int64_t N = 2, P = 3, inner = 50;
  const std::vector<float> x = randoms(static_cast<size_t>(N * P * inner), 5);
  const std::vector<float> a = {0.5f, 2.0f, -1.0f}, b = {1.0f, 0.0f, 0.25f};
  std::vector<float> want;
  for (size_t i = 0; i < x.size(); ++i) {
    const size_t p = (i / inner) % P;
    want.push_back(x[i] * a[p] + b[p]);
  }
  Buf dx(x.size() * 4), dy(x.size() * 4), da(12), db(12);
  put(dx, x);
  put(da, a);
  put(db, b);
  ASSERT_EQ(launchScaleShift(0, dx.p, dy.p, N, P, inner, static_cast<const float*>(da.p),
                             static_cast<const float*>(db.p), nullptr),
            0);
  expectNear(get(dy, x.size()), want, 1e-6f, 1e-6f);
  // float16: the same through __half.
  std::vector<__half> hx(x.size());
  for (size_t i = 0; i < x.size(); ++i) hx[i] = __float2half(x[i]);
  ASSERT_EQ(cudaMemcpy(dx.p, hx.data(), hx.size() * 2, cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(launchScaleShift(1, dx.p, dy.p, N, P, inner, static_cast<const float*>(da.p),
                             static_cast<const float*>(db.p), nullptr),
            0);
  std::vector<__half> hy(x.size());
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(hy.data(), dy.p, hy.size() * 2, cudaMemcpyDeviceToHost), cudaSuccess);
  for (size_t i = 0; i < x.size(); ++i) {
    const size_t p = (i / inner) % P;
    const float w = __half2float(hx[i]) * a[p] + b[p];
    ASSERT_NEAR(__half2float(hy[i]), w, 2e-3f + 1e-3f * std::fabs(w)) << i;
  }
}

TEST(CudaConvDevice, EpilogueMatchesTheCpu) {
  REQUIRE_DEVICE();
  using cpu::fused::ActKind;
  const int64_t N = 2, M = 3, S = 40;
  const std::vector<float> y0 = randoms(static_cast<size_t>(N * M * S), 11, -4.0f, 4.0f);
  const std::vector<float> z = randoms(y0.size(), 12);
  const std::vector<float> bias = {0.5f, -0.25f, 1.0f};
  const cpu::fused::Activation acts[] = {
      {ActKind::kNone, 0, 0},
      {ActKind::kRelu, 0, 0},
      {ActKind::kLeakyRelu, 0.1f, 0},
      {ActKind::kClip, -1.0f, 2.0f},
      {ActKind::kSigmoid, 0, 0},
      {ActKind::kTanh, 0, 0},
      {ActKind::kHardSigmoid, 0.2f, 0.5f},
      {ActKind::kHardSwish, 0, 0},
      {ActKind::kGelu, 0, 0},
      {ActKind::kGeluTanh, 0, 0},
  };
  Buf dy(y0.size() * 4), dz(z.size() * 4), db(12);
  put(dz, z);
  put(db, bias);
  for (const auto& act : acts) {
    std::vector<float> want = y0;
    for (size_t i = 0; i < want.size(); ++i) want[i] += bias[(i / S) % M];
    cpu::fused::epilogue(act, want.data(), z.data(), static_cast<int64_t>(want.size()));
    put(dy, y0);
    ASSERT_EQ(launchConvEpilogue(0, dy.p, db.p, dz.p, N, M, S, epilogueAct(act), act.alpha,
                                 act.beta, nullptr),
              0);
    expectNear(get(dy, y0.size()), want, 1e-5f, 1e-6f);
  }
}

TEST(CudaConvDevice, PadSpatial) {
  REQUIRE_DEVICE();
  const int64_t in[3] = {1, 2, 3}, out[3] = {1, 4, 4}, pb[3] = {0, 1, 0};
  const std::vector<float> x = {1, 2, 3, 4, 5, 6};
  Buf dx(24), dy(64);
  put(dx, x);
  ASSERT_EQ(launchPadSpatial(0, dx.p, dy.p, 1, in, out, pb, nullptr), 0);
  const std::vector<float> want = {0, 0, 0, 0, 1, 2, 3, 0, 4, 5, 6, 0, 0, 0, 0, 0};
  expectNear(get(dy, 16), want, 0, 0);
}

// ---- the Conv kernels through a minimal context ----
// Conv on the 3 axes of the geometry (leading axes of extent 1), in double.
std::vector<float> convRef(const cpu::ConvGeometry& g, const std::vector<float>& x,
                           const std::vector<float>& w, const std::vector<float>* b) {
  const size_t r = g.spatial(), lead = 3 - r;
  int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1}, k[3] = {1, 1, 1}, s[3] = {1, 1, 1},
          d[3] = {1, 1, 1}, pb[3] = {0, 0, 0};
  for (size_t i = 0; i < r; ++i) {
    in[lead + i] = g.in[i];
    out[lead + i] = g.out[i];
    k[lead + i] = g.kernel[i];
    s[lead + i] = g.stride[i];
    d[lead + i] = g.dilation[i];
    pb[lead + i] = g.padBegin[i];
  }
  const int64_t cg = g.C / g.group, mg = g.M / g.group;
  const int64_t inSize = in[0] * in[1] * in[2], kSize = k[0] * k[1] * k[2];
  std::vector<float> y;
  for (int64_t n = 0; n < g.N; ++n)
    for (int64_t m = 0; m < g.M; ++m)
      for (int64_t o0 = 0; o0 < out[0]; ++o0)
        for (int64_t o1 = 0; o1 < out[1]; ++o1)
          for (int64_t o2 = 0; o2 < out[2]; ++o2) {
            double acc = b ? (*b)[static_cast<size_t>(m)] : 0.0;
            const int64_t grp = m / mg;
            for (int64_t c = 0; c < cg; ++c)
              for (int64_t k0 = 0; k0 < k[0]; ++k0)
                for (int64_t k1 = 0; k1 < k[1]; ++k1)
                  for (int64_t k2 = 0; k2 < k[2]; ++k2) {
                    const int64_t q0 = o0 * s[0] - pb[0] + k0 * d[0];
                    const int64_t q1 = o1 * s[1] - pb[1] + k1 * d[1];
                    const int64_t q2 = o2 * s[2] - pb[2] + k2 * d[2];
                    if (q0 < 0 || q0 >= in[0] || q1 < 0 || q1 >= in[1] || q2 < 0 || q2 >= in[2])
                      continue;
                    const float xv = x[static_cast<size_t>((n * g.C + grp * cg + c) * inSize +
                                                           (q0 * in[1] + q1) * in[2] + q2)];
                    const float wv =
                        w[static_cast<size_t>((m * cg + c) * kSize + (k0 * k[1] + k1) * k[2] + k2)];
                    acc += static_cast<double>(xv) * wv;
                  }
            y.push_back(static_cast<float>(acc));
          }
  return y;
}

// ConvTranspose on 3 axes: each input position and tap adds to the image
// position it writes (o * stride - padBegin + k * dilation), in double.
std::vector<float> convTransposeRef(const cpu::ConvGeometry& g, const std::vector<float>& x,
                                    const std::vector<float>& w, const std::vector<float>* b) {
  const size_t r = g.spatial(), lead = 3 - r;
  int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1}, k[3] = {1, 1, 1}, s[3] = {1, 1, 1},
          d[3] = {1, 1, 1}, pb[3] = {0, 0, 0};
  for (size_t i = 0; i < r; ++i) {
    in[lead + i] = g.in[i];
    out[lead + i] = g.out[i];
    k[lead + i] = g.kernel[i];
    s[lead + i] = g.stride[i];
    d[lead + i] = g.dilation[i];
    pb[lead + i] = g.padBegin[i];
  }
  const int64_t cg = g.C / g.group, mg = g.M / g.group;
  const int64_t inSize = in[0] * in[1] * in[2], outSize = out[0] * out[1] * out[2];
  const int64_t kSize = k[0] * k[1] * k[2];
  std::vector<double> y(static_cast<size_t>(g.N * g.M * outSize), 0.0);
  for (int64_t n = 0; n < g.N; ++n)
    for (int64_t m = 0; m < g.M; ++m) {
      double* yp = y.data() + (n * g.M + m) * outSize;
      if (b)
        for (int64_t i = 0; i < outSize; ++i) yp[i] = (*b)[static_cast<size_t>(m)];
      const int64_t grp = m / mg, mm = m % mg;
      for (int64_t c = grp * cg; c < (grp + 1) * cg; ++c)
        for (int64_t o0 = 0; o0 < in[0]; ++o0)
          for (int64_t o1 = 0; o1 < in[1]; ++o1)
            for (int64_t o2 = 0; o2 < in[2]; ++o2) {
              const float xv =
                  x[static_cast<size_t>((n * g.C + c) * inSize + (o0 * in[1] + o1) * in[2] + o2)];
              for (int64_t k0 = 0; k0 < k[0]; ++k0)
                for (int64_t k1 = 0; k1 < k[1]; ++k1)
                  for (int64_t k2 = 0; k2 < k[2]; ++k2) {
                    const int64_t q0 = o0 * s[0] - pb[0] + k0 * d[0];
                    const int64_t q1 = o1 * s[1] - pb[1] + k1 * d[1];
                    const int64_t q2 = o2 * s[2] - pb[2] + k2 * d[2];
                    if (q0 < 0 || q0 >= out[0] || q1 < 0 || q1 >= out[1] || q2 < 0 || q2 >= out[2])
                      continue;
                    const float wv = w[static_cast<size_t>((c * mg + mm) * kSize +
                                                           (k0 * k[1] + k1) * k[2] + k2)];
                    yp[(q0 * out[1] + q1) * out[2] + q2] += static_cast<double>(xv) * wv;
                  }
            }
    }
  return std::vector<float>(y.begin(), y.end());
}

struct ConvCase {
  Dims x = {}, w = {};
  int64_t group = 1;
  std::vector<int64_t> strides = {}, pads = {}, dilations = {};
  std::string autoPad = {};
  bool bias = true;
  bool fused = false;
  std::string activation = {};
  std::vector<float> params = {};
  bool residual = false;
  bool transposed = false;
  std::vector<int64_t> outputPadding = {};
};

class ConvDevice : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!haveCudaDevice()) GTEST_SKIP() << "no CUDA device: the GPU checks run on a GPU machine";
    ASSERT_EQ(cudaStreamCreate(&stream_), cudaSuccess);
    ASSERT_EQ(cudnnCreate(&cudnn_), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetStream(cudnn_, stream_), CUDNN_STATUS_SUCCESS);
  }
  void TearDown() override {
    if (cudnn_) cudnnDestroy(cudnn_);
    if (stream_) cudaStreamDestroy(stream_);
  }

  // Runs the case twice (the second run reuses the kept plan) and checks Y.
  void check(const ConvCase& c, ir::DataType dt = ir::DataType::kFloat) {
    ir::Graph g;
    auto type = [dt](const Dims& d) { return ir::Type::tensor(dt, ir::Shape::fromValues(d)); };
    std::vector<ir::Value*> in = {g.addInput("x", type(c.x)), g.addInput("w", type(c.w))};
    const int64_t M = c.transposed ? c.w[1] * c.group : c.w[0];
    if (c.bias || c.residual) in.push_back(g.addInput("b", type({M})));
    ir::WindowAttrs win;
    win.strides = c.strides;
    win.pads = c.pads;
    win.dilations = c.dilations;
    if (c.autoPad == "SAME_UPPER") win.autoPad = ir::AutoPad::kSameUpper;
    if (c.autoPad == "SAME_LOWER") win.autoPad = ir::AutoPad::kSameLower;
    win.outputPadding = c.outputPadding;
    auto geo = c.transposed ? cpu::convTransposeGeometry(cpu::ConvAttrs{win, c.group}, c.x, c.w)
                            : cpu::convGeometry(cpu::ConvAttrs{win, c.group}, c.x, c.w);
    ASSERT_TRUE(geo.isOk()) << geo.error().message();
    if (c.residual) in.push_back(g.addInput("z", type(geo->outDims)));
    ir::Node* n = g.addNode(c.fused        ? ir::passlab_ops::kFusedConv
                            : c.transposed ? "ConvTranspose"
                                           : "Conv",
                            c.fused ? ir::passlab_ops::kDomain : "", in, 1, nullptr, "conv");
    if (c.group != 1) n->setAttr(ir::Attribute::makeInt("group", c.group));
    if (!c.strides.empty()) n->setAttr(ir::Attribute::makeInts("strides", c.strides));
    if (!c.pads.empty()) n->setAttr(ir::Attribute::makeInts("pads", c.pads));
    if (!c.dilations.empty()) n->setAttr(ir::Attribute::makeInts("dilations", c.dilations));
    if (!c.autoPad.empty()) n->setAttr(ir::Attribute::makeString("auto_pad", c.autoPad));
    if (!c.outputPadding.empty())
      n->setAttr(ir::Attribute::makeInts("output_padding", c.outputPadding));
    if (!c.activation.empty()) n->setAttr(ir::Attribute::makeString("activation", c.activation));
    if (!c.params.empty()) n->setAttr(ir::Attribute::makeFloats("activation_params", c.params));

    const auto rows = findCudaKernels(n->domain(), n->opType(), 17, dt);
    ASSERT_FALSE(rows.empty());
    TestBuild build(*n, 17, dt, stream_);
    auto kernel = rows[0]->create(build);
    ASSERT_TRUE(kernel.isOk()) << kernel.error().message();

    const std::vector<float> x = randoms(static_cast<size_t>(numelOf(c.x)), 21);
    const std::vector<float> w = randoms(static_cast<size_t>(numelOf(c.w)), 22);
    std::vector<float> b = randoms(static_cast<size_t>(M), 23);
    if (!c.bias) std::fill(b.begin(), b.end(), 0.0f);
    const std::vector<float> z = randoms(static_cast<size_t>(numelOf(geo->outDims)), 24);
    // The inputs as the kernel sees them (rounded to dt) and as the loops do.
    auto dev = [&](const std::vector<float>& v, const Dims& d, std::vector<float>& seen) {
      Tensor t = Tensor::zeros(dt, d);
      seen = v;
      for (size_t i = 0; i < v.size(); ++i) {
        if (dt == ir::DataType::kFloat) {
          t.mutableData<float>()[i] = v[i];
        } else if (dt == ir::DataType::kFloat16) {
          t.mutableData<Half>()[i] = store<Half>(v[i]);
          seen[i] = load(t.data<Half>()[i]);
        } else {
          t.mutableData<BFloat16>()[i] = store<BFloat16>(v[i]);
          seen[i] = load(t.data<BFloat16>()[i]);
        }
      }
      auto u = upload(t, stream_);
      EXPECT_TRUE(u.isOk());
      return std::move(u).value();
    };
    std::vector<float> xs, ws, bs, zs;
    std::vector<DeviceTensor> ins = {dev(x, c.x, xs), dev(w, c.w, ws)};
    if (c.bias || c.residual) ins.push_back(dev(b, {M}, bs));
    if (c.residual) ins.push_back(dev(z, geo->outDims, zs));
    const std::vector<float>* bp = (c.bias || c.residual) ? &bs : nullptr;
    std::vector<float> want =
        c.transposed ? convTransposeRef(*geo, xs, ws, bp) : convRef(*geo, xs, ws, bp);
    if (c.fused) {
      auto act = cpu::fused::parseActivation(*n);
      ASSERT_TRUE(act.isOk());
      cpu::fused::epilogue(*act, want.data(), c.residual ? zs.data() : nullptr,
                           static_cast<int64_t>(want.size()));
    }
    for (int run = 0; run < 2; ++run) {
      TestContext ctx(ins, 1, stream_);
      ctx.withCudnn(cudnn_);
      Status st = (*kernel)->run(ctx);
      ASSERT_TRUE(st.isOk()) << st.message();
      ASSERT_EQ(ctx.output().dims(), geo->outDims);
      auto host = download(ctx.output(), stream_);
      ASSERT_TRUE(host.isOk());
      std::vector<float> got(want.size());
      for (size_t i = 0; i < got.size(); ++i) {
        if (dt == ir::DataType::kFloat)
          got[i] = host->data<float>()[i];
        else if (dt == ir::DataType::kFloat16)
          got[i] = load(host->data<Half>()[i]);
        else
          got[i] = load(host->data<BFloat16>()[i]);
      }
      // float16 / bfloat16: Y rounded once (8 / 11 bits), sums in float.
      if (dt == ir::DataType::kFloat)
        expectNear(got, want, 1e-3f, 1e-4f);
      else if (dt == ir::DataType::kFloat16)
        expectNear(got, want, 1e-2f, 1e-2f);
      else
        expectNear(got, want, 2e-2f, 3e-2f);
    }
  }

  cudaStream_t stream_ = nullptr;
  cudnnHandle_t cudnn_ = nullptr;
};

TEST_F(ConvDevice, ThreeByThreePadded) {
  check({.x = {2, 4, 7, 7}, .w = {6, 4, 3, 3}, .pads = {1, 1, 1, 1}});
}

TEST_F(ConvDevice, DepthwiseStrided) {
  check(
      {.x = {1, 8, 9, 9}, .w = {8, 1, 3, 3}, .group = 8, .strides = {2, 2}, .pads = {1, 1, 1, 1}});
}

TEST_F(ConvDevice, GroupedDilatedNoBias) {
  check({.x = {1, 4, 10, 10}, .w = {6, 2, 3, 3}, .group = 2, .dilations = {2, 2}, .bias = false});
}

TEST_F(ConvDevice, SameUpperAsymmetric) {
  check({.x = {1, 3, 8, 8}, .w = {5, 3, 3, 3}, .strides = {2, 2}, .autoPad = "SAME_UPPER"});
}

TEST_F(ConvDevice, OneDimensional) {
  check({.x = {2, 3, 20}, .w = {4, 3, 5}, .strides = {2}, .pads = {2, 2}});
}

TEST_F(ConvDevice, ThreeDimensional) {
  check({.x = {1, 2, 5, 6, 7}, .w = {3, 2, 3, 3, 3}, .pads = {1, 1, 1, 1, 1, 1}});
}

TEST_F(ConvDevice, FusedReluResidual) {
  check({.x = {1, 4, 6, 6},
         .w = {4, 4, 3, 3},
         .pads = {1, 1, 1, 1},
         .fused = true,
         .activation = "Relu",
         .residual = true});
}

TEST_F(ConvDevice, FusedReluResidualEpilogueKernel) {
  setenv("PASSLAB_CUDA_CONV_EPILOGUE", "off", 1);
  check({.x = {1, 4, 6, 6},
         .w = {4, 4, 3, 3},
         .pads = {1, 1, 1, 1},
         .fused = true,
         .activation = "Relu",
         .residual = true});
  unsetenv("PASSLAB_CUDA_CONV_EPILOGUE");
}

TEST_F(ConvDevice, FusedReluNoResidualStrided) {
  check({.x = {2, 8, 9, 9},
         .w = {16, 8, 3, 3},
         .strides = {2, 2},
         .pads = {1, 1, 1, 1},
         .fused = true,
         .activation = "Relu"});
}

TEST_F(ConvDevice, FusedReluFloat16) {
  check({.x = {1, 8, 8, 8},
         .w = {8, 8, 3, 3},
         .pads = {1, 1, 1, 1},
         .fused = true,
         .activation = "Relu",
         .residual = true},
        ir::DataType::kFloat16);
}

TEST_F(ConvDevice, FusedHardSigmoidNoResidual) {
  check({.x = {1, 4, 6, 6},
         .w = {4, 4, 1, 1},
         .fused = true,
         .activation = "HardSigmoid",
         .params = {0.3f, 0.4f}});
}

TEST_F(ConvDevice, TransposeStridedPaddedOutputPadding) {
  check({.x = {2, 3, 4, 5},
         .w = {3, 4, 3, 3},
         .strides = {2, 2},
         .pads = {1, 1, 1, 1},
         .transposed = true,
         .outputPadding = {1, 1}});
}

TEST_F(ConvDevice, TransposeGroupedOneDimensionalNoBias) {
  check({.x = {1, 4, 7},
         .w = {4, 3, 3},
         .group = 2,
         .dilations = {2},
         .bias = false,
         .transposed = true});
}

TEST_F(ConvDevice, TransposeSameUpper) {
  check({.x = {1, 2, 5, 5},
         .w = {2, 3, 3, 3},
         .strides = {2, 2},
         .autoPad = "SAME_UPPER",
         .transposed = true});
}

TEST_F(ConvDevice, BFloat16) {
  check({.x = {1, 8, 8, 8}, .w = {16, 8, 3, 3}, .pads = {1, 1, 1, 1}}, ir::DataType::kBFloat16);
}

TEST_F(ConvDevice, TransposeFloat16) {
  check({.x = {1, 4, 5, 5}, .w = {4, 4, 3, 3}, .strides = {2, 2}, .transposed = true},
        ir::DataType::kFloat16);
}

TEST_F(ConvDevice, Float16) {
  check({.x = {1, 8, 8, 8}, .w = {16, 8, 3, 3}, .pads = {1, 1, 1, 1}}, ir::DataType::kFloat16);
}

}  // namespace
}  // namespace passlab::exec::cuda

namespace passlab::exec::cuda {
namespace {

using test_support::TestBuild;
using test_support::TestContext;

// The pooling and BatchNormalization rows through the minimal context.
class PoolRows : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!haveCudaDevice()) GTEST_SKIP() << "no CUDA device: the GPU checks run on a GPU machine";
    ASSERT_EQ(cudaStreamCreate(&stream_), cudaSuccess);
  }
  void TearDown() override {
    if (stream_) cudaStreamDestroy(stream_);
  }

  DeviceTensor up(const std::vector<float>& v, const Dims& d) {
    auto u = upload(Tensor::fromVector<float>(ir::DataType::kFloat, d, v), stream_);
    EXPECT_TRUE(u.isOk());
    return std::move(u).value();
  }

  // Runs node `n` (inputs `ins`) and returns Y as floats with its dims.
  std::vector<float> run(const ir::Node& n, std::vector<DeviceTensor> ins, Dims& dims) {
    const auto rows = findCudaKernels(n.domain(), n.opType(), 17, ir::DataType::kFloat);
    EXPECT_FALSE(rows.empty());
    if (rows.empty()) return {};
    TestBuild build(n, 17, ir::DataType::kFloat, stream_);
    auto kernel = rows[0]->create(build);
    EXPECT_TRUE(kernel.isOk()) << kernel.error().message();
    if (!kernel.isOk()) return {};
    TestContext ctx(std::move(ins), 1, stream_);
    Status st = (*kernel)->run(ctx);
    EXPECT_TRUE(st.isOk()) << st.message();
    if (!st.isOk()) return {};
    dims = ctx.output().dims();
    auto host = download(ctx.output(), stream_);
    EXPECT_TRUE(host.isOk());
    const float* p = host->data<float>();
    return std::vector<float>(p, p + host->numel());
  }

  cudaStream_t stream_ = nullptr;
};

TEST_F(PoolRows, MaxPoolCeilModeAndAveragePoolCountIncludePad) {
  const Dims xd = {2, 3, 7, 8};
  const std::vector<float> x = randoms(static_cast<size_t>(numelOf(xd)), 31);
  for (const char* op : {"MaxPool", "AveragePool"}) {
    ir::Graph g;
    ir::Value* in =
        g.addInput("x", ir::Type::tensor(ir::DataType::kFloat, ir::Shape::fromValues(xd)));
    ir::Node* n = g.addNode(op, "", {in}, 1, nullptr, "pool");
    n->setAttr(ir::Attribute::makeInts("kernel_shape", {3, 3}));
    n->setAttr(ir::Attribute::makeInts("strides", {2, 2}));
    n->setAttr(ir::Attribute::makeInts("pads", {1, 0, 1, 1}));
    n->setAttr(ir::Attribute::makeInt("ceil_mode", 1));
    n->setAttr(ir::Attribute::makeInt("count_include_pad", 1));
    auto attrs = cpu::parsePoolAttrs(*n);
    ASSERT_TRUE(attrs.isOk());
    auto geo = cpu::poolGeometry(*attrs, xd);
    ASSERT_TRUE(geo.isOk());
    auto w = poolWindow3(*geo);
    ASSERT_TRUE(w.isOk());
    const bool isMax = std::string(op) == "MaxPool";
    Dims dims;
    const std::vector<float> got = run(*n, {up(x, xd)}, dims);
    EXPECT_EQ(dims, geo->outDims);
    expectNear(got,
               poolRef(x, geo->N * geo->C, *w, isMax ? PoolMode::kMax : PoolMode::kAverage, true),
               1e-5f, 1e-6f);
  }
}

TEST_F(PoolRows, GlobalAveragePool) {
  const Dims xd = {2, 3, 5, 5};
  const std::vector<float> x = randoms(static_cast<size_t>(numelOf(xd)), 32);
  ir::Graph g;
  ir::Value* in =
      g.addInput("x", ir::Type::tensor(ir::DataType::kFloat, ir::Shape::fromValues(xd)));
  ir::Node* n = g.addNode("GlobalAveragePool", "", {in}, 1, nullptr, "gap");
  Dims dims;
  const std::vector<float> got = run(*n, {up(x, xd)}, dims);
  EXPECT_EQ(dims, (Dims{2, 3, 1, 1}));
  std::vector<float> want;
  for (size_t p = 0; p < 6; ++p) {
    double sum = 0;
    for (size_t i = 0; i < 25; ++i) sum += x[p * 25 + i];
    want.push_back(static_cast<float>(sum / 25));
  }
  expectNear(got, want, 1e-5f, 1e-6f);
}

TEST_F(PoolRows, BatchNormalizationInference) {
  const Dims xd = {2, 3, 4, 4};
  const std::vector<float> x = randoms(static_cast<size_t>(numelOf(xd)), 33);
  const std::vector<float> scale = {1.5f, -0.5f, 2.0f}, bias = {0.1f, 0.2f, -0.3f},
                           mean = {0.05f, -0.1f, 0.2f}, var = {0.5f, 1.0f, 2.0f};
  ir::Graph g;
  auto t = [](const Dims& d) {
    return ir::Type::tensor(ir::DataType::kFloat, ir::Shape::fromValues(d));
  };
  std::vector<ir::Value*> in = {g.addInput("x", t(xd)), g.addInput("s", t({3})),
                                g.addInput("b", t({3})), g.addInput("m", t({3})),
                                g.addInput("v", t({3}))};
  ir::Node* n = g.addNode("BatchNormalization", "", in, 1, nullptr, "bn");
  n->setAttr(ir::Attribute::makeFloat("epsilon", 1e-3f));
  Dims dims;
  const std::vector<float> got =
      run(*n, {up(x, xd), up(scale, {3}), up(bias, {3}), up(mean, {3}), up(var, {3})}, dims);
  EXPECT_EQ(dims, xd);
  std::vector<float> want;
  for (size_t i = 0; i < x.size(); ++i) {
    const size_t c = (i / 16) % 3;
    const double a = scale[c] / std::sqrt(static_cast<double>(var[c]) + 1e-3f);
    want.push_back(static_cast<float>(x[i] * a + (bias[c] - mean[c] * a)));
  }
  expectNear(got, want, 1e-5f, 1e-6f);
}

}  // namespace
}  // namespace passlab::exec::cuda
