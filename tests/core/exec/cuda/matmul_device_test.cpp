// The cuBLASLt rows (cublaslt.MatMul, .Gemm, .FusedGemm, .FusedMatMul) on a
// GPU through a minimal CudaContext, against loops written here and the
// CPU's FusedGemm epilogue; float32 at rtol 1e-3, float16 / bfloat16 with
// their rounding. Skipped where there is no CUDA device.
#include <cublasLt.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/exec/broadcast.h"
#include "core/exec/cpu/passlab_fused.h"
#include "core/exec/cuda/cublaslt_api.h"
#include "core/exec/cuda/cuda_kernel.h"
#include "core/exec/cuda/device_tensor.h"
#include "core/ir/graph.h"
#include "core/ir/passlab_ops.h"
#include "tests/support/cuda_test_context.h"

namespace passlab::exec::cuda {
namespace {

using test_support::TestBuild;
using test_support::TestContext;

using ::passlab::exec::cuda::test_support::haveCudaDevice;

std::vector<float> randoms(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = d(rng);
  return v;
}

// numpy matmul with optional transposes of the last two dims and alpha.
std::vector<float> matmulRef(const std::vector<float>& a, Dims ad, const std::vector<float>& b,
                             Dims bd, bool ta, bool tb, float alpha, Dims& out) {
  if (ta && ad.size() >= 2) std::swap(ad[ad.size() - 1], ad[ad.size() - 2]);
  if (tb && bd.size() >= 2) std::swap(bd[bd.size() - 1], bd[bd.size() - 2]);
  const bool ea = ta && ad.size() >= 2, eb = tb && bd.size() >= 2;
  Dims a2 = ad, b2 = bd;
  if (a2.size() == 1) a2.insert(a2.begin(), 1);
  if (b2.size() == 1) b2.push_back(1);
  const int64_t M = a2[a2.size() - 2], K = a2.back(), N = b2.back();
  const size_t rank = std::max(a2.size(), b2.size());
  Dims ab(rank - 2, 1), bb(rank - 2, 1), batch(rank - 2, 1);
  for (size_t i = 0; i + 2 < a2.size(); ++i) ab[rank - a2.size() + i] = a2[i];
  for (size_t i = 0; i + 2 < b2.size(); ++i) bb[rank - b2.size() + i] = b2[i];
  for (size_t i = 0; i + 2 < rank; ++i) batch[i] = std::max(ab[i], bb[i]);
  out = batch;
  if (ad.size() > 1) out.push_back(M);
  if (bd.size() > 1) out.push_back(N);
  const int64_t count = numelOf(batch);
  std::vector<float> y(static_cast<size_t>(count * M * N));
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
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n) {
        double acc = 0;
        for (int64_t k = 0; k < K; ++k) {
          const float av = ea ? a[ia * M * K + k * M + m] : a[ia * M * K + m * K + k];
          const float bv = eb ? b[ib * K * N + n * K + k] : b[ib * K * N + k * N + n];
          acc += static_cast<double>(av) * bv;
        }
        y[static_cast<size_t>((bi * M + m) * N + n)] = alpha * static_cast<float>(acc);
      }
  }
  return y;
}

struct Attr {
  std::string name;
  float f = 0;
  int64_t i = 0;
  std::string s = {};
  std::vector<float> fs = {};
  int kind = 0;  // 0 int, 1 float, 2 string, 3 floats
};
Attr attrI(std::string n, int64_t v) {
  return {std::move(n), 0, v, {}, {}, 0};
}
Attr attrF(std::string n, float v) {
  return {std::move(n), v, 0, {}, {}, 1};
}
Attr attrS(std::string n, std::string v) {
  return {std::move(n), 0, 0, std::move(v), {}, 2};
}
Attr attrFs(std::string n, std::vector<float> v) {
  return {std::move(n), 0, 0, {}, std::move(v), 3};
}

