// An overview of the whole graph with the visible part framed; click or drag
// to move there. The picture is rendered once per layout, not per frame. It
// floats over the graph, so it stays translucent until the mouse is over it,
// and its corner button collapses it to a small square (and back).
#pragma once

#include <QPixmap>
#include <QWidget>

namespace passlab::ui {

class GraphView;

class MiniMap : public QWidget {
  Q_OBJECT

 public:
  explicit MiniMap(GraphView* view, QWidget* parent = nullptr);
  QSize sizeHint() const override { return {200, 160}; }
  bool isCollapsed() const { return collapsed_; }
  // Where the collapse (or expand) button is, in widget coordinates.
  QRect toggleButton() const;
  static constexpr int kCollapsedSize = 24;
  static constexpr qreal kRestingOpacity = 0.55;  // while the mouse is elsewhere

 public slots:
  void refresh();  // the scene changed: render again
  void setCollapsed(bool collapsed);

 signals:
  void collapsedChanged(bool collapsed);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void enterEvent(QEnterEvent* event) override;
  void leaveEvent(QEvent* event) override;

 private:
  QRectF target() const;  // where the scene is drawn in the widget
  void moveTo(const QPointF& widgetPos);
  void paintCollapsed(QPainter& p);
  void paintToggle(QPainter& p);

  GraphView* view_;
  QPixmap picture_;
  QSize pictureSize_;  // the target size the picture was rendered for
  QRectF sceneRect_;
  bool refreshQueued_ = false;
  bool collapsed_ = false;
};

}  // namespace passlab::ui
