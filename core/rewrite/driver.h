// The greedy pattern driver: visits only nodes whose op is a root op of some
// pattern, applies the first pattern that matches, revisits what the edit
// touched, and stops at a fixpoint or an iteration cap. It walks every graph
// of the model, If/Loop/Scan bodies included: the subgraph policy lives here,
// not in passes.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/rewrite/pattern.h"

namespace passlab::rewrite {

// The last reason each pattern gave for not matching a node ("why did this not fire here").
class ExplainLog {
 public:
  void note(ir::NodeId node, std::string_view pattern, std::string reason);
  void clear(ir::NodeId node, std::string_view pattern);
  // pattern -> reason, for one node.
  const std::map<std::string, std::string>* reasons(ir::NodeId node) const;
  // Every node with a reason, in node id order.
  std::vector<std::pair<ir::NodeId, const std::map<std::string, std::string>*>> all() const;
  size_t size() const;

 private:
  // Hashed by node: a pass notes a reason for most nodes it visits, and a
  // tree keyed by node id made each note a walk through a cold tree.
  std::unordered_map<ir::NodeId, std::map<std::string, std::string>> reasons_;
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
