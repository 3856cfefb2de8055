#include "core/pipeline/timeline.h"

namespace passlab::pipeline {

GraphStats collectStats(const ir::Model& model) {
  GraphStats s;
  model.graph().forEachNodeRecursive([&](ir::Node* n) {
    ++s.nodes;
    ++s.opCounts[n->qualifiedOpType()];
  });
  for (const ir::Value* v : model.graph().initializers()) {
    ++s.initializers;
    s.initializerBytes += v->initializer()->bytes().size();
  }
  return s;
}

}  // namespace passlab::pipeline
