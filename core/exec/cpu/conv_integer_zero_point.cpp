#include "core/exec/cpu/conv_integer_zero_point.h"

#include "core/exec/cpu/qlinear_onednn_requantization.h"
#include "core/exec/cpu/window_indirection.h"

namespace passlab::exec::cpu::conv_integer {

using ir::DataType;

std::vector<int32_t> windowWeightSums(const Tensor& w, const ConvGeometry& g, int64_t& positions) {
  const Indirection ind = buildIndirection(g.window);
  const int64_t taps = ind.taps, cPerGroup = g.C / g.group;
  positions = ind.grid;
  std::vector<int32_t> perTap(static_cast<size_t>(g.M * taps), 0);  // [M, taps]
  const int8_t* wv = w.data<int8_t>();
  for (int64_t m = 0; m < g.M; ++m)
    for (int64_t c = 0; c < cPerGroup; ++c)
      for (int64_t k = 0; k < taps; ++k)
        perTap[static_cast<size_t>(m * taps + k)] += wv[(m * cPerGroup + c) * taps + k];
  std::vector<int32_t> sums(static_cast<size_t>(g.M * positions), 0);
  for (int64_t m = 0; m < g.M; ++m)
    for (int64_t o = 0; o < positions; ++o) {
      const int64_t* at = ind.row(o);
      int32_t s = 0;
      for (int64_t k = 0; k < taps; ++k)
        if (at[k] >= 0) s += perTap[static_cast<size_t>(m * taps + k)];
      sums[static_cast<size_t>(m * positions + o)] = s;
    }
  return sums;
}

bool weightZeroPointIsZero(const KernelContext& ctx, size_t i, int64_t channels) {
  if (!ctx.has(i)) return true;
  const Tensor& z = ctx.input(i);
  if (z.dtype() != DataType::kInt8 || (z.numel() != 1 && z.numel() != channels)) return false;
  for (int64_t j = 0; j < z.numel(); ++j)
    if (z.data<int8_t>()[j] != 0) return false;
  return true;
}

std::optional<int32_t> activationZeroPoint(const KernelContext& ctx, size_t x, size_t i) {
  if (!ctx.has(i)) return 0;
  const Tensor& z = ctx.input(i);
  if (z.dtype() != ctx.input(x).dtype() || z.numel() != 1) return std::nullopt;
  return qlinear::int8At(z, 0);
}

}  // namespace passlab::exec::cpu::conv_integer
