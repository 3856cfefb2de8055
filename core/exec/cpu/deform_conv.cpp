// DeformConv (opset 19, bfloat16 from 22): a Conv whose taps are moved by
// learned offsets and weighed by an optional mask (Dai et al. 2017, Zhu et
// al. 2019; torchvision's deform_conv2d), any number of spatial dims.
//
// The geometry is the Conv's: one forward ir::Window (core/ir/window.h) from
// kernel_shape / W, strides, dilations and pads gives the grid (the output's
// spatial dims, which offset and mask must have) and, per grid position o and
// tap k, the image position o * stride - padBegin + k * dilation that the
// offset then moves. A moved position is fractional: it is sampled by
// multilinear interpolation of its 2^n neighbours, those outside the image
// reading zero (GridSample, align_corners = 1, zero padding, as the ONNX
// reference computes it).
//
// Layouts (K = prod(kernel), G = the grid, n spatial dims):
//   offset [N, offset_group * K * n, grid...]: channel (og * K + k) * n + axis
//   mask   [N, offset_group * K, grid...]:     channel og * K + k
// Input channel c uses offset group c / (C / offset_group) and conv group
// c / (C / group).
//
// Steps, per batch item and tile of grid positions: sampleColumns builds the
// columns (the masked samples of every input channel and tap, one row per
// (channel, tap)); accumulateTile multiplies them by W.
#include "core/support/x86_intrinsics.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "core/exec/cpu/data_util.h"
#include "core/exec/cpu/families.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"
#include "core/ir/window.h"
#include "core/support/cpu_isa.h"

