// 1x1 convolutions (stride 1, no padding) on NCHW float32 activations, per
// call: oneDNN's convolution with the layouts it picks given `any` (the input
// reordered in and the result out on every call, weights packed once: what
// the Conv kernel does outside conv_layout_choice.h's rules) against the ways
// to run them on the NCHW tensors themselves:
//   conv-nchw     oneDNN's convolution asked for plain NCHW src and dst (gemm:jit)
//   matmul        oneDNN's batched matmul W[g] (M/g x C/g) x X[n, g] (C/g x S),
//                 the bias a binary post-op
//   sgemm         one dnnl_sgemm per group, then a bias pass
//   gemv          (S == 1 only) convGemv (core/exec/cpu/conv_gemv.h): gemvRows
//                 per image and group, then the bias
// Shapes: the grouped 1x1 convolutions of onnx_light_shufflenet, picodet_s_320's
// and ppocr_cls_mobile_v2's 1x1 convolutions (squeeze-excite ones on 1x1 inputs
// included). The methods alternate within each round; per method the median of
// each round's runs, then the median over the rounds (microseconds). Prints the
// largest difference from the first method. Not a test; figures in
// docs/exec-benchmark.md ("Blocked layouts across chains").
//
//   bench_pointwise_conv [--threads N] [--rounds R] [--filter TEXT]
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include <oneapi/dnnl/dnnl.hpp>

#include "core/exec/cpu/conv_gemv.h"

namespace {

using dnnl::memory;
using tag = memory::format_tag;
namespace cpu = passlab::exec::cpu;

struct Shape {
  const char* model;
  int64_t N, C, M, G, H, W;
};

const Shape kShapes[] = {
    // onnx_light_shufflenet: 29 grouped 1x1 (4 groups)
    {"shufflenet", 1, 24, 112, 4, 56, 56},
    {"shufflenet", 1, 112, 112, 4, 28, 28},
    {"shufflenet", 1, 136, 136, 4, 28, 28},
    {"shufflenet", 1, 136, 136, 4, 14, 14},
    {"shufflenet", 1, 272, 272, 4, 14, 14},
    {"shufflenet", 1, 272, 272, 4, 7, 7},
    {"shufflenet", 1, 544, 544, 4, 7, 7},
    // picodet_s_320: small-spatial 1x1 and squeeze-excite on 1x1
    {"picodet", 1, 96, 96, 1, 10, 10},
    {"picodet", 1, 96, 112, 1, 5, 5},
    {"picodet", 1, 96, 96, 1, 5, 5},
    {"picodet", 1, 192, 192, 1, 10, 10},
    {"picodet", 1, 384, 384, 1, 10, 10},
    {"picodet", 1, 96, 24, 1, 1, 1},
    {"picodet", 1, 24, 96, 1, 1, 1},
    {"picodet", 1, 192, 48, 1, 1, 1},
    {"picodet", 1, 48, 192, 1, 1, 1},
    {"picodet", 1, 120, 30, 1, 1, 1},
    // ppocr_cls_mobile_v2 at 1x3x48x192
    {"ppocr", 1, 88, 16, 1, 3, 96},
    {"ppocr", 1, 16, 88, 1, 3, 96},
    {"ppocr", 1, 32, 200, 1, 2, 96},
    {"ppocr", 1, 200, 50, 1, 1, 1},
    {"ppocr", 1, 50, 200, 1, 1, 1},
    {"ppocr", 1, 88, 22, 1, 1, 1},
    {"ppocr", 1, 22, 88, 1, 1, 1},
    {"ppocr", 1, 8, 2, 1, 1, 1},
    // grouped, odd channel counts, and a batch of 2 (not from a model)
    {"synthetic", 1, 30, 45, 3, 20, 20},
    {"synthetic", 2, 136, 136, 4, 14, 14},
    {"synthetic", 1, 96, 96, 3, 1, 1},
    // grouped at 49-143 positions (kPlainGroupedConvMinPixelsAvx2 up to
    // kPlainConvMinPixels; not from a model but shufflenet's 7x7)
    {"grouped49", 1, 544, 544, 4, 8, 8},
    {"grouped49", 1, 544, 544, 4, 11, 11},
    {"grouped49", 1, 272, 272, 4, 9, 9},
    {"grouped49", 1, 272, 272, 4, 11, 11},
    {"grouped49", 1, 136, 136, 4, 11, 11},
    {"grouped49", 1, 256, 256, 8, 8, 8},
    {"grouped49", 1, 128, 128, 2, 10, 10},
    {"grouped49", 1, 1024, 1024, 2, 7, 7},
};

dnnl::engine& eng() {
  static dnnl::engine e(dnnl::engine::kind::cpu, 0);
  return e;
}
dnnl::stream& strm() {
  static dnnl::stream s(eng());
  return s;
}

std::vector<float> random(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& e : v) e = u(rng);
  return v;
}

