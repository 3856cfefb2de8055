#include "ui/graphview/graph_scene.h"

#include "ui/graphview/graph_items.h"

#include <algorithm>

namespace passlab::ui {

GraphScene::GraphScene(QObject* parent) : QGraphicsScene(parent) {
  // Items never move: the BSP index makes picking and exposure O(log n).
  setItemIndexMethod(QGraphicsScene::BspTreeIndex);
  setBackgroundBrush(Qt::white);
}

void GraphScene::clearLayout() {
  clear();
  nodes_.clear();
  edges_.clear();
  clusters_.clear();
  marked_ = nullptr;
  markedEdges_.clear();
  hits_.clear();
  request_.reset();
  result_.reset();
  emit pictureChanged();
}

void GraphScene::setLayout(std::shared_ptr<const layout::BuiltRequest> request,
                           std::shared_ptr<const layout::LayoutResult> result) {
  clearLayout();
  request_ = std::move(request);
  result_ = std::move(result);
  const layout::LayoutRequest& req = request_->request;
  const layout::LayoutResult& res = *result_;
  // A generous margin so fitting and panning do not stop at the last box.
  setSceneRect(QRectF(-40, -40, res.width + 80, res.height + 80));
  for (size_t c = 0; c < req.clusters.size() && c < res.clusters.size(); ++c) {
    if (res.clusters[c].width <= 0) continue;
    auto* item = new ClusterItem(req.clusters[c], static_cast<int>(c), res.clusters[c]);
    addItem(item);
    clusters_.push_back(item);
  }
  edges_.reserve(req.edges.size());
  for (size_t e = 0; e < req.edges.size() && e < res.edges.size(); ++e) {
    if (res.edges[e].points.empty()) continue;
    auto* item = new EdgeItem(req.edges[e], static_cast<int>(e), res.edges[e]);
    addItem(item);
    edges_.push_back(item);
  }
  nodes_.reserve(req.nodes.size());
  for (size_t i = 0; i < req.nodes.size() && i < res.nodes.size(); ++i) {
    auto* item = new NodeItem(req.nodes[i], static_cast<int>(i), res.nodes[i]);
    addItem(item);
    nodes_.push_back(item);
  }
  applyDiffMarks();
  applyHeat();
  emit pictureChanged();
}

void GraphScene::setDiffMarks(std::unordered_map<ir::NodeId, DiffMark> marks) {
  diffMarks_ = std::move(marks);
  for (NodeItem* n : nodes_) n->setDiff(DiffMark::kNone);
  applyDiffMarks();
  emit pictureChanged();
}

void GraphScene::applyDiffMarks() {
  for (const auto& [id, mark] : diffMarks_) {
    NodeItem* box = itemForNode(id);
    if (box == nullptr) continue;
    box->setDiff(combineDiff(box->diff(), mark));
  }
}

void GraphScene::setHeat(std::unordered_map<ir::NodeId, double> shares) {
  heat_ = std::move(shares);
  applyHeat();
  emit pictureChanged();
}

void GraphScene::applyHeat() {
  std::unordered_map<NodeItem*, double> byBox;
  for (const auto& [id, share] : heat_)
    if (NodeItem* box = itemForNode(id)) byBox[box] += share;
  double top = 0;
  for (const auto& [box, share] : byBox) top = std::max(top, share);
  for (NodeItem* n : nodes_) {
    auto it = byBox.find(n);
    n->setHeat(it == byBox.end() ? -1.0 : top > 0 ? it->second / top : 0.0);
  }
}

NodeItem* GraphScene::item(int index) const {
  if (index < 0 || static_cast<size_t>(index) >= nodes_.size()) return nullptr;
  return nodes_[static_cast<size_t>(index)];
}

NodeItem* GraphScene::itemForNode(ir::NodeId id) const {
  if (!request_) return nullptr;
  auto it = request_->nodeItem.find(id);
  return it == request_->nodeItem.end() ? nullptr : item(it->second);
}

NodeItem* GraphScene::itemForGroup(const std::string& groupId) const {
  if (!request_) return nullptr;
  auto it = request_->groupItem.find(groupId);
  return it == request_->groupItem.end() ? nullptr : item(it->second);
}

NodeItem* GraphScene::itemForKey(const QString& key) const {
  for (NodeItem* n : nodes_)
    if (n->key() == key) return n;
  return nullptr;
}

std::vector<EdgeItem*> GraphScene::edgesOfValue(const QString& valueName) const {
  std::vector<EdgeItem*> out;
  for (EdgeItem* e : edges_)
    if (e->valueName() == valueName) out.push_back(e);
  return out;
}

void GraphScene::markSelection(NodeItem* box, const QString& valueName) {
  if (marked_) marked_->setMarked(false);
  for (EdgeItem* e : markedEdges_) e->setMarked(false);
  markedEdges_.clear();
  marked_ = box;
  if (marked_) marked_->setMarked(true);
  if (!valueName.isEmpty()) markedEdges_ = edgesOfValue(valueName);
  for (EdgeItem* e : markedEdges_) e->setMarked(true);
  emit pictureChanged();
}

void GraphScene::markHits(const std::set<int>& boxIndices) {
  for (int i : hits_)
    if (NodeItem* n = item(i)) n->setHit(false);
  hits_ = boxIndices;
  for (int i : hits_)
    if (NodeItem* n = item(i)) n->setHit(true);
  emit pictureChanged();
}

}  // namespace passlab::ui
