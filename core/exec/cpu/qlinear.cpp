// Integer matrix products and convolutions: MatMulInteger, ConvInteger (int32
// results) and QLinearMatMul, QLinearConv (requantized to int8/uint8 with
// round-half-to-even and saturation, the multiplier a_scale * b_scale /
// y_scale taken in float as the ONNX reference does). Zero points are per
// tensor, per row of A / per column of B, or per output channel of W. And
// ONNX Runtime's com.microsoft QGemm: alpha * (A' - za)(B' - zb) + C with an
// int32 bias C in the accumulator, requantized the same way (the multiplier
// alpha * a_scale * b_scale / y_scale in float, as ONNX Runtime computes it)
// or, without y_scale, the float product.
#include <algorithm>
#include <cmath>
#include <string>

#include "core/exec/cpu/conv_geometry.h"
#include "core/exec/cpu/data_util.h"
#include "core/exec/cpu/families.h"
#include "core/exec/cpu/matmul_integer_onednn.h"
#include "core/exec/cpu/matmul_shape.h"
#include "core/exec/cpu/window_indirection.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

using ir::DataType;

constexpr TypeSet kInt8s{DataType::kInt8, DataType::kUInt8};

// An 8-bit (or int32) tensor as int32 values.
Expected<std::vector<int32_t>> readInt8s(const Tensor& t, const char* what) {
  std::vector<int32_t> v(static_cast<size_t>(t.numel()));
  switch (t.dtype()) {
    case DataType::kInt8:
      for (size_t i = 0; i < v.size(); ++i) v[i] = t.data<int8_t>()[i];
      return v;
    case DataType::kUInt8:
      for (size_t i = 0; i < v.size(); ++i) v[i] = t.data<uint8_t>()[i];
      return v;
    case DataType::kInt32:
      for (size_t i = 0; i < v.size(); ++i) v[i] = t.data<int32_t>()[i];
      return v;
    default:
      return invalidArgument(std::string(what) + " must be int8 or uint8, got " + t.describe());
  }
}

// Zero point input i as one value per `count` positions (a scalar repeated).
Expected<std::vector<int32_t>> zeroPoints(const KernelContext& ctx, size_t i, int64_t count,
                                          DataType dataType, const char* what) {
  if (!ctx.has(i)) return std::vector<int32_t>(static_cast<size_t>(count), 0);
  const Tensor& z = ctx.input(i);
  if (z.dtype() != dataType)
    return invalidArgument(std::string(what) + " " + z.describe() + " must have type " +
                           std::string(ir::dtypeName(dataType)));
  PASSLAB_ASSIGN_OR_RETURN(std::vector<int32_t> v, readInt8s(z, what));
  if (v.size() == 1) return std::vector<int32_t>(static_cast<size_t>(count), v[0]);
  if (static_cast<int64_t>(v.size()) != count)
    return invalidArgument(std::string(what) + " " + z.describe() + " must hold 1 or " +
                           std::to_string(count) + " values");
  return v;
}

Expected<std::vector<float>> scales(const KernelContext& ctx, size_t i, int64_t count,
                                    const char* what) {
  const Tensor& s = ctx.input(i);
  std::vector<float> v(static_cast<size_t>(s.numel()));
  Status read = dispatch<types::kFloats>(s.dtype(), [&](auto tag) -> Status {
    using S = typename decltype(tag)::type;
    for (size_t k = 0; k < v.size(); ++k) v[k] = static_cast<float>(load(s.data<S>()[k]));
    return Status::ok();
  });
  if (!read) return read.error().withContext(what);
  if (v.size() == 1) return std::vector<float>(static_cast<size_t>(count), v[0]);
  if (static_cast<int64_t>(v.size()) != count)
    return invalidArgument(std::string(what) + " " + s.describe() + " must hold 1 or " +
                           std::to_string(count) + " values");
  return v;
}

