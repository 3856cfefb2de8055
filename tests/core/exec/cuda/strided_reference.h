// What the device's strided copy (launchStridedCopy) computes, on the host:
// the reference of the data-movement plan and device tests.
#pragma once

#include <cstdint>
#include <vector>

#include "core/exec/cuda/data_movement_plan.h"

namespace passlab::exec::cuda {

template <class T>
std::vector<T> applyStridedPlan(const StridedPlan& p, const std::vector<T>& src) {
  int64_t total = 1;
  for (int64_t d : p.dims) total *= d;
  std::vector<T> out(static_cast<size_t>(total));
  for (int64_t i = 0; i < total; ++i) {
    int64_t rest = i, off = p.base;
    for (size_t d = p.dims.size(); d-- > 0;) {
      int64_t c = rest % p.dims[d];
      rest /= p.dims[d];
      if (!p.mods.empty()) c %= p.mods[d];
      off += c * p.strides[d];
    }
    out[static_cast<size_t>(i)] = src[static_cast<size_t>(off)];
  }
  return out;
}

}  // namespace passlab::exec::cuda