class MatMulDevice : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!haveCudaDevice()) GTEST_SKIP() << "no CUDA device: the GPU checks run on a GPU machine";
    ASSERT_EQ(cudaStreamCreate(&stream_), cudaSuccess);
    auto lt = loadCublasLt();
    ASSERT_TRUE(lt) << lt.error().message();
    ASSERT_EQ((*lt)->cublasLtCreate(&lt_), CUBLAS_STATUS_SUCCESS);
  }
  void TearDown() override {
    if (lt_) cublasLtApi().cublasLtDestroy(lt_);
    if (stream_) cudaStreamDestroy(stream_);
    unsetenv("PASSLAB_CUDA_GEMM_EPILOGUE");
  }

  // Host values rounded to dt (`seen`), uploaded; `misalign` bytes in front.
  DeviceTensor dev(const std::vector<float>& v, const Dims& d, ir::DataType dt,
                   std::vector<float>& seen, size_t misalign = 0) {
    seen = v;
    const size_t es = dt == ir::DataType::kFloat ? 4 : 2;
    std::vector<std::byte> bytes(misalign + v.size() * es);
    for (size_t i = 0; i < v.size(); ++i) {
      std::byte* p = bytes.data() + misalign + i * es;
      if (dt == ir::DataType::kFloat) {
        std::memcpy(p, &v[i], 4);
      } else if (dt == ir::DataType::kFloat16) {
        const __half h = __float2half(v[i]);
        std::memcpy(p, &h, 2);
        seen[i] = __half2float(h);
      } else {
        const __nv_bfloat16 h = __float2bfloat16(v[i]);
        std::memcpy(p, &h, 2);
        seen[i] = __bfloat162float(h);
      }
    }
    auto st = DeviceStorage::allocate(std::max<size_t>(bytes.size(), 4), stream_);
    EXPECT_TRUE(st.isOk());
    EXPECT_EQ(cudaMemcpy((*st)->data(), bytes.data(), bytes.size(), cudaMemcpyHostToDevice),
              cudaSuccess);
    return DeviceTensor(dt, d, *st, misalign);
  }

  std::vector<float> fetch(const DeviceTensor& t) {
    auto host = download(t, stream_);
    if (!host.isOk()) {
      ADD_FAILURE() << "download: " << host.error().message();
      return {};
    }
    std::vector<float> got(static_cast<size_t>(t.numel()));
    for (size_t i = 0; i < got.size(); ++i) {
      if (t.dtype() == ir::DataType::kFloat) {
        got[i] = host->data<float>()[i];
      } else if (t.dtype() == ir::DataType::kFloat16) {
        __half_raw raw;
        raw.x = host->data<uint16_t>()[i];
        got[i] = __half2float(__half(raw));
      } else {
        __nv_bfloat16_raw raw;
        raw.x = host->data<uint16_t>()[i];
        got[i] = __bfloat162float(__nv_bfloat16(raw));
      }
    }
    return got;
  }

  // Builds the node's kernel, runs it twice on `ins` and compares with `want`.
  void runAndCompare(const std::string& op, const std::string& domain,
                     const std::vector<Attr>& attrs, ir::DataType dt,
                     const std::vector<DeviceTensor>& ins, const Dims& wantDims,
                     const std::vector<float>& want, const std::string& what) {
    ir::Graph g;
    auto type = [dt](const Dims& d) { return ir::Type::tensor(dt, ir::Shape::fromValues(d)); };
    std::vector<ir::Value*> vin = {g.addInput("a", type(ins[0].dims())),
                                   g.addInput("b", type(ins[1].dims()))};
    ir::Node* n = g.addNode(op, domain, vin, 1, nullptr, "mm");
    for (const Attr& a : attrs) {
      if (a.kind == 0) n->setAttr(ir::Attribute::makeInt(a.name, a.i));
      if (a.kind == 1) n->setAttr(ir::Attribute::makeFloat(a.name, a.f));
      if (a.kind == 2) n->setAttr(ir::Attribute::makeString(a.name, a.s));
      if (a.kind == 3) n->setAttr(ir::Attribute::makeFloats(a.name, a.fs));
    }
    const auto rows = findCudaKernels(domain, op, domain.empty() ? 17 : 1, dt);
    ASSERT_FALSE(rows.empty()) << what;
    TestBuild build(*n, n->domain().empty() ? 17 : 1, dt, stream_);
    auto kernel = rows[0]->create(build);
    ASSERT_TRUE(kernel.isOk()) << what << ": " << kernel.error().message();
    const float rtol =
        dt == ir::DataType::kFloat ? 1e-3f : (dt == ir::DataType::kFloat16 ? 1e-2f : 3e-2f);
    const float atol =
        dt == ir::DataType::kFloat ? 1e-4f : (dt == ir::DataType::kFloat16 ? 1e-2f : 3e-2f);
    for (int run = 0; run < 2; ++run) {
      TestContext ctx(ins, 1, stream_);
      ctx.withCublasLt(lt_);
      Status st = (*kernel)->run(ctx);
      ASSERT_TRUE(st.isOk()) << what << ": " << st.message();
      ASSERT_EQ(ctx.output().dims(), wantDims) << what;
      const std::vector<float> got = fetch(ctx.output());
      ASSERT_EQ(got.size(), want.size()) << what;
      for (size_t i = 0; i < got.size(); ++i)
        ASSERT_NEAR(got[i], want[i], atol + rtol * std::fabs(want[i]))
            << what << " (" << ir::dtypeName(dt) << ") at " << i << ", run " << run;
    }
  }

  void checkMatMul(Dims ad, Dims bd, ir::DataType dt = ir::DataType::kFloat, bool ta = false,
                   bool tb = false, float alpha = 1.0f, size_t misalign = 0) {
    std::vector<float> as, bs;
    const std::vector<float> a = randoms(static_cast<size_t>(numelOf(ad)), 1);
    const std::vector<float> b = randoms(static_cast<size_t>(numelOf(bd)), 2);
    std::vector<DeviceTensor> ins = {dev(a, ad, dt, as, misalign), dev(b, bd, dt, bs)};
    Dims out;
    const std::vector<float> want = matmulRef(as, ad, bs, bd, ta, tb, alpha, out);
    const bool fused = ta || tb || alpha != 1.0f;
    std::vector<Attr> attrs;
    if (fused) attrs = {attrI("transA", ta), attrI("transB", tb), attrF("alpha", alpha)};
    runAndCompare(fused ? "FusedMatMul" : "MatMul", fused ? "com.microsoft" : "", attrs, dt, ins,
                  out, want, dimsToString(ad) + " x " + dimsToString(bd));
  }

  struct GemmCase {
    Dims a, b;
    bool ta = false, tb = false;
    float alpha = 1.0f, beta = 1.0f;
    Dims c = {};
    bool hasC = false;
    bool z = false;
    bool fused = false;
    std::string act = {};
    std::vector<float> params = {};
  };

  void checkGemm(const GemmCase& gc, ir::DataType dt = ir::DataType::kFloat) {
    std::vector<float> as, bs, cs, zs;
    const std::vector<float> a = randoms(static_cast<size_t>(numelOf(gc.a)), 3);
    const std::vector<float> b = randoms(static_cast<size_t>(numelOf(gc.b)), 4);
    // Y = alpha * A' B' on the rows of A.
    const int64_t K = gc.ta ? gc.a[0] : gc.a.back();
    int64_t R = gc.ta ? gc.a[1] : 1;
    if (!gc.ta)
      for (size_t i = 0; i + 1 < gc.a.size(); ++i) R *= gc.a[i];
    const int64_t N = gc.tb ? gc.b[0] : gc.b[1];
    Dims out;
    if (gc.ta) {
      out = {R, N};
    } else {
      out.assign(gc.a.begin(), gc.a.end() - 1);
      out.push_back(N);
    }
    std::vector<DeviceTensor> ins = {dev(a, gc.a, dt, as), dev(b, gc.b, dt, bs)};
    ins.emplace_back();
    ins.emplace_back();
    if (gc.hasC) ins[2] = dev(randoms(static_cast<size_t>(numelOf(gc.c)), 5), gc.c, dt, cs);
    if (gc.z) ins[3] = dev(randoms(static_cast<size_t>(numelOf(out)), 6), out, dt, zs);
    if (!gc.fused) ins.resize(3);
    std::vector<float> want(static_cast<size_t>(numelOf(out)));
    for (int64_t r = 0; r < R; ++r)
      for (int64_t n = 0; n < N; ++n) {
        double acc = 0;
        for (int64_t k = 0; k < K; ++k)
          acc += static_cast<double>(gc.ta ? as[k * R + r] : as[r * K + k]) *
                 (gc.tb ? bs[n * K + k] : bs[k * N + n]);
        want[static_cast<size_t>(r * N + n)] = gc.alpha * static_cast<float>(acc);
      }
    if (gc.hasC) {
      const std::vector<int64_t> st = broadcastStrides(gc.c, out);
      for (int64_t i = 0; i < numelOf(out); ++i) {
        int64_t rest = i, off = 0;
        for (size_t d = out.size(); d-- > 0;) {
          off += (rest % out[d]) * st[d];
          rest /= out[d];
        }
        want[static_cast<size_t>(i)] += gc.beta * cs[static_cast<size_t>(off)];
      }
    }
    std::vector<Attr> attrs = {attrI("transA", gc.ta), attrI("transB", gc.tb),
                               attrF("alpha", gc.alpha), attrF("beta", gc.beta)};
    if (!gc.act.empty()) attrs.push_back(attrS("activation", gc.act));
    if (!gc.params.empty()) attrs.push_back(attrFs("activation_params", gc.params));
    if (gc.fused) {
      ir::Graph g;
      ir::Node* n = g.addNode("FusedGemm", ir::passlab_ops::kDomain, {}, 1, nullptr, "x");
      if (!gc.act.empty()) n->setAttr(ir::Attribute::makeString("activation", gc.act));
      if (!gc.params.empty()) n->setAttr(ir::Attribute::makeFloats("activation_params", gc.params));
      auto act = cpu::fused::parseActivation(*n);
      ASSERT_TRUE(act.isOk());
      cpu::fused::epilogue(*act, want.data(), gc.z ? zs.data() : nullptr,
                           static_cast<int64_t>(want.size()));
    }
    const std::string what = std::string(gc.fused ? "FusedGemm " : "Gemm ") + dimsToString(gc.a) +
                             " x " + dimsToString(gc.b) +
                             (gc.hasC ? " + C " + dimsToString(gc.c) : "") + (gc.z ? " + Z" : "") +
                             (gc.act.empty() ? "" : " " + gc.act);
    runAndCompare(gc.fused ? "FusedGemm" : "Gemm", gc.fused ? ir::passlab_ops::kDomain : "", attrs,
                  dt, ins, out, want, what);
  }

  cudaStream_t stream_ = nullptr;
  cublasLtHandle_t lt_ = nullptr;
};