namespace passlab::exec::cpu {

namespace {

constexpr int64_t kTile = 64;  // grid positions per column block

Dims spatialOf(const Dims& d) {
  return Dims(d.begin() + 2, d.end());
}

// The shapes of one run, checked against each other.
struct DeformGeometry {
  ir::Window win;
  int64_t N = 0, C = 0, M = 0, group = 1, offsetGroup = 1;
  int64_t K = 0, G = 0, image = 0;  // taps, grid positions, image elements
  size_t rank = 0;                  // spatial dims
};

Status expectDims(const Tensor& t, const char* name, const Dims& want, const char* layout) {
  if (t.dims() == want) return Status::ok();
  return invalidArgument(std::string(name) + " " + t.describe() + " must be " + layout + " = " +
                         dimsToString(want));
}

Expected<DeformGeometry> deformGeometry(const ir::WindowAttrs& attrs, int64_t group,
                                        int64_t offsetGroup, const Tensor& x, const Tensor& w,
                                        const Tensor& offset, const Tensor* bias,
                                        const Tensor* mask) {
  if (w.dtype() != x.dtype() || offset.dtype() != x.dtype() ||
      (bias && bias->dtype() != x.dtype()) || (mask && mask->dtype() != x.dtype()))
    return invalidArgument("X, W, offset, B and mask must have one element type");
  if (x.rank() < 3 || w.rank() != x.rank())
    return invalidArgument("X " + x.describe() + " and W " + w.describe() +
                           " must have one rank of 3 or more");
  DeformGeometry g;
  g.N = x.dim(0), g.C = x.dim(1), g.M = w.dim(0), g.group = group, g.offsetGroup = offsetGroup;
  g.rank = x.rank() - 2;
  if (group < 1 || g.C != w.dim(1) * group || g.M % group != 0)
    return invalidArgument("X " + x.describe() + " and W " + w.describe() + " do not fit group " +
                           std::to_string(group));
  if (offsetGroup < 1 || g.C % offsetGroup != 0)
    return invalidArgument("offset_group " + std::to_string(offsetGroup) +
                           " must be positive and divide the " + std::to_string(g.C) +
                           " input channels");
  PASSLAB_ASSIGN_OR_RETURN(g.win,
                           ir::forwardWindow(attrs, spatialOf(x.dims()), spatialOf(w.dims())));
  g.K = g.win.kernelSize(), g.G = g.win.gridSize(), g.image = g.win.imageSize();
  const Dims grid = g.win.gridDims();
  Dims want{g.N, offsetGroup * g.K * static_cast<int64_t>(g.rank)};
  want.insert(want.end(), grid.begin(), grid.end());
  PASSLAB_RETURN_IF_ERROR(expectDims(offset, "offset", want,
                                     "[N, offset_group * prod(kernel) * spatial dims, grid...]"));
  if (mask) {
    want[1] = offsetGroup * g.K;
    PASSLAB_RETURN_IF_ERROR(
        expectDims(*mask, "mask", want, "[N, offset_group * prod(kernel), grid...]"));
  }
  if (bias && bias->numel() != g.M)
    return invalidArgument("B has " + std::to_string(bias->numel()) + " elements, expected " +
                           std::to_string(g.M));
  return g;
}

// One sample's neighbours inside the image: element offsets and weights.
struct Sample {
  int64_t at[64];  // up to 2^6 corners (6 spatial dims)
  double weight[64];
  int count = 0;
};

// The neighbours of fractional position p (one coordinate per axis) inside
// the window's image (row-major), with their multilinear weights.
void neighbours(const double* p, const std::vector<ir::WindowAxis>& axes, Sample& s) {
  const size_t n = axes.size();
  int64_t lo[6];
  double frac[6];
  s.count = 0;
  for (size_t a = 0; a < n; ++a) {
    // Entirely outside: every neighbour reads zero.
    if (!(p[a] > -1.0 && p[a] < static_cast<double>(axes[a].image))) return;
    const double f = std::floor(p[a]);
    lo[a] = static_cast<int64_t>(f);
    frac[a] = p[a] - f;
  }
  for (int corner = 0; corner < (1 << n); ++corner) {
    int64_t at = 0;
    double weight = 1;
    bool inside = true;
    for (size_t a = 0; a < n && inside; ++a) {
      const bool up = (corner >> (n - 1 - a)) & 1;
      const int64_t i = lo[a] + (up ? 1 : 0);
      inside = i >= 0 && i < axes[a].image;
      at = at * axes[a].image + i;
      weight *= up ? frac[a] : 1.0 - frac[a];
    }
    if (!inside || weight == 0) continue;
    s.at[s.count] = at;
    s.weight[s.count] = weight;
    ++s.count;
  }
}

// The grid position g's coordinates (row-major over the grid dims).
void gridCoords(int64_t g, const std::vector<ir::WindowAxis>& axes, int64_t* o) {
  for (size_t a = axes.size(); a-- > 0;) {
    o[a] = g % axes[a].grid;
    g /= axes[a].grid;
  }
}

// Columns of batch item n, grid positions [g0, g0 + T): col[(c * K + k) *
// kTile + j] = mask * sample of input channel c at tap k moved by its offset.
template <class S>
void sampleColumns(const DeformGeometry& geo, const S* X, const S* offset, const S* mask, int64_t n,
                   int64_t g0, int64_t T, ComputeT<S>* col) {
  using Cp = ComputeT<S>;
  const auto& axes = geo.win.axes;
  const size_t rank = geo.rank;
  const int64_t cPerOg = geo.C / geo.offsetGroup, K = geo.K, G = geo.G;
  const int64_t offsetChannels = geo.offsetGroup * K * static_cast<int64_t>(rank);
  int64_t o[6], kk[6];
  double p[6];
  Sample s;
  for (int64_t j = 0; j < T; ++j) {
    const int64_t g = g0 + j;
    gridCoords(g, axes, o);
    for (int64_t k = 0; k < K; ++k) {
      for (int64_t r = k, a = static_cast<int64_t>(rank); a-- > 0;) {
        kk[a] = r % axes[static_cast<size_t>(a)].kernel;
        r /= axes[static_cast<size_t>(a)].kernel;
      }
      for (int64_t og = 0; og < geo.offsetGroup; ++og) {
        const int64_t tap = og * K + k;
        for (size_t a = 0; a < rank; ++a) {
          const int64_t ch = tap * static_cast<int64_t>(rank) + static_cast<int64_t>(a);
          p[a] = static_cast<double>(axes[a].at(o[a], kk[a])) +
                 static_cast<double>(load(offset[(n * offsetChannels + ch) * G + g]));
        }
        neighbours(p, axes, s);
        const Cp m = mask ? load(mask[(n * geo.offsetGroup * K + tap) * G + g]) : Cp(1);
        Cp weight[64];
        for (int i = 0; i < s.count; ++i) weight[i] = static_cast<Cp>(s.weight[i]);
        for (int64_t c = og * cPerOg; c < (og + 1) * cPerOg; ++c) {
          const S* xp = X + (n * geo.C + c) * geo.image;
          Cp v = 0;
          for (int i = 0; i < s.count; ++i) v += weight[i] * load(xp[s.at[i]]);
          col[(c * K + k) * kTile + j] = m * v;
        }
      }
    }
  }
}

// acc[0, kTile) += w[r] * col[r * kTile + j] over rows r, in float with
// AVX-512 (the build's baseline is SSE2): the generic loop's sums in the same
// order, 16 lanes wide, fused multiply-adds (so within rounding of it).
static_assert(kTile == 64, "multiplyTileAvx512 holds a tile in four 16-lane registers");
__attribute__((target("avx512f"))) void multiplyTileAvx512(const float* w, const float* col,
                                                           int64_t rows, float* acc) {
  __m512 a0 = _mm512_loadu_ps(acc), a1 = _mm512_loadu_ps(acc + 16);
  __m512 a2 = _mm512_loadu_ps(acc + 32), a3 = _mm512_loadu_ps(acc + 48);
  for (int64_t r = 0; r < rows; ++r) {
    const __m512 wv = _mm512_set1_ps(w[r]);
    const float* row = col + r * kTile;
    a0 = _mm512_fmadd_ps(wv, _mm512_loadu_ps(row), a0);
    a1 = _mm512_fmadd_ps(wv, _mm512_loadu_ps(row + 16), a1);
    a2 = _mm512_fmadd_ps(wv, _mm512_loadu_ps(row + 32), a2);
    a3 = _mm512_fmadd_ps(wv, _mm512_loadu_ps(row + 48), a3);
  }
  _mm512_storeu_ps(acc, a0);
  _mm512_storeu_ps(acc + 16, a1);
  _mm512_storeu_ps(acc + 32, a2);
  _mm512_storeu_ps(acc + 48, a3);
}

// Y[n, m, g0 .. g0 + T) = B[m] + sum over m's group's channels and taps of
// W[m, c, k] * col[c, k, :]. The inner loop always runs over a whole tile
// (a constant trip count on a local accumulator, which the compiler
// vectorizes); the columns past T hold finite values of an earlier tile and
// are not stored.
template <class S>
void accumulateTile(const DeformGeometry& geo, const S* W, const S* B, const ComputeT<S>* col,
                    int64_t n, int64_t g0, int64_t T, S* Y) {
  using Cp = ComputeT<S>;
  const int64_t cg = geo.C / geo.group, mg = geo.M / geo.group, K = geo.K;
  Cp acc[kTile];
  for (int64_t m = 0; m < geo.M; ++m) {
    const Cp b = B ? load(B[m]) : Cp(0);
    for (int64_t j = 0; j < kTile; ++j) acc[j] = b;
    const int64_t c0 = (m / mg) * cg;
    if constexpr (std::is_same_v<S, float>) {
      if (cpu_isa::hasAvx512f()) {
        multiplyTileAvx512(W + m * cg * K, col + c0 * K * kTile, cg * K, acc);
        S* yp = Y + (n * geo.M + m) * geo.G + g0;
        for (int64_t j = 0; j < T; ++j) yp[j] = acc[j];
        continue;
      }
    }
    for (int64_t ck = 0; ck < cg * K; ++ck) {
      const Cp wv = load(W[m * cg * K + ck]);
      const Cp* row = col + (c0 * K + ck) * kTile;
      for (int64_t j = 0; j < kTile; ++j) acc[j] += wv * row[j];
    }
    S* yp = Y + (n * geo.M + m) * geo.G + g0;
    for (int64_t j = 0; j < T; ++j) yp[j] = store<S>(acc[j]);
  }
}

class DeformConv final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    PASSLAB_ASSIGN_OR_RETURN(ir::WindowAttrs a, ir::readWindowAttrs(b.node()));
    return std::unique_ptr<Kernel>(new DeformConv(std::move(a), b.node().attrInt("group", 1),
                                                  b.node().attrInt("offset_group", 1)));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    const Tensor& w = ctx.input(1);
    const Tensor& offset = ctx.input(2);
    const Tensor* bias = ctx.has(3) ? &ctx.input(3) : nullptr;
    const Tensor* mask = ctx.has(4) ? &ctx.input(4) : nullptr;
    PASSLAB_ASSIGN_OR_RETURN(
        DeformGeometry geo, deformGeometry(attrs_, group_, offsetGroup_, x, w, offset, bias, mask));
    if (geo.rank > 6) return invalidArgument("DeformConv supports up to 6 spatial dims");
    Dims outDims{geo.N, geo.M};
    const Dims grid = geo.win.gridDims();
    outDims.insert(outDims.end(), grid.begin(), grid.end());
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), outDims));
    const int64_t tiles = (geo.G + kTile - 1) / kTile;
    return dispatch<types::kFloats>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      using Cp = ComputeT<S>;
      const S* X = x.data<S>();
      const S* W = w.data<S>();
      const S* O = offset.data<S>();
      const S* B = bias ? bias->data<S>() : nullptr;
      const S* Mk = mask ? mask->data<S>() : nullptr;
      S* Y = y->mutableData<S>();
      parallelFor(geo.N * tiles, ctx.threads(), 1, [&](int64_t b0, int64_t e0) {
        std::vector<Cp> col(static_cast<size_t>(geo.C * geo.K * kTile), Cp(0));
        for (int64_t i = b0; i < e0; ++i) {
          const int64_t n = i / tiles, g0 = (i % tiles) * kTile;
          const int64_t T = std::min(kTile, geo.G - g0);
          sampleColumns(geo, X, O, Mk, n, g0, T, col.data());
          accumulateTile(geo, W, B, col.data(), n, g0, T, Y);
        }
      });
      return Status::ok();
    });
  }

 private:
  DeformConv(ir::WindowAttrs a, int64_t group, int64_t offsetGroup)
      : attrs_(std::move(a)), group_(group), offsetGroup_(offsetGroup) {}

  ir::WindowAttrs attrs_;
  int64_t group_, offsetGroup_;
};

const KernelDef kRows[] = {
    {"", "DeformConv", 19, kOpsetMax, types::kFloats, 0, Tier::kReference, "cpu.DeformConv",
     makeKernel<DeformConv>},
};

}  // namespace

std::span<const KernelDef> deformConvKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
