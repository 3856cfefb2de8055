// cuBLASLt's epilogue against a separate epilogue kernel, per GPU: the
// cublaslt.FusedGemm kernel (core/exec/cuda/matmul_cublaslt.cpp) built with
// PASSLAB_CUDA_GEMM_EPILOGUE=on (bias / ReLU / GELU in cuBLASLt) and =off
// (the plain product, then one pass of gemm_epilogue.cu), on the shapes of
// the corpus' transformer and CNN heads, float32 and float16. Prints one row
// per case: milliseconds for each, their ratio, and the largest difference
// between the two outputs. Usage: bench_cuda_gemm_epilogue [iterations]
// Without a CUDA device it says so and exits 0.
#include <cublasLt.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/exec/cuda/cublaslt_api.h"
#include "core/exec/cuda/cuda_kernel.h"
#include "core/exec/cuda/device_tensor.h"
#include "core/ir/graph.h"
#include "core/ir/passlab_ops.h"
#include "tests/support/cuda_test_context.h"

using namespace passlab;
using namespace passlab::exec;
using namespace passlab::exec::cuda;
using test_support::TestBuild;
using test_support::TestContext;

namespace {

// Random values in [-1, 1) of `dt` (float32 or float16) on the device.
DeviceTensor randomTensor(const Dims& d, ir::DataType dt, unsigned seed, cudaStream_t s) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  Tensor t = Tensor::zeros(dt, d);
  for (int64_t i = 0; i < t.numel(); ++i) {
    const float v = u(rng);
    if (dt == ir::DataType::kFloat)
      t.mutableData<float>()[i] = v;
    else
      t.mutableData<Half>()[i] = store<Half>(v);
  }
  auto up = upload(t, s);
  if (!up) {
    std::fprintf(stderr, "upload: %s\n", up.error().message().c_str());
    std::exit(1);
  }
  return *up;
}

std::vector<float> toHost(const DeviceTensor& t, cudaStream_t s) {
  auto h = download(t, s);
  if (!h) {
    std::fprintf(stderr, "download: %s\n", h.error().message().c_str());
    std::exit(1);
  }
  std::vector<float> v(static_cast<size_t>(t.numel()));
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = t.dtype() == ir::DataType::kFloat ? h->data<float>()[i] : load(h->data<Half>()[i]);
  return v;
}

struct Case {
  const char* what;
  int64_t M, K, N;
  const char* act;
  std::vector<float> params;
};

}  // namespace

int main(int argc, char** argv) {
  const int iters = argc > 1 ? std::atoi(argv[1]) : 50;
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("no CUDA device: nothing to measure\n");
    return 0;
  }
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  DeviceProperties props;
  props.name = prop.name;
  props.computeMajor = prop.major;
  props.computeMinor = prop.minor;
  props.multiprocessors = prop.multiProcessorCount;
  props.totalBytes = prop.totalGlobalMem;
  cudaStream_t stream = nullptr;
  cudaStreamCreate(&stream);
  cublasLtHandle_t lt = nullptr;
  auto ltApi = passlab::exec::cuda::loadCublasLt();
  if (!ltApi) {
    std::fprintf(stderr, "%s\n", ltApi.error().message().c_str());
    return 1;
  }
  (*ltApi)->cublasLtCreate(&lt);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);

  const Case cases[] = {
      {"gpt2 mlp fc", 1024, 768, 3072, "Gelu", {1.0f}},
      {"gpt2 mlp fc erf", 1024, 768, 3072, "Gelu", {}},
      {"gpt2 mlp proj", 1024, 3072, 768, "", {}},
      {"bert batch fc", 4096, 1024, 4096, "Gelu", {1.0f}},
      {"mlp relu", 2048, 1024, 1024, "Relu", {}},
      {"cnn head", 64, 2048, 1000, "", {}},
      {"small relu", 128, 256, 256, "Relu", {}},
  };
  std::printf("GPU: %s (sm_%d%d), %d iterations\n", prop.name, prop.major, prop.minor, iters);
  std::printf("%-18s %-8s %5s %5s %5s %-10s %10s %10s %7s %10s\n", "case", "dtype", "M", "K", "N",
              "act", "on ms", "off ms", "on/off", "max diff");
  for (ir::DataType dt : {ir::DataType::kFloat, ir::DataType::kFloat16}) {
    for (const Case& c : cases) {
      std::vector<DeviceTensor> ins = {randomTensor({c.M, c.K}, dt, 1, stream),
                                       randomTensor({c.K, c.N}, dt, 2, stream),
                                       randomTensor({c.N}, dt, 3, stream)};
      double ms[2] = {0, 0};
      std::vector<float> outs[2];
      for (int mode = 0; mode < 2; ++mode) {
        setenv("PASSLAB_CUDA_GEMM_EPILOGUE", mode == 0 ? "on" : "off", 1);
        ir::Graph g;
        ir::Node* n = g.addNode(ir::passlab_ops::kFusedGemm, ir::passlab_ops::kDomain, {}, 1,
                                nullptr, "gemm");
        if (*c.act) n->setAttr(ir::Attribute::makeString("activation", c.act));
        if (!c.params.empty()) n->setAttr(ir::Attribute::makeFloats("activation_params", c.params));
        const auto rows = findCudaKernels(n->domain(), n->opType(), 1, dt);
        if (rows.empty()) {
          std::fprintf(stderr, "no CUDA row for FusedGemm\n");
          return 1;
        }
        TestBuild b(*n, 1, dt, stream, props);
        auto kernel = rows[0]->create(b);
        if (!kernel) {
          std::fprintf(stderr, "%s: %s\n", c.what, kernel.error().message().c_str());
          return 1;
        }
        TestContext ctx(ins, 1, stream);
        ctx.withCublasLt(lt).withInvariantInputs().withDevice(props);
        for (int i = 0; i < 5; ++i) {
          Status st = (*kernel)->run(ctx);
          if (!st.isOk()) {
            std::fprintf(stderr, "%s: %s\n", c.what, st.message().c_str());
            return 1;
          }
        }
        cudaEventRecord(e0, stream);
        for (int i = 0; i < iters; ++i) (void)(*kernel)->run(ctx);
        cudaEventRecord(e1, stream);
        cudaEventSynchronize(e1);
        float t = 0;
        cudaEventElapsedTime(&t, e0, e1);
        ms[mode] = t / iters;
        outs[mode] = toHost(ctx.output(), stream);
      }
      float diff = 0;
      for (size_t i = 0; i < outs[0].size(); ++i)
        diff = std::max(diff, std::fabs(outs[0][i] - outs[1][i]));
      const std::string act = std::string(*c.act ? c.act : "-") +
                              (c.params.empty() ? "" : (c.params[0] == 1.0f ? "(tanh)" : ""));
      std::printf("%-18s %-8s %5lld %5lld %5lld %-10s %10.4f %10.4f %7.3f %10.2e\n", c.what,
                  std::string(ir::dtypeName(dt)).c_str(), static_cast<long long>(c.M),
                  static_cast<long long>(c.K), static_cast<long long>(c.N), act.c_str(), ms[0],
                  ms[1], ms[0] / ms[1], diff);
    }
  }
  unsetenv("PASSLAB_CUDA_GEMM_EPILOGUE");
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  (*ltApi)->cublasLtDestroy(lt);
  cudaStreamDestroy(stream);
  return 0;
}