TEST_F(MatMulDevice, MatMulShapes) {
  checkMatMul({3, 4}, {4, 5});
  checkMatMul({7, 13}, {13, 9});
  checkMatMul({4}, {4});
  checkMatMul({3, 4}, {4});
  checkMatMul({4}, {4, 5});
  checkMatMul({2, 3, 4}, {4, 5});                 // folded into rows
  checkMatMul({2, 3, 4}, {2, 4, 5});              // strided batch
  checkMatMul({3, 4}, {2, 4, 5});                 // A broadcast: stride 0
  checkMatMul({2, 1, 3, 4}, {1, 5, 4, 6});        // loop of strided batches
  checkMatMul({2, 12, 64, 64}, {2, 12, 64, 64});  // attention-like
  checkMatMul({64, 768}, {768, 3072});
  checkMatMul({2, 3, 0}, {0, 5});  // K = 0: zeros
  checkMatMul({0, 3, 4}, {4, 5});  // empty
}

TEST_F(MatMulDevice, MatMulHalfTypes) {
  for (ir::DataType dt : {ir::DataType::kFloat16, ir::DataType::kBFloat16}) {
    checkMatMul({3, 4}, {4, 5}, dt);
    checkMatMul({7, 13}, {13, 9}, dt);
    checkMatMul({2, 3, 64}, {64, 48}, dt);
    checkMatMul({3, 32}, {2, 32, 5}, dt);
  }
}

