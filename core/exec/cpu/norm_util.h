// Helpers for the normalization kernels: per-channel parameters (scale, bias)
// broadcast to the normalized shape, read into the compute type once per run.
#pragma once

#include <string>
#include <vector>

#include "core/exec/broadcast.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

// The elements of `t` (storage type S) broadcast to `dims`, as C values, row-major.
// `what` names the input in the error when t does not broadcast to dims.
template <class S, class C>
Expected<std::vector<C>> broadcastParam(const Tensor& t, const Dims& dims, const char* what) {
  auto shape = broadcastShapes(t.dims(), dims);
  if (!shape || shape.value() != dims)
    return invalidArgument(std::string(what) + " " + t.describe() +
                           " does not broadcast to the normalized shape " + dimsToString(dims));
  const int64_t n = numelOf(dims);
  std::vector<C> out(static_cast<size_t>(n));
  const S* in = t.data<S>();
  if (t.numel() == n) {
    for (int64_t i = 0; i < n; ++i) out[static_cast<size_t>(i)] = static_cast<C>(load(in[i]));
    return out;
  }
  const std::vector<int64_t> strides = broadcastStrides(t.dims(), dims);
  std::vector<int64_t> idx(dims.size(), 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t off = 0;
    for (size_t d = 0; d < dims.size(); ++d) off += idx[d] * strides[d];
    out[static_cast<size_t>(i)] = static_cast<C>(load(in[off]));
    for (size_t d = dims.size(); d-- > 0;) {
      if (++idx[d] < dims[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

// The dtype named by a stash_type attribute (float when unset).
inline Expected<ir::DataType> stashType(const KernelBuild& b) {
  int64_t t = b.node().attrInt("stash_type", 1);
  auto dt = static_cast<ir::DataType>(t);
  if (!ir::isKnownDtype(static_cast<int32_t>(t)) || !types::kFloats.contains(dt))
    return invalidArgument("stash_type " + std::to_string(t) + " is not a float type");
  return dt;
}

}  // namespace passlab::exec::cpu
