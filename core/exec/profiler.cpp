#include "core/exec/profiler.h"

namespace passlab::exec {

void Profiler::compact() {
  for (const Raw& r : raw_) {
    auto [it, fresh] = index_.emplace(r.node, entries_.size());
    if (fresh) {
      NodeProfile p;
      p.nodeId = r.node->id();
      p.op = r.node->qualifiedOpType();
      p.name = r.node->name();
      p.kernel = std::string(r.kernel);
      p.depth = r.depth;
      entries_.push_back(std::move(p));
    }
    NodeProfile& p = entries_[it->second];
    p.calls += 1;
    p.micros += r.micros;
    p.bytesRead += r.bytesRead;
    p.bytesWritten += r.bytesWritten;
  }
  raw_.clear();
}

std::vector<NodeProfile> Profiler::take() {
  compact();
  index_.clear();
  return std::move(entries_);
}

}  // namespace passlab::exec