TEST_F(MatMulDevice, MisalignedOperands) {
  checkMatMul({5, 7}, {7, 3}, ir::DataType::kFloat, false, false, 1.0f, 4);
  checkMatMul({2, 5, 7}, {2, 7, 3}, ir::DataType::kFloat, false, false, 1.0f, 4);
  checkMatMul({5, 7}, {7, 3}, ir::DataType::kFloat16, false, false, 1.0f, 2);
}

TEST_F(MatMulDevice, FusedMatMul) {
  checkMatMul({4, 3}, {4, 5}, ir::DataType::kFloat, true, false, 0.5f);
  checkMatMul({3, 4}, {5, 4}, ir::DataType::kFloat, false, true, 2.0f);
  checkMatMul({2, 4, 3}, {2, 5, 4}, ir::DataType::kFloat, true, true, 1.0f);
  checkMatMul({2, 4, 3}, {4, 5}, ir::DataType::kFloat, true, false, 1.0f);
}

TEST_F(MatMulDevice, Gemm) {
  checkGemm({{3, 4}, {4, 5}});
  checkGemm({{4, 3}, {5, 4}, true, true, 0.5f, 2.0f, {5}, true});
  checkGemm({{3, 4}, {5, 4}, false, true, 1.0f, 1.0f, {5}, true});      // bias epilogue
  checkGemm({{3, 4}, {4, 5}, false, false, 1.0f, 0.5f, {3, 5}, true});  // C matrix
  checkGemm({{3, 4}, {4, 5}, false, false, 1.0f, 1.0f, {3, 1}, true});  // column: separate pass
  checkGemm({{3, 4}, {4, 5}, false, false, 2.0f, 3.0f, {1}, true});     // scalar
  checkGemm({{3, 4}, {4, 5}, false, false, 1.0f, 0.5f, {1, 5}, true});  // row, beta != 1
  checkGemm({{3, 0}, {0, 5}, false, false, 1.0f, 1.0f, {5}, true});     // K = 0
  checkGemm({{64, 256}, {1000, 256}, false, true, 1.0f, 1.0f, {1000}, true});
  checkGemm({{3, 4}, {5, 4}, false, true, 1.0f, 1.0f, {5}, true}, ir::DataType::kFloat16);
  checkGemm({{3, 4}, {5, 4}, false, true, 1.0f, 1.0f, {5}, true}, ir::DataType::kBFloat16);
}

