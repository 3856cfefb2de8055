// The greedy pattern driver: visits only nodes whose op is a root op of some
// pattern, applies the first pattern that matches, revisits what the edit
// touched, and stops at a fixpoint or an iteration cap. It walks every graph
// of the model, If/Loop/Scan bodies included: the subgraph policy lives here,
// not in passes.
#pragma once

#include <atomic>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/rewrite/pattern.h"

namespace passlab::rewrite {

// The last reason each pattern gave for not matching a node ("why did this not fire here").
class ExplainLog {
 public:
  ExplainLog() = default;
  ExplainLog(const ExplainLog& o);
  ExplainLog(ExplainLog&& o) noexcept;
  ExplainLog& operator=(const ExplainLog& o);
  ExplainLog& operator=(ExplainLog&& o) noexcept;

  void note(ir::NodeId node, std::string_view pattern, Text reason);
  void clear(ir::NodeId node, std::string_view pattern);
  // pattern -> reason, for one node.
  const std::map<std::string, Text>* reasons(ir::NodeId node) const;
  // Every node with a reason, in node id order.
  std::vector<std::pair<ir::NodeId, const std::map<std::string, Text>*>> all() const;
  size_t size() const;

 private:
  // Notes are appended (a pass notes a reason for most nodes it visits: a
  // tree or hash map per node made each note two or three allocations in a
  // structure far larger than the cache); the per-node view is built when
  // first read, under a lock, since readers (the GUI, reports) may share a
  // finished step across threads. Like any container, it must not be
  // written while it is read.
  struct Entry {
    ir::NodeId node;
    uint32_t pattern;  // index into patterns_
    bool cleared;      // clear(): the pattern's reason for the node is gone
    Text reason;
  };
  uint32_t patternIndex(std::string_view pattern);
  void rebuildPatternIds();
  void fold() const;  // entries_ into view_, then empties it; mutex_ held

  std::deque<std::string> patterns_;  // a deque: elements never move, so views of them stay valid
  std::unordered_map<std::string_view, uint32_t> patternIds_;  // views of patterns_
  uint32_t lastPattern_ = UINT32_MAX;
  // Notes not yet folded into view_ (fold() empties it). A deque: no
  // relocation as it grows (see EditLog).
  mutable std::deque<Entry> entries_;
  mutable std::mutex mutex_;
  mutable std::map<ir::NodeId, std::map<std::string, Text>> view_;
};

// Per-match control: restrict a pass to some nodes, or keep it away from some.
struct NodeFilter {
  std::unordered_set<ir::NodeId> only;  // empty: every node
  std::unordered_set<ir::NodeId> excluded;
  bool allows(ir::NodeId id) const {
    return !excluded.count(id) && (only.empty() || only.count(id));
  }
  bool empty() const { return only.empty() && excluded.empty(); }
};

struct DriverOptions {
  size_t maxIterations = 10;  // sweeps over the worklist before giving up
  size_t maxRewrites = 0;     // 0: 10 x nodes + 1000
  bool recurseIntoSubgraphs = true;
  const NodeFilter* filter = nullptr;
  ExplainLog* explain = nullptr;
  const std::atomic<bool>* cancel = nullptr;
};

struct DriverResult {
  size_t rewrites = 0;
  size_t iterations = 0;
  bool converged = true;  // false if a cap stopped it
  bool cancelled = false;
};

DriverResult applyPatternsGreedily(Rewriter& rw, const std::vector<const Pattern*>& patterns,
                                   const MatchContext& ctx, const DriverOptions& options = {});

}  // namespace passlab::rewrite