struct Problem {
  Shape s;
  int64_t S, Mg, Cg;
  std::vector<float> x, w, b, y;
};

using Method = std::function<void(Problem&)>;

// The executor's old path: convolution on `any`, reorders per call, weights packed once.
Method convAny(Problem& p, bool plain, std::string& impl) {
  const auto f32 = memory::data_type::f32;
  memory::dims xd{p.s.N, p.s.C, p.s.H, p.s.W}, yd{p.s.N, p.s.M, p.s.H, p.s.W};
  memory::dims wd =
      p.s.G > 1 ? memory::dims{p.s.G, p.Mg, p.Cg, 1, 1} : memory::dims{p.s.M, p.s.C, 1, 1};
  memory::desc ux(xd, f32, tag::nchw), uy(yd, f32, tag::nchw);
  memory::desc uw(wd, f32, p.s.G > 1 ? tag::goihw : tag::oihw), bd({p.s.M}, f32, tag::x);
  memory::desc ax = plain ? ux : memory::desc(xd, f32, tag::any);
  memory::desc ay = plain ? uy : memory::desc(yd, f32, tag::any);
  auto d = dnnl::convolution_forward::desc(
      dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, ax,
      memory::desc(wd, f32, tag::any), bd, ay, {1, 1}, {0, 0}, {0, 0}, {0, 0});
  dnnl::convolution_forward::primitive_desc pd(d, eng());
  impl = pd.impl_info_str();
  auto prim = std::make_shared<dnnl::convolution_forward>(pd);
  auto wei = std::make_shared<memory>(pd.weights_desc(), eng());
  memory userW(uw, eng(), p.w.data());
  dnnl::reorder(userW, *wei).execute(strm(), userW, *wei);
  strm().wait();
  const bool rx = pd.src_desc() != ux, ry = pd.dst_desc() != uy;
  auto xs = std::make_shared<memory>(pd.src_desc(), eng());
  auto ys = std::make_shared<memory>(pd.dst_desc(), eng());
  auto toX = std::make_shared<dnnl::reorder>(
      dnnl::reorder::primitive_desc(eng(), ux, eng(), pd.src_desc()));
  auto fromY = std::make_shared<dnnl::reorder>(
      dnnl::reorder::primitive_desc(eng(), pd.dst_desc(), eng(), uy));
  return [=](Problem& q) {
    memory mx(ux, eng(), q.x.data()), my(uy, eng(), q.y.data()), mb(bd, eng(), q.b.data());
    if (rx) toX->execute(strm(), mx, *xs);
    prim->execute(strm(), {{DNNL_ARG_SRC, rx ? *xs : mx},
                           {DNNL_ARG_WEIGHTS, *wei},
                           {DNNL_ARG_BIAS, mb},
                           {DNNL_ARG_DST, ry ? *ys : my}});
    if (ry) fromY->execute(strm(), *ys, my);
    strm().wait();
  };
}

Method matmul(Problem& p, std::string& impl) {
  const auto f32 = memory::data_type::f32;
  memory::desc wd({1, p.s.G, p.Mg, p.Cg}, f32, tag::abcd);
  memory::desc xd({p.s.N, p.s.G, p.Cg, p.S}, f32, tag::abcd);
  memory::desc yd({p.s.N, p.s.G, p.Mg, p.S}, f32, tag::abcd);
  memory::desc bd({1, p.s.G, p.Mg, 1}, f32, tag::abcd);
  dnnl::post_ops ops;
  ops.append_binary(dnnl::algorithm::binary_add, bd);
  dnnl::primitive_attr attr;
  attr.set_post_ops(ops);
  dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(wd, xd, yd), attr, eng());
  impl = pd.impl_info_str();
  auto prim = std::make_shared<dnnl::matmul>(pd);
  return [=](Problem& q) {
    prim->execute(strm(), {{DNNL_ARG_SRC, memory(wd, eng(), q.w.data())},
                           {DNNL_ARG_WEIGHTS, memory(xd, eng(), q.x.data())},
                           {DNNL_ARG_DST, memory(yd, eng(), q.y.data())},
                           {DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1,
                            memory(bd, eng(), q.b.data())}});
    strm().wait();
  };
}

void addBias(Problem& q) {
  for (int64_t n = 0; n < q.s.N; ++n)
    for (int64_t m = 0; m < q.s.M; ++m) {
      float* y = q.y.data() + (n * q.s.M + m) * q.S;
      const float b = q.b[m];
      for (int64_t s = 0; s < q.S; ++s) y[s] += b;
    }
}

