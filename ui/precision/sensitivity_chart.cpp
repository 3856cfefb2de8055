#include "ui/precision/sensitivity_chart.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QHorizontalStackedBarSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace passlab::ui {

namespace {

constexpr int kBarHeight = 18;
// An exact layer (infinite SNR) is drawn as long as the longest finite bar
// plus a margin; its label says ∞.
constexpr double kExactMargin = 1.1;

QString barLabel(const pipeline::LayerSensitivity& l) {
  QString s = QString::fromStdString(l.describe);
  return s.size() > 36 ? s.left(16) + QStringLiteral("…") + s.right(19) : s;
}

}  // namespace

QString snrText(double snrDb) {
  if (std::isinf(snrDb)) return snrDb > 0 ? QStringLiteral("∞") : QStringLiteral("-∞");
  return SensitivityChart::tr("%1 dB").arg(snrDb, 0, 'f', 1);
}

QString topKText(int k, double agreement) {
  return SensitivityChart::tr("top-%1 %2%").arg(k).arg(std::lround(100 * agreement));
}

SensitivityChart::SensitivityChart(QWidget* parent) : QChartView(parent) {
  setRenderHint(QPainter::Antialiasing);
  setMinimumHeight(160);
  chart()->setMargins(QMargins(2, 2, 2, 2));
  chart()->legend()->setAlignment(Qt::AlignTop);
}

void SensitivityChart::setRanking(std::vector<pipeline::LayerSensitivity> ranked,
                                  std::set<ir::NodeId> kept, int topK) {
  ranked_ = std::move(ranked);
  keptNodes_ = std::move(kept);
  topK_ = topK;
  rebuild();
}

QString SensitivityChart::barText(int layer) const {
  if (layer < 0 || layer >= barCount()) return {};
  const pipeline::LayerSensitivity& l = ranked_[static_cast<size_t>(layer)];
  QString text = QStringLiteral("%1  %2").arg(barLabel(l), snrText(l.snrDb));
  if (l.topK) text += QStringLiteral("  ") + topKText(topK_, *l.topK);
  return text;
}

int SensitivityChart::layerAt(int index) const {
  const int n = barCount();
  return index >= 0 && index < n ? n - 1 - index : -1;  // the most sensitive on top
}

void SensitivityChart::rebuild() {
  QChart* c = chart();
  c->removeAllSeries();
  for (QAbstractAxis* a : c->axes()) {
    c->removeAxis(a);
    delete a;
  }
  converted_ = kept_ = nullptr;
  setMinimumHeight(std::max(160, 60 + kBarHeight * barCount()));
  if (ranked_.empty()) return;
  double top = 0;
  for (const auto& l : ranked_)
    if (std::isfinite(l.snrDb)) top = std::max(top, l.snrDb);
  if (top <= 0) top = 1;
  // Stacked: each row has one bar, in the set of its kind (the other is 0).
  auto* series = new QHorizontalStackedBarSeries;
  converted_ = new QBarSet(tr("SNR with the layer alone converted"));
  kept_ = new QBarSet(tr("kept in float32"));
  kept_->setColor(QColor(0xe6, 0x7e, 0x22));
  QStringList labels;
  for (int i = barCount() - 1; i >= 0; --i) {
    const pipeline::LayerSensitivity& l = ranked_[static_cast<size_t>(i)];
    const double length = std::isfinite(l.snrDb) ? std::max(0.0, l.snrDb) : top * kExactMargin;
    const bool kept = keptNodes_.count(l.node) > 0;
    *converted_ << (kept ? 0.0 : length);
    *kept_ << (kept ? length : 0.0);
    labels << barText(i);
  }
  series->append(converted_);
  series->append(kept_);
  series->setBarWidth(0.8);
  c->addSeries(series);
  auto* y = new QBarCategoryAxis;
  y->append(labels);
  QFont small = y->labelsFont();
  small.setPointSizeF(small.pointSizeF() * 0.85);
  y->setLabelsFont(small);
  y->setTruncateLabels(false);  // the axis takes the room its labels need
  auto* x = new QValueAxis;
  x->setRange(0, top * kExactMargin * 1.02);
  x->setLabelFormat(QStringLiteral("%.0f dB"));
  x->setTickCount(5);
  c->addAxis(y, Qt::AlignLeft);
  c->addAxis(x, Qt::AlignBottom);
  series->attachAxis(x);
  series->attachAxis(y);
  c->legend()->setVisible(!keptNodes_.empty());
  connect(series, &QHorizontalStackedBarSeries::clicked, this,
          [this](int index, QBarSet*) { onBarClicked(index); });
}

void SensitivityChart::onBarClicked(int index) {
  const int layer = layerAt(index);
  if (layer < 0) return;
  emit layerClicked(layer, ranked_[static_cast<size_t>(layer)].node);
}

}  // namespace passlab::ui
