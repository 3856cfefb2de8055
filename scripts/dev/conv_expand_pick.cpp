// Issue #26, session 35: squeezenet's Fire 3x3 expand convolutions on oneDNN
// alone, one thread: the direct kernel on nChw16c (what widensFewChannels,
// core/exec/cpu/conv_layout_choice.h, asks for) against brgemm on NHWC with
// the reorders from and to the chain's nChw16c counted. Prints the median of
// 100 calls (after 30) per layer, 3 rounds. docs/exec-benchmark.md, session 35.
//
//   g++ -O2 -std=c++17 scripts/dev/conv_expand_pick.cpp -o /tmp/conv_expand_pick -ldnnl -fopenmp
//   OMP_NUM_THREADS=1 /tmp/conv_expand_pick
#include "onednn_conv_timing.h"

using namespace dnnl;
using conv_timing::f32;
using conv_timing::tag;

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
      conv_timing::Layer layer(eng, src, wei, dst,
                               std::vector<float>(sh.M * sh.C * sh.k * sh.k, 0.01f), 0.1f);
      conv_timing::Timed res[2];
      for (int v = 0; v < 2; ++v) {
        tag t = v == 0 ? tag::nChw16c : tag::nhwc;
        auto cd = convolution_forward::desc(
            prop_kind::forward_inference, algorithm::convolution_direct, f32(src, t),
            f32(wei, tag::any), f32(bia, tag::x), f32(dst, t), st, pd, pd);
        res[v] = conv_timing::time(eng, s, layer, cd, primitive_attr(), v == 1);
      }
      printf("r%d %d->%d %dx%d: direct(%s) %.3f ms | nhwc+reorders(%s) %.3f ms\n", round, sh.C,
             sh.M, sh.H, sh.H, res[0].impl.c_str(), res[0].ms, res[1].impl.c_str(), res[1].ms);
    }
}
