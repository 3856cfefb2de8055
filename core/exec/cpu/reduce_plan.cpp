#include "core/exec/cpu/reduce_plan.h"

#include <string>

namespace passlab::exec::cpu {

int64_t ReducePlan::baseOffset(int64_t o) const {
  int64_t off = 0;
  for (size_t i = keptDims.size(); i-- > 0;) {
    off += (o % keptDims[i]) * keptStrides[i];
    o /= keptDims[i];
  }
  return off;
}

Expected<std::vector<bool>> reducedAxes(const std::vector<int64_t>& axes, int64_t rank) {
  std::vector<bool> flags(static_cast<size_t>(rank), false);
  for (int64_t a : axes) {
    int64_t n = a < 0 ? a + rank : a;
    if (n < 0 || n >= rank)
      return invalidArgument("axis " + std::to_string(a) + " is out of range for rank " +
                             std::to_string(rank));
    if (flags[static_cast<size_t>(n)])
      return invalidArgument("axis " + std::to_string(a) + " is given twice");
    flags[static_cast<size_t>(n)] = true;
  }
  return flags;
}

ReducePlan planReduction(const Dims& dims, const std::vector<bool>& reduced, bool keepDims) {
  ReducePlan p;
  const size_t rank = dims.size();
  for (size_t i = 0; i < rank; ++i) {
    if (!reduced[i])
      p.outDims.push_back(dims[i]);
    else if (keepDims)
      p.outDims.push_back(1);
  }
  p.outCount = numelOf(p.outDims);
  for (size_t i = 0; i < rank; ++i)
    if (reduced[i]) p.reducedCount *= dims[i];

  // Merge neighbouring dims of the same kind, dropping size-1 dims.
  struct Run {
    bool reduced;
    int64_t size;
  };
  std::vector<Run> runs;
  for (size_t i = 0; i < rank; ++i) {
    if (dims[i] == 1) continue;
    if (!runs.empty() && runs.back().reduced == reduced[i])
      runs.back().size *= dims[i];
    else
      runs.push_back({reduced[i], dims[i]});
  }
  size_t reducedRuns = 0;
  for (const Run& r : runs) reducedRuns += r.reduced ? 1 : 0;
  if (reducedRuns <= 1) {
    p.block = true;
    bool seen = false;
    for (const Run& r : runs) {
      if (r.reduced)
        seen = true;
      else if (seen)
        p.inner *= r.size;
      else
        p.outer *= r.size;
    }
    return p;
  }

  // General form over the runs: strides of each run in the input.
  std::vector<int64_t> strides(runs.size(), 1);
  for (size_t i = runs.size(); i-- > 1;) strides[i - 1] = strides[i] * runs[i].size;
  p.reducedOffsets.assign(1, 0);
  for (size_t i = 0; i < runs.size(); ++i) {
    if (!runs[i].reduced) {
      p.keptDims.push_back(runs[i].size);
      p.keptStrides.push_back(strides[i]);
      continue;
    }
    // Offsets so far times this run's positions (row-major order of reduced elements).
    std::vector<int64_t> next;
    next.reserve(p.reducedOffsets.size() * static_cast<size_t>(runs[i].size));
    for (int64_t base : p.reducedOffsets)
      for (int64_t k = 0; k < runs[i].size; ++k) next.push_back(base + k * strides[i]);
    p.reducedOffsets = std::move(next);
  }
  return p;
}

}  // namespace passlab::exec::cpu
