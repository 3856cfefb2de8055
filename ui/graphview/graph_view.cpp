#include "ui/graphview/graph_view.h"

#include <QGraphicsItem>
#include <QMouseEvent>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>

#include "ui/graphview/graph_items.h"

namespace passlab::ui {

namespace {
constexpr qreal kMinZoom = 0.01, kMaxZoom = 8.0;
}

GraphView::GraphView(QWidget* parent) : QGraphicsView(parent) {
  setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
  setDragMode(QGraphicsView::ScrollHandDrag);
  setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
  setResizeAnchor(QGraphicsView::AnchorViewCenter);
  // Panning scrolls the pixels already drawn and repaints only what is exposed.
  setViewportUpdateMode(QGraphicsView::MinimalViewportUpdate);
  setOptimizationFlags(QGraphicsView::DontSavePainterState |
                       QGraphicsView::DontAdjustForAntialiasing);
  setCacheMode(QGraphicsView::CacheBackground);
  setFrameShape(QFrame::NoFrame);
  setFocusPolicy(Qt::StrongFocus);
}

qreal GraphView::zoom() const {
  return transform().m11();
}

void GraphView::setZoom(qreal factor) {
  factor = std::clamp(factor, kMinZoom, kMaxZoom);
  QTransform t;
  t.scale(factor, factor);
  setTransform(t);
  emit viewChanged();
}

void GraphView::zoomBy(qreal factor) {
  setZoom(zoom() * factor);
}

void GraphView::fitAll() {
  if (scene() == nullptr) return;
  QRectF r = scene()->itemsBoundingRect();
  if (r.isEmpty()) return;
  fitInView(r.adjusted(-20, -20, 20, 20), Qt::KeepAspectRatio);
  // Never blow a tiny graph up past 1:1.
  if (zoom() > 1.0) setZoom(1.0);
  emit viewChanged();
}

void GraphView::reveal(const QRectF& rect) {
  if (zoom() < 0.8) setZoom(1.0);
  centerOn(rect.center());
  emit viewChanged();
}

void GraphView::wheelEvent(QWheelEvent* event) {
  if (event->modifiers() & Qt::ShiftModifier) {  // horizontal scroll
    QGraphicsView::wheelEvent(event);
    return;
  }
  qreal steps = event->angleDelta().y() / 120.0;
  if (steps == 0) return;
  zoomBy(std::pow(1.2, steps));
  event->accept();
}

QGraphicsItem* GraphView::pick(const QPoint& viewPos) const {
  // Boxes win over arrows, arrows over frames.
  QGraphicsItem* best = nullptr;
  for (QGraphicsItem* it : items(viewPos)) {
    if (it->type() == NodeItem::Type) return it;
    if (it->type() == EdgeItem::Type && (best == nullptr || best->type() != EdgeItem::Type))
      best = it;
    if (it->type() == ClusterItem::Type && best == nullptr) best = it;
  }
  return best;
}

void GraphView::mousePressEvent(QMouseEvent* event) {
  pressPos_ = event->position().toPoint();
  QGraphicsView::mousePressEvent(event);
}

void GraphView::mouseReleaseEvent(QMouseEvent* event) {
  QGraphicsView::mouseReleaseEvent(event);
  if (event->button() == Qt::LeftButton &&
      (event->position().toPoint() - pressPos_).manhattanLength() < 4)
    emit itemClicked(pick(event->position().toPoint()));
}

void GraphView::mouseDoubleClickEvent(QMouseEvent* event) {
  if (event->button() == Qt::LeftButton) emit itemDoubleClicked(pick(event->position().toPoint()));
  event->accept();
}

void GraphView::resizeEvent(QResizeEvent* event) {
  QGraphicsView::resizeEvent(event);
  emit viewChanged();
}

void GraphView::scrollContentsBy(int dx, int dy) {
  QGraphicsView::scrollContentsBy(dx, dy);
  emit viewChanged();
}

}  // namespace passlab::ui
