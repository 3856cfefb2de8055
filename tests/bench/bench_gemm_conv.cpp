// SGEMM and a 3x3 convolution on this machine: oneDNN vs OpenBLAS vs a naive
// loop, at 1 and 2 threads. Prints figures (docs/exec-backends.md records them
// and the choice they support). Not a test.
//
//   build-exec/tests/bench/bench_gemm_conv [--quick]
#include <cblas.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <oneapi/dnnl/dnnl.hpp>
#include <random>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

// Median milliseconds of `f` over repeats filling about `budgetMs`.
double medianMs(const std::function<void()>& f, double budgetMs = 300) {
  f();  // warm-up (also creates caches)
  std::vector<double> t;
  auto start = Clock::now();
  do {
    auto a = Clock::now();
    f();
    t.push_back(std::chrono::duration<double, std::milli>(Clock::now() - a).count());
  } while (std::chrono::duration<double, std::milli>(Clock::now() - start).count() < budgetMs &&
           t.size() < 200);
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

std::vector<float> randomVector(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-1, 1);
  std::vector<float> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

void naiveGemm(int M, int N, int K, const float* A, const float* B, float* C) {
  for (int m = 0; m < M; ++m) {
    float* c = C + static_cast<size_t>(m) * N;
    std::fill(c, c + N, 0.0f);
    for (int k = 0; k < K; ++k) {
      float a = A[static_cast<size_t>(m) * K + k];
      const float* b = B + static_cast<size_t>(k) * N;
      for (int n = 0; n < N; ++n) c[n] += a * b[n];
    }
  }
}

void setThreads(int t) {
  omp_set_num_threads(t);
  openblas_set_num_threads(t);
}

void benchGemm(bool quick) {
  std::printf("SGEMM, GFLOP/s (M = N = K)\n");
  std::printf("%-28s %8s %8s %8s\n", "back-end / threads", "256", "512", "1024");
  std::vector<int> sizes = {256, 512, 1024};
  for (const char* which : {"onednn dnnl_sgemm", "openblas cblas_sgemm", "naive loop"}) {
    for (int threads : {1, 2}) {
      if (std::strcmp(which, "naive loop") == 0 && threads == 2) continue;
      setThreads(threads);
      std::printf("%-24s %3d", which, threads);
      for (int n : sizes) {
        if (quick && n == 1024) {
          std::printf(" %8s", "-");
          continue;
        }
        auto A = randomVector(size_t(n) * n, 1), B = randomVector(size_t(n) * n, 2);
        std::vector<float> C(size_t(n) * n);
        std::function<void()> f;
        if (which[0] == 'o' && which[1] == 'n') {
          f = [&] {
            dnnl_sgemm('N', 'N', n, n, n, 1.f, A.data(), n, B.data(), n, 0.f, C.data(), n);
          };
        } else if (which[0] == 'o') {
          f = [&] {
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.f, A.data(), n,
                        B.data(), n, 0.f, C.data(), n);
          };
        } else {
          if (n == 1024) {
            std::printf(" %8s", "-");
            continue;
          }
          f = [&] { naiveGemm(n, n, n, A.data(), B.data(), C.data()); };
        }
        double ms = medianMs(f);
        std::printf(" %8.1f", 2.0 * n * n * n / (ms * 1e6));
      }
      std::printf("\n");
    }
  }
}

// ---- convolution: N=1, C=K=64, 56x56, 3x3, pad 1, stride 1 ----
constexpr int kC = 64, kK = 64, kH = 56, kW = 56, kR = 3;

struct ConvData {
  std::vector<float> src = randomVector(size_t(kC) * kH * kW, 3);
  std::vector<float> wei = randomVector(size_t(kK) * kC * kR * kR, 4);
  std::vector<float> bias = randomVector(kK, 5);
  std::vector<float> dst = std::vector<float>(size_t(kK) * kH * kW);
};

double convFlops() {
  return 2.0 * kK * kC * kR * kR * kH * kW;
}

