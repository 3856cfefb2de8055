#include "core/exec/kernel_registry.h"

#include <algorithm>

#include "core/ir/op_schema.h"

namespace passlab::exec {

namespace {
std::string key(std::string_view domain, std::string_view op) {
  std::string k(ir::OpRegistry::canonicalDomain(domain));
  k += ':';
  k += op;
  return k;
}
}  // namespace

KernelRegistry::KernelRegistry(const std::vector<std::span<const KernelDef>>& families) {
  for (auto family : families)
    for (const KernelDef& def : family) {
      rows_.push_back(&def);
      byOp_[key(def.domain, def.op)].push_back(&def);
    }
  // Optimized rows first; otherwise table order (stable).
  for (auto& [k, list] : byOp_)
    std::stable_sort(list.begin(), list.end(), [](const KernelDef* a, const KernelDef* b) {
      return a->tier == Tier::kOptimized && b->tier != Tier::kOptimized;
    });
}

std::vector<const KernelDef*> KernelRegistry::find(std::string_view domain, std::string_view op,
                                                   int64_t opset) const {
  std::vector<const KernelDef*> out;
  auto it = byOp_.find(key(domain, op));
  if (it == byOp_.end()) return out;
  for (const KernelDef* d : it->second)
    if (opset >= d->since && opset <= d->until) out.push_back(d);
  return out;
}

std::vector<const KernelDef*> KernelRegistry::forType(
    const std::vector<const KernelDef*>& candidates, ir::DataType dtype, bool referenceOnly) {
  std::vector<const KernelDef*> out;
  for (const KernelDef* d : candidates) {
    if (referenceOnly && d->tier != Tier::kReference) continue;
    bool ok =
        d->typeInput == kAnyType || (dtype != ir::DataType::kUndefined && d->types.contains(dtype));
    if (ok) out.push_back(d);
  }
  return out;
}

std::string KernelRegistry::coverage(std::string_view domain, std::string_view op) const {
  auto it = byOp_.find(key(domain, op));
  if (it == byOp_.end()) return "";
  std::vector<std::pair<int, int>> ranges;
  for (const KernelDef* d : it->second) ranges.emplace_back(d->since, d->until);
  std::sort(ranges.begin(), ranges.end());
  ranges.erase(std::unique(ranges.begin(), ranges.end()), ranges.end());
  std::string s;
  for (auto [a, b] : ranges) {
    if (!s.empty()) s += ", ";
    s += std::to_string(a);
    s += b == kOpsetMax ? "+" : (b == a ? "" : "-" + std::to_string(b));
  }
  return s;
}

}  // namespace passlab::exec
