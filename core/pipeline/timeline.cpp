#include "core/pipeline/timeline.h"

#include <absl/container/flat_hash_map.h>

#include <string>
#include <utility>

namespace passlab::pipeline {

namespace {

std::string qualifiedOp(const std::pair<const std::string*, const std::string*>& key) {
  return key.first->empty() ? *key.second : *key.first + "." + *key.second;
}

void countInitializers(const ir::Model& model, GraphStats& s) {
  for (const ir::Value* v : model.graph().initializers()) {
    ++s.initializers;
    s.initializerBytes += v->initializer()->bytes().size();
  }
}

}  // namespace

GraphStats collectStats(const ir::Model& model) {
  GraphStats s;
  // Counted by interned (domain, op), named once per op at the end: no string
  // is built or compared per node (this runs after every changing step).
  absl::flat_hash_map<std::pair<const std::string*, const std::string*>, size_t> counts;
  model.graph().forEachNodeRecursive([&](ir::Node* n) {
    ++s.nodes;
    ++counts[{n->domainKey(), n->opTypeKey()}];
  });
  for (const auto& [key, count] : counts) s.opCounts[qualifiedOp(key)] += count;
  countInitializers(model, s);
  return s;
}

GraphStats collectStatsAfter(
    const GraphStats& before, const ir::Model& model,
    const absl::flat_hash_map<std::pair<const std::string*, const std::string*>, int64_t>&
        opDelta) {
  GraphStats s;
  s.nodes = before.nodes;
  s.opCounts = before.opCounts;
  for (const auto& [key, delta] : opDelta) {
    if (delta == 0) continue;
    s.nodes = static_cast<size_t>(static_cast<int64_t>(s.nodes) + delta);
    auto it = s.opCounts.try_emplace(qualifiedOp(key), 0).first;
    it->second = static_cast<size_t>(static_cast<int64_t>(it->second) + delta);
    if (it->second == 0) s.opCounts.erase(it);
  }
  countInitializers(model, s);
  return s;
}

}  // namespace passlab::pipeline