// int32 products of (A - za) and (B - zb) with numpy matmul shapes; za per row
// of A (M values), zb per column of B (N values).
Expected<std::vector<int32_t>> intMatMul(const Tensor& a, const Tensor& b,
                                         const std::vector<int32_t>& za,
                                         const std::vector<int32_t>& zb, const MatMulShape& s,
                                         int threads) {
  PASSLAB_ASSIGN_OR_RETURN(std::vector<int32_t> A, readInt8s(a, "A"));
  PASSLAB_ASSIGN_OR_RETURN(std::vector<int32_t> B, readInt8s(b, "B"));
  const int64_t M = s.M, K = s.K, N = s.N;
  std::vector<int32_t> out(static_cast<size_t>(s.batchCount() * M * N));
  parallelFor(s.batchCount() * M, threads, std::max<int64_t>(1, 4096 / (K * N + 1)),
              [&](int64_t begin, int64_t end) {
                std::vector<int32_t> row(static_cast<size_t>(K));
                for (int64_t j = begin; j < end; ++j) {
                  const int64_t bi = j / M, m = j % M;
                  const int32_t* ap = A.data() + (s.aMats[static_cast<size_t>(bi)] * M + m) * K;
                  const int32_t* bp = B.data() + s.bMats[static_cast<size_t>(bi)] * K * N;
                  for (int64_t k = 0; k < K; ++k)
                    row[static_cast<size_t>(k)] = ap[k] - za[static_cast<size_t>(m)];
                  int32_t* op = out.data() + j * N;
                  std::fill(op, op + N, 0);
                  for (int64_t k = 0; k < K; ++k) {
                    const int32_t av = row[static_cast<size_t>(k)];
                    if (av == 0) continue;
                    const int32_t* br = bp + k * N;
                    for (int64_t n = 0; n < N; ++n)
                      op[n] += av * (br[n] - zb[static_cast<size_t>(n)]);
                  }
                }
              });
  return out;
}

class MatMulInteger final : public Kernel {
 public:
  Status run(KernelContext& ctx) override {
    const Tensor& a = ctx.input(0);
    const Tensor& b = ctx.input(1);
    PASSLAB_ASSIGN_OR_RETURN(MatMulShape s, matmulShape(a.dims(), b.dims()));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int32_t> za,
                             zeroPoints(ctx, 2, s.M, a.dtype(), "a_zero_point"));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int32_t> zb,
                             zeroPoints(ctx, 3, s.N, b.dtype(), "b_zero_point"));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int32_t> r, intMatMul(a, b, za, zb, s, ctx.threads()));
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, DataType::kInt32, s.out));
    std::copy(r.begin(), r.end(), y->mutableData<int32_t>());
    return Status::ok();
  }
};

template <class Q>
Q requantize(double v, int32_t zp) {
  v = std::nearbyint(v) + zp;
  return static_cast<Q>(std::clamp(v, static_cast<double>(std::numeric_limits<Q>::min()),
                                   static_cast<double>(std::numeric_limits<Q>::max())));
}

Status writeRequantized(Tensor& y, const std::vector<int32_t>& acc, int64_t rows, int64_t cols,
                        const std::vector<float>& mult, bool perRow,
                        const std::vector<int32_t>& yzp, bool zpPerRow) {
  // mult and yzp: one value per row or per column (or one value repeated).
  for (int64_t i = 0; i < static_cast<int64_t>(acc.size()); ++i) {
    const int64_t r = (i / cols) % rows, c = i % cols;
    const double v = static_cast<double>(acc[static_cast<size_t>(i)]) *
                     static_cast<double>(mult[static_cast<size_t>(perRow ? r : c)]);
    const int32_t z = yzp[static_cast<size_t>(zpPerRow ? r : c)];
    if (y.dtype() == DataType::kInt8) {
      y.mutableData<int8_t>()[i] = requantize<int8_t>(v, z);
    } else {
      y.mutableData<uint8_t>()[i] = requantize<uint8_t>(v, z);
    }
  }
  return Status::ok();
}

