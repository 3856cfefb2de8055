// The scene of one graph: items built from a laid-out request, selection and
// search-hit marks. Rebuilt after each layout; the request and result are kept
// for SVG export and lookups.
#pragma once

#include <QGraphicsScene>

#include <memory>
#include <set>
#include <unordered_map>
#include <vector>

#include "core/layout/layout_types.h"
#include "core/layout/request_builder.h"
#include "ui/graphview/diff_mark.h"

namespace passlab::ui {

class NodeItem;
class EdgeItem;
class ClusterItem;

class GraphScene : public QGraphicsScene {
  Q_OBJECT

 public:
  explicit GraphScene(QObject* parent = nullptr);

  void setLayout(std::shared_ptr<const layout::BuiltRequest> request,
                 std::shared_ptr<const layout::LayoutResult> result);
  void clearLayout();
  bool hasLayout() const { return request_ != nullptr; }
  const layout::BuiltRequest* request() const { return request_.get(); }
  const layout::LayoutResult* result() const { return result_.get(); }

  NodeItem* item(int index) const;
  // The box that shows a node (its own, its collapsed group's, or its reader's).
  NodeItem* itemForNode(ir::NodeId id) const;
  NodeItem* itemForGroup(const std::string& groupId) const;
  NodeItem* itemForKey(const QString& key) const;
  const std::vector<NodeItem*>& nodeItems() const { return nodes_; }
  const std::vector<EdgeItem*>& edgeItems() const { return edges_; }
  // Boxes producing a value and the arrows carrying it.
  std::vector<EdgeItem*> edgesOfValue(const QString& valueName) const;

  // Marks: one selected box and/or value, any number of search hits.
  void markSelection(NodeItem* box, const QString& valueName);
  void markHits(const std::set<int>& boxIndices);
  // Diff marks by node (kept across layouts): a node's own box, or the box
  // showing it (its collapsed group, its reader), takes the mark.
  void setDiffMarks(std::unordered_map<ir::NodeId, DiffMark> marks);
  const std::unordered_map<ir::NodeId, DiffMark>& diffMarks() const { return diffMarks_; }
  // The profiler's heat by node (kept across layouts): each node's share of
  // the run time; a box showing several nodes sums them. Empty: no overlay.
  void setHeat(std::unordered_map<ir::NodeId, double> shares);
  const std::unordered_map<ir::NodeId, double>& heat() const { return heat_; }

 signals:
  // The picture changed (new layout, marks): cached overviews are stale.
  void pictureChanged();

 private:
  std::shared_ptr<const layout::BuiltRequest> request_;
  std::shared_ptr<const layout::LayoutResult> result_;
  std::vector<NodeItem*> nodes_;
  std::vector<EdgeItem*> edges_;
  std::vector<ClusterItem*> clusters_;
  NodeItem* marked_ = nullptr;
  std::vector<EdgeItem*> markedEdges_;
  std::set<int> hits_;
  std::unordered_map<ir::NodeId, DiffMark> diffMarks_;
  std::unordered_map<ir::NodeId, double> heat_;
  void applyDiffMarks();
  void applyHeat();
};

}  // namespace passlab::ui
