#include "core/exec/cpu/conv_integer_zero_point.h"

#include <algorithm>

#include "core/exec/cpu/qlinear_onednn_requantization.h"
#include "core/exec/cpu/window_indirection.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu::conv_integer {

using ir::DataType;

std::vector<int32_t> tapWeightSums(const Tensor& w, const ConvGeometry& g) {
  int64_t taps = 1;
  for (int64_t k : g.kernel) taps *= k;
  const int64_t cPerGroup = g.C / g.group;
  std::vector<int32_t> perTap(static_cast<size_t>(g.M * taps), 0);  // [M, taps]
  const int8_t* wv = w.data<int8_t>();
  for (int64_t m = 0; m < g.M; ++m)
    for (int64_t c = 0; c < cPerGroup; ++c)
      for (int64_t k = 0; k < taps; ++k)
        perTap[static_cast<size_t>(m * taps + k)] += wv[(m * cPerGroup + c) * taps + k];
  return perTap;
}

std::vector<int32_t> windowWeightSums(const std::vector<int32_t>& perTap, const ConvGeometry& g,
                                      int64_t& positions) {
  const Indirection ind = buildIndirection(g.window);
  const int64_t taps = ind.taps;
  positions = ind.grid;
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

std::vector<int32_t> windowWeightSums(const Tensor& w, const ConvGeometry& g, int64_t& positions) {
  return windowWeightSums(tapWeightSums(w, g), g, positions);
}

bool sumsToOnePerChannel(std::vector<int32_t>& sums, int64_t channels, int64_t positions) {
  if (positions == 0 || channels == 0) return false;
  for (int64_t m = 0; m < channels; ++m) {
    const int32_t* row = sums.data() + m * positions;
    if (!std::all_of(row, row + positions, [&](int32_t v) { return v == row[0]; })) return false;
  }
  std::vector<int32_t> perChannel(static_cast<size_t>(channels));
  for (int64_t m = 0; m < channels; ++m)
    perChannel[static_cast<size_t>(m)] = sums[static_cast<size_t>(m * positions)];
  sums = std::move(perChannel);
  return true;
}

std::optional<int32_t> activationZeroPoint(const KernelContext& ctx, size_t x, size_t i) {
  if (!ctx.has(i)) return 0;
  const Tensor& z = ctx.input(i);
  if (z.dtype() != ctx.input(x).dtype() || z.numel() != 1) return std::nullopt;
  return qlinear::int8At(z, 0);
}

Tensor signedWeights(const Tensor& w) {
  if (w.dtype() != DataType::kUInt8) return w;
  Tensor s = Tensor::zeros(DataType::kInt8, w.dims());
  const uint8_t* from = w.data<uint8_t>();
  int8_t* to = s.mutableData<int8_t>();
  for (int64_t i = 0; i < w.numel(); ++i) to[i] = static_cast<int8_t>(from[i] - 128);
  return s;
}

std::optional<std::vector<int32_t>> weightZeroPoints(const KernelContext& ctx, size_t w, size_t i,
                                                     int64_t channels) {
  const DataType type = ctx.input(w).dtype();
  const int32_t shift = type == DataType::kUInt8 ? 128 : 0;
  std::vector<int32_t> zw(static_cast<size_t>(channels), -shift);
  if (!ctx.has(i)) return zw;
  const Tensor& z = ctx.input(i);
  if (z.dtype() != type || (z.numel() != 1 && z.numel() != channels)) return std::nullopt;
  for (int64_t m = 0; m < channels; ++m)
    zw[static_cast<size_t>(m)] = qlinear::int8At(z, z.numel() == 1 ? 0 : m) - shift;
  return zw;
}

namespace {

// T[o] for one image and group: `plane` holds the sum of the group's channels
// of X at each image element.
// Channels-last: X's elements `stride` apart, the group's channels together.
template <class Q>
void channelSums(const Q* x, int64_t channels, int64_t plane, int32_t* sum, bool channelsLast,
                 int64_t stride) {
  std::fill(sum, sum + plane, 0);
  if (channelsLast) {
    for (int64_t s = 0; s < plane; ++s)
      for (int64_t c = 0; c < channels; ++c) sum[s] += x[s * stride + c];
    return;
  }
  for (int64_t c = 0; c < channels; ++c)
    for (int64_t s = 0; s < plane; ++s) sum[s] += x[c * plane + s];
}

}  // namespace

std::vector<int32_t> activationWindowSums(const Tensor& x, int32_t zx, const ConvGeometry& g) {
  return activationWindowSums(x, zx, g, buildIndirection(g.window));
}

std::vector<int32_t> activationWindowSums(const Tensor& x, int32_t zx, const ConvGeometry& g,
                                          const Indirection& ind, bool channelsLast) {
  const int64_t cPerGroup = g.C / g.group, positions = ind.grid;
  int64_t plane = 1;
  for (int64_t d : g.in) plane *= d;
  std::vector<int32_t> t(static_cast<size_t>(g.N * g.group * positions));
  std::vector<int32_t> sum(static_cast<size_t>(plane));
  for (int64_t n = 0; n < g.N; ++n)
    for (int64_t grp = 0; grp < g.group; ++grp) {
      const int64_t first =
          channelsLast ? n * plane * g.C + grp * cPerGroup : (n * g.C + grp * cPerGroup) * plane;
      if (x.dtype() == DataType::kUInt8)
        channelSums(x.data<uint8_t>() + first, cPerGroup, plane, sum.data(), channelsLast, g.C);
      else
        channelSums(x.data<int8_t>() + first, cPerGroup, plane, sum.data(), channelsLast, g.C);
      int32_t* out = t.data() + (n * g.group + grp) * positions;
      for (int64_t o = 0; o < positions; ++o) {
        const int64_t* at = ind.row(o);
        int32_t v = 0, inside = 0;
        for (int64_t k = 0; k < ind.taps; ++k)
          if (at[k] >= 0) v += sum[static_cast<size_t>(at[k])], ++inside;
        out[o] = v - zx * static_cast<int32_t>(cPerGroup) * inside;
      }
    }
  return t;
}

void subtractWeightZeroPoint(int32_t* acc, bool channelsLast, const ConvGeometry& g,
                             int64_t positions, const std::vector<int32_t>& zw,
                             const std::vector<int32_t>& t, int threads) {
  const int64_t m = g.M, mPerGroup = g.M / g.group;
  if (channelsLast) {  // acc [N, P, M]: one position's channels at a time
    parallelFor(g.N * positions, threads, 256, [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; ++r) {
        const int64_t n = r / positions, o = r % positions;
        int32_t* row = acc + r * m;
        const int32_t* tn = t.data() + n * g.group * positions + o;
        for (int64_t grp = 0; grp < g.group; ++grp) {
          const int32_t tv = tn[grp * positions];
          for (int64_t c = grp * mPerGroup; c < (grp + 1) * mPerGroup; ++c)
            row[c] -= zw[static_cast<size_t>(c)] * tv;
        }
      }
    });
    return;
  }
  parallelFor(g.N * m, threads, 1, [&](int64_t begin, int64_t end) {  // acc [N, M, P]
    for (int64_t r = begin; r < end; ++r) {
      const int64_t n = r / m, c = r % m;
      int32_t* row = acc + r * positions;
      const int32_t* tr = t.data() + (n * g.group + c / mPerGroup) * positions;
      const int32_t z = zw[static_cast<size_t>(c)];
      for (int64_t o = 0; o < positions; ++o) row[o] -= z * tr[o];
    }
  });
}

}  // namespace passlab::exec::cpu::conv_integer
