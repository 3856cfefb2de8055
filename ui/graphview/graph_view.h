// Pan (drag, scroll bars, arrow keys), zoom (wheel at the cursor, keys), fit;
// clicks and double-clicks on items are reported, not handled here.
#pragma once

#include <QGraphicsView>

namespace passlab::ui {

class GraphView : public QGraphicsView {
  Q_OBJECT

 public:
  explicit GraphView(QWidget* parent = nullptr);

  qreal zoom() const;
  void setZoom(qreal factor);  // 1.0: one scene point per pixel
  void zoomBy(qreal factor);
  void fitAll();
  // Brings a scene rectangle into view, zooming in to a readable size when
  // the view is zoomed far out.
  void reveal(const QRectF& rect);

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
  QPoint pressPos_;
};

}  // namespace passlab::ui
