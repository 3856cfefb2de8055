#include "core/pipeline/timeline.h"

#include <absl/container/flat_hash_map.h>

#include <string>
#include <utility>

namespace passlab::pipeline {

GraphStats collectStats(const ir::Model& model) {
  GraphStats s;
  // Counted by interned (domain, op), named once per op at the end: no string
  // is built or compared per node (this runs after every changing step).
  absl::flat_hash_map<std::pair<const std::string*, const std::string*>, size_t> counts;
  model.graph().forEachNodeRecursive([&](ir::Node* n) {
    ++s.nodes;
    ++counts[{n->domainKey(), n->opTypeKey()}];
  });
  for (const auto& [key, count] : counts)
    s.opCounts[key.first->empty() ? *key.second : *key.first + "." + *key.second] += count;
  for (const ir::Value* v : model.graph().initializers()) {
    ++s.initializers;
    s.initializerBytes += v->initializer()->bytes().size();
  }
  return s;
}

}  // namespace passlab::pipeline
