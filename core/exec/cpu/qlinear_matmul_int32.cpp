#include "core/exec/cpu/qlinear_matmul_int32.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "core/exec/cpu/avx512_lanes.h"
#include "core/exec/cpu/qlinear_onednn_requantization.h"
#include "core/exec/cpu/qlinear_requant16.h"
#include "core/exec/parallel.h"
#include "core/support/cpu_isa.h"

namespace passlab::exec::cpu {

namespace {

using ir::DataType;
using namespace qlinear;  // NOLINT: the inputs and the requantization

using avx512::kLanes;

// The reference's requantization of one row of sums, one element at a time.
void requantizeRowScalar(const int32_t* acc, int64_t n, const requant16::Multipliers& m,
                         uint8_t* y) {
  for (int64_t c = 0; c < n; ++c) {
    double v = static_cast<double>(acc[c]) * m.mult[static_cast<size_t>(c)];
    v = std::clamp(std::nearbyint(v) + m.yZero, m.yLo, m.yHi);
    y[c] = static_cast<uint8_t>(static_cast<int32_t>(v));
  }
}

#if defined(__x86_64__)
using avx512::lanes;

// The same, 16 columns at a time; float32 where exact for this row's sums.
PASSLAB_REQUANT16_TARGET void requantizeRow16(const int32_t* acc, int64_t n,
                                              const requant16::Multipliers& m, const int32_t* zeros,
                                              uint8_t* y) {
  uint32_t largest = 0;
  for (int64_t c = 0; c < n; ++c) {
    const auto v = static_cast<uint32_t>(acc[c]);
    largest = std::max(largest, acc[c] < 0 ? 0u - v : v);
  }
  const requant16::Requant q = requant16::constants(m, m.floatExact(largest));
  for (int64_t c0 = 0; c0 < n; c0 += kLanes) {
    const __mmask16 k = lanes(n - c0);
    const requant16::Channels ch{zeros, m.mult.data() + c0, m.multf.data() + c0};
    requant16::store16(_mm512_maskz_loadu_epi32(k, acc + c0), ch, q, y + c0, k);
  }
}
#endif

// acc [rows, n] requantized into y (u8 or s8 bytes).
void requantize(const int32_t* acc, int64_t rows, int64_t n, const Requantization& r, uint8_t* y,
                int threads) {
  const int64_t padded = avx512::roundUp(n, kLanes);
  requant16::Multipliers m;
  m.prepare(r, n, padded);
#if defined(__x86_64__)
  static const bool avx512 = cpu_isa::hasAvx512Vnni();
  if (avx512) {
    const std::vector<int32_t> zeros(kLanes, 0);
    parallelFor(rows, threads, std::max<int64_t>(1, 8192 / n), [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i)
        requantizeRow16(acc + i * n, n, m, zeros.data(), y + i * n);
    });
    return;
  }
#endif
  parallelFor(rows, threads, std::max<int64_t>(1, 8192 / n), [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) requantizeRowScalar(acc + i * n, n, m, y + i * n);
  });
}

}  // namespace

bool ExactQLinearMatMul::wanted(const KernelContext& ctx) {
  const Tensor& b = ctx.input(kW);
  if (b.dtype() == DataType::kUInt8) return true;
  if (b.dtype() != DataType::kInt8 || !ctx.has(kWZeroPoint)) return false;
  const Tensor& z = ctx.input(kWZeroPoint);
  if (z.dtype() != DataType::kInt8) return false;
  for (int64_t i = 0; i < z.numel(); ++i)
    if (z.data<int8_t>()[i] != 0) return true;
  return false;
}

Status ExactQLinearMatMul::run(KernelContext& ctx, Kernel& reference) {
  const Tensor& a = ctx.input(kX);
  const Tensor& b = ctx.input(kW);
  std::optional<MatMulShape> s = product_.prepare(a, b, ctx.invariantInput(kW), ctx.threads());
  if (!s) return referenceOrFreed(ctx, b, reference);
  std::optional<Requantization> r = readRequantization(ctx, s->N, {}, WeightForm::kAny8Bit);
  auto zb = int8ZeroPoints(ctx, kWZeroPoint, b.dtype(), s->N);
  if (!r || !zb) return referenceOrFreed(ctx, b, reference);
  PASSLAB_ASSIGN_OR_RETURN(Tensor acc, ctx.scratch(DataType::kInt32, s->out));
  const int32_t za[] = {r->xZeroPoint};
  product_.compute(a, b, za, *zb, ctx.threads(), acc.mutableData<int32_t>());
  PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, r->yType, s->out));
  requantize(acc.data<int32_t>(), acc.numel() / s->N, s->N, *r,
             static_cast<uint8_t*>(y->mutableRaw()), ctx.threads());
  // B held packed with its sums serves every later run on this path, which
  // an int8 B keeps only while its zero points stay as they are.
  const bool staysExact = b.dtype() == DataType::kUInt8 || ctx.invariantInput(kWZeroPoint);
  if (ctx.invariantInput(kW) && staysExact && product_.holdsB()) ctx.holdsOwnCopy(kW);
  return Status::ok();
}

Status ExactQLinearMatMul::referenceOrFreed(KernelContext& ctx, const Tensor& b,
                                            Kernel& reference) {
  if (b.dataFreed())
    return internalError(
        "the weights were freed after packing and the int8 matmul cannot run this case");
  return reference.run(ctx);
}

}  // namespace passlab::exec::cpu
