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
  if (!sceneRect_.isEmpty() && isVisible()) {
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

void MiniMap::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().window());
  if (sceneRect_.isEmpty()) return;
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
}

void MiniMap::moveTo(const QPointF& pos) {
  QRectF t = target();
  if (t.isEmpty()) return;
  QPointF scenePos(sceneRect_.left() + (pos.x() - t.left()) / t.width() * sceneRect_.width(),
                   sceneRect_.top() + (pos.y() - t.top()) / t.height() * sceneRect_.height());
  view_->centerOn(scenePos);
}

void MiniMap::mousePressEvent(QMouseEvent* event) {
  moveTo(event->position());
}

void MiniMap::mouseMoveEvent(QMouseEvent* event) {
  if (event->buttons() & Qt::LeftButton) moveTo(event->position());
}

void MiniMap::resizeEvent(QResizeEvent*) {
  picture_ = QPixmap();
}

}  // namespace passlab::ui