class QLinearMatMul final : public Kernel {
 public:
  Status run(KernelContext& ctx) override {
    const Tensor& a = ctx.input(0);
    const Tensor& b = ctx.input(3);
    PASSLAB_ASSIGN_OR_RETURN(MatMulShape s, matmulShape(a.dims(), b.dims()));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<float> as, scales(ctx, 1, s.M, "a_scale"));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int32_t> za,
                             zeroPoints(ctx, 2, s.M, a.dtype(), "a_zero_point"));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<float> bs, scales(ctx, 4, s.N, "b_scale"));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int32_t> zb,
                             zeroPoints(ctx, 5, s.N, b.dtype(), "b_zero_point"));
    const DataType outType = ctx.has(7) ? ctx.input(7).dtype() : a.dtype();
    if (!kInt8s.contains(outType))
      return unsupported("QLinearMatMul producing " + std::string(ir::dtypeName(outType)));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<float> ys, scales(ctx, 6, s.M, "y_scale"));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int32_t> zy,
                             zeroPoints(ctx, 7, s.M, outType, "y_zero_point"));
    const bool perRow = ctx.input(1).numel() > 1 || ctx.input(6).numel() > 1;
    const bool perCol = ctx.input(4).numel() > 1;
    if (perRow && perCol)
      return unsupported("QLinearMatMul with both per-row and per-column scales");
    // The multiplier is computed in the scales' own precision, as the reference does.
    const DataType st = ctx.input(1).dtype();
    auto round = [st](float v) {
      if (st == DataType::kFloat16) return halfToFloat(floatToHalf(v));
      if (st == DataType::kBFloat16) return bfloat16ToFloat(floatToBfloat16(v));
      return v;
    };
    int64_t count = 1;
    for (int64_t d : s.out) count *= d;
    if (count == 0) {  // no rows (a batch of 0) or columns: an empty Y (as, ys of no values)
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, outType, s.out));
      (void)y;
      return Status::ok();
    }
    std::vector<float> mult(static_cast<size_t>(perRow ? s.M : s.N));
    for (size_t i = 0; i < mult.size(); ++i)
      mult[i] = perRow ? round(round(as[i] * bs[0]) / ys[i]) : round(round(as[0] * bs[i]) / ys[0]);
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int32_t> r, intMatMul(a, b, za, zb, s, ctx.threads()));
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, outType, s.out));
    return writeRequantized(*y, r, s.M, s.N, mult, perRow, zy, true);
  }
};

// Direct N-d convolution of (X - zx) with (W - zw[m]), int32 accumulation,
// through the window's indirection buffer (window_indirection.h): a tap in
// the padding holds the zero point and contributes 0.
Expected<std::vector<int32_t>> intConv(const Tensor& x, const Tensor& w, int32_t zx,
                                       const std::vector<int32_t>& zw, const ConvGeometry& g,
                                       int threads) {
  PASSLAB_ASSIGN_OR_RETURN(std::vector<int32_t> X, readInt8s(x, "X"));
  PASSLAB_ASSIGN_OR_RETURN(std::vector<int32_t> W, readInt8s(w, "W"));
  const Indirection ind = buildIndirection(g.window);
  const int64_t inSize = g.window.imageSize(), outSize = ind.grid, kSize = ind.taps;
  const int64_t cPerGroup = g.C / g.group, mPerGroup = g.M / g.group;
  std::vector<int32_t> out(static_cast<size_t>(g.N * g.M * outSize));
  parallelFor(g.N * g.M, threads, 1, [&](int64_t begin, int64_t end) {
    for (int64_t nm = begin; nm < end; ++nm) {
      const int64_t n = nm / g.M, m = nm % g.M, grp = m / mPerGroup;
      const int32_t wz = zw[static_cast<size_t>(m)];
      for (int64_t o = 0; o < outSize; ++o) {
        const int64_t* at = ind.row(o);
        int32_t acc = 0;
        for (int64_t k = 0; k < kSize; ++k) {
          if (at[k] < 0) continue;
          for (int64_t c = 0; c < cPerGroup; ++c) {
            const int64_t ci = grp * cPerGroup + c;
            const int32_t xv = X[static_cast<size_t>((n * g.C + ci) * inSize + at[k])] - zx;
            const int32_t wv = W[static_cast<size_t>((m * cPerGroup + c) * kSize + k)] - wz;
            acc += xv * wv;
          }
        }
        out[static_cast<size_t>(nm * outSize + o)] = acc;
      }
    }
  });
  return out;
}

class ConvInteger final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    PASSLAB_ASSIGN_OR_RETURN(ConvAttrs a, parseConvAttrs(b.node()));
    return std::unique_ptr<Kernel>(new ConvInteger(std::move(a)));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    const Tensor& w = ctx.input(1);
    PASSLAB_ASSIGN_OR_RETURN(ConvGeometry g, convGeometry(a_, x.dims(), w.dims()));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int32_t> zx,
                             zeroPoints(ctx, 2, 1, x.dtype(), "x_zero_point"));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int32_t> zw,
                             zeroPoints(ctx, 3, g.M, w.dtype(), "w_zero_point"));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int32_t> r, intConv(x, w, zx[0], zw, g, ctx.threads()));
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, DataType::kInt32, g.outDims));
    std::copy(r.begin(), r.end(), y->mutableData<int32_t>());
    return Status::ok();
  }

 private:
  explicit ConvInteger(ConvAttrs a) : a_(std::move(a)) {}
  ConvAttrs a_;
};

