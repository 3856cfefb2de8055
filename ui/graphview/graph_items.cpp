#include "ui/graphview/graph_items.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <cmath>

#include "ui/graphview/colors.h"
#include "ui/graphview/heat_mark.h"

namespace passlab::ui {

namespace {

// Zoom thresholds (device pixels per scene point).
constexpr qreal kLodOutline = 0.25;  // below: filled rectangles only
constexpr qreal kLodTitle = 0.45;    // title line
constexpr qreal kLodText = 0.7;      // every line
constexpr qreal kLodEdgeLabel = 0.9;
constexpr qreal kLineHeight = 14.0;

const QFont& titleFont() {
  static const QFont f = [] {
    QFont font;
    font.setPixelSize(11);
    font.setBold(true);
    return font;
  }();
  return f;
}
const QFont& textFont() {
  static const QFont f = [] {
    QFont font;
    font.setPixelSize(10);
    return font;
  }();
  return f;
}
const QFont& labelFont() {
  static const QFont f = [] {
    QFont font;
    font.setPixelSize(8);
    return font;
  }();
  return f;
}

QRectF toQt(const layout::Rect& r) {
  return QRectF(r.x, r.y, r.width, r.height);
}

}  // namespace

// ---- NodeItem ----

NodeItem::NodeItem(const layout::LayoutNode& node, int index, const layout::Rect& rect)
    : rect_(toQt(rect)),
      fill_(fillFor(node)),
      kind_(node.kind),
      key_(QString::fromStdString(node.key)),
      groupId_(QString::fromStdString(node.groupId)),
      valueName_(QString::fromStdString(node.valueName)),
      nodeId_(node.nodeId),
      index_(index),
      hasSubgraphs_(node.hasSubgraphs) {
  for (const std::string& l : node.lines) lines_ << QString::fromStdString(l);
  setZValue(2);
  setAcceptHoverEvents(false);
}

QRectF NodeItem::boundingRect() const {
  return rect_.adjusted(-3, -3, 3, 3);
}

void NodeItem::setLines(const QStringList& lines) {
  lines_ = lines;
  elided_.clear();
  update();
}

void NodeItem::setMarked(bool selected) {
  if (marked_ == selected) return;
  marked_ = selected;
  update();
}

void NodeItem::setHit(bool hit) {
  if (hit_ == hit) return;
  hit_ = hit;
  update();
}

void NodeItem::setDiff(DiffMark mark) {
  if (diff_ == mark) return;
  diff_ = mark;
  update();
}

void NodeItem::setHeat(double level) {
  if (heat_ == level) return;
  heat_ = level;
  update();
}

QColor diffColor(DiffMark m) {
  switch (m) {
    case DiffMark::kAdded:
      return QColor(0x1e, 0x8e, 0x3e);
    case DiffMark::kRemoved:
      return QColor(0xd9, 0x30, 0x25);
    case DiffMark::kChanged:
      return QColor(0xf2, 0x99, 0x00);
    case DiffMark::kNone:
      break;
  }
  return Qt::transparent;
}

void NodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
  const qreal lod = option->levelOfDetailFromTransform(painter->worldTransform());
  const bool diff = diff_ != DiffMark::kNone;
  QColor border = marked_ ? QColor(0x1a, 0x73, 0xe8)
                  : diff  ? diffColor(diff_)
                  : hit_  ? QColor(0xe8, 0x71, 0x0a)
                          : QColor(0x55, 0x55, 0x55);
  // A removed node is a ghost: its family colour washed out.
  QColor fill = diff_ == DiffMark::kRemoved ? QColor(0xfb, 0xe0, 0xde)
                : diff                      ? fill_.lighter(108)
                : heat_ >= 0                ? heatColor(heat_)
                                            : fill_;
  if (lod < kLodOutline) {
    painter->fillRect(rect_, (marked_ || hit_ || diff) ? border : fill);
    return;
  }
  painter->setRenderHint(QPainter::Antialiasing, lod >= kLodTitle);
  qreal width = marked_ || hit_ ? 2.5 : diff ? 3.5 : kind_ == layout::ItemKind::kGroup ? 1.8 : 1.0;
  QPen pen(border, width);
  if (diff_ == DiffMark::kRemoved) pen.setStyle(Qt::DashLine);
  painter->setPen(pen);
  painter->setBrush(fill);
  bool pill = kind_ == layout::ItemKind::kInput || kind_ == layout::ItemKind::kOutput;
  qreal radius = pill ? rect_.height() / 2 : 4;
  painter->drawRoundedRect(rect_, radius, radius);
  if (kind_ == layout::ItemKind::kGroup) {  // a stacked look says "more inside"
    painter->setPen(QPen(border, 1.0));
    painter->drawLine(rect_.bottomLeft() + QPointF(4, 3), rect_.bottomRight() + QPointF(-4, 3));
  }
  if (hasSubgraphs_) {  // corner mark: double-click opens the bodies
    QPolygonF corner;
    corner << rect_.topRight() + QPointF(-10, 0) << rect_.topRight()
           << rect_.topRight() + QPointF(0, 10);
    painter->setBrush(QColor(0xc0, 0x39, 0x2b));
    painter->setPen(Qt::NoPen);
    painter->drawPolygon(corner);
  }
  if (lod < kLodTitle || lines_.isEmpty()) return;

