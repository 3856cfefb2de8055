#include "core/rewrite/driver.h"

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "core/ir/graph.h"

namespace passlab::rewrite {

void ExplainLog::note(ir::NodeId node, std::string_view pattern, std::string reason) {
  reasons_[node][std::string(pattern)] = std::move(reason);
}

void ExplainLog::clear(ir::NodeId node, std::string_view pattern) {
  auto it = reasons_.find(node);
  if (it == reasons_.end()) return;
  it->second.erase(std::string(pattern));
  if (it->second.empty()) reasons_.erase(it);
}

const std::map<std::string, std::string>* ExplainLog::reasons(ir::NodeId node) const {
  auto it = reasons_.find(node);
  return it == reasons_.end() ? nullptr : &it->second;
}

std::vector<std::pair<ir::NodeId, const std::map<std::string, std::string>*>> ExplainLog::all()
    const {
  std::vector<std::pair<ir::NodeId, const std::map<std::string, std::string>*>> out;
  out.reserve(reasons_.size());
  for (const auto& [id, m] : reasons_) out.emplace_back(id, &m);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

size_t ExplainLog::size() const {
  size_t n = 0;
  for (const auto& [id, m] : reasons_) n += m.size();
  return n;
}

std::string MatchContext::option(const std::string& name, const std::string& fallback) const {
  if (options)
    for (const auto& [k, v] : *options)
      if (k == name) return v;
  return fallback;
}

namespace {

// Patterns by root op. Looked up for every node of every sweep, so keyed by
// the interned op type and domain (a pointer hash, no string hashed or
// compared).
class RootIndex {
 public:
  void add(const OpKey& k, const Pattern* p) {
    byOp_[{&ir::internOpName(k.domain), &ir::internOpName(k.op)}].push_back(p);
  }
  // nullptr when no pattern is rooted at this node's op.
  const std::vector<const Pattern*>* find(const ir::Node& n) const {
    auto it = byOp_.find({n.domainKey(), n.opTypeKey()});
    return it == byOp_.end() ? nullptr : &it->second;
  }

 private:
  absl::flat_hash_map<std::pair<const std::string*, const std::string*>,
                      std::vector<const Pattern*>>
      byOp_;
};

// The candidates in graph order; returns how many nodes it visited.
size_t collect(const ir::Graph& g, bool recurse, const RootIndex& index, bool anyPatterns,
               std::vector<std::pair<ir::Node*, ir::NodeId>>& out) {
  size_t visited = 0;
  for (const auto& n : g.nodes()) {
    ++visited;
    if (anyPatterns || index.find(*n)) out.emplace_back(n.get(), n->id());
    if (recurse && n->hasSubgraphs())
      for (ir::Graph* sub : n->subgraphs())
        visited += collect(*sub, recurse, index, anyPatterns, out);
  }
  return visited;
}

}  // namespace

DriverResult applyPatternsGreedily(Rewriter& rw, const std::vector<const Pattern*>& patterns,
                                   const MatchContext& ctx, const DriverOptions& options) {
  DriverResult result;
  RootIndex index;
  std::vector<const Pattern*> any;
  for (const Pattern* p : patterns) {
    auto roots = p->rootOps();
    if (roots.empty()) any.push_back(p);
    for (const OpKey& k : roots) index.add(k, p);
  }
  // The cap scales with the graph: the first sweep's walk counts its nodes
  // (no separate walk; with subgraphs skipped, only the main graph counts).
  size_t maxRewrites = options.maxRewrites;

  size_t lastCandidates = 0;
  for (size_t sweep = 0; sweep < options.maxIterations; ++sweep) {
    ++result.iterations;
    std::vector<std::pair<ir::Node*, ir::NodeId>> candidates;
    candidates.reserve(lastCandidates);
    size_t visited =
        collect(rw.model().graph(), options.recurseIntoSubgraphs, index, !any.empty(), candidates);
    if (maxRewrites == 0) maxRewrites = 10 * visited + 1000;
    lastCandidates = candidates.size();
    // Nodes removed during this sweep, by id (their memory may be reused); ids
    // are small and dense, so a bit per id rather than a hash set.
    size_t seenLog = rw.log().size();
    constexpr ir::NodeId kBitmapIds = ir::NodeId{1} << 26;  // larger ids: a hash set
    std::vector<bool> removed;
    std::unordered_set<ir::NodeId> removedLarge;
    auto refreshRemoved = [&] {
      const auto& edits = rw.log().edits();
      for (; seenLog < edits.size(); ++seenLog)
        if (edits[seenLog].kind == EditKind::kNodeRemoved) {
          ir::NodeId gone = edits[seenLog].node;
          if (gone >= kBitmapIds) {
            removedLarge.insert(gone);
            continue;
          }
          if (gone >= removed.size())
            removed.resize(
                std::min<size_t>(kBitmapIds, std::max<size_t>(gone + 1, 2 * removed.size())));
          removed[gone] = true;
        }
    };
    auto wasRemoved = [&](ir::NodeId id) {
      if (id >= kBitmapIds) return removedLarge.count(id) > 0;
      return id < removed.size() && removed[id];
    };
    size_t rewritesThisSweep = 0;
    for (auto [node, id] : candidates) {
      if (options.cancel && options.cancel->load()) {
        result.cancelled = true;
        result.converged = false;
        return result;
      }
      refreshRemoved();
      if (wasRemoved(id)) continue;
      if (options.filter && !options.filter->allows(id)) {
        if (options.explain)
          if (const auto* rooted = index.find(*node))
            for (const Pattern* p : *rooted)
              options.explain->note(id, p->name(),
                                    "not applied: the node is excluded from this pass");
        continue;
      }
      const std::vector<const Pattern*>* rooted = index.find(*node);
      const size_t rootedCount = rooted ? rooted->size() : 0;
      for (size_t t = 0; t < rootedCount + any.size(); ++t) {
        const Pattern* p = t < rootedCount ? (*rooted)[t] : any[t - rootedCount];
        MatchResult m = p->match(*node, ctx);
        if (!m.matched()) {
          if (options.explain && !m.reason().empty())
            options.explain->note(id, p->name(), m.reason());
          continue;
        }
        if (options.filter) {
          const ir::Node* blocked = nullptr;
          for (const ir::Node* n : m.nodes())
            if (!options.filter->allows(n->id())) blocked = n;
          if (blocked) {
            if (options.explain)
              options.explain->note(id, p->name(),
                                    "not applied: it would change " + blocked->describe() +
                                        ", which is excluded from this pass");
            continue;
          }
        }
        if (options.explain) options.explain->clear(id, p->name());
        m.apply(rw);
        ++rewritesThisSweep;
        ++result.rewrites;
        if (result.rewrites >= maxRewrites) {
          result.converged = false;
          return result;
        }
        break;  // the node may be gone; later patterns see it next sweep
      }
    }
    if (rewritesThisSweep == 0) return result;
  }
  result.converged = false;
  return result;
}

}  // namespace passlab::rewrite