class QLinearConv final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    PASSLAB_ASSIGN_OR_RETURN(ConvAttrs a, parseConvAttrs(b.node()));
    return std::unique_ptr<Kernel>(new QLinearConv(std::move(a)));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    const Tensor& w = ctx.input(3);
    PASSLAB_ASSIGN_OR_RETURN(ConvGeometry g, convGeometry(a_, x.dims(), w.dims()));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<float> xs, scales(ctx, 1, 1, "x_scale"));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int32_t> zx,
                             zeroPoints(ctx, 2, 1, x.dtype(), "x_zero_point"));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<float> ws, scales(ctx, 4, g.M, "w_scale"));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int32_t> zw,
                             zeroPoints(ctx, 5, g.M, w.dtype(), "w_zero_point"));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<float> ys, scales(ctx, 6, 1, "y_scale"));
    const DataType outType = ctx.has(7) ? ctx.input(7).dtype() : x.dtype();
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int32_t> zy,
                             zeroPoints(ctx, 7, 1, outType, "y_zero_point"));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int32_t> r, intConv(x, w, zx[0], zw, g, ctx.threads()));
    int64_t outSize = 1;
    for (int64_t o : g.out) outSize *= o;
    if (ctx.has(8)) {
      const Tensor& bias = ctx.input(8);
      if (bias.dtype() != DataType::kInt32 || bias.numel() != g.M)
        return invalidArgument("B must be int32 with " + std::to_string(g.M) + " values, got " +
                               bias.describe());
      for (size_t i = 0; i < r.size(); ++i)
        r[i] += bias.data<int32_t>()[(static_cast<int64_t>(i) / outSize) % g.M];
    }
    std::vector<float> mult(static_cast<size_t>(g.M));
    for (size_t m = 0; m < mult.size(); ++m) mult[m] = xs[0] * ws[m] / ys[0];
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, outType, g.outDims));
    std::vector<int32_t> zyAll(static_cast<size_t>(g.M), zy[0]);
    // Rows are output channels (per-channel multipliers), columns positions.
    return writeRequantized(*y, r, g.M, outSize, mult, true, zyAll, true);
  }

 private:
  explicit QLinearConv(ConvAttrs a) : a_(std::move(a)) {}
  ConvAttrs a_;
};

