#include "core/exec/memory/plan_check.h"

#include <string>
#include <vector>

namespace passlab::exec::memory {

namespace {

std::string describe(const PlannedTensor& t) {
  return "'" + t.name + "' (steps " + std::to_string(t.first) + "-" + std::to_string(t.last) +
         ", bytes [" + std::to_string(t.offset) + ", " + std::to_string(t.offset + t.size) + ")" +
         (t.region >= 0 ? " of graph output " + std::to_string(t.region) + "'s buffer" : "") + ")";
}

bool overlapInTime(const PlannedTensor& a, const PlannedTensor& b) {
  return a.first <= b.last && b.first <= a.last;
}

// In the same memory (the block, or one output's buffer) and overlapping there.
bool overlapInMemory(const PlannedTensor& a, const PlannedTensor& b) {
  return a.region == b.region && a.size > 0 && b.size > 0 && a.offset < b.offset + b.size &&
         b.offset < a.offset + a.size;
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
    if (t.reuse == Reuse::kConcatPart) {  // checked by concatPartFits
      root[i] = i;
      continue;
    }
    if (t.sharesWith < 0 || static_cast<size_t>(t.sharesWith) >= i)
      return internalError("memory plan: " + describe(t) +
                           " shares the buffer of no earlier tensor");
    const PlannedTensor& s = ts[static_cast<size_t>(t.sharesWith)];
    if (s.offset != t.offset || s.size != t.size || s.region != t.region)
      return internalError("memory plan: " + describe(t) + " shares the buffer of " + describe(s) +
                           " at another offset or size");
    root[i] = root[static_cast<size_t>(t.sharesWith)];
  }
  return root;
}

// A Concat part's buffer (the part, its views and what was written over it
// in place) lies inside its Concat's output, at its partOffset, and dies
// where the Concat writes that output.
Status concatPartFits(const MemoryPlan& plan, const std::vector<size_t>& root, size_t i) {
  const PlannedTensor& t = plan.tensors[i];
  if (t.sharesWith <= static_cast<int32_t>(i) ||
      static_cast<size_t>(t.sharesWith) >= plan.tensors.size())
    return internalError("memory plan: the Concat part " + describe(t) +
                         " names no later tensor as its Concat's output");
  const PlannedTensor& out = plan.tensors[static_cast<size_t>(t.sharesWith)];
  for (size_t m = i; m < plan.tensors.size(); ++m) {
    const PlannedTensor& u = plan.tensors[m];
    if (root[m] != i) continue;
    if (u.region != out.region || u.offset != out.offset + t.partOffset ||
        t.partOffset + u.size > out.size || u.last > out.first)
      return internalError("memory plan: " + describe(u) + " of the Concat part " + describe(t) +
                           " is not inside " + describe(out) + " at " +
                           std::to_string(t.partOffset) + " or is read after it is written");
  }
  return Status::ok();
}

// Whether tensors i and j may overlap: one in the buffer of a Concat part,
// the other that Concat's output.
bool partOfOther(const MemoryPlan& plan, const std::vector<size_t>& root, size_t i, size_t j) {
  auto partOf = [&](size_t a, size_t b) {
    const PlannedTensor& r = plan.tensors[root[a]];
    return r.reuse == Reuse::kConcatPart && r.sharesWith == static_cast<int32_t>(b);
  };
  return partOf(i, j) || partOf(j, i);
}

}  // namespace

Status checkPlan(const MemoryPlan& plan) {
  const auto& ts = plan.tensors;
  for (const PlannedTensor& t : ts) {
    if (t.region >= static_cast<int32_t>(plan.outside.size()) || t.region < -1)
      return internalError("memory plan: " + describe(t) + " is in no graph output's buffer");
    // Inside an output's buffer: it fits there and dies before the output is
    // written (nothing is ever written over an output).
    const PlannedTensor* holder =
        t.region >= 0 ? &plan.outside[static_cast<size_t>(t.region)] : nullptr;
    const uint64_t room = holder != nullptr ? holder->size : plan.peak;
    if (t.size < t.bytes || t.offset + t.size > room)
      return internalError("memory plan: " + describe(t) + " does not fit its " +
                           std::to_string(t.bytes) + " bytes in the " +
                           (holder != nullptr ? "graph output '" + holder->name + "' of "
                                              : std::string("arena of ")) +
                           std::to_string(room) + " bytes");
    if (holder != nullptr && t.last >= holder->first)
      return internalError("memory plan: " + describe(t) + " is read at or after step " +
                           std::to_string(holder->first) + ", where the graph output '" +
                           holder->name + "' is written over it");
    if (t.first > t.last)
      return internalError("memory plan: " + describe(t) + " ends before it starts");
  }
  auto root = buffersOf(plan);
  if (!root) return root.error();
  for (size_t i = 0; i < ts.size(); ++i)
    if (ts[i].reuse == Reuse::kConcatPart)
      if (Status st = concatPartFits(plan, *root, i); !st) return st;
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
      if ((*root)[i] != (*root)[j] && overlapInTime(ts[i], ts[j]) &&
          overlapInMemory(ts[i], ts[j]) && !partOfOther(plan, *root, i, j))
        return internalError("memory plan: " + describe(ts[i]) + " and " + describe(ts[j]) +
                             " are live at the same time in overlapping memory");
  return Status::ok();
}

}  // namespace passlab::exec::memory
