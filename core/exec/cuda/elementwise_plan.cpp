#include "core/exec/cuda/elementwise_plan.h"

#include <string>

#include "core/exec/broadcast.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cuda {

Expected<BroadcastPlan> planBroadcast(std::span<const Dims* const> inputs) {
  std::vector<const Dims*> shapes(inputs.begin(), inputs.end());
  PASSLAB_ASSIGN_OR_RETURN(Dims out, broadcastShapes(shapes));
  return planBroadcastTo(out, inputs);
}

Expected<BroadcastPlan> planBroadcastTo(const Dims& out, std::span<const Dims* const> inputs) {
  const size_t n = inputs.size();
  if (n == 0 || n > static_cast<size_t>(ew::kMaxOperands))
    return invalidArgument("a broadcast plan takes 1 to " + std::to_string(ew::kMaxOperands) +
                           " operands, got " + std::to_string(n));
  for (const Dims* in : inputs) {
    bool fits = in->size() <= out.size();
    for (size_t i = 0; fits && i < in->size(); ++i) {
      int64_t d = (*in)[i];
      fits = d == 1 || d == out[out.size() - in->size() + i];
    }
    if (!fits)
      return invalidArgument("shape " + dimsToString(*in) + " does not broadcast to " +
                             dimsToString(out));
  }
  BroadcastPlan plan;
  plan.out = out;
  plan.numel = numelOf(out);
  std::vector<std::vector<int64_t>> full(n);
  for (size_t k = 0; k < n; ++k) full[k] = broadcastStrides(*inputs[k], out);
  // As BroadcastWalker: drop size-1 dims, merge neighbours contiguous for every operand.
  std::vector<int64_t> dims;
  std::vector<std::vector<int64_t>> strides(n);
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] == 1) continue;
    bool merge = !dims.empty();
    for (size_t k = 0; k < n && merge; ++k) merge = strides[k].back() == full[k][i] * out[i];
    if (merge) {
      dims.back() *= out[i];
      for (size_t k = 0; k < n; ++k) strides[k].back() = full[k][i];
    } else {
      dims.push_back(out[i]);
      for (size_t k = 0; k < n; ++k) strides[k].push_back(full[k][i]);
    }
  }
  if (dims.empty()) {
    dims.push_back(1);
    for (size_t k = 0; k < n; ++k) strides[k].push_back(0);
  }
  if (dims.size() > static_cast<size_t>(ew::kMaxRank))
    return unsupported("the broadcast of " + dimsToString(out) + " needs " +
                       std::to_string(dims.size()) + " index dims; the CUDA kernels take " +
                       std::to_string(ew::kMaxRank));
  plan.index = ew::BroadcastIndex{};
  plan.index.rank = static_cast<int>(dims.size());
  for (size_t d = 0; d < dims.size(); ++d) {
    plan.index.dims[d] = dims[d];
    for (size_t k = 0; k < n; ++k) plan.index.strides[k][d] = strides[k][d];
  }
  return plan;
}

}  // namespace passlab::exec::cuda
