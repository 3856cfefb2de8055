#include "ui/graphview/minimap.h"

#include <QGraphicsScene>
#include <QMouseEvent>
#include <QPainter>

#include "ui/graphview/graph_scene.h"
#include "ui/graphview/graph_view.h"

namespace passlab::ui {

MiniMap::MiniMap(GraphView* view, QWidget* parent) : QWidget(parent), view_(view) {
  setMinimumSize(120, 90);
  setCursor(Qt::PointingHandCursor);
  connect(view_, &GraphView::viewChanged, this, qOverload<>(&QWidget::update));
}

QRectF MiniMap::target() const {
  if (sceneRect_.isEmpty()) return {};
  // Whole pixels, so the cached picture keeps matching it.
  QSize s = sceneRect_.size()
                .scaled(size() - QSize(8, 8), Qt::KeepAspectRatio)
                .toSize()
                .expandedTo(QSize(1, 1));
  return QRectF(QPointF((width() - s.width()) / 2, (height() - s.height()) / 2), QSizeF(s));
}

void MiniMap::refresh() {
  refreshQueued_ = false;
  picture_ = QPixmap();
  sceneRect_ = QRectF();
  QGraphicsScene* scene = view_->graphScene();
  if (scene != nullptr) sceneRect_ = scene->itemsBoundingRect();
  if (!sceneRect_.isEmpty() && isVisible() && !collapsed_) {
    QRectF t = target();
    qreal dpr = devicePixelRatioF();
    pictureSize_ = t.size().toSize();
    picture_ = QPixmap((t.size() * dpr).toSize());
    picture_.setDevicePixelRatio(dpr);
    picture_.fill(Qt::white);
    QPainter p(&picture_);
    scene->render(&p, QRectF(QPointF(0, 0), t.size()), sceneRect_, Qt::KeepAspectRatio);
  }
  update();
}

QRect MiniMap::toggleButton() const {
  if (collapsed_) return rect();
  return QRect(width() - 18, 2, 16, 16);
}

void MiniMap::setCollapsed(bool collapsed) {
  if (collapsed == collapsed_) return;
  collapsed_ = collapsed;
  setToolTip(collapsed_ ? tr("Show the minimap") : QString());
  update();
  emit collapsedChanged(collapsed_);
}

void MiniMap::paintCollapsed(QPainter& p) {
  p.fillRect(rect(), palette().window());
  p.setPen(QColor(0x99, 0x99, 0x99));
  p.drawRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5));
  // A small map: the graph's frame and the visible part.
  QRectF glyph = QRectF(rect()).adjusted(6, 6, -6, -6);
  p.drawRect(glyph);
  p.fillRect(glyph.adjusted(2, 2, -glyph.width() / 2, -glyph.height() / 2),
             QColor(0x1a, 0x73, 0xe8));
}

void MiniMap::paintToggle(QPainter& p) {
  QRectF button = QRectF(toggleButton()).adjusted(0.5, 0.5, -0.5, -0.5);
  p.setPen(QColor(0x77, 0x77, 0x77));
  p.setBrush(palette().window());
  p.drawRect(button);
  p.drawLine(QPointF(button.left() + 4, button.center().y()),
             QPointF(button.right() - 4, button.center().y()));
}

void MiniMap::paintEvent(QPaintEvent*) {
  QPainter p(this);
  if (collapsed_) {
    paintCollapsed(p);
    return;
  }
  // Translucent over the graph until the mouse comes to it.
  p.setOpacity(underMouse() ? 1.0 : kRestingOpacity);
  p.fillRect(rect(), palette().window());
  if (sceneRect_.isEmpty()) {
    paintToggle(p);
    return;
  }
  QRectF t = target();
  if (picture_.isNull() || pictureSize_ != t.size().toSize()) {
    // Resized or first shown: render once, outside of painting.
    if (!refreshQueued_) {
      refreshQueued_ = true;
      QMetaObject::invokeMethod(this, &MiniMap::refresh, Qt::QueuedConnection);
    }
  } else {
    p.drawPixmap(t.topLeft(), picture_);
  }
  p.setPen(QColor(0x99, 0x99, 0x99));
  p.drawRect(t.adjusted(-0.5, -0.5, 0.5, 0.5));
  // The visible part of the scene.
  QRectF visible = view_->mapToScene(view_->viewport()->rect()).boundingRect();
  qreal sx = t.width() / sceneRect_.width(), sy = t.height() / sceneRect_.height();
  QRectF frame(t.left() + (visible.left() - sceneRect_.left()) * sx,
               t.top() + (visible.top() - sceneRect_.top()) * sy, visible.width() * sx,
               visible.height() * sy);
  p.setPen(QPen(QColor(0x1a, 0x73, 0xe8), 1.5));
  p.setBrush(QColor(0x1a, 0x73, 0xe8, 40));
  p.drawRect(frame.intersected(t.adjusted(-2, -2, 2, 2)));
  paintToggle(p);
}

void MiniMap::moveTo(const QPointF& pos) {
  QRectF t = target();
  if (t.isEmpty()) return;
  QPointF scenePos(sceneRect_.left() + (pos.x() - t.left()) / t.width() * sceneRect_.width(),
                   sceneRect_.top() + (pos.y() - t.top()) / t.height() * sceneRect_.height());
  view_->centerOn(scenePos);
}

void MiniMap::mousePressEvent(QMouseEvent* event) {
  if (toggleButton().contains(event->position().toPoint())) {
    setCollapsed(!collapsed_);
    return;
  }
  moveTo(event->position());
}

void MiniMap::mouseMoveEvent(QMouseEvent* event) {
  if (!collapsed_ && (event->buttons() & Qt::LeftButton)) moveTo(event->position());
}

void MiniMap::enterEvent(QEnterEvent*) {
  update();
}

void MiniMap::leaveEvent(QEvent*) {
  update();
}

void MiniMap::resizeEvent(QResizeEvent*) {
  picture_ = QPixmap();
}

}  // namespace passlab::ui