  const int shown = lod < kLodText ? 1 : static_cast<int>(lines_.size());
  if (elided_.size() != lines_.size()) {
    elided_.clear();
    for (int i = 0; i < lines_.size(); ++i) {
      QFontMetricsF fm(i == 0 ? titleFont() : textFont());
      elided_ << fm.elidedText(lines_[i], Qt::ElideMiddle, rect_.width() - 8);
    }
  }
  painter->setPen(QColor(0x20, 0x20, 0x20));
  qreal top = rect_.center().y() - kLineHeight * shown / 2.0;
  for (int i = 0; i < shown; ++i) {
    painter->setFont(i == 0 ? titleFont() : textFont());
    QRectF line(rect_.left() + 4, top + kLineHeight * i, rect_.width() - 8, kLineHeight);
    painter->drawText(line, Qt::AlignCenter, elided_[i]);
  }
}

// ---- EdgeItem ----

bool EdgeItem::labelsVisible_ = true;

void EdgeItem::setLabelsVisible(bool visible) {
  labelsVisible_ = visible;
}

EdgeItem::EdgeItem(const layout::LayoutEdge& edge, int index, const layout::EdgeRoute& route)
    : label_(QString::fromStdString(edge.label)),
      valueName_(QString::fromStdString(edge.valueName)),
      labelPos_(route.labelPos.x, route.labelPos.y),
      index_(index),
      from_(edge.from),
      to_(edge.to),
      multiplicity_(edge.multiplicity) {
  const auto& p = route.points;
  if (!p.empty()) {
    path_.moveTo(p[0].x, p[0].y);
    coarse_ << QPointF(p[0].x, p[0].y);
    if ((p.size() - 1) % 3 == 0) {
      for (size_t k = 1; k + 2 < p.size(); k += 3) {
        path_.cubicTo(p[k].x, p[k].y, p[k + 1].x, p[k + 1].y, p[k + 2].x, p[k + 2].y);
        coarse_ << QPointF(p[k + 2].x, p[k + 2].y);
      }
    } else {
      for (size_t k = 1; k < p.size(); ++k) {
        path_.lineTo(p[k].x, p[k].y);
        coarse_ << QPointF(p[k].x, p[k].y);
      }
    }
  }
  if (route.hasArrow && !p.empty()) {
    QPointF base(p.back().x, p.back().y), tip(route.arrowTip.x, route.arrowTip.y);
    QPointF d = tip - base;
    qreal len = std::hypot(d.x(), d.y());
    if (len > 0.01) {
      QPointF u = d / len, n(-u.y(), u.x());
      arrow_ << tip << base + n * 3.5 << base - n * 3.5;
    }
    coarse_ << tip;
  }
  bounds_ = path_.boundingRect().united(arrow_.boundingRect()).adjusted(-4, -4, 4, 4);
  if (!label_.isEmpty()) {
    QFontMetricsF fm(labelFont());
    bounds_ = bounds_.united(
        QRectF(labelPos_ + QPointF(3, -8), QSizeF(fm.horizontalAdvance(label_) + 6, 12)));
  }
  setZValue(multiplicity_ > 1 ? 1.1 : 1);
}

