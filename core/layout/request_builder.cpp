#include "core/layout/request_builder.h"

#include <algorithm>
#include <map>
#include <utility>

#include "core/layout/graph_walk.h"

namespace passlab::layout {

namespace {

// Box sizes from text length: the GUI and SVG draw with a ~10 pt sans font.
constexpr double kTitleCharWidth = 7.4, kCharWidth = 6.2, kLineHeight = 14.0;
constexpr double kPadX = 16.0, kPadY = 10.0, kMinWidth = 72.0, kMaxWidth = 280.0;

void sizeBox(LayoutNode& n) {
  double w = kMinWidth;
  for (size_t i = 0; i < n.lines.size(); ++i) {
    double cw = i == 0 ? kTitleCharWidth : kCharWidth;
    w = std::max(w, static_cast<double>(n.lines[i].size()) * cw + kPadX);
  }
  n.width = std::min(w, kMaxWidth);
  n.height = kPadY * 2 + kLineHeight * static_cast<double>(std::max<size_t>(1, n.lines.size()));
  if (n.kind == ItemKind::kGroup) n.height += 6;
}

std::string lastComponent(const std::string& name) {
  size_t slash = name.rfind('/');
  return slash == std::string::npos ? name : name.substr(slash + 1);
}

bool isInlinableConstant(const ir::Node& n, const ir::Graph& g) {
  if (n.opType() != "Constant" || !n.domain().empty() || n.outputCount() != 1) return false;
  const ir::Value* out = n.output(0);
  if (out == nullptr || out->isGraphOutput() || out->uses().size() != 1) return false;
  return consumerIn(g, out->uses()[0].node) != nullptr;
}

}  // namespace

std::string typeLabel(const ir::Value& v) {
  const ir::Type& t = v.type();
  if (t.isUndefined()) return "";
  if (t.isTensor() && t.elemType() == ir::DataType::kUndefined)
    return t.hasShape() ? "?" + t.shape()->toString() : "";
  return t.toString();
}

BuiltRequest buildRequest(const ir::Graph& graph, const GroupTree& tree,
                          const std::set<std::string>& expanded, const RequestOptions& options) {
  BuiltRequest out;
  LayoutRequest& req = out.request;

  // Clusters for open groups whose ancestors are open too.
  std::vector<int> groupCluster(tree.groups().size(), -1);
  std::vector<bool> groupShown(tree.groups().size(), false);  // open, with open ancestors
  for (size_t gi = 0; gi < tree.groups().size(); ++gi) {
    const Group& g = tree.groups()[gi];  // parents precede children
    bool parentShown = g.parent < 0 || groupShown[static_cast<size_t>(g.parent)];
    if (!parentShown || !expanded.count(g.id)) continue;
    groupShown[gi] = true;
    LayoutCluster c;
    c.groupId = g.id;
    c.label = g.label;
    c.parent = g.parent >= 0 ? groupCluster[static_cast<size_t>(g.parent)] : -1;
    groupCluster[gi] = static_cast<int>(req.clusters.size());
    req.clusters.push_back(std::move(c));
  }

  // The item of a collapsed group: the outermost closed group on the chain.
  auto collapsedGroupOf = [&](ir::NodeId id) -> int {
    int hidden = -1;
    for (int g : tree.chain(tree.groupOf(id)))
      if (!groupShown[static_cast<size_t>(g)]) hidden = g;
    return hidden;
  };

  auto addItem = [&](LayoutNode n) {
    sizeBox(n);
    req.nodes.push_back(std::move(n));
    return static_cast<int>(req.nodes.size() - 1);
  };

  // Graph inputs (initializers listed as inputs by old files are drawn inside their readers).
  std::unordered_map<const ir::Value*, int> valueSource;  // value -> item that produces it
  for (const ir::Value* v : graph.inputs()) {
    if (v->isInitializer()) continue;
    LayoutNode n;
    n.kind = ItemKind::kInput;
    n.key = "in:" + v->name();
    n.valueName = v->name();
    n.lines = {v->name()};
    if (std::string t = typeLabel(*v); !t.empty()) n.lines.push_back(t);
    valueSource[v] = addItem(std::move(n));
  }

  std::vector<const ir::Node*> order = topologicalOrder(graph);
  // Constants drawn inside their reader.
  std::unordered_map<const ir::Node*, bool> inlined;
  if (options.inlineConstants)
    for (const ir::Node* node : order)
      if (isInlinableConstant(*node, graph)) inlined[node] = true;

  // Nodes and collapsed groups, in topological order.
  std::unordered_map<const ir::Node*, int> nodeItem;
  for (const ir::Node* node : order) {
    if (inlined.count(node)) continue;
    int hidden = collapsedGroupOf(node->id());
    if (hidden >= 0) {
      const Group& g = tree.group(hidden);
      auto it = out.groupItem.find(g.id);
      if (it == out.groupItem.end()) {
        LayoutNode n;
        n.kind = ItemKind::kGroup;
        n.key = "g:" + g.id;
        n.groupId = g.id;
        n.memberCount = g.totalNodes;
        n.lines = {g.label};
        n.lines.push_back(std::to_string(g.totalNodes) + " nodes");
        if (g.repeatCount > 1)
          n.lines.push_back("repeat " + std::to_string(g.repeatIndex) + "/" +
                            std::to_string(g.repeatCount));
        n.cluster = g.parent >= 0 ? groupCluster[static_cast<size_t>(g.parent)] : -1;
        it = out.groupItem.emplace(g.id, addItem(std::move(n))).first;
      }
      nodeItem[node] = it->second;
      continue;
    }
    LayoutNode n;
    n.kind = ItemKind::kOp;
    n.key = "n:" + std::to_string(node->id());
    n.nodeId = node->id();
    n.opType = node->qualifiedOpType();
    n.family = familyOf(node->domain(), node->opType());
    n.hasSubgraphs = node->hasSubgraphs();
    n.lines = {node->domain().empty() ? node->opType() : node->qualifiedOpType()};
    if (!node->name().empty()) n.lines.push_back(lastComponent(node->name()));
    // Constant inputs listed inside the box.
    size_t listed = 0, more = 0;
    for (const ir::Value* v : node->inputs()) {
      if (v == nullptr) continue;
      bool fromConstant = v->producer() && inlined.count(v->producer());
      if (!v->isInitializer() && !fromConstant) continue;
      if (listed < options.maxInitializerLines) {
        std::string line = lastComponent(v->name());
        std::string t = typeLabel(*v);
        if (t.empty() && fromConstant)
          if (const ir::Attribute* a = v->producer()->attr("value");
              a && a->type() == ir::AttrType::kTensor)
            t = ir::Type::tensor(a->t.dtype(), a->t.shape()).toString();
        if (!t.empty()) line += " " + t;
        n.lines.push_back(std::move(line));
        ++listed;
      } else {
        ++more;
      }
    }
    if (more > 0) n.lines.push_back("+" + std::to_string(more) + " more");
    int g = tree.groupOf(node->id());
    n.cluster = g >= 0 ? groupCluster[static_cast<size_t>(g)] : -1;
    nodeItem[node] = addItem(std::move(n));
  }
  for (const auto& [node, isInlined] : inlined) {
    const ir::Node* reader = consumerIn(graph, node->output(0)->uses()[0].node);
    auto it = nodeItem.find(reader);
    if (it != nodeItem.end()) nodeItem[node] = it->second;
  }

  // Graph outputs.
  std::vector<std::pair<const ir::Value*, int>> outputs;
  for (size_t i = 0; i < graph.outputs().size(); ++i) {
    const ir::Value* v = graph.outputs()[i];
    LayoutNode n;
    n.kind = ItemKind::kOutput;
    n.key = "out:" + std::to_string(i);
    n.valueName = v->name();
    n.lines = {v->name()};
    if (std::string t = typeLabel(*v); !t.empty()) n.lines.push_back(t);
    outputs.emplace_back(v, addItem(std::move(n)));
  }

  // Values of enclosing graphs read here get an input box of their own.
  auto sourceOf = [&](const ir::Value* v) -> int {
    if (v == nullptr || v->isInitializer()) return -1;
    if (const ir::Node* p = v->producer(); p != nullptr && p->owner() == &graph) {
      auto it = nodeItem.find(p);
      return it == nodeItem.end() ? -1 : it->second;
    }
    auto it = valueSource.find(v);
    if (it != valueSource.end()) return it->second;
    if (v->owner() == &graph) return -1;  // an input listed nowhere: nothing to draw
    LayoutNode n;
    n.kind = ItemKind::kInput;
    n.key = "in:" + v->name();
    n.valueName = v->name();
    n.lines = {v->name(), "outer scope"};
    int idx = addItem(std::move(n));
    valueSource[v] = idx;
    return idx;
  };

  // Edges, merged per pair of items; self-loops inside a collapsed group dropped.
  std::map<std::pair<int, int>, int> edgeIndex;
  auto addEdge = [&](int from, int to, const ir::Value* v) {
    if (from < 0 || to < 0 || from == to) return;
    auto [it, fresh] = edgeIndex.emplace(std::make_pair(from, to), 0);
    if (!fresh) {
      LayoutEdge& e = req.edges[static_cast<size_t>(it->second)];
      if (e.valueName != v->name()) {
        ++e.multiplicity;
        e.label = std::to_string(e.multiplicity) + " values";
      }
      return;
    }
    it->second = static_cast<int>(req.edges.size());
    LayoutEdge e;
    e.from = from;
    e.to = to;
    e.valueName = v->name();
    e.label = typeLabel(*v);
    req.edges.push_back(std::move(e));
  };
  for (const ir::Node* node : order) {
    auto me = nodeItem.find(node);
    if (me == nodeItem.end()) continue;
    for (const ir::Value* v : node->inputs()) addEdge(sourceOf(v), me->second, v);
    for (const ir::Graph* sub : node->subgraphs())
      sub->forEachNodeRecursive([&](ir::Node* inner) {
        for (const ir::Value* v : inner->inputs())
          if (v && v->owner() != inner->owner() && graph.lookup(v->name()) == v)
            addEdge(sourceOf(v), me->second, v);
      });
  }
  for (const auto& [v, item] : outputs) addEdge(sourceOf(v), item, v);

  for (const auto& [node, item] : nodeItem) out.nodeItem[node->id()] = item;
  return out;
}

int LayoutRequest::indexOf(const std::string& key) const {
  for (size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].key == key) return static_cast<int>(i);
  return -1;
}

const char* engineName(Engine e) {
  switch (e) {
    case Engine::kNone:
      return "none";
    case Engine::kGraphviz:
      return "graphviz";
    case Engine::kLayered:
      return "layered";
  }
  return "?";
}

}  // namespace passlab::layout
