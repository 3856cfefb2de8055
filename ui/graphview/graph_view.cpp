#include "ui/graphview/graph_view.h"

#include <QGraphicsItem>
#include <QGraphicsPixmapItem>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

#include "ui/graphview/graph_items.h"
#include "ui/graphview/graph_scene.h"

namespace passlab::ui {

namespace {
constexpr qreal kMinZoom = 0.01, kMaxZoom = 8.0;
// The overview replaces the items below this zoom when there are this many.
constexpr qreal kOverviewZoom = 0.2;
constexpr int kOverviewItems = 6000;
constexpr qreal kOverviewPixels = 24e6;  // largest cached picture
constexpr qreal kOverviewMaxSide = 32000;
}  // namespace

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

void GraphView::setGraphScene(GraphScene* scene) {
  detail_ = scene;
  if (overview_ == nullptr) {
    overview_ = new QGraphicsScene(this);
    overview_->setBackgroundBrush(Qt::white);
    overviewItem_ = overview_->addPixmap(QPixmap());
    overviewItem_->setTransformationMode(Qt::SmoothTransformation);
  }
  connect(detail_, &GraphScene::pictureChanged, this, [this] {
    overviewStale_ = true;  // rendered again only if it is shown
    updateMode();
  });
  setScene(detail_);
}

bool GraphView::showsOverview() const {
  return overview_ != nullptr && scene() == overview_;
}

void GraphView::switchTo(QGraphicsScene* target) {
  if (scene() == target) return;
  QPointF centre = mapToScene(viewport()->rect().center());
  QTransform t = transform();
  setScene(target);
  setTransform(t);
  centerOn(centre);
}

void GraphView::renderOverview() {
  overviewStale_ = false;
  QRectF r = detail_->sceneRect();
  overview_->setSceneRect(r);
  // Within the pixel budget, and no side past what the raster engine handles.
  overviewScale_ =
      std::min({kOverviewZoom, std::sqrt(kOverviewPixels / std::max(1.0, r.width() * r.height())),
                kOverviewMaxSide / std::max(1.0, std::max(r.width(), r.height()))});
  QSize size = (r.size() * overviewScale_).toSize().expandedTo(QSize(1, 1));
  QImage img(size, QImage::Format_RGB32);
  img.fill(Qt::white);
  {
    QPainter p(&img);
    detail_->render(&p, QRectF(QPointF(0, 0), QSizeF(size)), r, Qt::IgnoreAspectRatio);
  }
  overviewItem_->setPixmap(QPixmap::fromImage(img));
  overviewItem_->setPos(r.topLeft());
  overviewItem_->setTransform(
      QTransform::fromScale(r.width() / size.width(), r.height() / size.height()));
}

void GraphView::updateMode() {
  if (detail_ == nullptr) return;
  bool big =
      static_cast<int>(detail_->nodeItems().size() + detail_->edgeItems().size()) >= kOverviewItems;
  bool far = zoom() <= kOverviewZoom;
  if (big && far) {
    if (overviewStale_) renderOverview();
    // Only while the picture has at least as many pixels as the screen shows.
    if (zoom() <= overviewScale_ * 1.05) {
      switchTo(overview_);
      return;
    }
  }
  switchTo(detail_);
}

qreal GraphView::zoom() const {
  return transform().m11();
}

void GraphView::setZoom(qreal factor) {
  factor = std::clamp(factor, kMinZoom, kMaxZoom);
  QTransform t;
  t.scale(factor, factor);
  setTransform(t);
  updateMode();
  emit viewChanged();
}

void GraphView::zoomBy(qreal factor) {
  setZoom(zoom() * factor);
}

void GraphView::fitAll() {
  if (detail_ == nullptr) return;
  QRectF r = detail_->itemsBoundingRect();
  if (r.isEmpty()) return;
  fitInView(r.adjusted(-20, -20, 20, 20), Qt::KeepAspectRatio);
  // Never blow a tiny graph up past 1:1.
  if (zoom() > 1.0) setZoom(1.0);
  updateMode();
  emit viewChanged();
}

void GraphView::showStart() {
  if (detail_ == nullptr) return;
  const QRectF all = detail_->itemsBoundingRect();
  if (all.isEmpty()) return;
  fitAll();
  if (zoom() >= kReadableZoom) return;
  setZoom(kReadableZoom);
  const QRectF visible = mapToScene(viewport()->rect()).boundingRect();
  // The top band of the layout holds the graph's inputs and first ops.
  const QRectF topBand(all.left(), all.top(), all.width(), visible.height() / 3);
  QRectF inputs;
  for (QGraphicsItem* item : detail_->items(topBand))
    if (item->parentItem() == nullptr && item->isVisible())
      inputs |= item->sceneBoundingRect().intersected(topBand);
  const qreal x = inputs.isEmpty() ? all.center().x() : inputs.center().x();
  centerOn(QPointF(x, all.top() - 20 + visible.height() / 2));
  emit viewChanged();
}

void GraphView::reveal(const QRectF& rect) {
  if (zoom() < kReadableZoom) setZoom(1.0);
  centerOn(rect.center());
  emit viewChanged();
}

void GraphView::fitRect(const QRectF& rect, qreal maxZoom) {
  if (rect.isEmpty()) return;
  fitInView(rect.adjusted(-40, -40, 40, 40), Qt::KeepAspectRatio);
  if (zoom() > maxZoom) {
    setZoom(maxZoom);
    centerOn(rect.center());
  }
  updateMode();
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
  // Boxes win over arrows, arrows over frames. The overview is a picture:
  // ask the graph's own scene at the same place.
  QGraphicsItem* best = nullptr;
  const QList<QGraphicsItem*> under =
      showsOverview() ? detail_->items(mapToScene(viewPos), Qt::IntersectsItemShape,
                                       Qt::DescendingOrder, transform())
                      : items(viewPos);
  for (QGraphicsItem* it : under) {
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
