// The items of the graph scene. Drawing adapts to the zoom (level of detail):
// far away a box is a filled rectangle and an arrow a polyline; text appears
// only when it can be read, edge labels last.
#pragma once

#include <QGraphicsItem>
#include <QPainterPath>
#include <QStringList>

#include "core/layout/layout_types.h"
#include "ui/graphview/diff_mark.h"

namespace passlab::ui {

class NodeItem : public QGraphicsItem {
 public:
  enum { Type = UserType + 1 };
  NodeItem(const layout::LayoutNode& node, int index, const layout::Rect& rect);

  int type() const override { return Type; }
  QRectF boundingRect() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

  int index() const { return index_; }
  layout::ItemKind kind() const { return kind_; }
  const QString& key() const { return key_; }
  ir::NodeId nodeId() const { return nodeId_; }
  const QString& groupId() const { return groupId_; }
  const QString& valueName() const { return valueName_; }
  bool hasSubgraphs() const { return hasSubgraphs_; }
  const QStringList& lines() const { return lines_; }
  QRectF rect() const { return rect_; }

  void setLines(const QStringList& lines);
  void setMarked(bool selected);
  void setHit(bool hit);  // a search result (or holds one)
  bool isMarked() const { return marked_; }
  bool isHit() const { return hit_; }
  // What a pipeline Step did to it (the diff view); kNone elsewhere.
  void setDiff(DiffMark mark);
  DiffMark diff() const { return diff_; }
  // The profiler's heat (ui/graphview/heat_mark.h): level in [0, 1], or < 0 for none.
  void setHeat(double level);
  double heat() const { return heat_; }

 private:
  QRectF rect_;
  QColor fill_;
  layout::ItemKind kind_;
  QString key_, groupId_, valueName_;
  ir::NodeId nodeId_ = 0;
  QStringList lines_;
  QStringList elided_;  // lazily, for the current lines
  int index_;
  bool hasSubgraphs_ = false, marked_ = false, hit_ = false;
  DiffMark diff_ = DiffMark::kNone;
  double heat_ = -1;
};

class EdgeItem : public QGraphicsItem {
 public:
  enum { Type = UserType + 2 };
  EdgeItem(const layout::LayoutEdge& edge, int index, const layout::EdgeRoute& route);

  int type() const override { return Type; }
  QRectF boundingRect() const override { return bounds_; }
  QPainterPath shape() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

  int index() const { return index_; }
  int from() const { return from_; }
  int to() const { return to_; }
  const QString& valueName() const { return valueName_; }
  void setMarked(bool marked);
  static void setLabelsVisible(bool visible);

 private:
  QPainterPath path_;
  QPolygonF coarse_, arrow_;
  QRectF bounds_;
  QString label_, valueName_;
  QPointF labelPos_;
  int index_, from_, to_, multiplicity_;
  bool marked_ = false;
  static bool labelsVisible_;
};

class ClusterItem : public QGraphicsItem {
 public:
  enum { Type = UserType + 3 };
  ClusterItem(const layout::LayoutCluster& cluster, int index, const layout::Rect& rect);

  int type() const override { return Type; }
  QRectF boundingRect() const override { return rect_.adjusted(-1, -1, 1, 1); }
  // Only the title strip picks clicks (double-click collapses the group).
  QPainterPath shape() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
  const QString& groupId() const { return groupId_; }

 private:
  QRectF rect_;
  QString label_, groupId_;
};

}  // namespace passlab::ui
