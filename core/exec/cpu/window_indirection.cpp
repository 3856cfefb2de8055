#include "core/exec/cpu/window_indirection.h"

namespace passlab::exec::cpu {

namespace {

// Axis `a`'s image positions of tap k at grid position o, o-major; -1 outside
// the image. And how many of position o's taps lie inside the padded image.
struct AxisTaps {
  std::vector<int64_t> pos;
  std::vector<int64_t> padded;
};

AxisTaps axisTaps(const ir::WindowAxis& x) {
  AxisTaps t;
  t.pos.reserve(static_cast<size_t>(x.grid * x.kernel));
  t.padded.assign(static_cast<size_t>(x.grid), 0);
  for (int64_t o = 0; o < x.grid; ++o)
    for (int64_t k = 0; k < x.kernel; ++k) {
      const int64_t p = x.at(o, k);
      t.pos.push_back(p >= 0 && p < x.image ? p : -1);
      if (p >= -x.padBegin && p < x.image + x.padEnd) ++t.padded[static_cast<size_t>(o)];
    }
  return t;
}

}  // namespace

Indirection buildIndirection(const ir::Window& w) {
  Indirection ind;
  ind.grid = w.gridSize();
  ind.taps = w.kernelSize();
  ind.at.resize(static_cast<size_t>(ind.grid * ind.taps));
  ind.padded.resize(static_cast<size_t>(ind.grid));
  std::vector<AxisTaps> axes;
  for (const ir::WindowAxis& x : w.axes) axes.push_back(axisTaps(x));
  std::vector<int64_t> o(w.rank(), 0);  // the grid position, row-major
  for (int64_t g = 0; g < ind.grid; ++g) {
    // Expand the taps axis by axis: offsets over axes [0, a] in row-major order.
    int64_t* row = ind.at.data() + g * ind.taps;
    int64_t n = 1, padded = 1;
    row[0] = 0;
    for (size_t a = 0; a < w.rank(); ++a) {
      const ir::WindowAxis& x = w.axes[a];
      const int64_t* pos = axes[a].pos.data() + o[a] * x.kernel;
      padded *= axes[a].padded[static_cast<size_t>(o[a])];
      for (int64_t i = n; i-- > 0;)
        for (int64_t k = x.kernel; k-- > 0;)
          row[i * x.kernel + k] = row[i] < 0 || pos[k] < 0 ? -1 : row[i] * x.image + pos[k];
      n *= x.kernel;
    }
    ind.padded[static_cast<size_t>(g)] = padded;
    for (size_t a = w.rank(); a-- > 0;) {
      if (++o[a] < w.axes[a].grid) break;
      o[a] = 0;
    }
  }
  return ind;
}

int64_t columnMajorOffset(int64_t offset, const std::vector<int64_t>& dims) {
  int64_t col = 0, stride = 1;
  std::vector<int64_t> idx(dims.size());
  for (size_t a = dims.size(); a-- > 0;) {
    idx[a] = offset % dims[a];
    offset /= dims[a];
  }
  for (size_t a = 0; a < dims.size(); ++a) {
    col += idx[a] * stride;
    stride *= dims[a];
  }
  return col;
}

}  // namespace passlab::exec::cpu
