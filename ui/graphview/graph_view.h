// Pan (drag, scroll bars, arrow keys), zoom (wheel at the cursor, keys), fit;
// clicks and double-clicks on items are reported, not handled here.
#pragma once

#include <QGraphicsView>

class QGraphicsPixmapItem;

namespace passlab::ui {

class GraphScene;

// Far out on a big graph, thousands of boxes would each be drawn as a few
// pixels: the view then shows one cached picture of the whole graph instead
// (an overview scene), and switches back to the items when zoomed in.
class GraphView : public QGraphicsView {
  Q_OBJECT

 public:
  explicit GraphView(QWidget* parent = nullptr);

  void setGraphScene(GraphScene* scene);
  GraphScene* graphScene() const { return detail_; }
  bool showsOverview() const;
  // Pixels per scene point of the cached overview (0 before one was drawn).
  qreal overviewResolution() const { return overviewScale_; }

  qreal zoom() const;
  void setZoom(qreal factor);  // 1.0: one scene point per pixel
  void zoomBy(qreal factor);
  void fitAll();
  // The first view of a graph: all of it when it fits at a readable zoom,
  // else that zoom at the graph's inputs (the top of the layout), centred on
  // them; the rest is a scroll or a fit (fitAll) away.
  void showStart();
  // Labels are legible from this zoom on.
  static constexpr qreal kReadableZoom = 0.8;
  // Brings a scene rectangle into view, zooming in to a readable size when
  // the view is zoomed far out.
  void reveal(const QRectF& rect);
  // Fits a scene rectangle into the view, never zooming in past `maxZoom`.
  void fitRect(const QRectF& rect, qreal maxZoom = 1.0);

 signals:
  void itemClicked(QGraphicsItem* item);  // nullptr: empty space
  void itemDoubleClicked(QGraphicsItem* item);
  void viewChanged();  // scrolled, zoomed or resized (for the minimap)

 protected:
  void wheelEvent(QWheelEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void scrollContentsBy(int dx, int dy) override;

 private:
  QGraphicsItem* pick(const QPoint& viewPos) const;
  void updateMode();
  void renderOverview();
  void switchTo(QGraphicsScene* scene);

  QPoint pressPos_;
  GraphScene* detail_ = nullptr;
  QGraphicsScene* overview_ = nullptr;
  QGraphicsPixmapItem* overviewItem_ = nullptr;
  qreal overviewScale_ = 0;  // pixels per scene point of the cached picture
  bool overviewStale_ = true;
};

}  // namespace passlab::ui
