#include "ui/properties/histogram_widget.h"

#include <QPainter>

#include <algorithm>

namespace passlab::ui {

HistogramWidget::HistogramWidget(QWidget* parent) : QWidget(parent) {
  setMinimumHeight(90);
}

void HistogramWidget::setData(std::vector<int64_t> bins, double low, double high) {
  bins_ = std::move(bins);
  low_ = low;
  high_ = high;
  update();
}

void HistogramWidget::clear() {
  bins_.clear();
  update();
}

void HistogramWidget::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().base());
  if (bins_.empty()) return;
  const int axis = fontMetrics().height() + 4;
  QRectF plot = QRectF(rect()).adjusted(4, 4, -4, -axis);
  int64_t peak = std::max<int64_t>(1, *std::max_element(bins_.begin(), bins_.end()));
  qreal w = plot.width() / static_cast<qreal>(bins_.size());
  p.setPen(Qt::NoPen);
  p.setBrush(QColor(0x5b, 0x8d, 0xd6));
  for (size_t i = 0; i < bins_.size(); ++i) {
    if (bins_[i] == 0) continue;
    // Square root scale: one outlier bin does not flatten the rest.
    qreal h = plot.height() * std::sqrt(static_cast<double>(bins_[i]) / static_cast<double>(peak));
    p.drawRect(QRectF(plot.left() + w * static_cast<qreal>(i), plot.bottom() - h,
                      std::max<qreal>(1, w - 1), h));
  }
  p.setPen(palette().text().color());
  p.drawLine(plot.bottomLeft(), plot.bottomRight());
  QRectF labels(plot.left(), plot.bottom() + 2, plot.width(), axis);
  p.drawText(labels, Qt::AlignLeft | Qt::AlignTop, QString::number(low_, 'g', 4));
  p.drawText(labels, Qt::AlignRight | Qt::AlignTop, QString::number(high_, 'g', 4));
}

}  // namespace passlab::ui