QPainterPath EdgeItem::shape() const {
  QPainterPathStroker s;
  s.setWidth(6);
  return s.createStroke(path_);
}

void EdgeItem::setMarked(bool marked) {
  if (marked_ == marked) return;
  marked_ = marked;
  setZValue(marked ? 1.5 : 1);
  update();
}

void EdgeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
  const qreal lod = option->levelOfDetailFromTransform(painter->worldTransform());
  QColor colour = marked_ ? QColor(0x1a, 0x73, 0xe8) : QColor(0x6b, 0x72, 0x80);
  qreal width = (marked_ ? 2.2 : 1.1) * (multiplicity_ > 1 ? 1.4 : 1.0);
  if (lod < kLodOutline) {
    painter->setPen(QPen(colour, 0));  // cosmetic hairline
    painter->drawPolyline(coarse_);
    return;
  }
  painter->setRenderHint(QPainter::Antialiasing, lod >= kLodTitle);
  painter->setPen(QPen(colour, width));
  painter->setBrush(Qt::NoBrush);
  painter->drawPath(path_);
  if (!arrow_.isEmpty()) {
    painter->setPen(Qt::NoPen);
    painter->setBrush(colour);
    painter->drawPolygon(arrow_);
  }
  if (labelsVisible_ && lod >= kLodEdgeLabel && !label_.isEmpty()) {
    painter->setFont(labelFont());
    painter->setPen(QColor(0x4b, 0x55, 0x63));
    painter->drawText(labelPos_ + QPointF(4, 3), label_);
  }
}

// ---- ClusterItem ----

ClusterItem::ClusterItem(const layout::LayoutCluster& cluster, int, const layout::Rect& rect)
    : rect_(toQt(rect)),
      label_(QString::fromStdString(cluster.label)),
      groupId_(QString::fromStdString(cluster.groupId)) {
  setZValue(0);
}

QPainterPath ClusterItem::shape() const {
  QPainterPath p;
  p.addRect(QRectF(rect_.topLeft(), QSizeF(rect_.width(), 18)));
  return p;
}

void ClusterItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
  const qreal lod = option->levelOfDetailFromTransform(painter->worldTransform());
  if (lod < kLodOutline) {
    painter->setPen(QPen(QColor(0x9a, 0xa9, 0xc0), 0));
    painter->setBrush(QColor(0xf7, 0xf9, 0xfc));
    painter->drawRect(rect_);
    return;
  }
  painter->setRenderHint(QPainter::Antialiasing, true);
  painter->setPen(QPen(QColor(0x9a, 0xa9, 0xc0), 1.0, Qt::DashLine));
  painter->setBrush(QColor(0xf7, 0xf9, 0xfc));
  painter->drawRoundedRect(rect_, 6, 6);
  if (lod >= kLodTitle) {
    painter->setFont(textFont());
    painter->setPen(QColor(0x44, 0x54, 0x6a));
    painter->drawText(QRectF(rect_.left() + 6, rect_.top() + 2, rect_.width() - 12, 14),
                      Qt::AlignLeft | Qt::AlignVCenter, QStringLiteral("▾ ") + label_);
  }
}

}  // namespace passlab::ui
