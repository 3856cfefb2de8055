// Groups of nodes for drawing large graphs: a tree of name scopes
// ("/encoder/layer.3/attention/MatMul" lives in /encoder/layer.3/attention), or,
// for graphs whose names carry no scopes, consecutive blocks cut where few values
// cross, with repeated blocks (transformer layers, residual stages) recognised.
// Only expanded groups are laid out member by member; a collapsed group is one box.
#pragma once

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/ir/graph.h"

namespace passlab::layout {

enum class GroupingMode : uint8_t {
  kAuto,   // none for small graphs, else scopes when most names carry them, else blocks
  kNone,   // every node is drawn
  kScope,  // name-scope tree
  kBlock,  // consecutive blocks in topological order
};

struct GroupingOptions {
  GroupingMode mode = GroupingMode::kAuto;
  size_t threshold = 400;      // kAuto groups graphs with more nodes than this
  size_t targetBlockSize = 0;  // kBlock: nodes per block; 0 chooses from the graph size
};

struct Group {
  std::string id;     // "/encoder/layer.3" or "block:7"
  std::string label;  // "encoder/layer.3" or "Block 7"
  int parent = -1;    // enclosing group, -1 for top level
  std::vector<int> children;
  std::vector<ir::NodeId> nodes;  // direct members, in graph order
  size_t totalNodes = 0;          // members including nested groups
  // Blocks with the same sequence of op types share a signature; repeatIndex is
  // this block's number among them (1-based) and repeatCount how many there are.
  uint64_t signature = 0;
  int repeatIndex = 0, repeatCount = 0;
};

class GroupTree {
 public:
  // Groups the nodes of `graph` (not of its subgraphs).
  static GroupTree build(const ir::Graph& graph, const GroupingOptions& options = {});

  GroupingMode mode() const { return mode_; }  // kNone, kScope or kBlock
  bool empty() const { return groups_.empty(); }
  const std::vector<Group>& groups() const { return groups_; }
  const Group& group(int index) const { return groups_[static_cast<size_t>(index)]; }
  const std::vector<int>& topLevel() const { return topLevel_; }
  // Nodes outside every group, in graph order.
  const std::vector<ir::NodeId>& ungrouped() const { return ungrouped_; }
  // Innermost group of a node, -1 if none.
  int groupOf(ir::NodeId id) const;
  int find(const std::string& groupId) const;  // -1 if absent
  // The group and its ancestors, innermost first.
  std::vector<int> chain(int group) const;

  // Items drawn when exactly `expanded` groups are open (closed groups hide
  // everything inside, even open descendants).
  size_t visibleCount(const std::set<std::string>& expanded) const;
  // Opens groups breadth-first, biggest first, while at most `budget` items
  // would be drawn. Small graphs come back fully expanded.
  std::set<std::string> defaultExpansion(size_t budget) const;
  // The groups to open so that `node` is drawn as itself.
  std::vector<std::string> pathTo(ir::NodeId node) const;

 private:
  void finish();  // totals, top level, node index
  static GroupTree buildScopes(const ir::Graph& graph);
  static GroupTree buildBlocks(const ir::Graph& graph, size_t targetBlockSize);

  GroupingMode mode_ = GroupingMode::kNone;
  std::vector<Group> groups_;
  std::vector<int> topLevel_;
  std::vector<ir::NodeId> ungrouped_;
  std::unordered_map<ir::NodeId, int> nodeGroup_;
  std::unordered_map<std::string, int> byId_;
};

// The scope of a node name: "/encoder/layer.3/attention/MatMul" gives
// {"encoder", "layer.3", "attention"}; a name without '/' gives {}.
std::vector<std::string> scopeOf(const std::string& nodeName);

}  // namespace passlab::layout
