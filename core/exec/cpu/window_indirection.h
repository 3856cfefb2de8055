// The indirection buffer of a window (XNNPACK's approach, on NCHW planes):
// for each grid position and kernel tap, the offset of the image element the
// tap reads inside one image plane, or -1 where it falls in the padding.
// Built once per run from the ir::Window; every channel plane shares it, so
// each window op is a loop over (plane, grid position, tap) that gathers
// (Conv, pools) or scatters (ConvTranspose, Col2Im) through it.
#pragma once

#include <cstdint>
#include <vector>

#include "core/ir/window.h"

namespace passlab::exec::cpu {

struct Indirection {
  int64_t grid = 0, taps = 0;
  std::vector<int64_t> at;      // [grid][taps]: image offset, or -1
  std::vector<int64_t> padded;  // per grid position: taps inside the padded image

  const int64_t* row(int64_t g) const { return at.data() + g * taps; }
};

Indirection buildIndirection(const ir::Window& w);

// The column-major offset (the first axis fastest) of row-major `offset`
// in `dims`: MaxPool's Indices with storage_order 1.
int64_t columnMajorOffset(int64_t offset, const std::vector<int64_t>& dims);

}  // namespace passlab::exec::cpu
