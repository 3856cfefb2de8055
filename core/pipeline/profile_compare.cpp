#include "core/pipeline/profile_compare.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <unordered_map>

#include "core/analysis/shape_inference.h"
#include "core/passes/registry.h"
#include "core/pipeline/numeric_check.h"
#include "core/pipeline/pass_manager.h"

namespace passlab::pipeline {

namespace {

// A rewritten group is a regression when it got slower by more than both of these: a
// share that the usual spread of a node time does not reach, and a microsecond.
constexpr double kRegressionShare = kNoisySpread;
constexpr double kRegressionMinMs = 0.001;

using TimingIndex = std::unordered_map<ir::NodeId, const NodeTiming*>;

TimingIndex mainGraphIndex(const ProfileResult& r) {
  TimingIndex index;
  for (const NodeTiming& n : r.nodes)
    if (n.depth == 0) index.emplace(n.nodeId, &n);
  return index;
}

// Union-find over the new nodes: nodes sharing an original node join one group.
struct Groups {
  std::vector<size_t> parent;
  size_t find(size_t i) { return parent[i] == i ? i : parent[i] = find(parent[i]); }
  void join(size_t a, size_t b) { parent[find(a)] = find(b); }
};

// A node's identity across a save and reload: its domain, op and output
// names (node names are often empty and given fresh on save).
std::string matchKey(const ir::Node& n) {
  std::string key = n.domain() + "." + n.opType();
  for (const ir::Value* v : n.outputs()) key += "|" + (v ? v->name() : std::string());
  return key;
}

std::unordered_map<ir::NodeId, std::string> matchKeys(const ir::Model& model) {
  std::unordered_map<ir::NodeId, std::string> keys;
  for (const auto& n : model.graph().nodes()) keys.emplace(n->id(), matchKey(*n));
  return keys;
}

// Origins of each new node: through provenance, else the original node of the
// same op and output names.
}  // namespace

OptimizedModel matchedByNames(const ir::Model& original, ir::Model other) {
  OptimizedModel out;
  out.model = std::move(other);
  std::unordered_map<std::string, ir::NodeId> byKey;
  ir::NodeId maxId = 0;
  for (const auto& [id, key] : matchKeys(original)) {
    byKey.emplace(key, id);
    maxId = std::max(maxId, id);
  }
  const auto keys = matchKeys(out.model);
  for (const auto& [id, key] : keys) maxId = std::max(maxId, id);
  // The two models' ids are unrelated, and Provenance resolves a `from` id
  // through what it has recorded, so each twin goes through a stand-in id
  // above both ranges first; a node without a twin stands for nothing (not
  // for the original node that happens to share its id).
  const ir::NodeId standIn = maxId + 1;
  for (const auto& [id, key] : keys)
    if (auto it = byKey.find(key); it != byKey.end())
      out.provenance.recordDerived(standIn + id, {it->second}, "op and output names");
  for (const auto& [id, key] : keys)
    out.provenance.recordDerived(
        id, byKey.count(key) ? std::vector<ir::NodeId>{standIn + id} : std::vector<ir::NodeId>{},
        "op and output names");
  return out;
}

namespace {

std::vector<std::vector<ir::NodeId>> originsOf(const std::vector<const NodeTiming*>& fresh,
                                               const ir::Model& original,
                                               const ir::Model& optimized,
                                               const rewrite::Provenance* provenance) {
  std::vector<std::vector<ir::NodeId>> out;
  if (provenance) {
    for (const NodeTiming* n : fresh) out.push_back(provenance->origins(n->nodeId));
    return out;
  }
  std::unordered_map<std::string, ir::NodeId> byKey;
  for (const auto& [id, key] : matchKeys(original)) byKey.emplace(key, id);
  const auto newKeys = matchKeys(optimized);
  for (const NodeTiming* n : fresh) {
    auto k = newKeys.find(n->nodeId);
    auto it = k == newKeys.end() ? byKey.end() : byKey.find(k->second);
    out.push_back(it == byKey.end() ? std::vector<ir::NodeId>{} : std::vector{it->second});
  }
  return out;
}

void addOriginal(NodeGroup& g, ir::NodeId id, const TimingIndex& before) {
  g.originalNodes.push_back(id);
  auto it = before.find(id);
  g.originalLabels.push_back(it != before.end() ? it->second->label() : "#" + std::to_string(id));
  g.originalOps.push_back(it != before.end() ? it->second->op : "?");
  if (it == before.end()) return;
  g.beforeMs += it->second->time.medianMs;
  g.noisy = g.noisy || it->second->time.noisy;
}

void addNew(NodeGroup& g, const NodeTiming& n) {
  g.newNodes.push_back(n.nodeId);
  g.newLabels.push_back(n.label());
  g.newOps.push_back(n.op);
  g.afterMs += n.time.medianMs;
  g.noisy = g.noisy || n.time.noisy;
}

void finish(NodeGroup& g) {
  g.savedMs = g.beforeMs - g.afterMs;
  g.speedup = g.afterMs > 0 ? g.beforeMs / g.afterMs : 0;
  g.regression = g.kind == GroupKind::kRewritten &&
                 g.afterMs > g.beforeMs * (1 + kRegressionShare) &&
                 g.afterMs - g.beforeMs > kRegressionMinMs;
}

// Regressions first (largest loss first), then by time saved.
void sortGroups(std::vector<NodeGroup>& groups) {
  std::stable_sort(groups.begin(), groups.end(), [](const NodeGroup& a, const NodeGroup& b) {
    if (a.regression != b.regression) return a.regression;
    return a.savedMs > b.savedMs;
  });
}

}  // namespace

const char* groupKindName(GroupKind kind) {
  switch (kind) {
    case GroupKind::kUnchanged:
      return "unchanged";
    case GroupKind::kRewritten:
      return "rewritten";
    case GroupKind::kRemoved:
      return "removed";
    case GroupKind::kUnmatched:
      return "unmatched";
  }
  return "?";
}

Expected<OptimizedModel> optimizeForCompare(const ir::Model& original, const std::string& level,
                                            bool standardOnly) {
  auto ids = passes::passesForLevel(level);
  if (!ids) return ids.error();
  OptimizedModel out;
  out.model = original.clone();
  out.passes = *ids;
  analysis::inferShapes(out.model);
  PipelineOptions po;
  po.standardOnly = standardOnly;
  po.keepSnapshots = false;
  PassManager pm(out.model, po);
  ExecEvaluator evaluator;
  pm.setEvaluator(&evaluator);
  std::vector<PassSpec> specs;
  for (const std::string& id : *ids) specs.push_back({id, {}, {}});
  PASSLAB_RETURN_IF_ERROR(pm.runAll(specs));
  out.provenance = pm.provenance();
  return out;
}

std::vector<NodeGroup> groupNodes(const ProfileResult& before, const ProfileResult& after,
                                  const ir::Model& original, const ir::Model& optimized,
                                  const rewrite::Provenance* provenance) {
  const TimingIndex beforeIndex = mainGraphIndex(before);
  std::vector<const NodeTiming*> fresh;
  for (const NodeTiming& n : after.nodes)
    if (n.depth == 0) fresh.push_back(&n);
  const auto origins = originsOf(fresh, original, optimized, provenance);
  Groups uf{std::vector<size_t>(fresh.size())};
  std::iota(uf.parent.begin(), uf.parent.end(), size_t{0});
  std::unordered_map<ir::NodeId, size_t> owner;  // original node -> first new node standing for it
  for (size_t i = 0; i < fresh.size(); ++i)
    for (ir::NodeId o : origins[i]) {
      auto [it, first] = owner.emplace(o, i);
      if (!first) uf.join(i, it->second);
    }
  std::map<size_t, NodeGroup> byRoot;  // ordered by the root's run position: deterministic
  NodeGroup unmatched;
  unmatched.kind = GroupKind::kUnmatched;
  for (size_t i = 0; i < fresh.size(); ++i) {
    if (origins[i].empty()) {
      addNew(unmatched, *fresh[i]);
      continue;
    }
    NodeGroup& g = byRoot[uf.find(i)];
    addNew(g, *fresh[i]);
  }
  std::set<ir::NodeId> covered;
  std::vector<NodeGroup> groups;
  for (auto& [root, g] : byRoot) {
    std::set<ir::NodeId> mine;
    for (size_t i = 0; i < fresh.size(); ++i)
      if (!origins[i].empty() && uf.find(i) == root)
        mine.insert(origins[i].begin(), origins[i].end());
    for (ir::NodeId o : mine) addOriginal(g, o, beforeIndex);
    covered.insert(mine.begin(), mine.end());
    // One to one with the same op; with provenance also the same node (a
    // node rebuilt by a pass has a new id even when its op stays).
    const bool same = g.newNodes.size() == 1 && mine.size() == 1 &&
                      g.originalOps[0] == g.newOps[0] &&
                      (!provenance || *mine.begin() == g.newNodes[0]);
    g.kind = same ? GroupKind::kUnchanged : GroupKind::kRewritten;
    groups.push_back(std::move(g));
  }
  for (const NodeTiming& n : before.nodes) {
    if (n.depth != 0 || covered.count(n.nodeId)) continue;
    if (!provenance) {
      addOriginal(unmatched, n.nodeId, beforeIndex);
      continue;
    }
    NodeGroup removed;
    removed.kind = GroupKind::kRemoved;
    addOriginal(removed, n.nodeId, beforeIndex);
    groups.push_back(std::move(removed));
  }
  if (!unmatched.newNodes.empty() || !unmatched.originalNodes.empty())
    groups.push_back(std::move(unmatched));
  for (NodeGroup& g : groups) finish(g);
  sortGroups(groups);
  return groups;
}

Expected<CompareResult> compareModels(const CompareRequest& request) {
  if (!request.base.model || !request.optimized)
    return invalidArgument("compare needs the original and the optimized model");
  auto a = prepareRun(*request.base.model, request.base);
  if (!a) return a.error().withContext("original model");
  // The optimized model runs on the original's inputs (those it still has).
  ProfileRequest bReq = request.base;
  bReq.given.clear();
  for (const auto& [name, value] : a->inputs) {
    bool known = false;
    for (const ir::Value* in : request.optimized->graph().inputs())
      known = known || in->name() == name;
    if (known) bReq.given.emplace_back(name, value);
  }
  auto b = prepareRun(*request.optimized, bReq);
  if (!b) return b.error().withContext("optimized model");
  CompareResult out;
  auto before = profilePrepared(*request.base.model, *a, request.base);
  if (!before) return before.error().withContext("original model");
  auto after = profilePrepared(*request.optimized, *b, bReq);
  if (!after) return after.error().withContext("optimized model");
  out.before = std::move(before.value());
  out.after = std::move(after.value());
  std::vector<double> msA, msB;
  for (int i = 0; i < std::max(request.rounds, 1); ++i) {
    if (request.base.cancel && request.base.cancel->load())
      return Error(ErrorCode::kCancelled, "comparison cancelled");
    if (request.base.progress) request.base.progress({"interleaved rounds", i, request.rounds});
    auto ta = timeRun(*a);
    if (!ta) return ta.error().withContext("original model");
    auto tb = timeRun(*b);
    if (!tb) return tb.error().withContext("optimized model");
    msA.push_back(*ta);
    msB.push_back(*tb);
  }
  out.latencyBefore = summarizeTimes(msA);
  out.latencyAfter = summarizeTimes(msB);
  out.speedup =
      out.latencyAfter.medianMs > 0 ? out.latencyBefore.medianMs / out.latencyAfter.medianMs : 0;
  out.matching = request.provenance ? "provenance" : "op and output names";
  out.groups = groupNodes(out.before, out.after, *request.base.model, *request.optimized,
                          request.provenance);
  return out;
}

}  // namespace passlab::pipeline
