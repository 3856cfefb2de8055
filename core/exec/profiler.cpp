#include "core/exec/profiler.h"

namespace passlab::exec {

void Profiler::record(const ir::Node& node, std::string_view kernel, int depth, double micros,
                      uint64_t bytesRead, uint64_t bytesWritten) {
  auto [it, fresh] = index_.emplace(&node, entries_.size());
  if (fresh) {
    NodeProfile p;
    p.nodeId = node.id();
    p.op = node.qualifiedOpType();
    p.name = node.name();
    p.kernel = std::string(kernel);
    p.depth = depth;
    entries_.push_back(std::move(p));
  }
  NodeProfile& p = entries_[it->second];
  p.calls += 1;
  p.micros += micros;
  p.bytesRead += bytesRead;
  p.bytesWritten += bytesWritten;
}

std::vector<NodeProfile> Profiler::take() {
  index_.clear();
  return std::move(entries_);
}

}  // namespace passlab::exec
