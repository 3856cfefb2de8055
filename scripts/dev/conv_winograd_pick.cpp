// Issue #26, session 37: 3x3 convolutions (stride 1, pads 1) on oneDNN alone,
// one thread: the direct kernel on nChw16c, oneDNN's pick (`any`: brgemm on
// NHWC) with the reorders from and to nChw16c counted, and
// convolution_winograd on nChw16c (jit_fp32_wino_2x3 or jit_wino_4x3); bias
// and a ReLU post-op. Shapes from the arguments, IN,OUT,PLANE; the median of
// 100 calls (after 30) per shape and variant, ROUNDS rounds (default 3).
// Weights stay hot in cache here: in a model they may not (the 13x13 layers
// that gained alone lost in squeezenet). docs/exec-benchmark.md, session 37.
//
//   g++ -O2 -std=c++17 scripts/dev/conv_winograd_pick.cpp -o /tmp/cwp -ldnnl -fopenmp
//   OMP_NUM_THREADS=1 ROUNDS=2 /tmp/cwp 16,64,55 32,128,27 48,192,13 64,256,13
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <oneapi/dnnl/dnnl.hpp>
#include <string>
#include <vector>
using namespace dnnl;
using tag = memory::format_tag;
using dt = memory::data_type;
static double med(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
int main(int argc, char** argv) {
  engine eng(engine::kind::cpu, 0);
  stream s(eng);
  int rounds = getenv("ROUNDS") ? atoi(getenv("ROUNDS")) : 3;
  for (int round = 0; round < rounds; ++round)
    for (int i = 1; i < argc; ++i) {
      int C, M, H;
      sscanf(argv[i], "%d,%d,%d", &C, &M, &H);
      memory::dims src{1, C, H, H}, wei{M, C, 3, 3}, bia{M}, dst{1, M, H, H}, st{1, 1}, pd{1, 1};
      auto d = [&](memory::dims x, tag t) { return memory::desc(x, dt::f32, t); };
      memory srcB(d(src, tag::nChw16c), eng), dstB(d(dst, tag::nChw16c), eng);
      std::vector<float> w((size_t)M * C * 9), b(M, 0.1f);
      for (size_t k = 0; k < w.size(); ++k) w[k] = ((k * 37) % 17) * 0.01f - 0.08f;
      memory wu(d(wei, tag::oihw), eng, w.data()), bu(d(bia, tag::x), eng, b.data());
      {
        float* p = (float*)srcB.get_data_handle();
        for (size_t k = 0; k < srcB.get_desc().get_size() / 4; ++k) p[k] = (k % 7) * 0.1f;
      }
      double res[3];
      std::string names[3];
      for (int v = 0; v < 3; ++v) {
        tag t = v == 1 ? tag::any : tag::nChw16c;
        auto algo = v == 2 ? algorithm::convolution_winograd : algorithm::convolution_direct;
        auto cd = convolution_forward::desc(prop_kind::forward_inference, algo, d(src, t),
                                            memory::desc(wei, dt::f32, tag::any), d(bia, tag::x),
                                            d(dst, t), st, pd, pd);
        post_ops po;
        po.append_eltwise(1.f, algorithm::eltwise_relu, 0.f, 0.f);
        primitive_attr attr;
        attr.set_post_ops(po);
        convolution_forward::primitive_desc pdsc;
        try {
          pdsc = convolution_forward::primitive_desc(cd, attr, eng);
        } catch (...) {
          res[v] = -1;
          names[v] = "declined";
          continue;
        }
        names[v] = pdsc.impl_info_str();
        memory wp(pdsc.weights_desc(), eng);
        reorder(wu, wp).execute(s, wu, wp);
        memory sN(pdsc.src_desc(), eng), dN(pdsc.dst_desc(), eng);
        convolution_forward conv(pdsc);
        reorder r1(srcB, sN), r2(dN, dstB);
        std::vector<double> ts;
        for (int k = 0; k < 130; ++k) {
          auto a = std::chrono::steady_clock::now();
          if (v == 1) r1.execute(s, srcB, sN);
          conv.execute(s, {{DNNL_ARG_SRC, v == 1 ? sN : srcB},
                           {DNNL_ARG_WEIGHTS, wp},
                           {DNNL_ARG_BIAS, bu},
                           {DNNL_ARG_DST, v == 1 ? dN : dstB}});
          if (v == 1) r2.execute(s, dN, dstB);
          s.wait();
          if (k >= 30)
            ts.push_back(
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a)
                    .count());
        }
        res[v] = med(ts);
      }
      printf(
          "r%d %d->%d %dx%d: direct(%s) %.3f | pick(%s) %.3f | wino(%s) %.3f | wino/direct %.2f "
          "wino/pick %.2f\n",
          round, C, M, H, H, names[0].c_str(), res[0], names[1].c_str(), res[1], names[2].c_str(),
          res[2], res[2] / res[0], res[2] / res[1]);
      fflush(stdout);
    }
}
