#include "ui/document/node_insights.h"

namespace passlab::ui {

void NodeInsightsStore::recordMatchFailure(ir::NodeId node, MatchFailure f) {
  auto& list = failures_[node];
  for (MatchFailure& existing : list) {
    if (existing.passId == f.passId && existing.pattern == f.pattern) {
      existing = std::move(f);
      return;
    }
  }
  list.push_back(std::move(f));
}

std::optional<Provenance> NodeInsightsStore::provenance(ir::NodeId node) const {
  auto it = provenance_.find(node);
  if (it == provenance_.end()) return std::nullopt;
  return it->second;
}

std::vector<MatchFailure> NodeInsightsStore::matchFailures(ir::NodeId node) const {
  auto it = failures_.find(node);
  return it == failures_.end() ? std::vector<MatchFailure>{} : it->second;
}

}  // namespace passlab::ui