void sgemm(Problem& q) {
  for (int64_t n = 0; n < q.s.N; ++n)
    for (int64_t g = 0; g < q.s.G; ++g)
      dnnl_sgemm('N', 'N', q.Mg, q.S, q.Cg, 1.0f, q.w.data() + g * q.Mg * q.Cg, q.Cg,
                 q.x.data() + (n * q.s.C + g * q.Cg) * q.S, q.S, 0.0f,
                 q.y.data() + (n * q.s.M + g * q.Mg) * q.S, q.S);
  addBias(q);
}

void gemv(Problem& q) {
  cpu::ConvGemvShape s{q.s.N, q.s.C, q.s.M, q.s.G, q.s.C, q.s.M};
  cpu::convGemv(s, q.x.data(), q.w.data(), q.b.data(), q.y.data(), omp_get_max_threads());
}

double medianOf(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  int threads = 1, rounds = 5;
  std::string filter;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string a = argv[i];
    if (a == "--threads")
      threads = std::atoi(argv[i + 1]);
    else if (a == "--rounds")
      rounds = std::atoi(argv[i + 1]);
    else if (a == "--filter")
      filter = argv[i + 1];
    else {
      std::fprintf(stderr,
                   "usage: bench_pointwise_conv [--threads N] [--rounds R] [--filter TEXT]\n");
      return 2;
    }
  }
  omp_set_num_threads(threads);
  std::printf(
      "# %d thread(s), %d rounds alternating; per method the median over rounds of "
      "per-round medians, microseconds; maxdiff vs conv-any\n",
      threads, rounds);
  std::printf("%-10s %-24s %9s %9s %9s %9s %9s  %s\n", "model", "N,C->M,g,HxW", "conv-any",
              "conv-nchw", "matmul", "sgemm", "gemv",
              "impl: conv-any / conv-nchw / matmul; maxdiff");
  for (const Shape& s : kShapes) {
    char label[64];
    std::snprintf(label, sizeof label, "%lld,%lld->%lld,g%lld,%lldx%lld", (long long)s.N,
                  (long long)s.C, (long long)s.M, (long long)s.G, (long long)s.H, (long long)s.W);
    if (!filter.empty() && std::string(s.model).find(filter) == std::string::npos &&
        std::string(label).find(filter) == std::string::npos)
      continue;
    Problem p{s, s.H * s.W, s.M / s.G, s.C / s.G, {}, {}, {}, {}};
    p.x = random(size_t(s.N * s.C * p.S), 1);
    p.w = random(size_t(s.M * p.Cg), 2);
    p.b = random(size_t(s.M), 3);
    p.y.assign(size_t(s.N * s.M * p.S), 0.0f);
    std::vector<std::pair<std::string, Method>> methods;
    std::string implAny, implPlain = "-", implMatMul = "-";
    methods.push_back({"conv-any", convAny(p, false, implAny)});
    try {
      methods.push_back({"conv-nchw", convAny(p, true, implPlain)});
    } catch (const dnnl::error&) {
      methods.push_back({"conv-nchw", nullptr});
    }
    try {
      methods.push_back({"matmul", matmul(p, implMatMul)});
      if (implMatMul.rfind("ref", 0) == 0) methods.back().second = nullptr;
    } catch (const dnnl::error&) {
      methods.push_back({"matmul", nullptr});
    }
    methods.push_back({"sgemm", sgemm});
    methods.push_back({"gemv", p.S == 1 ? Method(gemv) : nullptr});
    // Reference output and the differences.
    methods[0].second(p);
    std::vector<float> ref = p.y;
    float maxdiff = 0;
    for (auto& [name, m] : methods) {
      if (!m) continue;
      std::fill(p.y.begin(), p.y.end(), 0.0f);
      m(p);
      for (size_t i = 0; i < ref.size(); ++i)
        maxdiff = std::max(maxdiff, std::fabs(ref[i] - p.y[i]));
    }
    // Runs per round: about 3 ms of the old path.
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 5; ++i) methods[0].second(p);
    double per =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() /
        5;
    int reps = std::clamp(int(3000 / std::max(per, 0.1)), 5, 2000);
    std::vector<std::vector<double>> med(methods.size());
    for (int r = 0; r < rounds; ++r)
      for (size_t k = 0; k < methods.size(); ++k) {
        if (!methods[k].second) continue;
        std::vector<double> t(static_cast<size_t>(reps));
        for (int i = 0; i < reps; ++i) {
          auto a = std::chrono::steady_clock::now();
          methods[k].second(p);
          t[size_t(i)] =
              std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - a)
                  .count();
        }
        med[k].push_back(medianOf(t));
      }
    std::printf("%-10s %-24s", s.model, label);
    for (size_t k = 0; k < methods.size(); ++k) {
      if (med[k].empty())
        std::printf(" %9s", "-");
      else
        std::printf(" %9.2f", medianOf(med[k]));
    }
    std::printf("  %s / %s / %s / %.2g\n", implAny.c_str(), implPlain.c_str(), implMatMul.c_str(),
                maxdiff);
  }
  return 0;
}
