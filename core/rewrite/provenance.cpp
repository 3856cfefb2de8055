#include "core/rewrite/provenance.h"

#include <algorithm>

namespace passlab::rewrite {

std::vector<ir::NodeId> Provenance::origins(ir::NodeId id) const {
  auto it = derived_.find(id);
  if (it == derived_.end()) return {id};
  return it->second.origins;
}

std::string Provenance::createdBy(ir::NodeId id) const {
  auto it = derived_.find(id);
  return it == derived_.end() ? std::string() : it->second.pass;
}

void Provenance::recordDerived(ir::NodeId node, const std::vector<ir::NodeId>& from,
                               const std::string& pass) {
  Entry e;
  e.pass = pass;
  for (ir::NodeId f : from) {
    auto o = origins(f);
    e.origins.insert(e.origins.end(), o.begin(), o.end());
  }
  std::sort(e.origins.begin(), e.origins.end());
  e.origins.erase(std::unique(e.origins.begin(), e.origins.end()), e.origins.end());
  derived_[node] = std::move(e);
}

}  // namespace passlab::rewrite
