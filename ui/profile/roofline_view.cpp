#include "ui/profile/roofline_view.h"

#include <QChart>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>

#include <algorithm>
#include <cmath>
#include <limits>

namespace passlab::ui {

namespace {

struct Range {
  double lo = std::numeric_limits<double>::max(), hi = 0;
  void add(double x) {
    lo = std::min(lo, x);
    hi = std::max(hi, x);
  }
  bool valid() const { return hi > 0 && lo <= hi; }
};

// A power of ten at or below / above x.
double floorPow10(double x) {
  return std::pow(10.0, std::floor(std::log10(x)));
}
double ceilPow10(double x) {
  return std::pow(10.0, std::ceil(std::log10(x)));
}

QLogValueAxis* logAxis(const QString& title) {
  auto* a = new QLogValueAxis;
  a->setBase(10);
  a->setTitleText(title);
  a->setLabelFormat(QStringLiteral("%g"));
  a->setMinorTickCount(-1);
  return a;
}

}  // namespace

RooflineView::RooflineView(QWidget* parent) : QChartView(parent) {
  setRenderHint(QPainter::Antialiasing);
  setMinimumHeight(200);
  chart()->legend()->setAlignment(Qt::AlignBottom);
}

void RooflineView::setOutcome(ProfileOutcomePtr outcome) {
  outcome_ = std::move(outcome);
  rebuild();
}

void RooflineView::pickNear(const QPointF& value) {
  if (points_.empty()) return;
  // Nearest in log space: the axes are logarithmic.
  auto dist = [&value](const QPointF& p) {
    double dx = std::log10(p.x()) - std::log10(std::max(value.x(), 1e-12));
    double dy = std::log10(p.y()) - std::log10(std::max(value.y(), 1e-12));
    return dx * dx + dy * dy;
  };
  size_t best = 0;
  for (size_t i = 1; i < points_.size(); ++i)
    if (dist(points_[i]) < dist(points_[best])) best = i;
  emit nodeClicked(nodes_[best]);
}

void RooflineView::rebuild() {
  QChart* c = chart();
  c->removeAllSeries();
  for (QAbstractAxis* a : c->axes()) {
    c->removeAxis(a);
    delete a;
  }
  nodes_.clear();
  points_.clear();
  c->setTitle(QString());
  c->setMargins(QMargins(2, 2, 2, 2));
  if (!outcome_) return;

  auto* points = new QScatterSeries;
  points->setName(tr("Nodes"));
  points->setMarkerSize(8);
  Range xs, ys;
  for (const pipeline::NodeTiming& n : outcome_->profile.nodes) {
    if (n.depth != 0 || n.cost.flops <= 0 || n.bytesMoved == 0 || n.gflops <= 0) continue;
    QPointF p(n.cost.flops / static_cast<double>(n.bytesMoved), n.gflops);
    points->append(p);
    points_.push_back(p);
    nodes_.push_back(n.nodeId);
    xs.add(p.x());
    ys.add(p.y());
  }
  connect(points, &QScatterSeries::clicked, this, &RooflineView::pickNear);

  const auto& roofs = outcome_->roofs;
  if (roofs) {
    ys.add(roofs->gemmGflops);
    xs.add(roofs->gemmGflops / roofs->bandwidthGBps);  // the ridge point
  }
  if (!xs.valid() || !ys.valid()) {
    delete points;
    c->setTitle(tr("Roofline: no node with known FLOPs"));
    return;
  }
  double x0 = floorPow10(xs.lo), x1 = ceilPow10(xs.hi * 1.01);
  double y0 = floorPow10(ys.lo), y1 = ceilPow10(ys.hi * 1.01);
  if (x1 <= x0) x1 = x0 * 10;
  if (y1 <= y0) y1 = y0 * 10;
  auto* x = logAxis(tr("Arithmetic intensity (FLOP/byte)"));
  auto* y = logAxis(tr("GFLOP/s (achieved)"));
  x->setRange(x0, x1);
  y->setRange(y0, y1);
  c->addAxis(x, Qt::AlignBottom);
  c->addAxis(y, Qt::AlignLeft);

  if (roofs) {
    auto* roof = new QLineSeries;
    roof->setName(tr("Roofs: %1 GB/s, %2 GFLOP/s")
                      .arg(roofs->bandwidthGBps, 0, 'f', 1)
                      .arg(roofs->gemmGflops, 0, 'f', 1));
    double ridge = roofs->gemmGflops / roofs->bandwidthGBps;
    double start = std::max(x0, y0 / roofs->bandwidthGBps);
    roof->append(start, roofs->bandwidthGBps * start);
    if (ridge > start) roof->append(ridge, roofs->gemmGflops);
    roof->append(x1, roofs->gemmGflops);
    roof->setPen(QPen(QColor(0x55, 0x55, 0x55), 2));
    c->addSeries(roof);
    roof->attachAxis(x);
    roof->attachAxis(y);
  }
  c->addSeries(points);
  points->attachAxis(x);
  points->attachAxis(y);
}

}  // namespace passlab::ui