// oneDNN convolution. blocked: let oneDNN choose layouts; withReorders: also
// convert NCHW src to its layout and dst back on every call (what an executor
// keeping NCHW between ops pays).
double onednnConv(ConvData& d, bool blocked, bool withReorders) {
  using namespace dnnl;
  engine eng(engine::kind::cpu, 0);
  stream s(eng);
  memory::dims src_d = {1, kC, kH, kW}, wei_d = {kK, kC, kR, kR}, dst_d = {1, kK, kH, kW};
  auto any = memory::format_tag::any;
  auto tagS = blocked ? any : memory::format_tag::nchw;
  auto tagW = blocked ? any : memory::format_tag::oihw;
  auto mdS = memory::desc(src_d, memory::data_type::f32, tagS);
  auto mdW = memory::desc(wei_d, memory::data_type::f32, tagW);
  auto mdB = memory::desc({kK}, memory::data_type::f32, memory::format_tag::x);
  auto mdD = memory::desc(dst_d, memory::data_type::f32, tagS);
  auto desc = convolution_forward::desc(prop_kind::forward_inference, algorithm::convolution_direct,
                                        mdS, mdW, mdB, mdD, {1, 1}, {1, 1}, {1, 1});
  auto pd = convolution_forward::primitive_desc(desc, eng);
  auto conv = convolution_forward(pd);
  memory userS({src_d, memory::data_type::f32, memory::format_tag::nchw}, eng, d.src.data());
  memory userW({wei_d, memory::data_type::f32, memory::format_tag::oihw}, eng, d.wei.data());
  memory userD({dst_d, memory::data_type::f32, memory::format_tag::nchw}, eng, d.dst.data());
  memory bias(mdB, eng, d.bias.data());
  memory convS = pd.src_desc() == userS.get_desc() ? userS : memory(pd.src_desc(), eng);
  memory convW = pd.weights_desc() == userW.get_desc() ? userW : memory(pd.weights_desc(), eng);
  memory convD = pd.dst_desc() == userD.get_desc() ? userD : memory(pd.dst_desc(), eng);
  if (convW != userW) reorder(userW, convW).execute(s, userW, convW);  // pre-packed once
  if (convS != userS) reorder(userS, convS).execute(s, userS, convS);
  reorder toConv = convS != userS ? reorder(userS, convS) : reorder();
  reorder fromConv = convD != userD ? reorder(convD, userD) : reorder();
  return medianMs([&] {
    if (withReorders && convS != userS) toConv.execute(s, userS, convS);
    conv.execute(s, {{DNNL_ARG_SRC, convS},
                     {DNNL_ARG_WEIGHTS, convW},
                     {DNNL_ARG_BIAS, bias},
                     {DNNL_ARG_DST, convD}});
    if (withReorders && convD != userD) fromConv.execute(s, convD, userD);
    s.wait();
  });
}

double im2colOpenblasConv(ConvData& d) {
  std::vector<float> col(size_t(kC) * kR * kR * kH * kW);
  return medianMs([&] {
    for (int c = 0; c < kC; ++c)
      for (int r = 0; r < kR; ++r)
        for (int q = 0; q < kR; ++q) {
          float* out = col.data() + ((size_t(c) * kR + r) * kR + q) * kH * kW;
          for (int y = 0; y < kH; ++y)
            for (int x = 0; x < kW; ++x) {
              int iy = y + r - 1, ix = x + q - 1;
              out[y * kW + x] = (iy < 0 || iy >= kH || ix < 0 || ix >= kW)
                                    ? 0.f
                                    : d.src[(size_t(c) * kH + iy) * kW + ix];
            }
        }
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, kK, kH * kW, kC * kR * kR, 1.f,
                d.wei.data(), kC * kR * kR, col.data(), kH * kW, 0.f, d.dst.data(), kH * kW);
  });
}

double naiveConv(ConvData& d) {
  return medianMs(
      [&] {
        for (int k = 0; k < kK; ++k)
          for (int y = 0; y < kH; ++y)
            for (int x = 0; x < kW; ++x) {
              float acc = d.bias[k];
              for (int c = 0; c < kC; ++c)
                for (int r = 0; r < kR; ++r)
                  for (int q = 0; q < kR; ++q) {
                    int iy = y + r - 1, ix = x + q - 1;
                    if (iy < 0 || iy >= kH || ix < 0 || ix >= kW) continue;
                    acc += d.src[(size_t(c) * kH + iy) * kW + ix] *
                           d.wei[((size_t(k) * kC + c) * kR + r) * kR + q];
                  }
              d.dst[(size_t(k) * kH + y) * kW + x] = acc;
            }
      },
      1000);
}

void benchConv() {
  std::printf("\nConv 3x3, 64->64 channels, 56x56, N=1, pad 1: milliseconds (GFLOP/s)\n");
  std::printf("%-50s %16s %16s\n", "variant", "1 thread", "2 threads");
  ConvData d;
  struct Row {
    const char* name;
    std::function<double()> f;
    bool twoThreads;
  };
  std::vector<Row> rows = {
      {"oneDNN, its blocked layout (no reorders)", [&] { return onednnConv(d, true, false); },
       true},
      {"oneDNN, blocked + NCHW reorders per call", [&] { return onednnConv(d, true, true); }, true},
      {"oneDNN, plain NCHW", [&] { return onednnConv(d, false, false); }, true},
      {"im2col + OpenBLAS sgemm", [&] { return im2colOpenblasConv(d); }, true},
      {"naive direct loop", [&] { return naiveConv(d); }, false},
  };
  for (auto& row : rows) {
    std::printf("%-50s", row.name);
    for (int threads : {1, 2}) {
      if (threads == 2 && !row.twoThreads) {
        std::printf(" %16s", "-");
        continue;
      }
      setThreads(threads);
      double ms = row.f();
      std::printf("   %6.2f (%5.0f)", ms, convFlops() / (ms * 1e6));
    }
    std::printf("\n");
  }
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  std::printf("cores: %d\n\n", omp_get_num_procs());
  benchGemm(quick);
  benchConv();
  return 0;
}
