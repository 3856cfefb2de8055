// The spatial geometry of a sliding window (Conv, ConvTranspose, pooling) of
// 1 to 3 dims as exactly three (leading dims 1, pads 0), so that the reference
// kernels write their loops once for every rank.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace passlab::exec::cpu {

struct Window3 {
  std::array<int64_t, 3> in{1, 1, 1}, k{1, 1, 1}, s{1, 1, 1}, d{1, 1, 1}, pb{0, 0, 0}, pe{0, 0, 0},
      out{1, 1, 1};

  // From a ConvGeometry or PoolGeometry (spatial dims at most 3).
  template <class Geometry>
  explicit Window3(const Geometry& g) {
    const size_t off = 3 - g.spatial();
    for (size_t i = 0; i < g.spatial(); ++i) {
      in[off + i] = g.in[i];
      k[off + i] = g.kernel[i];
      s[off + i] = g.stride[i];
      d[off + i] = g.dilation[i];
      pb[off + i] = g.padBegin[i];
      pe[off + i] = g.padEnd[i];
      out[off + i] = g.out[i];
    }
  }
  int64_t inSize() const { return in[0] * in[1] * in[2]; }
  int64_t kSize() const { return k[0] * k[1] * k[2]; }
  int64_t outSize() const { return out[0] * out[1] * out[2]; }
};

}  // namespace passlab::exec::cpu
