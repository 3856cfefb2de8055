#include "core/exec/profiler.h"

namespace passlab::exec {

const char* threadChoiceName(ThreadChoice c) {
  switch (c) {
    case ThreadChoice::kOneThreadRun:
      return "one_thread_run";
    case ThreadChoice::kCostModel:
      return "cost_model";
    case ThreadChoice::kTrial:
      return "trial";
    case ThreadChoice::kTrying:
      return "trying";
    case ThreadChoice::kFixed:
      return "fixed_by_env";
    case ThreadChoice::kUnknown:
      break;
  }
  return "unknown";
}

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
      p.threadUse.threads = r.threads;
      entries_.push_back(std::move(p));
    }
    NodeProfile& p = entries_[it->second];
    if (p.threadUse.threads != r.threads) p.threadUse.threads = 0;  // calls on different counts
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
