#include "core/pipeline/timeline.h"

#include <string_view>
#include <utility>

namespace passlab::pipeline {

GraphStats collectStats(const ir::Model& model) {
  GraphStats s;
  // Counted by (domain, op) views into the nodes, named once per op at the
  // end: no string is built per node (this runs twice per pipeline step).
  std::map<std::pair<std::string_view, std::string_view>, size_t> counts;
  model.graph().forEachNodeRecursive([&](ir::Node* n) {
    ++s.nodes;
    ++counts[{n->domain(), n->opType()}];
  });
  for (const auto& [key, count] : counts)
    s.opCounts[key.first.empty() ? std::string(key.second)
                                 : std::string(key.first) + "." + std::string(key.second)] += count;
  for (const ir::Value* v : model.graph().initializers()) {
    ++s.initializers;
    s.initializerBytes += v->initializer()->bytes().size();
  }
  return s;
}

}  // namespace passlab::pipeline