TEST_F(MatMulDevice, FusedGemm) {
  for (const char* mode : {"on", "off"}) {
    setenv("PASSLAB_CUDA_GEMM_EPILOGUE", mode, 1);
    SCOPED_TRACE(std::string("PASSLAB_CUDA_GEMM_EPILOGUE=") + mode);
    GemmCase c{{2, 3, 64}, {64, 48}};
    c.fused = true;
    c.hasC = true;
    c.c = {48};
    for (const char* act : {"", "Relu", "Gelu", "LeakyRelu", "Sigmoid", "HardSwish", "Tanh"}) {
      c.act = act;
      c.params = {};
      checkGemm(c);
    }
    c.act = "Gelu";
    c.params = {1.0f};  // tanh: cuBLASLt's GELU epilogue
    checkGemm(c);
    c.act = "Relu";
    c.params = {};
    c.z = true;  // residual as cuBLASLt's C matrix
    checkGemm(c);
    c.c = {2, 3, 1};  // C broadcast per row: the separate pass
    checkGemm(c);
    c.hasC = false;
    checkGemm(c);
    c = GemmCase{{8, 32}, {16, 32}, false, true, 0.5f, 1.0f, {16}, true, false, true, "Relu"};
    checkGemm(c);
    c.act = "Clip";
    c.params = {-0.1f, 0.2f};
    checkGemm(c);
    c = GemmCase{{8, 32}, {32, 16}, false, false, 1.0f, 1.0f, {16}, true, true, true, "Gelu", {1}};
    checkGemm(c, ir::DataType::kFloat16);
    checkGemm(c, ir::DataType::kBFloat16);
  }
}

}  // namespace
}  // namespace passlab::exec::cuda
