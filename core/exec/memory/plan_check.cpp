#include "core/exec/memory/plan_check.h"

#include <string>
#include <vector>

namespace passlab::exec::memory {

namespace {

std::string describe(const PlannedTensor& t) {
  return "'" + t.name + "' (steps " + std::to_string(t.first) + "-" + std::to_string(t.last) +
         ", bytes [" + std::to_string(t.offset) + ", " + std::to_string(t.offset + t.size) + "))";
}

bool overlapInTime(const PlannedTensor& a, const PlannedTensor& b) {
  return a.first <= b.last && b.first <= a.last;
}

bool overlapInMemory(const PlannedTensor& a, const PlannedTensor& b) {
  return a.size > 0 && b.size > 0 && a.offset < b.offset + b.size && b.offset < a.offset + a.size;
}

// The first tensor of each tensor's buffer (following sharesWith), or an
// error when a link is malformed.
Expected<std::vector<size_t>> buffersOf(const MemoryPlan& plan) {
  const auto& ts = plan.tensors;
  std::vector<size_t> root(ts.size());
  for (size_t i = 0; i < ts.size(); ++i) {
    const PlannedTensor& t = ts[i];
    if (t.reuse == Reuse::kNone) {
      root[i] = i;
      continue;
    }
    if (t.sharesWith < 0 || static_cast<size_t>(t.sharesWith) >= i)
      return internalError("memory plan: " + describe(t) +
                           " shares the buffer of no earlier tensor");
    const PlannedTensor& s = ts[static_cast<size_t>(t.sharesWith)];
    if (s.offset != t.offset || s.size != t.size)
      return internalError("memory plan: " + describe(t) + " shares the buffer of " + describe(s) +
                           " at another offset or size");
    root[i] = root[static_cast<size_t>(t.sharesWith)];
  }
  return root;
}

}  // namespace

Status checkPlan(const MemoryPlan& plan) {
  const auto& ts = plan.tensors;
  for (const PlannedTensor& t : ts) {
    if (t.size < t.bytes || t.offset + t.size > plan.peak)
      return internalError("memory plan: " + describe(t) + " does not fit its " +
                           std::to_string(t.bytes) + " bytes in the arena of " +
                           std::to_string(plan.peak) + " bytes");
    if (t.first > t.last)
      return internalError("memory plan: " + describe(t) + " ends before it starts");
  }
  auto root = buffersOf(plan);
  if (!root) return root.error();
  // In place: everything already in the buffer dies where the new tensor is written.
  for (size_t i = 0; i < ts.size(); ++i) {
    if (ts[i].reuse != Reuse::kInPlace) continue;
    for (size_t j = 0; j < i; ++j)
      if ((*root)[j] == (*root)[i] && ts[j].first < ts[i].first &&
          (ts[j].last > ts[i].first || ts[j].graphOutput))
        return internalError("memory plan: " + describe(ts[i]) + " is written in place over " +
                             describe(ts[j]) + ", which is still read later");
  }
  for (size_t i = 0; i < ts.size(); ++i)
    for (size_t j = i + 1; j < ts.size(); ++j)
      if ((*root)[i] != (*root)[j] && overlapInTime(ts[i], ts[j]) && overlapInMemory(ts[i], ts[j]))
        return internalError("memory plan: " + describe(ts[i]) + " and " + describe(ts[j]) +
                             " are live at the same time in overlapping memory");
  return Status::ok();
}

}  // namespace passlab::exec::memory
