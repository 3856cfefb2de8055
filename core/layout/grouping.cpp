#include "core/layout/grouping.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <functional>
#include <map>

#include "core/layout/graph_walk.h"

namespace passlab::layout {

std::vector<std::string> scopeOf(const std::string& nodeName) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t slash = nodeName.find('/', start);
    if (slash == std::string::npos) break;  // the last part is the node's own name
    if (slash > start) parts.push_back(nodeName.substr(start, slash - start));
    start = slash + 1;
  }
  return parts;
}

GroupTree GroupTree::build(const ir::Graph& graph, const GroupingOptions& options) {
  GroupingMode mode = options.mode;
  if (mode == GroupingMode::kAuto) {
    if (graph.nodeCount() <= options.threshold) {
      mode = GroupingMode::kNone;
    } else {
      size_t scoped = 0;
      for (const auto& n : graph.nodes())
        if (!scopeOf(n->name()).empty()) ++scoped;
      mode = scoped * 2 >= graph.nodeCount() ? GroupingMode::kScope : GroupingMode::kBlock;
    }
  }
  GroupTree tree;
  if (mode == GroupingMode::kScope) {
    tree = buildScopes(graph);
    // Scopes that do not split the graph (one group holding everything) are no help.
    if (tree.groups_.empty()) tree = buildBlocks(graph, options.targetBlockSize);
  } else if (mode == GroupingMode::kBlock) {
    tree = buildBlocks(graph, options.targetBlockSize);
  } else {
    for (const auto& n : graph.nodes()) tree.ungrouped_.push_back(n->id());
    tree.mode_ = GroupingMode::kNone;
  }
  return tree;
}

// ---- name scopes ----

GroupTree GroupTree::buildScopes(const ir::Graph& graph) {
  // A trie of scope components; node 0 is the root.
  struct Trie {
    std::string name;
    int parent = -1;
    std::map<std::string, int> kids;
    std::vector<int> kidOrder;  // first-seen order
    std::vector<ir::NodeId> nodes;
  };
  std::vector<Trie> trie(1);
  for (const auto& n : graph.nodes()) {
    int at = 0;
    for (const std::string& part : scopeOf(n->name())) {
      auto it = trie[at].kids.find(part);
      if (it == trie[at].kids.end()) {
        int idx = static_cast<int>(trie.size());
        trie[at].kids.emplace(part, idx);
        trie[at].kidOrder.push_back(idx);
        trie.push_back(Trie{part, at, {}, {}, {}});
        at = idx;
      } else {
        at = it->second;
      }
    }
    trie[at].nodes.push_back(n->id());
  }

  GroupTree tree;
  tree.mode_ = GroupingMode::kScope;
  tree.ungrouped_ = trie[0].nodes;
  // Emits trie node `t` (and its chain of single children without nodes) as one group.
  std::function<void(int, int, const std::string&)> emit = [&](int t, int parent,
                                                               const std::string& prefix) {
    std::string label = trie[t].name;
    std::string id = prefix + "/" + trie[t].name;
    while (trie[t].nodes.empty() && trie[t].kidOrder.size() == 1) {
      t = trie[t].kidOrder.front();
      label += "/" + trie[t].name;
      id += "/" + trie[t].name;
    }
    int g = static_cast<int>(tree.groups_.size());
    Group grp;
    grp.id = id;
    grp.label = label;
    grp.parent = parent;
    grp.nodes = trie[t].nodes;
    tree.groups_.push_back(std::move(grp));
    if (parent >= 0) tree.groups_[static_cast<size_t>(parent)].children.push_back(g);
    for (int kid : trie[t].kidOrder) emit(kid, g, id);
  };
  for (int kid : trie[0].kidOrder) emit(kid, -1, "");

  // One group holding every node splits nothing: open it by dropping it.
  if (tree.ungrouped_.empty() && tree.groups_.size() == 1) return GroupTree();
  tree.finish();
  return tree;
}

// ---- repeated blocks ----

namespace {
uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h;
}
uint64_t hashString(const std::string& s) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
  return h;
}
}  // namespace