// com.microsoft QGemm (A, a_scale, a_zero_point, B, b_scale, b_zero_point,
// C, y_scale, y_zero_point; alpha, transA, transB): A [M, K] (transA: [K, M])
// with one scale and zero point, B [K, N] (transB: [N, K]) with one scale and
// zero point or one per column, C int32 broadcast to [M, N] as Gemm's C is.
class QGemm final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    const ir::Node& n = b.node();
    return std::unique_ptr<Kernel>(new QGemm(
        n.attrFloat("alpha", 1.0f), n.attrInt("transA", 0) != 0, n.attrInt("transB", 0) != 0));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& a = ctx.input(0);
    const Tensor& b = ctx.input(3);
    if (a.rank() != 2 || b.rank() != 2)
      return invalidArgument("QGemm needs 2-D A and B, got " + a.describe() + " and " +
                             b.describe());
    const int64_t M = a.dim(transA_ ? 1 : 0), K = a.dim(transA_ ? 0 : 1);
    const int64_t N = b.dim(transB_ ? 0 : 1);
    if (b.dim(transB_ ? 1 : 0) != K)
      return invalidArgument("inner dimensions differ: " + a.describe() + " x " + b.describe());
    PASSLAB_ASSIGN_OR_RETURN(std::vector<float> as, scales(ctx, 1, 1, "a_scale"));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int32_t> za,
                             zeroPoints(ctx, 2, 1, a.dtype(), "a_zero_point"));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<float> bs, scales(ctx, 4, N, "b_scale"));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int32_t> zb,
                             zeroPoints(ctx, 5, N, b.dtype(), "b_zero_point"));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int32_t> acc, product(a, b, za[0], zb, M, K, N));
    if (ctx.has(6)) PASSLAB_RETURN_IF_ERROR(addBias(ctx.input(6), M, N, acc));
    // The multiplier as ONNX Runtime computes it: alpha * a_scale * b_scale[n] (/ y_scale).
    std::vector<float> mult(static_cast<size_t>(N));
    for (int64_t n = 0; n < N; ++n)
      mult[static_cast<size_t>(n)] = alpha_ * as[0] * bs[static_cast<size_t>(n)];
    if (!ctx.has(7)) {
      if (ctx.has(8)) return invalidArgument("QGemm has y_zero_point without y_scale");
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, DataType::kFloat, Dims{M, N}));
      for (size_t i = 0; i < acc.size(); ++i)
        y->mutableData<float>()[i] = static_cast<float>(
            static_cast<double>(acc[i]) * static_cast<double>(mult[i % static_cast<size_t>(N)]));
      return Status::ok();
    }
    if (!ctx.has(8)) return unsupported("QGemm with y_scale but no y_zero_point");
    const DataType outType = ctx.input(8).dtype();
    if (!kInt8s.contains(outType))
      return unsupported("QGemm producing " + std::string(ir::dtypeName(outType)));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<float> ys, scales(ctx, 7, 1, "y_scale"));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int32_t> zy,
                             zeroPoints(ctx, 8, N, outType, "y_zero_point"));
    for (float& m : mult) m /= ys[0];
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, outType, Dims{M, N}));
    return writeRequantized(*y, acc, M, N, mult, false, zy, false);
  }

 private:
  QGemm(float alpha, bool transA, bool transB) : alpha_(alpha), transA_(transA), transB_(transB) {}

  // int32 sums of (A' - za)(B' - zb[n]), [M, N].
  Expected<std::vector<int32_t>> product(const Tensor& a, const Tensor& b, int32_t za,
                                         const std::vector<int32_t>& zb, int64_t M, int64_t K,
                                         int64_t N) const {
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int32_t> A, readInt8s(a, "A"));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int32_t> B, readInt8s(b, "B"));
    std::vector<int32_t> out(static_cast<size_t>(M * N), 0);
    for (int64_t m = 0; m < M; ++m)
      for (int64_t k = 0; k < K; ++k) {
        const int32_t av = A[static_cast<size_t>(transA_ ? k * M + m : m * K + k)] - za;
        for (int64_t n = 0; n < N; ++n) {
          const int32_t bv = B[static_cast<size_t>(transB_ ? n * K + k : k * N + n)];
          out[static_cast<size_t>(m * N + n)] += av * (bv - zb[static_cast<size_t>(n)]);
        }
      }
    return out;
  }

  // C (int32, unidirectionally broadcast to [M, N]) added to the sums.
  static Status addBias(const Tensor& c, int64_t M, int64_t N, std::vector<int32_t>& acc) {
    const int64_t cm = c.rank() == 2 ? c.dim(0) : 1, cn = c.rank() >= 1 ? c.dims().back() : 1;
    if (c.dtype() != DataType::kInt32 || c.rank() > 2 || (cm != 1 && cm != M) ||
        (cn != 1 && cn != N))
      return invalidArgument("C must be int32 broadcastable to [" + std::to_string(M) + ", " +
                             std::to_string(N) + "], got " + c.describe());
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n)
        acc[static_cast<size_t>(m * N + n)] +=
            c.data<int32_t>()[(cm == 1 ? 0 : m) * cn + (cn == 1 ? 0 : n)];
    return Status::ok();
  }

  float alpha_;
  bool transA_, transB_;
};

const KernelDef kRows[] = {
    // matmul_integer_onednn.cpp (exact; hands the rest to the row below)
    {"", "MatMulInteger", 10, kOpsetMax, kInt8s, 0, Tier::kOptimized, "onednn.MatMulInteger",
     makeOneDnnMatMulInteger},
    {"", "MatMulInteger", 10, kOpsetMax, kInt8s, 0, Tier::kReference, "cpu.MatMulInteger",
     makeKernel<MatMulInteger>},
    {"", "ConvInteger", 10, kOpsetMax, kInt8s, 0, Tier::kReference, "cpu.ConvInteger",
     makeKernel<ConvInteger>},
    {"", "QLinearMatMul", 10, kOpsetMax, kInt8s, 0, Tier::kReference, "cpu.QLinearMatMul",
     makeKernel<QLinearMatMul>},
    {"", "QLinearConv", 10, kOpsetMax, kInt8s, 0, Tier::kReference, "cpu.QLinearConv",
     makeKernel<QLinearConv>},
    {"com.microsoft", "QGemm", 1, kOpsetMax, kInt8s, 0, Tier::kReference, "cpu.ms.QGemm",
     makeKernel<QGemm>},
};

}  // namespace

std::span<const KernelDef> qlinearKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
