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

namespace {

// The state of one buildRequest; each step is a member.
class RequestBuilder {
 public:
  RequestBuilder(const ir::Graph& graph, const GroupTree& tree,
                 const std::set<std::string>& expanded, const RequestOptions& options)
      : graph_(graph),
        tree_(tree),
        expanded_(expanded),
        options_(options),
        req_(out_.request),
        order_(topologicalOrder(graph)) {}

  BuiltRequest build() {
    addOpenClusters();
    addGraphInputs();
    markInlinedConstants();
    addNodes();
    addGraphOutputs();
    addEdges();
    for (const auto& [node, item] : nodeItem_) out_.nodeItem[node->id()] = item;
    return std::move(out_);
  }

 private:
  void addOpenClusters();
  int collapsedGroupOf(ir::NodeId id) const;
  int addItem(LayoutNode n);
  void addGraphInputs();
  void markInlinedConstants();
  void addNodes();
  int groupItem(const Group& g);
  LayoutNode opItem(const ir::Node& node) const;
  void listConstantInputs(const ir::Node& node, LayoutNode& n) const;
  void addGraphOutputs();
  int sourceOf(const ir::Value* v);
  void addEdge(int from, int to, const ir::Value* v);
  void addEdges();

  const ir::Graph& graph_;
  const GroupTree& tree_;
  const std::set<std::string>& expanded_;
  const RequestOptions& options_;
  BuiltRequest out_;
  LayoutRequest& req_;
  std::vector<const ir::Node*> order_;
  std::vector<int> groupCluster_;
  std::vector<bool> groupShown_;                           // open, with open ancestors
  std::unordered_map<const ir::Value*, int> valueSource_;  // value -> item that produces it
  std::unordered_map<const ir::Node*, bool> inlined_;      // constants drawn inside their reader
  std::unordered_map<const ir::Node*, int> nodeItem_;
  std::vector<std::pair<const ir::Value*, int>> outputs_;
  std::map<std::pair<int, int>, int> edgeIndex_;
};

// Clusters for open groups whose ancestors are open too.
void RequestBuilder::addOpenClusters() {
  groupCluster_.assign(tree_.groups().size(), -1);
  groupShown_.assign(tree_.groups().size(), false);
  for (size_t gi = 0; gi < tree_.groups().size(); ++gi) {
    const Group& g = tree_.groups()[gi];  // parents precede children
    bool parentShown = g.parent < 0 || groupShown_[static_cast<size_t>(g.parent)];
    if (!parentShown || !expanded_.count(g.id)) continue;
    groupShown_[gi] = true;
    LayoutCluster c;
    c.groupId = g.id;
    c.label = g.label;
    c.parent = g.parent >= 0 ? groupCluster_[static_cast<size_t>(g.parent)] : -1;
    groupCluster_[gi] = static_cast<int>(req_.clusters.size());
    req_.clusters.push_back(std::move(c));
  }
}

// The item of a collapsed group: the outermost closed group on the chain.
int RequestBuilder::collapsedGroupOf(ir::NodeId id) const {
  int hidden = -1;
  for (int g : tree_.chain(tree_.groupOf(id)))
    if (!groupShown_[static_cast<size_t>(g)]) hidden = g;
  return hidden;
}

int RequestBuilder::addItem(LayoutNode n) {
  sizeBox(n);
  req_.nodes.push_back(std::move(n));
  return static_cast<int>(req_.nodes.size() - 1);
}

// Graph inputs (initializers listed as inputs by old files are drawn inside their readers).
void RequestBuilder::addGraphInputs() {
  for (const ir::Value* v : graph_.inputs()) {
    if (v->isInitializer()) continue;
    LayoutNode n;
    n.kind = ItemKind::kInput;
    n.key = "in:" + v->name();
    n.valueName = v->name();
    n.lines = {v->name()};
    if (std::string t = typeLabel(*v); !t.empty()) n.lines.push_back(t);
    valueSource_[v] = addItem(std::move(n));
  }
}

void RequestBuilder::markInlinedConstants() {
  if (options_.inlineConstants)
    for (const ir::Node* node : order_)
      if (isInlinableConstant(*node, graph_)) inlined_[node] = true;
}

// The box of a collapsed group, made on first use.
int RequestBuilder::groupItem(const Group& g) {
  auto it = out_.groupItem.find(g.id);
  if (it == out_.groupItem.end()) {
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
    n.cluster = g.parent >= 0 ? groupCluster_[static_cast<size_t>(g.parent)] : -1;
    it = out_.groupItem.emplace(g.id, addItem(std::move(n))).first;
  }
  return it->second;
}

// Constant inputs listed inside the box.
void RequestBuilder::listConstantInputs(const ir::Node& node, LayoutNode& n) const {
  size_t listed = 0, more = 0;
  for (const ir::Value* v : node.inputs()) {
    if (v == nullptr) continue;
    bool fromConstant = v->producer() && inlined_.count(v->producer());
    if (!v->isInitializer() && !fromConstant) continue;
    if (listed < options_.maxInitializerLines) {
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
}

LayoutNode RequestBuilder::opItem(const ir::Node& node) const {
  LayoutNode n;
  n.kind = ItemKind::kOp;
  n.key = "n:" + std::to_string(node.id());
  n.nodeId = node.id();
  n.opType = node.qualifiedOpType();
  n.family = familyOf(node.domain(), node.opType());
  n.hasSubgraphs = node.hasSubgraphs();
  n.lines = {node.domain().empty() ? node.opType() : node.qualifiedOpType()};
  if (!node.name().empty()) n.lines.push_back(lastComponent(node.name()));
  listConstantInputs(node, n);
  int g = tree_.groupOf(node.id());
  n.cluster = g >= 0 ? groupCluster_[static_cast<size_t>(g)] : -1;
  return n;
}

// Nodes and collapsed groups, in topological order; inlined constants take their reader's box.
void RequestBuilder::addNodes() {
  for (const ir::Node* node : order_) {
    if (inlined_.count(node)) continue;
    int hidden = collapsedGroupOf(node->id());
    if (hidden >= 0)
      nodeItem_[node] = groupItem(tree_.group(hidden));
    else
      nodeItem_[node] = addItem(opItem(*node));
  }
  for (const auto& [node, isInlined] : inlined_) {
    const ir::Node* reader = consumerIn(graph_, node->output(0)->uses()[0].node);
    auto it = nodeItem_.find(reader);
    if (it != nodeItem_.end()) nodeItem_[node] = it->second;
  }
}

void RequestBuilder::addGraphOutputs() {
  for (size_t i = 0; i < graph_.outputs().size(); ++i) {
    const ir::Value* v = graph_.outputs()[i];
    LayoutNode n;
    n.kind = ItemKind::kOutput;
    n.key = "out:" + std::to_string(i);
    n.valueName = v->name();
    n.lines = {v->name()};
    if (std::string t = typeLabel(*v); !t.empty()) n.lines.push_back(t);
    outputs_.emplace_back(v, addItem(std::move(n)));
  }
}

// The item producing a value; values of enclosing graphs read here get an input box of their own.
int RequestBuilder::sourceOf(const ir::Value* v) {
  if (v == nullptr || v->isInitializer()) return -1;
  if (const ir::Node* p = v->producer(); p != nullptr && p->owner() == &graph_) {
    auto it = nodeItem_.find(p);
    return it == nodeItem_.end() ? -1 : it->second;
  }
  auto it = valueSource_.find(v);
  if (it != valueSource_.end()) return it->second;
  if (v->owner() == &graph_) return -1;  // an input listed nowhere: nothing to draw
  LayoutNode n;
  n.kind = ItemKind::kInput;
  n.key = "in:" + v->name();
  n.valueName = v->name();
  n.lines = {v->name(), "outer scope"};
  int idx = addItem(std::move(n));
  valueSource_[v] = idx;
  return idx;
}

// One arrow per pair of items, counting the distinct values it carries; self-loops dropped.
void RequestBuilder::addEdge(int from, int to, const ir::Value* v) {
  if (from < 0 || to < 0 || from == to) return;
  auto [it, fresh] = edgeIndex_.emplace(std::make_pair(from, to), 0);
  if (!fresh) {
    LayoutEdge& e = req_.edges[static_cast<size_t>(it->second)];
    if (e.valueName != v->name()) {
      ++e.multiplicity;
      e.label = std::to_string(e.multiplicity) + " values";
    }
    return;
  }
  it->second = static_cast<int>(req_.edges.size());
  LayoutEdge e;
  e.from = from;
  e.to = to;
  e.valueName = v->name();
  e.label = typeLabel(*v);
  req_.edges.push_back(std::move(e));
}

// Edges, merged per pair of items; self-loops inside a collapsed group dropped.
void RequestBuilder::addEdges() {
  for (const ir::Node* node : order_) {
    auto me = nodeItem_.find(node);
    if (me == nodeItem_.end()) continue;
    for (const ir::Value* v : node->inputs()) addEdge(sourceOf(v), me->second, v);
    for (const ir::Graph* sub : node->subgraphs())
      sub->forEachNodeRecursive([&](ir::Node* inner) {
        for (const ir::Value* v : inner->inputs())
          if (v && v->owner() != inner->owner() && graph_.lookup(v->name()) == v)
            addEdge(sourceOf(v), me->second, v);
      });
  }
  for (const auto& [v, item] : outputs_) addEdge(sourceOf(v), item, v);
}

}  // namespace

BuiltRequest buildRequest(const ir::Graph& graph, const GroupTree& tree,
                          const std::set<std::string>& expanded, const RequestOptions& options) {
  return RequestBuilder(graph, tree, expanded, options).build();
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