GroupTree GroupTree::buildBlocks(const ir::Graph& graph, size_t targetBlockSize) {
  GroupTree tree;
  tree.mode_ = GroupingMode::kBlock;
  std::vector<const ir::Node*> order = topologicalOrder(graph);
  const size_t n = order.size();
  if (n == 0) return tree;
  const size_t target = targetBlockSize > 0 ? targetBlockSize : std::max<size_t>(40, (n + 15) / 16);

  std::unordered_map<const ir::Node*, size_t> pos;
  pos.reserve(n * 2);
  for (size_t i = 0; i < n; ++i) pos.emplace(order[i], i);

  // live[b]: values computed at or before position b and read after it
  // (boundary b lies between positions b and b+1). Values of nodes without
  // inputs (constants) are left out: they do not tie one part to another.
  std::vector<int64_t> diff(n + 1, 0);
  for (size_t i = 0; i < n; ++i) {
    const ir::Node* node = order[i];
    if (node->inputs().empty() && !node->hasSubgraphs()) continue;
    for (const ir::Value* v : node->outputs()) {
      if (v == nullptr) continue;
      size_t last = i;
      if (v->isGraphOutput()) last = n;
      for (const ir::Use& u : v->uses()) {
        const ir::Node* c = consumerIn(graph, u.node);
        auto it = c ? pos.find(c) : pos.end();
        if (it != pos.end()) last = std::max(last, it->second);
      }
      if (last > i) {
        diff[i] += 1;
        diff[std::min(last, n)] -= 1;
      }
    }
  }
  std::vector<int64_t> live(n, 0);
  int64_t run = 0;
  for (size_t b = 0; b < n; ++b) {
    run += diff[b];
    live[b] = run;
  }

  // Cut where the fewest values cross. Segments still longer than the largest
  // block are cut again at their own minimum, recursively (chunks of `target`
  // nodes past a depth limit, so the worst case stays near linear).
  const size_t minSize = std::max<size_t>(1, target / 2), maxSize = target * 2;
  std::vector<std::pair<size_t, size_t>> segments;  // [start, end) in `order`
  std::function<void(size_t, size_t, int)> split = [&](size_t from, size_t to, int depth) {
    if (to - from <= maxSize) {
      segments.emplace_back(from, to);
      return;
    }
    if (depth > 48) {
      for (size_t s = from; s < to; s += target) segments.emplace_back(s, std::min(to, s + target));
      return;
    }
    // Interior boundaries b in [from, to - 2] lie between b and b + 1.
    int64_t lowest = live[from];
    for (size_t b = from; b + 1 < to; ++b) lowest = std::min(lowest, live[b]);
    size_t start = from;
    for (size_t b = from; b + 1 < to; ++b) {
      if (live[b] == lowest) {
        split(start, b + 1, depth + 1);
        start = b + 1;
      }
    }
    split(start, to, depth + 1);
  };
  split(0, n, 0);

  auto segmentSignature = [&](size_t s) {
    uint64_t h = 0;
    for (size_t i = segments[s].first; i < segments[s].second; ++i)
      h = mix(h, hashString(order[i]->qualifiedOpType()));
    return h;
  };
  std::vector<uint64_t> segSig(segments.size());
  for (size_t s = 0; s < segments.size(); ++s) segSig[s] = segmentSignature(s);

  // Merge segments into blocks of about `target` nodes, closing a block early
  // when the next segment starts like this block did (a repeat begins).
  std::vector<std::pair<size_t, size_t>> blocks;  // segment ranges [first, last]
  size_t first = 0, size = 0;
  for (size_t s = 0; s < segments.size(); ++s) {
    size += segments[s].second - segments[s].first;
    bool last = s + 1 == segments.size();
    if (last) break;
    size_t next = segments[s + 1].second - segments[s + 1].first;
    bool repeatStarts = size >= minSize && segSig[s + 1] == segSig[first];
    if (repeatStarts || size + next > maxSize) {
      blocks.emplace_back(first, s);
      first = s + 1;
      size = 0;
    }
  }
  blocks.emplace_back(first, segments.size() - 1);
  if (blocks.size() < 2) {  // nothing to gain
    for (const ir::Node* node : order) tree.ungrouped_.push_back(node->id());
    tree.mode_ = GroupingMode::kNone;
    return tree;
  }

  std::map<uint64_t, int> sigCount;
  for (size_t b = 0; b < blocks.size(); ++b) {
    Group g;
    g.id = "block:" + std::to_string(b + 1);
    g.label = "Block " + std::to_string(b + 1);
    uint64_t sig = 0;
    for (size_t i = segments[blocks[b].first].first; i < segments[blocks[b].second].second; ++i) {
      g.nodes.push_back(order[i]->id());
      sig = mix(sig, hashString(order[i]->qualifiedOpType()));
    }
    g.signature = sig;
    g.repeatIndex = ++sigCount[sig];
    tree.groups_.push_back(std::move(g));
  }
  for (Group& g : tree.groups_) g.repeatCount = sigCount[g.signature];
  tree.finish();
  return tree;
}

