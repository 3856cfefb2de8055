#include "core/rewrite/driver.h"

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <cstdlib>
#include <unordered_map>
#include <unordered_set>

#include "core/ir/graph.h"
#include "core/ir/walk_prefetch.h"

namespace passlab::rewrite {

ExplainLog::ExplainLog(const ExplainLog& o) {
  *this = o;
}

ExplainLog::ExplainLog(ExplainLog&& o) noexcept {
  *this = std::move(o);
}

ExplainLog& ExplainLog::operator=(const ExplainLog& o) {
  if (this == &o) return *this;
  std::scoped_lock lock(mutex_, o.mutex_);
  patterns_ = o.patterns_;
  entries_ = o.entries_;
  view_ = o.view_;
  rebuildPatternIds();  // views into o.patterns_: rebuilt for this copy's strings
  return *this;
}

ExplainLog& ExplainLog::operator=(ExplainLog&& o) noexcept {
  if (this == &o) return *this;
  std::scoped_lock lock(mutex_, o.mutex_);
  patterns_ = std::move(o.patterns_);
  entries_ = std::move(o.entries_);
  view_ = std::move(o.view_);
  o.patterns_.clear();
  o.patternIds_.clear();
  o.entries_.clear();
  o.view_.clear();
  o.lastPattern_ = UINT32_MAX;
  rebuildPatternIds();  // not relying on a moved deque keeping its elements in place
  return *this;
}

void ExplainLog::rebuildPatternIds() {
  lastPattern_ = UINT32_MAX;
  patternIds_.clear();
  for (uint32_t i = 0; i < patterns_.size(); ++i) patternIds_.emplace(patterns_[i], i);
}

uint32_t ExplainLog::patternIndex(std::string_view pattern) {
  // Consecutive notes mostly come from one pattern.
  if (lastPattern_ < patterns_.size() && patterns_[lastPattern_] == pattern) return lastPattern_;
  auto it = patternIds_.find(pattern);
  if (it == patternIds_.end()) {
    patterns_.emplace_back(pattern);
    it = patternIds_.emplace(patterns_.back(), static_cast<uint32_t>(patterns_.size() - 1)).first;
  }
  lastPattern_ = it->second;
  return lastPattern_;
}

void ExplainLog::note(ir::NodeId node, std::string_view pattern, Text reason) {
  entries_.push_back({node, patternIndex(pattern), false, std::move(reason)});
}

void ExplainLog::clear(ir::NodeId node, std::string_view pattern) {
  entries_.push_back({node, patternIndex(pattern), true, {}});
}

void ExplainLog::fold() const {
  for (Entry& e : entries_) {
    const std::string& pattern = patterns_[e.pattern];
    if (!e.cleared) {
      view_[e.node][pattern] = std::move(e.reason);
      continue;
    }
    auto it = view_.find(e.node);
    if (it == view_.end()) continue;
    it->second.erase(pattern);
    if (it->second.empty()) view_.erase(it);
  }
  entries_.clear();  // every note is held once: in view_ from now on
}

const std::map<std::string, Text>* ExplainLog::reasons(ir::NodeId node) const {
  std::lock_guard lock(mutex_);
  fold();
  auto it = view_.find(node);
  return it == view_.end() ? nullptr : &it->second;
}

std::vector<std::pair<ir::NodeId, const std::map<std::string, Text>*>> ExplainLog::all() const {
  std::lock_guard lock(mutex_);
  fold();
  std::vector<std::pair<ir::NodeId, const std::map<std::string, Text>*>> out;
  out.reserve(view_.size());
  for (const auto& [id, m] : view_) out.emplace_back(id, &m);
  return out;
}

size_t ExplainLog::size() const {
  std::lock_guard lock(mutex_);
  fold();
  size_t n = 0;
  for (const auto& [id, m] : view_) n += m.size();
  return n;
}

std::string MatchContext::option(const std::string& name, const std::string& fallback) const {
  if (options)
    for (const auto& [k, v] : *options)
      if (k == name) return v;
  return fallback;
}

bool readOptionBool(const std::string& text) {
  return text == "1" || text == "true" || text == "yes" || text == "on";
}

bool MatchContext::boolOption(const std::string& name, bool fallback) const {
  if (options)
    for (const auto& [k, v] : *options)
      if (k == name) return readOptionBool(v);
  return fallback;
}

int64_t MatchContext::intOption(const std::string& name, int64_t fallback) const {
  if (options)
    for (const auto& [k, v] : *options)
      if (k == name) return std::strtoll(v.c_str(), nullptr, 10);
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

// Candidates of a node's subgraphs: out[begin, end) (see `nested` in collect).
using NestedRanges = absl::flat_hash_map<ir::NodeId, std::pair<size_t, size_t>>;

// The candidates in graph order; returns how many nodes it visited. For a
// node holding subgraphs, `nested` gets the range of candidates inside
// them: when a rewrite removes that node, they go with it (without an undo
// log they are destroyed) and must be skipped, though the edit log names
// only the node itself.
size_t collect(const ir::Graph& g, bool recurse, const RootIndex& index, bool anyPatterns,
               std::vector<std::pair<ir::Node*, ir::NodeId>>& out, NestedRanges& nested) {
  size_t visited = 0;
  ir::NodeWalkPrefetcher prefetch(g.nodes(), /*deep=*/false);
  for (const auto& n : g.nodes()) {
    prefetch.advance();
    ++visited;
    if (anyPatterns || index.find(*n)) out.emplace_back(n.get(), n->id());
    if (recurse && n->hasSubgraphs()) {
      const size_t begin = out.size();
      for (ir::Graph* sub : n->subgraphs())
        visited += collect(*sub, recurse, index, anyPatterns, out, nested);
      if (out.size() > begin) nested[n->id()] = {begin, out.size()};
    }
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
    NestedRanges nested;
    size_t visited = collect(rw.model().graph(), options.recurseIntoSubgraphs, index, !any.empty(),
                             candidates, nested);
    if (maxRewrites == 0) maxRewrites = 10 * visited + 1000;
    lastCandidates = candidates.size();
    // Nodes removed during this sweep, by id (their memory may be reused); ids
    // are small and dense, so a bit per id rather than a hash set.
    size_t seenLog = rw.log().size();
    constexpr ir::NodeId kBitmapIds = ir::NodeId{1} << 26;  // larger ids: a hash set
    std::vector<bool> removed;
    std::unordered_set<ir::NodeId> removedLarge;
    auto markRemoved = [&](ir::NodeId gone) {
      if (gone >= kBitmapIds) {
        removedLarge.insert(gone);
        return;
      }
      if (gone >= removed.size())
        removed.resize(
            std::min<size_t>(kBitmapIds, std::max<size_t>(gone + 1, 2 * removed.size())));
      removed[gone] = true;
    };
    auto refreshRemoved = [&] {
      const auto& edits = rw.log().edits();
      for (; seenLog < edits.size(); ++seenLog)
        if (edits[seenLog].kind == EditKind::kNodeRemoved) {
          ir::NodeId gone = edits[seenLog].node;
          markRemoved(gone);
          // The candidates inside its subgraphs went with it.
          if (auto it = nested.find(gone); it != nested.end())
            for (size_t i = it->second.first; i < it->second.second; ++i)
              markRemoved(candidates[i].second);
        }
    };
    auto wasRemoved = [&](ir::NodeId id) {
      if (id >= kBitmapIds) return removedLarge.count(id) > 0;
      return id < removed.size() && removed[id];
    };
    size_t rewritesThisSweep = 0;
    for (size_t at = 0; at < candidates.size(); ++at) {
      auto [node, id] = candidates[at];
      // Prefetch the candidates ahead (see walk_prefetch.h); a node is read
      // only when this sweep has not removed it.
      if (at + ir::kPrefetchObjectAhead < candidates.size())
        ir::prefetchNodeObject(candidates[at + ir::kPrefetchObjectAhead].first);
      if (options.cancel && options.cancel->load()) {
        result.cancelled = true;
        result.converged = false;
        return result;
      }
      refreshRemoved();
      if (at + ir::kPrefetchArraysAhead < candidates.size()) {
        const auto& ahead = candidates[at + ir::kPrefetchArraysAhead];
        if (!wasRemoved(ahead.second)) ir::prefetchNodeArrays(ahead.first);
      }
      if (at + ir::kPrefetchValuesAhead < candidates.size()) {
        const auto& ahead = candidates[at + ir::kPrefetchValuesAhead];
        if (!wasRemoved(ahead.second)) ir::prefetchNodeValues(ahead.first);
      }
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
            options.explain->note(id, p->name(), m.takeReason());
          continue;
        }
        if (options.filter) {
          const ir::Node* blocked = nullptr;
          for (const ir::Node* n : m.nodes())
            if (!options.filter->allows(n->id())) blocked = n;
          if (blocked) {
            if (options.explain)
              options.explain->note(
                  id, p->name(),
                  Text::of("not applied: it would change %1, which is excluded from this pass",
                           blocked->describe()));
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
