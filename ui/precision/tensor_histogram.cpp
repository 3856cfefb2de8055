#include "ui/precision/tensor_histogram.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

#include "ui/precision/precision_target.h"

namespace passlab::ui {

namespace {

constexpr int kLeft = 8, kRight = 8, kTop = 6, kBottom = 20;  // kBottom: the axis' ends
const QColor kBarColor(0x3b, 0x82, 0xc4);
const QColor kClippedColor(0xc0, 0x39, 0x2b);
const QColor kRangeColor(0x27, 0xae, 0x60);

}  // namespace

TensorHistogram::TensorHistogram(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void TensorHistogram::setTensor(const QString& name, std::optional<TensorCalibration> stats,
                                passes::CalibrationMethod method) {
  name_ = name;
  stats_ = std::move(stats);
  method_ = method;
  update();
}

QString TensorHistogram::caption() const {
  if (!stats_) return {};
  const passes::QuantRange& r = stats_->range(method_);
  return tr("%1: values in [%2, %3]; %4 range [%5, %6], %7% clipped")
      .arg(name_)
      .arg(stats_->min, 0, 'g', 4)
      .arg(stats_->max, 0, 'g', 4)
      .arg(methodText(method_))
      .arg(r.lo, 0, 'g', 4)
      .arg(r.hi, 0, 'g', 4)
      .arg(100.0 * stats_->clippedShare(method_), 0, 'f', 3);
}

QRectF TensorHistogram::plotRect() const {
  return QRectF(kLeft, kTop, std::max(1, width() - kLeft - kRight),
                std::max(1, height() - kTop - kBottom));
}

double TensorHistogram::xOf(double value) const {
  const QRectF r = plotRect();
  const double span = stats_->max - stats_->min;
  const double t = span > 0 ? (value - stats_->min) / span : 0.5;
  return r.left() + r.width() * std::clamp(t, 0.0, 1.0);
}

bool TensorHistogram::barClipped(size_t bin) const {
  const passes::QuantRange& r = stats_->range(method_);
  const double width =
      (static_cast<double>(stats_->max) - stats_->min) / static_cast<double>(stats_->bins.size());
  const double lo = stats_->min + width * static_cast<double>(bin), hi = lo + width;
  return hi <= r.lo || lo >= r.hi;
}

int TensorHistogram::clippedBars() const {
  if (!stats_) return 0;
  int n = 0;
  for (size_t k = 0; k < stats_->bins.size(); ++k) n += stats_->bins[k] > 0 && barClipped(k);
  return n;
}

void TensorHistogram::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().base());
  if (!stats_ || stats_->bins.empty()) return;
  const QRectF r = plotRect();
  const passes::QuantRange& range = stats_->range(method_);
  // The range quantized to, under the bars.
  QColor band = kRangeColor;
  band.setAlpha(40);
  const double x0 = xOf(range.lo), x1 = xOf(range.hi);
  p.fillRect(QRectF(QPointF(x0, r.top()), QPointF(x1, r.bottom())), band);
  // Bars: heights on a square-root scale, so the tails stay visible.
  const uint64_t top = *std::max_element(stats_->bins.begin(), stats_->bins.end());
  const double w = r.width() / static_cast<double>(stats_->bins.size());
  for (size_t k = 0; k < stats_->bins.size(); ++k) {
    if (stats_->bins[k] == 0) continue;
    const double h = r.height() * std::sqrt(static_cast<double>(stats_->bins[k]) /
                                            static_cast<double>(std::max<uint64_t>(top, 1)));
    p.fillRect(QRectF(r.left() + w * static_cast<double>(k), r.bottom() - std::max(1.0, h),
                      std::max(1.0, w - 1), std::max(1.0, h)),
               barClipped(k) ? kClippedColor : kBarColor);
  }
  p.setPen(QPen(kRangeColor, 2));
  p.drawLine(QPointF(x0, r.top()), QPointF(x0, r.bottom()));
  p.drawLine(QPointF(x1, r.top()), QPointF(x1, r.bottom()));
  p.setPen(palette().color(QPalette::Mid));
  p.drawLine(r.bottomLeft(), r.bottomRight());
  // The ends of the axis (the panel writes the caption above).
  const QFontMetrics fm = p.fontMetrics();
  p.setPen(palette().color(QPalette::Text));
  const QRectF axis(r.left(), r.bottom() + 2, r.width(), fm.height());
  p.drawText(axis, Qt::AlignLeft, QString::number(stats_->min, 'g', 4));
  p.drawText(axis, Qt::AlignRight, QString::number(stats_->max, 'g', 4));
}

}  // namespace passlab::ui