// ---- queries ----

void GroupTree::finish() {
  topLevel_.clear();
  nodeGroup_.clear();
  byId_.clear();
  for (size_t i = 0; i < groups_.size(); ++i) {
    Group& g = groups_[i];
    byId_.emplace(g.id, static_cast<int>(i));
    if (g.parent < 0) topLevel_.push_back(static_cast<int>(i));
    for (ir::NodeId id : g.nodes) nodeGroup_[id] = static_cast<int>(i);
  }
  // Children are created after parents, so a reverse sweep sums totals.
  for (Group& g : groups_) g.totalNodes = g.nodes.size();
  for (size_t i = groups_.size(); i-- > 0;) {
    const Group& g = groups_[i];
    if (g.parent >= 0) groups_[static_cast<size_t>(g.parent)].totalNodes += g.totalNodes;
  }
}

int GroupTree::groupOf(ir::NodeId id) const {
  auto it = nodeGroup_.find(id);
  return it == nodeGroup_.end() ? -1 : it->second;
}

int GroupTree::find(const std::string& groupId) const {
  auto it = byId_.find(groupId);
  return it == byId_.end() ? -1 : it->second;
}

std::vector<int> GroupTree::chain(int group) const {
  std::vector<int> out;
  for (int g = group; g >= 0; g = groups_[static_cast<size_t>(g)].parent) out.push_back(g);
  return out;
}

size_t GroupTree::visibleCount(const std::set<std::string>& expanded) const {
  size_t count = ungrouped_.size();
  std::vector<int> stack(topLevel_.begin(), topLevel_.end());
  while (!stack.empty()) {
    const Group& g = groups_[static_cast<size_t>(stack.back())];
    stack.pop_back();
    if (!expanded.count(g.id)) {
      ++count;
      continue;
    }
    count += g.nodes.size();
    stack.insert(stack.end(), g.children.begin(), g.children.end());
  }
  return count;
}

std::set<std::string> GroupTree::defaultExpansion(size_t budget) const {
  std::set<std::string> open;
  size_t visible = ungrouped_.size() + topLevel_.size();
  std::vector<int> level(topLevel_.begin(), topLevel_.end());
  while (!level.empty()) {
    std::vector<int> bySize = level;
    std::stable_sort(bySize.begin(), bySize.end(), [&](int a, int b) {
      return groups_[static_cast<size_t>(a)].totalNodes >
             groups_[static_cast<size_t>(b)].totalNodes;
    });
    std::vector<int> next;
    for (int gi : bySize) {
      const Group& g = groups_[static_cast<size_t>(gi)];
      size_t grown = visible - 1 + g.nodes.size() + g.children.size();
      if (grown > budget) continue;
      visible = grown;
      open.insert(g.id);
      next.insert(next.end(), g.children.begin(), g.children.end());
    }
    level = std::move(next);
  }
  return open;
}

std::vector<std::string> GroupTree::pathTo(ir::NodeId node) const {
  std::vector<std::string> out;
  for (int g : chain(groupOf(node))) out.push_back(groups_[static_cast<size_t>(g)].id);
  std::reverse(out.begin(), out.end());
  return out;
}

}  // namespace passlab::layout
