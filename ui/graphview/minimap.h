// An overview of the whole graph with the visible part framed; click or drag
// to move there. The picture is rendered once per layout, not per frame.
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

 public slots:
  void refresh();  // the scene changed: render again

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  QRectF target() const;  // where the scene is drawn in the widget
  void moveTo(const QPointF& widgetPos);

  GraphView* view_;
  QPixmap picture_;
  QSize pictureSize_;  // the target size the picture was rendered for
  QRectF sceneRect_;
  bool refreshQueued_ = false;
};

}  // namespace passlab::ui
