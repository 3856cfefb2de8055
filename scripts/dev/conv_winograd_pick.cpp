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
#include <cstdlib>

#include "onednn_conv_timing.h"

using namespace dnnl;
using conv_timing::f32;
using conv_timing::tag;

int main(int argc, char** argv) {
  engine eng(engine::kind::cpu, 0);
  stream s(eng);
  int rounds = getenv("ROUNDS") ? atoi(getenv("ROUNDS")) : 3;
  for (int round = 0; round < rounds; ++round)
    for (int i = 1; i < argc; ++i) {
      int C, M, H;
      sscanf(argv[i], "%d,%d,%d", &C, &M, &H);
      memory::dims src{1, C, H, H}, wei{M, C, 3, 3}, bia{M}, dst{1, M, H, H}, st{1, 1}, pd{1, 1};
      std::vector<float> w((size_t)M * C * 9);
      for (size_t k = 0; k < w.size(); ++k) w[k] = ((k * 37) % 17) * 0.01f - 0.08f;
      conv_timing::Layer layer(eng, src, wei, dst, std::move(w), 0.1f);
      post_ops po;
      po.append_eltwise(1.f, algorithm::eltwise_relu, 0.f, 0.f);
      primitive_attr attr;
      attr.set_post_ops(po);
      conv_timing::Timed res[3];
      for (int v = 0; v < 3; ++v) {
        tag t = v == 1 ? tag::any : tag::nChw16c;
        auto algo = v == 2 ? algorithm::convolution_winograd : algorithm::convolution_direct;
        auto cd = convolution_forward::desc(prop_kind::forward_inference, algo, f32(src, t),
                                            f32(wei, tag::any), f32(bia, tag::x), f32(dst, t), st,
                                            pd, pd);
        res[v] = conv_timing::time(eng, s, layer, cd, attr, v == 1);
      }
      printf(
          "r%d %d->%d %dx%d: direct(%s) %.3f | pick(%s) %.3f | wino(%s) %.3f | wino/direct %.2f "
          "wino/pick %.2f\n",
          round, C, M, H, H, res[0].impl.c_str(), res[0].ms, res[1].impl.c_str(), res[1].ms,
          res[2].impl.c_str(), res[2].ms, res[2].ms / res[0].ms, res[2].ms / res[1].ms);
      fflush(stdout);
    }
}
