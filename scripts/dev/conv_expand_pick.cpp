// Issue #26, session 35: squeezenet's Fire 3x3 expand convolutions on oneDNN
// alone, one thread: the direct kernel on nChw16c (what widensFewChannels,
// core/exec/cpu/conv_layout_choice.h, asks for) against brgemm on NHWC with
// the reorders from and to the chain's nChw16c counted. Prints the median of
// 100 calls (after 30) per layer, 3 rounds. docs/exec-benchmark.md, session 35.
//
//   g++ -O2 -std=c++17 scripts/dev/conv_expand_pick.cpp -o /tmp/conv_expand_pick -ldnnl -fopenmp
//   OMP_NUM_THREADS=1 /tmp/conv_expand_pick
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <oneapi/dnnl/dnnl.hpp>
#include <vector>
using namespace dnnl;
using tag = memory::format_tag;
using dt = memory::data_type;
static double med(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
int main() {
  engine eng(engine::kind::cpu, 0);
  stream s(eng);
  struct Sh {
    int C, M, H, k, stride, pad;
  };
  Sh shapes[] = {{16, 64, 55, 3, 1, 1},
                 {32, 128, 27, 3, 1, 1},
                 {48, 192, 13, 3, 1, 1},
                 {64, 256, 13, 3, 1, 1}};
  for (int round = 0; round < 3; ++round)
    for (auto sh : shapes) {
      memory::dims src{1, sh.C, sh.H, sh.H}, wei{sh.M, sh.C, sh.k, sh.k}, bia{sh.M},
          dst{1, sh.M, sh.H, sh.H}, st{sh.stride, sh.stride}, pd{sh.pad, sh.pad};
      auto blk = [&](memory::dims d, tag t) { return memory::desc(d, dt::f32, t); };
      memory srcB(blk(src, tag::nChw16c), eng), dstB(blk(dst, tag::nChw16c), eng);
      std::vector<float> w(sh.M * sh.C * sh.k * sh.k, 0.01f), b(sh.M, 0.1f);
      memory wu(blk(wei, tag::oihw), eng, w.data()), bu(blk(bia, tag::x), eng, b.data());
      {
        float* p = (float*)srcB.get_data_handle();
        for (size_t i = 0; i < srcB.get_desc().get_size() / 4; ++i) p[i] = (i % 7) * 0.1f;
      }
      double res[2];
      std::string names[2];
      for (int v = 0; v < 2; ++v) {
        tag t = v == 0 ? tag::nChw16c : tag::nhwc;
        auto cd = convolution_forward::desc(
            prop_kind::forward_inference, algorithm::convolution_direct, blk(src, t),
            memory::desc(wei, dt::f32, tag::any), blk(bia, tag::x), blk(dst, t), st, pd, pd);
        auto pdsc = convolution_forward::primitive_desc(cd, eng);
        names[v] = pdsc.impl_info_str();
        memory wp(pdsc.weights_desc(), eng);
        reorder(wu, wp).execute(s, wu, wp);
        memory sN(blk(src, t), eng), dN(blk(dst, t), eng);
        convolution_forward conv(pdsc);
        reorder r1(srcB, sN), r2(dN, dstB);
        std::vector<double> ts;
        for (int i = 0; i < 130; ++i) {
          auto a = std::chrono::steady_clock::now();
          if (v == 1) r1.execute(s, srcB, sN);
          conv.execute(s, {{DNNL_ARG_SRC, v ? sN : srcB},
                           {DNNL_ARG_WEIGHTS, wp},
                           {DNNL_ARG_BIAS, bu},
                           {DNNL_ARG_DST, v ? dN : dstB}});
          if (v == 1) r2.execute(s, dN, dstB);
          s.wait();
          if (i >= 30)
            ts.push_back(
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a)
                    .count());
        }
        res[v] = med(ts);
      }
      printf("r%d %d->%d %dx%d: direct(%s) %.3f ms | nhwc+reorders(%s) %.3f ms\n", round, sh.C,
             sh.M, sh.H, sh.H, names[0].c_str(), res[0], names[1].c_str(), res[1]);
    }
}
